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

// engines are the ways a configuration can be searched; an impurity must
// be caught on each.
var engines = []struct {
	name string
	opts func(*explore.Options)
}{
	{"default", func(*explore.Options) {}},
	{"one-worker", func(o *explore.Options) { o.Workers = 1 }},
	{"unreduced", func(o *explore.Options) { o.POR = false }},
	{"exact", func(o *explore.Options) { o.Exact = true }},
	{"dfs", func(o *explore.Options) { o.Search = explore.DFS }},
}

// An impure step is reported as step-purity on every engine, every time,
// never as a panic and never under another property's name. Map order
// differs between two runs only by chance, so each case runs many times.
func TestImpureStepsCaughtEveryTime(t *testing.T) {
	runs := 20
	if testing.Short() {
		runs = 5
	}
	for _, m := range []spec.Machine{spec.Erase(fixtures.Counter{}), spec.Erase(fixtures.MapOrder{})} {
		for _, e := range engines {
			for _, n := range []int{3, 4} { // n=2 has too few distinct steps to make map order certain
				t.Run(fmt.Sprintf("%s/%s/n=%d", m.Info().Name, e.name, n), func(t *testing.T) {
					for range runs {
						opts := explore.DefaultOptions()
						e.opts(&opts)
						res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n)}, opts)
						v := res.Violation
						if v == nil || v.Property != invariants.StepPurity {
							t.Fatalf("verdict %s, want step-purity", res.Verdict())
						}
						if !strings.Contains(v.Detail, "not deterministic") && !strings.Contains(v.Detail, "not functions of their input") {
							t.Fatalf("detail %q says neither what differed nor why", v.Detail)
						}
					}
				})
			}
		}
	}
}

// A step that is not deterministic is reported with both of its results:
// here, the same two messages sent in the two orders. (Which step shows it
// first is chance: the first may pass its runs, and the replay of the
// recorded path may then be what catches it, without both results. So
// the check runs up to eight times: one of them must show both, which
// fails by chance less often than once in a million.)
func TestImpureStepShowsBothResults(t *testing.T) {
	opts := explore.DefaultOptions()
	var details []string
	for range 8 {
		res := explore.Check(context.Background(), spec.Erase(fixtures.MapOrder{}), configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), IDs: []spec.ID{1, 2, 3}, Initiators: 1}, opts)
		v := res.Violation
		if v == nil || v.Property != invariants.StepPurity {
			t.Fatalf("verdict %s, want step-purity", res.Verdict())
		}
		if len(v.Trace) == 0 {
			t.Errorf("no trace to the step")
		}
		if strings.Contains(v.Detail, "is not deterministic: on the same input one run gave [") &&
			strings.Contains(v.Detail, ", sends probe(") && strings.Contains(v.Detail, ", sends hello(") {
			return
		}
		details = append(details, v.Detail)
	}
	t.Errorf("no detail shows both orders: %q", details)
}

// Arithmetic on ids that an order-preserving relabelling keeping parity or
// magnitude would miss is caught as comparison-only, at the step that
// does it, with both id orders and both results in the finding; the same
// algorithm without the slip passes.
func TestArithmeticOnIDsCaught(t *testing.T) {
	for _, tt := range []struct {
		m    spec.Machine
		want string
	}{
		{spec.Erase(fixtures.Correct{}), ""},
		{spec.Erase(fixtures.OddSkips{}), invariants.ComparisonOnly},
		{spec.Erase(fixtures.Overflow{}), invariants.ComparisonOnly},
	} {
		for n := 2; n <= 5; n++ {
			t.Run(fmt.Sprintf("%s/n=%d", tt.m.Info().Name, n), func(t *testing.T) {
				res := explore.Check(context.Background(), tt.m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n)}, explore.DefaultOptions())
				if tt.want == "" {
					if res.Verdict().Outcome != invariants.Verified {
						t.Fatalf("%s", res.Verdict())
					}
					return
				}
				v := res.Violation
				if v == nil || v.Property != tt.want {
					t.Fatalf("verdict %s, want %s", res.Verdict(), tt.want)
				}
				// Caught at the step that does arithmetic, reached by a
				// trace: the step, both id orders and both results.
				if len(v.Trace) == 0 {
					t.Errorf("no trace to the step: %+v", v)
				}
				for _, want := range []string{"the step of p", "relabelling the ids it reads", "the same order", "gives ["} {
					if !strings.Contains(v.Detail, want) {
						t.Errorf("detail %q lacks %q", v.Detail, want)
					}
				}
			})
		}
	}
	// Without the check both pass: the check is what catches them.
	opts := explore.DefaultOptions()
	opts.ComparisonOnly = false
	for _, m := range []spec.Machine{spec.Erase(fixtures.OddSkips{}), spec.Erase(fixtures.Overflow{})} {
		if res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4)}, opts); res.Verdict().Outcome != invariants.Verified {
			t.Errorf("%s without comparison-only: %s", m.Info().Name, res.Verdict())
		}
	}
}

// Ids at both ends of the accepted range: no arithmetic of the checker
// overflows, so a correct protocol stays verified.
func TestIDsAtTheRangeEnds(t *testing.T) {
	for _, ids := range [][]spec.ID{
		{spec.MaxID, 1, spec.MaxID - 1},
		{1, 2, 3},
		{spec.MaxID - 2, spec.MaxID - 1, spec.MaxID},
		{46341, 2, 3}, // where i*i+10 used to overflow
	} {
		for _, algo := range []string{"dkr", "cr", "peterson", "lelann"} {
			m, _ := protocols.Lookup(algo)
			t.Run(fmt.Sprintf("%s/%v", algo, ids), func(t *testing.T) {
				res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), IDs: ids}, explore.DefaultOptions())
				if res.Verdict().Outcome != invariants.Verified {
					t.Fatalf("%s: %s", res.Verdict(), res.Violation.Detail)
				}
			})
		}
	}
}

// With causal clocks (bounds), a protocol that can run forever must stop
// with its termination violation and lasso, not grow without end.
func TestClocksOnACycle(t *testing.T) {
	for _, tt := range []struct {
		algo string
		n    int
	}{{"cr-min-noabsorb", 1}, {"peterson-nocheck", 3}} {
		m, _ := protocols.Lookup(tt.algo)
		opts := explore.Options{Time: true, POR: true, MaxStates: 1 << 20}
		res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, tt.n)}, opts)
		v := res.Violation
		if v == nil || v.Property != invariants.Termination || v.LoopAt < 0 {
			t.Errorf("%s n=%d with clocks: %s, want termination with a lasso", tt.algo, tt.n, res.Verdict())
		}
	}
}

// Uniformity holds by construction; the note says how often the engine's
// own symmetry was checked, also when it was on no state at all.
func TestUniformityNote(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	opts := explore.DefaultOptions()
	opts.Memory = 1
	res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3)}, opts)
	for _, p := range res.Properties {
		if p.Name != invariants.Uniformity {
			continue
		}
		if p.Status != explore.Holds || !strings.Contains(p.Note, "by construction") || !strings.Contains(p.Note, "ran on") {
			t.Errorf("uniformity %s (%s)", p.Status, p.Note)
		}
	}
	if got := invariants.UniformityNote(0, 17); !strings.Contains(got, "ran on no state") {
		t.Errorf("note for no state checked: %q", got)
	}
}

// A protocol whose Init panics is a step-panicked finding naming the
// process, not a crash.
func TestInitPanicIsAFinding(t *testing.T) {
	res := explore.Check(context.Background(), spec.Erase(fixtures.BadInit{}), configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3)}, explore.DefaultOptions())
	v := res.Violation
	if v == nil || v.Property != invariants.StepPanicked || !strings.Contains(v.Detail, "Init of p") || !strings.Contains(v.Detail, "(id 2) panicked") {
		t.Fatalf("verdict %s (%+v), want step-panicked in Init", res.Verdict(), v)
	}
}
