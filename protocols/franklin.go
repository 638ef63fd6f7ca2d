package protocols

import (
	"fmt"
	"math/big"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Franklin's algorithm (W. R. Franklin 1982,
// docs/references.md#franklin82) on a two-way ring. Vitányi 1983
// (docs/references.md#vitanyi83) summarises it in a sentence with its worst
// case, 2N⌊log N⌋ + 3N; the pseudo-code is elcheck's (docs/protocols/franklin.md
// says where the summary is silent):
//
//	round := 0; active
//	do while active
//	    send (id, round) both ways
//	    receive (q, round) from each side       // the nearest active id there
//	    if q = id on both sides   leader; send leader(id) one way; stop
//	    if id < q on either side  passive
//	    round := round + 1
//	passive: do forever
//	    receive m on one side; send m out of the other
//
// "Both ways" is out of ports 0 and 1, whichever way round they lead, and
// a passive process relays out of the port it did not receive on, so the
// algorithm needs no sense of direction (verify -orientation=any checks
// it). A sleeping process joins on its first message as an active process
// of round 0, so every id takes part and the largest wins.
//
// A neighbour may already be in the next round: on FIFO channels a message
// of round r+1 from one side can arrive before this round's from the other
// side (never two rounds ahead: that neighbour's round r+2 needs this
// process's round r+1). The process keeps it aside, by side, until its turn;
// if the process turns passive meanwhile, it relays what it kept.

type franklinVariant uint8

const (
	franklinCorrect franklinVariant = iota
	// franklinOneSide compares with the neighbour on port 0's side only.
	franklinOneSide
	// franklinNoRound counts messages instead of sides: a next-round message
	// is taken as this round's from the side still missing.
	franklinNoRound
	// franklinDropEarly forgets the next-round message it kept aside when it
	// turns passive.
	franklinDropEarly
)

// Franklin's message kinds; Info names them.
const (
	franklinIDMsg     spec.Kind = iota // (id, round), Arg[0] = round
	franklinLeaderMsg                  // the survivor's announcement
)

// Franklin is Franklin's bidirectional algorithm, max wins. In each round
// an active process sends its id both ways and stays active only if its id
// is larger than those of both nearest active processes; passive processes
// relay. The process whose own id comes back from both sides is the only
// active one left: it becomes leader and sends "leader" round the ring out
// of port 0; every other process learns the leader from it and forwards it,
// and the leader absorbs it. The zero value is the correct protocol; the
// registry also holds "franklin-oneside", "franklin-noround" and
// "franklin-dropearly".
type Franklin struct{ variant franklinVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[FranklinState](Franklin{variant: franklinCorrect}, Franklin{variant: franklinOneSide},
	Franklin{variant: franklinNoRound}, Franklin{variant: franklinDropEarly})

type franklinPhase uint8

const (
	franklinSleep   franklinPhase = iota // not woken, nothing received
	franklinActive                       // sent (id, Round) both ways
	franklinPassive                      // relays everything
	franklinLeader                       // its id came back from both sides
	franklinLost                         // "leader" passed
)

// FranklinState is a process's local state in Franklin.
type FranklinState struct {
	ID    spec.ID
	phase franklinPhase
	// Round is the active process's round.
	Round uint8
	// Got[p] is the id of this round received on port p (None: not yet);
	// Early[p] the next round's, received before this round was complete.
	Got, Early [2]spec.ID
	// Leader is the announced id.
	Leader spec.ID
}

// Decision implements spec.Local.
func (s FranklinState) Decision() spec.Decision {
	switch s.phase {
	case franklinLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case franklinLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *FranklinState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	spec.Uint(c, &s.Round)
	for p := range 2 {
		c.ID(&s.Got[p])
		c.ID(&s.Early[p])
	}
	c.ID(&s.Leader)
}

// String implements spec.Local: "active r=1 got=[3 -] early=[- 5]",
// "passive", "lost leader=5".
func (s FranklinState) String() string {
	switch s.phase {
	case franklinActive:
		return fmt.Sprintf("active r=%d got=%s early=%s", s.Round, franklinPair(s.Got), franklinPair(s.Early))
	case franklinPassive:
		return "passive"
	case franklinLeader:
		return "leader"
	case franklinLost:
		return fmt.Sprintf("lost leader=%d", s.Leader)
	}
	return "sleep"
}

// franklinPair renders the ids kept by port, "-" for none: "[3 -]".
func franklinPair(ids [2]spec.ID) string {
	str := func(id spec.ID) string {
		if id == spec.None {
			return "-"
		}
		return fmt.Sprint(id)
	}
	return "[" + str(ids[0]) + " " + str(ids[1]) + "]"
}

// franklinBound is Franklin's worst case as Vitányi 1983 quotes it,
// 2N⌊log N⌋ + 3N. Exactly: a round with k ≥ 2 active processes sends 2N
// messages (each active process's two travel to the nearest active process
// each way); of two neighbouring active processes the smaller drops out, so
// at most ⌊k/2⌋ survive and there are at most ⌊log₂ N⌋ such rounds. The last
// active process's two messages then go all the way round (2N) and the
// announcement makes N more: the 3N includes it. Some placement reaches it
// at every n = 1 to 7 (ids that halve the active processes every round).
func franklinBound(n int) int { return 2*n*log2Floor(n) + 3*n }

// Info implements spec.Protocol.
func (p Franklin) Info() spec.Info {
	info := spec.Info{
		Name:     "franklin",
		Title:    "Franklin: active processes send their id both ways and survive only as local maxima; the returning id announces itself",
		Source:   `W. R. Franklin 1982, as Vitányi 1983 summarises it ("Previous Solutions for Elections in Asynchronous Rings", bidirectional, 2N⌊log N⌋ + 3N); docs/references.md#franklin82, #vitanyi83`,
		Topology: spec.BiRing,
		// A non-initiator joins as active on its first message, so every id
		// takes part.
		Winner:   spec.MaxAll,
		AllLearn: true,
		Messages: []string{franklinIDMsg: "id", franklinLeaderMsg: "leader"},
		Bound:    spec.Bound{Formula: "2N⌊log N⌋ + 3N", Max: franklinBound},
		Channels: spec.FIFO,
		Literature: []spec.Formula{
			{Measure: "messages", Stat: "max", Rel: spec.AtMost, Text: "2N⌊log N⌋ + 3N", Source: `vitanyi83, "Previous Solutions for Elections in Asynchronous Rings": "In [Fr] a method with bidirectional message passing is given using a worst case amount of 2N⌊log N⌋ + 3N message passes"`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(int64(franklinBound(int(n))), 1) })},
		},
	}
	switch p.variant {
	case franklinOneSide:
		info.Name = "franklin-oneside"
		info.Title = "Franklin comparing with one neighbour only"
		info.Bug = "an active process stays active when its id is larger than the one received on port 0, ignoring port 1's"
		info.Breaks = "message-bound"
	case franklinNoRound:
		info.Name = "franklin-noround"
		info.Title = "Franklin that counts messages instead of sides"
		info.Bug = "an active process waits for any two messages, so a neighbour's next-round id, arriving before this round's from the other side, is taken as that side's id of this round: the largest id can end a round with a stale id on one side and its own id, come round, on the other, and drop out, so nobody is elected"
		info.Breaks = "termination"
	case franklinDropEarly:
		info.Name = "franklin-dropearly"
		info.Title = "Franklin that forgets a next-round message when it turns passive"
		info.Bug = "an active process that drops out throws away the next-round id it had kept aside instead of relaying it, so the process it was meant for waits for ever"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol.
func (Franklin) Init(env spec.Env) FranklinState { return FranklinState{ID: env.ID} }

// Step implements spec.Protocol.
func (p Franklin) Step(s FranklinState, ev spec.Event, out *spec.Outbox) FranklinState {
	if ev.Kind == spec.Wake {
		if s.phase == franklinSleep {
			s = franklinSend(s, out)
		}
		return s
	}
	in, other := ev.Port, 1-ev.Port
	if ev.Msg.Kind == franklinLeaderMsg {
		if s.phase == franklinLeader {
			return s // the announcement is back: absorb it
		}
		out.Send(other, ev.Msg)
		return FranklinState{ID: s.ID, phase: franklinLost, Leader: ev.Msg.ID}
	}
	switch s.phase {
	case franklinSleep:
		// A non-initiator joins on its first message: round 0.
		s = franklinSend(s, out)
	case franklinActive:
	default:
		// Passive: relay. (The leader and lost processes get no ids: every
		// id message is consumed before the last round ends.)
		out.Send(other, ev.Msg)
		return s
	}
	switch r := uint8(ev.Msg.Arg[0]); {
	case p.variant == franklinNoRound:
		// The bug: any two messages make a round.
		if s.Got[in] != spec.None {
			in = other
		}
		s.Got[in] = ev.Msg.ID
	case r == s.Round:
		s.Got[in] = ev.Msg.ID
	default:
		// r = Round+1: that neighbour is a round ahead; keep it.
		s.Early[in] = ev.Msg.ID
	}
	return p.endRound(s, out)
}

// endRound ends the round once both sides' ids are in: leader if they are
// its own, passive if either is larger, else on to the next round, whose
// ids may already be in.
func (p Franklin) endRound(s FranklinState, out *spec.Outbox) FranklinState {
	for s.Got[0] != spec.None && s.Got[1] != spec.None {
		if s.Got[0] == s.ID && s.Got[1] == s.ID {
			// Its id went round both ways: no other process is active.
			out.Send(0, spec.Message{Kind: franklinLeaderMsg, ID: s.ID})
			return FranklinState{ID: s.ID, phase: franklinLeader, Leader: s.ID}
		}
		larger := s.ID > s.Got[0] && s.ID > s.Got[1]
		if p.variant == franklinOneSide {
			larger = s.ID > s.Got[0] // the bug
		}
		if !larger {
			// Passive from now on: what was kept for the next round is
			// relayed on, unless the bug forgets it.
			for q, id := range s.Early {
				if id != spec.None && p.variant != franklinDropEarly {
					out.Send(spec.Port(1-q), spec.Message{Kind: franklinIDMsg, ID: id, Arg: [2]int32{int32(s.Round) + 1}})
				}
			}
			return FranklinState{ID: s.ID, phase: franklinPassive}
		}
		s.Round++
		s.Got, s.Early = s.Early, [2]spec.ID{}
		s = franklinSend(s, out)
	}
	return s
}

// franklinSend starts round s.Round: "send (id, round) both ways".
func franklinSend(s FranklinState, out *spec.Outbox) FranklinState {
	s.phase = franklinActive
	for q := range spec.Port(2) {
		out.Send(q, spec.Message{Kind: franklinIDMsg, ID: s.ID, Arg: [2]int32{int32(s.Round)}})
	}
	return s
}
