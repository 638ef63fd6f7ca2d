// Package channels is a protocol that computes its step on a goroutine and
// talks to it over channels: the explorer cannot see that concurrency, and
// its outcome depends on the scheduler.
package channels

import "github.com/elcheck/elcheck/spec"

// Proto relays messages through a goroutine.
type Proto struct{}

// State is a process's local state.
type State struct{ ID spec.ID }

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) { e.ID(s.ID) }

// String implements spec.Local.
func (s State) String() string { return "state" }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "channels"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	ch := make(chan spec.Message, 1) // want `channel made in Proto\.Step`
	done := make(chan bool)          // want `channel made in Proto\.Step`
	go func() {                      // want `go statement in Proto\.Step`
		ch <- ev.Msg // want `channel send in Proto\.Step`
		done <- true // want `channel send in Proto\.Step`
	}()
	select { // want `select statement in Proto\.Step`
	case m := <-ch: // want `channel receive in Proto\.Step`
		out.Send(0, m)
	case <-done: // want `channel receive in Proto\.Step`
	}
	return s
}
