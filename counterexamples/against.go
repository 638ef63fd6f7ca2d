package counterexamples

import (
	"fmt"
	"strings"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
)

// Difference is where a trace and a reference protocol first part ways
// when the reference runs the trace's schedule of events (`-against`).
type Difference struct {
	// Ref is the reference protocol's name, Steps the trace's length.
	Ref   string
	Steps int
	// Step is the first step (from 1) that differs; 0 when none does.
	Step int
	// What is that step ("p2 (id 5) receives probe(4) from p1"); Here and
	// There say what it does in the trace and in the reference, where
	// they differ ("sends probe(4) to p0", "sends nothing").
	What, Here, There string
	// Note is the reference's note on the step, "" if it gave none.
	Note string
}

// String renders the difference in one line, for after the trace.
func (d Difference) String() string {
	if d.Step == 0 {
		return fmt.Sprintf("against %s: no difference over the whole trace (%d steps)", d.Ref, d.Steps)
	}
	s := fmt.Sprintf("against %s: first difference at step %d: %s: %s here, %s in %s", d.Ref, d.Step, d.What, d.Here, d.There, d.Ref)
	if d.Note != "" {
		s += fmt.Sprintf(" (%s: %q)", d.Ref, d.Note)
	}
	return s
}

// Against runs t's schedule of events (wake process i, deliver on channel
// c) with ref in t's configuration, and returns the first step where the
// two differ. The protocols' local states are of different types, so a
// step differs when its event is not enabled in ref, when the messages it
// sends differ (kinds by name, and content), or when the decision it
// leaves the process in (status, leader) differs. ref must run on t's
// topology. The result marks t's renderings when set as t.Differs.
func Against(t *Trace, ref spec.Machine) (d Difference, err error) {
	info := ref.Info()
	d = Difference{Ref: info.Name, Steps: len(t.Steps)}
	if info.Topology != t.sys.Info.Topology {
		return d, fmt.Errorf("%s runs on a %s, but the trace on a %s", info.Name, info.Topology, t.sys.Info.Topology)
	}
	defer func() {
		if r := recover(); r != nil { // an Init that panics
			err = fmt.Errorf("%s cannot start the trace's configuration: %v", info.Name, r)
		}
	}()
	sy := explore.NewSystem(ref, t.Config)
	sy.SetNotes(true)
	s := sy.Initial()
	kinds := t.sys.Info.Messages
	for k, st := range t.Steps {
		a := st.Action
		d.Step, d.What = k+1, t.describe(a)
		b, ok := counterpart(sy, &s, a, kinds)
		if !ok {
			d.Here, d.There = "it runs", "it is not enabled"
			return d, nil
		}
		next, sends, serr := sy.Apply(&s, b)
		d.Note = sy.Note()
		switch failed := t.failed(k); {
		case failed && serr != nil:
			return Difference{Ref: d.Ref, Steps: d.Steps}, nil // both fail, at the trace's end
		case failed:
			d.Here, d.There = "it fails "+st.After, "it runs"
			return d, nil
		case serr != nil:
			d.Here, d.There = "it runs", "it fails ("+serr.Detail+")"
			return d, nil
		}
		var here, there []string
		if h, r := t.sendsText(a.Proc, st.Sends, kinds), t.sendsText(a.Proc, sends, info.Messages); h != r {
			here, there = append(here, "sends "+h), append(there, "sends "+r)
		}
		if h, r := t.sys.Machine.Decision(st.State.Locals[a.Proc]), ref.Decision(next.Locals[a.Proc]); h != r {
			here, there = append(here, "is "+decisionText(h)), append(there, "is "+decisionText(r))
		}
		if len(here) > 0 {
			d.Here, d.There = strings.Join(here, " and "), strings.Join(there, " and ")
			return d, nil
		}
		s = next
	}
	return Difference{Ref: d.Ref, Steps: d.Steps}, nil
}

// counterpart returns the action of sy enabled in s that performs a's
// event: the same process woken, or the same message (kind by name, and
// content) delivered from the same channel; of a step that chooses
// (spec.Outbox.Choose), the alternatives a took if sy's step has them,
// else its first.
func counterpart(sy *explore.System, s *explore.State, a explore.Action, kinds []string) (explore.Action, bool) {
	var found explore.Action
	ok := false
	for _, b := range sy.Enabled(s, nil) {
		if b.Kind == a.Kind && b.Proc == a.Proc && b.Edge == a.Edge &&
			(a.Kind == spec.Wake || b.Msg.Format(sy.Info.Messages) == a.Msg.Format(kinds)) {
			if b.Choice == a.Choice {
				return b, true
			}
			if !ok {
				found, ok = b, true
			}
		}
	}
	return found, ok
}

// decisionText renders a decision: "leader (leader 3)", "lost (leader 3)",
// "undecided".
func decisionText(d spec.Decision) string {
	if d.Leader == spec.None {
		return d.Status.String()
	}
	return fmt.Sprintf("%s (leader %d)", d.Status, d.Leader)
}
