// Package cache is a protocol that memoises a computation in a package-level
// map: whether a step hits the cache depends on what ran before, and the
// explorer runs steps on several goroutines at once.
package cache

import "github.com/elcheck/elcheck/spec"

// Proto forwards the larger of its id and the received one.
type Proto struct{}

// rank is a cache filled as steps run.
var rank = map[spec.ID]int{}

// kinds is a read-only table: initialised at declaration and never
// written, so reading it is fine.
var kinds = []string{"probe"}

// State is a process's local state.
type State struct{ ID spec.ID }

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) { e.ID(s.ID) }

// String implements spec.Local.
func (s State) String() string { return kinds[0] }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "cache", Messages: kinds} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if ev.Kind == spec.Deliver && rankOf(ev.Msg.ID) > rankOf(s.ID) {
		out.Send(0, ev.Msg)
	}
	return s
}

func rankOf(id spec.ID) int {
	if r, ok := rank[id]; ok { // want `package-level variable rank read in Proto\.Step \(via rankOf\) is written in rankOf: hidden state`
		return r
	}
	rank[id] = len(rank) // want `write to package-level variable rank in Proto\.Step \(via rankOf\)` `package-level variable rank read in Proto\.Step \(via rankOf\)`
	return int(id)
}
