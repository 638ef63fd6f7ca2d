package counterexamples

import (
	"fmt"
	"io"
	"strings"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// WriteText renders the trace for a person: the configuration, the initial
// state, then each step (who received what from whom, the local state
// before and after, what was sent, and what is in flight), then the final
// state. The text is deterministic; golden files pin it.
func (t *Trace) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", t.Property, t.Detail)
	fmt.Fprintf(&b, "configuration: %s, %s\n", t.Algo, t.Config)
	// A message-bound trace is the execution with the most messages, not a
	// shortest one: count them as they go, and mark where the count passes
	// the bound.
	counting := t.Property == invariants.MessageBound
	bound, sent := -1, 0
	if b := t.sys.Info.Bound; counting && b.Max != nil {
		bound = b.Max(t.Config.Topology.N)
	}
	b.WriteString("initial state:\n")
	t.writeState(&b, t.Initial)
	for k, st := range t.Steps {
		if k == t.LoopAt {
			fmt.Fprintf(&b, "-- the cycle starts here: the steps below return to the state after step %d\n", t.LoopAt)
		}
		before := sent
		sent += len(st.Sends)
		mark := ""
		if k == t.differsAt() {
			mark = "   <- differs from " + t.Differs.Ref
		}
		if counting {
			fmt.Fprintf(&b, "step %d (%d messages sent so far): %s%s\n", k+1, sent, t.describe(st.Action), mark)
		} else {
			fmt.Fprintf(&b, "step %d: %s%s\n", k+1, t.describe(st.Action), mark)
		}
		if bound >= 0 && before <= bound && sent > bound {
			fmt.Fprintf(&b, "    -- the bound is crossed here: %d messages, more than %s = %d\n", sent, t.sys.Info.Bound.Formula, bound)
		}
		fmt.Fprintf(&b, "    %s -> %s\n", st.Before, st.After)
		if st.Note != "" {
			fmt.Fprintf(&b, "    why: %s\n", st.Note)
		}
		if len(st.Sends) > 0 {
			fmt.Fprintf(&b, "    sends %s\n", t.sendsText(st.Action.Proc, st.Sends, t.sys.Info.Messages))
		}
		if fl := t.inFlight(st.State); fl != "" {
			fmt.Fprintf(&b, "    in flight: %s\n", fl)
		}
		if bl := t.blocked(st.State); bl != "" {
			fmt.Fprintf(&b, "    blocked: %s\n", bl)
		}
	}
	if len(t.Steps) > 0 {
		b.WriteString("final state:\n")
		t.writeState(&b, t.Final())
	}
	if t.Differs != nil {
		b.WriteString(t.Differs.String() + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sendsText renders what process proc sent in one step, its kinds named
// by kinds: "probe(3) to p2, probe(1) to p2", or "nothing".
func (t *Trace) sendsText(proc int, sends []spec.Send, kinds []string) string {
	if len(sends) == 0 {
		return "nothing"
	}
	var sent []string
	for _, s := range sends {
		to := -1
		for _, ed := range t.Config.Topology.Edges {
			if ed.From.Node == proc && ed.From.Port == s.Port {
				to = ed.To.Node
			}
		}
		sent = append(sent, fmt.Sprintf("%s to p%d", s.Msg.Format(kinds), to))
	}
	return strings.Join(sent, ", ")
}

// Text returns the rendering of WriteText.
func (t *Trace) Text() string {
	var b strings.Builder
	t.WriteText(&b)
	return b.String()
}

func (t *Trace) writeState(b *strings.Builder, s explore.State) {
	for i, l := range s.Locals {
		wake := ""
		if s.Wake.Has(i) {
			wake = " (initiator, not yet woken)"
		}
		fmt.Fprintf(b, "    %s: %s%s\n", t.proc(i), t.sys.Machine.Format(l), wake)
	}
	if fl := t.inFlight(s); fl != "" {
		fmt.Fprintf(b, "    in flight: %s\n", fl)
	}
	if bl := t.blocked(s); bl != "" {
		fmt.Fprintf(b, "    blocked: %s\n", bl)
	}
}

// blocked renders the sends blocked processes hold (channels of bounded
// capacity): "p1 holds id(1) to p2, id(3) to p0", or "".
func (t *Trace) blocked(s explore.State) string {
	var parts []string
	for p, h := range s.Held {
		if len(h) > 0 {
			parts = append(parts, fmt.Sprintf("p%d holds %s", p, t.sendsText(p, h, t.sys.Info.Messages)))
		}
	}
	return strings.Join(parts, "; ")
}

func (t *Trace) inFlight(s explore.State) string {
	var parts []string
	for e, c := range s.Chans {
		if len(c) == 0 {
			continue
		}
		ed := t.Config.Topology.Edges[e]
		var ms []string
		for _, m := range c {
			ms = append(ms, t.msg(m))
		}
		parts = append(parts, fmt.Sprintf("p%d->p%d [%s]", ed.From.Node, ed.To.Node, strings.Join(ms, " ")))
	}
	return strings.Join(parts, ", ")
}
