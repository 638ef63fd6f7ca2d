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

// TestParallelSearchAgrees runs every protocol and buggy variant, every
// configuration for n <= 4 (5 without -short), with the states of each
// breadth-first level expanded by several workers in small chunks, and
// compares the whole result with the sequential search's: counts, final
// states, message range, verdicts and the counterexample, step for step.
func TestParallelSearchAgrees(t *testing.T) {
	maxN := 5
	if testing.Short() {
		maxN = 4
	}
	// Chunks of encodings of a state or two: the workers find their
	// states across many chunks while the searcher recycles them.
	saved := chunkSize
	chunkSize = 64
	defer func() { chunkSize = saved }()
	for _, m := range protocols.All() {
		for n := 2; n <= fixtures.MaxN(m.Info(), maxN); n++ {
			for _, ch := range []spec.Channels{spec.FIFO, spec.Bag} {
				if n == 5 && ch == spec.Bag {
					continue
				}
				t.Run(fmt.Sprintf("%s/n=%d/%v", m.Info().Name, n, ch), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: ch}
					opts := DefaultOptions()
					opts.POR, opts.Workers = false, 1
					seq := Check(context.Background(), m, space, opts)
					for _, par := range []struct{ workers, chunk int }{{2, 1}, {3, 5}} {
						opts.par, opts.chunk = par.workers, par.chunk
						got := Check(context.Background(), m, space, opts)
						if diff := cmp.Diff(seq, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("%d workers, chunks of %d: results differ (-sequential +parallel):\n%s", par.workers, par.chunk, diff)
						}
					}
					if seq.States == 0 {
						t.Fatal("nothing explored")
					}
				})
			}
		}
	}
}
