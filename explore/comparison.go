package explore

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// The comparison-only check, step by step. A protocol that only compares
// ids is made of steps that commute with every order-preserving
// relabelling f of the ids: running a step on f(state, event) gives f of
// what it gives on (state, event). If every step reachable in a
// configuration commutes with f, the configuration relabelled by f reaches
// exactly the images of its states, so this is what re-exploring the
// configuration under f would check, and more: it also sees arithmetic
// whose effect never reaches a decision or a message count. It costs two
// runs of each distinct step at its first use, where re-exploring cost a
// search per relabelling.
//
// f is drawn for each step from the ids the step reads (configs.Relabellings
// applied to them), so it does not depend on which configuration took the
// step first: a step that fails is never remembered, and every
// configuration that takes it reports it, whatever the workers did.
//
// Where the ids of a local state are is known from its Fields method
// (spec.Relabel). A protocol whose states are encoded otherwise falls back
// to re-exploring each configuration (compareRelabelled).

// stepComparison is the per-step check's setting, shared by the systems
// (and their parallel copies) of one searcher.
type stepComparison struct {
	seed uint64
	// missed records that a step's ids could not be located (spec.Relabel
	// said no): the configuration is then re-explored under relabellings.
	missed atomic.Bool
}

// errNoRelabel is checkRelabelled's answer for a step whose state's ids
// it cannot locate.
var errNoRelabel = &StepError{Property: "(no relabelling)"}

// idMap is an order-preserving map from the positive ids of a step (from,
// ascending) to their images (to); ids of zero or below, spec.None among
// them, map to themselves, which keeps the order since every image is
// positive. stray is the first positive id asked for outside from.
type idMap struct {
	from, to []spec.ID
	stray    spec.ID
}

func (m *idMap) apply(id spec.ID) spec.ID {
	if id <= spec.None {
		return id
	}
	k, ok := slices.BinarySearch(m.from, id)
	if !ok {
		if m.stray == spec.None {
			m.stray = id
		}
		return id
	}
	return m.to[k]
}

// stepIDs returns the positive ids a step reads, ascending and distinct:
// its local state's and its message's; false if the state's cannot be
// located.
func (sy *System) stepIDs(local []byte, ev spec.Event) (ids []spec.ID, ok bool) {
	_, ok = spec.Relabel(sy.Machine, nil, local, func(id spec.ID) spec.ID {
		if id > spec.None {
			ids = append(ids, id)
		}
		return id
	})
	if ev.Kind == spec.Deliver && ev.Msg.ID > spec.None {
		ids = append(ids, ev.Msg.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids), ok
}

// checkRelabelled checks that a's step from local, which gave next and
// sends, commutes with each of the comparison-only relabellings of the
// ids it reads. It reports a comparison-only StepError that shows both
// results; step-panicked if the step panics on the relabelled input;
// errNoRelabel if the ids cannot be located. It runs the step again, so
// sends must not be the outbox's.
func (sy *System) checkRelabelled(local []byte, a Action, next []byte, sends []spec.Send) (err *StepError) {
	defer func() {
		// spec.Relabel runs the state's Fields method, protocol code.
		if r := recover(); r != nil {
			err = &StepError{invariants.StepPanicked, fmt.Sprintf("%s: encoding its state with the ids relabelled panicked: %v", sy.describe(a), r)}
		}
	}()
	ev := sy.Event(a)
	ids, ok := sy.stepIDs(local, ev)
	if !ok {
		return errNoRelabel
	}
	if len(ids) == 0 {
		return nil
	}
	for _, rl := range configs.Relabellings {
		m := idMap{from: ids, to: rl.Relabel(ids, sy.cmp.seed)}
		rlocal, _ := spec.Relabel(sy.Machine, nil, local, m.apply)
		rev := ev
		rev.Msg.ID = m.apply(ev.Msg.ID)
		// What the relabelled step must give, computed first: running it
		// reuses the outbox.
		want, ok := spec.Relabel(sy.Machine, nil, next, m.apply)
		if !ok {
			return errNoRelabel
		}
		wantSends := make([]spec.Send, len(sends))
		for k, s := range sends {
			s.Msg.ID = m.apply(s.Msg.ID)
			wantSends[k] = s
		}
		stray := m.stray
		got, gotSends, err := sy.runEvent(nil, rlocal, rev, a)
		// Only a finding names the relabelling: built on every step, the
		// text was most of a sweep's garbage.
		what := func() string {
			return fmt.Sprintf("relabelling the ids it reads, %s, as %s (%s: the same order, %s)", order(ids), order(m.to), rl.Name, rl.What)
		}
		if err != nil {
			err.Detail += " when run with " + what()
			return err
		}
		if stray != spec.None || !bytes.Equal(got, want) || !sameSends(gotSends, wantSends) {
			// Before blaming the ids, rule out a step that is not a
			// function of its input: it gives what it gave, and the
			// relabelled step twice the same.
			got, gotSends = slices.Clone(got), slices.Clone(gotSends)
			if err := sy.checkPurity(local, a, next, sends, firstUseRuns); err != nil {
				return err
			}
			if err := sy.checkPurity(rlocal, Action{Kind: a.Kind, Proc: a.Proc, Edge: a.Edge, Msg: rev.Msg, Choice: a.Choice}, got, gotSends, firstUseRuns); err != nil {
				err.Detail += " (with " + what() + ")"
				return err
			}
		}
		switch {
		case stray != spec.None:
			return &StepError{invariants.ComparisonOnly, fmt.Sprintf("%s gives %s, with the id %d, which is neither its state's nor its message's: a step that only compares ids can only pass on those it has (%s)",
				sy.describe(a), sy.result(next, sends), stray, what())}
		case !bytes.Equal(got, want) || !sameSends(gotSends, wantSends):
			return &StepError{invariants.ComparisonOnly, fmt.Sprintf("%s does more than compare ids: %s and running it gives %s, but relabelling what it gave, %s, gives %s",
				sy.describe(a), what(), sy.result(got, gotSends), sy.result(next, sends), sy.result(want, wantSends))}
		}
	}
	return nil
}

// CheckRelabelled runs the comparison-only check of a's step from s, with
// the relabellings' random draws seeded by seed (Options.ComparisonSeed):
// the check the search made when it first took the step. Replay uses it to
// confirm a comparison-only counterexample.
func (sy *System) CheckRelabelled(s *State, a Action, seed uint64) *StepError {
	c := *sy
	c.cmp = &stepComparison{seed: seed}
	c.out = spec.Outbox{}
	local := s.Locals[a.Proc]
	next, sends, err := c.run(nil, local, a)
	if err != nil {
		return err
	}
	if err := c.checkRelabelled(local, a, next, slices.Clone(sends)); err != errNoRelabel {
		return err
	}
	return &StepError{invariants.ComparisonOnly, "the protocol's local states do not say where their ids are (no Fields method): the step cannot be checked alone"}
}

// CheckInitRelabelled checks that the initial states of sy's configuration
// commute with the comparison-only relabellings of each process's id, as
// the steps must (checkRelabelled): a protocol that does arithmetic on its
// id in Init starts the relabelled configuration elsewhere. It returns the
// first difference, described; "" if none, or if the states' ids cannot
// be located.
func (sy *System) CheckInitRelabelled(seed uint64) (detail string) {
	return sy.checkInitRelabelled(seed, nil)
}

// checkInitRelabelled is CheckInitRelabelled skipping the environments in
// passed, and adding those that pass: Init is a function of its
// environment, and a sweep meets the same few thousand.
func (sy *System) checkInitRelabelled(seed uint64, passed *envMemo[bool]) (detail string) {
	defer func() {
		if r := recover(); r != nil {
			if ip, ok := r.(initPanic); ok {
				detail = ip.detail + " (on a relabelled id)"
				return
			}
			detail = fmt.Sprintf("encoding an initial state with the ids relabelled panicked: %v", r)
		}
	}()
	top := sy.Config.Topology
	for i := range top.N {
		env := sy.env(i)
		if passed != nil {
			if _, ok := passed.get(i, env); ok {
				continue
			}
		}
		local := sy.init(i, env)
		ids := []spec.ID{env.ID}
		for _, rl := range configs.Relabellings {
			m := idMap{from: ids, to: rl.Relabel(ids, seed)}
			want, ok := spec.Relabel(sy.Machine, nil, local, m.apply)
			if !ok {
				return ""
			}
			renv := env
			renv.ID = m.to[0]
			got := sy.init(i, renv)
			if m.stray != spec.None || !bytes.Equal(got, want) {
				return fmt.Sprintf("Init of p%d does more than compare ids: with id %d it gives [%s], but with id %d (%s: the same order, %s) it gives [%s], not the relabelled [%s]",
					i, env.ID, sy.format(local), renv.ID, rl.Name, rl.What, sy.format(got), sy.format(want))
			}
		}
		if passed != nil {
			passed.put(i, env, true)
		}
	}
	return ""
}

// order renders ascending ids as "3 < 5 < 9".
func order(ids []spec.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = fmt.Sprint(id)
	}
	return strings.Join(s, " < ")
}
