// Package counter is a protocol that counts its steps in a package-level
// variable: a step's result depends on how many steps ran before it, in any
// process, in any configuration.
package counter

import "github.com/elcheck/elcheck/spec"

// Proto elects the process that happens to take the third step.
type Proto struct{}

// steps is the hidden state.
var steps int

// State is a process's local state.
type State struct {
	ID     spec.ID
	Leader bool
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision {
	if s.Leader {
		return spec.Decision{Status: spec.Elected, Leader: s.ID}
	}
	return spec.Decision{}
}

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	e.Bool(s.Leader)
}

// String implements spec.Local.
func (s State) String() string { return "state" }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info { return spec.Info{Name: "counter"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID(), Leader: d.Bool()} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	steps++         // want `write to package-level variable steps in Proto\.Step: hidden state`
	if steps == 3 { // want `package-level variable steps read in Proto\.Step is written in Proto\.Step: hidden state`
		s.Leader = true
	}
	out.Send(0, spec.Message{ID: s.ID})
	return s
}

// Reset is not reachable from the protocol, but its write still makes
// steps hidden state: no report here, the reads above are reported.
func Reset() { steps = 0 }
