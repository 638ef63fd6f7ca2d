package protocols

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
)

// step is one step some execution takes: a process's encoded local state
// and the event applied to it.
type step struct {
	local []byte
	ev    spec.Event
}

// recorder passes every step it is asked to take to visit.
type recorder struct {
	spec.Machine
	visit func(local []byte, ev spec.Event)
}

func (r recorder) Step(dst, local []byte, ev spec.Event, out *spec.Outbox) []byte {
	r.visit(local, ev)
	return r.Machine.Step(dst, local, ev, out)
}

// reachableSteps collects every distinct step the explorer takes with m on
// rings of up to 3, every placement and initiator set, under m's channels
// (up to the first violation, for a buggy variant).
func reachableSteps(t *testing.T, m spec.Machine) []step {
	t.Helper()
	seen := map[string]bool{}
	var steps []step
	visit := func(local []byte, ev spec.Event) {
		var e spec.Encoder
		e.Raw(local)
		e.Uint(uint64(ev.Kind))
		e.Message(ev.Msg)
		if k := string(e.Bytes()); !seen[k] {
			seen[k] = true
			steps = append(steps, step{slices.Clone(local), ev})
		}
	}
	for n := 1; n <= 3; n++ {
		space := explore.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels}
		explore.Check(context.Background(), recorder{m, visit}, space, explore.Options{Exact: true, Workers: 1}) // visit is not safe for concurrent use
	}
	return steps
}

// typedCheck checks a typed protocol on the steps its registered machine
// takes: Step leaves its input alone and gives the same result twice,
// Decode reads what Encode wrote, and the erased Decision agrees with the
// typed one.
func typedCheck[S spec.Local](t *testing.T, p spec.Protocol[S]) {
	m := spec.Erase(p)
	encode := func(s S) []byte {
		var e spec.Encoder
		s.Encode(&e)
		return e.Bytes()
	}
	steps := reachableSteps(t, m)
	if len(steps) == 0 {
		t.Fatal("no steps")
	}
	for _, st := range steps {
		// Skip the decision prefix the erased machine writes, as it does.
		d := spec.NewDecoder(st.local)
		d.Uint()
		d.ID()
		body := d.Rest()
		s := p.Decode(d)
		if err := d.Err(); err != nil || len(d.Rest()) != 0 {
			t.Fatalf("decoding %x: err %v, %d bytes left", st.local, err, len(d.Rest()))
		}
		if got := encode(s); !bytes.Equal(got, body) {
			t.Fatalf("%s: Encode(Decode(x)) = %x, want %x", s, got, body)
		}
		if s.Decision() != m.Decision(st.local) {
			t.Fatalf("%s: typed decision %v, erased %v", s, s.Decision(), m.Decision(st.local))
		}
		if s.String() == "" || m.Format(st.local) != s.String() {
			t.Fatalf("%x: String %q, Format %q", st.local, s.String(), m.Format(st.local))
		}

		var out1, out2 spec.Outbox
		s1 := p.Step(s, st.ev, &out1)
		if got := encode(s); !bytes.Equal(got, body) {
			t.Fatalf("Step mutated its input on %v: %x became %x", st.ev, body, got)
		}
		s2 := p.Step(s, st.ev, &out2)
		if !bytes.Equal(encode(s1), encode(s2)) || !slices.Equal(out1.Sends(), out2.Sends()) {
			t.Fatalf("Step is not deterministic on %s, %v", s, st.ev)
		}

		// The erased machine: same input bytes, same output, input intact.
		in := slices.Clone(st.local)
		var out3, out4 spec.Outbox
		b1 := m.Step(nil, st.local, st.ev, &out3)
		b2 := m.Step(nil, st.local, st.ev, &out4)
		if !bytes.Equal(in, st.local) || !bytes.Equal(b1, b2) || !slices.Equal(out3.Sends(), out4.Sends()) {
			t.Fatalf("erased Step is not pure on %s, %v", s, st.ev)
		}
	}
	t.Logf("%d distinct steps", len(steps))
}

func TestStepIsPureAndStatesRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"lelann", func(t *testing.T) { typedCheck(t, LeLann{}) }},
		{"lelann-flip", func(t *testing.T) { typedCheck(t, LeLann{variant: lelannFlip}) }},
		{"lelann-list", func(t *testing.T) { typedCheck(t, LeLannList{}) }},
		{"lelann-list-bag", func(t *testing.T) { typedCheck(t, LeLannList{bag: true}) }},
		{"cr", func(t *testing.T) { typedCheck(t, CR{}) }},
		{"cr-flip", func(t *testing.T) { typedCheck(t, CR{variant: crFlip}) }},
		{"cr-noselected", func(t *testing.T) { typedCheck(t, CR{variant: crNoSelected}) }},
		{"cr-min", func(t *testing.T) { typedCheck(t, CRMin{}) }},
		{"cr-min-noabsorb", func(t *testing.T) { typedCheck(t, CRMin{variant: crMinNoAbsorb}) }},
		{"dkr", func(t *testing.T) { typedCheck(t, DKR{}) }},
		{"dkr-nosecond", func(t *testing.T) { typedCheck(t, DKR{variant: dkrNoSecond}) }},
		{"peterson", func(t *testing.T) { typedCheck(t, Peterson{}) }},
		{"peterson-norelay", func(t *testing.T) { typedCheck(t, Peterson{variant: petersonNoRelay}) }},
		{"peterson-nocheck", func(t *testing.T) { typedCheck(t, Peterson{variant: petersonNoCheck}) }},
	}
	if len(tests) != len(Names()) {
		t.Errorf("%d typed checks for %d registered protocols", len(tests), len(Names()))
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.check)
	}
}

// TestStepCopiesSlices gives a state whose list has spare capacity, the case
// where an in-place append would write into the caller's array.
func TestStepCopiesSlices(t *testing.T) {
	list := make([]spec.ID, 1, 8)
	list[0] = 3
	s := LeLannState{ID: 3, phase: lelannCand, List: list}
	var out spec.Outbox
	s1 := LeLann{}.Step(s, spec.Event{Kind: spec.Deliver, Msg: spec.Message{ID: 5}}, &out)
	if got := list[:2]; got[1] != 0 {
		t.Errorf("LeLann wrote %v into the input's spare capacity", got)
	}
	if fmt.Sprint(s1.List) != "[3 5]" || fmt.Sprint(s.List) != "[3]" {
		t.Errorf("got %v from %v", s1.List, s.List)
	}

	ls := LeLannListState{ID: 3, phase: listActive, List: list}
	ls1 := LeLannList{}.Step(ls, spec.Event{Kind: spec.Deliver, Msg: spec.Message{ID: 7}}, &out)
	if got := list[:2]; got[1] != 0 {
		t.Errorf("LeLannList wrote %v into the input's spare capacity", got)
	}
	if fmt.Sprint(ls1.List) != "[3 7]" {
		t.Errorf("got %v", ls1.List)
	}
}

// TestEncodingIncludesOwnID: two processes in the same phase with different
// ids must encode differently, since the id is part of the state.
func TestEncodingIncludesOwnID(t *testing.T) {
	for _, m := range All() {
		a := m.Init(spec.Env{ID: 1, Ports: 1})
		b := m.Init(spec.Env{ID: 2, Ports: 1})
		if bytes.Equal(a, b) {
			t.Errorf("%s: initial states of ids 1 and 2 encode alike", m.Info().Name)
		}
		if d := m.Decision(a); d != (spec.Decision{}) {
			t.Errorf("%s: initial decision %v", m.Info().Name, d)
		}
	}
}
