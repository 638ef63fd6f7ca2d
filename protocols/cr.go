package protocols

import (
	"fmt"
	"math/big"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Chang and Roberts's algorithm (Chang and Roberts 1979,
// docs/references.md#cr79) in the two forms its presentations give:
//
//   - CR follows the lecture slides "Leader Election Algorithms", "Improved
//     algorithm": max wins, PROBE and SELECTED messages, a sleeping process
//     joins on its first probe.
//   - CRMin follows the lecture notes "Election algorithms", "Chang and
//     Roberts's algorithm (CR)" (slide 5): min of the initiators wins,
//     non-initiators only relay, and the leader floods its id as the slide's
//     closing comment says.

// crBound is n(n+1)/2 probes (the lecture slides' worst case: ids decreasing
// along the ring, probe i makes i hops) plus n messages of the announcement.
func crBound(n int) int { return n*(n+1)/2 + n }

// ---------------------------------------------------------------------------
// The lecture slides' Chang-Roberts: max wins, PROBE/SELECTED.

type crVariant uint8

const (
	crCorrect crVariant = iota
	// crFlip forwards smaller probes and discards larger ones.
	crFlip
	// crNoSelected never circulates SELECTED.
	crNoSelected
)

// CR's message kinds; Info names them.
const (
	crProbe spec.Kind = iota
	crSelected
)

// CR is the lecture slides' Chang-Roberts algorithm. A process that wakes
// sends PROBE(i) and participates; a process that receives PROBE(k) first
// joins if it does not participate yet, then discards the probe if i > k,
// forwards it if i < k, and declares itself leader if i = k and circulates
// SELECTED(i).
// SELECTED(x) tells every other process the leader and comes back to x,
// which absorbs it. The zero value is the correct protocol; the registry also
// holds the buggy variants "cr-flip" and "cr-noselected".
type CR struct{ variant crVariant }

// The correct protocol and its buggy variants join the registry.
var _ = register[CRState](CR{variant: crCorrect}, CR{variant: crFlip}, CR{variant: crNoSelected})

type crPhase uint8

const (
	crSleep       crPhase = iota // participate = false
	crParticipate                // participate = true, leader unknown
	crLeader                     // its own probe came back: leader := i
	crLost                       // SELECTED(x), x ≠ i, passed: leader := x
)

// CRState is a process's local state in CR.
type CRState struct {
	ID    spec.ID
	phase crPhase
	// Leader is the slides' variable "leader", set by i = k or SELECTED.
	Leader spec.ID
}

// Decision implements spec.Local.
func (s CRState) Decision() spec.Decision {
	switch s.phase {
	case crLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case crLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *CRState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.ID(&s.Leader)
}

// String implements spec.Local: "sleep", "participating", "lost leader=5".
func (s CRState) String() string {
	switch s.phase {
	case crParticipate:
		return "participating"
	case crLeader:
		return "leader"
	case crLost:
		return fmt.Sprintf("lost leader=%d", s.Leader)
	}
	return "sleep"
}

// Info implements spec.Protocol.
func (p CR) Info() spec.Info {
	info := spec.Info{
		Name:     "cr",
		Title:    "Chang-Roberts: probes die at a larger id; the largest id's probe returns and SELECTED announces it",
		Source:   `Chang and Roberts 1979, as presented in the lecture slides "Leader Election Algorithms" ("Improved algorithm", steps 1-3, PROBE/SELECTED); docs/references.md#cr79, #slides-leader`,
		Topology: spec.UniRing,
		// Sleeping processes join on their first probe, so every id runs.
		Winner:   spec.MaxAll,
		AllLearn: true,
		Messages: []string{crProbe: "probe", crSelected: "selected"},
		Bound:    spec.Bound{Formula: "n(n+1)/2 probes + n SELECTED", Max: crBound},
		Channels: spec.FIFO,
		// The lecture slides' best, worst and average cases.
		Literature: []spec.Formula{
			{Measure: "probe", Stat: "min", Rel: spec.Equal, Text: "2n-1", Source: `slides-leader, "Best case": ids increasing along the ring, (n-1) + n message passes`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(2*n-1, 1) })},
			{Measure: "probe", Stat: "mean", Rel: spec.Equal, Text: "n·H_n", Source: `slides-leader, "Average case (consider all n! rings)": n(1 + 1/2 + ... + 1/n) message passes`,
				Value: spec.Poly(func(n int64) *big.Rat { return new(big.Rat).Mul(big.NewRat(n, 1), spec.Harmonic(n)) })},
			{Measure: "probe", Stat: "max", Rel: spec.Equal, Text: "n(n+1)/2", Source: `slides-leader, "Worst case": ids decreasing along the ring, message i passed i times`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(n*(n+1), 2) })},
		},
	}
	switch p.variant {
	case crFlip:
		info.Name = "cr-flip"
		info.Title = "Chang-Roberts with the probe comparison flipped"
		info.Bug = "a process forwards PROBE(k) when i > k and discards it when i < k, so the smallest id's probe is the one that survives"
		info.Breaks = "validity"
	case crNoSelected:
		info.Name = "cr-noselected"
		info.Title = "Chang-Roberts without the SELECTED announcement"
		info.Bug = "the process whose probe returns declares itself leader but never circulates SELECTED, so no other process ever decides"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol: participate = false.
func (CR) Init(env spec.Env) CRState { return CRState{ID: env.ID} }

// Step implements spec.Protocol.
func (p CR) Step(s CRState, ev spec.Event, out *spec.Outbox) CRState {
	if ev.Kind == spec.Wake {
		if s.phase == crSleep {
			s = p.wake(s, out)
		}
		return s
	}
	switch ev.Msg.Kind {
	case crProbe:
		// Step 2: "if participate = false execute step 1 first".
		if s.phase == crSleep {
			s = p.wake(s, out)
		}
		k := ev.Msg.ID
		forward := s.ID < k
		if p.variant == crFlip {
			forward = s.ID > k // the bug
		}
		switch {
		case k == s.ID:
			// "i = k: P_i's identifier must have circulated across the
			// entire ring. Hence P_i can declare itself the leader."
			s.phase = crLeader
			s.Leader = s.ID
			if out.Noting() {
				out.Note("own probe(%d) back: leader", k)
			}
			if p.variant != crNoSelected {
				out.Send(next, spec.Message{Kind: crSelected, ID: s.ID})
			}
		case forward:
			if out.Noting() {
				out.Note("relay probe(%d): %d %s %d", k, s.ID, cmpSym(s.ID, k), k)
			}
			out.Send(next, ev.Msg)
		default:
			// Discard the probe: its sender cannot be the leader.
			if out.Noting() {
				out.Note("discard probe(%d): %d %s %d", k, s.ID, cmpSym(s.ID, k), k)
			}
		}
	case crSelected:
		x := ev.Msg.ID
		if x == s.ID {
			// Step 3 "else discard the message": the leader absorbs its
			// announcement, and now all is quiet. Every process sent its
			// probe before forwarding the leader's, so on FIFO channels
			// each other probe ran ahead of the leader's probe, and of
			// SELECTED behind it, until it was discarded at a larger id
			// (at the leader at the latest).
			if out.Noting() {
				out.Note("own selected(%d) back: absorb", x)
			}
			return s
		}
		// Step 3: "leader := x; forward SELECTED(x) to right neighbor".
		if out.Noting() {
			out.Note("selected(%d): leader is %d, relay", x, x)
		}
		s.phase = crLost
		s.Leader = x
		out.Send(next, ev.Msg)
	}
	return s
}

// wake is step 1: "send PROBE(i) to right neighbor; participate := true".
func (CR) wake(s CRState, out *spec.Outbox) CRState {
	out.Send(next, spec.Message{Kind: crProbe, ID: s.ID})
	s.phase = crParticipate
	return s
}

// ---------------------------------------------------------------------------
// The lecture notes' Chang-Roberts: min of the initiators wins, then ldr
// flood.

type crMinVariant uint8

const (
	crMinCorrect crMinVariant = iota
	// crMinNoAbsorb: the leader forwards its own announcement.
	crMinNoAbsorb
)

// CRMin's message kinds; Info names them.
const (
	crMinTok spec.Kind = iota
	crMinLdr
)

// CRMin is the lecture notes' Chang-Roberts algorithm. An initiator p sends
// (tok, p); on (tok, q) it becomes leader if q = p, forwards q < p (and is
// lost if it was still a candidate), and swallows q > p. Non-initiators relay
// every token and are lost. As the slide's closing comment says, the leader
// then floods its identity so that every process learns it and terminates:
// (ldr, p) goes round the ring once and the leader absorbs it. The zero value
// is the correct protocol; the registry also holds "cr-min-noabsorb".
type CRMin struct{ variant crMinVariant }

// The correct protocol and its buggy variant join the registry.
var _ = register[CRMinState](CRMin{variant: crMinCorrect}, CRMin{variant: crMinNoAbsorb})

type crMinPhase uint8

const (
	crMinSleep  crMinPhase = iota // not woken, nothing received
	crMinCand                     // initiator, no smaller token seen
	crMinLost                     // initiator that forwarded a smaller token
	crMinLeader                   // its own token came back
	crMinRelay                    // non-initiator: relays everything, lost
)

// CRMinState is a process's local state in CRMin.
type CRMinState struct {
	ID    spec.ID
	phase crMinPhase
	// Leader is the leader's id: its own once elected, else the id carried
	// by the ldr announcement once it has passed.
	Leader spec.ID
}

// Decision implements spec.Local.
func (s CRMinState) Decision() spec.Decision {
	switch s.phase {
	case crMinLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case crMinLost, crMinRelay:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *CRMinState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.ID(&s.Leader)
}

// String implements spec.Local: "cand", "lost leader=1", "relay".
func (s CRMinState) String() string {
	var str string
	switch s.phase {
	case crMinCand:
		return "cand"
	case crMinLeader:
		return "leader"
	case crMinLost:
		str = "lost"
	case crMinRelay:
		str = "relay (lost)"
	default:
		return "sleep"
	}
	if s.Leader != spec.None {
		str += fmt.Sprintf(" leader=%d", s.Leader)
	}
	return str
}

// Info implements spec.Protocol.
func (p CRMin) Info() spec.Info {
	info := spec.Info{
		Name:     "cr-min",
		Title:    "Chang-Roberts, min form: tokens die at a smaller initiator; the leader floods ldr",
		Source:   `Chang and Roberts 1979, as presented in the lecture notes "Election algorithms" ("Chang and Roberts's algorithm (CR)", slide 5, with its closing comment's flood); docs/references.md#cr79, #notes-election`,
		Topology: spec.UniRing,
		Winner:   spec.MinInitiators,
		AllLearn: true,
		Messages: []string{crMinTok: "tok", crMinLdr: "ldr"},
		// The token of the r-th smallest initiator stops at the first
		// smaller initiator, passing none of the r-2 others: at most n-r+1
		// hops, so at most n(n+1)/2 tokens in all, then n ldr messages.
		Bound:    spec.Bound{Formula: "n(n+1)/2 tokens + n ldr", Max: crBound},
		Channels: spec.FIFO,
	}
	if p.variant == crMinNoAbsorb {
		info.Name = "cr-min-noabsorb"
		info.Title = "Chang-Roberts, min form, whose leader forwards its own ldr announcement"
		info.Bug = "the leader treats its returning (ldr, p) like any other process and forwards it, so the announcement circulates for ever"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol.
func (CRMin) Init(env spec.Env) CRMinState { return CRMinState{ID: env.ID} }

// Step implements spec.Protocol.
func (p CRMin) Step(s CRMinState, ev spec.Event, out *spec.Outbox) CRMinState {
	if ev.Kind == spec.Wake {
		if s.phase == crMinSleep {
			// "state_p := cand; send (tok, p) to Next_p".
			s.phase = crMinCand
			out.Send(next, spec.Message{Kind: crMinTok, ID: s.ID})
		}
		return s
	}
	if ev.Msg.Kind == crMinLdr {
		x := ev.Msg.ID
		if s.phase == crMinLeader && x == s.ID && p.variant != crMinNoAbsorb {
			// The flood has gone round: every process knows x. No token is
			// left: each initiator sent its token before forwarding the
			// leader's, so every token reached the leader (and died there
			// at the latest) before the leader's own token came back.
			if out.Noting() {
				out.Note("own ldr(%d) back: absorb", x)
			}
			return s
		}
		if out.Noting() {
			out.Note("ldr(%d): leader is %d, relay", x, x)
		}
		if s.phase != crMinLeader {
			if s.phase != crMinRelay {
				s.phase = crMinLost
			}
			s.Leader = x
		}
		out.Send(next, ev.Msg)
		return s
	}
	q := ev.Msg.ID
	switch s.phase {
	case crMinSleep, crMinRelay:
		// Non-initiator: "repeat receive (tok, q); send (tok, q) to Next_p;
		// if state_p = sleep then state_p := lost until false".
		s.phase = crMinRelay
		if out.Noting() {
			out.Note("non-initiator: relay tok(%d)", q)
		}
		out.Send(next, ev.Msg)
	case crMinCand, crMinLost, crMinLeader:
		switch {
		case q == s.ID:
			// "if q = p then state_p := leader"; the closing comment's
			// flood starts here.
			s.phase = crMinLeader
			s.Leader = s.ID
			if out.Noting() {
				out.Note("own tok(%d) back: leader", q)
			}
			out.Send(next, spec.Message{Kind: crMinLdr, ID: s.ID})
		case q < s.ID:
			// "if state_p = cand then state_p := lost; send (tok, q)".
			if s.phase == crMinCand {
				s.phase = crMinLost
			}
			if out.Noting() {
				out.Note("relay tok(%d): %d < %d", q, q, s.ID)
			}
			out.Send(next, ev.Msg)
		default:
			// q > p: the token is swallowed.
			if out.Noting() {
				out.Note("swallow tok(%d): %d > %d", q, q, s.ID)
			}
		}
	}
	return s
}
