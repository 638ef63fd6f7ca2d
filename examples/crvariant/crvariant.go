// Package crvariant is a worked example of a protocol written outside
// elcheck: a Chang-Roberts variant on a unidirectional ring in which the
// largest id wins and the winner's ANNOUNCE message tells everyone. It
// depends on elcheck's spec package alone; its tests check it with
// elchecktest and elcheck.Verify, and cmd/crvariant gives it elcheck's
// whole command line.
package crvariant

import (
	"fmt"

	"github.com/elcheck/elcheck/spec"
)

// The one port of a process on a unidirectional ring: it sends to its
// successor and receives from its predecessor on it.
const next spec.Port = 0

// The message kinds, named in Info.Messages.
const (
	probe spec.Kind = iota
	announce
)

// Protocol is the variant; Relay picks the (buggy) relay mistake.
type Protocol struct {
	// Relay makes the winner pass its own returning probe on like any
	// relay, besides announcing itself: the bug of "crv-relay".
	Relay bool
}

// Variants returns the correct protocol and the buggy one as machines, for
// cli.Run and the tests.
func Variants() []spec.Machine {
	return []spec.Machine{spec.Erase[State](Protocol{}), spec.Erase[State](Protocol{Relay: true})}
}

type phase uint8

const (
	asleep phase = iota
	running
	won
	lost
)

// State is a process's local state: its id, its phase and, once known,
// the leader's id.
type State struct {
	ID     spec.ID
	Phase  phase
	Leader spec.ID
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision {
	switch s.Phase {
	case won:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case lost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: one list for encoding and decoding.
func (s *State) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.Phase)
	c.ID(&s.Leader)
}

// String implements spec.Local, for traces.
func (s State) String() string {
	switch s.Phase {
	case running:
		return "running"
	case won:
		return "won"
	case lost:
		return fmt.Sprintf("lost to %d", s.Leader)
	}
	return "asleep"
}

// Info implements spec.Protocol.
func (p Protocol) Info() spec.Info {
	info := spec.Info{
		Name:     "crv",
		Title:    "a user's Chang-Roberts: max wins, the winner announces itself",
		Topology: spec.UniRing,
		Winner:   spec.MaxAll,
		AllLearn: true,
		Messages: []string{probe: "probe", announce: "announce"},
		Bound:    spec.Bound{Formula: "n(n+1)/2 probes + n announcements", Max: func(n int) int { return n*(n+1)/2 + n }},
		Channels: spec.FIFO,
	}
	if p.Relay {
		info.Name = "crv-relay"
		info.Bug = "the winner also relays its returning probe, which then circles for ever"
		info.Breaks = "termination"
	}
	return info
}

// Init implements spec.Protocol.
func (Protocol) Init(env spec.Env) State { return State{ID: env.ID} }

// Step implements spec.Protocol. It is pure: it reads only its arguments
// and compares ids, never computes with them.
func (p Protocol) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if ev.Kind == spec.Wake || s.Phase == asleep {
		// A process joins on waking or on its first message, whichever
		// comes first, so every id runs.
		if s.Phase == asleep {
			s.Phase = running
			out.Send(next, spec.Message{Kind: probe, ID: s.ID})
		}
		if ev.Kind == spec.Wake {
			return s
		}
	}
	k := ev.Msg.ID
	switch ev.Msg.Kind {
	case probe:
		switch {
		case k == s.ID:
			// The probe went all the way round: no larger id exists.
			s.Phase, s.Leader = won, s.ID
			out.Send(next, spec.Message{Kind: announce, ID: s.ID})
			if p.Relay {
				out.Send(next, ev.Msg) // the bug
			}
			// A note says why, for the counterexample; the guard keeps
			// the search from paying for its arguments.
			if out.Noting() {
				out.Note("own probe(%d) back: won", k)
			}
		case k > s.ID:
			if out.Noting() {
				out.Note("relay probe(%d): %d > %d", k, k, s.ID)
			}
			out.Send(next, ev.Msg)
		default:
			// k < s.ID: the probe dies here.
			if out.Noting() {
				out.Note("discard probe(%d): %d < %d", k, k, s.ID)
			}
		}
	case announce:
		if k != s.ID {
			if out.Noting() {
				out.Note("announce(%d): lost, relay", k)
			}
			s.Phase, s.Leader = lost, k
			out.Send(next, ev.Msg)
		} else if out.Noting() {
			// The winner absorbs its own announcement.
			out.Note("own announce(%d) back: absorb", k)
		}
	}
	return s
}
