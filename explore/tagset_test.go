package explore

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestTagSet: the tag set answers, for a state found again, whether it
// waits at the depth asked, through growth and for a fingerprint whose low
// 62 bits are 0 (stored as its tag alone).
func TestTagSet(t *testing.T) {
	var f tagSet
	fp := func(k int) uint64 { return uint64(k) * 0x9e3779b97f4a7c15 }
	const states = 100000 // many growths of every segment
	for k := range states {
		if seen, _ := f.put(fp(k), int32(k%5)); seen {
			t.Fatalf("state %d found before it was put", k)
		}
	}
	zero := uint64(5) << 58 // segment 5, low bits 0
	if seen, _ := f.put(zero, 7); seen {
		t.Fatal("a fingerprint with low bits 0 was found before it was put")
	}
	for k := range states {
		d := int32(k % 5)
		if seen, other := f.put(fp(k), d); !seen || other {
			t.Fatalf("state %d of depth %d: seen %v, at another depth %v", k, d, seen, other)
		}
		if _, other := f.put(fp(k), d+1); !other {
			t.Fatalf("state %d of depth %d waits at depth %d", k, d, d+1)
		}
		// Asked from a state of depth d-1, whose successors are at depth
		// d or less, and from one of depth d.
		if f.shallower(fp(k), d-1) || !f.shallower(fp(k), d) {
			t.Fatalf("state %d of depth %d: from depth %d %v, from depth %d %v", k, d, d-1, f.shallower(fp(k), d-1), d, f.shallower(fp(k), d))
		}
	}
	if seen, other := f.put(zero, 7); !seen || other {
		t.Fatalf("the fingerprint with low bits 0: seen %v, at another depth %v", seen, other)
	}
	for k := range states {
		f.expanded(fp(k))
		if _, other := f.put(fp(k), int32(k%5)); !other {
			t.Fatalf("state %d expanded still waits", k)
		}
		if !f.shallower(fp(k), int32(k%5)-1) {
			t.Fatalf("state %d expanded is not shallower", k)
		}
	}
	if seen, other := f.put(zero^1, 7); seen || other {
		t.Fatal("a fingerprint never put was found")
	}
	n := 0
	for i := range f.segs {
		n += f.segs[i].n
	}
	if n != states+2 {
		t.Fatalf("%d fingerprints held, want %d", n, states+2)
	}
}

// TestTagSetLag: the sequential search tags the states it expands
// lookAhead states late, and every one of a depth before the first of
// the next depth is expanded, as the layering test needs: a state two
// levels up must not look like one on the level being built.
func TestTagSetLag(t *testing.T) {
	var f tagSet
	fp := func(d, k int) uint64 { return uint64(d*1000+k) * 0x9e3779b97f4a7c15 }
	const width = 3*lookAhead + 5
	for d := range 4 {
		for k := range width {
			f.put(fp(d, k), int32(d))
		}
	}
	for d := range 3 {
		for k := range width {
			f.expandedLater(fp(d, k), int32(d))
		}
		// The next level's first state is expanded: every state of
		// depth d is tagged, so none is taken for one of depth d+2
		// found again from depth d+1.
		f.expandedLater(fp(d+1, 0), int32(d+1))
		for k := range width {
			if _, other := f.put(fp(d, k), int32(d+2)); !other {
				t.Fatalf("state %d of depth %d, expanded, waits at depth %d", k, d, d+2)
			}
		}
	}
}

// TestTagSetAgrees: a search on the tag set (the default for a search on
// fingerprints without edges) gives the results of one on the index set,
// to the traces, sequential or with workers sharing the levels in chunks
// of one state, reduced or not, over the protocols, their buggy variants
// and the fixtures: layered graphs, graphs that are not (searched again
// with edges) and violations (searched again for the trace).
func TestTagSetAgrees(t *testing.T) {
	if raceOn {
		t.Skip("TestLevelsAgree runs the workers under the race detector")
	}
	hidden := map[string]bool{"fixture-counter": true, "fixture-map-order": true} // as TestLevelsAgree
	counts := new(pathCounts)
	for _, m := range append(protocols.All(), fixtures.All()...) {
		for n := 2; n <= fixtures.MaxN(m.Info(), 4); n++ {
			for _, ch := range []spec.Channels{spec.FIFO, spec.Bag} {
				t.Run(fmt.Sprintf("%s/n=%d/%v", m.Info().Name, n, ch), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: ch}
					for _, v := range []struct {
						por    bool
						levels int
					}{{false, 0}, {true, 0}, {false, 2}} {
						opts := DefaultOptions()
						opts.POR, opts.Workers, opts.ComparisonOnly, opts.tags, opts.counts = v.por, 1, false, 1, counts
						if v.levels > 0 {
							opts.levels, opts.chunk = v.levels, 1
						}
						fixtures.Reset()
						tags := Check(context.Background(), m, space, opts)
						opts.tags = -1
						fixtures.Reset()
						index := Check(context.Background(), m, space, opts)
						if hidden[m.Info().Name] {
							if tags.Violation == nil || index.Violation == nil || tags.Violation.Property != index.Violation.Property {
								t.Fatalf("%+v: violation %v on tags, %v on the index set", v, tags.Violation, index.Violation)
							}
							continue
						}
						if diff := cmp.Diff(index, tags, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
							t.Fatalf("%+v: results differ (-index set +tags):\n%s", v, diff)
						}
					}
				})
			}
		}
	}
	if counts.tagSearches.Load() == 0 || counts.tagRetraced.Load() == 0 || counts.tagUnlayered.Load() == 0 {
		t.Fatal("no search on tags, none found a violation again, or none found its graph not layered: the test did not test them")
	}
}

// onceWrong is fixture-correct but for its very first step in the
// process, which makes its process leader at once.
type onceWrong struct{ fixtures.Correct }

var onceWrongCalled atomic.Bool

func (onceWrong) Info() spec.Info {
	in := fixtures.Correct{}.Info()
	in.Name = "once-wrong"
	return in
}

func (w onceWrong) Step(s fixtures.State, ev spec.Event, out *spec.Outbox) fixtures.State {
	if !onceWrongCalled.Swap(true) {
		s.Phase, s.Leader = 2, s.ID
		return s
	}
	return w.Correct.Step(s, ev, out)
}

// TestTagSetImpureOnce: a step that goes wrong once, in the search on the
// tag set, is not lost when the configuration is searched again for the
// trace: the collapsed store keeps the steps it interned, and its purity
// check runs the step again there (were it found nowhere, run reports the
// first search's finding as an impurity, without a trace).
func TestTagSetImpureOnce(t *testing.T) {
	m := spec.Erase(onceWrong{})
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Channels: spec.FIFO,
		IDs: []spec.ID{1, 2, 3}, Initiators: 1}
	opts := DefaultOptions()
	opts.POR, opts.Workers, opts.ComparisonOnly, opts.tags, opts.counts = false, 1, false, 1, new(pathCounts)
	onceWrongCalled.Store(false)
	res := Check(context.Background(), m, space, opts)
	if res.Violation == nil || res.Violation.Property != invariants.StepPurity || !strings.Contains(res.Violation.Detail, "not deterministic") ||
		len(res.Violation.Trace) != 1 {
		t.Fatalf("got %v, want the wake-up's impurity with its one-step trace", res.Violation)
	}
	if opts.counts.tagRetraced.Load() == 0 {
		t.Fatal("no violation was found on the tag set")
	}
}
