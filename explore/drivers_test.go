package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestStoresAndDriversAgree runs every protocol and variant, and the pure
// fixtures (one with a cycle), n = 1..4, through the stores and drivers
// plan chooses among that the other agreement tests do not pair: the
// visited set of whole records (-exact) against fingerprints, and
// depth-first against breadth-first search, unreduced and reduced. With
// -exact everything but the flag and the collision estimate must be the
// same; depth-first search, whose traces are not shortest and which stops
// at its first violation, must agree on the verdict, and where there is
// none on every count, the final states and the message range.
// (TestCollapsedSearchAgrees pairs the collapsed and byte stores,
// TestParallelSearchAgrees the parallel driver and the sequential one,
// TestReductionPreservesResults reduced and unreduced, and the reference
// explorer all of them.)
func TestStoresAndDriversAgree(t *testing.T) {
	if raceOn {
		t.Skip("one worker: nothing for the race detector")
	}
	machines := append(protocols.All(), spec.Erase(fixtures.Correct{}), spec.Erase(fixtures.OddSkips{}),
		spec.Erase(fixtures.Overflow{}), spec.Erase(fixtures.Heartbeat{}), spec.Erase(fixtures.Clockwise{}))
	for _, m := range machines {
		for n := 1; n <= fixtures.MaxN(m.Info(), 4); n++ {
			for _, por := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/n=%d/por=%v", m.Info().Name, n, por), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels}
					opts := DefaultOptions()
					opts.POR, opts.Workers, opts.ComparisonOnly = por, 1, false
					base := Check(context.Background(), m, space, opts)
					if base.States == 0 {
						t.Fatal("nothing explored")
					}
					ex := opts
					ex.Exact = true
					exact := Check(context.Background(), m, space, ex)
					if diff := cmp.Diff(base, exact, cmpopts.IgnoreFields(Result{}, "Elapsed", "Exact", "Collision"), cmpopts.EquateEmpty()); diff != "" {
						t.Errorf("results differ (-fingerprints +exact):\n%s", diff)
					}
					df := opts
					df.Search = DFS
					dfs := Check(context.Background(), m, space, df)
					if (base.Violation == nil) != (dfs.Violation == nil) {
						t.Fatalf("verdict %s breadth-first, %s depth-first", base.Verdict(), dfs.Verdict())
					}
					if base.Violation != nil {
						return // depth-first stops at its first, which need not be the same
					}
					type figures struct {
						States, Transitions, Terminals int64
						Digest                         uint64
						Min, Max                       int
					}
					a := figures{base.States, base.Transitions, base.Terminals, base.FinalDigest, base.MinMessages, base.MaxMessages}
					b := figures{dfs.States, dfs.Transitions, dfs.Terminals, dfs.FinalDigest, dfs.MinMessages, dfs.MaxMessages}
					if por { // a reduction keeps other states depending on the order
						a.States, a.Transitions, b.States, b.Transitions = 0, 0, 0, 0
					}
					if a != b {
						t.Errorf("breadth-first %+v, depth-first %+v", a, b)
					}
				})
			}
		}
	}
}
