package invariants

import (
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// u is an undecided process; lost(l) and won(l) have decided, knowing l
// as the leader.
var u = spec.Decision{}

func lost(l spec.ID) spec.Decision { return spec.Decision{Status: spec.Defeated, Leader: l} }
func won(l spec.ID) spec.Decision  { return spec.Decision{Status: spec.Elected, Leader: l} }

func TestChecker(t *testing.T) {
	cfg := spec.Config{Topology: spec.NewUniRing(3), IDs: []spec.ID{2, 3, 1}, Initiators: spec.All(3)}
	tests := []struct {
		name     string
		info     spec.Info
		state    State
		always   string // property Always reports, "" for none
		terminal string // property AtEnd reports
	}{
		{"start", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{u, u, u}}, "", Termination},
		{"right leader", spec.Info{Winner: spec.MaxAll, AllLearn: true}, State{Decisions: []spec.Decision{lost(3), won(3), lost(3)}}, "", ""},
		{"two leaders", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{won(2), won(3), u}}, AtMostOneLeader, ""},
		{"wrong leader", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{won(2), lost(2), lost(2)}}, Validity, ""},
		{"min wins", spec.Info{Winner: spec.MinAll}, State{Decisions: []spec.Decision{lost(1), lost(1), won(1)}}, "", ""},
		{"disagree", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(2), won(3), u}}, Agreement, ""},
		{"wrong id known", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(1), u, u}}, Validity, ""},
		{"nobody learns", spec.Info{Winner: spec.MaxAll, AllLearn: true}, State{Decisions: []spec.Decision{lost(0), won(3), lost(3)}}, "", Agreement},
		{"no leader", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(0), lost(0), lost(0)}}, "", ExactlyOneLeader},
		{"leftovers", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(0), won(3), lost(0)}, InFlight: 2}, "", Termination},
		// One message left is as unclean as two: a clean end has none.
		{"one leftover", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(0), won(3), lost(0)}, InFlight: 1}, "", Termination},
		{"leftovers allowed", spec.Info{Winner: spec.MaxAll, Leftovers: true}, State{Decisions: []spec.Decision{lost(0), won(3), lost(0)}, InFlight: 2}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChecker(tt.info, cfg)
			if got := name(c.Always(tt.state)); got != tt.always {
				t.Errorf("Always = %q, want %q", got, tt.always)
			}
			if tt.always == "" {
				if got := name(c.AtEnd(tt.state)); got != tt.terminal {
					t.Errorf("AtEnd = %q, want %q", got, tt.terminal)
				}
			}
		})
	}
}

func name(v *Violation) string {
	if v == nil {
		return ""
	}
	return v.Property
}

func TestExpectedWinner(t *testing.T) {
	ids := []spec.ID{4, 1, 5, 2, 3}
	init := spec.Set(0).With(0).With(3)
	for w, want := range map[spec.Winner]spec.ID{spec.MinAll: 1, spec.MaxAll: 5, spec.MinInitiators: 2, spec.MaxInitiators: 4} {
		if got := w.Expected(ids, init); got != want {
			t.Errorf("%v: %d, want %d", w, got, want)
		}
	}
}
