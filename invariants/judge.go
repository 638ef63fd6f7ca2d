package invariants

import "fmt"

// Status is a property's status in one state of one execution (Judge).
type Status string

// The statuses of a property in one state.
const (
	StatusHolds    Status = "holds"
	StatusViolated Status = "violated"
	// StatusPending: judged at the end of an execution, which this state
	// is not (some event is enabled).
	StatusPending Status = "pending"
	// StatusUnknown: not judged, as the search stops at the first
	// violation it finds in a state.
	StatusUnknown Status = "unknown"
	// StatusNA: relates several executions, or nothing is declared to
	// judge it by.
	StatusNA Status = "n/a"
)

// notJudged is the detail of a property the checker did not reach.
const notJudged = "not judged: the checker stops at the first violation"

// Judgement is one property's status in one state, with the checker's
// words.
type Judgement struct {
	Property Property
	Status   Status
	Detail   string
}

// Listed reports whether reports list p for channels of capacity
// capacity (0: unbounded): a breach of the contract is reported as the
// violation it is, never listed; a Blocking property needs a send that
// blocks.
func (p Property) Listed(capacity int) bool {
	return p.Kind != Contract && (!p.Blocking || capacity > 0)
}

// Judge gives every property listed for c's configuration its status in
// one state s of one execution, which has sent messages messages so far.
// The checks are the search's, in its order, stopping at the first
// violation as it does: the properties of every state (Always); if the
// state is final (end: no event enabled), the deadlock deadlock describes
// ("" if none), then the properties of a final state (AtEnd). A property
// of a final state is pending in a state that is not final, and unknown
// when an earlier check stopped the judgement; one of every state holds
// when Always passed, but one with a clause at the end that applies
// (agreement, where every process must learn the leader) is unknown if a
// check of the end stopped the judgement. The message bound is CheckBound's on the messages
// sent so far: exceeded, it is violated in any state; otherwise it holds
// at the end, and is pending before.
func (c *Checker) Judge(s State, end bool, deadlock string, messages int) []Judgement {
	found, atEnd := c.Always(s), false
	if found == nil && end {
		if deadlock != "" {
			found = &Violation{Deadlock, deadlock}
		} else {
			found = c.AtEnd(s)
		}
		atEnd = found != nil
	}
	var out []Judgement
	for _, p := range All {
		if !p.Listed(c.Config.Capacity) {
			continue
		}
		j := Judgement{Property: p, Status: StatusHolds}
		switch {
		case found != nil && found.Property == p.Name:
			j.Status, j.Detail = StatusViolated, found.Detail
		case p.Kind == Structural:
			j.Status, j.Detail = StatusNA, "relates several executions: elcheck verify checks it"
		case p.Kind == Bound:
			j.Status, j.Detail = c.judgeBound(end, messages)
		case p.Kind == Always:
			// Stopped by Always itself, or, for a clause at the end, by a
			// check of the end.
			if found != nil && (!atEnd || p.judgedAtEnd(c)) {
				j.Status, j.Detail = StatusUnknown, notJudged
			}
		case !end:
			j.Status, j.Detail = StatusPending, "judged when no event is enabled"
		case found != nil:
			j.Status, j.Detail = StatusUnknown, notJudged
		}
		out = append(out, j)
	}
	return out
}

// judgeBound is the message bound's status in a state of an execution
// that has sent messages messages.
func (c *Checker) judgeBound(end bool, messages int) (Status, string) {
	b, top := c.Info.Bound, &c.Config.Topology
	if b.Max == nil {
		return StatusNA, fmt.Sprintf("%d messages sent so far; no bound declared", messages)
	}
	if v := CheckBound(c.Info, top, messages); v != nil {
		return StatusViolated, v.Detail
	}
	bound := fmt.Sprintf("the declared bound is %s = %d", b.Formula, b.On(top))
	if end {
		return StatusHolds, fmt.Sprintf("the execution sent %d messages; %s", messages, bound)
	}
	return StatusPending, fmt.Sprintf("%d messages sent so far; %s", messages, bound)
}
