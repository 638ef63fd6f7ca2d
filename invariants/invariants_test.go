package invariants

import (
	"slices"
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
		// The ranks decide which of two broken properties a state reports:
		// a wrong leader before a disagreement, a disagreement before a
		// wrong id known.
		{"wrong leader, disagreement", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{won(2), lost(3), u}}, Validity, ""},
		{"disagreement, a wrong id known", spec.Info{Winner: spec.MaxAll}, State{Decisions: []spec.Decision{lost(2), lost(3), u}}, Agreement, ""},
		{"wrong id known by two", spec.Info{Winner: spec.AnyInitiator}, State{Decisions: []spec.Decision{lost(4), u, lost(4)}}, Validity, ""},
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

// TestTable: every property is named once, and the clauses of each phase
// have distinct ranks, so which property a state reports does not hang on
// the order of the table's rows.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		if q, ok := Lookup(p.Name); !ok || q.Name != p.Name {
			t.Errorf("Lookup(%s) = %v, %v", p.Name, q.Name, ok)
		}
		if p.Kind == Contract && p.Listed(1) {
			t.Errorf("%s breaches the contract but is listed", p.Name)
		}
		for _, cl := range append(slices.Clone(p.Always), p.AtEnd...) {
			if cl.Breach == nil {
				t.Errorf("%s has a clause without Breach", p.Name)
			}
		}
	}
	for phase, checks := range map[string][]check{"every state": everyState, "the end": atEnd} {
		for i := 1; i < len(checks); i++ {
			if checks[i].Rank == checks[i-1].Rank {
				t.Errorf("%s: %s and %s have rank %d", phase, checks[i-1].property, checks[i].property, checks[i].Rank)
			}
		}
	}
}
