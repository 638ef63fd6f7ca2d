package explore_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// Every correct protocol is verified on every configuration of every ring
// up to n = 5, with every self-check on.
func TestCorrectProtocolsVerify(t *testing.T) {
	maxN := 5
	if testing.Short() {
		maxN = 4
	}
	for _, m := range protocols.All() {
		info := m.Info()
		if info.Breaks != "" {
			continue
		}
		for n := 1; n <= fixtures.MaxN(info, maxN); n++ {
			t.Run(fmt.Sprintf("%s/n=%d", info.Name, n), func(t *testing.T) {
				space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels}
				res := explore.Check(context.Background(), m, space, explore.DefaultOptions())
				if res.Verdict().Outcome != invariants.Verified {
					t.Fatalf("%s", res.Verdict())
				}
				if res.ConfigsDone != space.Count() || res.Terminals < int64(space.Count()) {
					t.Errorf("explored %d of %d configurations, %d final states", res.ConfigsDone, space.Count(), res.Terminals)
				}
				for _, p := range res.Properties {
					if p.Status != explore.Holds && p.Status != explore.NotChecked {
						t.Errorf("property %s: %s", p.Name, p.Status)
					}
				}
			})
		}
	}
}

// Exact message counts the sources state (docs/references.md), measured
// over every id placement with all processes initiating.
func TestLiteratureMessageCounts(t *testing.T) {
	tests := []struct {
		algo     string
		min, max func(n int) int
		source   string
	}{
		// The lecture slides: best case 2n-1 probes, worst n(n+1)/2, plus n
		// SELECTED.
		{"cr", func(n int) int { return 2*n - 1 + n }, func(n int) int { return n*(n+1)/2 + n }, "lecture slides \"Leader Election Algorithms\", Chang-Roberts best and worst case"},
		// The lecture notes: every initiator's token goes all the way round: N^2.
		{"lelann", func(n int) int { return n * n }, func(n int) int { return n * n }, "lecture notes \"Election algorithms\", LeLann"},
		// The lecture slides: every elect(i) goes all the way round.
		{"lelann-list", func(n int) int { return n * n }, func(n int) int { return n * n }, "lecture slides \"Leader Election Algorithms\", LeLann with active lists"},
	}
	maxN := 6
	if testing.Short() {
		maxN = 4
	}
	for _, tt := range tests {
		m, ok := protocols.Lookup(tt.algo)
		if !ok {
			t.Fatalf("no protocol %s", tt.algo)
		}
		for n := 1; n <= maxN; n++ {
			t.Run(fmt.Sprintf("%s/n=%d", tt.algo, n), func(t *testing.T) {
				space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels, Initiators: spec.All(n)}
				opts := explore.Options{Exact: true}
				res := explore.Check(context.Background(), m, space, opts)
				if res.Verdict().Outcome != invariants.Verified {
					t.Fatal(res.Verdict())
				}
				if res.MinMessages != tt.min(n) || res.MaxMessages != tt.max(n) {
					t.Errorf("%s: messages min %d max %d, want %d and %d", tt.source, res.MinMessages, res.MaxMessages, tt.min(n), tt.max(n))
				}
			})
		}
	}
}

// A search cut short never claims VERIFIED, and says how far it got.
func TestIncompleteIsNeverVerified(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4)}
	for _, limit := range []int64{1, 10, 1000} {
		res := explore.Check(context.Background(), m, space, explore.Options{MaxStates: limit})
		if res.Incomplete == "" || res.Verdict().Outcome == invariants.Verified {
			t.Errorf("max %d states: verdict %q", limit, res.Verdict())
		}
		for _, p := range res.Properties {
			if p.Status == explore.Holds {
				t.Errorf("max %d states: %s reported as holding", limit, p.Name)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := explore.Check(ctx, m, space, explore.DefaultOptions()); res.Verdict() != (invariants.Verdict{Outcome: invariants.Incomplete, Reason: "interrupted after 0 of 90 configurations"}) {
		t.Errorf("cancelled: %q", res.Verdict())
	}
}

// The same input gives the same counts and the same trace, with
// fingerprints or exact storage, with any number of workers, BFS or DFS
// (counts only).
func TestDeterministic(t *testing.T) {
	for _, name := range []string{"dkr", "cr-flip", "peterson-norelay"} {
		m, _ := protocols.Lookup(name)
		space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4), Channels: m.Info().Channels}
		a := explore.Check(context.Background(), m, space, explore.DefaultOptions())
		b := explore.Check(context.Background(), m, space, explore.DefaultOptions())
		exact := explore.DefaultOptions()
		exact.Exact = true
		c := explore.Check(context.Background(), m, space, exact)
		one, three := explore.DefaultOptions(), explore.DefaultOptions()
		one.Workers, three.Workers = 1, 3
		d1 := explore.Check(context.Background(), m, space, one)
		d3 := explore.Check(context.Background(), m, space, three)
		for _, r := range []*explore.Result{b, c, d1, d3} {
			if r.States != a.States || r.Transitions != a.Transitions || r.Verdict() != a.Verdict() {
				t.Errorf("%s: %d states %d transitions %s vs %d %d %s", name, a.States, a.Transitions, a.Verdict(), r.States, r.Transitions, r.Verdict())
			}
			if (a.Violation == nil) != (r.Violation == nil) || a.Violation != nil && fmt.Sprint(a.Violation.Trace) != fmt.Sprint(r.Violation.Trace) {
				t.Errorf("%s: traces differ", name)
			}
		}
		if a.Violation != nil {
			continue
		}
		dfs := explore.DefaultOptions()
		dfs.Search = explore.DFS
		d := explore.Check(context.Background(), m, space, dfs)
		if d.States != a.States || d.Transitions != a.Transitions || d.Verdict() != a.Verdict() || d.MaxMessages != a.MaxMessages {
			t.Errorf("%s: DFS found %d states %d transitions %s, BFS %d %d %s", name, d.States, d.Transitions, d.Verdict(), a.States, a.Transitions, a.Verdict())
		}
	}
}

// TestStatusesAfterViolation: a violation of the message bound alone is
// found after each configuration's whole graph was searched, so the other
// properties are decided (but comparison-only and the ports' part of
// uniformity, whose checks run only after a search without a violation);
// a violation found during a search, or a depth-first sweep that stops at
// its first violation, leaves them unknown.
func TestStatusesAfterViolation(t *testing.T) {
	const holds, unknown, violated = explore.Holds, explore.Unknown, explore.Violated
	decided := map[string]explore.Status{
		invariants.AtMostOneLeader: holds, invariants.Agreement: holds, invariants.Termination: holds,
		invariants.ExactlyOneLeader: holds, invariants.Validity: holds, invariants.Decentralization: holds,
		invariants.Uniformity: unknown, invariants.ComparisonOnly: unknown, invariants.MessageBound: violated,
	}
	undecided := map[string]explore.Status{
		invariants.AtMostOneLeader: unknown, invariants.Agreement: unknown, invariants.Termination: unknown,
		invariants.ExactlyOneLeader: unknown, invariants.Validity: unknown, invariants.Decentralization: unknown,
		invariants.Uniformity: unknown, invariants.ComparisonOnly: unknown, invariants.MessageBound: violated,
	}
	cutShort := map[string]explore.Status{
		invariants.AtMostOneLeader: unknown, invariants.Agreement: unknown, invariants.Termination: unknown,
		invariants.ExactlyOneLeader: unknown, invariants.Validity: violated, invariants.Decentralization: unknown,
		invariants.Uniformity: unknown, invariants.ComparisonOnly: unknown, invariants.MessageBound: unknown,
	}
	for _, tc := range []struct {
		algo   string
		search explore.Search
		want   map[string]explore.Status
	}{
		{"dkr-nosecond", explore.BFS, decided},
		{"dkr-nosecond", explore.DFS, undecided},
		{"cr-flip", explore.BFS, cutShort},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.algo, tc.search), func(t *testing.T) {
			m, _ := protocols.Lookup(tc.algo)
			space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 4), Channels: m.Info().Channels}
			opts := explore.DefaultOptions()
			opts.Search = tc.search
			res := explore.Check(context.Background(), m, space, opts)
			got := map[string]explore.Status{}
			for _, p := range res.Properties {
				got[p.Name] = p.Status
			}
			for name, want := range tc.want {
				if got[name] != want {
					t.Errorf("%s: %s, want %s", name, got[name], want)
				}
			}
		})
	}
}

// A search stopped through its context says why: "interrupted" for a
// plain cancel (Ctrl-C), the cause for a cancel with one (the CLI's memory
// guard), and never VERIFIED.
func TestStopReason(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4), Channels: spec.FIFO}
	plain, cancel := context.WithCancel(context.Background())
	cancel()
	caused, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(fmt.Errorf("out of memory: a test's"))
	for _, tt := range []struct {
		ctx  context.Context
		want string
	}{
		{plain, "interrupted after 0 of 90 configurations"},
		{caused, "out of memory: a test's after 0 of 90 configurations"},
	} {
		res := explore.Check(tt.ctx, m, space, explore.DefaultOptions())
		if res.Incomplete != tt.want || res.Verdict().Outcome != invariants.Incomplete {
			t.Errorf("Incomplete %q (%v), want %q", res.Incomplete, res.Verdict(), tt.want)
		}
	}
}

// A search that meets a limit of the engine's own says which: a protocol
// whose local states count without bound runs out of local-state numbers,
// which the report names, not as "interrupted" (its message before).
func TestEngineLimitNamed(t *testing.T) {
	m := spec.Erase(fixtures.Endless{})
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Channels: spec.FIFO, IDs: []spec.ID{1, 2, 3}, Initiators: 1}
	for _, workers := range []int{1, 2} {
		opts := explore.DefaultOptions()
		opts.Workers = workers
		explore.LocalsLimit(&opts, 5000)
		res := explore.Check(context.Background(), m, space, opts)
		want := "distinct local states in one configuration"
		if !strings.Contains(res.Incomplete, want) || res.Verdict().Outcome != invariants.Incomplete {
			t.Errorf("workers=%d: Incomplete %q (%v), want it to say %q", workers, res.Incomplete, res.Verdict(), want)
		}
	}
	// Every configuration of the ring meets the limit. The first to stop
	// ends the check, and what it reports is what one worker reports,
	// whichever configurations the others had begun (they halt).
	space = configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Channels: spec.FIFO}
	var first *explore.Result
	for _, workers := range []int{1, 2, 2, 2} {
		opts := explore.DefaultOptions()
		opts.Workers = workers
		explore.LocalsLimit(&opts, 5000)
		// Progress counts a configuration done as the result does: not
		// one that stopped short.
		mostDone := 0
		opts.Progress = func(p explore.Progress) { mostDone = max(mostDone, p.ConfigsDone) }
		halted := explore.Halted(&opts)
		res := explore.Check(context.Background(), m, space, opts)
		if mostDone > res.ConfigsDone {
			t.Errorf("workers=%d: progress reported %d configurations done, the result %d", workers, mostDone, res.ConfigsDone)
		}
		if first == nil {
			first = res
			if res.ConfigsDone != 0 || !strings.Contains(res.Incomplete, "distinct local states") {
				t.Fatalf("one worker: %d configurations done, %q", res.ConfigsDone, res.Incomplete)
			}
			// The other 13, in the same batch, were left unsearched, not
			// run to the limit.
			if h := halted(); h != int64(res.Configs-1) {
				t.Errorf("one worker: %d configurations left unsearched, want %d", h, res.Configs-1)
			}
			continue
		}
		if res.Incomplete != first.Incomplete || res.States != first.States || res.ConfigsDone != first.ConfigsDone {
			t.Errorf("workers=%d: %q, %d states, %d done; one worker: %q, %d, %d",
				workers, res.Incomplete, res.States, res.ConfigsDone, first.Incomplete, first.States, first.ConfigsDone)
		}
	}
}
