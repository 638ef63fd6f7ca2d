// Package deephelper hides its impurity two calls below Step, where a
// reviewer reading Step would not see it.
package deephelper

import (
	"os"
	"time"

	"github.com/elcheck/elcheck/spec"
)

// Proto relays messages, with a debugging hook.
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
func (Proto) Info() spec.Info { return spec.Info{Name: "deephelper"} }

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State { return State{ID: d.ID()} }

// Step implements spec.Protocol.
func (p Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	p.relay(ev.Msg, out)
	return s
}

func (p Proto) relay(m spec.Message, out *spec.Outbox) {
	if shouldDrop(m) {
		return
	}
	out.Send(0, m)
}

func shouldDrop(m spec.Message) bool {
	if os.Getenv("ELCHECK_DROP") != "" { // want `os\.Getenv in Proto\.Step \(via Proto\.relay → shouldDrop\): I/O or the environment`
		return true
	}
	return time.Now().Unix()%2 == 0 // want `time\.Now in Proto\.Step \(via Proto\.relay → shouldDrop\): reads the clock`
}

// unused is reachable from nothing the protocol contract names: it is not
// checked.
func unused() int64 { return time.Now().Unix() }
