package explore

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Events: what can happen in a global state, declared once. Beside the
// protocol's step, an event kind has a rule for when it is enabled
// (enabled, below), for what it changes in the process-level state the
// explorer keeps beside the local states (State.Wake, a vector's first
// number in the collapsed store: the pending wake-ups today; up/down and
// timers when faults and clocks come), for where the step's sends go
// (route), and for when the reduction may take it alone (System.ready).
// System.Enabled, both stores, replay (which numbers actions in
// enabled's order) and the trace format (spec.EventKind's names) take
// them from here. To add a kind: name it in spec.EventKind, give it a case
// in enabled (when), effect (what it changes: the stores apply it with
// their own primitives, clearing a wake-up bit, popping a channel),
// terminal (what is still enabled) and System.ready (the reduction); a
// new kind of process-level state (up/down, a timer) is a new field of
// State and a new number of the collapsed vector. The reference explorer
// in the tests, an independent re-implementation on purpose, must learn it
// too.

// bagView is what the enabling rule reads of a bag channel's contents,
// whatever the representation a store keeps them in.
type bagView interface {
	// length is the number of messages in channel e.
	length(e int) int
	// repeats reports whether message j of channel e equals message j-1
	// (a bag offers one delivery per distinct message; it is sorted).
	repeats(e, j int) bool
}

// slot is an enabled action as the enabling rule gives it: its kind,
// its process, for a delivery its channel and the message's place in it
// (e is -1 for a wake-up), and its number in the list, which traces
// replay.
type slot struct {
	kind       spec.EventKind
	p, e, j, k int32
}

// enabled appends to dst the actions enabled in a state whose pending
// wake-ups are wake, whose channel e is empty iff full[e] is 0, and whose
// bags v shows, in the fixed order traces number them: wake-ups by
// process, then deliveries by channel, the head of a FIFO channel or each
// distinct message of a bag. A channel into an initiator that has not
// woken is not enabled: the initiator's start is its first event.
func (sy *System) enabled(wake spec.Set, full []uint32, v bagView, dst []slot) []slot {
	k := int32(0)
	for w := uint64(wake); w != 0; w &= w - 1 {
		dst = append(dst, slot{spec.Wake, int32(bits.TrailingZeros64(w)), -1, 0, k})
		k++
	}
	fifo := sy.Config.Channels == spec.FIFO
	for e, to := range sy.edgeTo {
		if full[e] == 0 || wake&(1<<uint(to)) != 0 {
			continue
		}
		if fifo {
			dst = append(dst, slot{spec.Deliver, int32(to), int32(e), 0, k})
			k++
			continue
		}
		for j := range v.length(e) {
			if j == 0 || !v.repeats(e, j) {
				dst = append(dst, slot{spec.Deliver, int32(to), int32(e), int32(j), k})
				k++
			}
		}
	}
	return dst
}

func (s *State) length(e int) int      { return len(s.Chans[e]) }
func (s *State) repeats(e, j int) bool { return s.Chans[e][j] == s.Chans[e][j-1] }

// effect is what an action changes beside its process's local state and
// the channels its sends go on (route): the pending wake-up it clears
// (wakes, its process's, or -1) and the channel it takes a message from
// (pops, or -1). transition (transition.go) applies it, for every store.
func effect(kind spec.EventKind, p, e int) (wakes, pops int) {
	if kind == spec.Wake {
		return p, -1
	}
	return -1, e
}

// blocked reports whether process p of s holds sends that a full channel
// refused (channels of bounded capacity): it takes no step until they are
// out, its wake-up and deliveries waiting, as a process blocked in a send
// does.
func blocked(s *State, p int) bool { return s.Held != nil && len(s.Held[p]) > 0 }

// ended reports whether nothing is enabled in s, which holds inFlight
// messages: terminal's rule, and with channels of bounded capacity, an
// empty Enabled list (a message to a blocked process is no delivery).
func (sy *System) ended(s *State, inFlight int) bool {
	if s.Held == nil {
		return terminal(s.Wake, inFlight)
	}
	return len(sy.Enabled(s, nil)) == 0
}

// Deadlock describes the processes blocked in a terminal state s, or ""
// if none is.
func (sy *System) Deadlock(s *State) string {
	var who []string
	for p, h := range s.Held {
		if len(h) > 0 {
			e := sy.outEdge[p][h[0].Port]
			who = append(who, fmt.Sprintf("p%d (id %d) is blocked sending %s on port %d (the channel to p%d holds %d, its capacity)",
				p, sy.Config.IDs[p], h[0].Msg.Format(sy.Info.Messages), h[0].Port, sy.edgeTo[e], len(s.Chans[e])))
		}
	}
	if who == nil {
		return ""
	}
	return strings.Join(who, "; ") + ", and no event is enabled"
}

// afterEffect is the pending wake-ups and the number of messages in
// flight after an action of effect (wakes, pops) that sends sent messages,
// from a state with wake and inFlight.
func afterEffect(wake spec.Set, inFlight, wakes, pops, sent int) (spec.Set, int) {
	if wakes >= 0 {
		wake &^= 1 << uint(wakes)
	}
	if pops >= 0 {
		inFlight--
	}
	return wake, inFlight + sent
}

// terminal reports whether nothing is enabled in a state with these
// pending wake-ups and messages in flight: a pending wake-up is enabled,
// and with none pending so is the delivery of any message in flight.
func terminal(wake spec.Set, inFlight int) bool { return wake == 0 && inFlight == 0 }

// route checks that each of a step's count sends, the k-th on port
// port(k), goes on a port process a.Proc has (transition then puts it on
// that port's channel): a port the process does not have is the step's
// error.
func (sy *System) route(a Action, count int, port func(k int) spec.Port, msg func(k int) spec.Message) *StepError {
	ports := sy.outEdge[a.Proc]
	for k := range count {
		if p := port(k); int(p) >= len(ports) {
			return &StepError{invariants.StepPanicked, fmt.Sprintf("%s sent %s on port %d, but the process has %d port(s)",
				sy.describe(a), msg(k).Format(sy.Info.Messages), p, len(ports))}
		}
	}
	return nil
}

// edgeMap returns where the automorphism p sends each channel: the channel
// from (i, port) goes to the channel from (p.Node[i], p.Port[i][port]).
func (sy *System) edgeMap(p spec.Perm) []int {
	m := make([]int, len(sy.Config.Topology.Edges))
	for e, ed := range sy.Config.Topology.Edges {
		m[e] = sy.outEdge[p.Node[ed.From.Node]][p.Port[ed.From.Node][ed.From.Port]]
	}
	return m
}

// OutEdge returns the channel process p's port sends on.
func (sy *System) OutEdge(p int, port spec.Port) int { return sy.outEdge[p][port] }
