package explore

import (
	"context"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestAmpleConditions checks what ample returns, state by state, against
// the conditions of docs/reduction.md, on the full graphs of protocols
// with visible steps everywhere (every protocol decides) and with cycles
// (cr-min-noabsorb, peterson-nocheck), on FIFO and on bag channels (where
// a message sent to a process is a new step of it): a proper subset is the enabled
// steps of one process (C1: its wake-up pending, or FIFO with every input
// channel holding a message), none changes that process's decision (C2),
// and none leads to a state found at a depth no greater (C3). Comparing
// results (TestReductionPreservesResults) cannot see a missing C1 or C2
// with today's protocols; this can. (C3 is checked too, but these
// protocols' cycles have one step enabled at a time, so nothing reduces
// there: removing C3 does not fail this test either.)
func TestAmpleConditions(t *testing.T) {
	var reduced, visible, closing int // over everything: the test must meet each case
	for _, name := range []string{"cr", "dkr", "peterson", "cr-min-noabsorb", "peterson-nocheck"} {
		m, _ := protocols.Lookup(name)
		for _, ch := range []spec.Channels{spec.FIFO, spec.Bag} {
			for cfg := range (configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Channels: ch}).Configs() {
				budget := int64(1 << 40)
				x := newSearcher(context.Background(), Options{Exact: true}, &budget)
				x.keepStates = true
				x.search(NewSystem(m, cfg)) // unreduced: every state, with its depth
				for i := range x.states() {
					s := x.state(i)
					acts := x.sy.Enabled(&s, nil)
					d := x.depthOf(i)
					closes := func(enc []byte) bool {
						j, seen := x.lookup(enc)
						return seen && x.depthOf(j) <= d
					}
					// What the conditions rule out, to show the test meets it.
					for _, a := range acts {
						t2, _, _ := x.sy.Apply(&s, a)
						if x.sy.Machine.Decision(t2.Locals[a.Proc]) != x.sy.Machine.Decision(s.Locals[a.Proc]) {
							visible++
						}
						if closes(t2.Encode(nil)) {
							closing++
						}
					}
					amp := append([]Action(nil), x.ample(&s, acts, closes)...)
					if len(amp) == len(acts) {
						continue
					}
					reduced++
					p := amp[0].Proc
					if !s.Wake.Has(p) && !inputsFull(x.sy, &s, p) {
						t.Fatalf("%s %s: ample set of p%d, whose inputs others can change (C1)", name, cfg, p)
					}
					for _, a := range acts {
						if (a.Proc == p) != contains(amp, a) {
							t.Fatalf("%s %s: ample set is not exactly p%d's enabled steps: %v of %v", name, cfg, p, amp, acts)
						}
					}
					for _, a := range amp {
						t2, _, _ := x.sy.Apply(&s, a)
						if x.sy.Machine.Decision(t2.Locals[p]) != x.sy.Machine.Decision(s.Locals[p]) {
							t.Fatalf("%s %s: ample step %v changes p%d's decision (C2)", name, cfg, a, p)
						}
						if closes(t2.Encode(nil)) {
							t.Fatalf("%s %s: ample step %v closes onto depth <= %d (C3)", name, cfg, a, d)
						}
					}
				}
			}
		}
	}
	if reduced == 0 || visible == 0 || closing == 0 {
		t.Errorf("%d reduced states, %d visible steps, %d closing steps: the test does not meet every condition", reduced, visible, closing)
	}
}

func contains(acts []Action, a Action) bool {
	for _, b := range acts {
		if b == a {
			return true
		}
	}
	return false
}

// inputsFull is C1's second case, written again here as the test's own
// oracle: on FIFO channels, every channel into p holds a message.
func inputsFull(sy *System, s *State, p int) bool {
	if sy.Config.Channels != spec.FIFO {
		return false
	}
	for e, ed := range sy.Config.Topology.Edges {
		if ed.To.Node == p && len(s.Chans[e]) == 0 {
			return false
		}
	}
	return true
}
