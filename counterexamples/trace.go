// Package counterexamples rebuilds, renders and replays the traces of
// violations: a person reads them as text, a program as JSON, and
// `elcheck replay` re-executes the JSON against the protocol.
package counterexamples

import (
	"fmt"
	"strings"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Step is one step of a rebuilt trace with what a person needs to follow
// it: the event, the local state before and after, the messages sent, the
// protocol's note on why (spec.Outbox.Note, "" if none), and the global
// state after.
type Step struct {
	Action explore.Action
	Before string
	After  string
	Sends  []spec.Send
	Note   string
	State  explore.State
}

// Trace is a violation re-executed step by step from its initial state.
type Trace struct {
	Algo     string
	Property string
	Detail   string
	// Worst marks a message-bound trace that is the execution with the
	// most messages, within the bound, not a violation (File.Worst).
	Worst  bool
	Config spec.Config
	// LoopAt is the number of steps after which the final state was first
	// reached (a cycle), or -1.
	LoopAt  int
	Initial explore.State
	Steps   []Step
	// Differs, if set, is where a reference protocol first parts ways with
	// the trace (Against): the renderings mark that step.
	Differs *Difference
	sys     *explore.System
}

// Rebuild re-executes v's actions with m and records every state and the
// protocol's notes (the search ran without them). It
// fails if an action is not enabled where the trace says it is taken, or a
// step other than a step-panicked trace's last fails: with a *Diverged
// error, which holds the trace up to that step.
func Rebuild(m spec.Machine, v *explore.Violation) (*Trace, error) {
	sy := explore.NewSystem(m, v.Config)
	sy.SetNotes(true)
	t := &Trace{Algo: m.Info().Name, Property: v.Property, Detail: v.Detail, Config: v.Config, LoopAt: v.LoopAt, sys: sy}
	t.Initial = sy.Initial()
	s := t.Initial
	for k, a := range v.Trace {
		if !enabled(sy, &s, a) {
			return nil, &Diverged{Step: k + 1, Why: fmt.Sprintf("step %d (%s) is not enabled", k+1, t.describe(a)), Partial: t}
		}
		before := m.Format(s.Locals[a.Proc])
		next, sends, err := sy.Apply(&s, a)
		st := Step{Action: a, Before: before, Sends: sends, Note: sy.Note()}
		if err != nil {
			st.After = "(" + err.Detail + ")"
			st.State = s
			t.Steps = append(t.Steps, st)
			// The last step of a step-panicked trace fails by design.
			if k != len(v.Trace)-1 {
				return nil, &Diverged{Step: k + 1, Why: fmt.Sprintf("step %d: %v", k+1, err), Partial: t}
			}
			break
		}
		st.After = m.Format(next.Locals[a.Proc])
		st.State = next
		t.Steps = append(t.Steps, st)
		s = next
	}
	return t, nil
}

// Diverged is Rebuild's error when a trace does not run as recorded. For a
// trace the search itself has just found, that means the protocol's steps
// are not functions of their input: PurityFinding turns it into that
// finding.
type Diverged struct {
	Step    int    // the step that did not run, from 1
	Why     string // what went wrong, in one line
	Partial *Trace // the steps up to and including Step, where it ran
}

func (d *Diverged) Error() string { return d.Why }

// PurityFinding returns the partial trace as a step-purity violation that
// says which finding did not replay, and why.
func (d *Diverged) PurityFinding() *Trace {
	t := *d.Partial
	t.Detail = fmt.Sprintf("the %s counterexample the search found (%s) does not run again as recorded: %s; the protocol's steps are not functions of their input (hidden state such as a package-level variable or cache, map order, time or randomness)",
		t.Property, t.Detail, d.Why)
	t.Property, t.LoopAt = invariants.StepPurity, -1
	return &t
}

func enabled(sy *explore.System, s *explore.State, a explore.Action) bool {
	for _, b := range sy.Enabled(s, nil) {
		if b == a {
			return true
		}
	}
	return false
}

// Final returns the state the trace ends in.
func (t *Trace) Final() explore.State {
	if len(t.Steps) == 0 {
		return t.Initial
	}
	return t.Steps[len(t.Steps)-1].State
}

// failed reports whether step k (from 0) is the failing last step of a
// step-panicked or step-purity trace: its After is the failure.
func (t *Trace) failed(k int) bool {
	return k == len(t.Steps)-1 && strings.HasPrefix(t.Steps[k].After, "(") &&
		(t.Property == invariants.StepPanicked || t.Property == invariants.StepPurity)
}

// differsAt returns the step (from 0) Differs marks, or -1.
func (t *Trace) differsAt() int {
	if t.Differs == nil {
		return -1
	}
	return t.Differs.Step - 1
}

// System returns the transition system the trace runs in.
func (t *Trace) System() *explore.System { return t.sys }

func (t *Trace) proc(i int) string { return fmt.Sprintf("p%d (id %d)", i, t.Config.IDs[i]) }

func (t *Trace) msg(m spec.Message) string { return m.Format(t.sys.Info.Messages) }

// Describe labels action a as the text trace does: "p2 (id 5) wakes up",
// "p3 (id 2) receives probe(5) from p2".
func (t *Trace) Describe(a explore.Action) string { return t.describe(a) }

func (t *Trace) describe(a explore.Action) string {
	choice := ""
	if a.Choice != 0 {
		// The alternatives the step took where the protocol chose
		// (spec.Outbox.Choose); its note says what they meant.
		choice = ", choosing " + a.Choice.String()
	}
	if a.Kind == spec.Wake {
		return t.proc(a.Proc) + " wakes up" + choice
	}
	from := t.Config.Topology.Edges[a.Edge].From.Node
	return fmt.Sprintf("%s receives %s from p%d%s", t.proc(a.Proc), t.msg(a.Msg), from, choice)
}
