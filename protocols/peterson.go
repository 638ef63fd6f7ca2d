package protocols

import (
	"fmt"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Peterson's unidirectional O(n log n) algorithm (Peterson
// 1982, docs/references.md#peterson82) as the lecture slides "Leader Election
// Algorithms" write it ("Speeding up the basic algorithm"):
//
//	tid := initial value
//	do forever
//	    send(tid)
//	    receive(ntid)
//	    if ntid = initial value  announce elected
//	    if tid > ntid send(tid) else send(ntid)
//	    receive(nntid)
//	    if nntid = initial value  announce elected
//	    if ntid >= max(tid, nntid) tid := ntid else goto relay
//	end
//	relay: do forever
//	    receive(tid)
//	    if tid = initial value  announce elected
//	    send(tid)
//	end
//
// "initial value" is read as the process's own original id, and only the
// largest id, M, ever comes back to the process that started with it. Why:
// ids keep their cyclic order, and after each round an id either dies or
// moves to the next active process downstream; its messages reach at most
// the second active process downstream, the second hop only past a smaller
// id. Take x < M, started at X. If x dies in round 1 its messages made at
// most two hops, and not back to X even when n = 2, where the second hop
// would pass M. If it survives, X's upstream id was
// smaller than x, so no id moves into X: X relays for ever. Then, while x is
// alive, every other id sits strictly between X and x's holder going round,
// and the first id to move past X lands on x's holder, which kills x. So
// x's messages never reach X. M never dies, so it does get back to its
// owner: as ntid when n = 1, as nntid when n = 2, and through the relay loop
// otherwise. The tests check every placement up to n = 7.
//
// The slides stop at "announce elected"; elcheck's announcement is an
// "elected" message sent round the ring.

type petersonVariant uint8

const (
	petersonCorrect petersonVariant = iota
	// petersonNoRelay: the relay loop receives but forgets to send.
	petersonNoRelay
	// petersonNoCheck: the relay loop forgets the initial-value test.
	petersonNoCheck
)

// Peterson is the lecture slides' version of Peterson's unidirectional
// algorithm, max wins. In each round an active process sends its tid,
// receives its upstream active neighbour's (ntid), sends the larger of the
// two, receives nntid, and stays active with tid := ntid if ntid is at least
// tid and nntid; otherwise it relays for ever. The process whose own id comes back to it
// becomes leader, does not forward the id, and sends "elected" round the
// ring: every other process becomes lost on it (dropping a round it was in
// the middle of) and forwards it; the leader absorbs it, and absorbs every
// phase message still reaching it. The zero value is the correct protocol;
// the registry also holds "peterson-norelay" and "peterson-nocheck".
//
// Why nothing is left over: the leader sends nothing after "elected", and a
// process sends nothing after forwarding it, so no message ever follows
// "elected" on a channel. Phase messages ahead of it are handled normally;
// they can only move downstream to the leader, which absorbs them, so once
// "elected" is back every channel is empty. An active process waiting for
// ntid or nntid that will never come (the leader absorbed it) gets "elected"
// instead, since it goes all the way round.
type Peterson struct{ variant petersonVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[PetersonState](Peterson{variant: petersonCorrect}, Peterson{variant: petersonNoRelay}, Peterson{variant: petersonNoCheck})

// Peterson's message kinds; Info names them.
const (
	petersonTid spec.Kind = iota
	petersonElected
)

type petersonPhase uint8

const (
	petersonSleep  petersonPhase = iota // not woken, nothing received
	petersonNtid                        // active: sent tid, receive(ntid)
	petersonNntid                       // active: sent max(tid, ntid), receive(nntid)
	petersonRelay                       // relay: do forever receive, send
	petersonLeader                      // its own id came back
	petersonLost                        // "elected" passed
)

// PetersonState is a process's local state in Peterson.
type PetersonState struct {
	// ID is the process's initial value; Tid and Ntid are the slides'
	// variables while the process is active; Leader is the announced id.
	ID, Tid, Ntid, Leader spec.ID
	phase                 petersonPhase
}

// Decision implements spec.Local.
func (s PetersonState) Decision() spec.Decision {
	switch s.phase {
	case petersonLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case petersonLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *PetersonState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.ID(&s.Tid)
	c.ID(&s.Ntid)
	c.ID(&s.Leader)
}

// String implements spec.Local: "active tid=4 wait ntid", "relay".
func (s PetersonState) String() string {
	switch s.phase {
	case petersonNtid:
		return fmt.Sprintf("active tid=%d wait ntid", s.Tid)
	case petersonNntid:
		return fmt.Sprintf("active tid=%d ntid=%d wait nntid", s.Tid, s.Ntid)
	case petersonRelay:
		return "relay"
	case petersonLeader:
		return "leader"
	case petersonLost:
		return fmt.Sprintf("lost leader=%d", s.Leader)
	}
	return "sleep"
}

// petersonBound bounds the messages the algorithm sends on a ring of n.
// Peterson's paper gives 2n log n + O(n); here exactly: a round with k ≥ 2
// active processes sends 2 messages per active process, each travelling to
// the next active one, so 2n in all. Of two neighbouring active processes
// at most one survives (B keeps A's tid only if A's tid is at least both its
// neighbours', and then A cannot keep its own upstream's), so there are at
// most ⌊log₂ n⌋ such rounds. Then the last active process's tid, M, reaches
// M's owner within n hops, and "elected" makes n more. An earlier detection
// only cuts this short, since the leader absorbs what reaches it afterwards.
// Hence 2n⌊log₂ n⌋ + 2n, tighter than the 2n⌈log n⌉ + 3n first planned. It
// is not reached (the most for n = 2..7 is 7, 11, 20, 26, 33, 39), because M
// meets its owner before a whole last lap.
func petersonBound(n int) int { return 2*n*log2Floor(n) + 2*n }

// Info implements spec.Protocol.
func (p Peterson) Info() spec.Info {
	info := spec.Info{
		Name:     "peterson",
		Title:    "Peterson's unidirectional algorithm: each round keeps local maxima of three neighbouring active tids; the returning id announces itself",
		Source:   `Peterson 1982, as presented in the lecture slides "Leader Election Algorithms" ("Speeding up the basic algorithm", unidirectional); docs/references.md#peterson82, #slides-leader`,
		Topology: spec.UniRing,
		// A non-initiator joins as active on its first message, so every id
		// takes part.
		Winner:   spec.MaxAll,
		AllLearn: true,
		Messages: []string{petersonTid: "tid", petersonElected: "elected"},
		Bound:    spec.Bound{Formula: "2n⌊log n⌋ + 2n", Max: petersonBound},
		Channels: spec.FIFO,
	}
	switch p.variant {
	case petersonNoRelay:
		info.Name = "peterson-norelay"
		info.Title = "Peterson whose relay loop forgets to send"
		info.Bug = "the relay loop receives a tid and checks it but never sends it on, so the active processes downstream wait for ever"
		info.Breaks = "termination"
	case petersonNoCheck:
		info.Name = "peterson-nocheck"
		info.Title = "Peterson whose relay loop forgets the initial-value test"
		info.Bug = "only the active branch tests for the process's initial value, so the largest id, whose owner relays by then, circulates for ever and nobody announces"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol: tid := initial value.
func (Peterson) Init(env spec.Env) PetersonState {
	return PetersonState{ID: env.ID, Tid: env.ID}
}

// Step implements spec.Protocol.
func (p Peterson) Step(s PetersonState, ev spec.Event, out *spec.Outbox) PetersonState {
	if ev.Kind == spec.Wake {
		if s.phase == petersonSleep {
			s = petersonStart(s, out)
		}
		return s
	}
	if ev.Msg.Kind == petersonElected {
		if s.phase == petersonLeader {
			if out.Noting() {
				out.Note("own elected(%d) back: absorb", ev.Msg.ID)
			}
			return s // the announcement is back: absorb it
		}
		if out.Noting() {
			out.Note("elected(%d): leader is %d, relay", ev.Msg.ID, ev.Msg.ID)
		}
		// Everyone else learns the leader and stops, whatever round it
		// was in: its pending ntid or nntid is dropped.
		out.Send(next, ev.Msg)
		return PetersonState{ID: s.ID, Leader: ev.Msg.ID, phase: petersonLost}
	}

	// A phase message carrying v.
	v := ev.Msg.ID
	switch s.phase {
	case petersonSleep:
		// A process woken by a message joins as active: "send(tid)"
		// first, then the message is its ntid.
		s = petersonStart(s, out)
	case petersonLeader, petersonLost:
		// The leader absorbs its id coming back again and whatever phase
		// message is still ahead of "elected" (see Peterson). A lost
		// process never gets one: nothing follows "elected".
		return s
	}
	if v == s.ID && !(p.variant == petersonNoCheck && s.phase == petersonRelay) {
		// "if ... = initial value announce elected": the id went round.
		// It is not forwarded; "elected" goes round instead.
		if out.Noting() {
			out.Note("tid(%d) = own id: elected", v)
		}
		s = PetersonState{ID: s.ID, Leader: s.ID, phase: petersonLeader}
		out.Send(next, spec.Message{Kind: petersonElected, ID: s.ID})
		return s
	}
	switch s.phase {
	case petersonNtid:
		// "receive(ntid); if tid > ntid send(tid) else send(ntid)".
		if out.Noting() {
			out.Note("ntid := %d, send max(tid %d, ntid %d)", v, s.Tid, v)
		}
		s.Ntid = v
		s.phase = petersonNntid
		out.Send(next, spec.Message{Kind: petersonTid, ID: max(s.Tid, s.Ntid)})
	case petersonNntid:
		// "receive(nntid); if ntid >= max(tid, nntid) then tid := ntid
		// else goto relay".
		if s.Ntid >= max(s.Tid, v) {
			if out.Noting() {
				out.Note("ntid %d >= max(tid %d, nntid %d): active, tid := %d", s.Ntid, s.Tid, v, s.Ntid)
			}
			s.Tid, s.Ntid = s.Ntid, spec.None
			s = petersonStart(s, out) // "do forever": the next round's send(tid)
		} else {
			if out.Noting() {
				out.Note("ntid %d < max(tid %d, nntid %d): relay", s.Ntid, s.Tid, v)
			}
			s = PetersonState{ID: s.ID, phase: petersonRelay}
		}
	case petersonRelay:
		// "receive(tid); send(tid)".
		if p.variant != petersonNoRelay {
			if out.Noting() {
				out.Note("relay: pass tid(%d) on", v)
			}
			out.Send(next, ev.Msg)
		} else if out.Noting() {
			out.Note("relay: drop tid(%d)", v)
		}
	}
	return s
}

// petersonStart is the top of the active loop: "send(tid)", then receive(ntid).
func petersonStart(s PetersonState, out *spec.Outbox) PetersonState {
	out.Send(next, spec.Message{Kind: petersonTid, ID: s.Tid})
	s.phase = petersonNtid
	return s
}
