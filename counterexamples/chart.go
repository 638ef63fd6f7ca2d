package counterexamples

import (
	"fmt"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// A chart is the trace as a message-sequence chart: the same model feeds
// the SVG and the Mermaid rendering, so that the two show the same
// messages, decisions and violation.
type chart struct {
	n     int
	procs []string // "p0", "p1", ...
	ids   []spec.ID
	steps []chartStep
	msgs  []chartMsg
	// loopAt is the first step (from 0) of a lasso's loop, or -1.
	loopAt int
	// breakAt is the step (from 0) where the property breaks, or -1 when
	// the trace has no step.
	breakAt int
	// breakNote says what happens at breakAt when that is not the end of
	// the trace (a message bound crossed), or "".
	breakNote string
	caption   string
	// differs is the step (from 0) where the reference protocol ref
	// first parts ways with the trace (Trace.Differs), or -1.
	differs int
	ref     string
}

// chartStep is one step: a wake-up or a delivery, and the process's new
// local state when it changed.
type chartStep struct {
	proc int
	wake bool
	msg  int // index into chart.msgs of the delivered message, or -1
	// after is the local state after the step, "" when it did not change.
	after string
	// decided is the decision the step makes (Elected, Defeated), or
	// Undecided when the decision did not change.
	decided spec.Status
	failed  bool   // the step panicked: after is the panic
	note    string // the protocol's note on why (Step.Note), or ""
}

// chartMsg is one message: who sent it at which step, and the step that
// delivers it.
type chartMsg struct {
	from, to int
	label    string
	sent     int // the step (from 0) that sent it, -1 if in the initial state
	recv     int // the step (from 0) that delivers it, -1 if still in flight
	value    spec.Message
}

// chartOf builds the chart model of t. Messages are matched to their
// deliveries by following the channels: a delivery takes the first message
// on its channel equal to the delivered one, the head on a FIFO channel,
// and on a bag channel the earliest sent of the equal ones (which is which
// cannot be told apart, so the earliest is as true as any).
func (t *Trace) chartOf() *chart {
	top := t.Config.Topology
	c := &chart{n: top.N, ids: t.Config.IDs, loopAt: t.LoopAt, breakAt: len(t.Steps) - 1, differs: t.differsAt()}
	if t.Differs != nil {
		c.ref = t.Differs.Ref
	}
	if c.loopAt >= len(t.Steps) {
		c.loopAt = -1
	}
	for i := 0; i < top.N; i++ {
		c.procs = append(c.procs, fmt.Sprintf("p%d", i))
	}
	pending := make([][]int, len(top.Edges))
	add := func(e int, m spec.Message, step int) {
		m.Time = 0
		ed := top.Edges[e]
		c.msgs = append(c.msgs, chartMsg{from: ed.From.Node, to: ed.To.Node, label: t.msg(m), sent: step, recv: -1, value: m})
		pending[e] = append(pending[e], len(c.msgs)-1)
	}
	for e, ch := range t.Initial.Chans {
		for _, m := range ch {
			add(e, m, -1)
		}
	}
	counting := t.Property == invariants.MessageBound
	bound, sent := -1, 0
	if b := t.sys.Info.Bound; counting && b.Max != nil {
		bound = b.Max(top.N)
		c.breakAt = -1
	}
	prev := t.Initial
	for k, st := range t.Steps {
		a := st.Action
		cs := chartStep{proc: a.Proc, wake: a.Kind == spec.Wake, msg: -1, note: st.Note}
		if !cs.wake && a.Edge >= 0 && a.Edge < len(pending) {
			want := a.Msg
			want.Time = 0
			q := pending[a.Edge]
			for j, mi := range q {
				if c.msgs[mi].value == want {
					cs.msg = mi
					c.msgs[mi].recv = k
					pending[a.Edge] = append(q[:j:j], q[j+1:]...)
					break
				}
			}
			if cs.msg < 0 {
				// Not in the channel: cannot happen in a trace that
				// rebuilt, but draw the delivery rather than lose it.
				add(a.Edge, a.Msg, -1)
				cs.msg = len(c.msgs) - 1
				c.msgs[cs.msg].recv = k
				pending[a.Edge] = pending[a.Edge][:len(pending[a.Edge])-1]
			}
		}
		if st.Before != st.After {
			cs.after = st.After
		}
		cs.failed = t.failed(k)
		if !cs.failed && a.Proc < len(st.State.Locals) && a.Proc < len(prev.Locals) {
			before := t.sys.Machine.Decision(prev.Locals[a.Proc]).Status
			if after := t.sys.Machine.Decision(st.State.Locals[a.Proc]).Status; after != before {
				cs.decided = after
			}
		}
		c.steps = append(c.steps, cs)
		for _, s := range st.Sends {
			for e, ed := range top.Edges {
				if ed.From.Node == a.Proc && ed.From.Port == s.Port {
					add(e, s.Msg, k)
				}
			}
		}
		before := sent
		sent += len(st.Sends)
		if bound >= 0 && before <= bound && sent > bound {
			c.breakAt = k
			c.breakNote = fmt.Sprintf("bound crossed: %d messages, more than %s = %d", sent, t.sys.Info.Bound.Formula, bound)
		}
		prev = st.State
	}
	c.caption = t.Property + ": " + t.Detail
	if t.Property == "" {
		// Not a violation (an execution being explored step by step, as
		// the web page does): nothing breaks, and the detail is the caption.
		c.breakAt, c.caption = -1, t.Detail
	}
	return c
}

// inFlight returns the messages still in flight at the end, in the order
// they were sent.
func (c *chart) inFlight() []int {
	var out []int
	for i, m := range c.msgs {
		if m.recv < 0 {
			out = append(out, i)
		}
	}
	return out
}
