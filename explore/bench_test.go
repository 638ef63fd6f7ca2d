package explore_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
)

// BenchmarkCheck runs the full sweep `elcheck verify` runs (all
// placements, all initiator sets, every self-check on) and reports
// distinct states per second and heap bytes allocated per state.
func BenchmarkCheck(b *testing.B) {
	for _, tc := range []struct {
		algo string
		n    int
	}{{"dkr", 5}, {"dkr", 6}} {
		b.Run(fmt.Sprintf("%s/n=%d", tc.algo, tc.n), func(b *testing.B) {
			m, _ := protocols.Lookup(tc.algo)
			space := explore.Space{N: tc.n, Topology: m.Info().Topology, Channels: m.Info().Channels}
			var res *explore.Result
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res = explore.Check(context.Background(), m, space, explore.DefaultOptions())
			}
			runtime.ReadMemStats(&after)
			if res.Verdict() != "VERIFIED" {
				b.Fatalf("%s n=%d: %s", tc.algo, tc.n, res.Verdict())
			}
			perRun := float64(b.Elapsed().Seconds()) / float64(b.N)
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(float64(res.States)/perRun, "states/s")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(res.States), "alloc-B/state")
		})
	}
}
