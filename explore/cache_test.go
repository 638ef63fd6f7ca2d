package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// With a memory budget too small for any breadth-first search, every
// configuration is searched with state caching; verdicts, message ranges
// and violated properties must be those of the unbounded search. A cache
// this small evicts almost everything, so states are explored many times
// over: the test shows nothing is missed, not that it is fast.
func TestMemoryBoundedSearch(t *testing.T) {
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	for _, m := range protocols.All() {
		info := m.Info()
		for n := 1; n <= fixtures.MaxN(info, maxN); n++ {
			t.Run(fmt.Sprintf("%s/n=%d", info.Name, n), func(t *testing.T) {
				space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels}
				opts := explore.DefaultOptions()
				want := explore.Check(context.Background(), m, space, opts)
				opts.Memory = 1 // bytes: forces state caching everywhere
				explore.NoDisk(&opts)
				got := explore.Check(context.Background(), m, space, opts)
				if got.Cached != got.Configs && got.Violation == nil {
					t.Errorf("%d of %d configurations used state caching", got.Cached, got.Configs)
				}
				// Depth-first, the first violation met may be of another
				// property than breadth-first's: both must find one, and
				// the bounded one must replay.
				if (got.Violation == nil) != (want.Violation == nil) || got.Incomplete != "" {
					t.Fatalf("bounded: %s %v, unbounded: %s %v", got.Verdict(), got.Violated, want.Verdict(), want.Violated)
				}
				if v := got.Violation; v != nil {
					tr, err := counterexamples.Rebuild(m, v)
					if err != nil {
						t.Fatal(err)
					}
					if o, err := counterexamples.Replay(tr.ToFile(), m); err != nil || !o.Confirmed {
						t.Errorf("the bounded search's %s trace does not replay: %v %s", v.Property, err, o.Why)
					}
					return
				}
				if got.MinMessages != want.MinMessages || got.MaxMessages != want.MaxMessages || got.Terminals < want.Terminals {
					t.Errorf("bounded: messages %d..%d, %d final states; unbounded %d..%d, %d", got.MinMessages, got.MaxMessages, got.Terminals, want.MinMessages, want.MaxMessages, want.Terminals)
				}
			})
		}
	}
}
