package explore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// rewrite regenerates the golden files of this package:
// ELCHECK_REWRITE=1 go test ./explore -run Golden (make golden); review
// the diff before committing it.
var rewrite = os.Getenv("ELCHECK_REWRITE") != ""

// countsPath is the golden file of TestGoldenCounts.
var countsPath = filepath.Join("testdata", "counts.txt")

// countsLine is one line of the golden file: the figures of a whole sweep
// (every placement up to rotation, every initiator set, the protocol's
// channels) that any correct engine must reproduce exactly.
func countsLine(name string, n int, mode string, r *explore.Result) string {
	return fmt.Sprintf("%s n=%d %s: %s states=%d transitions=%d terminals=%d depth=%d messages=%d..%d digest=%016x",
		name, n, mode, r.Verdict(), r.States, r.Transitions, r.Terminals, r.MaxDepth, r.MinMessages, r.MaxMessages, r.FinalDigest)
}

// countModes are the option sets whose figures are pinned: what `elcheck
// verify` uses, and the same without partial-order reduction.
var countModes = []struct {
	name string
	opts func() explore.Options
}{
	{"default", explore.DefaultOptions},
	{"unreduced", func() explore.Options { o := explore.DefaultOptions(); o.POR = false; return o }},
}

// TestGoldenCounts pins the absolute figures of every protocol and
// variant of the registry, n = 1 to 5, with the default options and with
// reduction off: verdict, states, transitions, terminal states, greatest
// depth, fewest and most messages, and the digest of the final states.
// Every other test compares one engine with another; this one catches a
// change that moves all engines alike (a changed encoding, enumeration,
// successor function, reduction rule or property). A reviewed change of
// the figures is recorded with ELCHECK_REWRITE=1 (make golden).
func TestGoldenCounts(t *testing.T) {
	if testing.Short() && !rewrite {
		t.Skip("the full run checks the figures; -short (the race run) skips them")
	}
	ms := protocols.All()
	lines := make([][]string, len(ms))
	t.Run("sweeps", func(t *testing.T) {
		for k, m := range ms {
			info := m.Info()
			t.Run(info.Name, func(t *testing.T) {
				t.Parallel()
				// n = 5 costs at most 0.8 s per protocol and mode on two cores
				// (two-way rings stop at 3: MaxTestN).
				// Two-way rings stop at 4: hs has 11 million states at 5.
				top := 5
				if info.Topology == spec.BiRing {
					top = 4
				}
				if info.Topology.Linked() {
					top = fixtures.MaxN(info, 4)
				}
				for n := 1; n <= top; n++ {
					for _, mode := range countModes {
						space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels}
						r := explore.Check(context.Background(), m, space, mode.opts())
						if r.Incomplete != "" || r.Internal != "" {
							t.Fatalf("n=%d %s: %s %s", n, mode.name, r.Verdict(), r.Internal)
						}
						lines[k] = append(lines[k], countsLine(info.Name, n, mode.name, r))
					}
				}
			})
		}
	})
	if t.Failed() {
		return
	}
	var got []string
	for _, l := range lines {
		got = append(got, l...)
	}
	text := strings.Join(got, "\n") + "\n"
	if rewrite {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(countsPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(countsPath)
	if err != nil {
		t.Fatalf("%v (ELCHECK_REWRITE=1 go test ./explore -run Golden creates it)", err)
	}
	if diff := cmp.Diff(string(want), text); diff != "" {
		t.Errorf("figures differ from %s (-golden +now):\n%s", countsPath, diff)
	}
}

// TestHandCountedFigures checks figures worked out by hand from the
// lecture notes' pseudo-code of LeLann (docs/protocols/), unreduced, so
// that the golden file cannot start from a mistake every engine shares.
//
// n=1: wake (the token goes out), the token comes home: 3 states, 2
// transitions, 1 message.
//
// n=2, ids 1,2 (one placement up to rotation), three initiator sets. A
// single initiator: wake, the other relays, the token comes home: 4 states
// and 3 transitions each, 2 messages. Both: each process takes three
// events in order (wake, the other's token, its own token), so a state is
// the pair (a, b) of events done by p0 and p1, 0..3 each, where p0's
// second event needs b >= 1 (p1's token sent), its third b >= 2 (p1
// forwarded p0's token), and symmetrically. The pairs allowed: a=0: b in
// 0..1; a=1: 0..2; a=2: 1..3; a=3: 2..3: 10 states; 6 edges along a and 6
// along b: 12 transitions; one terminal state (3,3) at depth 6; 4 messages.
// Over the sweep: 18 states, 18 transitions, 3 terminal states, depth 6,
// 2 to 4 messages.
func TestHandCountedFigures(t *testing.T) {
	tests := []struct {
		algo                           string
		n                              int
		states, transitions, terminals int64
		depth, minMsg, maxMsg          int
	}{
		{"lelann", 1, 3, 2, 1, 2, 1, 1},
		{"lelann", 2, 18, 18, 3, 6, 2, 4},
	}
	for _, tt := range tests {
		m, ok := protocols.Lookup(tt.algo)
		if !ok {
			t.Fatalf("no protocol %s", tt.algo)
		}
		for _, opts := range []explore.Options{{Exact: true}, {}, {Search: explore.DFS}} {
			r := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, tt.n), Channels: spec.FIFO}, opts)
			if r.Verdict().Outcome != invariants.Verified || r.States != tt.states || r.Transitions != tt.transitions || r.Terminals != tt.terminals ||
				r.MaxDepth != tt.depth && opts.Search == explore.BFS || r.MinMessages != tt.minMsg || r.MaxMessages != tt.maxMsg {
				t.Errorf("%s n=%d %+v: %s, %d states, %d transitions, %d terminal, depth %d, messages %d..%d; by hand: %d, %d, %d, depth %d, %d..%d",
					tt.algo, tt.n, opts, r.Verdict(), r.States, r.Transitions, r.Terminals, r.MaxDepth, r.MinMessages, r.MaxMessages,
					tt.states, tt.transitions, tt.terminals, tt.depth, tt.minMsg, tt.maxMsg)
			}
		}
	}
}
