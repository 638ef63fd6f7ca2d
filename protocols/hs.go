package protocols

import (
	"fmt"
	"math/big"

	"github.com/elcheck/elcheck/spec"
)

// This file holds Hirschberg and Sinclair's algorithm (Hirschberg and
// Sinclair 1980, docs/references.md#hs80) on a two-way ring as the lecture
// slides "Leader Election Algorithms" write it ("Speeding up the basic
// algorithm", bidirectional ring; largest id wins):
//
//	To run for election:
//	    status := candidate; maxnum := 1
//	    while status = candidate
//	        sendboth ("from", myvalue, 0, maxnum)
//	        await both replies   // but react to other messages
//	        if either reply is "no" status := lost
//	        else maxnum := 2*maxnum
//
//	On receiving ("from", value, num, maxnum):
//	    if value < myvalue  sendecho ("no", value)
//	    if value > myvalue
//	        status := lost; num := num + 1
//	        if num < maxnum sendpass ("from", value, num, maxnum)
//	        else sendecho ("ok", value)
//	    if value = myvalue  status := won
//
//	On receiving ("no", value) or ("ok", value):
//	    if value ≠ myvalue send pass the message
//	    else this is a reply the process was awaiting
//
// Ports, without relying on the ring's orientation: sendboth sends on
// ports 0 and 1, sendpass sends out of the port opposite the one the
// message came in on, sendecho back out of the port it came in on.
//
// Where the slides are silent or loose:
//   - A process that has not run for election does so on its first message,
//     before handling it, as the same slides' Chang-Roberts does ("if
//     participate = false execute step 1 first"); so every id runs and the
//     largest wins.
//   - A candidate is lost on its first "no": the other reply changes
//     nothing, since a lost process sends nothing of its own.
//   - A candidate turned lost by a larger probe while awaiting replies
//     leaves the loop when they come ("while status = candidate"); replies
//     to a lost or won process are absorbed.
//   - Only the winner knows the result ("status := won"); the others know
//     only that they lost. HS with Announce then sends ("leader", value)
//     round the ring behind the probe that came home, and absorbs it when
//     it returns, so that every process learns the leader.
//
// Why it terminates cleanly: every probe ends either as one reply that
// travels back to its sender, or at its sender when it has gone round; a
// process sends the probes of phase k+1 only when both replies of phase k
// are back, so a sender's phases never overlap. Only the largest id's probe
// can go round (any other meets a larger id, which answers "no"), and it
// does so in phase ⌈log₂ n⌉, whose range 2^k covers the ring; every process
// has then seen that probe and is lost. The announcement leaves after the
// probe has passed everyone, so it finds every process lost.

type hsVariant uint8

const (
	hsCorrect hsVariant = iota
	// hsAnnounce: the winner announces itself round the ring.
	hsAnnounce
	// hsFlip: the comparison is the wrong way round.
	hsFlip
	// hsReplyBack: a relay sends a reply back the way it came.
	hsReplyBack
	// hsOneWay: a candidate probes out of port 0 only.
	hsOneWay
	// hsAnnounceNoAbsorb: the winner forwards its returning announcement.
	hsAnnounceNoAbsorb
)

// HS's message kinds; Info names them. hsLeader is HS with Announce's only.
const (
	hsFrom spec.Kind = iota
	hsNo
	hsOK
	hsLeader
)

// HS is the lecture slides' Hirschberg-Sinclair algorithm: in phase k a
// candidate sends ("from", id, 0, 2^k) out of both ports; a probe is
// answered "no" by a larger id, passed on by a smaller one (which is then
// lost) until it has made 2^k hops, and answered "ok" there; replies travel
// back to the sender, which starts phase k+1 on two "ok"s and is lost on a
// "no"; a probe that comes back to its sender makes it the winner. The zero
// value is the correct protocol, in which only the winner learns the
// result; the registry also holds "hs-announce", whose winner announces
// itself round the ring, and the buggy variants "hs-flip", "hs-replyback",
// "hs-oneway" and "hs-announce-noabsorb".
type HS struct{ variant hsVariant }

// The correct protocols and their buggy variants join the registry.
var _ = register[HSState](HS{variant: hsCorrect}, HS{variant: hsAnnounce}, HS{variant: hsFlip},
	HS{variant: hsReplyBack}, HS{variant: hsOneWay}, HS{variant: hsAnnounceNoAbsorb})

type hsStatus uint8

const (
	hsSleep     hsStatus = iota // has not run for election
	hsCandidate                 // status = candidate
	hsLost                      // status = lost
	hsWon                       // status = won
)

// HSState is a process's local state in HS.
type HSState struct {
	ID     spec.ID
	status hsStatus
	// phase is k, maxnum = 2^k, and oks the "ok" replies of phase k so
	// far; both are zero once the process is lost or won.
	phase, oks uint8
	// Leader is its own id once won; with Announce, the announced id.
	Leader spec.ID
}

// Decision implements spec.Local.
func (s HSState) Decision() spec.Decision {
	switch s.status {
	case hsWon:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case hsLost:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Fields implements spec.Fielder: the state's encoding.
func (s *HSState) Fields(c *spec.Codec) {
	c.ID(&s.ID)
	spec.Uint(c, &s.status)
	spec.Uint(c, &s.phase)
	spec.Uint(c, &s.oks)
	c.ID(&s.Leader)
}

// String implements spec.Local: "sleep", "candidate k=1 oks=1", "lost",
// "lost leader=5", "won".
func (s HSState) String() string {
	switch s.status {
	case hsCandidate:
		return fmt.Sprintf("candidate k=%d oks=%d", s.phase, s.oks)
	case hsLost:
		if s.Leader != spec.None {
			return fmt.Sprintf("lost leader=%d", s.Leader)
		}
		return "lost"
	case hsWon:
		return "won"
	}
	return "sleep"
}

// hsBound is the textbook bound 8n(1 + ⌈log₂ n⌉) (Lynch 1996, §3.4): phase
// 0 costs at most 4n messages (two probes of one hop and two replies per
// process); a process runs phase k ≥ 1 only if its id is the largest within
// 2^(k-1) hops on both sides, so at most ⌊n/(2^(k-1)+1)⌋ do, each sending
// at most 4·2^k messages (probes out and replies back), less than 8n in
// all; phase ⌈log₂ n⌉ is the last. The "no" replies of the slides do not
// change this: a "no" travels back no further than its probe came. The
// announcement of HS with Announce adds n.
func hsBound(n int) int { return 8 * n * (1 + log2Ceil(n)) }

// hsAnnounceBound is hsBound plus the n messages of the announcement.
func hsAnnounceBound(n int) int { return hsBound(n) + n }

// Info implements spec.Protocol.
func (p HS) Info() spec.Info {
	info := spec.Info{
		Name:     "hs",
		Title:    "Hirschberg-Sinclair: probes go 2^k hops each way in phase k and come back as replies; the largest id's probe goes round",
		Source:   `Hirschberg and Sinclair 1980, as presented in the lecture slides "Leader Election Algorithms" ("Speeding up the basic algorithm", bidirectional ring, "To run for election"); docs/references.md#hs80, #slides-leader`,
		Topology: spec.BiRing,
		// A process runs for election on its first message, so every id
		// runs.
		Winner:   spec.MaxAll,
		Messages: []string{hsFrom: "from", hsNo: "no", hsOK: "ok"},
		Bound:    spec.Bound{Formula: "8n(1 + ⌈log n⌉)", Max: hsBound},
		Channels: spec.FIFO,
		Literature: []spec.Formula{
			{Measure: "messages", Stat: "max", Rel: spec.AtMost, Text: "8n(1 + ⌈log n⌉)", Source: `lynch96, §3.4 (HS): at most 4n messages in phase 0, less than 8n in each phase k ≥ 1, 1 + ⌈log n⌉ phases`,
				Value: spec.Poly(func(n int64) *big.Rat { return big.NewRat(int64(hsBound(int(n))), 1) })},
		},
	}
	if p.announces() {
		info.Name = "hs-announce"
		info.Title = "Hirschberg-Sinclair whose winner announces itself round the ring"
		info.AllLearn = true
		info.Messages = []string{hsFrom: "from", hsNo: "no", hsOK: "ok", hsLeader: "leader"}
		info.Bound = spec.Bound{Formula: "8n(1 + ⌈log n⌉) + n", Max: hsAnnounceBound}
		// The textbook's bound is on the election alone.
		info.Literature = nil
	}
	switch p.variant {
	case hsFlip:
		info.Name = "hs-flip"
		info.Title = "Hirschberg-Sinclair with the probe comparison flipped"
		info.Bug = `a process answers "no" to a larger value and passes a smaller one, so the smallest id's probe is the one that goes round`
		info.Breaks = "validity"
	case hsReplyBack:
		info.Name = "hs-replyback"
		info.Title = "Hirschberg-Sinclair whose relays send replies back the way they came"
		info.Bug = "a process passing on a reply for another process sends it out of the port it came in on, so the reply bounces between two relays for ever"
		info.Breaks = "termination"
	case hsOneWay:
		info.Name = "hs-oneway"
		info.Title = "Hirschberg-Sinclair whose candidates probe one way only"
		info.Bug = `"sendboth" sends out of port 0 only, as on a one-way ring, so a candidate awaits a second reply that never comes and the largest id never wins`
		info.Breaks = "termination"
	case hsAnnounceNoAbsorb:
		info.Name = "hs-announce-noabsorb"
		info.Title = "Hirschberg-Sinclair whose winner forwards its own returning announcement"
		info.Bug = "the winner passes its returning announcement on like any other process, so it circulates for ever"
		info.Breaks = "termination"
	}
	return info
}

// announces reports whether the winner announces itself.
func (p HS) announces() bool { return p.variant == hsAnnounce || p.variant == hsAnnounceNoAbsorb }

// Init implements spec.Protocol.
func (HS) Init(env spec.Env) HSState { return HSState{ID: env.ID} }

// Step implements spec.Protocol.
func (p HS) Step(s HSState, ev spec.Event, out *spec.Outbox) HSState {
	if s.status == hsSleep {
		// "To run for election", on waking or before the first message.
		s.status = hsCandidate
		p.sendBoth(s, out)
	}
	if ev.Kind == spec.Wake {
		return s
	}
	m := ev.Msg
	// sendecho goes back out of the arrival port, sendpass out of the
	// other one.
	echo, pass := ev.Port, 1-ev.Port
	switch m.Kind {
	case hsFrom:
		smaller, larger := m.ID < s.ID, m.ID > s.ID
		if p.variant == hsFlip {
			smaller, larger = larger, smaller // the bug
		}
		switch {
		case smaller:
			out.Send(echo, spec.Message{Kind: hsNo, ID: m.ID})
		case larger:
			s = hsLose(s)
			if num := m.Arg[0] + 1; num < m.Arg[1] {
				out.Send(pass, spec.Message{Kind: hsFrom, ID: m.ID, Arg: [2]int32{num, m.Arg[1]}})
			} else {
				out.Send(echo, spec.Message{Kind: hsOK, ID: m.ID})
			}
		case s.status != hsWon:
			// "if value = myvalue status := won": the probe went round.
			// Its twin, coming round the other way, finds it won.
			s = HSState{ID: s.ID, status: hsWon, Leader: s.ID}
			if p.announces() {
				// Behind the probe, which every process has seen.
				out.Send(pass, spec.Message{Kind: hsLeader, ID: s.ID})
			}
		}
	case hsNo, hsOK:
		switch {
		case m.ID != s.ID:
			if p.variant == hsReplyBack {
				pass = echo // the bug
			}
			out.Send(pass, m)
		case s.status != hsCandidate:
			// A reply to a process that lost meanwhile: absorbed.
		case m.Kind == hsNo:
			s = hsLose(s)
		default:
			s.oks++
			if s.oks == 2 {
				// Both replies "ok": "maxnum := 2*maxnum", next phase.
				s.phase++
				s.oks = 0
				p.sendBoth(s, out)
			}
		}
	case hsLeader:
		if m.ID == s.ID && p.variant != hsAnnounceNoAbsorb {
			return s // the announcement is back: absorbed
		}
		if m.ID != s.ID {
			s.Leader = m.ID
		}
		out.Send(pass, m)
	}
	return s
}

// sendBoth is sendboth ("from", myvalue, 0, maxnum), maxnum = 2^phase.
func (p HS) sendBoth(s HSState, out *spec.Outbox) {
	ports := spec.Port(2)
	if p.variant == hsOneWay {
		ports = 1 // the bug
	}
	for port := range ports {
		out.Send(port, spec.Message{Kind: hsFrom, ID: s.ID, Arg: [2]int32{0, 1 << s.phase}})
	}
}

// hsLose is "status := lost": the phase no longer matters, and a leader
// already announced stays known.
func hsLose(s HSState) HSState {
	return HSState{ID: s.ID, status: hsLost, Leader: s.Leader}
}
