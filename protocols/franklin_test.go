package protocols

import (
	"slices"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// franklinEvent is one event of a hand-run of one Franklin process: what it
// receives (nothing: a wake-up), what it must send and the state after.
type franklinEvent struct {
	port  spec.Port
	msg   *spec.Message
	sends []spec.Send
	state string
}

// fid is the message (id, round); fleader the announcement of id.
func fid(id spec.ID, round int32) *spec.Message {
	return &spec.Message{Kind: franklinIDMsg, ID: id, Arg: [2]int32{round}}
}

func fleader(id spec.ID) *spec.Message { return &spec.Message{Kind: franklinLeaderMsg, ID: id} }

// fsend is a send of m on port p.
func fsend(p spec.Port, m *spec.Message) spec.Send { return spec.Send{Port: p, Msg: *m} }

// TestFranklinHandRun runs one process through executions worked out by
// hand, including a neighbour's next-round id arriving early, and checks
// every message it sends and every state it passes.
func TestFranklinHandRun(t *testing.T) {
	tests := []struct {
		name    string
		variant franklinVariant
		id      spec.ID
		events  []franklinEvent
	}{
		{"the largest id: keeps a round-1 id aside, wins, absorbs its announcement", franklinCorrect, 5, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(5, 0)), fsend(1, fid(5, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 0, msg: fid(2, 0), state: "active r=0 got=[2 -] early=[- -]"},
			// The port-0 neighbour beyond 2 is already in round 1.
			{port: 0, msg: fid(4, 1), state: "active r=0 got=[2 -] early=[4 -]"},
			{port: 1, msg: fid(1, 0), sends: []spec.Send{fsend(0, fid(5, 1)), fsend(1, fid(5, 1))}, state: "active r=1 got=[4 -] early=[- -]"},
			{port: 1, msg: fid(3, 1), sends: []spec.Send{fsend(0, fid(5, 2)), fsend(1, fid(5, 2))}, state: "active r=2 got=[- -] early=[- -]"},
			{port: 1, msg: fid(5, 2), state: "active r=2 got=[- 5] early=[- -]"},
			{port: 0, msg: fid(5, 2), sends: []spec.Send{fsend(0, fleader(5))}, state: "leader"},
			{port: 1, msg: fleader(5), state: "leader"},
		}},
		{"a smaller id: drops out, relays what it kept, learns the leader", franklinCorrect, 2, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(2, 0)), fsend(1, fid(2, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 1, msg: fid(5, 0), state: "active r=0 got=[- 5] early=[- -]"},
			{port: 1, msg: fid(5, 1), state: "active r=0 got=[- 5] early=[- 5]"},
			{port: 0, msg: fid(1, 0), sends: []spec.Send{fsend(0, fid(5, 1))}, state: "passive"},
			{port: 0, msg: fid(4, 1), sends: []spec.Send{fsend(1, fid(4, 1))}, state: "passive"},
			{port: 1, msg: fleader(5), sends: []spec.Send{fsend(0, fleader(5))}, state: "lost leader=5"},
		}},
		{"a sleeping process joins in round 0 on its first message", franklinCorrect, 4, []franklinEvent{
			{port: 1, msg: fid(2, 0), sends: []spec.Send{fsend(0, fid(4, 0)), fsend(1, fid(4, 0))}, state: "active r=0 got=[- 2] early=[- -]"},
		}},
		{"alone on a ring of 1: its id comes back on the other port", franklinCorrect, 1, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(1, 0)), fsend(1, fid(1, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 1, msg: fid(1, 0), state: "active r=0 got=[- 1] early=[- -]"},
			{port: 0, msg: fid(1, 0), sends: []spec.Send{fsend(0, fleader(1))}, state: "leader"},
			{port: 1, msg: fleader(1), state: "leader"},
		}},
		{"dropearly: the kept id is lost", franklinDropEarly, 2, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(2, 0)), fsend(1, fid(2, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 1, msg: fid(5, 0), state: "active r=0 got=[- 5] early=[- -]"},
			{port: 1, msg: fid(5, 1), state: "active r=0 got=[- 5] early=[- 5]"},
			{port: 0, msg: fid(1, 0), state: "passive"},
		}},
		{"noround: the early id fills the other side", franklinNoRound, 2, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(2, 0)), fsend(1, fid(2, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 1, msg: fid(5, 0), state: "active r=0 got=[- 5] early=[- -]"},
			{port: 1, msg: fid(5, 1), state: "passive"},
		}},
		{"oneside: larger than port 0's id is enough", franklinOneSide, 3, []franklinEvent{
			{msg: nil, sends: []spec.Send{fsend(0, fid(3, 0)), fsend(1, fid(3, 0))}, state: "active r=0 got=[- -] early=[- -]"},
			{port: 0, msg: fid(1, 0), state: "active r=0 got=[1 -] early=[- -]"},
			{port: 1, msg: fid(5, 0), sends: []spec.Send{fsend(0, fid(3, 1)), fsend(1, fid(3, 1))}, state: "active r=1 got=[- -] early=[- -]"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Franklin{variant: tt.variant}
			s := p.Init(spec.Env{ID: tt.id, Ports: 2})
			for i, e := range tt.events {
				ev := spec.Event{Kind: spec.Wake}
				if e.msg != nil {
					ev = spec.Event{Kind: spec.Deliver, Port: e.port, Msg: *e.msg}
				}
				var out spec.Outbox
				s = p.Step(s, ev, &out)
				if !slices.Equal(out.Sends(), e.sends) || s.String() != e.state {
					t.Fatalf("event %d (%v): sent %v, now %q; want %v, %q", i, ev, out.Sends(), s, e.sends, e.state)
				}
			}
		})
	}
}
