// Package mutation is a protocol whose steps write into the state they
// received: its slices and maps are shared with the caller's copy, so a
// step changes a state the explorer has already stored.
package mutation

import (
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Proto collects the ids it sees.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID    spec.ID
	phase uint8
	Seen  []spec.ID
	Count map[spec.ID]int
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	e.Uint(uint64(s.phase))
	slices.Sort(s.Seen) // want `slices\.Sort on s\.Seen in State\.Encode: it writes into memory shared with the receiver of State\.Encode`
	e.IDSet(s.Seen)
}

// String implements spec.Local.
func (s State) String() string { return "state" }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "mutation"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State {
	return State{ID: env.ID, Seen: []spec.ID{env.ID}, Count: map[spec.ID]int{}}
}

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State {
	return State{ID: d.ID(), phase: uint8(d.Uint()), Seen: d.IDSet()}
}

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	id := ev.Msg.ID
	s.phase = 1 // a field of the local copy: fine
	switch ev.Msg.Kind {
	case 0:
		s.Seen[0] = id // want `assignment to s\.Seen\[0\] in Proto\.Step: it writes into memory shared with the state Proto\.Step received`
	case 1:
		s.Seen = append(s.Seen, id) // want `append to s\.Seen in Proto\.Step: it can write into a backing array shared with the state Proto\.Step received`
	case 2:
		s.Count[id]++         // want `assignment to s\.Count\[id\] in Proto\.Step`
		delete(s.Count, s.ID) // want `delete on s\.Count in Proto\.Step`
	case 3:
		seen := s.Seen
		seen[len(seen)-1] = id // want `assignment to seen\[len\(seen\) - 1\] in Proto\.Step`
	case 4:
		s.add(id)
	case 5:
		s = withFirst(s, id)
	}
	// Copies are the fix: writing into them is fine.
	s.Seen = slices.Clone(s.Seen)
	s.Seen[0] = s.ID
	s.Seen = append(s.Seen, id)
	fresh := State{Seen: []spec.ID{id}}
	fresh.Seen[0] = s.ID
	out.Send(0, ev.Msg)
	return s
}

// add appends through a pointer to Step's copy, whose Seen still shares
// the caller's backing array.
func (s *State) add(id spec.ID) {
	s.phase = 2                 // the local copy: fine
	s.Seen = append(s.Seen, id) // want `append to s\.Seen in Proto\.Step \(via State\.add\)`
}

func withFirst(s State, id spec.ID) State {
	setFirst(s.Seen, id)
	return s
}

func setFirst(ids []spec.ID, id spec.ID) {
	ids[0] = id // want `assignment to ids\[0\] in Proto\.Step \(via withFirst → setFirst\)`
}

// PtrProto's local state is a pointer, so every write through it mutates
// the caller's state.
type PtrProto struct{}

// PtrState is PtrProto's local state.
type PtrState struct{ n int }

// Decision implements spec.Local.
func (s *PtrState) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s *PtrState) Encode(e *spec.Encoder) { e.Int(int64(s.n)) }

// String implements spec.Local.
func (s *PtrState) String() string { return "ptr" }

// Info implements spec.Protocol.
func (PtrProto) Info() spec.Info { return spec.Info{Name: "ptr"} }

// Init implements spec.Protocol.
func (PtrProto) Init(env spec.Env) *PtrState { return &PtrState{} }

// Decode implements spec.Protocol.
func (PtrProto) Decode(d *spec.Decoder) *PtrState { return &PtrState{n: int(d.Int())} }

// Step implements spec.Protocol.
func (PtrProto) Step(s *PtrState, ev spec.Event, out *spec.Outbox) *PtrState {
	s.n++ // want `assignment to s\.n in PtrProto\.Step`
	t := &PtrState{n: s.n}
	t.n++ // a new state: fine
	return t
}
