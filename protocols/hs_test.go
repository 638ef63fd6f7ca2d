package protocols

import (
	"slices"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// TestHSSteps hand-runs the slides' rules one step at a time: which
// messages go out of which port, and the state after.
func TestHSSteps(t *testing.T) {
	from := func(id spec.ID, num, maxnum int32) spec.Message {
		return spec.Message{Kind: hsFrom, ID: id, Arg: [2]int32{num, maxnum}}
	}
	reply := func(k spec.Kind, id spec.ID) spec.Message { return spec.Message{Kind: k, ID: id} }
	deliver := func(p spec.Port, m spec.Message) spec.Event {
		return spec.Event{Kind: spec.Deliver, Port: p, Msg: m}
	}
	cand := func(id spec.ID, k, oks uint8) HSState {
		return HSState{ID: id, status: hsCandidate, phase: k, oks: oks}
	}
	lost := HSState{ID: 3, status: hsLost}
	won := HSState{ID: 5, status: hsWon, Leader: 5}
	tests := []struct {
		name  string
		p     HS
		s     HSState
		ev    spec.Event
		want  HSState
		sends []spec.Send
	}{
		{"wake: sendboth, maxnum 1", HS{}, HSState{ID: 3}, spec.Event{Kind: spec.Wake},
			cand(3, 0, 0), []spec.Send{{Port: 0, Msg: from(3, 0, 1)}, {Port: 1, Msg: from(3, 0, 1)}}},
		{"a sleeper runs first, then echoes ok at the end of the range", HS{}, HSState{ID: 3}, deliver(1, from(5, 0, 1)),
			lost, []spec.Send{{Port: 0, Msg: from(3, 0, 1)}, {Port: 1, Msg: from(3, 0, 1)}, {Port: 1, Msg: reply(hsOK, 5)}}},
		{"a larger probe within its range is passed on", HS{}, cand(3, 1, 1), deliver(0, from(5, 0, 2)),
			lost, []spec.Send{{Port: 1, Msg: from(5, 1, 2)}}},
		{"a smaller probe is answered no", HS{}, cand(5, 0, 0), deliver(0, from(3, 0, 1)),
			cand(5, 0, 0), []spec.Send{{Port: 0, Msg: reply(hsNo, 3)}}},
		{"a reply for another is passed on", HS{}, lost, deliver(0, reply(hsOK, 5)),
			lost, []spec.Send{{Port: 1, Msg: reply(hsOK, 5)}}},
		{"the first ok is counted", HS{}, cand(5, 1, 0), deliver(1, reply(hsOK, 5)),
			cand(5, 1, 1), nil},
		{"the second ok doubles maxnum", HS{}, cand(5, 1, 1), deliver(0, reply(hsOK, 5)),
			cand(5, 2, 0), []spec.Send{{Port: 0, Msg: from(5, 0, 4)}, {Port: 1, Msg: from(5, 0, 4)}}},
		{"a no loses", HS{}, cand(3, 1, 1), deliver(0, reply(hsNo, 3)), lost, nil},
		{"a reply to a lost process is absorbed", HS{}, lost, deliver(1, reply(hsOK, 3)), lost, nil},
		{"the probe comes home: won", HS{}, cand(5, 2, 0), deliver(1, from(5, 2, 4)), won, nil},
		{"its twin finds it won", HS{}, won, deliver(0, from(5, 2, 4)), won, nil},
		{"announce: won, then leader behind the probe", HS{variant: hsAnnounce}, cand(5, 2, 0), deliver(1, from(5, 2, 4)),
			won, []spec.Send{{Port: 0, Msg: reply(hsLeader, 5)}}},
		{"announce: a lost process learns and passes", HS{variant: hsAnnounce}, lost, deliver(1, reply(hsLeader, 5)),
			HSState{ID: 3, status: hsLost, Leader: 5}, []spec.Send{{Port: 0, Msg: reply(hsLeader, 5)}}},
		{"announce: the leader absorbs it", HS{variant: hsAnnounce}, won, deliver(1, reply(hsLeader, 5)), won, nil},
		{"announce: a leader learnt survives a larger probe", HS{variant: hsAnnounce}, HSState{ID: 3, status: hsLost, Leader: 5}, deliver(0, from(5, 0, 2)),
			HSState{ID: 3, status: hsLost, Leader: 5}, []spec.Send{{Port: 1, Msg: from(5, 1, 2)}}},
		{"hs-flip passes a smaller probe", HS{variant: hsFlip}, cand(5, 0, 0), deliver(0, from(3, 0, 2)),
			HSState{ID: 5, status: hsLost}, []spec.Send{{Port: 1, Msg: from(3, 1, 2)}}},
		{"hs-replyback sends a reply back", HS{variant: hsReplyBack}, lost, deliver(0, reply(hsOK, 5)),
			lost, []spec.Send{{Port: 0, Msg: reply(hsOK, 5)}}},
		{"hs-oneway probes out of port 0 only", HS{variant: hsOneWay}, HSState{ID: 3}, spec.Event{Kind: spec.Wake},
			cand(3, 0, 0), []spec.Send{{Port: 0, Msg: from(3, 0, 1)}}},
		{"hs-announce-noabsorb forwards its own leader", HS{variant: hsAnnounceNoAbsorb}, won, deliver(1, reply(hsLeader, 5)),
			won, []spec.Send{{Port: 0, Msg: reply(hsLeader, 5)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out spec.Outbox
			got := tt.p.Step(tt.s, tt.ev, &out)
			if got != tt.want {
				t.Errorf("state %s (%+v), want %s (%+v)", got, got, tt.want, tt.want)
			}
			if !slices.Equal(out.Sends(), tt.sends) {
				t.Errorf("sent %v, want %v", out.Sends(), tt.sends)
			}
		})
	}
}

// TestHSBound pins the textbook bound and the logarithm it rounds up.
func TestHSBound(t *testing.T) {
	for _, tt := range []struct{ n, log, bound int }{
		{1, 0, 8}, {2, 1, 32}, {3, 2, 72}, {4, 2, 96}, {5, 3, 160}, {7, 3, 224}, {8, 3, 256}, {9, 4, 360},
	} {
		if got := log2Ceil(tt.n); got != tt.log {
			t.Errorf("log2Ceil(%d) = %d, want %d", tt.n, got, tt.log)
		}
		if got := hsBound(tt.n); got != tt.bound {
			t.Errorf("hsBound(%d) = %d, want %d", tt.n, got, tt.bound)
		}
	}
}
