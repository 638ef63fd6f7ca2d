package counterexamples

import (
	"testing"

	"github.com/elcheck/elcheck/invariants"
)

// TestConfirmations: every way the properties' table says a trace
// confirms a violation has its replay here.
func TestConfirmations(t *testing.T) {
	for _, p := range invariants.All {
		if int(p.Confirm) >= len(confirmations) || confirmations[p.Confirm] == nil {
			t.Errorf("%s: no replay confirms it (invariants.Confirm %d)", p.Name, p.Confirm)
		}
	}
}
