// Package invariants names the properties elcheck checks and decides them
// on single states. It knows nothing of how the search is done: the explorer
// hands it a read-only view of a global state and asks.
package invariants

import (
	"fmt"

	"github.com/elcheck/elcheck/spec"
)

// Kind says over what a property is judged.
type Kind uint8

const (
	// Always: every reachable state.
	Always Kind = iota
	// AtEnd: every terminal state (no event enabled).
	AtEnd
	// Eventually: every execution ends (no cycle in the reachable graph,
	// and every terminal state is clean).
	Eventually
	// Bound: a figure over all executions against a declared limit.
	Bound
	// Structural: a relation between explorations (all initiator sets,
	// symmetric states, relabelled ids).
	Structural
)

// String names the kind.
func (k Kind) String() string {
	return [...]string{"always", "at end", "eventually", "bound", "structural"}[k]
}

// Property names. The strings are what the CLI prints and JSON carries.
const (
	AtMostOneLeader  = "at-most-one-leader"
	Agreement        = "agreement"
	Termination      = "termination"
	ExactlyOneLeader = "exactly-one-leader"
	Validity         = "validity"
	Decentralization = "decentralization"
	Uniformity       = "uniformity"
	ComparisonOnly   = "comparison-only"
	MessageBound     = "message-bound"
	// Deadlock is a terminal state with a process blocked on a send into
	// a full channel (Config.Capacity); other terminal states that are not
	// clean break Termination.
	Deadlock = "deadlock"
	// StepPanicked and StepPurity are breaches of the protocol contract
	// rather than election properties; they are reported like violations.
	StepPanicked = "step-panicked"
	StepPurity   = "step-purity"
)

// Property is a named property with what it is judged over.
type Property struct {
	Name string
	Kind Kind
	Doc  string
}

// All lists the properties in the order reports print them.
var All = []Property{
	{AtMostOneLeader, Always, "no reachable state has two processes in the leader state"},
	{Agreement, Always, "every process that knows a leader knows the same id (and, where the protocol says all learn, every process knows it at the end)"},
	{Termination, Eventually, "no cycle in the reachable graph, and in every terminal state every process has decided and no message is left"},
	{ExactlyOneLeader, AtEnd, "every terminal state has exactly one leader"},
	{Validity, Always, "a leader, and any leader id a process learns, is the id the protocol declares: min or max of all ids or of the initiators'"},
	{Decentralization, Structural, "the properties hold for every non-empty set of initiators"},
	{Uniformity, Structural, "rotating a state commutes with taking its successors"},
	{ComparisonOnly, Structural, "an order-preserving relabelling of the ids gives the same behaviour"},
	{MessageBound, Bound, "the most messages any execution sends is within the declared bound"},
	{Deadlock, AtEnd, "with channels of bounded capacity (-capacity), no terminal state has a process blocked on a send into a full channel; reports list it only for such channels"},
}

// Lookup returns the named property.
func Lookup(name string) (Property, bool) {
	for _, p := range All {
		if p.Name == name {
			return p, true
		}
	}
	return Property{}, false
}

// State is the read-only view of a global state the checks need.
type State struct {
	// Decisions[i] is process i's decision.
	Decisions []spec.Decision
	// InFlight is the number of messages in all channels.
	InFlight int
}

// Violation says which property failed and why, in one line.
type Violation struct {
	Property string
	Detail   string
}

// Error makes a Violation usable as an error.
func (v *Violation) Error() string { return v.Property + ": " + v.Detail }

// Checker decides the state properties of one configuration.
type Checker struct {
	Info   spec.Info
	Config spec.Config
	// Expected is the id that must win in this configuration.
	Expected spec.ID
}

// NewChecker prepares the checks for one configuration.
func NewChecker(info spec.Info, cfg spec.Config) *Checker {
	c := &Checker{}
	c.Reset(info, cfg)
	return c
}

// Reset prepares c for another configuration, as NewChecker does, without
// allocating: the explorer checks thousands of configurations a second.
func (c *Checker) Reset(info spec.Info, cfg spec.Config) {
	*c = Checker{Info: info, Config: cfg, Expected: info.Winner.Expected(cfg.IDs, cfg.Initiators)}
}

// Always checks the properties of every reachable state: at most one
// leader, and it is the expected one (validity is stable: a wrong leader
// stays wrong, so it is caught as soon as it is elected); known leader ids
// agree, and are the expected one.
func (c *Checker) Always(s State) *Violation {
	leaders := 0
	first := -1
	for i, d := range s.Decisions {
		if d.Status == spec.Elected {
			leaders++
			if leaders == 2 {
				return &Violation{AtMostOneLeader, fmt.Sprintf("processes %s and %s are both leaders", c.name(first), c.name(i))}
			}
			first = i
		}
	}
	if first >= 0 && !c.valid(c.Config.IDs[first]) {
		return &Violation{Validity, fmt.Sprintf("%s is leader but the winner must be %s (%s)", c.name(first), c.must(), c.Info.Winner)}
	}
	known, who := spec.None, -1
	for i, d := range s.Decisions {
		if d.Leader == spec.None {
			continue
		}
		if known != spec.None && d.Leader != known {
			return &Violation{Agreement, fmt.Sprintf("%s knows leader %d but %s knows leader %d", c.name(who), known, c.name(i), d.Leader)}
		}
		known, who = d.Leader, i
	}
	if known != spec.None && !c.valid(known) {
		return &Violation{Validity, fmt.Sprintf("%s knows leader %d but the winner must be %s (%s)", c.name(who), known, c.must(), c.Info.Winner)}
	}
	return nil
}

// valid reports whether id may win (spec.Winner.Valid).
func (c *Checker) valid(id spec.ID) bool {
	if c.Expected != spec.None {
		return id == c.Expected
	}
	return c.Info.Winner.Valid(id, c.Config.IDs, c.Config.Initiators)
}

// must says which id must win: the expected one, or "an initiator's id".
func (c *Checker) must() string {
	if c.Expected != spec.None {
		return fmt.Sprint(c.Expected)
	}
	return "an initiator's id"
}

// AtEnd checks a terminal state: clean (termination), exactly one leader,
// known to all where the protocol says so.
func (c *Checker) AtEnd(s State) *Violation {
	for i, d := range s.Decisions {
		if d.Status == spec.Undecided {
			return &Violation{Termination, fmt.Sprintf("no event is enabled but %s has not decided", c.name(i))}
		}
	}
	if s.InFlight > 0 && !c.Info.Leftovers {
		return &Violation{Termination, fmt.Sprintf("every process has decided but %d message(s) are left in the channels", s.InFlight)}
	}
	leader := -1
	for i, d := range s.Decisions {
		if d.Status == spec.Elected {
			leader = i
		}
	}
	if leader < 0 {
		return &Violation{ExactlyOneLeader, "the run ended with no leader"}
	}
	// Validity was checked as the leader was elected (Always).
	if c.Info.AllLearn {
		want := c.Config.IDs[leader]
		for i, d := range s.Decisions {
			if d.Leader != want {
				return &Violation{Agreement, fmt.Sprintf("the run ended and %s does not know the leader is %d", c.name(i), want)}
			}
		}
	}
	return nil
}

func (c *Checker) name(i int) string { return fmt.Sprintf("p%d (id %d)", i, c.Config.IDs[i]) }

// CheckBound decides the message bound: nil if info declares no bound or
// the most messages any execution on network top sends, most, is within
// it (spec.Bound.On); otherwise the message-bound violation. Every engine (breadth-first,
// collapsed, cached) and the bounds report decide it here, so that they
// agree on the comparison and on the words.
func CheckBound(info spec.Info, top *spec.Topology, most int) *Violation {
	b := info.Bound
	if b.Max == nil || most <= b.On(top) {
		return nil
	}
	on := ""
	if b.Of != nil {
		on = fmt.Sprintf(" on the %v (%s)", top.Kind, top.Label)
	}
	return &Violation{MessageBound, fmt.Sprintf("an execution sends %d messages, more than the declared bound %s = %d%s", most, b.Formula, b.On(top), on)}
}
