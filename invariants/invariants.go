// Package invariants names the properties elcheck checks and decides them
// on single states. It knows nothing of how the search is done: the explorer
// hands it a read-only view of a global state and asks.
package invariants

import (
	"cmp"
	"fmt"
	"slices"

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
	// Contract: a breach of the protocol's contract (a step that panics or
	// is not a function of its input) rather than an election property:
	// reported like a violation, never listed among the properties.
	Contract
)

// String names the kind.
func (k Kind) String() string {
	return [...]string{"always", "at end", "eventually", "bound", "structural", "contract"}[k]
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

// Property is a named property: what it is judged over, how a single
// state breaks it (its clauses), and how a replayed trace confirms a
// violation of it. What the engine decides (cycles, the message bound,
// the self-checks of steps, deadlock) is no clause: the engine reports
// those violations, and Confirm says how a trace shows them again.
type Property struct {
	Name string
	Kind Kind
	Doc  string
	// Always are the property's clauses on every reachable state, AtEnd
	// its clauses on a terminal state (Checker.Always, Checker.AtEnd).
	Always, AtEnd []Clause
	// Confirm is how a replay of a trace confirms a violation
	// (counterexamples.Replay); ByState, the zero value, judges the
	// trace's last state with the clauses.
	Confirm Confirm
	// Blocking: only a send that blocks can break it, so reports list it
	// only for channels of bounded capacity (Listed).
	Blocking bool
}

// Clause is one check of a state property on a single state.
type Clause struct {
	// Rank places the clause among the clauses of its phase (every
	// state, or the end), which the checker runs in rising rank and stops
	// at the first broken: the rank decides which property a state that
	// breaks two reports, and a clause may assume those of lower rank
	// hold.
	Rank int
	// If, when set, says whether the clause applies to the checker's
	// protocol (nil: it always does).
	If func(c *Checker) bool
	// Breach says why s breaks the clause, "" if it does not.
	Breach func(c *Checker, s State) string
}

// Confirm is how a replayed trace confirms a violation of a property.
type Confirm uint8

// The ways a trace confirms a violation.
const (
	// ByState: the trace's last state breaks a clause of the property: of
	// every state, or, where no event is enabled, of a terminal state
	// (after those of every state, as the search checks them).
	ByState Confirm = iota
	// ByCycle: the trace's loop returns to the state it left, so the
	// execution can repeat it forever; a trace without a loop, ByState.
	ByCycle
	// ByLastStep: the trace's last step breaks the contract again (it
	// panics, or is not a function of its input); a finding with no step
	// relates two runs of the search, which a trace cannot re-check.
	ByLastStep
	// ByMessages: the trace ends in a terminal state having sent more
	// messages than the declared bound.
	ByMessages
	// ByRelabelling: the trace's last step, or with no step its initial
	// states, does not commute with the relabellings of its ids; a
	// finding made otherwise relates several executions.
	ByRelabelling
	// ByDeadlock: the trace ends with a process blocked on a send and no
	// event enabled.
	ByDeadlock
	// NotByTrace: the property relates several executions; a trace
	// cannot re-check it.
	NotByTrace
)

// All lists the properties, in the order reports print those Listed, with
// their clauses and confirmations: the search's checks of a state, the
// web page's judgement and the replay of a trace all read this table.
var All = []Property{
	{Name: AtMostOneLeader, Kind: Always, Doc: "no reachable state has two processes in the leader state",
		Always: []Clause{{Rank: 1, Breach: (*Checker).twoLeaders}}},
	{Name: Agreement, Kind: Always, Doc: "every process that knows a leader knows the same id (and, where the protocol says all learn, every process knows it at the end)",
		Always: []Clause{{Rank: 3, Breach: (*Checker).disagree}},
		AtEnd:  []Clause{{Rank: 3, If: allLearn, Breach: (*Checker).unlearned}}},
	{Name: Termination, Kind: Eventually, Doc: "no cycle in the reachable graph, and in every terminal state every process has decided and no message is left",
		AtEnd: []Clause{{Rank: 1, Breach: (*Checker).unclean}}, Confirm: ByCycle},
	{Name: ExactlyOneLeader, Kind: AtEnd, Doc: "every terminal state has exactly one leader",
		AtEnd: []Clause{{Rank: 2, Breach: (*Checker).noLeader}}},
	// Validity is stable (a wrong leader stays wrong), so it is caught as
	// soon as the leader is elected or its id learnt.
	{Name: Validity, Kind: Always, Doc: "a leader, and any leader id a process learns, is the id the protocol declares: min or max of all ids or of the initiators'",
		Always: []Clause{{Rank: 2, Breach: (*Checker).wrongLeader}, {Rank: 4, Breach: (*Checker).wrongKnown}}},
	{Name: Decentralization, Kind: Structural, Doc: "the properties hold for every non-empty set of initiators"},
	{Name: Uniformity, Kind: Structural, Doc: "rotating a state commutes with taking its successors", Confirm: NotByTrace},
	{Name: ComparisonOnly, Kind: Structural, Doc: "an order-preserving relabelling of the ids gives the same behaviour", Confirm: ByRelabelling},
	{Name: MessageBound, Kind: Bound, Doc: "the most messages any execution sends is within the declared bound", Confirm: ByMessages},
	{Name: Deadlock, Kind: AtEnd, Doc: "with channels of bounded capacity (-capacity), no terminal state has a process blocked on a send into a full channel; reports list it only for such channels",
		Confirm: ByDeadlock, Blocking: true},
	{Name: StepPanicked, Kind: Contract, Doc: "no step of the protocol panics", Confirm: ByLastStep},
	{Name: StepPurity, Kind: Contract, Doc: "every step of the protocol is a function of its input: the same local state and event give the same result", Confirm: ByLastStep},
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

// Always runs the clauses of every reachable state (Property.Always) in
// rank order and returns the first broken.
func (c *Checker) Always(s State) *Violation { return c.run(everyState, s) }

// AtEnd runs the clauses of a terminal state (Property.AtEnd) in rank
// order and returns the first broken; the search runs it on a state that
// passed Always.
func (c *Checker) AtEnd(s State) *Violation { return c.run(atEnd, s) }

// run runs checks on s, stopping at the first broken.
func (c *Checker) run(checks []check, s State) *Violation {
	for i := range checks {
		k := &checks[i]
		if k.If != nil && !k.If(c) {
			continue
		}
		if d := k.Breach(c, s); d != "" {
			return &Violation{k.property, d}
		}
	}
	return nil
}

// check is a clause with the property it belongs to.
type check struct {
	property string
	Clause
}

// everyState and atEnd are All's clauses of each phase in rank order (ties
// in table order), computed once from All and never written: the
// checker's hot path reads them without sorting.
var everyState, atEnd = ordered(func(p Property) []Clause { return p.Always }), ordered(func(p Property) []Clause { return p.AtEnd })

func ordered(of func(Property) []Clause) []check {
	var out []check
	for _, p := range All {
		for _, cl := range of(p) {
			out = append(out, check{p.Name, cl})
		}
	}
	slices.SortStableFunc(out, func(a, b check) int { return cmp.Compare(a.Rank, b.Rank) })
	return out
}

// judgedAtEnd reports whether a clause of p at the end applies to c's
// protocol.
func (p Property) judgedAtEnd(c *Checker) bool {
	return slices.ContainsFunc(p.AtEnd, func(cl Clause) bool { return cl.If == nil || cl.If(c) })
}

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
