// Package clean is a small correct protocol (Chang-Roberts, max wins) that
// uses the patterns the analyzer must accept: a read-only package-level
// table, a map read through sorted keys, value fields set on the local
// copy, slices copied before they are changed, and helpers.
package clean

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/elcheck/elcheck/spec"
)

// kinds names the messages; it is initialised at declaration and only read.
var kinds = []string{"probe", "elected"}

// weights is a read-only lookup table.
var weights = map[string]int{"probe": 1, "elected": 2}

// counter is written, but only in init, before any step runs.
var counter int

func init() { counter = len(kinds) }

// timeout is a constant of package time, not a clock reading.
const timeout = time.Second

// Proto is Chang-Roberts on a unidirectional ring.
type Proto struct{}

// State is a process's local state.
type State struct {
	ID     spec.ID
	phase  uint8
	Leader spec.ID
	Seen   []spec.ID
	Hops   map[spec.ID]int
}

// Decision implements spec.Local.
func (s State) Decision() spec.Decision {
	switch s.phase {
	case 2:
		return spec.Decision{Status: spec.Elected, Leader: s.Leader}
	case 3:
		return spec.Decision{Status: spec.Defeated, Leader: s.Leader}
	}
	return spec.Decision{}
}

// Encode implements spec.Local.
func (s State) Encode(e *spec.Encoder) {
	e.ID(s.ID)
	e.Uint(uint64(s.phase))
	e.ID(s.Leader)
	e.IDSet(s.Seen)
	for _, id := range slices.Sorted(maps.Keys(s.Hops)) {
		e.ID(id)
		e.Int(int64(s.Hops[id]))
	}
}

// String implements spec.Local.
func (s State) String() string {
	sorted := slices.Clone(s.Seen)
	slices.Sort(sorted)
	return fmt.Sprintf("%s/%d phase=%d seen=%v", kinds[0], counter, s.phase, sorted)
}

// Info implements spec.Protocol.
func (Proto) Info() spec.Info {
	return spec.Info{Name: "clean", Messages: kinds, Bound: spec.Bound{Max: func(n int) int { return n * n }}}
}

// Init implements spec.Protocol.
func (Proto) Init(env spec.Env) State { return State{ID: env.ID} }

// Decode implements spec.Protocol.
func (Proto) Decode(d *spec.Decoder) State {
	var s State
	s.ID = d.ID()
	s.phase = uint8(d.Uint())
	s.Leader = d.ID()
	s.Seen = d.IDSet()
	return s
}

// Step implements spec.Protocol.
func (p Proto) Step(s State, ev spec.Event, out *spec.Outbox) State {
	if ev.Kind == spec.Wake {
		return p.wake(s, out)
	}
	s = s.patterns(ev.Msg.ID)
	s = s.remember(ev.Msg.ID)
	k := ev.Msg.ID
	switch {
	case ev.Msg.Kind == 1 && k != s.ID:
		s.phase, s.Leader = 3, k
		out.Send(0, ev.Msg)
	case ev.Msg.Kind == 1:
	case k == s.ID:
		s.phase, s.Leader = 2, s.ID
		out.Send(0, spec.Message{Kind: 1, ID: s.ID})
	case k > s.ID && weights[kinds[ev.Msg.Kind]] > 0:
		s = p.wake(s, out)
		out.Send(0, ev.Msg)
	}
	return s
}

func (Proto) wake(s State, out *spec.Outbox) State {
	if s.phase == 0 {
		s.phase = 1
		out.Send(0, spec.Message{ID: s.ID})
	}
	return s
}

// remember adds id to Seen and counts it in Hops, on copies.
func (s State) remember(id spec.ID) State {
	if slices.Contains(s.Seen, id) {
		return s
	}
	// No spare capacity: append copies instead of writing into the
	// caller's backing array.
	s.Seen = append(s.Seen[:len(s.Seen):len(s.Seen)], id)
	hops := maps.Clone(s.Hops)
	if hops == nil {
		hops = map[spec.ID]int{}
	}
	hops[id]++
	s.Hops = hops
	return s
}

// patterns holds more shapes of correct code the input check must accept:
// copies taken on every path before a write, writes after an early
// return, copies of the state with fresh slices, and locals.
func (s State) patterns(id spec.ID) State {
	if len(s.Seen) == 0 {
		return s
	}
	if id > s.ID {
		s.Seen = slices.Clone(s.Seen)
	} else {
		s.Seen = []spec.ID{id}
	}
	s.Seen[0] = id
	next := s
	next.Hops = make(map[spec.ID]int)
	next.Hops[id] = 1
	switch {
	case id == 0:
		return next
	default:
		next.Seen = append([]spec.ID(nil), next.Seen...)
	}
	next.Seen = append(next.Seen, id)
	var buf [4]spec.ID
	buf[0] = id
	local := buf[:]
	local[1] = id
	for i := range next.Seen {
		next.Seen[i]++
	}
	return next
}
