package explore

import (
	"context"
	"testing"
	"time"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// BenchmarkPerCore measures the throughput target of docs/benchmarks.md in
// one process: each op runs the explorer on BenchmarkConfig's n = 12
// configuration on one worker (unreduced, every self-check on but
// comparison-only), then the visited set alone on the same work
// (replayGraph), back to back, so that both see the machine in the same
// state. It reports both rates in states per second and their ratio.
func BenchmarkPerCore(b *testing.B) {
	const n = 12
	m, _ := protocols.Lookup("dkr")
	ids := make([]spec.ID, n)
	for i := range ids {
		ids[i] = spec.ID(n - (n+2-i)%n) // bench/compare.sh's placement
	}
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels, IDs: ids, Initiators: spec.All(n)}
	opts := DefaultOptions()
	opts.POR, opts.ComparisonOnly, opts.Workers = false, false, 1
	var explorer, set time.Duration
	for b.Loop() {
		t0 := time.Now()
		res := Check(context.Background(), m, space, opts)
		t1 := time.Now()
		replayGraph()
		explorer, set = explorer+t1.Sub(t0), set+time.Since(t1)
		if res.Verdict().Outcome != invariants.Verified || res.States != graphStates {
			b.Fatalf("dkr n=12: %s with %d states", res.Verdict(), res.States)
		}
	}
	states := float64(graphStates) * float64(b.N)
	b.ReportMetric(states/explorer.Seconds(), "explorer-states/s")
	b.ReportMetric(states/set.Seconds(), "set-states/s")
	b.ReportMetric(set.Seconds()/explorer.Seconds(), "explorer/set")
}
