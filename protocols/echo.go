package protocols

import (
	"fmt"

	"github.com/elcheck/elcheck/spec"
)

// This file holds election on any connected network by extinction applied
// to the echo algorithm, as the lecture notes "Election algorithms" give
// it (docs/references.md#notes-election; the echo algorithm is Chang 1982,
// #chang82, extinction Tel 2000's chapter 7, #tel00):
//
//	var caw_p : P init undef ;    (* Currently active wave *)
//	    rec_p : integer init 0 ;   (* Number of (tok, caw_p) received *)
//	    father_p : P init undef ;  (* Father in wave caw_p *)
//	    lrec_p : integer init 0 ;  (* Number of (ldr, ...) received *)
//	    win_p : P init undef ;     (* Identity of leader *)
//	begin if p is initiator then
//	        begin caw_p := p ; for all q in Neigh_p do send (tok, p) to q end ;
//	      while lrec_p < #Neigh_p do
//	        begin receive msg from q ;
//	          if msg = (ldr, r) then
//	            begin if lrec_p = 0 then for all q in Neigh_p do send (ldr, r) to q ;
//	              lrec_p := lrec_p + 1 ; win_p := r
//	            end
//	          else (* a (tok, r) message *)
//	            begin if r < caw_p then (* Reinitialize algorithm *)
//	                begin caw_p := r ; rec_p := 0 ; father_p := q ;
//	                  for all s in Neigh_p, s /= q do send (tok, r) to s
//	                end ;
//	              if r = caw_p then
//	                begin rec_p := rec_p + 1 ;
//	                  if rec_p = #Neigh_p then
//	                    if caw_p = p then for all s in Neigh_p do send (ldr, p) to s
//	                    else send (tok, caw_p) to father_p
//	                end
//	              (* If r > caw_p, the message is ignored *)
//	            end
//	        end ;
//	      if win_p = p then state_p := leader else state_p := lost
//	end
//
// Two places where elcheck departs from the letter, said in
// docs/protocols/echo.md: the winner, which floods (ldr, p) when its wave
// completes, does not flood it a second time when the first (ldr, p) comes
// back (read literally, its lrec_p is still 0 then: every neighbour would
// get two, and end its loop with the second left in its channel); and a
// process with no neighbour that initiates is the leader (its wave is
// complete at once, and no ldr can come to set win_p).

type echoVariant uint8

const (
	echoCorrect echoVariant = iota
	// echoNoReset does not reset rec_p when a lower wave takes over.
	echoNoReset
	// echoJoinHigher lets a process join any wave it has not seen, higher
	// or lower.
	echoJoinHigher
)

// echoNoPort is Father while undef: not a port (spec.PortField leaves it).
const echoNoPort = 0xff

// Echo's message kinds; Info names them.
const (
	echoTok spec.Kind = iota // (tok, r): a token of wave r
	echoLdr                  // (ldr, r): r is the leader
)

// Echo is election by extinction on the echo algorithm: every initiator
// starts an echo wave carrying its id, a process follows the lowest wave it
// has seen and ignores higher ones, and the initiator whose wave comes back
// complete floods (ldr, id). The zero value is the correct protocol; the
// registry also holds "echo-noreset" and "echo-joinhigher".
type Echo struct{ variant echoVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[EchoState](Echo{variant: echoCorrect}, Echo{variant: echoNoReset}, Echo{variant: echoJoinHigher})

// EchoState is a process's local state in echo with extinction.
type EchoState struct {
	ID    spec.ID
	Ports uint8
	// CAW is the currently active wave (None: undef), Rec the tokens of it
	// received, Father the port its first token came on (echoNoPort:
	// undef).
	CAW    spec.ID
	Rec    uint8
	Father uint8
	// LRec counts the (ldr, r) received, Win the leader they name; Flooded
	// is set once the process has sent its own ldr flood.
	LRec    uint8
	Win     spec.ID
	Flooded bool
	// Done is set when the loop ends: the process decides.
	Done bool
}

// Decision implements spec.Local: decided once the loop is over.
func (s EchoState) Decision() spec.Decision {
	switch {
	case !s.Done:
		return spec.Decision{}
	case s.Win == s.ID:
		return spec.Decision{Status: spec.Elected, Leader: s.Win}
	}
	return spec.Decision{Status: spec.Defeated, Leader: s.Win}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *EchoState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.Ports)
	c.ID(&s.CAW)
	spec.Uint(c, &s.Rec)
	spec.PortField(c, &s.Father)
	spec.Uint(c, &s.LRec)
	c.ID(&s.Win)
	c.Bool(&s.Flooded)
	c.Bool(&s.Done)
}

// String implements spec.Local: "caw=- ", "caw=2 rec=1/3 father=0",
// "caw=1 rec=2/2 ldr=1/2 win=1", "leader", "lost win=1".
func (s EchoState) String() string {
	switch {
	case s.Done && s.Win == s.ID:
		return "leader"
	case s.Done:
		return fmt.Sprintf("lost win=%d", s.Win)
	case s.CAW == spec.None:
		return "caw=-"
	}
	str := fmt.Sprintf("caw=%d rec=%d/%d", s.CAW, s.Rec, s.Ports)
	if s.CAW != s.ID {
		str += fmt.Sprintf(" father=%d", s.Father)
	}
	if s.LRec > 0 || s.Flooded {
		str += fmt.Sprintf(" ldr=%d/%d win=%d", s.LRec, s.Ports, s.Win)
	}
	return str
}

// echoBound is N·2E + 2E on a network of E links: at most N waves (one per
// initiator), each at most one echo wave's 2E tokens, and the ldr flood,
// one more on each channel.
func echoBound(t *spec.Topology) int { return (t.N + 1) * len(t.Edges) }

// Info implements spec.Protocol.
func (p Echo) Info() spec.Info {
	info := spec.Info{
		Name:     "echo",
		Title:    "echo with extinction: every initiator starts an echo wave, only the lowest one completes, its initiator floods ldr",
		Source:   `the lecture notes "Election algorithms", "Extinction applied to Echo", after Chang 1982 and Tel 2000; docs/references.md#chang82, #notes-election, #tel00`,
		Topology: spec.Graph,
		Winner:   spec.MinInitiators,
		AllLearn: true,
		Messages: []string{echoTok: "tok", echoLdr: "ldr"},
		Bound: spec.Bound{Formula: "N·2E + 2E",
			// The complete graph has the most links.
			Max: func(n int) int { return (n + 1) * n * (n - 1) },
			Of:  echoBound},
		Channels: spec.FIFO,
		// It floods every port, answers on its father's port, and keeps
		// the father in a PortField.
		PortBlind: true,
	}
	switch p.variant {
	case echoNoReset:
		info.Name = "echo-noreset"
		info.Title = "echo with extinction that keeps rec_p when a lower wave takes over"
		info.Bug = "a process that joins a lower wave keeps the count of the tokens it received in the wave it left, so its count of the new wave's tokens overshoots the number of its neighbours and it never echoes to its new father"
		info.Breaks = "termination"
	case echoJoinHigher:
		info.Name = "echo-joinhigher"
		info.Title = "echo with extinction that joins higher waves too"
		info.Bug = "a process takes any wave other than its current one as new (r ≠ caw_p instead of r < caw_p), so a higher wave takes processes back from a lower one, completes, and its initiator floods its own id"
		info.Breaks = "validity"
	}
	return info
}

// Init implements spec.Protocol.
func (Echo) Init(env spec.Env) EchoState {
	return EchoState{ID: env.ID, Ports: uint8(env.Ports), Father: echoNoPort}
}

// Step implements spec.Protocol.
func (p Echo) Step(s EchoState, ev spec.Event, out *spec.Outbox) EchoState {
	if s.Done {
		return s // the loop is over; nothing is sent to a process after it
	}
	if ev.Kind == spec.Wake {
		s.CAW = s.ID
		for q := range int(s.Ports) {
			out.Send(spec.Port(q), spec.Message{Kind: echoTok, ID: s.ID})
		}
		if s.Ports == 0 { // alone: its wave is complete
			s.Win, s.Done = s.ID, true
		}
		return s
	}
	q := uint8(ev.Port)
	r := ev.Msg.ID
	if ev.Msg.Kind == echoLdr {
		if !s.Flooded {
			s = s.flood(out, r)
		}
		s.LRec++
		s.Win = r
		if s.LRec == s.Ports {
			s.Done = true
			if out.Noting() {
				out.Note("ldr from every neighbour: %s", s.Decision().Status)
			}
		}
		return s
	}
	lower := s.CAW == spec.None || r < s.CAW
	if p.variant == echoJoinHigher {
		lower = s.CAW == spec.None || r != s.CAW
	}
	if lower { // reinitialise: follow wave r
		if out.Noting() && s.CAW != spec.None {
			out.Note("wave %d replaces wave %d", r, s.CAW)
		}
		s.CAW, s.Father = r, q
		if p.variant != echoNoReset {
			s.Rec = 0
		}
		for t := range int(s.Ports) {
			if uint8(t) != q {
				out.Send(spec.Port(t), spec.Message{Kind: echoTok, ID: r})
			}
		}
	}
	if r != s.CAW {
		if out.Noting() {
			out.Note("ignore wave %d: higher than %d", r, s.CAW)
		}
		return s
	}
	s.Rec++
	if s.Rec != s.Ports {
		return s
	}
	if s.CAW == s.ID {
		if out.Noting() {
			out.Note("own wave complete: flood ldr(%d)", s.ID)
		}
		return s.flood(out, s.ID)
	}
	if out.Noting() {
		out.Note("wave %d: tokens from every neighbour, echo to the father (port %d)", r, s.Father)
	}
	out.Send(spec.Port(s.Father), spec.Message{Kind: echoTok, ID: s.CAW})
	return s
}

// flood sends (ldr, r) to every neighbour, once.
func (s EchoState) flood(out *spec.Outbox, r spec.ID) EchoState {
	s.Flooded = true
	for q := range int(s.Ports) {
		out.Send(spec.Port(q), spec.Message{Kind: echoLdr, ID: r})
	}
	return s
}
