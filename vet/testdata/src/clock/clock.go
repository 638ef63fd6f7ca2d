// Package clock is a protocol that reads the clock: a step's result depends
// on when it runs.
package clock

import (
	"time"

	"github.com/elcheck/elcheck/spec"
)

// Proto gives up waiting after a second.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID      spec.ID
	Started int64
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	e.Int(s.Started)
}

// String implements spec.Local; formatting a duration is fine.
func (s State) String() string { return time.Duration(s.Started).String() }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "clock"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State {
	return State{ID: env.ID, Started: time.Now().UnixNano()} // want `time\.Now in Proto\.Init: reads the clock`
}

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID(), Started: d.Int()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if time.Since(time.Unix(0, s.Started)) > time.Second { // want `time\.Since in Proto\.Step: reads the clock`
		return s
	}
	time.Sleep(time.Millisecond) // want `time\.Sleep in Proto\.Step: reads the clock`
	out.Send(0, ev.Msg)
	return s
}
