package protocols

import (
	"fmt"
	"math/big"

	"github.com/elcheck/elcheck/spec"
)

// This file holds LeLann's ring election (LeLann 1977) in the two forms its
// presentations give (docs/references.md#lelann77):
//
//   - LeLann follows the lecture notes "Election algorithms", "LeLann's
//     algorithm" (slide 4): only initiators send a token, the smallest
//     initiator wins, non-initiators relay and lose.
//   - LeLannList follows the lecture slides "Leader Election Algorithms",
//     "Simple algorithm": every process joins, keeps an active list, and the
//     largest id becomes coordinator.

// ---------------------------------------------------------------------------
// The lecture notes' LeLann: min of the initiators wins.

type lelannVariant uint8

const (
	lelannCorrect lelannVariant = iota
	// lelannFlip compares with max(List) instead of min(List).
	lelannFlip
)

// LeLann's message kind; Info names it.
const lelannTok spec.Kind = 0

// LeLann is the LeLann algorithm of the lecture notes "Election
// algorithms". Each initiator p sends (tok, p) to Next_p, records every
// foreign token in List_p and forwards it, and decides when its own token
// returns: leader iff p = min(List_p).
// Non-initiators relay every token and become lost. The zero value is the
// correct protocol; the registry also holds the buggy variant "lelann-flip".
type LeLann struct{ variant lelannVariant }

// The correct protocol and its buggy variant join the registry.
var _ = register[LeLannState](LeLann{variant: lelannCorrect}, LeLann{variant: lelannFlip})

type lelannPhase uint8

const (
	lelannSleep  lelannPhase = iota // has not woken and has received nothing
	lelannCand                      // initiator waiting for its own token
	lelannLeader                    // own token returned, p = min(List_p)
	lelannLost                      // own token returned, p ≠ min(List_p)
	lelannRelay                     // non-initiator: relays forever, lost
)

// LeLannState is a process's local state in LeLann.
type LeLannState struct {
	ID    spec.ID
	phase lelannPhase
	// List is List_p while the process is a candidate; it is dropped once
	// the process has decided, when only its minimum matters.
	List []spec.ID
	// Leader is min(List_p) once an initiator has decided.
	Leader spec.ID
}

// Decision implements spec.Local.
func (s LeLannState) Decision() spec.Decision {
	switch s.phase {
	case lelannLeader:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case lelannLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	case lelannRelay:
		// The notes' non-initiators never learn the winner's id.
		return spec.Decision{Status: spec.Defeated}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *LeLannState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.IDSet(&s.List)
	c.ID(&s.Leader)
}

// String implements spec.Local: "cand list={1,3}", "lost leader=1".
func (s LeLannState) String() string {
	switch s.phase {
	case lelannCand:
		return "cand list=" + formatIDs(s.List)
	case lelannLeader:
		return "leader"
	case lelannLost:
		return fmt.Sprintf("lost leader=%d", s.Leader)
	case lelannRelay:
		return "relay (lost)"
	}
	return "sleep"
}

// Info implements spec.Protocol.
func (p LeLann) Info() spec.Info {
	info := spec.Info{
		Name:     "lelann",
		Title:    "LeLann: every initiator's token goes round the ring; the smallest initiator wins",
		Source:   `LeLann 1977, as presented in the lecture notes "Election algorithms" ("LeLann's algorithm", slide 4); docs/references.md#lelann77, #notes-election`,
		Topology: spec.UniRing,
		Winner:   spec.MinInitiators,
		// Non-initiators relay and lose without learning the winner.
		AllLearn: false,
		Messages: []string{lelannTok: "tok"},
		// Each of at most N initiators' tokens makes exactly N hops
		// (the lecture notes: message complexity O(N^2)).
		Bound:    spec.Bound{Formula: "N^2", Max: func(n int) int { return n * n }},
		Channels: spec.FIFO,
		// The lecture notes give the order of magnitude only.
		Literature: []spec.Formula{
			{Measure: "tok", Stat: "mean", Rel: spec.Equal, Text: "N^2", Source: `notes-election, "LeLann's algorithm": each initiator's token goes round the ring; all N initiate`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
			{Measure: "tok", Stat: "max", Rel: spec.AtMost, Text: "N^2", Source: `notes-election, "LeLann's algorithm": at most N tokens of N hops, O(N^2)`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
		},
	}
	if p.variant == lelannFlip {
		info.Name = "lelann-flip"
		info.Title = "LeLann with the final comparison flipped: p = max(List_p) becomes leader"
		info.Bug = "the initiator decides leader iff p = max(List_p) instead of min(List_p), so the largest initiator wins"
		info.Breaks = "validity"
	}
	return info
}

// Init implements spec.Protocol: List_p init {p}, state_p = sleep.
func (LeLann) Init(env spec.Env) LeLannState {
	return LeLannState{ID: env.ID, phase: lelannSleep, List: []spec.ID{env.ID}}
}

// Step implements spec.Protocol.
func (p LeLann) Step(s LeLannState, ev spec.Event, out *spec.Outbox) LeLannState {
	switch s.phase {
	case lelannSleep:
		if ev.Kind == spec.Wake {
			// "if p is initiator then state_p := cand; send (tok, p)".
			s.phase = lelannCand
			out.Send(next, spec.Message{Kind: lelannTok, ID: s.ID})
			return s
		}
		// Woken by a token: p is not an initiator. "repeat receive (tok, q);
		// send (tok, q); if state_p = sleep then state_p := lost".
		s.phase = lelannRelay
		s.List = nil
		if out.Noting() {
			out.Note("woken by tok(%d): non-initiator, relay", ev.Msg.ID)
		}
		out.Send(next, ev.Msg)
		return s
	case lelannRelay:
		if ev.Kind == spec.Deliver {
			out.Send(next, ev.Msg)
		}
		return s
	case lelannCand:
		if ev.Kind != spec.Deliver {
			return s
		}
		q := ev.Msg.ID
		if q != s.ID {
			// "List_p := List_p ∪ {q}; send (tok, q) to Next_p".
			s.List = withID(s.List, q)
			if out.Noting() {
				out.Note("tok(%d): add %d to the list, relay", q, q)
			}
			out.Send(next, ev.Msg)
			return s
		}
		// Own token back. On FIFO channels every other initiator's token
		// has passed p by now: that initiator sent its own token before
		// it forwarded p's, and order is kept all the way to p. So List_p
		// holds every initiator and p receives nothing more.
		best, rule := minID(s.List), "min"
		if p.variant == lelannFlip {
			best, rule = maxID(s.List), "max" // the bug
		}
		if out.Noting() {
			out.Note("own tok(%d) back: leader := %s %s = %d", q, rule, formatIDs(s.List), best)
		}
		s.Leader = best
		if best == s.ID {
			s.phase = lelannLeader
		} else {
			s.phase = lelannLost
		}
		s.List = nil
		return s
	}
	// lelannLeader, lelannLost: the lecture notes' program has ended. No
	// token reaches p any more on FIFO channels (see above); anything that
	// did would be absorbed here.
	return s
}

// ---------------------------------------------------------------------------
// The lecture slides' LeLann: active lists, max of all wins.

// LeLannList is the "Simple algorithm" (Le Lann 1977) of the lecture slides
// "Leader Election Algorithms". A process that wakes (an initiator, or a
// process on its first elect message) creates an active list {i} and sends
// elect(i); it adds every foreign elect(j) to its list and forwards it; when
// its own elect(i) returns the list holds every process and it decides: the
// coordinator is max(list).
//
// It relies on FIFO channels: a process j sends elect(j) before it forwards
// anything, in particular before it forwards elect(i); FIFO keeps elect(j)
// ahead of elect(i) on every channel from j to i, so elect(j) reaches i
// before i's own message returns. With unordered channels (the variant
// "lelann-list-bag") elect(i) can overtake and i decides on a partial list.
type LeLannList struct{ bag bool }

// The correct protocol and its buggy variant join the registry.
var _ = register[LeLannListState](LeLannList{}, LeLannList{bag: true})

// LeLannList's message kind; Info names it.
const listElect spec.Kind = 0

type listPhase uint8

const (
	listIdle    listPhase = iota // has not seen or sent an elect message
	listActive                   // sent elect(i), waiting for it to return
	listDecided                  // elect(i) returned: coordinator known
)

// LeLannListState is a process's local state in LeLannList.
type LeLannListState struct {
	ID    spec.ID
	phase listPhase
	// List is the active list while the process waits for elect(i).
	List []spec.ID
	// Coordinator is max(List) once the process has decided.
	Coordinator spec.ID
}

// Decision implements spec.Local.
func (s LeLannListState) Decision() spec.Decision {
	if s.phase != listDecided {
		return spec.Decision{}
	}
	if s.Coordinator == s.ID {
		return spec.Decision{Status: spec.Elected, Leader: s.Coordinator}
	}
	return spec.Decision{Status: spec.Defeated, Leader: s.Coordinator}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *LeLannListState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.phase)
	c.IDSet(&s.List)
	c.ID(&s.Coordinator)
}

// String implements spec.Local: "active list={2,3}", "decided coord=3".
func (s LeLannListState) String() string {
	switch s.phase {
	case listActive:
		return "active list=" + formatIDs(s.List)
	case listDecided:
		if s.Coordinator == s.ID {
			return "coordinator"
		}
		return fmt.Sprintf("lost coord=%d", s.Coordinator)
	}
	return "idle"
}

// Info implements spec.Protocol.
func (p LeLannList) Info() spec.Info {
	info := spec.Info{
		Name:     "lelann-list",
		Title:    "LeLann with active lists: every process's elect message goes round; max of the list is coordinator",
		Source:   `LeLann 1977, as presented in the lecture slides "Leader Election Algorithms" ("Simple algorithm": active list, elect(i)); docs/references.md#lelann77, #slides-leader`,
		Topology: spec.UniRing,
		Winner:   spec.MaxAll,
		AllLearn: true,
		Messages: []string{listElect: "elect"},
		// Every process joins and each elect(i) makes exactly n hops
		// (the lecture slides: "each of the n nodes sends a message which is
		// passed to all other nodes").
		Bound:    spec.Bound{Formula: "N^2", Max: func(n int) int { return n * n }},
		Channels: spec.FIFO,
		Literature: []spec.Formula{
			{Measure: "elect", Stat: "min", Rel: spec.Equal, Text: "n^2", Source: `slides-leader, "Simple algorithm": each of the n nodes sends a message which is passed to all other nodes (and back to it)`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
			{Measure: "elect", Stat: "max", Rel: spec.Equal, Text: "n^2", Source: `slides-leader, as above`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
		},
	}
	if p.bag {
		info.Name = "lelann-list-bag"
		info.Title = "LeLann with active lists run on unordered channels"
		info.Channels = spec.Bag
		info.Bug = "the algorithm is run on unordered channels, so elect(i) can return before some elect(j) and i decides on a partial list"
		// The first wrong decision is a validity failure: a process
		// whose list lacks the largest id takes max(list) for the
		// coordinator, itself or another wrong id. Two leaders and
		// disagreement follow later in the same run.
		info.Breaks = "validity"
	}
	return info
}

// Init implements spec.Protocol.
func (LeLannList) Init(env spec.Env) LeLannListState {
	return LeLannListState{ID: env.ID}
}

// Step implements spec.Protocol.
func (LeLannList) Step(s LeLannListState, ev spec.Event, out *spec.Outbox) LeLannListState {
	if s.phase == listIdle {
		// "creates a new active list ..., sends a message elect(i) to its
		// right neighbor, and adds the number i to its active list". On a
		// message this is the first rule: "creates a new active list with
		// the numbers i and j. It then sends the message elect(i), followed
		// by the message elect(j)" — the j part is the forwarding below.
		s.phase = listActive
		s.List = []spec.ID{s.ID}
		out.Send(next, spec.Message{Kind: listElect, ID: s.ID})
		if ev.Kind == spec.Wake {
			return s
		}
	}
	if ev.Kind != spec.Deliver {
		return s
	}
	j := ev.Msg.ID
	if j != s.ID {
		// "If i ≠ j, then P_i adds j to its active list and forwards the
		// message". The rule does not depend on having decided; once the
		// process has decided the list no longer matters, so it is not kept.
		if s.phase == listActive {
			s.List = withID(s.List, j)
		}
		if out.Noting() {
			out.Note("elect(%d): add %d to the list, forward", j, j)
		}
		out.Send(next, ev.Msg)
		return s
	}
	if s.phase != listActive {
		return s // cannot happen: elect(i) returns once
	}
	// "If i = j ... The active list for P_i contains all the active nodes in
	// the system. P_i can now determine the new coordinator node."
	s.phase = listDecided
	s.Coordinator = maxID(s.List)
	if out.Noting() {
		out.Note("own elect(%d) back: coordinator := max %s = %d", j, formatIDs(s.List), s.Coordinator)
	}
	s.List = nil
	return s
}
