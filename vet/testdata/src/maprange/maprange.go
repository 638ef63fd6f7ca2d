// Package maprange is a protocol that sends to its neighbours by ranging
// over a map: the order of its sends, and so the interleavings it allows,
// change from run to run.
package maprange

import (
	"maps"
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Proto floods its id to every port it knows.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID    spec.ID
	Ports map[spec.ID]spec.Port
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local; sorting the keys makes it canonical.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	for _, id := range slices.Sorted(maps.Keys(s.Ports)) {
		e.ID(id)
		e.Uint(uint64(s.Ports[id]))
	}
}

// String implements spec.Local.
func (s State) String() string {
	n := 0
	for range s.Ports { // want `range over a map in State\.String: iteration order is random; sort the keys first`
		n++
	}
	return "ports"
}

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "maprange"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State {
	return State{ID: env.ID, Ports: map[spec.ID]spec.Port{env.ID: 0}}
}

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if ev.Kind == spec.Wake {
		relayAll(s, out)
		return s
	}
	for id := range maps.Keys(s.Ports) { // want `range over maps\.Keys in Proto\.Step: iteration order is random`
		out.Send(0, spec.Message{ID: id})
	}
	return s
}

func relayAll(s State, out *spec.Outbox) {
	for id, p := range s.Ports { // want `range over a map in Proto\.Step \(via relayAll\): iteration order is random; sort the keys first`
		out.Send(p, spec.Message{ID: id})
	}
}
