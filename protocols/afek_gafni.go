package protocols

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Afek and Gafni's algorithm B for election on a complete
// network (Afek and Gafni 1985/1991, docs/references.md#afekgafni), as the
// notes "Afek-Gafni algorithm B" give it (#notes-afekgafni), with the
// message kinds of the implementation they describe. Each node runs a
// candidate (if it initiates) and an ordinary process. A candidate
// captures the other nodes one by one, its level being the number it has
// captured; (level, id) pairs compare lexicographically:
//
//	Candidate process (an initiator):
//	  while untraversed ≠ ∅
//	    choose l in untraversed; send ARRIVE(level, id) along l
//	    R: receive
//	      ACCEPT_ANSWER(level, id) from l and not killed: level++; untraversed -= l
//	      ASK(level', id') from l':                 (an ordinary it owns asks)
//	        killed:                        send DEAD along l'
//	        (level', id') < (level, id):   send ANSWER_DENY_CANDIDATE along l'
//	        else:                          killed := true; send ANSWER_ACCEPT_CANDIDATE along l'
//	  if not killed: announce ELECTED: send LEADER(id) to all
//
//	Ordinary process, on ARRIVE(level', id') from l' (the candidate of node l'):
//	  (level', id') < (level, owner_id):   discard (that candidate is killed)
//	  father = nil, or its own candidate, now beaten or dead:
//	                                        capture: father := l'; take (level', id');
//	                                        send ACCEPT_ANSWER along l'
//	  else:  potential_father := l'; send ASK(level', id') along father;
//	         WAIT_FOR_ANSWER (other ARRIVEs wait in the queue) until
//	           ANSWER_ACCEPT_CANDIDATE or DEAD: capture by potential_father
//	           ANSWER_DENY_CANDIDATE: the newcomer is killed (no answer)
//
//	Ending: every node that gets LEADER(id) sends END to the leader and
//	ends; the leader, with END from all n-1, sends END to all: 3(n-1).
//
// Choices made where the notes are silent (docs/protocols/afek-gafni.md):
// a node that does not initiate has no candidate, and its ordinary process
// is captured by the first ARRIVE; a candidate's own node is its own at
// its current level until another captures it; a killed candidate stops
// sending ARRIVE and answers DEAD; "choose l" is a choice the explorer
// covers (spec.Outbox.Choose). The ordinary process waits for the answer
// to its ASK, queueing other ARRIVEs: the notes' change for channels that
// hold one message, kept for unbounded ones too.

type agVariant uint8

const (
	agCorrect agVariant = iota
	// agLevelOnly compares levels without ids: ties lose.
	agLevelOnly
	// agNoQueue lets a waiting ordinary process ask again.
	agNoQueue
)

// Afek-Gafni's message kinds; Info names them. Pairs (level, id) travel
// as ID = id, Arg[0] = level.
const (
	agArrive spec.Kind = iota // candidate → ordinary: capture attempt
	agAccept                  // ordinary → candidate: ACCEPT_ANSWER
	agAsk                     // ordinary → its father's candidate
	agYes                     // ANSWER_ACCEPT_CANDIDATE: the father is killed
	agNo                      // ANSWER_DENY_CANDIDATE: the newcomer loses
	agDead                    // DEAD: the father was killed before
	agLeader                  // LEADER(id)
	agEnd                     // END
)

// AfekGafni is Afek and Gafni's algorithm B on the complete graph. The
// zero value is the correct protocol; the registry also holds
// "afek-gafni-levelonly" and "afek-gafni-noqueue".
type AfekGafni struct{ variant agVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[AGState](AfekGafni{variant: agCorrect}, AfekGafni{variant: agLevelOnly}, AfekGafni{variant: agNoQueue})

type agCand uint8

const (
	agNone    agCand = iota // not an initiator: no candidate
	agActive                // capturing; Waiting while its ARRIVE is out
	agKilled                // beaten: answers DEAD
	agElected               // captured every node
)

// agNoPort marks Cur, Father and PFather before they name a port
// (spec.PortField leaves it as it is).
const agNoPort = 0xff

// agFather says who owns the node's ordinary process.
type agFather uint8

const (
	agNobody agFather = iota // never captured, no candidate of its own
	agSelf                   // its own candidate
	agPort                   // the candidate behind port Father
)

// agPending is an ARRIVE the ordinary process keeps while it waits.
type agPending struct {
	Port  uint8
	Level uint8
	ID    spec.ID
}

// AGState is a node's local state: its candidate's, its ordinary
// process's, and the ending's.
type AGState struct {
	ID    spec.ID
	Ports uint8
	// The candidate: its status, level, the ports not yet captured, and
	// the port of the ARRIVE it waits on.
	Cand    agCand
	Level   uint8
	Untrav  uint16
	Waiting bool
	Cur     uint8
	// The ordinary process: the (level, owner) of its owner and who that
	// is; while Asking, the newcomer (PLevel, PID) from port PFather
	// waits on the father's answer, and Queue holds later ARRIVEs.
	OLevel  uint8
	Owner   spec.ID
	FKind   agFather
	Father  uint8
	Asking  bool
	PFather uint8
	PLevel  uint8
	PID     spec.ID
	Queue   []agPending
	// The ending: the leader's id once known, the ENDs the leader has,
	// and whether the node has ended.
	Leader spec.ID
	Ends   uint8
	Done   bool
}

// Decision implements spec.Local: the leader once elected, the others
// once they know it.
func (s AGState) Decision() spec.Decision {
	switch {
	case s.Cand == agElected:
		return spec.Decision{Status: spec.Elected, Leader: s.ID}
	case s.Leader != spec.None:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *AGState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.Ports)
	spec.Uint(c, &s.Cand)
	spec.Uint(c, &s.Level)
	spec.PortSetField(c, &s.Untrav)
	c.Bool(&s.Waiting)
	spec.PortField(c, &s.Cur)
	spec.Uint(c, &s.OLevel)
	c.ID(&s.Owner)
	spec.Uint(c, &s.FKind)
	spec.PortField(c, &s.Father)
	c.Bool(&s.Asking)
	spec.PortField(c, &s.PFather)
	spec.Uint(c, &s.PLevel)
	c.ID(&s.PID)
	n := uint8(len(s.Queue))
	spec.Uint(c, &n)
	if c.Decoding() {
		s.Queue = make([]agPending, n)
	}
	for i := range s.Queue {
		spec.PortField(c, &s.Queue[i].Port)
		spec.Uint(c, &s.Queue[i].Level)
		c.ID(&s.Queue[i].ID)
	}
	c.ID(&s.Leader)
	spec.Uint(c, &s.Ends)
	c.Bool(&s.Done)
}

// String implements spec.Local, e.g. "cand L1 untrav=[1] wait@0 | own
// (1,5) self", "dead | own (2,7) @1 asking (2,9)@0 queue 1", "lost 9".
func (s AGState) String() string {
	switch {
	case s.Done && s.Cand == agElected:
		return "leader, ended"
	case s.Done:
		return fmt.Sprintf("lost %d, ended", s.Leader)
	case s.Cand == agElected:
		return fmt.Sprintf("leader, ends %d/%d", s.Ends, s.Ports)
	case s.Leader != spec.None:
		return fmt.Sprintf("lost %d", s.Leader)
	}
	var c string
	switch s.Cand {
	case agNone:
		c = "-"
	case agKilled:
		c = "dead"
	default:
		var ports []int
		for q := range int(s.Ports) {
			if s.Untrav&(1<<q) != 0 {
				ports = append(ports, q)
			}
		}
		c = fmt.Sprintf("cand L%d untrav=%v", s.Level, ports)
		if s.Waiting {
			c += fmt.Sprintf(" wait@%d", s.Cur)
		}
	}
	o := "free"
	switch s.FKind {
	case agSelf:
		o = fmt.Sprintf("(%d,%d) self", s.OLevel, s.Owner)
	case agPort:
		o = fmt.Sprintf("(%d,%d) @%d", s.OLevel, s.Owner, s.Father)
	}
	if s.Asking {
		o += fmt.Sprintf(" asking (%d,%d)@%d", s.PLevel, s.PID, s.PFather)
	}
	if len(s.Queue) > 0 {
		o += fmt.Sprintf(" queue %d", len(s.Queue))
	}
	return c + " | " + o
}

// agBound is the notes' Lemma 2 with its ending: 4n·H_n + 3(n - 1),
// rounded down.
func agBound(n int) int {
	if n < 1 {
		return 0
	}
	b := new(big.Rat).Mul(big.NewRat(int64(4*n), 1), spec.Harmonic(int64(n)))
	b.Add(b, big.NewRat(int64(3*(n-1)), 1))
	return int(new(big.Int).Quo(b.Num(), b.Denom()).Int64())
}

// Info implements spec.Protocol.
func (p AfekGafni) Info() spec.Info {
	info := spec.Info{
		Name:     "afek-gafni",
		Title:    "Afek-Gafni algorithm B: candidates capture the nodes of a complete graph by (level, id); the one that captures all is leader",
		Source:   `Afek and Gafni 1991, as the notes "Afek-Gafni algorithm B" give it ("Candidate Process", "Ordinary Process", "Implementation details"); docs/references.md#afekgafni, #notes-afekgafni`,
		Topology: spec.Complete,
		Winner:   spec.AnyInitiator,
		AllLearn: true,
		Messages: []string{agArrive: "arrive", agAccept: "accept", agAsk: "ask", agYes: "yes", agNo: "no", agDead: "dead", agLeader: "leader", agEnd: "end"},
		Bound:    spec.Bound{Formula: "4n·H_n + 3(n-1)", Max: agBound},
		Channels: spec.FIFO,
		Chooses:  true,
		// It answers on the port a message came on, sends on every port or
		// on one it chooses among its untraversed ones, and keeps its ports
		// in PortField and PortSetField.
		PortBlind: true,
		Literature: []spec.Formula{
			{Measure: "messages", Stat: "max", Rel: spec.AtMost, Text: "4n·H_n + 3(n-1)", Source: `notes-afekgafni, "Proof of complexity", Lemma 2: "the total send messages is bounded by 4n sum 1/i plus the messages by ending sequence which is equal to 3(n-1)"`,
				Value: spec.Poly(func(n int64) *big.Rat {
					b := new(big.Rat).Mul(big.NewRat(4*n, 1), spec.Harmonic(n))
					return b.Add(b, big.NewRat(3*(n-1), 1))
				})},
		},
	}
	switch p.variant {
	case agLevelOnly:
		info.Name = "afek-gafni-levelonly"
		info.Title = "Afek-Gafni comparing levels without ids"
		info.Bug = "captures compare levels only, and a tie keeps the owner: two candidates of equal level that meet both lose, and with every candidate at level 0 none captures anything"
		info.Breaks = "termination"
	case agNoQueue:
		info.Name = "afek-gafni-noqueue"
		info.Title = "Afek-Gafni whose waiting ordinary process asks again"
		info.Bug = "an ordinary process that waits for its father's answer handles a second ARRIVE at once instead of queueing it and asks again: the answer to the first ASK is taken for the second newcomer, and the first, denied or accepted, never hears; with every candidate waiting on an answer that never comes, nobody is elected"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol.
func (AfekGafni) Init(env spec.Env) AGState {
	return AGState{ID: env.ID, Ports: uint8(env.Ports), Cur: agNoPort, Father: agNoPort, PFather: agNoPort}
}

// Step implements spec.Protocol.
func (p AfekGafni) Step(s AGState, ev spec.Event, out *spec.Outbox) AGState {
	if ev.Kind == spec.Wake {
		// An initiator: its candidate starts, owning its own node.
		s.Cand, s.Untrav = agActive, 1<<s.Ports-1
		s.FKind, s.OLevel, s.Owner = agSelf, 0, s.ID
		return p.next(s, out)
	}
	m, q := ev.Msg, uint8(ev.Port)
	if s.Done {
		return s // ended: what still comes is read and dropped
	}
	switch m.Kind {
	case agLeader: // another node is leader: END to it, and wait for its END
		s.Leader, s.Cand, s.Waiting, s.Asking, s.Queue = m.ID, agKilled, false, false, nil
		out.Send(ev.Port, spec.Message{Kind: agEnd})
		return s
	case agEnd:
		if s.Cand == agElected {
			if s.Ends++; s.Ends == s.Ports {
				s.Done = true
				for t := range int(s.Ports) {
					out.Send(spec.Port(t), spec.Message{Kind: agEnd})
				}
			}
			return s
		}
		s.Done = true
		return s
	}
	if s.Leader != spec.None || s.Cand == agElected {
		return s // the election is over: captures no longer matter
	}
	pair := agPair{uint8(m.Arg[0]), m.ID}
	switch m.Kind {
	case agArrive:
		if s.Asking && p.variant != agNoQueue {
			s.Queue = append(s.Queue[:len(s.Queue):len(s.Queue)], agPending{q, pair.level, pair.id})
			return s
		}
		return p.arrive(s, q, pair, out)
	case agAccept:
		if s.Cand != agActive || !s.Waiting || q != s.Cur || pair.id != s.ID {
			return s // a capture for a candidate killed meanwhile
		}
		s.Waiting = false
		s.Level++
		s.Untrav &^= 1 << q
		if s.FKind == agSelf {
			s.OLevel = s.Level
		}
		return p.next(s, out)
	case agAsk:
		var a spec.Kind
		switch {
		case s.Cand != agActive:
			a = agDead
		case p.less(pair, agPair{s.Level, s.ID}):
			a = agNo
		default:
			a, s.Cand, s.Waiting = agYes, agKilled, false
		}
		if out.Noting() {
			out.Note("ask (%d,%d) against (%d,%d): %s", pair.level, pair.id, s.Level, s.ID, [...]string{agYes: "killed", agNo: "deny", agDead: "already dead"}[a])
		}
		out.Send(ev.Port, spec.Message{Kind: a, ID: pair.id, Arg: [2]int32{int32(pair.level)}})
		return s
	case agYes, agDead, agNo:
		if !s.Asking || q != s.Father {
			return s
		}
		s.Asking = false
		if m.Kind != agNo {
			s = s.capture(s.PFather, agPair{s.PLevel, s.PID}, out)
		}
		// The queue, in order, until the process asks again.
		for len(s.Queue) > 0 && !s.Asking {
			a := s.Queue[0]
			s.Queue = s.Queue[1:len(s.Queue):len(s.Queue)]
			s = p.arrive(s, a.Port, agPair{a.Level, a.ID}, out)
		}
		if len(s.Queue) == 0 {
			s.Queue = nil
		}
		return s
	}
	return s
}

// agPair is a (level, id) pair.
type agPair struct {
	level uint8
	id    spec.ID
}

// less orders pairs lexicographically; afek-gafni-levelonly by level alone.
func (p AfekGafni) less(a, b agPair) bool {
	if p.variant == agLevelOnly {
		return a.level <= b.level // a tie keeps what is there
	}
	return a.level < b.level || a.level == b.level && a.id < b.id
}

// next sends the candidate's next ARRIVE along a port of its choosing, or,
// with every node captured, announces it.
func (p AfekGafni) next(s AGState, out *spec.Outbox) AGState {
	if s.Untrav == 0 {
		s.Cand, s.Leader = agElected, s.ID
		if out.Noting() {
			out.Note("every node captured: leader")
		}
		for t := range int(s.Ports) {
			out.Send(spec.Port(t), spec.Message{Kind: agLeader, ID: s.ID})
		}
		if s.Ports == 0 {
			s.Done = true
		}
		return s
	}
	k := out.Choose(bits.OnesCount16(s.Untrav))
	l := uint8(0)
	for u := s.Untrav; ; u &= u - 1 {
		if k == 0 {
			l = uint8(bits.TrailingZeros16(u))
			break
		}
		k--
	}
	s.Waiting, s.Cur = true, l
	out.Send(spec.Port(l), spec.Message{Kind: agArrive, ID: s.ID, Arg: [2]int32{int32(s.Level)}})
	return s
}

// arrive is the ordinary process's ARRIVE from the candidate behind port q.
func (p AfekGafni) arrive(s AGState, q uint8, pair agPair, out *spec.Outbox) AGState {
	if s.FKind != agNobody && p.less(pair, agPair{s.OLevel, s.Owner}) {
		if out.Noting() {
			out.Note("arrive (%d,%d) < (%d,%d): discarded", pair.level, pair.id, s.OLevel, s.Owner)
		}
		return s
	}
	switch s.FKind {
	case agNobody:
		return s.capture(q, pair, out)
	case agSelf:
		// Its own candidate is the father: asked on the spot.
		if s.Cand == agActive && p.less(pair, agPair{s.Level, s.ID}) {
			return s
		}
		if s.Cand == agActive {
			s.Cand, s.Waiting = agKilled, false
		}
		return s.capture(q, pair, out)
	}
	s.Asking, s.PFather, s.PLevel, s.PID = true, q, pair.level, pair.id
	out.Send(spec.Port(s.Father), spec.Message{Kind: agAsk, ID: pair.id, Arg: [2]int32{int32(pair.level)}})
	return s
}

// capture makes the candidate behind port q the node's owner and tells it.
func (s AGState) capture(q uint8, pair agPair, out *spec.Outbox) AGState {
	s.FKind, s.Father, s.OLevel, s.Owner = agPort, q, pair.level, pair.id
	if out.Noting() {
		out.Note("captured by (%d,%d)", pair.level, pair.id)
	}
	out.Send(spec.Port(q), spec.Message{Kind: agAccept, ID: pair.id, Arg: [2]int32{int32(pair.level)}})
	return s
}
