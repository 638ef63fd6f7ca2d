package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestLassoLengths pins the lassos of the buggy variants that run for
// ever: the steps to the shallowest state on a cycle (LoopAt) and the
// shortest cycle through it, the fewest over the configurations, in the
// engines that build the graph differently (collapsed and byte-encoded
// states; with costs, the analysis keeps the whole topological order).
// A lasso that starts its search for a cycle from another state than the
// first one found is longer: 7, 11 and 15 steps for cr-min-noabsorb at
// n = 2, 3 and 4 instead of 6, 9 and 12. n = 1 has a cycle of one step,
// a self-loop, the one cycle that a check for cycles missing one state
// would miss. Each trace must replay, and its last step return to the
// state after step LoopAt.
func TestLassoLengths(t *testing.T) {
	messages := []Cost{{Name: "messages", Of: func(spec.Message) int64 { return 1 }}}
	for _, tc := range []struct {
		algo          string
		n             int
		loopAt, cycle int
	}{
		{"cr-min-noabsorb", 1, 2, 1},
		{"cr-min-noabsorb", 2, 4, 2},
		{"cr-min-noabsorb", 3, 6, 3},
		{"cr-min-noabsorb", 4, 8, 4},
		{"hs-announce-noabsorb", 1, 2, 1},
		{"hs-announce-noabsorb", 2, 11, 2},
		{"hs-announce-noabsorb", 3, 26, 3},
		{"hs-replyback", 3, 14, 2},
		{"hs-replyback", 4, 14, 2},
		{"peterson-nocheck", 3, 7, 6},
		{"peterson-nocheck", 4, 9, 8},
	} {
		m, ok := protocols.Lookup(tc.algo)
		if !ok {
			t.Fatalf("no protocol %s", tc.algo)
		}
		space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, tc.n), Channels: spec.FIFO}
		for _, e := range []struct {
			name string
			opts Options
		}{
			{"collapsed", Options{POR: true, Workers: 1}},
			{"bytes", Options{POR: true, Workers: 1, bytes: true}},
			{"costs", Options{POR: true, Workers: 1, Costs: messages}},
		} {
			t.Run(fmt.Sprintf("%s/n=%d/%s", tc.algo, tc.n, e.name), func(t *testing.T) {
				res := Check(context.Background(), m, space, e.opts)
				v := res.Violation
				if v == nil || v.Property != invariants.Termination || res.Internal != "" {
					t.Fatalf("%s (%+v; internal error: %q), want a termination violation", res.Verdict(), v, res.Internal)
				}
				if v.LoopAt != tc.loopAt || len(v.Trace)-v.LoopAt != tc.cycle {
					t.Errorf("lasso of %d steps then a cycle of %d, want %d then %d", v.LoopAt, len(v.Trace)-v.LoopAt, tc.loopAt, tc.cycle)
				}
				if err := lassoReturns(m, v); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// lassoReturns replays v's trace and reports whether it is a lasso: LoopAt
// is a step within it, and its last step returns to the state after step
// LoopAt.
func lassoReturns(m spec.Machine, v *Violation) error {
	if v.LoopAt < 0 || v.LoopAt >= len(v.Trace) {
		return fmt.Errorf("the cycle starts after step %d of a trace of %d", v.LoopAt, len(v.Trace))
	}
	sy := NewSystem(m, v.Config)
	s := sy.Initial()
	var back []byte
	for k, a := range v.Trace {
		if k == v.LoopAt {
			back = s.Encode(nil)
		}
		if !slices.Contains(sy.Enabled(&s, nil), a) {
			return fmt.Errorf("step %d, %s, is not enabled", k+1, sy.describe(a))
		}
		next, _, err := sy.Apply(&s, a)
		if err != nil {
			return fmt.Errorf("step %d fails: %s", k+1, err.Detail)
		}
		s = next
	}
	if string(s.Encode(nil)) != string(back) {
		return fmt.Errorf("the last step does not return to the state after step %d", v.LoopAt)
	}
	return nil
}

// handGraph records a graph given by each state's successors into g, as
// a depth-first search records it (the state numbers are free: no
// levels), with no costs.
func handGraph(g *graph, succ [][]int32) {
	g.reset(false, false, 0)
	for range succ {
		g.record(-1, 0, 0)
	}
	for i, ws := range succ {
		g.beginEdges(int32(i))
		for _, w := range ws {
			g.addEdge(w)
		}
		g.endEdges(int32(i))
	}
}

// TestFirstCycle checks the cycle a lasso ends in on small graphs: through
// the first state, in index order, that lies on a cycle (not one reached
// later, not one merely leading to a cycle), and a shortest one through
// it. Every state is given as left by Kahn's algorithm: what firstCycle
// must find does not depend on which states before a cycle are.
func TestFirstCycle(t *testing.T) {
	for _, tc := range []struct {
		name string
		succ [][]int32
		want []int32
	}{
		{"self-loop", [][]int32{{1}, {2}, {2}}, []int32{2, 2}},
		{"at the initial state", [][]int32{{0, 1}, {}}, []int32{0, 0}},
		{"the first of two cycles", [][]int32{{1, 2}, {3}, {5}, {4}, {1}, {5}}, []int32{1, 3, 4, 1}},
		{"between two cycles", [][]int32{{1}, {2}, {1, 3}, {4}, {3}}, []int32{1, 2, 1}},
		{"after states that lead to it", [][]int32{{1}, {2}, {3}, {2}}, []int32{2, 3, 2}},
		{"the shorter of two cycles through it", [][]int32{{1}, {2, 4}, {3}, {1}, {1}}, []int32{1, 4, 1}},
		{"no cycle", [][]int32{{1, 2}, {2}, {}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g graph
			handGraph(&g, tc.succ)
			left := make([]int32, len(tc.succ))
			for i := range left {
				left[i] = 1
			}
			if got := g.firstCycle(left); !slices.Equal(got, tc.want) {
				t.Errorf("cycle %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLassoWithoutCycle: a lasso asked for on a graph without a cycle
// (the check for cycles was wrong) is an internal error, not a
// termination violation without a trace.
func TestLassoWithoutCycle(t *testing.T) {
	x := &searcher{}
	handGraph(&x.graph, [][]int32{{1, 2}, {2}, {}})
	v, err := x.lasso([]int32{1, 1, 1})
	if ie := new(InternalError); v != nil || !errors.As(err, &ie) {
		t.Errorf("violation %+v, error %v; want an internal error", v, err)
	}
}

// TestPathRangesChecksTheOrder feeds the path analysis orders that are
// not topological orders of the graph: each must be an internal error at
// once. The first is what a check for cycles that misses one state would
// hand on for cr-min-noabsorb at n = 1 (a self-loop at its third state).
// A true order must still pass.
func TestPathRangesChecksTheOrder(t *testing.T) {
	selfLoop := [][]int32{{1}, {2}, {2}}
	cycle := [][]int32{{1}, {2, 3}, {1}, {}}
	for _, tc := range []struct {
		name  string
		succ  [][]int32
		order []int32
	}{
		{"a state on a self-loop left out", selfLoop, []int32{0, 1}},
		{"a self-loop", selfLoop, []int32{0, 1, 2}},
		{"a state twice", selfLoop, []int32{0, 1, 1}},
		{"a state out of range", selfLoop, []int32{0, 1, 3}},
		{"a cycle", cycle, []int32{0, 1, 2, 3}},
		{"a cycle left out", cycle, []int32{0, 3}},
		{"a state after its successor", [][]int32{{1, 2}, {2}, {}}, []int32{0, 2, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g graph
			handGraph(&g, tc.succ)
			_, _, _, _, err := g.pathRanges(tc.order, 1, true)
			if ie := new(InternalError); !errors.As(err, &ie) {
				t.Errorf("error %v, want an internal error", err)
			}
		})
	}
	t.Run("a topological order", func(t *testing.T) {
		var g graph
		handGraph(&g, [][]int32{{1, 3}, {2}, {3}, {}})
		mins, maxs, worst, via, err := g.pathRanges([]int32{0, 1, 2, 3}, 1, true)
		if err != nil || !slices.Equal(mins, []int64{1}) || !slices.Equal(maxs, []int64{3}) || worst != 3 {
			t.Fatalf("paths %v to %v to state %d, error %v; want 1 to 3 to state 3", mins, maxs, worst, err)
		}
		var x searcher
		if got := x.pathTo(worst, via); !slices.Equal(got, []int32{0, 1, 2, 3}) {
			t.Errorf("longest path %v, want [0 1 2 3]", got)
		}
	})
}
