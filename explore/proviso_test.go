package explore

import (
	"context"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// reducedOnly searches every configuration of space with partial-order
// reduction and without the unreduced search that Check runs again for
// a configuration with a violation, so that what the reduced search
// itself found shows: its states and transitions summed over the space,
// and the properties it reports, by configuration.
func reducedOnly(t *testing.T, m spec.Machine, space configs.Space, opts Options) (states, transitions int64, found []string) {
	t.Helper()
	for cfg := range space.Configs() {
		budget := int64(1 << 40)
		x := newSearcher(context.Background(), opts, &budget)
		x.reduce = true
		r := x.search(x.system(m, cfg))
		x.close()
		if r.stopped != nil {
			t.Fatalf("%v: stopped: %v", cfg, r.stopped)
		}
		states += r.states
		transitions += r.transitions
		p := ""
		if r.violation != nil {
			p = r.violation.Property
			if r.violation.Property == invariants.Termination && r.violation.LoopAt < 0 {
				p += " without a lasso"
			}
		}
		found = append(found, p)
	}
	return states, transitions, found
}

// TestHeartbeatEndsInALasso checks the fixture made for the cycle
// proviso, fixtures.Heartbeat (several invisible steps enabled at once
// around a cycle), through Check in every engine, reduced and not: every
// sweep is a termination violation whose trace is a lasso.
func TestHeartbeatEndsInALasso(t *testing.T) {
	m := spec.Erase(fixtures.Heartbeat{})
	for n := 2; n <= 4; n++ {
		for _, tc := range []struct {
			name string
			opts Options
		}{
			{"collapsed", Options{POR: true}},
			{"bytes", Options{POR: true, bytes: true}},
			{"exact", Options{POR: true, Exact: true}},
			{"dfs", Options{POR: true, Search: DFS}},
			{"unreduced", Options{}},
			{"parallel", Options{par: 2, chunk: 1}},
		} {
			r := Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n), Channels: spec.FIFO}, tc.opts)
			v := r.Violation
			if v == nil || v.Property != invariants.Termination || v.LoopAt < 0 || v.LoopAt >= len(v.Trace) {
				t.Errorf("n=%d %s: %s, want a termination violation with a lasso (%+v)", n, tc.name, r.Verdict(), v)
			}
		}
	}
}

// TestProvisoExpandsCycles checks the cycle proviso C3 through the figures
// of the reduced search itself, in each engine: the breadth-first searches
// (collapsed, czAmple; byte-encoded, ample with run's closure) and the
// depth-first one. Check cannot show C3: a reduced search that finds a
// violation is searched again unreduced, and on a unidirectional ring
// every process moves on every cycle, so the reduced graph keeps every
// cycle and every state even without C3. What C3 changes is which states
// are fully expanded: without it (closes always false) the reduced search
// of fixtures.Heartbeat finds 406 states at n=3 and 4186 at n=4 (tried).
// Weakening `<=` to `<` changes nothing here: on these rings no ample
// step leads to a state of the same breadth-first depth
// (TestClosesIsTheProviso shows that one on the predicate itself).
func TestProvisoExpandsCycles(t *testing.T) {
	m := spec.Erase(fixtures.Heartbeat{})
	want := map[int]int64{2: 48, 3: 442, 4: 4800} // states = transitions: one step per state
	for n, states := range want {
		for _, tc := range []struct {
			name string
			opts Options
		}{{"collapsed", Options{}}, {"bytes", Options{bytes: true}}, {"dfs", Options{Search: DFS}}} {
			s, tr, found := reducedOnly(t, m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n), Channels: spec.FIFO}, tc.opts)
			if s != states || tr != states {
				t.Errorf("n=%d %s: the reduced search found %d states and %d transitions, want %d and %d", n, tc.name, s, tr, states, states)
			}
			for k, p := range found {
				if p != invariants.Termination {
					t.Errorf("n=%d %s: configuration %d: the reduced search found %q, want termination with a lasso", n, tc.name, k, p)
				}
			}
		}
	}
}

// TestClosesIsTheProviso checks the cycle proviso's test itself, the one
// predicate both stores' reductions call (searcher.closes): a successor
// closes a cycle iff it was found at a depth no greater than the state
// being expanded. Every state of an unreduced search is asked about at
// its own depth, one less and one more: weakening `<=` to `<` (which no
// ring fixture can show through Check, see TestProvisoExpandsCycles) or
// dropping the test fails here.
func TestClosesIsTheProviso(t *testing.T) {
	m := spec.Erase(fixtures.Heartbeat{})
	for cfg := range (configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Initiators: 3}).Configs() {
		budget := int64(1 << 40)
		x := newSearcher(context.Background(), Options{Exact: true}, &budget)
		x.keepStates = true
		x.search(x.system(m, cfg))
		if x.states() < 10 {
			t.Fatalf("%v: only %d states", cfg, x.states())
		}
		for j := range x.states() {
			enc := x.encoding(j)
			dj := x.depthOf(j)
			for _, d := range []int32{dj - 1, dj, dj + 1} {
				if got, want := x.closes(enc, x.st.print(enc), d), dj <= d; got != want {
					t.Fatalf("%v: state %d at depth %d, asked at depth %d: closes %v, want %v", cfg, j, dj, d, got, want)
				}
			}
		}
		x.close()
	}
}
