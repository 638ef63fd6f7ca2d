package explore

import (
	"fmt"
	"strings"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// outcome of a configuration's search, as comparison-only compares it.
type figures struct {
	states, transitions, terminals int64
	minMsg, maxMsg                 int
	elected                        spec.Set
	violation                      string
}

func figuresOf(c configResult, visits bool) figures {
	f := figures{c.states, c.transitions, c.terminals, c.minMsg, c.maxMsg, c.elected, ""}
	if c.violation != nil {
		f.violation = c.violation.Property
	}
	if visits { // state caching: the counts are visits and depend on the cache
		f.states, f.transitions, f.terminals = 0, 0, 0
	}
	return f
}

// String renders the figures for a person: "15 states, 14 transitions, 1
// final state, 12 to 12 messages, winners p2, no violation".
func (f figures) String() string {
	var b strings.Builder
	if f.states > 0 {
		fmt.Fprintf(&b, "%d states, %d transitions, %d final states, ", f.states, f.transitions, f.terminals)
	}
	if f.maxMsg >= 0 {
		fmt.Fprintf(&b, "%d to %d messages, ", f.minMsg, f.maxMsg)
	}
	var ws []string
	for _, p := range f.elected.Members() {
		ws = append(ws, fmt.Sprintf("p%d", p))
	}
	if len(ws) == 0 {
		ws = []string{"none"}
	}
	fmt.Fprintf(&b, "winners %s, ", strings.Join(ws, " "))
	if f.violation == "" {
		b.WriteString("no violation")
	} else {
		b.WriteString("violates " + f.violation)
	}
	return b.String()
}

// compareRelabelled explores cfg again under each relabelling and
// compares what it finds with r, what cfg's own search found. A protocol
// that only compares ids must reach as many states by as many transitions,
// with the same processes winning and the same message counts. A step that
// breaks the protocol contract in a relabelled search (it panics, or is
// not a function of its input) is reported as what it is, with its trace.
//
// Where the configuration's steps were each checked as the search took
// them (comparison.go), it only checks the initial states, unless a step
// hid its ids from the check.
func (x *searcher) compareRelabelled(m spec.Machine, cfg spec.Config, r configResult) (*Violation, error) {
	if spec.CanRelabel(m) && !x.cmpStep.missed.Load() {
		if d := x.system(m, cfg).checkInitRelabelled(x.opts.ComparisonSeed, &x.initsPassed); d != "" {
			return &Violation{Property: invariants.ComparisonOnly, Config: cfg, LoopAt: -1, Detail: d}, nil
		}
		return nil, nil
	}
	// Steps met here are not checked for comparison-only: not for
	// checkedSteps either.
	saved, checked := x.opts, x.checked
	x.opts.UniformityEvery, x.opts.ComparisonOnly, x.checked = 0, false, nil
	defer func() { x.opts, x.checked = saved, checked }()
	for _, rl := range configs.Relabellings {
		rc := cfg
		rc.IDs = rl.Relabel(cfg.IDs, x.opts.ComparisonSeed)
		q := x.search(x.system(m, rc))
		if q.stopped != nil {
			return nil, q.stopped
		}
		if v := q.violation; v != nil && (v.Property == invariants.StepPurity || v.Property == invariants.StepPanicked) {
			v.Detail += fmt.Sprintf(" (met while exploring the configuration with ids %v relabelled as %v)", cfg.IDs, rc.IDs)
			return v, nil
		}
		visits := r.cached || q.cached
		if a, b := figuresOf(r, visits), figuresOf(q, visits); a != b {
			return &Violation{Property: invariants.ComparisonOnly, Config: cfg, LoopAt: -1,
				Detail: fmt.Sprintf("relabelling the ids %v as %v (%s: the same order, %s) changes the behaviour: with %v, %s; with %v, %s",
					cfg.IDs, rc.IDs, rl.Name, rl.What, cfg.IDs, a, rc.IDs, b)}, nil
		}
	}
	return nil, nil
}
