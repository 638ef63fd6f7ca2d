package spec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
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
//
// A local state also has a canonical encoding: two states that behave alike
// must encode alike (sort unordered collections). It is written in one of
// two ways, which spec.Erase tells apart when it is called:
//
//   - Fields on the state's pointer (Fielder), which lists the fields once
//     for encoding and decoding alike; preferred, since the two directions
//     cannot disagree;
//   - or, the older form, Encode(e *Encoder) on the state with a
//     Decode(d *Decoder) S method on the protocol that reads it back.
type Local interface {
	// Decision reports the process's decision and the leader it knows of.
	Decision() Decision
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
	// AnyInitiator: any initiator's identity, the one the run elects
	// (Afek-Gafni: the largest (level, id) wins, and levels depend on the
	// schedule); validity then asks that the leader be an initiator.
	AnyInitiator
)

// String names the rule as docs and `elcheck list` print it.
func (w Winner) String() string {
	return [...]string{"min of all ids", "max of all ids", "min of initiators' ids", "max of initiators' ids", "any initiator's id"}[w]
}

// Expected returns the identity that must win given the id placement and
// the initiator set; None for AnyInitiator, where any may (Valid).
func (w Winner) Expected(ids []ID, initiators Set) ID {
	if w == AnyInitiator {
		return None
	}
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

// Valid reports whether id may win given the id placement and the
// initiator set: it is Expected's, or with AnyInitiator an initiator's.
func (w Winner) Valid(id ID, ids []ID, initiators Set) bool {
	if w != AnyInitiator {
		return id == w.Expected(ids, initiators)
	}
	for i, x := range ids {
		if x == id && initiators.Has(i) {
			return true
		}
	}
	return false
}

// Bound is a message-complexity bound from the literature: Formula as the
// source writes it, Max as a function of n.
type Bound struct {
	Formula string
	Max     func(n int) int
	// Of, if set, is the bound on one network, for a bound in more than n
	// (echo's in the number of links): each configuration is then checked
	// against its own network's value, and Max is the largest over the
	// family's networks on n, which tables show.
	Of func(t *Topology) int
}

// On returns the bound on network t: Of's value, or Max's at t's size.
func (b Bound) On(t *Topology) int {
	if b.Of != nil {
		return b.Of(t)
	}
	return b.Max(t.N)
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
	// Messages names the message kinds, indexed by Kind. Write it keyed by
	// the protocol's Kind constants, so that each name stands beside the
	// constant it names and no two lists have to agree by position:
	//
	//	const (
	//		crProbe spec.Kind = iota
	//		crSelected
	//	)
	//	... Messages: []string{crProbe: "probe", crSelected: "selected"},
	//
	// A constant left out leaves an empty name, which Validate rejects
	// (or, for the last ones, a kind sent without a name, which the
	// protocols' tests look for).
	Messages []string
	// Bound is the declared message bound; Bound.Max nil means none.
	Bound Bound
	// Leftovers allows messages to remain in channels in final states.
	Leftovers bool
	// Channels is the channel semantics the variant is checked under by
	// default.
	Channels Channels
	// Capacity is the channel capacity the variant is checked under by
	// default (Config.Capacity); 0 is unbounded.
	Capacity int
	// Chooses declares that the protocol's steps call Outbox.Choose: the
	// explorer then lists one action per alternative. A step that chooses
	// among several without it is a finding, not a silent first pick.
	Chooses bool
	// PortBlind declares that the protocol's behaviour does not depend on
	// how a process numbers its ports: it sends on every port, on the port
	// a message came on, or on ports it chooses among (Outbox.Choose), and
	// its state names ports only through PortField and PortSetField.
	// Renumbering a process's ports then renumbers what it does, so the
	// explorer takes id placements up to the network's whole automorphism
	// group, ports moving, rather than the automorphisms that keep every
	// port number. It checks the claim at every distinct step it takes and
	// on every initial state, for every renumbering of the process's
	// ports: one that does not commute is a uniformity violation.
	PortBlind bool
	// KnowsN declares that processes are told n (Env.N).
	KnowsN bool
	// Bug describes the mistake of a buggy variant; empty for a correct one.
	Bug string
	// Breaks is the property a buggy variant is expected to violate.
	Breaks string
	// Literature is what the published sources say the correct algorithm
	// costs, set against the measured figures by elcheck bounds. A buggy
	// variant keeps its protocol's formulas, but they are not about it:
	// bounds ignores them when Bug is set.
	Literature []Formula
}

// Validate reports what makes info unusable: no name, no message kinds, a
// kind without a name or two kinds with one, or an incomplete formula.
func (info Info) Validate() error {
	if info.Name == "" {
		return errors.New("no Name")
	}
	if len(info.Messages) == 0 {
		return fmt.Errorf("%s: no message kinds", info.Name)
	}
	seen := make(map[string]bool)
	for k, name := range info.Messages {
		switch {
		case name == "":
			return fmt.Errorf("%s: message kind %d has no name (a Kind constant left out of Info.Messages?)", info.Name, k)
		case seen[name]:
			return fmt.Errorf("%s: two message kinds are named %q", info.Name, name)
		}
		seen[name] = true
	}
	for _, f := range info.Literature {
		if err := f.validate(); err != nil {
			return fmt.Errorf("%s: %v", info.Name, err)
		}
	}
	return nil
}

// Erase turns a typed protocol into a Machine over encoded local states.
// The states' encoding is *S's Fields method if it has one, else S's Encode
// with p's Decode (see Local); Erase panics if it finds neither, so that a
// protocol without an encoding fails where it is registered.
func Erase[S Local](p Protocol[S]) Machine {
	m := erased[S]{p: p, boxes: &sync.Pool{New: func() any { return new(fieldsBox[S]) }}}
	var s S
	if _, ok := any(&s).(Fielder); ok {
		return m
	}
	_, enc := any(s).(interface{ Encode(e *Encoder) })
	dec, ok := any(p).(interface{ Decode(d *Decoder) S })
	if !enc || !ok {
		panic(fmt.Sprintf("spec.Erase(%s): the local state %T has no Fields method on its pointer, nor an Encode method with a Decode method on the protocol", p.Info().Name, s))
	}
	m.legacy = dec
	return m
}

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

type erased[S Local] struct {
	p Protocol[S]
	// boxes recycles the fieldsBox each Fields call needs on the heap
	// (the state and the codec escape through the interface call).
	boxes *sync.Pool
	// legacy is the protocol's Decode when S has no Fields method.
	legacy interface{ Decode(d *Decoder) S }
}

func (m erased[S]) Info() Info { return m.p.Info() }

func (m erased[S]) Init(env Env) []byte { return m.appendLocal(nil, m.p.Init(env)) }

func (m erased[S]) Step(dst, local []byte, ev Event, out *Outbox) []byte {
	return m.appendLocal(dst, m.p.Step(m.decode(local), ev, out))
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
	s, err := m.tryDecode(local)
	if err != nil {
		panic(fmt.Sprintf("%s: decoding a local state: %v", m.p.Info().Name, err))
	}
	return s
}

// tryDecode reads an encoded state, skipping the decision prefix.
func (m erased[S]) tryDecode(local []byte) (S, error) {
	var s S
	if m.legacy != nil {
		d := NewDecoder(local)
		d.Uint()
		d.ID()
		s = m.legacy.Decode(d)
		return s, d.Err()
	}
	// The state and the codec escape through the interface call: they
	// share one box, recycled (boxes).
	b := m.boxes.Get().(*fieldsBox[S])
	b.c = Codec{decoding: true, d: Decoder{buf: local}}
	b.c.d.Uint()
	b.c.d.ID()
	any(&b.s).(Fielder).Fields(&b.c)
	s, err := b.s, b.c.d.Err()
	m.put(b)
	return s, err
}

// put clears b, so that it holds on to nothing, and gives it back.
func (m erased[S]) put(b *fieldsBox[S]) {
	*b = fieldsBox[S]{}
	m.boxes.Put(b)
}

// fieldsBox holds a state and the codec its Fields method runs on.
type fieldsBox[S any] struct {
	s S
	c Codec
}

// appendLocal appends the encoding of s to dst: its decision, then its
// fields.
func (m erased[S]) appendLocal(dst []byte, s S) []byte {
	dec := s.Decision()
	if m.legacy != nil {
		e := Encoder{buf: dst}
		e.Uint(uint64(dec.Status))
		e.ID(dec.Leader)
		any(s).(interface{ Encode(e *Encoder) }).Encode(&e)
		return e.Bytes()
	}
	b := m.boxes.Get().(*fieldsBox[S])
	b.s, b.c = s, Codec{e: Encoder{buf: dst}}
	b.c.e.Uint(uint64(dec.Status))
	b.c.e.ID(dec.Leader)
	any(&b.s).(Fielder).Fields(&b.c)
	out := b.c.e.Bytes()
	m.put(b)
	return out
}

// CheckStep checks, on one encoded state and one event, what the explorer
// takes for granted of a protocol made into m by Erase: the state decodes
// and encodes back to the same bytes (so encoding and decoding agree, and
// the decision prefix is the typed Decision), it renders as a non-empty
// String, and the typed Step leaves the state it received unchanged and
// gives the same state and sends when run twice. Tests run it on every
// step a search takes.
func CheckStep(m Machine, local []byte, ev Event) error {
	c, ok := m.(interface {
		checkStep(local []byte, ev Event) error
	})
	if !ok {
		return fmt.Errorf("%s: %T was not made by spec.Erase", m.Info().Name, m)
	}
	return c.checkStep(local, ev)
}

func (m erased[S]) checkStep(local []byte, ev Event) error {
	s, err := m.tryDecode(local)
	if err != nil {
		return fmt.Errorf("decoding %x: %v", local, err)
	}
	if got := m.appendLocal(nil, s); !bytes.Equal(got, local) {
		return fmt.Errorf("%s: decoding %x and encoding it again gives %x", s, local, got)
	}
	if s.String() == "" {
		return fmt.Errorf("%x: String is empty", local)
	}
	var out1, out2 Outbox
	s1 := m.p.Step(s, ev, &out1)
	if got := m.appendLocal(nil, s); !bytes.Equal(got, local) {
		return fmt.Errorf("Step changed the state it received on %v: %x became %x", ev, local, got)
	}
	s2 := m.p.Step(s, ev, &out2)
	if !bytes.Equal(m.appendLocal(nil, s1), m.appendLocal(nil, s2)) || !slices.Equal(out1.Sends(), out2.Sends()) {
		return fmt.Errorf("Step is not deterministic on %s, %v", s, ev)
	}
	return nil
}

// Relabel appends to dst the encoded local state local of m with every
// identity in it replaced by f's image of it: the decision's leader, and
// each field the state's Fields method writes through Codec.ID,
// Codec.IDSet and Codec.Message. The comparison-only check uses it to ask
// whether a step commutes with an order-preserving relabelling of the ids.
// It reports false when it cannot know where the state's identities are:
// m was not made by Erase, the state has no Fields method (S.Encode), or
// Fields wrote through Codec.Encoder.
func Relabel(m Machine, dst, local []byte, f func(ID) ID) ([]byte, bool) {
	r, ok := m.(interface {
		relabel(dst, local []byte, f func(ID) ID) ([]byte, bool)
	})
	if !ok {
		return dst, false
	}
	return r.relabel(dst, local, f)
}

func (m erased[S]) relabel(dst, local []byte, f func(ID) ID) ([]byte, bool) {
	return m.reencode(dst, local, Codec{relabel: f})
}

// reencode appends to dst the encoding of local written through c, an
// encoding codec that relabels its ids (Relabel) or renumbers its ports
// (RenamePorts); false if local's fields cannot all be written through it.
func (m erased[S]) reencode(dst, local []byte, c Codec) ([]byte, bool) {
	if m.legacy != nil {
		return dst, false
	}
	s, err := m.tryDecode(local)
	if err != nil {
		return dst, false
	}
	dec := s.Decision()
	if c.relabel != nil {
		dec.Leader = c.relabel(dec.Leader)
	}
	c.e = Encoder{buf: dst}
	b := m.boxes.Get().(*fieldsBox[S])
	b.s, b.c = s, c
	b.c.e.Uint(uint64(dec.Status))
	b.c.e.ID(dec.Leader)
	any(&b.s).(Fielder).Fields(&b.c)
	raw, out := b.c.raw, b.c.e.Bytes()
	m.put(b)
	if raw {
		return dst, false
	}
	return out, true
}

// RenamePorts appends to dst the encoding of local with every port its
// Fields method writes through PortField and PortSetField renumbered by
// perm (port k becomes perm[k]; a value perm does not cover stays as it
// is). It reports false when it cannot know where the state's ports are,
// as Relabel does for identities.
func RenamePorts(m Machine, dst, local []byte, perm []Port) ([]byte, bool) {
	r, ok := m.(interface {
		renamePorts(dst, local []byte, perm []Port) ([]byte, bool)
	})
	if !ok {
		return dst, false
	}
	return r.renamePorts(dst, local, perm)
}

func (m erased[S]) renamePorts(dst, local []byte, perm []Port) ([]byte, bool) {
	return m.reencode(dst, local, Codec{ports: perm})
}

// CanRelabel reports whether Relabel can locate the identities in m's
// local states: m was made by Erase from a protocol whose state has a
// Fields method. (A Fields method that writes through Codec.Encoder can
// still make Relabel fail on some states.)
func CanRelabel(m Machine) bool {
	e, ok := m.(interface{ fielded() bool })
	return ok && e.fielded()
}

func (m erased[S]) fielded() bool { return m.legacy == nil }
