package spec

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

type phase uint8

// twin is a state with both encodings, written to agree: Fields and the
// older Encode with its protocol's Decode.
type twin struct {
	ID    ID
	phase phase
	Seen  []ID
	Hops  int32
	Done  bool
	Last  Message
}

func (s twin) Decision() Decision {
	if s.Done {
		return Decision{Status: Elected, Leader: s.ID}
	}
	return Decision{}
}

func (s twin) String() string { return "twin" }

func (s *twin) Fields(c *Codec) {
	c.ID(&s.ID)
	Uint(c, &s.phase)
	c.IDSet(&s.Seen)
	Int(c, &s.Hops)
	c.Bool(&s.Done)
	c.Message(&s.Last)
}

// old is twin without Fields, encoded the older way.
type old struct{ twin }

func (s old) Encode(e *Encoder) {
	e.ID(s.ID)
	e.Uint(uint64(s.phase))
	e.IDSet(s.Seen)
	e.Int(int64(s.Hops))
	e.Bool(s.Done)
	e.Message(s.Last)
}

// Fields hides twin's, so that old has only the older encoding.
func (s old) Fields() {}

var sample = twin{ID: 7, phase: 3, Seen: []ID{9, 2, 5}, Hops: -300, Done: true, Last: Message{Kind: 1, ID: 4, Arg: [2]int32{2, -1}}}

type twinProto struct{}

func (twinProto) Info() Info                           { return Info{Name: "twin", Messages: []string{"m"}} }
func (twinProto) Init(env Env) twin                    { s := sample; s.ID = env.ID; return s }
func (twinProto) Step(s twin, _ Event, o *Outbox) twin { s.Hops++; return s }

type oldProto struct{}

func (oldProto) Info() Info                         { return Info{Name: "old", Messages: []string{"m"}} }
func (oldProto) Init(env Env) old                   { s := sample; s.ID = env.ID; return old{s} }
func (oldProto) Step(s old, _ Event, o *Outbox) old { s.Hops++; return s }
func (oldProto) Decode(d *Decoder) old {
	var s old
	s.ID = d.ID()
	s.phase = phase(d.Uint())
	s.Seen = d.IDSet()
	s.Hops = int32(d.Int())
	s.Done = d.Bool()
	s.Last = d.Message()
	return s
}

// Fields and the older Encode/Decode give the same bytes for the same
// fields, and each reads back what it wrote.
func TestFieldsMatchEncode(t *testing.T) {
	machines := []Machine{Erase[twin](twinProto{}), Erase[old](oldProto{})}
	var states [][]byte
	for _, m := range machines {
		s := m.Init(Env{ID: 7})
		states = append(states, s)
		if err := CheckStep(m, s, Event{Kind: Wake}); err != nil {
			t.Errorf("%s: %v", m.Info().Name, err)
		}
		if got := m.Format(m.Step(nil, s, Event{Kind: Wake}, &Outbox{})); got != "twin" {
			t.Errorf("%s: Format %q", m.Info().Name, got)
		}
	}
	if !bytes.Equal(states[0], states[1]) {
		t.Errorf("Fields wrote %x, Encode %x", states[0], states[1])
	}
}

func TestCodecRejects(t *testing.T) {
	var big Encoder
	big.Uint(300) // does not fit a uint8 phase
	var neg Encoder
	neg.Int(-200) // does not fit an int8
	tests := []struct {
		name string
		in   []byte
		read func(c *Codec)
	}{
		{"uint8 overflow", big.Bytes(), func(c *Codec) { var p phase; Uint(c, &p) }},
		{"int8 overflow", neg.Bytes(), func(c *Codec) { var p int8; Int(c, &p) }},
		{"past the end", nil, func(c *Codec) { var id ID; c.ID(&id) }},
	}
	for _, tt := range tests {
		c := Codec{decoding: true, d: Decoder{buf: tt.in}}
		tt.read(&c)
		if !errors.Is(c.Decoder().Err(), ErrCorrupt) || c.Encoder() != nil || !c.Decoding() {
			t.Errorf("%s: err %v", tt.name, c.Decoder().Err())
		}
	}
}

// bare has no encoding at all.
type bare struct{}

func (bare) Decision() Decision { return Decision{} }
func (bare) String() string     { return "bare" }

type bareProto struct{}

func (bareProto) Info() Info                           { return Info{Name: "bare"} }
func (bareProto) Init(Env) bare                        { return bare{} }
func (bareProto) Step(s bare, _ Event, _ *Outbox) bare { return s }

func TestEraseWithoutEncoding(t *testing.T) {
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "no Fields method") {
			t.Errorf("panic %q", r)
		}
	}()
	Erase[bare](bareProto{})
}

func TestValidate(t *testing.T) {
	tests := []struct {
		info Info
		want string // "" for valid
	}{
		{Info{Name: "ok", Messages: []string{"a", "b"}}, ""},
		{Info{Messages: []string{"a"}}, "no Name"},
		{Info{Name: "x"}, "no message kinds"},
		{Info{Name: "x", Messages: []string{1: "b"}}, "kind 0 has no name"},
		{Info{Name: "x", Messages: []string{"a", "a"}}, `two message kinds are named "a"`},
		{Info{Name: "x", Messages: []string{"a"}, Literature: []Formula{{Measure: "a", Stat: "max", Rel: AtMost, Text: "n", Source: "s"}}}, "without its"},
		{Info{Name: "x", Messages: []string{"a"}, Literature: []Formula{{Measure: "a", Stat: "max", Rel: "<", Text: "n", Source: "s", Value: Poly(nil)}}}, "is not = or ≤"},
	}
	for _, tt := range tests {
		err := tt.info.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want %q", tt.info, err, tt.want)
		}
	}
}

// counter is a state of fixed size: decoding and encoding it need no
// memory of their own.
type counter struct {
	ID   ID
	Hops int32
}

func (s counter) Decision() Decision { return Decision{} }
func (s counter) String() string     { return "counter" }
func (s *counter) Fields(c *Codec) {
	c.ID(&s.ID)
	Int(c, &s.Hops)
}

type counterProto struct{}

func (counterProto) Info() Info                                 { return Info{Name: "counter", Messages: []string{"m"}} }
func (counterProto) Init(env Env) counter                       { return counter{ID: env.ID} }
func (counterProto) Step(s counter, _ Event, _ *Outbox) counter { s.Hops++; return s }

// TestStepAllocatesNothing checks that an erased step of a state without
// slices allocates nothing once warm: the box its Fields method runs in is
// recycled. Fresh boxes were most of a sweep's garbage, and on a virtual
// machine each fresh page of heap costs a fault (dkr n = 6: 2,700 faults
// against 1,040).
func TestStepAllocatesNothing(t *testing.T) {
	m := Erase[counter](counterProto{})
	local := m.Init(Env{ID: 3, Ports: 1})
	var out Outbox
	// Recycled boxes carry nothing from one call to the next.
	s := local
	for range 3 {
		s = m.Step(nil, s, Event{Kind: Deliver}, &out)
	}
	if want := m.(erased[counter]).appendLocal(nil, counter{ID: 3, Hops: 3}); !bytes.Equal(s, want) {
		t.Errorf("three steps gave %v, want %v", s, want)
	}
	if raceOn {
		t.Skip("the race detector's sync.Pool drops what is put back at random")
	}
	dst := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		dst = m.Step(dst[:0], local, Event{Kind: Deliver, Msg: Message{Kind: 1, ID: 2}}, &out)
	})
	if allocs != 0 {
		t.Errorf("a step allocated %v times, want 0", allocs)
	}
}
