package spec

import (
	"encoding/binary"
	"fmt"
)

// Status is what a process has decided about itself.
type Status uint8

const (
	// Undecided: sleeping, candidate, active, passive, relaying...
	Undecided Status = iota
	// Elected: the process is the leader.
	Elected
	// Defeated: the process knows it is not the leader.
	Defeated
)

// String returns "undecided", "leader" or "lost".
func (s Status) String() string {
	switch s {
	case Elected:
		return "leader"
	case Defeated:
		return "lost"
	}
	return "undecided"
}

// Decision is the part of a local state the properties read: whether the
// process has decided, and which identity it believes is the leader (None
// if it has not learnt it).
type Decision struct {
	Status Status
	Leader ID
}

// Local is a protocol's local state. It is a value: a step receives one and
// returns another, and must not mutate what it received.
type Local interface {
	// Decision reports the process's decision and the leader it knows of.
	Decision() Decision
	// Encode appends the canonical encoding of the state: two states that
	// behave alike must encode alike (sort unordered collections).
	Encode(e *Encoder)
	// String renders the state for a person reading a trace.
	String() string
}

// Env is what a process knows of its surroundings when it starts.
type Env struct {
	// ID is the process's own identity.
	ID ID
	// Ports is the number of the process's ports.
	Ports int
	// N is the number of processes; zero unless the protocol declares
	// Info.KnowsN.
	N int
}

// Protocol is the contract a leader-election algorithm implements. All of
// its methods are pure: same input, same output, no I/O, no clocks, no
// randomness, no package-level state. The explorer checks this on a spaced
// schedule by re-running steps, and calls them from several goroutines at
// once.
type Protocol[S Local] interface {
	// Info describes the protocol.
	Info() Info
	// Init returns the initial local state of a process.
	Init(env Env) S
	// Step applies one event to s, queues what the process sends on out,
	// and returns the new local state.
	Step(s S, ev Event, out *Outbox) S
	// Decode reads a state written by S.Encode.
	Decode(d *Decoder) S
}

// Winner says which identity a correct run must elect.
type Winner uint8

const (
	// MinAll: the smallest identity of all processes.
	MinAll Winner = iota
	// MaxAll: the largest identity of all processes.
	MaxAll
	// MinInitiators: the smallest identity among the initiators.
	MinInitiators
	// MaxInitiators: the largest identity among the initiators.
	MaxInitiators
)

// String names the rule as docs and `elcheck list` print it.
func (w Winner) String() string {
	return [...]string{"min of all ids", "max of all ids", "min of initiators' ids", "max of initiators' ids"}[w]
}

// Expected returns the identity that must win given the id placement and
// the initiator set.
func (w Winner) Expected(ids []ID, initiators Set) ID {
	best := None
	for i, id := range ids {
		if (w == MinInitiators || w == MaxInitiators) && !initiators.Has(i) {
			continue
		}
		switch {
		case best == None:
			best = id
		case (w == MinAll || w == MinInitiators) && id < best:
			best = id
		case (w == MaxAll || w == MaxInitiators) && id > best:
			best = id
		}
	}
	return best
}

// Bound is a message-complexity bound from the literature: Formula as the
// source writes it, Max as a function of n.
type Bound struct {
	Formula string
	Max     func(n int) int
}

// Info describes a protocol or one of its variants.
type Info struct {
	// Name is the registry key, e.g. "dkr" or "cr-flip".
	Name string
	// Title is a one-line description.
	Title string
	// Source names the algorithm's original and the presentation the variant
	// follows, with the part of it, and ends with their anchors in
	// docs/references.md: "...; docs/references.md#cr79, #slides-leader".
	Source string
	// Topology is the topology family the protocol runs on.
	Topology TopologyKind
	// Winner is the identity a correct run elects.
	Winner Winner
	// AllLearn is true when every process must end knowing the leader's id.
	AllLearn bool
	// Messages names the message kinds, indexed by Kind.
	Messages []string
	// Bound is the declared message bound; Bound.Max nil means none.
	Bound Bound
	// Leftovers allows messages to remain in channels in final states.
	Leftovers bool
	// Channels is the channel semantics the variant is checked under by
	// default.
	Channels Channels
	// KnowsN declares that processes are told n (Env.N).
	KnowsN bool
	// Bug describes the mistake of a buggy variant; empty for a correct one.
	Bug string
	// Breaks is the property a buggy variant is expected to violate.
	Breaks string
}

// Erase turns a typed protocol into a Machine over encoded local states.
func Erase[S Local](p Protocol[S]) Machine { return erased[S]{p} }

// Machine is a protocol with its local states kept as canonical bytes, the
// form the explorer stores, hashes and compares. Each encoding starts with
// the process's Decision, so properties read it without decoding.
type Machine interface {
	Info() Info
	// Init returns the encoded initial state.
	Init(env Env) []byte
	// Step decodes local, applies ev, and appends the new encoded state to
	// dst, which the explorer reuses so that a step allocates little. dst
	// must not overlap local.
	Step(dst, local []byte, ev Event, out *Outbox) []byte
	// Decision reads the decision prefix of an encoded state.
	Decision(local []byte) Decision
	// Format renders an encoded state for a person.
	Format(local []byte) string
}

type erased[S Local] struct{ p Protocol[S] }

func (m erased[S]) Info() Info { return m.p.Info() }

func (m erased[S]) Init(env Env) []byte { return appendLocal(nil, m.p.Init(env)) }

func (m erased[S]) Step(dst, local []byte, ev Event, out *Outbox) []byte {
	return appendLocal(dst, m.p.Step(m.decode(local), ev, out))
}

func (m erased[S]) Decision(local []byte) Decision {
	// Read the prefix in place: properties ask for every process's
	// decision in every state, and a Decoder would be allocated.
	st, k := binary.Uvarint(local)
	if k <= 0 {
		panic(fmt.Sprintf("%s: decoding a decision: %v", m.p.Info().Name, ErrCorrupt))
	}
	leader, j := binary.Varint(local[k:])
	if j <= 0 {
		panic(fmt.Sprintf("%s: decoding a decision: %v", m.p.Info().Name, ErrCorrupt))
	}
	return Decision{Status: Status(st), Leader: ID(leader)}
}

func (m erased[S]) Format(local []byte) string { return m.decode(local).String() }

func (m erased[S]) decode(local []byte) S {
	d := NewDecoder(local)
	d.Uint()
	d.ID()
	s := m.p.Decode(d)
	if err := d.Err(); err != nil {
		panic(fmt.Sprintf("%s: decoding a local state: %v", m.p.Info().Name, err))
	}
	return s
}

func appendLocal(dst []byte, s Local) []byte {
	e := Encoder{buf: dst}
	dec := s.Decision()
	e.Uint(uint64(dec.Status))
	e.ID(dec.Leader)
	s.Encode(&e)
	return e.Bytes()
}
