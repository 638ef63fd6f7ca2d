package protocols

import (
	"fmt"
	"math/big"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Dolev-Klawe-Rodeh (Dolev, Klawe and Rodeh 1982,
// docs/references.md#dkr82) as the lecture notes "Election algorithms" write
// it ("Dolev-Klawe-Rodeh algorithm (DKR)", slides 6-8): rounds of (one, c)
// and (two, acn) messages between active processes, the smallest initiator's
// id surviving, and a (small, ...) message telling everyone the winner.

type dkrVariant uint8

const (
	dkrCorrect dkrVariant = iota
	// dkrNoSecond keeps acn whenever acn < c, forgetting acn < q.
	dkrNoSecond
)

// DKR's message kinds; Info names them.
const (
	dkrOne spec.Kind = iota
	dkrTwo
	dkrSmall
)

// DKR is the lecture notes' Dolev-Klawe-Rodeh algorithm. An active process
// sends (one, c) and receives its anticlockwise active neighbour's current id
// as acn. If acn = c it is the only active process left: it sends (small, acn)
// round the ring and learns win when the message returns. Otherwise it sends
// (two, acn), receives (two, q), and stays active with c := acn if acn is
// smaller than both c and q, else turns passive. Passive processes relay a
// one, then a two or a small (a small sets win). At the end the process whose
// own id is win is the leader; it may well be passive, since identities move
// downstream. The zero value is the correct protocol; the registry also holds
// "dkr-nosecond".
type DKR struct{ variant dkrVariant }

// The correct protocol and its buggy variant join the registry.
var _ = register[DKRState](DKR{variant: dkrCorrect}, DKR{variant: dkrNoSecond})

type dkrPhase uint8

const (
	// dkrSleep: not woken. The pseudo-code makes a non-initiator passive
	// from the start, so a message finds it in the passive receive (one, q).
	dkrSleep       dkrPhase = iota
	dkrActiveOne            // sent (one, c); receive (one, q)
	dkrActiveTwo            // sent (two, acn); receive (two, q)
	dkrActiveSmall          // sent (small, acn); receive (small, q)
	dkrPassiveOne           // passive: receive (one, q); send (one, q)
	dkrPassiveM             // passive: receive m; send m (m is two or small)
	dkrDone                 // win_p is set: leader if p = win_p, else lost
)

// DKRState is a process's local state in DKR.
type DKRState struct {
	// ID is p, the process's own identity; C is c_p, the identity it
	// currently stands for; Acn is acn_p during a round; Win is win_p.
	ID, C, Acn, Win spec.ID
	phase           dkrPhase
}

// Decision implements spec.Local: "if p = win_p then state_p := leader
// else state_p := lost".
func (s DKRState) Decision() spec.Decision {
	if s.phase != dkrDone {
		return spec.Decision{}
	}
	if s.Win == s.ID {
		return spec.Decision{Status: spec.Elected, Leader: s.Win}
	}
	return spec.Decision{Status: spec.Defeated, Leader: s.Win}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *DKRState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.ID(&s.C)
	c.ID(&s.Acn)
	c.ID(&s.Win)
}

// String implements spec.Local: "active c=3 wait one", "active c=3 acn=1
// wait two", "passive wait two|small", "lost win=1".
func (s DKRState) String() string {
	switch s.phase {
	case dkrActiveOne:
		return fmt.Sprintf("active c=%d wait one", s.C)
	case dkrActiveTwo:
		return fmt.Sprintf("active c=%d acn=%d wait two", s.C, s.Acn)
	case dkrActiveSmall:
		return fmt.Sprintf("active c=%d wait small", s.C)
	case dkrPassiveOne:
		return "passive wait one"
	case dkrPassiveM:
		return "passive wait two|small"
	case dkrDone:
		if s.Win == s.ID {
			return "leader"
		}
		return fmt.Sprintf("lost win=%d", s.Win)
	}
	return "sleep"
}

// dkrBound is the largest number of messages DKR sends on a ring of n.
//
// The lecture notes (slide 8) count 2N per round for at most log N rounds plus N
// messages informing of the result: 2N log N + N. That leaves out the last
// active process's own (one, c), which has to go all the way round (n hops)
// before acn = c tells it that it is alone. Exactly: each round with k ≥ 2
// active processes sends n ones and n twos (each message travels to the next
// active process); at most ⌊k/2⌋ survive (two neighbours never both keep
// their acn), so there are at most ⌊log₂ n⌋ such rounds; then n ones and n
// smalls. Hence 2n⌊log₂ n⌋ + 2n. Some placement reaches it for every n the
// tests try (1 to 7); 2N log N + N would be too small at every power of two
// (n = 2 sends 8 messages, not 6). n = 1 sends one and small to itself: 2.
func dkrBound(n int) int { return 2*n*log2Floor(n) + 2*n }

// Info implements spec.Protocol.
func (p DKR) Info() spec.Info {
	info := spec.Info{
		Name:     "dkr",
		Title:    "Dolev-Klawe-Rodeh: rounds of one/two messages halve the active ids; small announces the smallest initiator",
		Source:   `Dolev, Klawe and Rodeh 1982, as presented in the lecture notes "Election algorithms" ("Dolev-Klawe-Rodeh algorithm (DKR)", slides 6-8); docs/references.md#dkr82, #notes-election`,
		Topology: spec.UniRing,
		Winner:   spec.MinInitiators,
		AllLearn: true,
		Messages: []string{dkrOne: "one", dkrTwo: "two", dkrSmall: "small"},
		Bound:    spec.Bound{Formula: "2N⌊log N⌋ + 2N", Max: dkrBound},
		Channels: spec.FIFO,
		// The lecture notes' estimate, which dkrBound corrects.
		Literature: []spec.Formula{
			{Measure: "messages", Stat: "max", Rel: spec.AtMost, Text: "2N log N + N", Source: `notes-election, "DKR message complexity estimate": at most log N rounds of 2N messages, then N informing of the result`,
				Value: func(n int) (a, b *big.Rat) { return big.NewRat(int64(n), 1), big.NewRat(2*int64(n), 1) }},
		},
	}
	if p.variant == dkrNoSecond {
		info.Name = "dkr-nosecond"
		info.Title = "Dolev-Klawe-Rodeh whose elimination test forgets acn < q"
		info.Bug = "the elimination test keeps acn whenever acn < c and ignores the (two, q) it just received, so a round need not halve the active processes: as few as one drops out"
		// Still correct, but rounds no longer halve the active processes:
		// up to k-1 rounds for k initiators, O(n^2) messages.
		info.Breaks = "message-bound"
	}
	return info
}

// Init implements spec.Protocol: c_p init p, acn_p and win_p undef.
func (DKR) Init(env spec.Env) DKRState {
	return DKRState{ID: env.ID, C: env.ID}
}

// Step implements spec.Protocol.
func (p DKR) Step(s DKRState, ev spec.Event, out *spec.Outbox) DKRState {
	if ev.Kind == spec.Wake {
		if s.phase == dkrSleep {
			// "if p is initiator then state_p := active"; send (one, c_p).
			s.phase = dkrActiveOne
			out.Send(next, spec.Message{Kind: dkrOne, ID: s.C})
		}
		return s
	}
	q := ev.Msg.ID
	switch {
	case ev.Msg.Kind == dkrOne && (s.phase == dkrSleep || s.phase == dkrPassiveOne):
		// Passive: "receive (one, q); send (one, q)". A passive process
		// stands for no identity, so c_p is forgotten (states that behave
		// alike encode alike).
		s.phase = dkrPassiveM
		s.C = spec.None
		if out.Noting() {
			out.Note("passive: relay one(%d)", q)
		}
		out.Send(next, ev.Msg)

	case ev.Msg.Kind != dkrOne && s.phase == dkrPassiveM:
		// Passive: "receive m; send m; if m is a (small, q) message then
		// win_p := q".
		out.Send(next, ev.Msg)
		if ev.Msg.Kind == dkrSmall {
			if out.Noting() {
				out.Note("passive: relay small(%d), win := %d", q, q)
			}
			s.phase = dkrDone
			s.Win = q
		} else {
			if out.Noting() {
				out.Note("passive: relay two(%d)", q)
			}
			s.phase = dkrPassiveOne
		}

	case ev.Msg.Kind == dkrOne && s.phase == dkrActiveOne:
		// Active: "receive (one, q); acn_p := q".
		s.Acn = q
		if s.Acn == s.C {
			// "acn_p is the minimum": c_p went round the whole ring, so p
			// is the last active process. "send (small, acn_p)".
			s.phase = dkrActiveSmall
			if out.Noting() {
				out.Note("one(%d) = own c: the last active, send small", q)
			}
			out.Send(next, spec.Message{Kind: dkrSmall, ID: s.Acn})
		} else {
			if out.Noting() {
				out.Note("acn := %d, send two(%d)", q, q)
			}
			// "acn_p is current id of neighbor": "send (two, acn_p)".
			s.phase = dkrActiveTwo
			out.Send(next, spec.Message{Kind: dkrTwo, ID: s.Acn})
		}

	case ev.Msg.Kind == dkrTwo && s.phase == dkrActiveTwo:
		// Active: "receive (two, q); if acn_p < c_p and acn_p < q then
		// c_p := acn_p else state_p := passive". q is the id two active
		// places upstream; acn survives only as a local minimum, so of two
		// neighbouring ids at most one survives the round.
		keep := s.Acn < s.C && s.Acn < q
		if p.variant == dkrNoSecond {
			keep = s.Acn < s.C // the bug: q is ignored
		}
		if out.Noting() {
			verdict := "passive"
			if keep {
				verdict = fmt.Sprintf("active with c := %d", s.Acn)
			}
			out.Note("two(%d): acn %d %s c %d, acn %d %s %d: %s", q, s.Acn, cmpSym(s.Acn, s.C), s.C, s.Acn, cmpSym(s.Acn, q), q, verdict)
		}
		if keep {
			// Next round: "send (one, c_p)".
			s.C = s.Acn
			s.Acn = spec.None
			s.phase = dkrActiveOne
			out.Send(next, spec.Message{Kind: dkrOne, ID: s.C})
		} else {
			s.C, s.Acn = spec.None, spec.None
			s.phase = dkrPassiveOne
		}

	case ev.Msg.Kind == dkrSmall && s.phase == dkrActiveSmall:
		// Active: "receive (small, q)": the small message went round and
		// every other process has set win_p from it. The slide's garbled
		// "then c_i := acn_p" can only mean the detector's win_p := q: the
		// loop "while win_p = undef" must end for it too. The message is
		// absorbed, and nothing else is in flight: every passive process
		// relayed its one and now its small, and it was alone in being
		// active.
		if out.Noting() {
			out.Note("own small(%d) back: win := %d", q, q)
		}
		s.phase = dkrDone
		s.Win = q
		s.C, s.Acn = spec.None, spec.None

	default:
		// No other message can arrive on FIFO channels: each active process
		// sends one, then two or small, and passive processes keep that
		// order, so a process always gets the kind it is waiting for; after
		// the small message nothing is sent. A stray message is absorbed.
	}
	return s
}
