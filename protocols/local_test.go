package protocols

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/configs"
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
		space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: m.Info().Channels}
		explore.Check(context.Background(), recorder{m, visit}, space, explore.Options{Exact: true, Workers: 1}) // visit is not safe for concurrent use
	}
	return steps
}

// TestStepIsPureAndStatesRoundTrip checks every registered protocol on
// every step its machine takes on small rings (spec.CheckStep): states
// decode and encode back to the same bytes, with the typed Decision in the
// prefix; Step leaves its input alone and gives the same result twice; and
// so does the erased machine. Every kind it sends has a name.
func TestStepIsPureAndStatesRoundTrip(t *testing.T) {
	for _, m := range All() {
		t.Run(m.Info().Name, func(t *testing.T) {
			steps := reachableSteps(t, m)
			if len(steps) == 0 {
				t.Fatal("no steps")
			}
			kinds := len(m.Info().Messages)
			for _, st := range steps {
				if err := spec.CheckStep(m, st.local, st.ev); err != nil {
					t.Fatal(err)
				}
				if m.Format(st.local) == "" {
					t.Fatalf("%x: Format is empty", st.local)
				}
				in := slices.Clone(st.local)
				var out1, out2 spec.Outbox
				b1 := m.Step(nil, st.local, st.ev, &out1)
				b2 := m.Step(nil, st.local, st.ev, &out2)
				if !bytes.Equal(in, st.local) || !bytes.Equal(b1, b2) || !slices.Equal(out1.Sends(), out2.Sends()) {
					t.Fatalf("erased Step is not pure on %s, %v", m.Format(st.local), st.ev)
				}
				for _, snd := range out1.Sends() {
					if int(snd.Msg.Kind) >= kinds {
						t.Fatalf("%s sends kind %d on %v, which Info.Messages does not name", m.Format(st.local), snd.Msg.Kind, st.ev)
					}
				}
			}
			t.Logf("%d distinct steps", len(steps))
		})
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
