// Package elcheck checks a leader-election protocol from Go code: Verify
// explores every interleaving of every configuration of a spec.Machine on
// n processes, as `elcheck verify` does, and returns the verdict, the
// figures and, when a property is violated, the shortest counterexample
// already re-executed.
//
// A protocol of one's own is a spec.Protocol turned into a machine with
// spec.Erase (docs/writing-a-protocol.md). To check it from a test, see
// package elchecktest; to give it the whole command line, package cli.
package elcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// MaxN is the largest number of processes Verify accepts, as the command
// line does: initiator sets are 64-bit masks, and past 16 even one
// configuration is out of reach.
const MaxN = 16

// Report is what Verify established.
type Report struct {
	// Verdict is the outcome (verified, violated or incomplete) and the
	// property violated or the reason the search stopped.
	Verdict invariants.Verdict
	// Algo, N and Channels say what was checked.
	Algo     string
	N        int
	Channels spec.Channels
	// Configurations is the number of configurations (id placements and
	// initiator sets on each topology) in the space checked;
	// ConfigurationsDone those explored completely.
	Configurations, ConfigurationsDone int
	// States is the number of distinct states visited.
	States int64
	// MinMessages and MaxMessages are the fewest and most messages of a
	// complete execution; -1 if no configuration was explored completely.
	MinMessages, MaxMessages int
	// Counterexample is the shortest execution that breaks Verdict.Property
	// (the first in enumeration order among equals), re-executed step by
	// step (possibly none: a finding about the configuration as a whole);
	// nil unless the verdict is violated, or if Init panicked (there is no
	// initial state). If the search stopped early
	// (Result.Incomplete), it is the shortest found before the stop, and a
	// shorter one may exist. Counterexample.ToFile is
	// the JSON form `elcheck replay` reads.
	Counterexample *counterexamples.Trace
	// Text is Counterexample rendered for a person, as `elcheck verify`
	// prints it; empty without one.
	Text string
	// Result is the explorer's whole result, for figures not copied above
	// (each property's status and note, transitions, depth...).
	Result *explore.Result
}

// Option changes what Verify checks, or how.
type Option func(*settings) error

type settings struct {
	// space is the configurations checked; its networks, unless an
	// option gives them, are the protocol's family's, built once the
	// options are read (enumerating a family is the costly part, and
	// needless when one network is given).
	space configs.Space
	opts  explore.Options
	n     int
	info  spec.Info
	// kind is the family checked: the protocol's, or Family's.
	kind spec.TopologyKind
	// anyPorts widens the networks to every port numbering once they
	// are known (AnyOrientation).
	anyPorts bool
	conf     counterexamples.Confirmation
}

// Channels checks under the channel semantics c instead of the protocol's
// own (Info.Channels).
func Channels(c spec.Channels) Option {
	return func(s *settings) error { s.space.Channels = c; return nil }
}

// IDs fixes the id placement: ids[i] is the id of the process at position
// i. There must be n of them, distinct, each spec.MinID to spec.MaxID.
// Without it every placement is checked, up to the topology's symmetries.
func IDs(ids ...spec.ID) Option {
	return func(s *settings) error {
		if len(ids) != s.n {
			return fmt.Errorf("%d ids for %d processes: give one id per position", len(ids), s.n)
		}
		if err := spec.CheckIDs(ids); err != nil {
			return err
		}
		s.space.IDs = slices.Clone(ids)
		return nil
	}
}

// Initiators fixes the processes that wake up spontaneously, by position
// 0..n-1. Without it every non-empty set is checked.
func Initiators(positions ...int) Option {
	return func(s *settings) error {
		if len(positions) == 0 {
			return errors.New("no initiators: give at least one position, or leave the option out for every non-empty set")
		}
		var set spec.Set
		for _, p := range positions {
			if p < 0 || p >= s.n {
				return fmt.Errorf("initiator %d is not a position: positions are 0 to %d", p, s.n-1)
			}
			set = set.With(p)
		}
		s.space.Initiators = set
		return nil
	}
}

// AnyOrientation checks every numbering of each process's ports, up to
// the network's symmetries, instead of the topology's own: on a two-way
// ring, every process's "port 0 leads clockwise" either way (an
// unoriented ring), 2^n (n-1)!/2 placements for n >= 3 instead of (n-1)!.
// A protocol that relies on a consistent orientation fails under it.
func AnyOrientation() Option {
	return func(s *settings) error { s.anyPorts = true; return nil }
}

// Family checks every network of family k on n processes instead of the
// protocol's own family, where the protocol runs on several
// (spec.TopologyKind.Families: a protocol for connected graphs runs on
// trees and on the complete graph too), as `elcheck verify -topology`.
func Family(k spec.TopologyKind) Option {
	return func(s *settings) error {
		if !slices.Contains(s.info.Topology.Families(), k) {
			return fmt.Errorf("it runs on a %v, not on a %v", s.info.Topology, k)
		}
		sp, err := configs.NewSpace(k, s.n)
		if err != nil {
			return fmt.Errorf("no %v of %d processes: %v", k, s.n, err)
		}
		s.kind = k
		s.space.Topologies = sp.Topologies
		return nil
	}
}

// Network checks the one network of the family (the protocol's, or
// Family's if given before) whose two-way links are links, processes
// numbered 0..n-1, as `elcheck verify -graph=0-1,1-2`.
func Network(links ...[2]int) Option {
	return func(s *settings) error {
		if !s.kind.Linked() {
			return fmt.Errorf("a %v is not given by its links", s.kind)
		}
		t, err := spec.NewNetwork(s.kind, s.n, links)
		if err != nil {
			return err
		}
		s.space.Topologies = []spec.Topology{t}
		return nil
	}
}

// Capacity bounds every channel to k messages (0: unbounded) instead of the
// protocol's own Info.Capacity: a send into a full channel blocks its
// process until the receiver makes room, and a terminal state with a
// blocked process is a deadlock (docs/semantics.md), as `elcheck verify
// -capacity`.
func Capacity(k int) Option {
	return func(s *settings) error {
		if k < 0 || k > 64 {
			return fmt.Errorf("capacity %d: use 1 to 64 messages per channel, or 0 for unbounded channels", k)
		}
		s.space.Capacity = k
		return nil
	}
}

// Reduction turns partial-order and symmetry reduction on (the default) or
// off. Both lose nothing (docs/reduction.md); off is for cross-checking.
func Reduction(on bool) Option {
	return func(s *settings) error {
		s.opts.POR, s.space.AllPlacements = on, !on
		return nil
	}
}

// Workers sets how many configurations are searched at once; 0, the
// default, is one per CPU. Results do not depend on it.
func Workers(w int) Option {
	return func(s *settings) error {
		if w < 0 || w > 1024 {
			return fmt.Errorf("%d workers: use 1 to 1024, or 0 for one per CPU", w)
		}
		s.opts.Workers = w
		return nil
	}
}

// MaxStates stops the search after limit distinct states, with an
// incomplete verdict unless a violation was found by then; 0 is no limit.
func MaxStates(limit int64) Option {
	return func(s *settings) error {
		if limit < 0 {
			return fmt.Errorf("a state limit of %d: use 0 for none, or a positive number", limit)
		}
		s.opts.MaxStates = limit
		return nil
	}
}

// Space checks exactly the configurations of sp (its networks, ids,
// initiators, channels, capacity, reductions and shard) instead of those
// built from the protocol and the options before it; options after it
// narrow sp. It is for a caller that builds its space itself, as
// `elcheck verify` does from its flags; sp's networks must have n
// processes.
func Space(sp configs.Space) Option {
	return func(s *settings) error {
		if len(sp.Topologies) == 0 || sp.N() != s.n {
			return fmt.Errorf("a space of %d processes given for n = %d", sp.N(), s.n)
		}
		s.space = sp
		return nil
	}
}

// Explore replaces the explorer's options (explore.DefaultOptions, and what
// the options before it set) with o: for what no other option sets, as
// `elcheck verify`'s -exact, -search, -first, -memory and progress
// reports; options after it change o.
func Explore(o explore.Options) Option {
	return func(s *settings) error { s.opts = o; return nil }
}

// Confirm sets how the counterexample is made sure of before it is
// reported (counterexamples.Confirmation: by default rebuilt and checked
// in this process); `elcheck verify` also replays it in a fresh process.
func Confirm(c counterexamples.Confirmation) Option {
	return func(s *settings) error { s.conf = c; return nil }
}

// Verify checks every property of m on every configuration of n processes
// of m's topology (narrowed by opts) and returns the report. Cancelling ctx
// stops the search with an incomplete verdict.
//
// The error is for what Verify could not check: a nil machine or one whose
// Info does not validate, n out of range or not a size m's topology comes
// in, a bad option, or a fault of elcheck itself (to be reported). A
// violated property is not an error: it is in the report.
//
// Protocols that keep state outside their local state between steps are
// named step-purity, as by `elcheck verify`: the purity check during the
// search runs steps again, the counterexample is re-executed, and a
// comparison-only finding at a step is run again on a copy of its
// configuration with ids the search had not used, where a package-level
// cache filled by the search is empty. Unlike `elcheck verify`, Verify
// does not replay the counterexample in a fresh process (it cannot
// re-execute the caller's program; Confirm lets a caller that can do it),
// so state that survives even those may show a counterexample that does
// not reproduce.
func Verify(ctx context.Context, m spec.Machine, n int, opts ...Option) (*Report, error) {
	if m == nil {
		return nil, errors.New("elcheck: no protocol (nil machine)")
	}
	info := m.Info()
	if err := info.Validate(); err != nil {
		return nil, fmt.Errorf("elcheck: %v", err)
	}
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("elcheck: %s on %d processes: n must be between 1 and %d", info.Name, n, MaxN)
	}
	s := &settings{opts: explore.DefaultOptions(), n: n, info: info, kind: info.Topology,
		space: configs.Space{Channels: info.Channels, Capacity: info.Capacity, PortBlind: info.PortBlind}}
	for _, o := range opts {
		if err := o(s); err != nil {
			return nil, fmt.Errorf("elcheck: %s: %v", info.Name, err)
		}
	}
	if err := s.networks(); err != nil {
		return nil, err
	}
	res := explore.Check(ctx, m, s.space, s.opts)
	if res.Internal != "" {
		what, stack, _ := strings.Cut(res.Internal, "\n")
		return nil, &InternalError{Algo: info.Name, Search: true, What: what, Stack: stack}
	}
	rep := &Report{
		Algo: info.Name, N: n, Channels: res.Channels,
		Configurations: res.Configs, ConfigurationsDone: res.ConfigsDone, States: res.States,
		MinMessages: res.MinMessages, MaxMessages: res.MaxMessages, Result: res,
	}
	t, err := s.conf.Confirm(m, res)
	if err != nil {
		return nil, &InternalError{Algo: info.Name, What: err.Error(), Err: err}
	}
	rep.Counterexample = t
	rep.Verdict = res.Verdict()
	if rep.Counterexample != nil {
		rep.Text = rep.Counterexample.Text()
	}
	return rep, nil
}

// networks completes the space once the options are read: the protocol's
// own family unless an option gave networks, each port numbering of them
// with AnyOrientation.
func (s *settings) networks() error {
	if s.space.Topologies == nil {
		own, err := configs.NewSpace(s.info.Topology, s.n)
		if err != nil {
			return fmt.Errorf("elcheck: %s cannot run on %d processes: %v", s.info.Name, s.n, err)
		}
		s.space.Topologies = own.Topologies
	}
	if s.anyPorts {
		if err := s.space.AnyPorts(); err != nil {
			return fmt.Errorf("elcheck: %s: %v", s.info.Name, err)
		}
	}
	return nil
}

// InternalError is Verify's error for a fault of elcheck itself, to be
// reported, rather than of what it was asked: a panic in its own code
// during the search, or a counterexample that does not re-execute.
type InternalError struct {
	// Algo is the protocol checked.
	Algo string
	// Search is set for a fault during the search, unset for one in
	// re-executing its counterexample.
	Search bool
	// What says what went wrong, on one line; Stack is the stack of a
	// panic during the search, if there is one.
	What, Stack string
	// Err is the re-execution's error (nil for a fault of the search).
	Err error
}

func (e *InternalError) Error() string {
	if e.Search {
		return fmt.Sprintf("elcheck: internal error during the search of %s: %s; please report it", e.Algo, e.What)
	}
	return fmt.Sprintf("elcheck: internal error: %s; please report it", e.What)
}

// Unwrap returns the re-execution's error.
func (e *InternalError) Unwrap() error { return e.Err }
