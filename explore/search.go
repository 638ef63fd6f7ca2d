package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Search is the order in which states are explored.
type Search uint8

const (
	// BFS explores level by level: the first violation found has a
	// shortest trace.
	BFS Search = iota
	// DFS explores depth first: traces are not shortest.
	DFS
)

// String returns "bfs" or "dfs".
func (s Search) String() string {
	if s == DFS {
		return "dfs"
	}
	return "bfs"
}

// configResult is what the search of one configuration found.
type configResult struct {
	states, transitions, terminals int64
	maxDepth                       int
	minMsg, maxMsg                 int
	minTime, maxTime               int64    // over terminal states, with Options.Time
	elected                        spec.Set // positions that win in some terminal state
	finals                         uint64   // a digest of the set of terminal states
	uniformChecked                 int64
	costs                          *ConfigCosts // with Options.Costs or Time
	cached                         bool         // searched with state caching: counts are visits
	violation                      *Violation
	stopped                        error // why the search stopped early, if it did
}

// searcher explores one configuration at a time, reusing its buffers.
type searcher struct {
	sy   *System
	opts Options // a copy: compareRelabelled changes it

	// Per discovered state, by index in discovery order: the state it was
	// first reached from, the number of that action in the parent's
	// System.Enabled list (traces are rebuilt by replaying these), its
	// depth, and where its outgoing edges are (estart[i] to eend[i]).
	parent, estart pages[int32]
	act            pages[uint16]
	actBig         map[int32]int32 // action numbers of 65535 and more
	// Breadth-first search expands states in the order it finds them, so
	// a state's depth follows from where each level starts (levels), and
	// its edges end where the next state's start. Depth-first search
	// records both (depth, eend).
	bfs    bool
	levels []int32
	// layered: every edge found so far goes from a depth to the next, so
	// every path to a state has its depth as length (no cycle, and the
	// longest path is the shortest).
	layered     bool
	depth, eend pages[int32]
	// The edges (edges.go): blocks of varints, and the block being
	// written.
	ebytes    pages[byte]
	block     []int32
	edgeCount int64
	wfirst    pages[int32] // with Options.Costs
	kept      window       // encodings of the states still to expand
	// keepStates keeps every state's encoding in breadth-first search too
	// (tests that walk the whole graph afterwards).
	keepStates bool

	seenFP fpSet
	seenEx map[string]int32
	// memLimit is this searcher's share of Options.Memory (0: none);
	// cache is its state cache, built when a search first needs it.
	memLimit int64
	cache    *ristretto.Cache[uint64, memo]
	// weights[k*len(opts.Costs)+c] is cost c of the k-th edge's sends.
	weights pages[int64]
	memo    stepMemo
	// par is the number of workers expanding this searcher's
	// configurations (parallel.go); exps and ring are their storage.
	par   int
	exps  []*expander
	ring  []*expansion
	kview []chunk // the chunks of the level the workers expand
	// ample's spliced successors (probe), and what it needs to splice.
	abuf    []byte
	aprobes []probe
	alean   struct {
		on       bool
		penc     []byte
		lay      *layout
		inFlight int
	}
	tcur State
	lay  layout // of the state being expanded
	sc   scratch
	cur  State          // the state being expanded
	msgs []spec.Message // its channels' storage

	expand []Action
	// The uniformity check's own storage.
	ucur, urot, uperm State
	umsgs             []spec.Message
	uheads            State // urot decoded with its channel heads only
	uhmsgs            []spec.Message
	uenc              []byte
	ulay              layout
	uacts             []Action
	usc               scratch
	uprints           [2][]uint64
	ufailed           bool // a step failed in the uniformity check (uniform)
	probe             []byte
	enc               []byte // the encoding of the state being added
	cand              []Action
	decs              []spec.Decision
	checker           *invariants.Checker
	lastSys           *System // the last system built, whose tables system reuses

	// The collapsed search (collapse.go): its tables, whether the
	// current configuration uses it, and scratch vectors.
	cz             collapser
	collapsed      bool
	czv, czw, czu  []uint32
	czEnc          []byte
	czEdgeTo       []int
	czChg          []czChange
	czSends        []spec.Send
	czUActs        []czAct // czSuccessorPrints' actions
	czSucc         []czSucc
	czSink         uint64 // what fpSet.peek read
	noEdges        bool   // the collapsed search records no edges (runCollapsed)
	czInit         [][]byte
	czActs, czCand []czAct
	eblock         []byte  // endEdges' scratch
	czEdgeMaps     [][]int // per symmetry, where it sends each channel (czUniform)
	czInPort       []spec.Port
	czr, czp       []uint32 // czUniform's vectors
	budget         *int64
	reduce         bool // partial-order reduction (see ample)
	ctx            context.Context
	progress       func(states int64, depth int)
}

func newSearcher(ctx context.Context, opts Options, budget *int64) *searcher {
	return &searcher{opts: opts, budget: budget, ctx: ctx}
}

func (x *searcher) reset(sy *System) {
	x.sy = sy
	x.collapsed, x.noEdges = false, false
	x.czEdgeMaps = x.czEdgeMaps[:0]
	for _, p := range []*pages[int32]{&x.parent, &x.depth, &x.estart, &x.eend, &x.wfirst} {
		p.reset()
	}
	x.ebytes.reset()
	x.edgeCount = 0
	x.act.reset()
	clear(x.actBig)
	x.bfs = x.opts.Search == BFS
	x.layered = x.bfs
	x.levels = x.levels[:0]
	x.weights.reset()
	x.kept.reset(x.opts.Search == DFS || x.keepStates)
	if x.opts.Exact {
		x.seenEx = make(map[string]int32)
	} else {
		x.seenFP.reset()
	}
	x.checker = invariants.NewChecker(sy.Info, sy.Config)
}

// state decodes state i, whose encoding must still be kept.
func (x *searcher) state(i int32) State {
	return DecodeState(x.encoding(i), x.sy.N(), len(x.sy.Config.Topology.Edges))
}

// states is the number of states found.
func (x *searcher) states() int32 { return int32(x.parent.len()) }

// add records s (reached from parent by its k-th enabled action) unless it
// was seen; it returns the state's index and whether it is new.
func (x *searcher) add(s *State, parent int32, k int, depth int32) (int32, bool) {
	x.enc = s.Encode(x.enc[:0])
	return x.addEncoded(x.enc, parent, k, depth)
}

// addEncoded is add given the state's encoding.
func (x *searcher) addEncoded(enc []byte, parent int32, k int, depth int32) (int32, bool) {
	fp := uint64(0)
	if !x.opts.Exact {
		fp = fingerprint(enc)
	}
	return x.addFingerprinted(enc, fp, parent, k, depth)
}

// addFingerprinted is add given the state's encoding and its fingerprint
// (unused with Options.Exact).
func (x *searcher) addFingerprinted(enc []byte, fp uint64, parent int32, k int, depth int32) (int32, bool) {
	next := x.states()
	if x.opts.Exact {
		if i, ok := x.seenEx[string(enc)]; ok {
			return i, false
		}
		x.seenEx[string(enc)] = next
	} else if i, ok := x.seenFP.put(fp, next); ok {
		return i, false
	}
	x.record(enc, parent, k, depth)
	return next, true
}

// record stores a new state's record (encoding, parent, action number,
// depth) as the next state's; its fingerprint is already in the set.
func (x *searcher) record(enc []byte, parent int32, k int, depth int32) {
	x.kept.add(enc)
	x.recordRest(parent, k, depth)
}

// recordRest is record but for the encoding, which the caller has added.
func (x *searcher) recordRest(parent int32, k int, depth int32) {
	next := x.states()
	x.parent.push(parent)
	if k >= 65535 {
		if x.actBig == nil {
			x.actBig = map[int32]int32{}
		}
		x.actBig[next] = int32(k)
		k = 65535
	}
	x.act.push(uint16(k))
	if !x.noEdges {
		x.estart.push(0)
	}
	if x.weighted() {
		x.wfirst.push(0)
	}
	if x.bfs {
		if int(depth) == len(x.levels) {
			x.levels = append(x.levels, next)
		}
	} else {
		x.depth.push(depth)
		x.eend.push(0)
	}
}

// actionOf is the number, in its parent's enabled list, of the action
// that first reached state i.
func (x *searcher) actionOf(i int32) int32 {
	if k := x.act.at(i); k < 65535 {
		return int32(k)
	}
	return x.actBig[i]
}

// depthOf is the depth at which state i was found.
func (x *searcher) depthOf(i int32) int32 {
	if !x.bfs {
		return x.depth.at(i)
	}
	d, _ := slices.BinarySearch(x.levels, i+1)
	return int32(d) - 1
}

// edgesOf returns the range of state i's outgoing edges; i must have been
// expanded.
func (x *searcher) edgesOf(i int32) (int32, int32) {
	switch {
	case !x.bfs:
		return x.estart.at(i), x.eend.at(i)
	case i+1 < x.states():
		return x.estart.at(i), x.estart.at(i + 1)
	}
	return x.estart.at(i), int32(x.ebytes.len())
}

// found returns the violation of prop at state i, with the trace that
// leads there followed by extra. If the path the search recorded to i does
// not replay, the protocol's steps are not functions of their input, and
// that is the violation returned, with the path up to where it went
// another way: a trace that does not replay would show nothing true.
func (x *searcher) found(prop, detail string, i int32, extra ...Action) *Violation {
	t, _, bad := x.replay(i)
	if bad != nil {
		return bad
	}
	return x.violation(prop, detail, append(t, extra...))
}

// replay rebuilds the actions from the initial state to state i, and state
// i itself, from the recorded parents and action numbers, checking each
// step against the record: the action must be enabled, the step must not
// fail, and it must reach the state the search reached. A protocol that
// keeps state between steps or reads a map's order can break each of
// these; replay then returns a step-purity violation instead.
func (x *searcher) replay(i int32) ([]Action, State, *Violation) {
	var path []int32 // the states after the initial one, last first
	for ; x.parent.at(i) >= 0; i = x.parent.at(i) {
		path = append(path, i)
	}
	slices.Reverse(path)
	s := x.sy.Initial()
	t := make([]Action, 0, len(path))
	for n, j := range path {
		acts := x.sy.Enabled(&s, nil)
		k := x.actionOf(j)
		if int(k) >= len(acts) {
			return t, s, x.diverged(t, fmt.Sprintf("the search took event number %d of step %d, but only %d event(s) are enabled on the way back", k+1, n+1, len(acts)))
		}
		a := acts[k]
		t = append(t, a)
		next, _, err := x.sy.Apply(&s, a)
		if err != nil {
			return t, s, x.diverged(t, fmt.Sprintf("step %d failed on the way back but not during the search: %s", n+1, err.Detail))
		}
		if got, ok := x.lookup(next.Encode(nil)); !ok || got != j {
			return t, s, x.diverged(t, fmt.Sprintf("step %d, %s, reached another state on the way back than during the search", n+1, x.sy.describe(a)))
		}
		s = next
	}
	return t, s, nil
}

// diverged is the violation of a path that did not replay as recorded.
func (x *searcher) diverged(t []Action, what string) *Violation {
	return x.violation(invariants.StepPurity, "replaying the path the search recorded, "+what+
		": the protocol's steps are not functions of their input (hidden state such as a package-level variable, map order, time or randomness)", t)
}

// check runs the state properties on a newly found state.
func (x *searcher) check(i int32, s *State, r *configResult) *Violation {
	return x.checkView(i, s, s.InFlight(), r)
}

// checkView is check given the number of messages in flight in s, whose
// channels it does not read: the parallel search decodes only the local
// states of a new state here.
func (x *searcher) checkView(i int32, s *State, inFlight int, r *configResult) *Violation {
	view := x.sy.viewOf(s, x.decs, inFlight)
	x.decs = view.Decisions
	if v := x.checker.Always(view); v != nil {
		return x.found(v.Property, v.Detail, i)
	}
	// Terminal: nothing is enabled. A pending wake-up is enabled, and with
	// none pending so is the delivery of any message in flight.
	terminal := s.Wake == 0 && inFlight == 0
	if terminal {
		r.terminals++
		r.finals += mix(fingerprint(x.encoding(i)))
		if s.Clocks != nil {
			t := int64(slices.Max(s.Clocks))
			if r.minTime < 0 || t < r.minTime {
				r.minTime = t
			}
			r.maxTime = max(r.maxTime, t)
		}
		if v := x.checker.AtEnd(view); v != nil {
			return x.found(v.Property, v.Detail, i)
		}
		for p, d := range view.Decisions {
			if d.Status == spec.Elected {
				r.elected = r.elected.With(p)
			}
		}
	}
	if terminal {
		return nil
	}
	return x.checkUniform(i, r)
}

// addWeights records the costs (Options.Costs) of a step's sends.
func (x *searcher) addWeights(sends []spec.Send) {
	for _, c := range x.opts.Costs {
		w := int64(0)
		for _, snd := range sends {
			w += c.Of(snd.Msg)
		}
		x.weights.push(w)
	}
}

// noteDuplicate records an edge of the state being expanded, at depth d,
// to state j, found before: unless j is at depth d+1, the graph is not
// layered.
func (x *searcher) noteDuplicate(j, d int32) {
	if x.bfs && (len(x.levels) <= int(d)+1 || j < x.levels[d+1]) {
		x.layered = false
	}
}

// checkNew runs the state properties on new state i, encoded as enc, whose
// step changed no decision of the state it was reached from and left
// something enabled (same), or not. A state like its parent passes the
// properties of decisions its parent passed, and is not terminal, so only
// the uniformity sample remains: most new states need not be decoded.
func (x *searcher) checkNew(i int32, enc []byte, same bool, r *configResult) *Violation {
	if same {
		return x.checkUniform(i, r)
	}
	inFlight := decodeLocals(&x.tcur, enc, x.sy.N(), len(x.sy.Config.Topology.Edges))
	return x.checkView(i, &x.tcur, inFlight, r)
}

// sameAsParent reports whether the successor of s by a, whose step kept
// process a.Proc's decision or not (keeps) and sent sent messages, has the
// decisions of s and is not terminal (checkNew); inFlight is s's.
func (sy *System) sameAsParent(s *State, inFlight int, a Action, keeps bool, sent int) bool {
	if !keeps {
		return false
	}
	wake := s.Wake
	if a.Kind == spec.Wake {
		wake &^= 1 << uint(a.Proc)
	} else {
		inFlight--
	}
	return wake != 0 || inFlight+sent > 0
}

// checkUniform checks uniformity on state i, a non-terminal state, if it
// is in the sample.
func (x *searcher) checkUniform(i int32, r *configResult) *Violation {
	if every := x.opts.UniformityEvery; every > 0 && int64(i)%int64(every) == 0 {
		r.uniformChecked++
		var ok bool
		if x.collapsed {
			ok = x.czUniform(i)
		} else {
			// s may be scratch storage that the check's own steps would reuse.
			x.umsgs = decodeInto(&x.ucur, x.umsgs, x.encoding(i), x.sy.N(), len(x.sy.Config.Topology.Edges), nil)
			ok = x.uniform(&x.ucur)
		}
		if !ok {
			x.umsgs = decodeInto(&x.ucur, x.umsgs, x.encoding(i), x.sy.N(), len(x.sy.Config.Topology.Edges), nil)
			s := &x.ucur
			// An impure step breaks the symmetry too; blame the real cause.
			for _, a := range x.sy.Enabled(s, nil) {
				if err := x.sy.CheckPurity(s, a); err != nil {
					return x.found(err.Property, err.Detail, i, a)
				}
			}
			return x.found(invariants.Uniformity, "rotating this state by one position does not commute with taking its successors", i)
		}
	}
	return nil
}

func (x *searcher) violation(prop, detail string, t []Action) *Violation {
	return &Violation{Property: prop, Detail: detail, Config: x.sy.Config, Trace: t, LoopAt: -1}
}

// uniform checks that the successors of rot(s) are the rotations of the
// successors of s, for every symmetry of the topology. A step that fails
// on either side (it panics, or the purity check caught it) makes the
// comparison meaningless, and is not a symmetry fault: the check then
// passes, and the search, which takes the same steps from s, reports the
// failure under its own name.
func (x *searcher) uniform(s *State) bool {
	x.ufailed = false
	for _, p := range x.sy.Config.Topology.Symmetries {
		x.uprints[0] = x.successorPrints(x.uprints[0][:0], s, &p)
		x.sy.permuteInto(&x.urot, s, p)
		if x.sy.splices() {
			x.uprints[1] = x.splicedPrints(x.uprints[1][:0], &x.urot)
		} else {
			x.uprints[1] = x.successorPrints(x.uprints[1][:0], &x.urot, nil)
		}
		if !x.ufailed && !slices.Equal(x.uprints[0], x.uprints[1]) {
			return false
		}
	}
	return true
}

// successorPrints appends to dst the fingerprints of the successors of s,
// each permuted by p if p is not nil, and sorts them.
func (x *searcher) successorPrints(dst []uint64, s *State, p *spec.Perm) []uint64 {
	x.uacts = x.sy.Enabled(s, x.uacts[:0])
	for _, a := range x.uacts {
		t, _, err := x.sy.applyInto(s, a, &x.usc)
		if err != nil {
			dst, x.ufailed = append(dst, 0), true
			continue
		}
		if p != nil {
			x.sy.permuteInto(&x.uperm, &t, *p)
			t = x.uperm
		}
		x.probe = t.Encode(x.probe[:0])
		dst = append(dst, fingerprint(x.probe))
	}
	slices.Sort(dst)
	return dst
}

// splicedPrints is successorPrints(dst, s, nil) for systems whose
// successors can be spliced (System.splices): s is encoded once and each
// successor's encoding is spliced from it, as the search itself does.
func (x *searcher) splicedPrints(dst []uint64, s *State) []uint64 {
	sy := x.sy
	x.uenc = s.Encode(x.uenc[:0])
	x.ulay.headsOnly = true
	x.uhmsgs = decodeInto(&x.uheads, x.uhmsgs, x.uenc, sy.N(), len(sy.Config.Topology.Edges), &x.ulay)
	x.uacts = sy.Enabled(&x.uheads, x.uacts[:0])
	for _, a := range x.uacts {
		var err *StepError
		x.probe, err = sy.spliceStep(x.probe[:0], &x.usc, x.uenc, &x.ulay, &x.uheads, a)
		if err != nil {
			dst, x.ufailed = append(dst, 0), true
			continue
		}
		dst = append(dst, fingerprint(x.probe))
	}
	slices.Sort(dst)
	return dst
}

// run explores the configuration of sy completely, or until a violation,
// the state budget or the context stops it.
func (x *searcher) run(sy *System) configResult {
	x.reset(sy)
	r := configResult{minMsg: -1, minTime: -1}
	if x.collapsible(sy) {
		x.runCollapsed(sy, &r)
		return r
	}
	init := sy.Initial()
	x.add(&init, -1, 0, 0)
	r.states = 1
	if v := x.check(0, &init, &r); v != nil {
		r.violation = v
		return r
	}
	if x.par > 1 && x.bfs && !x.reduce && len(x.opts.Costs) == 0 && !sy.Clocks {
		if x.runParallel(sy, &r) {
			return r
		}
		x.kept.trim()
		x.analyse(&r)
		return r
	}
	stack := []int32{0} // DFS only; BFS walks indices in discovery order
	for next := int32(0); ; {
		var i int32
		if x.opts.Search == DFS {
			if len(stack) == 0 {
				break
			}
			i, stack = stack[len(stack)-1], stack[:len(stack)-1]
		} else {
			if next == x.states() {
				break
			}
			i, next = next, next+1
			x.kept.expanding(i)
		}
		if x.interrupted(i, &r) {
			return r
		}
		d := x.depthOf(i)
		penc := x.kept.get(i)
		lean := sy.splices()
		// Lean expansion reads only channel heads, and so does ample when it
		// splices (not when edges carry costs: it then builds successors).
		x.lay.headsOnly = lean && !(x.reduce && x.weighted())
		x.msgs = decodeInto(&x.cur, x.msgs, penc, sy.N(), len(sy.Config.Topology.Edges), &x.lay)
		s := &x.cur
		inFlight := x.lay.inFlight()
		// check, called below, reuses x.acts: keep this state's own list.
		x.expand = sy.Enabled(s, x.expand[:0])
		acts := x.expand
		x.aprobes = x.aprobes[:0]
		if x.reduce && len(acts) > 1 {
			x.alean.on, x.alean.penc, x.alean.lay, x.alean.inFlight = lean && !x.weighted(), penc, &x.lay, inFlight
			acts = x.ample(s, acts, func(enc []byte) bool {
				j, seen := x.lookup(enc)
				return seen && x.depthOf(j) <= d
			})
			x.alean.on = false
		}
		x.beginEdges(i)
		for ai, a := range acts {
			k := ai // a's number in the enabled list, which traces replay
			if len(acts) != len(x.expand) {
				k = slices.Index(x.expand, a)
			}
			// Lean: splice the successor's encoding without building it,
			// and decode a new state's local states only, for its checks.
			var t State
			var err *StepError
			same := false
			switch {
			case len(x.aprobes) == len(acts): // ample spliced these already
				pr := x.aprobes[ai]
				x.enc, same = append(x.enc[:0], x.abuf[pr.off:pr.end]...), pr.same
			case lean:
				x.enc, err = sy.spliceStep(x.enc[:0], &x.sc, penc, &x.lay, s, a)
				same = err == nil && sy.sameAsParent(s, inFlight, a, x.sc.same, len(x.sc.outs))
				if err == nil {
					x.addWeights(x.sc.sends)
				}
			default: // bag channels or clocks: build the successor, encode it
				var sends []spec.Send
				if t, sends, err = sy.applyInto(s, a, &x.sc); err == nil {
					x.addWeights(sends)
					x.enc = t.Encode(x.enc[:0])
				}
			}
			if err != nil {
				r.violation = x.found(err.Property, err.Detail, i, a)
				return r
			}
			r.transitions++
			j, fresh := x.addEncoded(x.enc, i, k, d+1)
			x.addEdge(j)
			if !fresh {
				x.noteDuplicate(j, d)
				continue
			}
			r.states++
			if int(d)+1 > r.maxDepth {
				r.maxDepth = int(d) + 1
			}
			if *x.budget--; *x.budget < 0 {
				r.stopped = errStateLimit
				return r
			}
			var v *Violation
			if lean {
				v = x.checkNew(j, x.kept.get(j), same, &r)
			} else {
				v = x.check(j, &t, &r)
			}
			if v != nil {
				r.violation = v
				return r
			}
			if !x.bfs {
				stack = append(stack, j)
			}
		}
		x.endEdges(i)
	}
	if !x.keepStates {
		x.kept.trim()
	}
	x.analyse(&r)
	return r
}

var errStateLimit = fmt.Errorf("state limit reached")

// interrupted is called before state i is expanded: now and then it
// reports progress, and it stops the search (recording why in r) when the
// context is done or the memory budget is spent.
func (x *searcher) interrupted(i int32, r *configResult) bool {
	if i&1023 == 0 {
		if err := x.ctx.Err(); err != nil {
			r.stopped = err
			return true
		}
		if x.progress != nil {
			x.progress(r.states, max(r.maxDepth, int(x.depthOf(i))))
		}
	}
	if x.memLimit > 0 && i&63 == 0 && x.memBytes() > x.memLimit {
		r.stopped = errMemory
		return true
	}
	return false
}

// ample returns a subset of the enabled actions acts of s
// whose exploration alone preserves every property elcheck checks
// (docs/reduction.md), or acts itself. It is the enabled actions of the
// first process p, by position, such that
//
//   - no other process can enable or disable an action of p before p
//     moves (C1): p's wake-up is pending, or the channels are FIFO and
//     every channel into p holds a message, so others only append behind
//     the messages p is offered;
//   - none of them changes p's decision (C2, invisibility), so every
//     sequence of decision vectors of the full graph is kept;
//   - none of them leads to a state closing (C3, the cycle proviso): in
//     breadth-first search a state already found at a depth no greater
//     than s's (every cycle has such an edge), in depth-first search a
//     state on the stack; so every cycle has a fully expanded state.
//
// Steps of different processes commute: a step reads and writes only its
// process's local state, pops one of its in-channels and appends to its
// out-channels.
func (x *searcher) ample(s *State, acts []Action, closes func(enc []byte) bool) []Action {
	sy := x.sy
	for p := range sy.N() {
		x.cand = x.cand[:0]
		for _, a := range acts {
			if a.Proc == p {
				x.cand = append(x.cand, a)
			}
		}
		cand := x.cand
		if len(cand) == 0 {
			continue
		}
		if len(cand) == len(acts) {
			break // p alone is enabled: nothing to reduce
		}
		if !s.Wake.Has(p) && !x.inputsFull(s, p) {
			continue
		}
		before := sy.Machine.Decision(s.Locals[p])
		ok := true
		x.abuf, x.aprobes = x.abuf[:0], x.aprobes[:0]
		for _, a := range cand {
			if x.alean.on {
				// Splice the successor as the search would, and keep it:
				// if p's steps are the ample set, the search takes them
				// from here instead of stepping again.
				off := len(x.abuf)
				var err *StepError
				x.abuf, err = sy.spliceStep(x.abuf, &x.sc, x.alean.penc, x.alean.lay, s, a)
				if err != nil || sy.Machine.Decision(x.sc.local) != before {
					ok = false
					break
				}
				x.aprobes = append(x.aprobes, probe{off, len(x.abuf), sy.sameAsParent(s, x.alean.inFlight, a, x.sc.same, len(x.sc.outs))})
				if closes(x.abuf[off:]) {
					ok = false
					break
				}
				continue
			}
			t, _, err := sy.applyInto(s, a, &x.sc)
			if err != nil || sy.Machine.Decision(t.Locals[p]) != before {
				ok = false
				break
			}
			x.probe = t.Encode(x.probe[:0])
			if closes(x.probe) {
				ok = false
				break
			}
		}
		if ok {
			return cand
		}
	}
	x.aprobes = x.aprobes[:0]
	return acts
}

// probe is a successor ample spliced: its encoding in searcher.abuf, and
// whether it is like its parent (checkNew).
type probe struct {
	off, end int
	same     bool
}

// inputsFull reports whether, on FIFO channels, every channel into p holds
// a message: then what p is offered cannot change until p moves.
func (x *searcher) inputsFull(s *State, p int) bool {
	if x.sy.Config.Channels != spec.FIFO {
		return false
	}
	for e, ed := range x.sy.Config.Topology.Edges {
		if ed.To.Node == p && len(s.Chans[e]) == 0 {
			return false
		}
	}
	return true
}

// lookup finds a state by its encoding without adding it.
func (x *searcher) lookup(enc []byte) (int32, bool) {
	if x.opts.Exact {
		i, ok := x.seenEx[string(enc)]
		return i, ok
	}
	if x.collapsed {
		return x.seenFP.get(x.collapsedPrint(enc))
	}
	return x.seenFP.get(fingerprint(enc))
}

// system builds the transition system of cfg as the options ask.
func (x *searcher) system(m spec.Machine, cfg spec.Config) *System {
	var sy *System
	if p := x.lastSys; p != nil && sameSlice(p.Config.Topology.Edges, cfg.Topology.Edges) &&
		sameSlice(p.Config.Topology.Ports, cfg.Topology.Ports) {
		// The configurations of a sweep share their topology: so can
		// their systems' port tables (a searcher checks one machine).
		sy = &System{Machine: m, Info: p.Info, Config: cfg, outEdge: p.outEdge}
	} else {
		sy = NewSystem(m, cfg)
	}
	x.lastSys = sy
	sy.Clocks = x.opts.Time
	sy.memo = &x.memo
	sy.purity = x.opts.PurityEvery
	return sy
}

// sameSlice reports whether a and b are the same non-empty slice.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0]
}

// memBytes estimates what the breadth-first search of the current
// configuration holds: encodings, per-state records, the visited set and
// the graph.
func (x *searcher) memBytes() int64 {
	const perState = 4 + 2 + 4 + 4 // parent, action, edges; depth in depth-first search
	return x.kept.bytes() + int64(x.states())*perState + x.seenFP.bytes() + x.cz.size +
		int64(x.ebytes.len()) + int64(x.weights.len())*8 + int64(len(x.seenEx))*64
}

// search explores one configuration breadth- or depth-first, and again
// with state caching if that outgrows the memory budget. With causal
// clocks it first explores the configuration without them: along a cycle
// the clocks grow without end, so a protocol that can run forever has an
// infinite graph with clocks, and its cycle is found without them, as the
// termination violation it is.
func (x *searcher) search(sy *System) configResult {
	if sy.Clocks {
		plain := *sy
		plain.Clocks = false
		budget := *x.budget
		if r := x.searchOnce(&plain); r.violation != nil || r.stopped != nil {
			return r
		}
		*x.budget = budget
	}
	return x.searchOnce(sy)
}

// searchOnce is search for one system.
func (x *searcher) searchOnce(sy *System) configResult {
	r := x.run(sy)
	if errors.Is(r.stopped, errMemory) {
		// Give the breadth-first storage back before the cache takes its
		// share.
		for _, p := range []*pages[int32]{&x.parent, &x.depth, &x.estart, &x.eend, &x.wfirst} {
			p.free()
		}
		x.ebytes.free()
		x.act.free()
		x.weights.free()
		x.kept = window{}
		x.seenFP, x.seenEx = fpSet{}, nil
		r = x.runCached(sy)
	}
	return r
}

// close releases the state cache's goroutines.
func (x *searcher) close() {
	if x.cache != nil {
		x.cache.Close()
	}
}
