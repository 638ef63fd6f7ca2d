// Package random is a protocol that flips coins: a step's result changes
// from run to run, so the explorer's states are not functions of their
// history.
package random

import (
	crand "crypto/rand"
	"math/rand"
	randv2 "math/rand/v2"

	"github.com/elcheck/elcheck/spec"
)

// Proto picks random ids.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID, Pick spec.ID
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	e.ID(s.Pick)
}

// String implements spec.Local.
func (s State) String() string { return crand.Text() } // want `crypto/rand\.Text in State\.String: randomness`

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "random"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State {
	return State{ID: env.ID, Pick: spec.ID(rand.Intn(10))} // want `math/rand\.Intn in Proto\.Init: randomness`
}

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID(), Pick: d.ID()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if randv2.IntN(2) == 0 { // want `math/rand/v2\.IntN in Proto\.Step: randomness`
		out.Send(0, ev.Msg)
	}
	r := rand.New(rand.NewSource(1)) // want `math/rand\.New in Proto\.Step` `math/rand\.NewSource in Proto\.Step`
	s.Pick = spec.ID(r.Int31())      // want `math/rand\.Rand\.Int31 in Proto\.Step: randomness`
	return s
}
