package crvariant_test

import (
	"context"
	"testing"

	"example.com/crvariant"
	"github.com/elcheck/elcheck"
	"github.com/elcheck/elcheck/elchecktest"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// The correct variant holds on every configuration of small rings.
func TestCorrect(t *testing.T) {
	m := spec.Erase[crvariant.State](crvariant.Protocol{})
	for n := 1; n <= 4; n++ {
		elchecktest.Verify(t, m, n)
	}
}

// The buggy variant's mistake is found, with the shortest trace that
// shows it.
func TestRelayBug(t *testing.T) {
	m := spec.Erase[crvariant.State](crvariant.Protocol{Relay: true})
	for _, tc := range []struct {
		n        int
		property string
		steps    int
	}{
		// The probe and the announcement chase each other round the
		// ring for ever: a cycle that never reaches a final state.
		{1, invariants.Termination, 4},
		{2, invariants.Termination, 9},
		{3, invariants.Termination, 14},
	} {
		rep, err := elcheck.Verify(context.Background(), m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict.Outcome != invariants.Violated || rep.Verdict.Property != tc.property || len(rep.Counterexample.Steps) != tc.steps || rep.Counterexample.LoopAt < 0 {
			t.Errorf("n=%d: %v with %d steps, want %s in %d steps\n%s", tc.n, rep.Verdict, len(rep.Counterexample.Steps), tc.property, tc.steps, rep.Text)
		}
	}
}
