package explore

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// System is the global transition system of one configuration: the
// protocol's steps lifted to global states. With transition (a step's
// effect, transition.go) it is the single definition of the semantics; the
// search, the trace rebuilder and replay all use it.
type System struct {
	Machine spec.Machine
	Info    spec.Info
	Config  spec.Config
	// outEdge[i][p] is the channel process i's port p sends on, and
	// inEdges[i] the channels into process i.
	outEdge [][]int
	inEdges [][]int
	// edgeTo[e] is the process channel e leads to; symEdges[k] is where
	// the topology's k-th symmetry sends each channel (edgeMap).
	edgeTo   []int
	symEdges [][]int
	out      spec.Outbox
	// Clocks makes states carry causal clocks (State.Clocks).
	Clocks bool
	// memo, if set, remembers steps (shared by the systems a searcher
	// builds for one protocol).
	memo *stepMemo
	// purity is when, with a memo, step runs distinct steps again to
	// check that they are functions of their input (Options.PurityEvery).
	purity puritySchedule
	// cmp, if set, is the comparison-only check of each distinct step at
	// its first run (comparison.go).
	cmp *stepComparison
	// portBlind checks each distinct step at its first run against every
	// renumbering of its process's ports (ports.go): the placements are
	// taken up to automorphisms that move ports (configs.Space.PortBlind).
	portBlind bool
	// checked, if set, are the steps another searcher of the check has
	// checked already (checkedSteps).
	checked *checkedSteps
}

// NewSystem prepares the transition system of m in cfg.
func NewSystem(m spec.Machine, cfg spec.Config) *System {
	top := cfg.Topology
	sy := &System{Machine: m, Info: m.Info(), Config: cfg, outEdge: make([][]int, top.N), inEdges: make([][]int, top.N)}
	for i := range top.N {
		sy.outEdge[i] = make([]int, top.Ports[i])
	}
	for e, ed := range top.Edges {
		sy.outEdge[ed.From.Node][ed.From.Port] = e
		sy.inEdges[ed.To.Node] = append(sy.inEdges[ed.To.Node], e)
		sy.edgeTo = append(sy.edgeTo, ed.To.Node)
	}
	for _, p := range top.Symmetries {
		sy.symEdges = append(sy.symEdges, sy.edgeMap(p))
	}
	return sy
}

// N is the number of processes.
func (sy *System) N() int { return sy.Config.Topology.N }

// env is process i's environment: its id, its number of ports, and n
// where the protocol knows it.
func (sy *System) env(i int) spec.Env {
	top := &sy.Config.Topology
	env := spec.Env{ID: sy.Config.IDs[i], Ports: top.Ports[i]}
	if sy.Info.KnowsN {
		env.N = top.N
	}
	return env
}

// Initial returns the initial state: every process in its initial state,
// channels empty, every initiator's wake-up pending.
func (sy *System) Initial() State {
	top := sy.Config.Topology
	s := State{Locals: make([][]byte, top.N), Chans: make([][]spec.Message, len(top.Edges)), Wake: sy.Config.Initiators}
	for i := range top.N {
		s.Locals[i] = sy.init(i, sy.env(i))
	}
	if sy.Clocks {
		s.Clocks = make([]int32, top.N)
	}
	if sy.Config.Capacity > 0 {
		s.Held = make([][]spec.Send, top.N)
	}
	return s
}

// initPanic is what Initial panics with when a protocol's Init panics:
// Check turns it into a step-panicked finding for the configuration.
type initPanic struct{ detail string }

// init runs process i's Init, turning a panic into an initPanic.
func (sy *System) init(i int, env spec.Env) []byte {
	defer func() {
		if r := recover(); r != nil {
			panic(initPanic{fmt.Sprintf("Init of p%d (id %d) panicked: %v", i, env.ID, r)})
		}
	}()
	return sy.Machine.Init(env)
}

// Enabled appends the actions enabled in s to dst, in the order of the
// enabling rule (events.go), which traces number them by.
func (sy *System) Enabled(s *State, dst []Action) []Action {
	var fbuf [64]uint32
	var sbuf [32]slot
	full := fbuf[:0]
	for _, c := range s.Chans {
		full = append(full, uint32(len(c)))
	}
	for _, sl := range sy.enabled(s.Wake, full, s, sbuf[:0]) {
		if blocked(s, int(sl.p)) {
			continue
		}
		a := Action{Kind: sl.kind, Proc: int(sl.p), Edge: int(sl.e)}
		if sl.e >= 0 {
			a.Msg = s.Chans[sl.e][sl.j]
		}
		dst = sy.branches(dst, s.Locals[a.Proc], a)
	}
	return dst
}

// SetNotes turns the protocol's notes (spec.Outbox.Note) on or off for the
// steps Apply runs from now on. Rebuilding and replaying a trace turn them
// on; the search never does, so that it pays nothing for them.
func (sy *System) SetNotes(on bool) { sy.out.SetNoting(on) }

// Note returns the notes of the last step Apply ran, with notes on, or "".
// A system NewSystem returns runs every step it applies (only a searcher's
// systems remember steps), so each step it applies has its own notes.
func (sy *System) Note() string { return sy.out.Noted() }

// StepError is a protocol's step that broke the contract: it panicked, sent
// on a port the process does not have, or (found by the purity check) gave
// a different result when run again on the same input.
type StepError struct {
	Property string
	Detail   string
}

func (e *StepError) Error() string { return e.Property + ": " + e.Detail }

// Event returns the event a performs, as the protocol sees it.
func (sy *System) Event(a Action) spec.Event {
	if a.Kind == spec.Wake {
		return spec.Event{Kind: spec.Wake}
	}
	m := a.Msg
	m.Time = 0 // the explorer's, not the protocol's
	return spec.Event{Kind: spec.Deliver, Port: sy.Config.Topology.Edges[a.Edge].To.Port, Msg: m}
}

// step runs the protocol step of a, or looks it up in the memo, appending
// the new local state to dst and turning a panic into a StepError; same
// reports whether the step kept the process's decision. The sends are
// valid until the next step. With the purity check on (System.purity),
// every distinct step is run again as purityDue says: at its first run, as
// the memo learns it, and at its 2nd, 4th, 8th... use.
func (sy *System) step(dst, local []byte, a Action) (next []byte, sends []spec.Send, same bool, err *StepError) {
	if sy.memo == nil {
		next, sends, err = sy.run(dst, local, a)
		return next, sends, err == nil && sy.keeps(local, next[len(dst):]), err
	}
	key := sy.memo.keyOf(local, sy.Event(a), a.Choice, sy.degree(a.Proc))
	if next, sends, same, uses, ok := sy.memo.get(dst, key); ok {
		if runs := countUse(uses, sy.purity); runs > 0 {
			if err := sy.checkPurity(local, a, next[len(dst):], sends, runs); err != nil {
				return next, sends, same, err
			}
		}
		return next, sends, same, nil
	}
	next, sends, err = sy.run(dst, local, a)
	if err != nil {
		return next, sends, false, err
	}
	if sy.checked != nil && sy.checked.has(fingerprint(key)) {
		same = sy.keeps(local, next[len(dst):])
		sy.memo.put(key, next[len(dst):], sends, same)
		return next, sends, same, nil
	}
	if runs := purityDue(1, sy.purity); runs > 0 {
		// The first run's result is the one the search uses: copy it, as
		// checkPurity's runs reuse the outbox.
		used, usedSends := slices.Clone(next[len(dst):]), slices.Clone(sends)
		if err := sy.checkPurity(local, a, used, usedSends, runs); err != nil {
			return next, sends, false, err
		}
		next, sends = append(next[:len(dst)], used...), usedSends
	}
	if sy.portBlind {
		key = slices.Clone(key) // checkPorts may look alternatives up in the memo, whose buffer key is
	}
	sends, remember, err := sy.checkFirstRun(local, a, next[len(dst):], sends)
	if err != nil {
		return next, sends, false, err
	}
	same = sy.keeps(local, next[len(dst):])
	if !remember {
		return next, sends, same, nil
	}
	sy.memo.put(key, next[len(dst):], sends, same)
	if sy.checked != nil {
		sy.checked.add(fingerprint(key))
	}
	return next, sends, same, nil
}

// checkFirstRun runs the checks of a distinct step's first run beside
// the purity check, for every store: the comparison-only check
// (comparison.go) and the ports check (ports.go). next and sends are the
// run's result; the sends returned are a copy the checks' own runs do not
// overwrite. remember is false for a step the comparison-only check could
// not relabel: every configuration that takes it misses it alike,
// whichever took it first, so it is not remembered.
func (sy *System) checkFirstRun(local []byte, a Action, next []byte, sends []spec.Send) (_ []spec.Send, remember bool, err *StepError) {
	if sy.cmp != nil {
		sends = slices.Clone(sends) // the check runs the step again, on the outbox sends is in
		switch err := sy.checkRelabelled(local, a, next, sends); {
		case err == errNoRelabel:
			sy.cmp.missed.Store(true)
			return sends, false, nil
		case err != nil:
			return sends, false, err
		}
	}
	if sy.portBlind {
		sends = slices.Clone(sends) // the check runs the step again
		if err := sy.checkPorts(local, a, next, sends); err != nil {
			return sends, false, err
		}
	}
	return sends, true, nil
}

// stepPrint is the fingerprint of a's step from local as checkedSteps
// knows it: of its memo key, built in sy's memo's buffer (a searcher's
// systems have a memo).
func (sy *System) stepPrint(local []byte, a Action) uint64 {
	return fingerprint(sy.memo.keyOf(local, sy.Event(a), a.Choice, sy.degree(a.Proc)))
}

// firstUseRuns is how many times the purity check runs a distinct step
// again at its first use. A step that sends in map order differs between
// two runs only with some probability: for a map of two entries, Go starts
// its iteration at one of eight slots, so a run gives the other order with
// probability 1/8, and 16 runs all miss it with probability 0.12. A
// protocol has many distinct steps, each checked, so the chance that all
// of them miss vanishes fast; the static check (elcheck vet) sees map
// ranges for certain. Later uses, which look for slow drift, run once.
const firstUseRuns = 16

// puritySchedule is when the purity check runs a step again (purityDue):
// every is Options.PurityEvery, and a check's parts searchers share the
// later uses' runs, each taking its own part of them.
type puritySchedule struct{ every, part, parts int }

// purityDue returns how many times to run a step again at its uses-th use
// (1 the first) on schedule s: firstUseRuns at the first use, once at the
// 2nd, 4th, 8th..., or once at every use if s.every is 1; 0 if not now,
// or if the check is off. With s.parts searchers, each counting the uses
// it meets, a searcher takes the 2^k-th uses for k = s.part modulo
// s.parts only: the runs for drift then do not multiply with the workers
// (two workers ran 3,100 more steps than one at n = 6, 3 % of the sweep).
func purityDue(uses uint32, s puritySchedule) int {
	switch {
	case s.every <= 0:
		return 0
	case uses == 1:
		return firstUseRuns
	case s.every == 1:
		return 1
	case uses&(uses-1) == 0 && (s.parts <= 1 || bits.TrailingZeros32(uses)%s.parts == s.part):
		return 1
	}
	return 0
}

// countUse counts one more use of a step whose uses so far are at *uses
// (saturating) and returns purityDue for it: every engine counts alike.
func countUse(uses *uint32, s puritySchedule) int {
	if *uses < math.MaxUint32 {
		*uses++
	}
	return purityDue(*uses, s)
}

// keeps reports whether a step from local state from to next left the
// process's decision as it was.
func (sy *System) keeps(from, next []byte) bool {
	return sy.Machine.Decision(next) == sy.Machine.Decision(from)
}

// run runs the protocol step of a, appending the new local state to dst
// and turning a panic into a StepError. The sends are valid until the
// next step.
func (sy *System) run(dst, local []byte, a Action) (next []byte, sends []spec.Send, err *StepError) {
	return sy.runEvent(dst, local, sy.Event(a), a)
}

// runEvent is run with the event given: a's, or (the comparison-only
// check) a's with its ids relabelled.
func (sy *System) runEvent(dst, local []byte, ev spec.Event, a Action) (next []byte, sends []spec.Send, err *StepError) {
	defer func() {
		if r := recover(); r != nil {
			err = &StepError{invariants.StepPanicked, fmt.Sprintf("%s panicked: %v", sy.describe(a), r)}
		}
	}()
	sy.out.Reset()
	sy.out.SetChoice(a.Choice)
	next = sy.Machine.Step(dst, local, ev, &sy.out)
	if !sy.Info.Chooses {
		for _, n := range sy.out.Arity() {
			if n > 1 {
				return next, nil, &StepError{invariants.StepPanicked, fmt.Sprintf("%s called Choose(%d), but the protocol does not declare Info.Chooses: declare it, and the explorer explores every alternative", sy.describe(a), n)}
			}
		}
	}
	return next, sy.out.Sends(), nil
}

// branches appends to dst the actions a stands for: one per alternative
// of its step's choices (spec.Outbox.Choose), in the order
// spec.Outbox.NextChoice enumerates them, or a alone if the protocol does
// not choose. It runs the step to learn the alternatives; a step that
// fails is left to the caller, who runs it again and reports it.
//
// With a memo, the alternatives of a (local state, event) are remembered
// under the key of choice altsKey, so that a state's enabled actions cost
// a look-up rather than a run of every branch.
func (sy *System) branches(dst []Action, local []byte, a Action) []Action {
	if !sy.Info.Chooses {
		return append(dst, a)
	}
	a.Choice = 0
	var key []byte
	if sy.memo != nil {
		key = sy.memo.keyOf(local, sy.Event(a), altsKey, sy.degree(a.Proc))
		if alts, _, _, _, ok := sy.memo.get(nil, key); ok {
			for k := 0; k+4 <= len(alts); k += 4 {
				a.Choice = spec.Choice(binary.LittleEndian.Uint32(alts[k:]))
				dst = append(dst, a)
			}
			return dst
		}
		key = slices.Clone(key)
	}
	var buf [256]byte
	first := len(dst)
	for {
		if _, _, err := sy.run(buf[:0], local, a); err != nil {
			return append(dst, a) // not remembered: the search runs it again and reports it
		}
		if a.Choice == 0 && !slices.ContainsFunc(sy.out.Arity(), func(n uint8) bool { return n > 1 }) {
			dst = append(dst, a) // Choose(1) only: no choice to record
			break
		}
		a.Choice = sy.out.Taken()
		dst = append(dst, a)
		next, more := sy.out.NextChoice()
		if !more {
			break
		}
		a.Choice = next
	}
	if sy.memo != nil {
		var alts []byte
		for _, b := range dst[first:] {
			alts = binary.LittleEndian.AppendUint32(alts, uint32(b.Choice))
		}
		sy.memo.put(key, alts, nil, false)
	}
	return dst
}

// altsKey is the choice under which the memo keeps a step's alternatives
// (branches): no step takes it, since 0xff is no alternative's byte.
const altsKey = spec.Choice(^uint32(0))

func (sy *System) describe(a Action) string {
	id := sy.Config.IDs[a.Proc]
	choice := ""
	if a.Choice != 0 {
		choice = " (choice " + a.Choice.String() + ")"
	}
	if a.Kind == spec.Wake {
		return fmt.Sprintf("the step of p%d (id %d) on wake-up%s", a.Proc, id, choice)
	}
	return fmt.Sprintf("the step of p%d (id %d) on receiving %s%s", a.Proc, id, a.Msg.Format(sy.Info.Messages), choice)
}

// Apply returns the successor of s under a and the messages the step sent.
// s is not modified; the successor shares unmodified parts with it.
func (sy *System) Apply(s *State, a Action) (State, []spec.Send, *StepError) {
	var sc scratch
	t, sends, err := sy.applyInto(s, a, &sc)
	return t, slices.Clone(sends), err
}

// scratch is the storage a searcher reuses from step to step, so that
// taking a step allocates almost nothing: the hot path of the explorer.
type scratch struct {
	local   []byte
	same    bool        // the step kept the process's decision
	sends   []spec.Send // spliceStep's sends
	changed []int       // the channels spliceStep changes
	clocks  []int32
	held    [][]spec.Send
	locals  [][]byte
	chans   [][]spec.Message
	bufs    [][]spec.Message // per channel, for the channels a step changes
	stamp   []uint32         // stamp[e] == gen: channel e is in bufs
	gen     uint32
	// The mutators the stores' appliers hand transition.
	mut  stateMut
	smut spliceMut
}

// applyInto is Apply writing into sc: the successor and the sends are
// valid until the next call with the same scratch.
func (sy *System) applyInto(s *State, a Action, sc *scratch) (State, []spec.Send, *StepError) {
	next, sends, same, err := sy.step(sc.local[:0], s.Locals[a.Proc], a)
	if err != nil {
		return State{}, nil, err
	}
	sc.same, sc.local = same, next
	if err = sy.route(a, len(sends), sendPort(sends), sendMsg(sends)); err != nil {
		return State{}, nil, err
	}
	k := len(s.Chans)
	if len(sc.bufs) < k {
		sc.bufs = make([][]spec.Message, k)
		sc.stamp = make([]uint32, k)
	}
	if sc.gen++; sc.gen == 0 { // wrapped: forget every stamp
		clear(sc.stamp)
		sc.gen = 1
	}
	sc.locals = append(sc.locals[:0], s.Locals...)
	sc.chans = append(sc.chans[:0], s.Chans...)
	t := State{Locals: sc.locals, Chans: sc.chans, Wake: s.Wake}
	if s.Clocks != nil {
		sc.clocks = append(sc.clocks[:0], s.Clocks...)
		t.Clocks = sc.clocks
	}
	if s.Held != nil {
		t.Held = append(sc.held[:0], s.Held...)
		sc.held = t.Held
	}
	mu := &sc.mut
	*mu = stateMut{sy: sy, sc: sc, t: &t, msg: a.Msg, sends: sends, held: mu.held[:0]}
	transitionState(mu, a.Kind, a.Proc, a.Edge, a.Msg.Time, s.Clocks != nil)
	if len(mu.held) > 0 {
		t.Held[a.Proc] = slices.Clone(mu.held)
	}
	if a.Kind == spec.Deliver && s.Held != nil {
		sy.unblock(&t, sy.Config.Topology.Edges[a.Edge].From.Node, sc)
	}
	mu.t = nil // t does not outlive the call
	return t, sends, nil
}

// own gives channel e of t, a step's successor, a private copy in sc.bufs
// the first time the step changes it.
func (sc *scratch) own(t *State, e int) {
	if sc.stamp[e] != sc.gen {
		sc.stamp[e] = sc.gen
		sc.bufs[e] = append(sc.bufs[e][:0], t.Chans[e]...)
		t.Chans[e] = sc.bufs[e]
	}
}

// push appends m to channel contents c, in order on a bag.
func (sy *System) push(c []spec.Message, m spec.Message) []spec.Message {
	c = append(c, m)
	if sy.Config.Channels == spec.Bag {
		i, _ := slices.BinarySearchFunc(c[:len(c)-1], m, spec.Message.Compare)
		copy(c[i+1:], c[i:])
		c[i] = m
	}
	return c
}

// unblock lets process p's held sends go, oldest first, while their
// channels have room: a delivery that frees a place in a full channel
// completes its blocked sender's send at once. Nothing else can take that
// place (a channel has one sender, and it is blocked) and the send changes
// no decision, so taking it in the same transition as the delivery, rather
// than as a step of its own, loses no behaviour; it keeps every execution's
// length its wake-ups plus its messages (analyses.go's message count).
func (sy *System) unblock(t *State, p int, sc *scratch) {
	h := t.Held[p]
	k := 0
	for ; k < len(h); k++ {
		e := sy.outEdge[p][h[k].Port]
		if len(t.Chans[e]) >= sy.Config.Capacity {
			break
		}
		sc.own(t, e)
		t.Chans[e] = sy.push(t.Chans[e], h[k].Msg)
		sc.bufs[e] = t.Chans[e]
	}
	if k > 0 {
		t.Held[p] = slices.Clip(h[k:])
		if k == len(h) {
			t.Held[p] = nil
		}
	}
}

// spliceStep takes step a from s, encoded as p and laid out as lay, and
// appends the successor's encoding to dst without building the successor:
// the parts the step does not change (other processes' local states, the
// channels it neither pops nor pushes) are copied from p, and the bytes are
// the same as Encode's. Only for FIFO channels without clocks (splices).
// The new local state is in sc, and the step's sends in sc.sends until the
// next step.
func (sy *System) spliceStep(dst []byte, sc *scratch, p []byte, lay *layout, s *State, a Action) ([]byte, *StepError) {
	next, sends, same, err := sy.step(sc.local[:0], s.Locals[a.Proc], a)
	if err != nil {
		return dst, err
	}
	sc.same, sc.sends, sc.local = same, sends, next
	if err = sy.route(a, len(sends), sendPort(sends), sendMsg(sends)); err != nil {
		return dst, err
	}
	mu := &sc.smut
	*mu = spliceMut{sy: sy, sends: sends, wake: -1, in: -1, outs: mu.outs[:0]}
	transitionSplice(mu, a.Kind, a.Proc, a.Edge, 0, false)
	n := len(s.Locals)
	cur := int32(0) // p is copied up to here
	if mu.wake >= 0 {
		dst, cur = copyUpTo(dst, p, lay, cur, 0)
		dst = binary.AppendUvarint(dst, uint64(s.Wake&^(1<<uint(mu.wake))))
	}
	dst, cur = copyUpTo(dst, p, lay, cur, 1+a.Proc)
	dst = binary.AppendUvarint(dst, uint64(len(next)))
	dst = append(dst, next...)
	// The changed channels, in order: in and out, sorted, without repeats.
	changed := append(sc.changed[:0], mu.outs...)
	if mu.in >= 0 {
		changed = append(changed, mu.in)
	}
	slices.Sort(changed)
	changed = slices.Compact(changed)
	sc.changed = changed
	for _, e := range changed {
		c := 1 + n + e
		dst, cur = copyUpTo(dst, p, lay, cur, c)
		old := int(lay.count[e]) // s's channels may hold just their heads
		from := lay.at[c] + int32(uvarintLen(uint64(old)))
		now := old
		if e == mu.in {
			from, now = lay.head[e], old-1
		}
		for _, o := range mu.outs {
			if o == e {
				now++
			}
		}
		dst = binary.AppendUvarint(dst, uint64(now))
		dst = append(dst, p[from:lay.at[c+1]]...)
		for k, o := range mu.outs {
			if o == e {
				m := sends[k].Msg
				m.Time = 0
				dst = spec.AppendMessage(dst, m)
			}
		}
	}
	return append(dst, p[lay.at[cur]:]...), nil
}

// splices reports whether successors' encodings can be spliced from their
// parents' (spliceStep): FIFO channels, no clocks, no bound on channels.
func (sy *System) splices() bool {
	return sy.Config.Channels == spec.FIFO && !sy.Clocks && sy.Config.Capacity == 0
}

// CheckPurity runs a's step from s firstUseRuns times more and reports a StepError if
// the results differ, from each other or from the result the search used
// (the memo's, if it holds the step): a step that reads a clock, a random
// source, a global or map order is not a function of its input, and one
// whose hidden state drifts slowly differs from its own earlier runs.
func (sy *System) CheckPurity(s *State, a Action) *StepError {
	local := s.Locals[a.Proc]
	var used []byte
	var usedSends []spec.Send
	if sy.memo != nil {
		used, usedSends, _, _, _ = sy.memo.get(nil, sy.memo.keyOf(local, sy.Event(a), a.Choice, sy.degree(a.Proc)))
	}
	return sy.checkPurity(local, a, used, usedSends, firstUseRuns)
}

// checkPurity runs a's step from local runs more times and compares each
// result with used, the result the search used (nil: with the first of
// these runs). It reports what differed: both new local states and both
// lists of sends, so a person sees what the hidden input changed.
func (sy *System) checkPurity(local []byte, a Action, used []byte, usedSends []spec.Send, runs int) *StepError {
	in := slices.Clone(local)
	for range runs {
		n1, s1, err := sy.run(nil, in, a)
		if err != nil {
			if used != nil {
				return &StepError{invariants.StepPurity, fmt.Sprintf("%s is not deterministic: it ran before, and now: %s", sy.describe(a), err.Detail)}
			}
			return err
		}
		if !bytes.Equal(in, local) {
			return &StepError{invariants.StepPurity, sy.describe(a) + " modified its input state"}
		}
		if used == nil {
			used, usedSends = slices.Clone(n1), slices.Clone(s1)
			continue
		}
		if !bytes.Equal(n1, used) || !sameSends(s1, usedSends) {
			return &StepError{invariants.StepPurity, fmt.Sprintf("%s is not deterministic: on the same input one run gave %s and another %s",
				sy.describe(a), sy.result(used, usedSends), sy.result(n1, s1))}
		}
	}
	return nil
}

// result renders a step's result for a person: the new local state and
// what it sent.
func (sy *System) result(local []byte, sends []spec.Send) string {
	var b strings.Builder
	b.WriteString("[" + sy.format(local))
	if len(sends) == 0 {
		b.WriteString(", sends nothing")
	}
	for k, snd := range sends {
		sep := ", "
		if k == 0 {
			sep = ", sends "
		}
		fmt.Fprintf(&b, "%s%s on port %d", sep, snd.Msg.Format(sy.Info.Messages), snd.Port)
	}
	return b.String() + "]"
}

// format renders an encoded local state, or says that it cannot.
func (sy *System) format(local []byte) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprintf("(a state String panics on: %v)", r)
		}
	}()
	return sy.Machine.Format(local)
}

// sameSends compares two steps' sends, ignoring the explorer's timestamps.
func sameSends(a, b []spec.Send) bool {
	return slices.EqualFunc(a, b, func(x, y spec.Send) bool {
		x.Msg.Time, y.Msg.Time = 0, 0
		return x == y
	})
}

// View returns what the properties see of s, appending the decisions to
// dst.
func (sy *System) View(s *State, dst []spec.Decision) invariants.State {
	dst = dst[:0]
	for _, l := range s.Locals {
		dst = append(dst, sy.Machine.Decision(l))
	}
	return invariants.State{Decisions: dst, InFlight: s.InFlight()}
}

// permuteInto applies a topology automorphism p to s, writing into t
// (reusing its slices), given p's channel map (edgeMap): process i's local
// state and pending wake-up move to p.Node[i], and the channel from
// (i, port) to the channel from (p.Node[i], p.Port[i][port]). t shares
// local states and channel contents with s.
func (sy *System) permuteInto(t *State, s *State, p spec.Perm, edges []int) {
	t.Locals = slices.Grow(t.Locals[:0], len(s.Locals))[:len(s.Locals)]
	t.Chans = slices.Grow(t.Chans[:0], len(s.Chans))[:len(s.Chans)]
	t.Wake = 0
	t.Clocks = nil
	if s.Clocks != nil {
		t.Clocks = make([]int32, len(s.Clocks))
	}
	for i, l := range s.Locals {
		t.Locals[p.Node[i]] = l
		if s.Wake.Has(i) {
			t.Wake = t.Wake.With(p.Node[i])
		}
		if s.Clocks != nil {
			t.Clocks[p.Node[i]] = s.Clocks[i]
		}
	}
	for e, to := range edges {
		t.Chans[to] = s.Chans[e]
	}
	t.Held = nil
	if s.Held != nil {
		t.Held = make([][]spec.Send, len(s.Held))
		for i, h := range s.Held {
			if len(h) == 0 {
				continue
			}
			moved := make([]spec.Send, len(h))
			for j, snd := range h {
				moved[j] = spec.Send{Port: p.Port[i][snd.Port], Msg: snd.Msg}
			}
			t.Held[p.Node[i]] = moved
		}
	}
}

// sendPort and sendMsg give route a step's sends' ports and messages.
func sendPort(sends []spec.Send) func(int) spec.Port {
	return func(k int) spec.Port { return sends[k].Port }
}
func sendMsg(sends []spec.Send) func(int) spec.Message {
	return func(k int) spec.Message { return sends[k].Msg }
}
