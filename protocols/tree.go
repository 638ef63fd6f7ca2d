package protocols

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/elcheck/elcheck/spec"
)

// This file holds election on a tree by the tree wave algorithm with a
// wake-up phase, as the lecture notes "Election algorithms" give it
// (docs/references.md#notes-election, after Tel 2000, "Introduction to
// Distributed Algorithms", the tree algorithm and its election):
//
//	var ws_p : boolean init false ; wr_p : integer init 0 ;
//	    rec_p[q] : boolean for each q in Neigh_p init false ;
//	    v_p : P init p ; state_p : (sleep, leader, lost) init sleep ;
//	begin if p is initiator then
//	        begin ws_p := true ; forall q in Neigh_p do send (wakeup) to q end ;
//	      while wr_p < #Neigh_p do
//	        begin receive (wakeup) ; wr_p := wr_p + 1 ;
//	          if not ws_p then
//	            begin ws_p := true ; forall q in Neigh_p do send (wakeup) to q end
//	        end ;
//	      (* Now start the tree algorithm *)
//	      while #{q : not rec_p[q]} > 1 do
//	        begin receive (tok, r) from q ; rec_p[q] := true ; v_p := min(v_p, r) end ;
//	      send (tok, v_p) to q0 with not rec_p[q0] ;
//	      receive (tok, r) from q0 ;
//	      v_p := min(v_p, r) ; (* decide with answer v_p *)
//	      if v_p = p then state_p := leader else state_p := lost ;
//	      forall q in Neigh_p, q /= q0 do send (tok, v_p) to q
//	end
//
// The program receives selectively: a wake-up only while wakeups are
// missing. elcheck's steps take the head of any channel, so a token that
// comes before the process's last wakeup is kept (rec_p and v_p updated,
// which commute with the wake-up loop) and the process sends its own token
// once the wake-ups are all in, exactly when the program would. On FIFO
// channels a neighbour's wakeup precedes its token, so at that moment at
// least the last waker's token is missing; on bags every token may be in
// already, and then q0 is any of them (the program's receive takes them in
// any order): the step takes the lowest port, a fixed rule, which
// -orientation=any turns into every choice, since it numbers the ports
// every way. Choosing (spec.Outbox.Choose) would cost every step a probe
// for a case FIFO channels never meet.
//
// Counting: every process sends a wakeup to each neighbour (2N - 2), one
// token (N), and the deciders' answer goes on to every neighbour but q0
// (N - 2 over all processes): 4N - 4 in every execution.

type treeVariant uint8

const (
	treeCorrect treeVariant = iota
	// treeEarly decides when it sends its token, on the ids of its side
	// only, not on the answer that comes back.
	treeEarly
	// treeNoWake: a non-initiator woken by a wakeup does not pass it on.
	treeNoWake
)

// The tree algorithm's message kinds; Info names them.
const (
	treeWakeup spec.Kind = iota
	treeTok              // (tok, v): ID = the least id seen
)

// Tree is election on a tree: a wake-up wave, then the tree algorithm with
// the least id attached to the tokens. The two processes whose tokens
// cross decide, and the answer flows back to every other process. The zero
// value is the correct protocol; the registry also holds "tree-early" and
// "tree-nowake".
type Tree struct{ variant treeVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[TreeState](Tree{variant: treeCorrect}, Tree{variant: treeEarly}, Tree{variant: treeNoWake})

type treePhase uint8

// String names the phase as notes give it.
func (p treePhase) String() string {
	return [...]string{"sleep", "awake", "leader", "lost"}[p]
}

const (
	treeSleep treePhase = iota // ws_p false
	treeAwake                  // ws_p true, undecided
	treeLeader
	treeLost
)

// TreeState is a process's local state in the tree algorithm.
type TreeState struct {
	ID    spec.ID
	Ports uint8
	phase treePhase
	// WR counts the wakeups received (wr_p).
	WR uint8
	// Rec has bit q set once a token came on port q (rec_p[q]).
	Rec uint16
	// V is v_p, the least id seen.
	V spec.ID
	// Sent is set once the process sent its token, to port Q0.
	Sent bool
	Q0   uint8
}

// Decision implements spec.Local.
func (s TreeState) Decision() spec.Decision {
	switch s.phase {
	case treeLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.V}
	case treeLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.V}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *TreeState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.Ports)
	spec.Uint(c, &s.phase)
	spec.Uint(c, &s.WR)
	spec.Uint(c, &s.Rec)
	c.ID(&s.V)
	c.Bool(&s.Sent)
	spec.Uint(c, &s.Q0)
}

// String implements spec.Local: "sleep", "awake wr=1/2 rec=[1] v=3",
// "awake wr=2/2 rec=[1] v=3 sent to 0", "leader v=1", "lost v=1".
func (s TreeState) String() string {
	switch s.phase {
	case treeSleep:
		return "sleep"
	case treeLeader:
		return fmt.Sprintf("leader v=%d", s.V)
	case treeLost:
		return fmt.Sprintf("lost v=%d", s.V)
	}
	var rec []int
	for q := range int(s.Ports) {
		if s.Rec&(1<<q) != 0 {
			rec = append(rec, q)
		}
	}
	str := fmt.Sprintf("awake wr=%d/%d rec=%v v=%d", s.WR, s.Ports, rec, s.V)
	if s.Sent {
		str += fmt.Sprintf(" sent to %d", s.Q0)
	}
	return str
}

// Info implements spec.Protocol.
func (p Tree) Info() spec.Info {
	fourN := spec.Poly(func(n int64) *big.Rat { return big.NewRat(max(4*n-4, 0), 1) })
	info := spec.Info{
		Name:     "tree",
		Title:    "tree election: a wake-up wave, then the tree algorithm with the least id on the tokens; the answer flows back",
		Source:   `the lecture notes "Election algorithms", "Waves on trees and election", after Tel 2000; docs/references.md#notes-election, #tel00`,
		Topology: spec.Tree,
		Winner:   spec.MinAll,
		AllLearn: true,
		Messages: []string{treeWakeup: "wakeup", treeTok: "tok"},
		Bound:    spec.Bound{Formula: "4N - 4", Max: func(n int) int { return max(4*n-4, 0) }},
		Channels: spec.FIFO,
		Literature: []spec.Formula{
			{Measure: "messages", Stat: "min", Rel: spec.Equal, Text: "4N - 4", Source: `notes-election, "Waves on trees and election": "message complexity: 4N-4 (two wakeup messages and two tokens are sent along each channel)"`, Value: fourN},
			{Measure: "messages", Stat: "max", Rel: spec.Equal, Text: "4N - 4", Source: `notes-election, "Waves on trees and election": "message complexity: 4N-4"`, Value: fourN},
			// On each tree its own diameter; the path's, N - 1, is the
			// largest on N processes.
			{Measure: "time", Stat: "max", Rel: spec.AtMost, Text: "3D + 1", Source: `notes-election, "Waves on trees and election": "time complexity - 3D+1 (D - diameter)"`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(3*max(n-1, 0)+1, 1) }),
				Of:    func(t *spec.Topology) int64 { return int64(3*t.Diameter() + 1) }},
		},
	}
	switch p.variant {
	case treeEarly:
		info.Name = "tree-early"
		info.Title = "tree election that decides before the token comes back"
		info.Bug = "a process decides when it sends its token, on the least id of its own side, instead of on the answer from q0: both processes whose tokens cross may call themselves leader"
		info.Breaks = "validity"
	case treeNoWake:
		info.Name = "tree-nowake"
		info.Title = "tree election whose non-initiators do not pass the wakeup on"
		info.Bug = "a process woken by a wakeup counts it but sends no wakeup of its own, so its neighbours wait for ever for the wakeups that start the tree algorithm"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol.
func (Tree) Init(env spec.Env) TreeState {
	return TreeState{ID: env.ID, Ports: uint8(env.Ports), V: env.ID}
}

// Step implements spec.Protocol.
func (p Tree) Step(s TreeState, ev spec.Event, out *spec.Outbox) TreeState {
	switch {
	case ev.Kind == spec.Wake:
		s = s.wake(out)
	case ev.Msg.Kind == treeWakeup:
		s.WR++
		if s.phase == treeSleep {
			if p.variant == treeNoWake {
				s.phase = treeAwake
			} else {
				s = s.wake(out)
			}
		}
	case ev.Msg.Kind == treeTok:
		q := uint8(ev.Port)
		s.Rec |= 1 << q
		s.V = min(s.V, ev.Msg.ID)
		if s.Sent && q == s.Q0 {
			// The answer: decide, and pass it on to every neighbour but q0.
			return s.decide(out, ev.Msg.ID)
		}
		if s.phase == treeLeader || s.phase == treeLost {
			return s // cannot happen: a decided process gets no more tokens
		}
	}
	if s.phase != treeAwake || s.Sent || s.WR < s.Ports {
		return s
	}
	missing := int(s.Ports) - bits.OnesCount16(s.Rec)
	switch {
	case s.Ports == 0: // alone: no one to ask
		s.phase = treeLeader
		if out.Noting() {
			out.Note("no neighbour: leader")
		}
	case missing == 1:
		s = s.send(out, uint8(bits.TrailingZeros16(^s.Rec)), p.variant)
	case missing == 0:
		// Every token is in before the last wakeup (bags only): the
		// program's loop stops at any of them; the lowest port is q0
		// (see the top of the file), and its answer is already here.
		s = s.send(out, 0, p.variant)
		if s.phase == treeAwake {
			s = s.decide(out, s.V)
		}
	}
	return s
}

// wake sets ws_p and sends a wakeup to every neighbour.
func (s TreeState) wake(out *spec.Outbox) TreeState {
	if s.phase != treeSleep {
		return s
	}
	s.phase = treeAwake
	for q := range int(s.Ports) {
		out.Send(spec.Port(q), spec.Message{Kind: treeWakeup})
	}
	return s
}

// send sends (tok, v_p) to q0, the one neighbour whose token the loop did
// not take; tree-early decides there.
func (s TreeState) send(out *spec.Outbox, q0 uint8, v treeVariant) TreeState {
	s.Sent, s.Q0 = true, q0
	out.Send(spec.Port(q0), spec.Message{Kind: treeTok, ID: s.V})
	if out.Noting() {
		out.Note("tokens from all neighbours but port %d: send tok(%d) there", q0, s.V)
	}
	if v == treeEarly {
		s = s.decided(out)
	}
	return s
}

// decide is "receive (tok, r) from q0; v_p := min(v_p, r)": the process
// decides and passes the answer to every neighbour but q0.
func (s TreeState) decide(out *spec.Outbox, r spec.ID) TreeState {
	if s.phase == treeAwake { // tree-early has decided already, on its side's ids
		s.V = min(s.V, r)
		s = s.decided(out)
	}
	for q := range int(s.Ports) {
		if uint8(q) != s.Q0 {
			out.Send(spec.Port(q), spec.Message{Kind: treeTok, ID: s.V})
		}
	}
	return s
}

// decided takes state leader if v_p is the process's own id, else lost.
func (s TreeState) decided(out *spec.Outbox) TreeState {
	s.phase = treeLost
	if s.V == s.ID {
		s.phase = treeLeader
	}
	if out.Noting() {
		out.Note("decide on v=%d: %s", s.V, s.phase)
	}
	return s
}
