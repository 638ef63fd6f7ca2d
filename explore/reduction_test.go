package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// Partial-order reduction must lose nothing elcheck reports: for every
// protocol and variant, on both channel semantics, the reduced and the
// unreduced search give the same verdict, the same counterexample, the
// same set of final states and the same message minimum and maximum.
func TestReductionPreservesResults(t *testing.T) {
	maxN := 5
	if testing.Short() {
		maxN = 3
	}
	for _, m := range protocols.All() {
		info := m.Info()
		for _, ch := range []spec.Channels{spec.FIFO, spec.Bag} {
			for n := 1; n <= maxN; n++ {
				// Two-way rings of 5 have millions of states unreduced.
				if (ch != info.Channels || info.Topology == spec.BiRing) && n > 4 {
					continue // off-default channels: enough to show it, and bags grow fast
				}
				t.Run(fmt.Sprintf("%s/%s/n=%d", info.Name, ch, n), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: ch}
					full := explore.Options{Exact: true}
					por := explore.Options{Exact: true, POR: true}
					a := explore.Check(context.Background(), m, space, full)
					b := explore.Check(context.Background(), m, space, por)
					if a.Verdict() != b.Verdict() {
						t.Fatalf("verdict %s unreduced, %s reduced", a.Verdict(), b.Verdict())
					}
					if a.Violation != nil {
						if fmt.Sprint(a.Violation.Trace) != fmt.Sprint(b.Violation.Trace) || a.Violation.ConfigIndex != b.Violation.ConfigIndex {
							t.Errorf("counterexamples differ:\n unreduced %v\n reduced   %v", a.Violation.Trace, b.Violation.Trace)
						}
						return
					}
					if a.Terminals != b.Terminals || a.FinalDigest != b.FinalDigest {
						t.Errorf("final states: %d (digest %x) unreduced, %d (digest %x) reduced", a.Terminals, a.FinalDigest, b.Terminals, b.FinalDigest)
					}
					if a.MinMessages != b.MinMessages || a.MaxMessages != b.MaxMessages {
						t.Errorf("messages: %d..%d unreduced, %d..%d reduced", a.MinMessages, a.MaxMessages, b.MinMessages, b.MaxMessages)
					}
					if b.States > a.States {
						t.Errorf("reduction grew the search: %d states, %d unreduced", b.States, a.States)
					}
				})
			}
		}
	}
}

// Symmetry reduction (placements up to rotation) against all n!
// placements: the same verdict, and every rotation-class is covered.
func TestSymmetryReduction(t *testing.T) {
	for _, name := range []string{"dkr", "cr", "cr-flip", "peterson"} {
		m, _ := protocols.Lookup(name)
		for n := 1; n <= 4; n++ {
			sym := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n)}
			all := sym
			all.AllPlacements = true
			a := explore.Check(context.Background(), m, all, explore.Options{Exact: true})
			b := explore.Check(context.Background(), m, sym, explore.Options{Exact: true})
			if a.Verdict() != b.Verdict() {
				t.Errorf("%s n=%d: %s over all placements, %s up to rotation", name, n, a.Verdict(), b.Verdict())
			}
			if a.Violation == nil && (a.States != int64(n)*b.States || a.MaxMessages != b.MaxMessages || a.MinMessages != b.MinMessages) {
				t.Errorf("%s n=%d: %d states over all placements, %d up to rotation (want n times as many)", name, n, a.States, b.States)
			}
		}
	}
}
