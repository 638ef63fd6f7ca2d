package explore_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
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
			space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, tc.n), Channels: m.Info().Channels}
			var res *explore.Result
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for b.Loop() {
				res = explore.Check(context.Background(), m, space, explore.DefaultOptions())
			}
			runtime.ReadMemStats(&after)
			if res.Verdict().Outcome != invariants.Verified {
				b.Fatalf("%s n=%d: %s", tc.algo, tc.n, res.Verdict())
			}
			perRun := float64(b.Elapsed().Seconds()) / float64(b.N)
			b.ReportMetric(float64(res.States), "states")
			b.ReportMetric(float64(res.States)/perRun, "states/s")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(res.States), "alloc-B/state")
		})
	}
}

// spinIDs is the id placement bench/compare.sh gives SPIN's DKR example
// (leader0.pml mirrored): position i holds n - ((n+2-i) mod n).
func spinIDs(n int) []spec.ID {
	ids := make([]spec.ID, n)
	for i := range ids {
		ids[i] = spec.ID(n - (n+2-i)%n)
	}
	return ids
}

// BenchmarkConfig explores one large configuration unreduced, on one
// worker and on two, with the self-checks `elcheck verify -skip-comparison-only` runs:
// the engine-to-engine comparison with SPIN (docs/spin.md) and the
// throughput per core beside BenchmarkVisitedSetInsert.
func BenchmarkConfig(b *testing.B) {
	for _, n := range []int{10, 12} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("dkr/n=%d/workers=%d", n, workers), func(b *testing.B) {
				m, _ := protocols.Lookup("dkr")
				space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels,
					IDs: spinIDs(n), Initiators: spec.Set(1)<<n - 1}
				opts := explore.DefaultOptions()
				opts.POR, opts.ComparisonOnly, opts.Workers = false, false, workers
				var res *explore.Result
				for b.Loop() {
					res = explore.Check(context.Background(), m, space, opts)
				}
				if res.Verdict().Outcome != invariants.Verified {
					b.Fatalf("dkr n=%d: %s", n, res.Verdict())
				}
				perRun := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(res.States), "states")
				b.ReportMetric(float64(res.States)/perRun, "states/s")
			})
		}
	}
}

// BenchmarkDiskConfig is BenchmarkConfig's n = 12 configuration under a
// memory budget of 16 MB, which sends it to the disk search (disk.go).
func BenchmarkDiskConfig(b *testing.B) {
	const n = 12
	m, _ := protocols.Lookup("dkr")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels,
		IDs: spinIDs(n), Initiators: spec.Set(1)<<n - 1}
	opts := explore.DefaultOptions()
	opts.POR, opts.ComparisonOnly, opts.Workers, opts.Memory = false, false, 1, 16<<20
	var res *explore.Result
	for b.Loop() {
		res = explore.Check(context.Background(), m, space, opts)
	}
	if res.Verdict().Outcome != invariants.Verified || res.Disk != 1 {
		b.Fatalf("dkr n=%d: %s, %d on disk", n, res.Verdict(), res.Disk)
	}
	b.ReportMetric(float64(res.States)/(b.Elapsed().Seconds()/float64(b.N)), "states/s")
}

// BenchmarkSweep is `elcheck verify -algo=dkr -n=6` on one worker: many
// small reduced configurations, each searched twice (the comparison-only
// check), the headline workload. Its states/s counts both searches.
func BenchmarkSweep(b *testing.B) {
	m, _ := protocols.Lookup("dkr")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 6), Channels: m.Info().Channels}
	opts := explore.DefaultOptions()
	opts.Workers = 1
	var res *explore.Result
	for b.Loop() {
		res = explore.Check(context.Background(), m, space, opts)
	}
	if res.Verdict().Outcome != invariants.Verified {
		b.Fatalf("dkr n=6: %s", res.Verdict())
	}
	b.ReportMetric(float64(2*res.States)/(b.Elapsed().Seconds()/float64(b.N)), "states/s")
}

// BenchmarkProtocols sweeps other protocols than DKR, on all CPUs, as
// `elcheck verify -algo=X -n=N` does: other topologies, message kinds
// and graphs that are not layered. `make pgo` profiles it too, so that
// the profile-guided build does not favour DKR's paths alone.
func BenchmarkProtocols(b *testing.B) {
	for _, tc := range []struct {
		algo string
		n    int
	}{{"hs", 4}, {"franklin", 5}, {"cr", 7}, {"tree", 5}, {"echo", 4}, {"afek-gafni", 4}} {
		b.Run(fmt.Sprintf("%s/n=%d", tc.algo, tc.n), func(b *testing.B) {
			m, _ := protocols.Lookup(tc.algo)
			info := m.Info()
			space := configs.Space{Topologies: spec.MustTopologies(info.Topology, tc.n), Channels: info.Channels, PortBlind: info.PortBlind}
			var res *explore.Result
			for b.Loop() {
				res = explore.Check(context.Background(), m, space, explore.DefaultOptions())
			}
			if res.Verdict().Outcome != invariants.Verified {
				b.Fatalf("%s n=%d: %s", tc.algo, tc.n, res.Verdict())
			}
			b.ReportMetric(float64(res.States)/(b.Elapsed().Seconds()/float64(b.N)), "states/s")
		})
	}
}
