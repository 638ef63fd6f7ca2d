package invariants

import (
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// BenchmarkChecker runs the checks of every state and of a terminal state
// on states that pass them, as the search does on most states whose
// decisions changed: the checker is on its hot path.
func BenchmarkChecker(b *testing.B) {
	const n = 9
	ids := make([]spec.ID, n)
	for i := range ids {
		ids[i] = spec.ID(n - i)
	}
	cfg := spec.Config{Topology: spec.NewUniRing(n), IDs: ids, Initiators: spec.All(n)}
	mid := make([]spec.Decision, n)
	mid[3], mid[0] = lost(n), won(n)
	end := make([]spec.Decision, n)
	for i := range end {
		end[i] = lost(n)
	}
	end[0] = won(n)
	for _, w := range []spec.Winner{spec.MaxAll, spec.AnyInitiator} {
		b.Run(w.String(), func(b *testing.B) {
			c := NewChecker(spec.Info{Winner: w, AllLearn: true}, cfg)
			for b.Loop() {
				if c.Always(State{Decisions: mid}) != nil || c.Always(State{Decisions: end}) != nil || c.AtEnd(State{Decisions: end}) != nil {
					b.Fatal("a violation")
				}
			}
		})
	}
}
