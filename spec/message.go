package spec

import "fmt"

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
func (o *Outbox) Reset() { o.sends, o.note = o.sends[:0], "" }

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
