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
	"github.com/elcheck/elcheck/spec"
)

// initArith does arithmetic on its id in Init only: it keeps id-1 in a
// field that no step reads before overwriting it, so no execution shows
// it, and only the check of the initial states can.
type initArith struct{ fixtures.Correct }

func (initArith) Info() spec.Info {
	in := fixtures.Correct{}.Info()
	in.Name = "fixture-init-arith"
	return in
}

func (initArith) Init(env spec.Env) fixtures.State {
	return fixtures.State{ID: env.ID, Leader: env.ID - 1}
}

// legacyState is fixtures.State encoded by S.Encode and Protocol.Decode,
// which do not say where its ids are.
type legacyState struct{ s fixtures.State }

func (l legacyState) Decision() spec.Decision { return l.s.Decision() }
func (l legacyState) String() string          { return l.s.String() }
func (l legacyState) Encode(e *spec.Encoder) {
	e.ID(l.s.ID)
	e.Uint(uint64(l.s.Phase))
	e.ID(l.s.Leader)
}

// legacyOddSkips is fixtures.OddSkips on legacyState.
type legacyOddSkips struct{}

func (legacyOddSkips) Info() spec.Info {
	in := fixtures.OddSkips{}.Info()
	in.Name = "fixture-odd-skips-legacy"
	return in
}

func (legacyOddSkips) Init(env spec.Env) legacyState {
	return legacyState{fixtures.OddSkips{}.Init(env)}
}

func (legacyOddSkips) Step(s legacyState, ev spec.Event, out *spec.Outbox) legacyState {
	return legacyState{fixtures.OddSkips{}.Step(s.s, ev, out)}
}

func (legacyOddSkips) Decode(d *spec.Decoder) legacyState {
	return legacyState{fixtures.State{ID: d.ID(), Phase: uint8(d.Uint()), Leader: d.ID()}}
}

// The comparison-only check, in each of its three forms: at a step (with
// the trace to it), at the initial states, and, for states whose ids it
// cannot locate, by exploring each configuration again relabelled. The
// same protocols pass with the check off.
func TestComparisonOnlyForms(t *testing.T) {
	for _, tt := range []struct {
		m     spec.Machine
		trace bool
		want  []string
	}{
		{spec.Erase(fixtures.OddSkips{}), true, []string{"on receiving probe", "relabelling the ids it reads", "the same order"}},
		{spec.Erase[fixtures.State](initArith{}), false, []string{"Init of p", "does more than compare ids", "the same order"}},
		{spec.Erase[legacyState](legacyOddSkips{}), false, []string{"relabelling the ids [", "the same order", "states", "winners"}},
	} {
		for _, n := range []int{3, 4} {
			t.Run(fmt.Sprintf("%s/n=%d", tt.m.Info().Name, n), func(t *testing.T) {
				space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n)}
				res := explore.Check(context.Background(), tt.m, space, explore.DefaultOptions())
				v := res.Violation
				if v == nil || v.Property != invariants.ComparisonOnly {
					t.Fatalf("verdict %s, want comparison-only", res.Verdict())
				}
				if got := len(v.Trace) > 0; got != tt.trace {
					t.Errorf("trace of %d steps, want one: %v", len(v.Trace), tt.trace)
				}
				for _, w := range tt.want {
					if !strings.Contains(v.Detail, w) {
						t.Errorf("detail %q lacks %q", v.Detail, w)
					}
				}
				opts := explore.DefaultOptions()
				opts.ComparisonOnly = false
				if res := explore.Check(context.Background(), tt.m, space, opts); res.Verdict().Outcome != invariants.Verified {
					t.Errorf("without the check: %s", res.Verdict())
				}
			})
		}
	}
}

// The check relabels the ids a step reads, so whichever configuration
// takes a step first, and whatever the workers' memos hold, a sweep
// reports the same finding.
func TestComparisonOnlyDeterministic(t *testing.T) {
	m := spec.Erase(fixtures.OddSkips{})
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 5)}
	var first *explore.Violation
	for _, workers := range []int{1, 2, 3} {
		opts := explore.DefaultOptions()
		opts.Workers = workers
		v := explore.Check(context.Background(), m, space, opts).Violation
		if v == nil {
			t.Fatalf("%d workers: no violation", workers)
		}
		if first == nil {
			first = v
			continue
		}
		if v.Detail != first.Detail || v.ConfigIndex != first.ConfigIndex || fmt.Sprint(v.Trace) != fmt.Sprint(first.Trace) {
			t.Errorf("%d workers: %s at %d %v, one worker: %s at %d %v", workers, v.Detail, v.ConfigIndex, v.Trace, first.Detail, first.ConfigIndex, first.Trace)
		}
	}
}

// Every engine checks each step: the byte store at the memo, the
// collapsed store at its step table, depth-first search and the parallel
// expansion of one configuration.
func TestComparisonOnlyOnEveryEngine(t *testing.T) {
	m := spec.Erase(fixtures.OddSkips{})
	for _, e := range append(engines[:len(engines):len(engines)], struct {
		name string
		opts func(*explore.Options)
	}{"one-configuration", func(o *explore.Options) { o.POR, o.Workers, o.Exact = false, 2, true }}) {
		t.Run(e.name, func(t *testing.T) {
			opts := explore.DefaultOptions()
			e.opts(&opts)
			space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 4)}
			if e.name == "one-configuration" {
				space.IDs = []spec.ID{1, 2, 3, 4}
				space.Initiators = spec.Set(0).With(3) // p0 (id 1, odd) sleeps until probe(4) reaches it
			}
			v := explore.Check(context.Background(), m, space, opts).Violation
			if v == nil || v.Property != invariants.ComparisonOnly || len(v.Trace) == 0 {
				t.Fatalf("%+v, want comparison-only with a trace", v)
			}
		})
	}
}
