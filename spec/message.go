package spec

import (
	"fmt"
	"slices"
)

// ID is a process identity. Identities are unique and totally ordered; unless
// a protocol declares otherwise, the only operation it may apply to them is
// comparison (the lecture notes "Election algorithms", "Assumptions";
// docs/references.md#notes-election).
type ID int32

// None is the zero ID: "no identity" (undef in the sources' pseudo-code).
const None ID = 0

// MinID and MaxID bound the identities a configuration may give its
// processes: positive, and within ID's 32 bits. The checker's own
// arithmetic on ids (the comparison-only relabellings) stays in this range.
const (
	MinID ID = 1
	MaxID ID = 1<<31 - 1
)

// CheckIDs reports the first of ids, a placement, that is out of range
// (MinID to MaxID) or repeated. It takes any integers, so that a caller
// checks values that do not fit an ID before converting them.
func CheckIDs[T ~int | ~int32 | ~int64](ids []T) error {
	for k, id := range ids {
		if int64(id) < int64(MinID) || int64(id) > int64(MaxID) {
			return fmt.Errorf("id %d is out of range: ids are %d to %d", id, MinID, MaxID)
		}
		if slices.Contains(ids[:k], id) {
			return fmt.Errorf("id %d is repeated: ids must be distinct", id)
		}
	}
	return nil
}

// Port is a process-local port number. What a port leads to is the
// topology's business: on a unidirectional ring, port 0 is the only port, and
// a process sends to its successor and receives from its predecessor on it.
type Port uint8

// Kind is a message kind, an index into the protocol's Info.Messages.
type Kind uint8

// Message is what travels on a channel: a kind, at most one identity (the
// lecture notes allow a constant number of identities per message; every protocol
// here needs one) and two small non-identity arguments (a phase, a hop
// count, a level). Messages are plain values so channels can be encoded
// canonically and compared without reflection.
type Message struct {
	Kind Kind
	ID   ID
	Arg  [2]int32
	// Time is the message's causal timestamp, kept by the explorer when it
	// measures time (the length of the longest causal chain). Protocols
	// neither set nor read it: it is zero in every event they receive and
	// overwritten on every message they send.
	Time int32
}

// Compare orders messages canonically (kind, id, arguments). Unordered
// channels keep their contents sorted by it so equal multisets encode alike.
func (m Message) Compare(o Message) int {
	switch {
	case m.Kind != o.Kind:
		return cmpInt(int(m.Kind), int(o.Kind))
	case m.ID != o.ID:
		return cmpInt(int(m.ID), int(o.ID))
	case m.Arg[0] != o.Arg[0]:
		return cmpInt(int(m.Arg[0]), int(o.Arg[0]))
	case m.Arg[1] != o.Arg[1]:
		return cmpInt(int(m.Arg[1]), int(o.Arg[1]))
	default:
		return cmpInt(int(m.Time), int(o.Time))
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Format renders m with the protocol's kind names, for traces:
// "one(3)", "probe(5)", "from(4,0,2)".
func (m Message) Format(kinds []string) string {
	name := fmt.Sprintf("kind%d", m.Kind)
	if int(m.Kind) < len(kinds) {
		name = kinds[m.Kind]
	}
	switch {
	case m.Arg != [2]int32{}:
		return fmt.Sprintf("%s(%d,%d,%d)", name, m.ID, m.Arg[0], m.Arg[1])
	case m.ID != None:
		return fmt.Sprintf("%s(%d)", name, m.ID)
	}
	return name
}

// EventKind says what happens to a process in one step.
type EventKind uint8

const (
	// Wake is an initiator's spontaneous start. It is an initiator's first
	// event: messages wait in its channels until it has woken.
	Wake EventKind = iota
	// Deliver hands the process one message from one of its in-ports.
	Deliver
)

// String returns "wake" or "deliver".
func (k EventKind) String() string {
	if k == Wake {
		return "wake"
	}
	return "deliver"
}

// Event is the input of one step. Port and Msg are set for Deliver only.
type Event struct {
	Kind EventKind
	Port Port
	Msg  Message
}

// Send is one message a step emits on one of the process's out-ports.
type Send struct {
	Port Port
	Msg  Message
}

// Outbox collects the messages a step sends, in order, and, when the
// explorer asks for them, the step's notes. The explorer owns it and
// resets it between steps, so a step allocates nothing to send.
type Outbox struct {
	sends []Send
	// script holds the alternatives this run of the step takes at its
	// choice points, in order; arity records how many each offered (see
	// Choose). Both belong to the explorer.
	script []uint8
	arity  []uint8
	// noting turns notes on: only while a counterexample is rebuilt or
	// replayed, never during the search.
	noting bool
	note   string
}

// Send queues m on port p. On FIFO channels, messages sent on the same port
// in one step arrive in the order they were queued.
func (o *Outbox) Send(p Port, m Message) { o.sends = append(o.sends, Send{p, m}) }

// Sends returns the queued messages. The slice is valid until Reset.
func (o *Outbox) Sends() []Send { return o.sends }

// Reset empties the outbox, keeping its storage.
func (o *Outbox) Reset() { o.sends, o.note, o.arity = o.sends[:0], "", o.arity[:0] }

// MaxChoices and MaxAlternatives bound a step's nondeterminism: at most
// MaxChoices calls to Choose in one step, each among at most
// MaxAlternatives alternatives. A step that goes beyond panics, which the
// explorer reports as a finding of the step.
const (
	MaxChoices      = 4
	MaxAlternatives = 254
)

// Choose returns one of 0, 1, ..., n-1: a nondeterministic choice, where the
// pseudo-code says "choose l in untraversed". The explorer runs the step
// once for each alternative and explores every outcome, so a protocol must
// not pick by a rule of its own (the first port, the lowest id) unless the
// variant means that rule. The choice is part of the event a trace records
// and replays. Choose(1) returns 0 and makes no branch. n must be at least 1.
//
// A step may choose several times (see MaxChoices); later choices may
// depend on earlier ones. Like the rest of the step, a choice is a function
// of the step's input: the explorer, not the protocol, decides which
// alternative a run takes.
func (o *Outbox) Choose(n int) int {
	if n < 1 || n > MaxAlternatives {
		panic(fmt.Sprintf("spec.Outbox.Choose(%d): the number of alternatives must be in 1..%d", n, MaxAlternatives))
	}
	k := len(o.arity)
	if k >= MaxChoices {
		panic(fmt.Sprintf("spec.Outbox.Choose: more than %d choices in one step", MaxChoices))
	}
	o.arity = append(o.arity, uint8(n))
	if k < len(o.script) {
		if c := int(o.script[k]); c < n {
			return c
		}
		// A script from another run of the step (a trace replayed against
		// a changed protocol) may name an alternative that is not there;
		// the caller sees it in Arity and Choice and reports it.
		return n - 1
	}
	return 0
}

// Choice is the packed sequence of alternatives one run of a step took, one
// byte per choice point: alternative c is stored as c+1, the first choice
// in the lowest byte, so 0 means "no choice".
type Choice uint32

// Alternatives unpacks c into the alternatives taken, in order.
func (c Choice) Alternatives() []int {
	var alts []int
	for ; c != 0; c >>= 8 {
		alts = append(alts, int(c&0xff)-1)
	}
	return alts
}

// String renders c as "2" or "2.0.1" (the alternatives taken), or "" for no
// choice.
func (c Choice) String() string {
	var b []byte
	for i, a := range c.Alternatives() {
		if i > 0 {
			b = append(b, '.')
		}
		b = fmt.Appendf(b, "%d", a)
	}
	return string(b)
}

// PackChoice packs alternatives into a Choice; it returns false if there
// are more than MaxChoices or one is out of 0..MaxAlternatives-1.
func PackChoice(alts []int) (Choice, bool) {
	if len(alts) > MaxChoices {
		return 0, false
	}
	var c Choice
	for i, a := range alts {
		if a < 0 || a >= MaxAlternatives {
			return 0, false
		}
		c |= Choice(a+1) << (8 * i)
	}
	return c, true
}

// SetChoice makes the following runs of a step take the alternatives c
// holds, and 0 at any choice point beyond them. The explorer calls it.
func (o *Outbox) SetChoice(c Choice) {
	o.script = o.script[:0]
	for ; c != 0; c >>= 8 {
		o.script = append(o.script, uint8(c&0xff)-1)
	}
}

// Arity returns how many alternatives each choice point of the last run
// offered, in order (empty for a step that did not choose). Valid until
// Reset.
func (o *Outbox) Arity() []uint8 { return o.arity }

// Taken returns the Choice the last run took: the script where it reached,
// and 0 at the points beyond it.
func (o *Outbox) Taken() Choice {
	var c Choice
	for i, n := range o.arity {
		a := 0
		if i < len(o.script) {
			a = min(int(o.script[i]), int(n)-1)
		}
		c |= Choice(a+1) << (8 * i)
	}
	return c
}

// NextChoice returns the choice after the last run's in the order that
// enumerates every branch of a step (the odometer over the arities the run
// recorded, last choice point fastest), and false after the last branch.
// Later choice points may have other arities on another branch: each run
// records its own, and the enumeration follows them.
func (o *Outbox) NextChoice() (Choice, bool) {
	alts := o.Taken().Alternatives()
	for i := len(alts) - 1; i >= 0; i-- {
		if alts[i]+1 < int(o.arity[i]) {
			alts[i]++
			c, _ := PackChoice(alts[:i+1])
			return c, true
		}
	}
	return 0, false
}

// Noting reports whether the step's notes are kept. They are only while a
// counterexample is rebuilt or replayed; the search runs with notes off.
// Guard every note with it,
//
//	if out.Noting() {
//		out.Note("discard probe(%d): %d > %d", k, s.ID, k)
//	}
//
// because building Note's arguments (boxing them into ...any) costs an
// allocation even when Note would drop them: the guard makes a note free
// during the search.
func (o *Outbox) Noting() bool { return o.noting }

// Note records why the step did what it did, in a few words (the rule that
// fired, with the values it compared), formatted as by fmt.Sprintf, when
// Noting is on; several notes of one step are joined by "; ". A note is
// not part of the state: it is never encoded, hashed or compared, so it
// cannot make two states differ or a step impure.
func (o *Outbox) Note(format string, args ...any) {
	if !o.noting {
		return
	}
	n := fmt.Sprintf(format, args...)
	if o.note != "" {
		n = o.note + "; " + n
	}
	o.note = n
}

// SetNoting turns notes on or off, for the steps that follow.
func (o *Outbox) SetNoting(on bool) { o.noting = on }

// Noted returns the notes of the step since Reset, or "".
func (o *Outbox) Noted() string { return o.note }
