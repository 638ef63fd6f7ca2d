package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestCollapsedSearchAgrees runs every protocol and buggy variant, every
// configuration for n <= 4 (5 without -short), on FIFO channels with and
// without partial-order reduction, with collapsed states and with byte
// encodings, and compares the whole results: counts, final-state digests,
// message range, verdicts and the counterexample, step for step.
func TestCollapsedSearchAgrees(t *testing.T) {
	maxN := 5
	if testing.Short() {
		maxN = 4
	}
	for _, m := range protocols.All() {
		for n := 1; n <= maxN; n++ {
			for _, por := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/n=%d/por=%v", m.Info().Name, n, por), func(t *testing.T) {
					space := Space{N: n, Topology: m.Info().Topology, Channels: spec.FIFO}
					opts := DefaultOptions()
					opts.POR, opts.Workers = por, 1
					got := Check(context.Background(), m, space, opts)
					opts.bytes = true
					want := Check(context.Background(), m, space, opts)
					if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
						t.Fatalf("results differ (-bytes +collapsed):\n%s", diff)
					}
					if got.States == 0 {
						t.Fatal("nothing explored")
					}
				})
			}
		}
	}
}

// TestCollapsedSearchIsUsed checks that the searches the comparison above
// relies on do run collapsed, and the ones it cannot serve do not.
func TestCollapsedSearchIsUsed(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	top, _ := spec.NewTopology(m.Info().Topology, 4)
	cfg := spec.Config{Topology: top, IDs: []spec.ID{3, 1, 4, 2}, Initiators: spec.All(4), Channels: spec.FIFO}
	for _, tc := range []struct {
		name string
		opts func(*Options)
		want bool
	}{
		{"unreduced FIFO", func(*Options) {}, true},
		{"reduced", func(o *Options) { o.POR = true }, true},
		{"exact", func(o *Options) { o.Exact = true }, false},
		{"time", func(o *Options) { o.Time = true }, false},
		{"dfs", func(o *Options) { o.Search = DFS }, false},
		{"bag", func(*Options) {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			tc.opts(&opts)
			c := cfg
			if tc.name == "bag" {
				c.Channels = spec.Bag
			}
			budget := int64(1 << 40)
			x := newSearcher(context.Background(), opts, &budget)
			x.reduce = opts.POR
			r := x.search(x.system(m, c))
			// (DKR needs FIFO channels: on bags it may fail; that is fine here.)
			if x.collapsed != tc.want || r.states == 0 || (r.violation != nil && tc.name != "bag") {
				t.Errorf("collapsed %v (want %v), %d states, violation %v", x.collapsed, tc.want, r.states, r.violation)
			}
		})
	}
}
