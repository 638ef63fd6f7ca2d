package protocols

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// This file runs protocols on a tiny synchronous simulator: the protocol's
// ring (oriented, for a two-way ring) with FIFO channels, initiators woken
// first in position order, then round-robin delivery (one message from each
// channel in the topology's order, again) until no channel holds a message.
//
// On a unidirectional ring the one schedule says a lot: every process has a
// single in-channel and reacts deterministically to the sequence of messages
// on it (an initiator's Wake always comes first), so the ring is a Kahn
// network and the sequence of messages on every channel, the final local
// states and the number of messages are the same under every FIFO schedule.
// Running each placement and initiator set once therefore covers all FIFO
// executions' outcomes; explore_test.go checks the intermediate states
// exhaustively for small rings. On a two-way ring a process has two
// in-channels and the schedule is one of many: the simulator checks that
// one, on rings larger than the explorer can sweep.

// simResult is what a simulation ends with.
type simResult struct {
	locals [][]byte
	// sent counts messages by kind name; total is their sum.
	sent  map[string]int
	total int
	// leftover is the number of messages still in channels (0 unless the
	// run was cut off).
	leftover int
	// seen holds every local state a process was in, for the state tests.
	seen [][]byte
}

// maxSimSteps bounds a simulation; every correct protocol here quiesces in
// far fewer steps on rings of up to 8.
const maxSimSteps = 100000

// simulate runs m on the ring with ids by position and the given initiators.
// It fails on the first state with two leaders or two different known
// leaders, and on a run that does not quiesce.
func simulate(m spec.Machine, ids []spec.ID, initiators spec.Set) (simResult, error) {
	n := len(ids)
	info := m.Info()
	top := firstTopology(info.Topology, n)
	res := simResult{locals: make([][]byte, n), sent: map[string]int{}}
	in := make([][]spec.Message, len(top.Edges)) // in[e]: the contents of channel e
	edge := map[spec.Endpoint]int{}              // out-port to channel
	for e, ed := range top.Edges {
		edge[ed.From] = e
	}
	var out spec.Outbox
	step := func(i int, ev spec.Event) error {
		out.Reset()
		res.locals[i] = m.Step(nil, res.locals[i], ev, &out)
		res.seen = append(res.seen, res.locals[i])
		for _, s := range out.Sends() {
			e, ok := edge[spec.Endpoint{Node: i, Port: s.Port}]
			if !ok {
				return fmt.Errorf("%s: process %d sent on port %d", info.Name, ids[i], s.Port)
			}
			in[e] = append(in[e], s.Msg)
			res.total++
			res.sent[kindName(info, s.Msg.Kind)]++
		}
		return checkSafety(m, res.locals)
	}
	for i, id := range ids {
		res.locals[i] = m.Init(spec.Env{ID: id, Ports: top.Ports[i]})
		res.seen = append(res.seen, res.locals[i])
	}
	for _, i := range initiators.Members() {
		if err := step(i, spec.Event{Kind: spec.Wake}); err != nil {
			return res, err
		}
	}
	for steps := 0; ; {
		progress := false
		for e, ed := range top.Edges {
			if len(in[e]) == 0 {
				continue
			}
			msg := in[e][0]
			in[e] = in[e][1:]
			if err := step(ed.To.Node, spec.Event{Kind: spec.Deliver, Port: ed.To.Port, Msg: msg}); err != nil {
				return res, err
			}
			progress = true
			if steps++; steps > maxSimSteps {
				for _, c := range in {
					res.leftover += len(c)
				}
				return res, fmt.Errorf("%s: no quiescence after %d steps", info.Name, maxSimSteps)
			}
		}
		if !progress {
			return res, nil
		}
	}
}

// firstTopology is the first network of family k on n processes, computed
// once: a family of networks is enumerated with each one's automorphisms,
// too slow to redo for every simulated run.
func firstTopology(k spec.TopologyKind, n int) spec.Topology {
	type key struct {
		k spec.TopologyKind
		n int
	}
	topsMu.Lock()
	defer topsMu.Unlock()
	t, ok := tops[key{k, n}]
	if !ok {
		t = spec.MustTopologies(k, n)[0]
		tops[key{k, n}] = t
	}
	return t
}

var (
	topsMu sync.Mutex
	tops   = map[any]spec.Topology{}
)

func kindName(info spec.Info, k spec.Kind) string {
	if int(k) < len(info.Messages) {
		return info.Messages[k]
	}
	return fmt.Sprintf("kind%d", k)
}

// violation is a broken property: its name as spec.Info.Breaks spells it,
// and what happened.
type violation struct{ prop, what string }

func (v violation) Error() string { return v.prop + ": " + v.what }

// safetyViolations checks the properties that must hold in every state: at
// most one leader, and all known leaders equal.
func safetyViolations(m spec.Machine, locals [][]byte) []violation {
	var vs []violation
	elected, leader := 0, spec.None
	for _, l := range locals {
		d := m.Decision(l)
		if d.Status == spec.Elected {
			elected++
		}
		if d.Leader != spec.None {
			if leader != spec.None && leader != d.Leader {
				vs = append(vs, violation{"agreement", fmt.Sprintf("known leaders %d and %d", leader, d.Leader)})
			}
			leader = d.Leader
		}
	}
	if elected > 1 {
		vs = append(vs, violation{"at-most-one-leader", fmt.Sprintf("%d processes elected", elected)})
	}
	return vs
}

// checkSafety returns the first safety violation, if any.
func checkSafety(m spec.Machine, locals [][]byte) error {
	if vs := safetyViolations(m, locals); len(vs) > 0 {
		return vs[0]
	}
	return nil
}

// checkEnd checks a quiescent run of a correct protocol: everyone decided,
// exactly one leader, the declared winner, everyone knows it if AllLearn,
// and the declared bound.
func checkEnd(m spec.Machine, ids []spec.ID, initiators spec.Set, res simResult) error {
	info := m.Info()
	elected := spec.None
	for i, l := range res.locals {
		d := m.Decision(l)
		switch {
		case d.Status == spec.Undecided:
			return fmt.Errorf("process %d undecided at the end: %s", ids[i], m.Format(l))
		case d.Status == spec.Elected:
			if elected != spec.None {
				return fmt.Errorf("two leaders %d and %d", elected, ids[i])
			}
			elected = ids[i]
		}
	}
	if !info.Winner.Valid(elected, ids, initiators) {
		return fmt.Errorf("elected %d, want %d (%v)", elected, info.Winner.Expected(ids, initiators), info.Winner)
	}
	for i, l := range res.locals {
		if d := m.Decision(l); info.AllLearn && d.Leader != elected {
			return fmt.Errorf("process %d knows leader %d, want %d", ids[i], d.Leader, elected)
		}
	}
	if res.leftover != 0 {
		return fmt.Errorf("%d messages left over", res.leftover)
	}
	if max := info.Bound.Max(len(ids)); res.total > max {
		return fmt.Errorf("%d messages, bound %s = %d", res.total, info.Bound.Formula, max)
	}
	return nil
}

// correct returns the registered protocols without a Bug.
func correct(t *testing.T) []spec.Machine {
	t.Helper()
	var ms []spec.Machine
	for _, m := range All() {
		if m.Info().Bug == "" {
			ms = append(ms, m)
		}
	}
	if len(ms) != 12 {
		t.Fatalf("want 12 correct protocols, have %d", len(ms))
	}
	return ms
}

// Id placements by position; the ring runs from position i to i+1.
func increasing(n int) []spec.ID {
	ids := make([]spec.ID, n)
	for i := range ids {
		ids[i] = spec.ID(i + 1)
	}
	return ids
}

func decreasing(n int) []spec.ID {
	ids := increasing(n)
	slices.Reverse(ids)
	return ids
}

// mixed puts the odd ids first, then the even ones: 1,3,5,2,4,6.
func mixed(n int) []spec.ID {
	var ids []spec.ID
	for start := 1; start <= 2; start++ {
		for id := start; id <= n; id += 2 {
			ids = append(ids, spec.ID(id))
		}
	}
	return ids
}

func TestCorrectProtocolsElectTheWinner(t *testing.T) {
	placements := []struct {
		name string
		ids  func(int) []spec.ID
	}{
		{"increasing", increasing},
		{"decreasing", decreasing},
		{"mixed", mixed},
	}
	for _, m := range correct(t) {
		for n := 1; n <= 6; n++ {
			for _, pl := range placements {
				inits := []struct {
					name string
					set  spec.Set
				}{
					{"all", spec.All(n)},
					{"first", spec.Set(0).With(0)},
					{"last", spec.Set(0).With(n - 1)},
					{"even", evenPositions(n)},
				}
				for _, in := range inits {
					ids := pl.ids(n)
					t.Run(fmt.Sprintf("%s/n=%d/%s/%s", m.Info().Name, n, pl.name, in.name), func(t *testing.T) {
						res, err := simulate(m, ids, in.set)
						if err == nil {
							err = checkEnd(m, ids, in.set, res)
						}
						if err != nil {
							t.Fatalf("ids %v initiators %v: %v", ids, in.set.Members(), err)
						}
					})
				}
			}
		}
	}
}

func evenPositions(n int) spec.Set {
	var s spec.Set
	for i := 0; i < n; i += 2 {
		s = s.With(i)
	}
	return s
}

// TestExactCounts pins the message counts the sources give where the
// placement makes them exact (docs/references.md).
func TestExactCounts(t *testing.T) {
	type want map[string]int
	tests := []struct {
		name  string
		proto string
		ids   func(int) []spec.ID
		want  func(n int) want
	}{
		// The lecture notes' tree election: "two wakeup messages and two
		// tokens are sent along each channel" of the N-1 links.
		{"every execution", "tree", mixed, func(n int) want { return want{"wakeup": 2*n - 2, "tok": 2*n - 2} }},
		// The lecture notes' LeLann: every initiator's token makes n hops.
		{"all initiators", "lelann", mixed, func(n int) want { return want{"tok": n * n} }},
		// The lecture slides' LeLann: each of the n nodes' messages passes all
		// others.
		{"all join", "lelann-list", mixed, func(n int) want { return want{"elect": n * n} }},
		// The lecture slides' best case: "Processes are ordered in the ring in
		// increasing sequence so that message i (i < n) only goes once":
		// each successor has a larger id. (n-1) + n probes.
		{"best case", "cr", increasing, func(n int) want { return want{"probe": 2*n - 1, "selected": n} }},
		// Worst case, decreasing sequence: "message i must be passed i
		// times", n(n+1)/2.
		{"worst case", "cr", decreasing, func(n int) want { return want{"probe": n * (n + 1) / 2, "selected": n} }},
		// The lecture notes' min form mirrors it: the best case has each
		// successor smaller, the worst each successor larger.
		{"best case", "cr-min", decreasing, func(n int) want { return want{"tok": 2*n - 1, "ldr": n} }},
		{"worst case", "cr-min", increasing, func(n int) want { return want{"tok": n * (n + 1) / 2, "ldr": n} }},
		// DKR with ids increasing along the ring: every acn is larger than
		// c except at the process after n, which keeps 1; one round, then
		// n ones and n smalls.
		{"one round", "dkr", increasing, func(n int) want {
			if n == 1 {
				return want{"one": 1, "small": 1}
			}
			return want{"one": 2 * n, "two": n, "small": n}
		}},
		// Peterson with ids decreasing along the ring: only the process
		// after n keeps an id (n), then n's id travels to n's owner and
		// "elected" goes round.
		{"one round", "peterson", decreasing, func(n int) want {
			switch n {
			case 1:
				return want{"tid": 1, "elected": 1}
			case 2:
				// n's owner sees its id as nntid in round 1; the
				// other process's next tid dies at the leader.
				return want{"tid": 5, "elected": 2}
			}
			return want{"tid": 2*n + n - 1, "elected": n}
		}},
		// Franklin with ids increasing along the ring: only n survives
		// round 0 (2n ids), then its last round (2n) and the announcement.
		{"one round", "franklin", increasing, func(n int) want {
			if n == 1 {
				return want{"id": 2, "leader": 1}
			}
			return want{"id": 4 * n, "leader": n}
		}},
	}
	for _, tt := range tests {
		m, ok := Lookup(tt.proto)
		if !ok {
			t.Fatalf("%s not registered", tt.proto)
		}
		for n := 1; n <= 8; n++ {
			t.Run(fmt.Sprintf("%s/%s/n=%d", tt.proto, tt.name, n), func(t *testing.T) {
				ids := tt.ids(n)
				res, err := simulate(m, ids, spec.All(n))
				if err == nil {
					err = checkEnd(m, ids, spec.All(n), res)
				}
				if err != nil {
					t.Fatal(err)
				}
				w := tt.want(n)
				for _, k := range m.Info().Messages {
					if res.sent[k] != w[k] {
						t.Errorf("ids %v: %d %s messages, want %d (all: %v)", ids, res.sent[k], k, w[k], res.sent)
					}
				}
			})
		}
	}
}

// TestAllPlacements runs every correct protocol on every placement and every
// initiator set of small rings (all FIFO executions, by the Kahn argument at
// the top of this file), and on every placement of larger rings with all
// processes initiating. It also checks that the declared bound is reached
// where the analysis in the protocol's comment says it is tight.
func TestAllPlacements(t *testing.T) {
	maxN, maxSubsetN := 7, 5
	if testing.Short() {
		maxN, maxSubsetN = 5, 4
	}
	for _, m := range correct(t) {
		info := m.Info()
		t.Run(info.Name, func(t *testing.T) {
			top := maxN
			if info.Topology.Linked() {
				top = min(top, spec.MaxNetworkN(info.Topology))
			}
			for n := 1; n <= top; n++ {
				most := 0
				for ids := range permutations(n) {
					sets := []spec.Set{spec.All(n)}
					if n <= maxSubsetN {
						sets = sets[:0]
						for s := spec.Set(1); s <= spec.All(n); s++ {
							sets = append(sets, s)
						}
					}
					for _, set := range sets {
						res, err := simulate(m, ids, set)
						if err == nil {
							err = checkEnd(m, ids, set, res)
						}
						if err != nil {
							t.Fatalf("n=%d ids %v initiators %v: %v", n, ids, set.Members(), err)
						}
						most = max(most, res.total)
					}
				}
				t.Logf("n=%d: at most %d messages, bound %d", n, most, info.Bound.Max(n))
				if reached, ok := tight[info.Name]; ok && reached(n) && most != info.Bound.Max(n) {
					t.Errorf("n=%d: the bound %d is said to be reached, but the most is %d", n, info.Bound.Max(n), most)
				}
			}
		})
	}
}

// tight says for which n a protocol's Bound.Max is reached by some placement
// with all processes initiating.
var tight = map[string]func(n int) bool{
	"lelann":      func(int) bool { return true },
	"lelann-list": func(int) bool { return true },
	"cr":          func(int) bool { return true },
	"cr-min":      func(int) bool { return true },
	// Some placement makes all ⌊log₂ n⌋ rounds with two or more active
	// processes happen (checked up to n = 7). Peterson's bound is not
	// reached: the largest id meets its owner before a full last lap.
	"dkr": func(int) bool { return true },
	// Ids that halve the active processes every round (franklin.go).
	"franklin": func(int) bool { return true },
}

// permutations yields every placement of the ids 1..n. Each yielded slice is
// fresh.
func permutations(n int) func(yield func([]spec.ID) bool) {
	return func(yield func([]spec.ID) bool) {
		ids := increasing(n)
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == n {
				return yield(slices.Clone(ids))
			}
			for i := k; i < n; i++ {
				ids[k], ids[i] = ids[i], ids[k]
				if !rec(k + 1) {
					return false
				}
				ids[k], ids[i] = ids[i], ids[k]
			}
			return true
		}
		rec(0)
	}
}
