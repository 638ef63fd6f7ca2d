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

// TestDiskSearchAgrees runs every protocol and buggy variant, every
// configuration for n <= 4 (3 under -short), with a memory budget of one
// byte, so that every configuration is searched on disk (disk.go), with
// batches of one, a few and many successors, FIFO and bag channels,
// reduced or not, exact or not, and compares the whole results with the
// search in memory: counts, final-state digests, message range, verdicts
// and the counterexample, step for step. Graphs that are not layered
// (echo's, Afek-Gafni's, the cyclic variants') are searched on disk with
// their edges.
func TestDiskSearchAgrees(t *testing.T) {
	if raceOn {
		t.Skip("one worker: the race detector has nothing to find, and the disk search is some ten times slower under it")
	}
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	for _, m := range protocols.All() {
		info := m.Info()
		for n := 1; n <= fixtures.MaxN(info, maxN); n++ {
			for _, tc := range []struct {
				ch    spec.Channels
				por   bool
				exact bool
				batch int
			}{
				{spec.FIFO, false, false, 1},
				{spec.FIFO, true, false, 5},
				{spec.FIFO, false, true, 3},
				{spec.Bag, true, true, 0},
			} {
				if n == 4 && (tc.ch == spec.Bag || tc.exact || info.Topology == spec.Tree) {
					// FIFO, lossy, not the 540 configurations of trees: the
					// other rows at n <= 3 cover the rest.
					continue
				}
				if n == 4 && tc.batch == 1 {
					tc.batch = 16 // a flush per state rewrites a level's file per state
				}
				name := fmt.Sprintf("%s/n=%d/%v/por=%v/exact=%v/batch=%d", info.Name, n, tc.ch, tc.por, tc.exact, tc.batch)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					opts := DefaultOptions()
					opts.POR, opts.Exact, opts.Workers = tc.por, tc.exact, 1
					space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: tc.ch, Capacity: info.Capacity}
					want := Check(context.Background(), m, space, opts)
					opts.Memory, opts.diskBatch = 1, tc.batch
					if tc.batch == 1 && want.States > 20000 {
						opts.diskBatch = 16 // a flush per state rewrites a level's file per state
					}
					got := Check(context.Background(), m, space, opts)
					if got.Disk != got.ConfigsDone && got.Violation == nil || got.Cached > 0 {
						t.Fatalf("%d on disk, %d cached of %d configurations (%s)", got.Disk, got.Cached, got.ConfigsDone, got.Incomplete)
					}
					ignore := []string{"Elapsed", "Disk"}
					if want.Violation != nil {
						// The disk search expands a batch ahead before it
						// checks the batch's states.
						ignore = append(ignore, "Transitions")
					}
					if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, ignore...), cmpopts.EquateEmpty()); diff != "" {
						t.Fatalf("results differ (-memory +disk):\n%s", diff)
					}
				})
			}
		}
	}
}

// TestDiskSearchIsUsed checks that the comparison above compares the disk
// search: DKR's graphs are layered, so every configuration stays on disk.
func TestDiskSearchIsUsed(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	opts := DefaultOptions()
	opts.Memory, opts.diskBatch, opts.Workers = 1, 2, 1
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4), Channels: spec.FIFO}
	got := Check(context.Background(), m, space, opts)
	if got.Disk != got.Configs || got.Cached != 0 || got.Incomplete != "" || got.States < 100 {
		t.Errorf("%d of %d configurations on disk, %d cached, %d states, incomplete %q", got.Disk, got.Configs, got.Cached, got.States, got.Incomplete)
	}
}

// TestDiskSearchUnlayered checks a graph with a cycle (a token circles
// the ring forever), in batches of two and of many: the disk search meets
// the edge back, searches again with its edges on disk, and finds the
// termination violation the search in memory finds, with its trace.
func TestDiskSearchUnlayered(t *testing.T) {
	m := spec.Erase[protocols.LeLannState](circlingLeLann{})
	for _, batch := range []int{2, 0} {
		opts := DefaultOptions()
		opts.Workers, opts.ComparisonOnly = 1, false
		space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 3), Channels: spec.FIFO}
		want := Check(context.Background(), m, space, opts)
		opts.Memory, opts.diskBatch = 1, batch
		got := Check(context.Background(), m, space, opts)
		if got.Violation == nil || got.Violation.Property != "termination" || got.Cached != 0 || got.Disk == 0 {
			t.Errorf("batch %d: %v, %d cached, %d on disk; want termination, on disk", batch, got.Verdict(), got.Cached, got.Disk)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Elapsed", "Disk"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("batch %d: results differ (-memory +disk):\n%s", batch, diff)
		}
	}
}

// TestDiskSearchWorkers runs a sweep of graphs that are not layered on
// two workers with every configuration on disk, each worker with its own
// files: the results are those of the search in memory.
func TestDiskSearchWorkers(t *testing.T) {
	m, _ := protocols.Lookup("echo")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 3), Channels: spec.FIFO}
	opts := DefaultOptions()
	opts.Workers = 2
	want := Check(context.Background(), m, space, opts)
	opts.Memory = 1
	got := Check(context.Background(), m, space, opts)
	if got.Disk != got.Configs || got.Cached != 0 {
		t.Errorf("%d of %d configurations on disk, %d cached", got.Disk, got.Configs, got.Cached)
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Elapsed", "Disk"), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("results differ (-memory +disk):\n%s", diff)
	}
}
