package explore

import (
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// A step's effect on a global state, written once. Beside its process's
// new local state, an action takes the pending wake-up of its process (a
// wake-up) or a message from its channel (a delivery); with causal clocks
// (Options.Time) it moves its process's clock by Lamport's rule, counting
// message hops; and each of its sends enters the channel of its port,
// stamped with the clock plus one. transition says so, in that order, to a
// mutator: each store makes the changes on its own representation
// (stateMut on a State, spliceMut on an encoding it splices, vecMut on a
// collapsed vector). An event kind to come (a crash, a recovery, a timer)
// is a case here and a primitive in each mutator, never a fourth applier.
//
// The stores call transition's specialisations (ztransition.go, written
// from it by go generate: TestTransitionGenerated checks they agree), so
// that the hot paths pay no interface call.

//go:generate go run ./internal/gentransition/cmd

// Each store's mutator implements mutator.
var (
	_ mutator = (*stateMut)(nil)
	_ mutator = (*spliceMut)(nil)
	_ mutator = (*vecMut)(nil)
)

// mutator makes the changes of one step on a store's representation of
// the state it is taken from. The step's result (its new local state and
// its sends) is the mutator's own: transition names sends by number.
type mutator interface {
	// setLocal gives process p the step's new local state.
	setLocal(p int)
	// clearWake takes process p's pending wake-up.
	clearWake(p int)
	// pop takes the message the action delivers out of channel e.
	pop(e int)
	// send puts the step's sends, in order, into the channels of process
	// p's ports they were sent on (System.outEdge: route has checked
	// the ports), each in its sorted place in a bag, sent at time t (0
	// without clocks).
	send(p int, t int32)
	// clock is process p's causal clock, and setClock sets it.
	clock(p int) int32
	setClock(p int, t int32)
}

// transition applies to mu the effect of process p's action of kind kind:
// a delivery from channel e of a message sent at msgTime (0 for any other
// kind).
//
//lint:ignore U1000 the template of ztransition.go's functions, which the stores call
func transition(mu mutator, kind spec.EventKind, p, e int, msgTime int32, clocked bool) {
	mu.setLocal(p)
	wakes, pops := effect(kind, p, e)
	if wakes >= 0 {
		mu.clearWake(wakes)
	}
	clk := int32(-1) // a send's time is then 0
	if clocked {
		clk = max(mu.clock(p), msgTime) // msgTime is 0 but for a delivery
		mu.setClock(p, clk)
	}
	if pops >= 0 {
		mu.pop(pops)
	}
	mu.send(p, clk+1)
}

// stateMut is the mutator of a State: t, a copy of the state the step is
// taken from that owns only what the step changes (scratch.own), with
// channels of bounded capacity (Config.Capacity) where a send to a full
// channel is held.
type stateMut struct {
	sy    *System
	sc    *scratch
	t     *State
	msg   spec.Message // the message a delivery takes
	sends []spec.Send
	held  []spec.Send // the sends held back by a full channel
}

func (m *stateMut) setLocal(p int)          { m.t.Locals[p] = m.sc.local }
func (m *stateMut) clearWake(p int)         { m.t.Wake &^= 1 << uint(p) }
func (m *stateMut) clock(p int) int32       { return m.t.Clocks[p] }
func (m *stateMut) setClock(p int, t int32) { m.t.Clocks[p] = t }

func (m *stateMut) pop(e int) {
	m.sc.own(m.t, e)
	c := m.t.Chans[e]
	j := 0
	if m.sy.Config.Channels == spec.Bag {
		j = slices.Index(c, m.msg)
	}
	c = slices.Delete(c, j, j+1)
	m.t.Chans[e], m.sc.bufs[e] = c, c
}

func (m *stateMut) send(p int, t int32) {
	for _, snd := range m.sends {
		e := m.sy.outEdge[p][snd.Port]
		snd.Msg.Time = t
		if m.t.Held != nil && (len(m.held) > 0 || len(m.t.Chans[e]) >= m.sy.Config.Capacity) {
			// The channel is full: the process blocks here, and this
			// send and every later one wait, in order (unblock).
			m.held = append(m.held, snd)
			continue
		}
		m.sc.own(m.t, e)
		m.t.Chans[e] = m.sy.push(m.t.Chans[e], snd.Msg)
		m.sc.bufs[e] = m.t.Chans[e]
	}
}

// spliceMut is the mutator of an encoding being spliced (spliceStep): it
// notes what the step changes, which spliceStep then writes in the
// encoding's order. No clocks: a system with clocks does not splice.
type spliceMut struct {
	sy    *System
	sends []spec.Send
	wake  int   // the wake-up taken, or -1
	in    int   // the channel popped, or -1
	outs  []int // the channel each send entered
}

func (m *spliceMut) setLocal(int)        {}
func (m *spliceMut) clearWake(p int)     { m.wake = p }
func (m *spliceMut) pop(e int)           { m.in = e }
func (m *spliceMut) clock(int) int32     { return 0 }
func (m *spliceMut) setClock(int, int32) {}

func (m *spliceMut) send(p int, _ int32) {
	for _, snd := range m.sends {
		m.outs = append(m.outs, m.sy.outEdge[p][snd.Port])
	}
}

// vecMut is the mutator of a collapsed vector (collapser.next): it notes
// the changes (cheap enough to inline, so that a step's effect costs no
// call), which next then turns into the successor's fingerprint sum,
// wake-up set, clock and channel contents from the collapser's tables.
type vecMut struct {
	wake     int   // the wake-up taken, or -1
	in       int   // the channel popped, or -1
	clk, was int32 // the process's clock after the step and before (with clocks)
	time     int32 // the sends' time
}

func (m *vecMut) setLocal(int)            {}
func (m *vecMut) clearWake(p int)         { m.wake = p }
func (m *vecMut) clock(int) int32         { return m.was }
func (m *vecMut) setClock(_ int, t int32) { m.clk = t }
func (m *vecMut) pop(e int)               { m.in = e }
func (m *vecMut) send(_ int, t int32)     { m.time = t }
