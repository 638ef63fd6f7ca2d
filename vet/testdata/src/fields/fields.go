// Package fields is a protocol written the newer way: kinds named by a keyed
// literal, the state's encoding in one Fields method, no Decode, and a
// registry filled at initialisation. The analyzer must take Fields for a
// root (a map range in it is reported), accept its writes into its own
// receiver (decoding), and leave the registry alone: no step reads it.
package fields

import "github.com/elcheck/elcheck/spec"

// registry is written by register at initialisation and never read by a
// step.
var registry []spec.Machine

func register(ms ...spec.Machine) struct{} {
	registry = append(registry, ms...)
	return struct{}{}
}

var _ = register(spec.Erase[State](Proto{}))

const (
	probe spec.Kind = iota
	elected
)

// Proto elects nobody; it only has to be a protocol.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID    spec.ID
	phase uint8
	Hops  map[spec.ID]int
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision { return spec.Decision{} }

// Fields implements spec.Fielder.
func (s *State) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	if c.Decoding() {
		return
	}
	for id := range s.Hops { // want `range over a map in State\.Fields`
		c.ID(&id)
	}
}

// String implements spec.Local.
func (s State) String() string { return "state" }

// Info implements spec.Protocol.
func (Proto) Info() spec.Info {
	return spec.Info{Name: "fields", Messages: []string{probe: "probe", elected: "elected"}}
}

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Step implements spec.Protocol.
func (Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if ev.Kind == spec.Wake {
		s.phase = 1
		out.Send(0, spec.Message{Kind: probe, ID: s.ID})
	}
	return s
}
