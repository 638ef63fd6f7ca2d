package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// shorterN is how far TestShorterSweeps goes: every buggy variant on every
// configuration of its topology up to this size.
const shorterN = 4

// TestShorterSweeps: once a violation is known, the configurations after it
// are searched only as deep as a shorter counterexample could be, and
//   - the counterexample is the one a sweep without depth limits reports,
//     step for step, on every buggy variant, with and without partial-order
//     reduction;
//   - no configuration after a violation is searched deeper than one step
//     short of the shortest violation before it, and none before the first
//     violation is limited;
//   - the figures do not depend on the number of workers.
func TestShorterSweeps(t *testing.T) {
	for _, m := range protocols.All() {
		info := m.Info()
		if info.Bug == "" {
			continue
		}
		for n := 2; n <= fixtures.MaxN(info, shorterN); n++ {
			for _, por := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/n=%d/por=%v", info.Name, n, por), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels}
					opts := explore.DefaultOptions()
					opts.POR, opts.Workers = por, 1
					full := opts
					full.EveryConfig = true
					want := explore.Check(context.Background(), m, space, full)

					best, limited := -1, 0
					explore.OnMerged(&opts, func(k, lim, depth int, cut bool, found int) {
						switch {
						case best < 0 && lim >= 0:
							t.Errorf("configuration %d limited to depth %d before any violation", k, lim)
						case best >= 0 && lim != best-1:
							t.Errorf("configuration %d: depth limit %d after a violation of %d steps", k, lim, best)
						case lim >= 0 && depth > lim:
							t.Errorf("configuration %d searched to depth %d, beyond its limit %d", k, depth, lim)
						}
						if cut {
							limited++
						}
						if found >= 0 && (best < 0 || found < best) {
							best = found
						}
					})
					got := explore.Check(context.Background(), m, space, opts)
					sameCounterexample(t, want, got)
					if got.DepthCut != limited {
						t.Errorf("DepthCut %d, but %d configurations were cut", got.DepthCut, limited)
					}
					two := opts
					two.Workers = 2
					explore.OnMerged(&two, func(int, int, int, bool, int) {})
					sameFigures(t, got, explore.Check(context.Background(), m, space, two))
				})
			}
		}
	}
}

// sameCounterexample fails unless a and b report the same counterexample.
func sameCounterexample(t *testing.T, a, b *explore.Result) {
	t.Helper()
	if (a.Violation == nil) != (b.Violation == nil) {
		t.Fatalf("violation %v, want %v", b.Violation, a.Violation)
	}
	if a.Violation == nil {
		return
	}
	va, vb := a.Violation, b.Violation
	if va.Property != vb.Property || va.ConfigIndex != vb.ConfigIndex || va.LoopAt != vb.LoopAt || fmt.Sprint(va.Trace) != fmt.Sprint(vb.Trace) {
		t.Errorf("counterexample %s in configuration %d, %d steps (loop at %d), want %s in %d, %d steps (loop at %d)",
			vb.Property, vb.ConfigIndex, len(vb.Trace), vb.LoopAt, va.Property, va.ConfigIndex, len(va.Trace), va.LoopAt)
	}
}

// sameFigures fails unless a and b have the same figures and verdict.
func sameFigures(t *testing.T, a, b *explore.Result) {
	t.Helper()
	type figures struct {
		states, transitions, terminals int64
		done, cut, cutDepth            int
		verdict                        string
	}
	fa := figures{a.States, a.Transitions, a.Terminals, a.ConfigsDone, a.DepthCut, a.CutDepth, a.Verdict().String()}
	fb := figures{b.States, b.Transitions, b.Terminals, b.ConfigsDone, b.DepthCut, b.CutDepth, b.Verdict().String()}
	if fa != fb {
		t.Errorf("figures %+v, want %+v", fb, fa)
	}
	sameCounterexample(t, a, b)
}

// TestShorterEchoJoinHigher pins the sweep that ran for minutes before
// depth limits (310 million states after 18 minutes, unfinished): it now
// ends, well within a state budget the old sweep overran, with the same
// 10-step counterexample and the same figures on one worker and two.
func TestShorterEchoJoinHigher(t *testing.T) {
	m, _ := protocols.Lookup("echo-joinhigher")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 4), Channels: m.Info().Channels, PortBlind: m.Info().PortBlind}
	opts := explore.DefaultOptions()
	opts.MaxStates, opts.Workers = 2_000_000, 1
	res := explore.Check(context.Background(), m, space, opts)
	v := res.Violation
	if res.Incomplete != "" || v == nil || v.Property != "validity" || len(v.Trace) != 10 || v.ConfigIndex != 17 {
		t.Fatalf("%s (%s), want validity in 10 steps in configuration 17", res.Verdict(), res.Incomplete)
	}
	if res.States != 652_284 || res.ConfigsDone != 5 || res.DepthCut != 565 || res.CutDepth != 11 {
		t.Errorf("%d states, %d configurations done, %d depth limited to %d; want 652284, 5, 565, 11",
			res.States, res.ConfigsDone, res.DepthCut, res.CutDepth)
	}
	opts.Workers = 2
	sameFigures(t, res, explore.Check(context.Background(), m, space, opts))
}

// Progress counts the depth-limited configurations as done (searched as
// far as they will be), so that its share and ETA follow the limited
// searches; and it names the violation known.
func TestShorterProgress(t *testing.T) {
	m, _ := protocols.Lookup("peterson-norelay")
	space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 6), Channels: m.Info().Channels}
	opts := explore.DefaultOptions()
	opts.Workers = 1
	most, named := 0, ""
	opts.Progress = func(p explore.Progress) {
		most = max(most, p.ConfigsDone)
		if p.Violated != "" {
			named = fmt.Sprintf("%s in %d steps", p.Violated, p.Steps)
		}
	}
	res := explore.Check(context.Background(), m, space, opts)
	if res.Violation == nil || res.DepthCut < 5000 {
		t.Fatalf("%s with %d configurations depth limited, want a violation and most of the %d limited", res.Verdict(), res.DepthCut, res.Configs)
	}
	if most < res.ConfigsDone+res.DepthCut-batchOf {
		t.Errorf("progress reached %d configurations done, want at least %d of the %d done or limited", most, res.ConfigsDone+res.DepthCut-batchOf, res.ConfigsDone+res.DepthCut)
	}
	if want := fmt.Sprintf("%s in %d steps", res.Violation.Property, len(res.Violation.Trace)); named != want {
		t.Errorf("progress named %q, want %q", named, want)
	}
}

// batchOf is the most configurations a check merges at once: progress
// may lag the merge by one batch.
const batchOf = 1024
