package invariants

import (
	"maps"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// TestJudge: a property's status in one state, final or not: the checks
// the search runs, in its order, and nothing claimed that they did not
// reach.
func TestJudge(t *testing.T) {
	bound := spec.Bound{Formula: "n", Max: func(n int) int { return n }}
	maxWins := spec.Info{Winner: spec.MaxAll, Bound: bound}
	learn := maxWins
	learn.AllLearn = true
	// The statuses of at-most-one-leader, agreement, validity,
	// termination, exactly-one-leader, message-bound, in that order; the
	// structural properties are always n/a.
	type want [6]Status
	const (
		H, V, P, U, NA = StatusHolds, StatusViolated, StatusPending, StatusUnknown, StatusNA
	)
	tests := []struct {
		name     string
		info     spec.Info
		capacity int
		state    State
		end      bool
		deadlock string
		messages int
		want     want
		deadWant Status // deadlock's status, with capacity > 0
	}{
		{"start", maxWins, 0, State{Decisions: []spec.Decision{u, u, u}}, false, "", 0, want{H, H, H, P, P, P}, ""},
		{"right leader, not final", maxWins, 0, State{Decisions: []spec.Decision{lost(3), won(3), u}, InFlight: 1}, false, "", 2, want{H, H, H, P, P, P}, ""},
		{"right leader, final", maxWins, 0, State{Decisions: []spec.Decision{lost(3), won(3), lost(3)}}, true, "", 3, want{H, H, H, H, H, H}, ""},
		// The case of issue 35: the checker stops at termination, before
		// the leader is counted.
		{"undecided at the end", maxWins, 0, State{Decisions: []spec.Decision{lost(0), lost(0), u}}, true, "", 3, want{H, H, H, V, U, H}, ""},
		{"undecided at the end, all learn", learn, 0, State{Decisions: []spec.Decision{lost(0), lost(0), u}}, true, "", 3, want{H, U, H, V, U, H}, ""},
		{"no leader", maxWins, 0, State{Decisions: []spec.Decision{lost(0), lost(0), lost(0)}}, true, "", 3, want{H, H, H, U, V, H}, ""},
		{"nobody learns", learn, 0, State{Decisions: []spec.Decision{lost(0), won(3), lost(3)}}, true, "", 3, want{H, V, H, U, U, H}, ""},
		{"two leaders, not final", maxWins, 0, State{Decisions: []spec.Decision{won(2), won(3), u}}, false, "", 2, want{V, U, U, P, P, P}, ""},
		{"two leaders, final", maxWins, 0, State{Decisions: []spec.Decision{won(2), won(3), lost(3)}}, true, "", 3, want{V, U, U, U, U, H}, ""},
		{"over the bound, not final", maxWins, 0, State{Decisions: []spec.Decision{u, u, u}}, false, "", 4, want{H, H, H, P, P, V}, ""},
		{"no bound declared", spec.Info{Winner: spec.MaxAll}, 0, State{Decisions: []spec.Decision{lost(3), won(3), lost(3)}}, true, "", 3, want{H, H, H, H, H, NA}, ""},
		{"not final, bounded channels", maxWins, 1, State{Decisions: []spec.Decision{u, u, u}}, false, "", 0, want{H, H, H, P, P, P}, P},
		{"deadlock", learn, 1, State{Decisions: []spec.Decision{lost(3), won(3), u}}, true, "p2 is blocked", 3, want{H, U, H, U, U, H}, V},
		{"final, bounded channels", maxWins, 1, State{Decisions: []spec.Decision{lost(3), won(3), lost(3)}}, true, "", 3, want{H, H, H, H, H, H}, H},
	}
	names := []string{AtMostOneLeader, Agreement, Validity, Termination, ExactlyOneLeader, MessageBound}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := spec.Config{Topology: spec.NewUniRing(3), IDs: []spec.ID{2, 3, 1}, Initiators: spec.All(3), Capacity: tt.capacity}
			got := map[string]Status{}
			for _, j := range NewChecker(tt.info, cfg).Judge(tt.state, tt.end, tt.deadlock, tt.messages) {
				got[j.Property.Name] = j.Status
				if (j.Status == StatusViolated || j.Status == StatusUnknown || j.Status == StatusPending) && j.Detail == "" {
					t.Errorf("%s is %s without a word why", j.Property.Name, j.Status)
				}
			}
			wantAll := map[string]Status{Decentralization: NA, Uniformity: NA, ComparisonOnly: NA}
			for i, n := range names {
				wantAll[n] = tt.want[i]
			}
			if tt.deadWant != "" {
				wantAll[Deadlock] = tt.deadWant
			}
			if !maps.Equal(got, wantAll) {
				t.Errorf("got %v\nwant %v", got, wantAll)
			}
		})
	}
}
