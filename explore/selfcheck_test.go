package explore_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// noisyLeLann is LeLann plus arithmetic on ids: a process whose id is a
// multiple of 3 sends a "noise" message on waking, which its successor
// drops. The election is unaffected, so only the comparison-only check can
// see that the protocol does more than compare ids.
type noisyLeLann struct{ protocols.LeLann }

const noise spec.Kind = 1

func (p noisyLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-noisy"
	in.Messages = append(append([]string(nil), in.Messages...), "noise")
	in.Bound = spec.Bound{}
	return in
}

func (p noisyLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	if ev.Kind == spec.Deliver && ev.Msg.Kind == noise {
		return s
	}
	if ev.Kind == spec.Wake && s.ID%3 == 0 {
		out.Send(0, spec.Message{Kind: noise})
	}
	return p.LeLann.Step(s, ev, out)
}

// impureLeLann reads a package-level counter: its steps are not functions
// of their input.
type impureLeLann struct{ protocols.LeLann }

var impureCalls int

func (p impureLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-impure"
	return in
}

func (p impureLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	impureCalls++
	if impureCalls%2 == 0 {
		s.Leader = 99
	}
	return p.LeLann.Step(s, ev, out)
}

// driftingLeLann changes its mind after its first 300 calls: a cache or
// counter kept outside the state, which runs in a row at a step's first use
// do not reveal once it has drifted.
type driftingLeLann struct{ protocols.LeLann }

var driftCalls int

func (p driftingLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-drifting"
	return in
}

func (p driftingLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	driftCalls++
	s = p.LeLann.Step(s, ev, out)
	if driftCalls > 300 && len(s.List) > 0 && !slices.Contains(s.List, 1000) {
		s.List = append(slices.Clone(s.List), 1000) // an id no process has
	}
	return s
}

// panickyLeLann indexes past a slice on a delivery to the process with the
// largest id, as a careless step might.
type panickyLeLann struct{ protocols.LeLann }

func (p panickyLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-panicky"
	return in
}

func (p panickyLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	if ev.Kind == spec.Deliver && len(s.List) > 1 {
		_ = s.List[len(s.List)+int(ev.Msg.ID)] // out of range
	}
	return p.LeLann.Step(s, ev, out)
}

func TestSelfChecks(t *testing.T) {
	tests := []struct {
		m      spec.Machine
		opts   func(*explore.Options)
		want   string
		detail string
	}{
		{spec.Erase[protocols.LeLannState](noisyLeLann{}), nil, invariants.ComparisonOnly, "relabelling the ids"},
		{spec.Erase[protocols.LeLannState](impureLeLann{}), func(o *explore.Options) { o.PurityEvery, o.Workers = 1, 1 }, invariants.StepPurity, "not deterministic"},
		{spec.Erase[protocols.LeLannState](panickyLeLann{}), nil, invariants.StepPanicked, "panicked: runtime error: index out of range"},
		// Two fresh runs agree, but not with the run the search used: the
		// purity check compares with that too, on both engines.
		{spec.Erase[protocols.LeLannState](driftingLeLann{}), func(o *explore.Options) {
			driftCalls, o.PurityEvery, o.Workers = 0, 1, 1
		}, invariants.StepPurity, "not"},
		{spec.Erase[protocols.LeLannState](driftingLeLann{}), func(o *explore.Options) {
			driftCalls, o.PurityEvery, o.POR, o.Workers = 0, 1, false, 1
		}, invariants.StepPurity, "not"},
	}
	for _, tt := range tests {
		t.Run(tt.m.Info().Name, func(t *testing.T) {
			opts := explore.DefaultOptions()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			res := explore.Check(context.Background(), tt.m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3)}, opts)
			v := res.Violation
			if v == nil || v.Property != tt.want || !strings.Contains(v.Detail, tt.detail) ||
				tt.want == invariants.StepPurity && !strings.Contains(v.Detail, "not deterministic") && !strings.Contains(v.Detail, "not functions of their input") {
				t.Fatalf("verdict %s (%+v), want %s with %q", res.Verdict(), v, tt.want, tt.detail)
			}
		})
	}
	// With the check off, the noisy protocol passes: the check is what
	// catches it.
	opts := explore.DefaultOptions()
	opts.ComparisonOnly = false
	if res := explore.Check(context.Background(), spec.Erase[protocols.LeLannState](noisyLeLann{}), configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3)}, opts); res.Verdict().Outcome != invariants.Verified {
		t.Errorf("noisy LeLann without the comparison check: %s", res.Verdict())
	}
}
