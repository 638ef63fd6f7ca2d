package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestParallelSearchAgrees runs every protocol and buggy variant, every
// configuration for n <= 4 (5 without -short), on byte encodings with the
// states of each breadth-first level expanded by several workers in small
// chunks (the level driver, levels.go), and compares the whole result with
// the sequential search's: counts, final states, message range, verdicts
// and the counterexample, step for step.
func TestParallelSearchAgrees(t *testing.T) {
	counts := new(pathCounts)
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
					opts.POR, opts.Workers, opts.counts = false, 1, counts
					seq := Check(context.Background(), m, space, opts)
					for _, par := range []struct{ workers, chunk int }{{2, 1}, {3, 5}} {
						opts.par, opts.chunk = par.workers, par.chunk
						got := Check(context.Background(), m, space, opts)
						if diff := cmp.Diff(seq, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("%d workers, chunks of %d: results differ (-sequential +levels on bytes):\n%s", par.workers, par.chunk, diff)
						}
					}
					if seq.States == 0 {
						t.Fatal("nothing explored")
					}
				})
			}
		}
	}
	if counts.segments.Load() == 0 || counts.expanded.Load() == 0 {
		t.Fatal("the levels' workers expanded no chunk: the test did not test them")
	}
}

// TestLevelsAgree is TestParallelSearchAgrees for the collapsed search
// whose levels workers share (levels.go), over the protocols, their buggy
// variants and the fixtures that break the contract (impure, panicking,
// overflowing steps), with chunks of one or a few states, so that many
// segments are cut, left over to the searcher and taken in order. The
// results are the same, but for protocols whose steps read hidden state
// in the order of calls: they are caught, at another step.
func TestLevelsAgree(t *testing.T) {
	maxN := 5
	// Two workers in chunks of one state and of the default size, and
	// three in chunks of five.
	variants := []struct{ workers, chunk int }{{2, 1}, {2, 0}, {3, 5}}
	if testing.Short() {
		maxN, variants = 4, variants[:2]
	}
	ms := append(protocols.All(), fixtures.All()...)
	// Steps that read a counter of all calls, or Go's map order: the
	// uniformity self-check calls steps too, at other times in the two
	// searches (levels.go), so they go astray at other places.
	hidden := map[string]bool{"fixture-counter": true, "fixture-map-order": true}
	counts := new(pathCounts)
	for _, m := range ms {
		if m.Info().Chooses {
			continue // never collapsed: TestParallelSearchAgrees
		}
		for n := 2; n <= fixtures.MaxN(m.Info(), maxN); n++ {
			for _, ch := range []spec.Channels{spec.FIFO, spec.Bag} {
				if n == 5 && ch == spec.Bag || testing.Short() && n == 4 && hidden[m.Info().Name] {
					continue
				}
				t.Run(fmt.Sprintf("%s/n=%d/%v", m.Info().Name, n, ch), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: ch}
					opts := DefaultOptions()
					opts.POR, opts.Workers, opts.counts = false, 1, counts
					fixtures.Reset()
					seq := Check(context.Background(), m, space, opts)
					vs := variants
					if n == 5 {
						vs = variants[:2] // the largest: two workers only
					}
					for _, par := range vs {
						opts.levels, opts.chunk = par.workers, par.chunk
						fixtures.Reset()
						got := Check(context.Background(), m, space, opts)
						if hidden[m.Info().Name] {
							// Which step reads the hidden state
							// differently depends on the order of all
							// calls; that one does is found either way.
							if seq.Violation == nil || got.Violation == nil || got.Violation.Property != seq.Violation.Property {
								t.Fatalf("%d workers, chunks of %d: violation %v, sequential %v", par.workers, par.chunk, got.Violation, seq.Violation)
							}
							continue
						}
						if diff := cmp.Diff(seq, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("%d workers, chunks of %d: results differ (-sequential +levels):\n%s", par.workers, par.chunk, diff)
						}
					}
				})
			}
		}
	}
	if counts.segments.Load() == 0 || counts.expanded.Load() == 0 || counts.leftOver.Load() == 0 || counts.edges.Load() == 0 {
		t.Fatal("the levels' workers expanded no chunk, left none over, or never recorded edges: the test did not test them")
	}
}

// TestLevelsStopAlike stops single large configurations, searched by
// workers sharing the levels, where the sequential search stops: at a
// state limit inside a segment, and at a memory budget that sends the
// search to disk (disk.go), whose results are the in-memory search's.
func TestLevelsStopAlike(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	const n = 9
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels,
		IDs: []spec.ID{3, 9, 1, 7, 5, 2, 8, 4, 6}, Initiators: spec.Set(1)<<n - 1}
	for _, tc := range []struct {
		name      string
		maxStates int64
		memory    int64
	}{
		{"state limit", 12345, 0},
		{"memory", 0, 1 << 20},
		{"complete", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := DefaultOptions()
			opts.POR, opts.Workers, opts.MaxStates, opts.Memory = false, 1, tc.maxStates, tc.memory
			seq := Check(context.Background(), m, space, opts)
			opts.levels, opts.chunk, opts.counts = 2, 7, new(pathCounts)
			got := Check(context.Background(), m, space, opts)
			if diff := cmp.Diff(seq, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("results differ (-sequential +levels):\n%s", diff)
			}
			if opts.counts.segments.Load() == 0 {
				t.Fatal("the levels were not searched by workers")
			}
			if seq.States < 1000 || (tc.maxStates > 0) != (seq.Verdict().Outcome == invariants.Incomplete) || (tc.memory > 0) != (seq.Disk == 1) {
				t.Fatalf("%d states, %d on disk: the configuration does not test what it should", seq.States, seq.Disk)
			}
		})
	}
}

// TestCrewPanic: a worker's panic is raised on the goroutine that runs the
// crew, where Check turns it into the configuration's internal error,
// rather than killing the process; the crew goes on working afterwards.
func TestCrewPanic(t *testing.T) {
	var cr crew
	cr.start(1)
	defer cr.stop()
	got := func() (p any) {
		defer func() { p = recover() }()
		cr.run(2, func(w int) {
			if w == 0 {
				panic("worker 0 fails")
			}
		})
		return nil
	}()
	if got != "worker 0 fails" {
		t.Fatalf("recovered %v, want the worker's panic", got)
	}
	var ran [2]bool
	cr.run(2, func(w int) { ran[w] = true })
	if ran != [2]bool{true, true} {
		t.Fatalf("after the panic the crew ran %v", ran)
	}
}

// TestCrewCallerPanic: when the caller's own part panics, run still waits
// for the crew's parts before it unwinds, so that a late part cannot end
// after the crew's next job starts (its count of parts done went wrong,
// and the next wait never returned).
func TestCrewCallerPanic(t *testing.T) {
	var cr crew
	cr.start(1)
	defer cr.stop()
	release := make(chan struct{})
	finished := false
	got := func() (p any) {
		defer func() { p = recover() }()
		cr.run(2, func(w int) {
			if w == 0 {
				<-release // until the caller's part has failed
				finished = true
				return
			}
			defer close(release)
			panic("the caller's part fails")
		})
		return nil
	}()
	if got != "the caller's part fails" || !finished {
		t.Fatalf("recovered %v, worker 0 finished %v: want the caller's panic after worker 0 finished", got, finished)
	}
	var ran [2]bool
	cr.run(2, func(w int) { ran[w] = true })
	if ran != [2]bool{true, true} {
		t.Fatalf("after the panic the crew ran %v", ran)
	}
}

// TestProgressOnWorkers: on two workers a sweep's progress counts the
// states of every configuration searched so far, finished or running,
// whichever worker reports. So the figure never goes back (where no
// configuration is searched twice: no violation, every step's ids
// located) and never passes the result's, and the configurations done
// only grow.
func TestProgressOnWorkers(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 6), Channels: m.Info().Channels}
	opts := DefaultOptions()
	opts.Workers = 2
	var reports []Progress
	opts.Progress = func(p Progress) { reports = append(reports, p) } // Check serialises the calls
	res := Check(context.Background(), m, space, opts)
	if res.Verdict().Outcome != invariants.Verified {
		t.Fatalf("dkr n=6: %s", res.Verdict())
	}
	if len(reports) < res.Configs {
		t.Fatalf("%d reports for %d configurations: the test does not test progress", len(reports), res.Configs)
	}
	for i := 1; i < len(reports); i++ {
		a, b := reports[i-1], reports[i]
		if b.States < a.States || b.ConfigsDone < a.ConfigsDone {
			t.Fatalf("report %d went back: %d states, %d configurations done, after %d and %d", i, b.States, b.ConfigsDone, a.States, a.ConfigsDone)
		}
	}
	if last := reports[len(reports)-1]; last.States > res.States || last.ConfigsDone >= res.Configs {
		t.Fatalf("last report: %d states, %d configurations done; the result: %d states, %d configurations", last.States, last.ConfigsDone, res.States, res.Configs)
	}
}

// TestLevelChunkFor pins the chunk sizes of levels.go, for each store's
// shape: full chunks from levelSplit segments of them up, halved below,
// never under a sixteenth of the shape's.
func TestLevelChunkFor(t *testing.T) {
	for _, sh := range []levelShape{(&czWorkers{}).shape(), (&byteWorkers{}).shape()} {
		least, full := sh.chunk/16, levelSplit*sh.chunks*sh.chunk
		for _, c := range []struct{ states, size int32 }{
			{0, least},
			{1, least},
			{levelSplit * sh.chunks * least * 2, 2 * least},
			{full - 1, sh.chunk / 2},
			{full, sh.chunk},
			{1 << 30, sh.chunk},
		} {
			if got := levelChunkFor(c.states, sh); got != c.size {
				t.Errorf("shape %+v: levelChunkFor(%d) = %d, want %d", sh, c.states, got, c.size)
			}
		}
	}
}
