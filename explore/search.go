package explore

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync/atomic"

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
	disk                           bool         // searched with its sets on disk (disk.go)
	// cut: the search stopped at its depth limit (searcher.depthLimit)
	// with states left to expand there.
	cut       bool
	violation *Violation
	stopped   error // why the search stopped early, if it did
}

// searcher explores one configuration at a time, reusing its storage
// from one to the next. Its parts: the graph it records (graphrec.go), the
// records of the states still to expand (kept), the visited set (seen),
// the store that holds and expands states (st: byte encodings or
// collapsed vectors), and scratch. Which store, visited set and driver a
// configuration gets is decided in one place, plan (plan.go).
type searcher struct {
	sy    *System
	init0 State   // the initial state, for its check (explore)
	opts  Options // a copy: compareRelabelled changes it
	// plainCheck: the search with clocks checks, state by state, that the
	// graph without them is layered (search); plainSeen holds the depth of
	// each projection met.
	plainCheck bool
	plainSeen  fpSet
	// lastStates is the number of states of the last search (planOf).
	lastStates int64
	// worstSeen is the greatest first cost of the configurations finished,
	// shared by a check's searchers (ConfigCosts.Worst); configIndex the
	// configuration's index in the check.
	worstSeen   *worstSoFar
	configIndex int
	// haltAt, shared by a check's searchers, is the index of the first
	// configuration whose search stopped short (math.MaxInt64: none); a
	// search of a later one stops too (errHalted), as its result can no
	// longer count (Check).
	haltAt *atomic.Int64
	plan   plan
	graph
	kept window // the records of the states still to expand (all, depth-first)
	// keepStates keeps every state's record in breadth-first search too
	// (tests that walk the whole graph afterwards).
	keepStates bool
	seen       visited
	fps        fingerprints // the visited sets seen may be
	exact      exactStates
	st         store // bytes or cz
	bytes      byteStore
	cz         collapsedStore
	exp        expansion // the sequential search's successors
	stack      []int32   // depth-first search's frontier
	// memLimit is what this searcher's data may take (0: no bound): half
	// its share of Options.Memory, the other half being the collector's;
	// cache is its state cache, built when a search first needs it.
	memLimit int64
	cache    *ristretto.Cache[uint64, memo]
	files    *diskFiles // the disk search's (disk.go), made when first needed
	memo     stepMemo
	cmpStep  stepComparison // the comparison-only check of each step (comparison.go)
	// checked, shared by a check's searchers, are the steps one of them
	// has checked (checkedSteps); nil with one searcher. The searcher is
	// number purityPart of purityParts (puritySchedule).
	checked                 *checkedSteps
	purityPart, purityParts int
	// initsPassed are the environments whose Init passed the check
	// (checkInitRelabelled); a searcher checks one machine.
	initsPassed envMemo[bool]
	// portBlind checks steps and initial states against renumberings of
	// their ports (ports.go): the space's placements are taken up to
	// automorphisms that move ports. portsPassed are the environments
	// whose Init passed.
	portBlind   bool
	portsPassed envMemo[bool]
	// par is the number of workers that may expand one configuration
	// (levels.go).
	par   int
	lv    levels  // runLevels' (levels.go)
	kview []chunk // the chunks of the level the workers expand
	u     uniformScratch
	tcur  State // a new state's local states, for its checks
	decs  []spec.Decision

	checker *invariants.Checker
	lastSys *System // the last system built, whose tables system reuses
	sysv    System
	checkv  invariants.Checker
	budget  *int64
	reduce  bool // partial-order reduction (ample.go)
	// depthLimit: states at this depth are not expanded (noLimit: none).
	// Once a sweep knows a violation, a later configuration is searched
	// only as deep as a shorter one could be (sweep.go).
	depthLimit int32
	// short, shared by a check's searchers, holds the lengths of the
	// violations found (sweep.go); shortSeen is the version of it that
	// depthLimit reflects.
	short     *shorter
	shortSeen int64
	// cfgLimit is the configuration's depth limit, which depthLimit may
	// lower for one search (searchShortest); inPlace: a lower one may be
	// taken during the search (relimit).
	cfgLimit int32
	inPlace  bool
	ctx      context.Context
	progress func(states int64, depth int)
	// progressCfg is the configuration being searched, for progress.
	progressCfg spec.Config
}

// uniformScratch is the uniformity check's own storage.
type uniformScratch struct {
	cur, rot, perm State
	msgs           []spec.Message
	heads          State // rot decoded with its channel heads only
	hmsgs          []spec.Message
	enc            []byte
	lay            layout
	acts           []Action
	sc             scratch
	prints         [2][]uint64
	failed         bool // a step failed in the check (uniform)
	probe          []byte
}

func newSearcher(ctx context.Context, opts Options, budget *int64) *searcher {
	if opts.counts == nil { // Check shares one among its searchers
		opts.counts = new(pathCounts)
	}
	x := &searcher{opts: opts, budget: budget, ctx: ctx, depthLimit: noLimit}
	x.bytes.x, x.cz.x = x, x
	x.cz.localsLimit = czLocals
	if opts.localsLimit > 0 {
		x.cz.localsLimit = opts.localsLimit
	}
	return x
}

// reset readies the searcher for sy's configuration as p says.
func (x *searcher) reset(sy *System, p plan) {
	x.sy, x.plan = sy, p
	x.graph.reset(x.opts.Search == BFS, !p.edges, len(x.opts.Costs))
	x.kept.reset(x.opts.Search == DFS || x.keepStates)
	x.st, x.bytes.self.sy = &x.bytes, sy
	if p.collapsed {
		x.st = &x.cz
	}
	x.seen = &x.fps
	if x.opts.Exact {
		x.seen = &x.exact
	}
	x.fps.tagged = p.tags
	x.seen.reset()
	x.checkv.Reset(sy.Info, sy.Config)
	x.checker = &x.checkv
}

// encoding returns the canonical encoding of state i, whose record must
// still be kept (valid until the next call).
func (x *searcher) encoding(i int32) []byte { return x.st.encoding(x.kept.get(i)) }

// state decodes state i, whose record must still be kept.
func (x *searcher) state(i int32) State {
	return x.sy.Decode(x.encoding(i))
}

// found returns the violation of prop at state i, with the trace that
// leads there followed by extra. If the path the search recorded to i does
// not replay, the protocol's steps are not functions of their input, and
// that is the violation returned, with the path up to where it went
// another way: a trace that does not replay would show nothing true.
func (x *searcher) found(prop, detail string, i int32, extra ...Action) *Violation {
	if x.fps.tagged {
		// No trace: run searches again without the tag set.
		return &Violation{Property: prop, Detail: detail}
	}
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
	for ; x.parentOf(i) >= 0; i = x.parentOf(i) {
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
	view := x.sy.View(s, x.decs)
	x.decs = view.Decisions
	return x.checkView(i, s, view, r)
}

// checkView is check given what the properties see of s (decisions and
// messages in flight), of which it reads only the wake-ups and clocks:
// a store decodes only that much of a new state (store.view).
func (x *searcher) checkView(i int32, s *State, view invariants.State, r *configResult) *Violation {
	inFlight := view.InFlight
	if v := x.checker.Always(view); v != nil {
		return x.found(v.Property, v.Detail, i)
	}
	end := x.sy.ended(s, inFlight)
	if end && s.Held != nil {
		if d := x.sy.Deadlock(s); d != "" {
			return x.found(invariants.Deadlock, d, i)
		}
	}
	if end {
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
	if end {
		return nil
	}
	return x.checkUniform(i, r)
}

// checkNew runs the state properties on new state i, encoded as enc, whose
// step changed no decision of the state it was reached from and left
// something enabled (same), or not. A state like its parent passes the
// properties of decisions its parent passed, and is not terminal, so only
// the uniformity sample remains: most new states need not be decoded.
func (x *searcher) checkNew(i int32, rec []byte, same bool, r *configResult) *Violation {
	if same {
		return x.checkUniform(i, r)
	}
	inFlight, decs := x.st.view(rec, &x.tcur, x.decs[:0])
	x.decs = decs
	return x.checkView(i, &x.tcur, invariants.State{Decisions: decs, InFlight: inFlight}, r)
}

// sameAsParent reports whether the successor of s by a, whose step kept
// process a.Proc's decision or not (keeps) and sent sent messages, has the
// decisions of s and is not terminal (checkNew); inFlight is s's.
func (sy *System) sameAsParent(s *State, inFlight int, a Action, keeps bool, sent int) bool {
	if !keeps || s.Held != nil { // with held sends, whether it ends needs the state
		return false
	}
	wakes, pops := effect(a.Kind, a.Proc, a.Edge)
	return !terminal(afterEffect(s.Wake, inFlight, wakes, pops, sent))
}

// checkUniform checks uniformity on state i, a non-terminal state, if it
// is in the sample.
func (x *searcher) checkUniform(i int32, r *configResult) *Violation {
	if every := x.opts.UniformityEvery; every > 0 && int64(i)%int64(every) == 0 {
		r.uniformChecked++
		if !x.st.uniform(x.kept.get(i)) {
			x.u.msgs = x.sy.decodeInto(&x.u.cur, x.u.msgs, x.encoding(i), nil)
			s := &x.u.cur
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
	x.u.failed = false
	for k, p := range x.sy.Config.Topology.Symmetries {
		x.u.prints[0] = x.successorPrints(x.u.prints[0][:0], s, &p, x.sy.symEdges[k])
		x.sy.permuteInto(&x.u.rot, s, p, x.sy.symEdges[k])
		if x.sy.splices() {
			x.u.prints[1] = x.splicedPrints(x.u.prints[1][:0], &x.u.rot)
		} else {
			x.u.prints[1] = x.successorPrints(x.u.prints[1][:0], &x.u.rot, nil, nil)
		}
		if !x.u.failed && !slices.Equal(x.u.prints[0], x.u.prints[1]) {
			return false
		}
	}
	return true
}

// successorPrints appends to dst the fingerprints of the successors of s,
// each permuted by p (whose channel map is edges) if p is not nil, and
// sorts them.
func (x *searcher) successorPrints(dst []uint64, s *State, p *spec.Perm, edges []int) []uint64 {
	x.u.acts = x.sy.Enabled(s, x.u.acts[:0])
	for _, a := range x.u.acts {
		t, _, err := x.sy.applyInto(s, a, &x.u.sc)
		if err != nil {
			dst, x.u.failed = append(dst, 0), true
			continue
		}
		if p != nil {
			x.sy.permuteInto(&x.u.perm, &t, *p, edges)
			t = x.u.perm
		}
		x.u.probe = t.Encode(x.u.probe[:0])
		dst = append(dst, fingerprint(x.u.probe))
	}
	slices.Sort(dst)
	return dst
}

// splicedPrints is successorPrints(dst, s, nil, nil) for systems whose
// successors can be spliced (System.splices): s is encoded once and each
// successor's encoding is spliced from it, as the search itself does.
func (x *searcher) splicedPrints(dst []uint64, s *State) []uint64 {
	sy := x.sy
	x.u.enc = s.Encode(x.u.enc[:0])
	x.u.lay.headsOnly = true
	x.u.hmsgs = sy.decodeInto(&x.u.heads, x.u.hmsgs, x.u.enc, &x.u.lay)
	x.u.acts = sy.Enabled(&x.u.heads, x.u.acts[:0])
	for _, a := range x.u.acts {
		var err *StepError
		x.u.probe, err = sy.spliceStep(x.u.probe[:0], &x.u.sc, x.u.enc, &x.u.lay, &x.u.heads, a)
		if err != nil {
			dst, x.u.failed = append(dst, 0), true
			continue
		}
		dst = append(dst, fingerprint(x.u.probe))
	}
	slices.Sort(dst)
	return dst
}

var errStateLimit = fmt.Errorf("state limit reached")

// errHalted stops the search of a configuration after one whose search
// stopped short (searcher.haltAt).
var errHalted = errors.New("halted: an earlier configuration's search stopped short")

// interrupted is called before state i is expanded: now and then it
// reports progress, and it stops the search (recording why in r) when the
// context is done or the memory budget is spent.
func (x *searcher) interrupted(i int32, r *configResult) bool {
	if i&1023 == 0 && x.stop(r, max(r.maxDepth, int(x.depthOf(i)))) {
		return true
	}
	if x.memLimit > 0 && i&63 == 0 && x.memBytes() > x.memLimit {
		r.stopped = errMemory
		return true
	}
	return false
}

// stop reports progress, at depth depth, and stops the search (recording
// why in r) if the context is done.
func (x *searcher) stop(r *configResult, depth int) bool {
	if err := x.ctx.Err(); err != nil {
		r.stopped = err
		return true
	}
	if x.haltAt != nil && int64(x.configIndex) > x.haltAt.Load() {
		r.stopped = errHalted
		return true
	}
	if x.short != nil && x.short.version.Load() != x.shortSeen && x.relimit(r) {
		return true
	}
	if x.progress != nil {
		x.progress(r.states, depth)
	}
	return false
}

// lookup finds a state by its encoding without adding it.
func (x *searcher) lookup(enc []byte) (int32, bool) {
	fp := x.st.print(enc)
	j, ok := x.seen.get(x.st.key(enc), fp)
	if ok && j < 0 { // numbered in a segment not done with (levels.go)
		return x.lv.res.numbered(fp, j)
	}
	return j, ok
}

// system builds the transition system of cfg as the options ask.
func (x *searcher) system(m spec.Machine, cfg spec.Config) *System {
	// One System is reused from configuration to configuration: a search
	// holds it only while it runs. A sweep's configurations share their
	// topology, so they can share its tables too (a searcher checks one
	// machine).
	sy := &x.sysv
	if p := x.lastSys; p != nil && sameSlice(p.Config.Topology.Edges, cfg.Topology.Edges) &&
		sameSlice(p.Config.Topology.Ports, cfg.Topology.Ports) {
		*sy = System{Machine: m, Info: p.Info, Config: cfg, outEdge: p.outEdge, inEdges: p.inEdges, edgeTo: p.edgeTo, symEdges: p.symEdges}
	} else {
		*sy = *NewSystem(m, cfg)
	}
	x.lastSys = sy
	sy.Clocks = x.opts.Time
	sy.memo = &x.memo
	sy.purity = puritySchedule{x.opts.PurityEvery, x.purityPart, x.purityParts}
	sy.portBlind = x.portBlind
	sy.checked = x.checked
	if x.opts.ComparisonOnly && spec.CanRelabel(m) {
		x.cmpStep.seed = x.opts.ComparisonSeed
		sy.cmp = &x.cmpStep
	}
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
	return x.kept.bytes() + int64(x.states())*perState + x.seen.bytes() + x.st.bytes() +
		int64(x.ebytes.len()) + int64(x.weights.len())*8 + x.lv.bytes()
}

// errClocksUnbounded stops a search with clocks whose graph without them
// turns out not to be layered (the attempt plainChecked).
var errClocksUnbounded = errors.New("the graph without clocks is not layered")

// search explores one configuration: it runs the attempts planFor and
// then give, one after the other, until one decides the configuration.
// Every attempt starts from the state budget the first one had, but the
// state cache's, which goes on from the search in memory it replaces.
func (x *searcher) search(sy *System) configResult {
	budget := *x.budget
	a := x.planFor(sy)
	var onTags *Violation // found on the tag set, without a trace
	for {
		r := x.attempt(a)
		if onTags != nil && !errors.Is(r.stopped, errUnlayered) {
			// Searched again for the trace of what the tag set found.
			if r.violation == nil && r.stopped == nil {
				r.violation = x.violation(invariants.StepPurity, fmt.Sprintf("a first search of this configuration found %s (%s), a second found nothing: "+
					"the protocol's steps are not functions of their input (hidden state such as a package-level variable, map order, time or randomness)",
					onTags.Property, onTags.Detail), nil)
			}
			onTags = nil
		}
		if a.where == inMemory && a.p.tags && r.violation != nil {
			onTags = r.violation
		}
		next, more := x.then(a, &r)
		if !more {
			return r
		}
		if next.where != inCache {
			*x.budget = budget
		}
		a = next
	}
}

// attempt runs one attempt of a configuration's search.
func (x *searcher) attempt(a attempt) configResult {
	x.plainCheck = a.clocks == plainChecked
	defer func(costs []Cost) { x.plainCheck, x.opts.Costs = false, costs }(x.opts.Costs)
	if a.clocks == withoutClocks {
		x.opts.Costs = nil // the figures are the search with clocks'
	}
	switch a.where {
	case onDisk:
		r := x.runDisk(a.sy, a.p.edges)
		r.disk = true
		return r
	case inCache:
		return x.runCached(a.sy)
	}
	x.reset(a.sy, a.p)
	r := configResult{minMsg: -1, minTime: -1}
	if !x.explore(&r) {
		r.stopped = errUnlayered
	}
	x.lastStates = r.states
	if a.p.tags {
		x.opts.counts.tagSearches.Add(1)
	}
	return r
}

// then is the attempt that follows a, which ended in r, and false if a's
// result is the configuration's (planFor gives the first attempt):
//
//   - in memory, a violation found on the tag set is found again on the
//     index set, for its trace (a pure protocol finds it at the same
//     state); a graph found not layered by a search without edges is
//     searched again with them; a search over its memory budget goes on
//     disk (disk.go) with the same results, without edges if the graph
//     was layered so far, or to the state cache (cache.go), whose counts
//     are visits, if it cannot;
//   - on disk without edges, a graph found not layered is searched again
//     on disk with its edges;
//   - with causal clocks, the graph is searched first with clocks on
//     collapsed states, checking that its projection without them is
//     layered (which bounds it); if it is not, or the search stops, it is
//     searched without clocks (a protocol that can run forever has an
//     infinite graph with clocks, and its cycle is found without them, as
//     the termination violation it is) and, if that passes, with them.
func (x *searcher) then(a attempt, r *configResult) (attempt, bool) {
	switch {
	case a.where == inMemory && a.p.tags && r.violation != nil:
		x.opts.counts.tagRetraced.Add(1)
		a.p.tags = false
		return a, true
	case errors.Is(r.stopped, errUnlayered) && a.where == inMemory:
		if a.p.tags {
			x.opts.counts.tagUnlayered.Add(1)
		}
		a.p.edges, a.p.tags = true, false
		return a, true
	case errors.Is(r.stopped, errMemory) && a.where == inMemory:
		// Give the breadth-first storage back before the disk search's
		// batch or the cache takes its share.
		layered := x.layered
		x.graph.free()
		x.kept = window{}
		x.fps, x.exact = fingerprints{}, exactStates{}
		debug.FreeOSMemory()
		a.where = inCache
		if x.diskable(a.sy) {
			a.where, a.p = onDisk, plan{edges: !layered}
		}
		return a, true
	case errors.Is(r.stopped, errUnlayered) && a.where == onDisk && !a.p.edges:
		x.graph.free()
		x.kept = window{}
		a.p.edges = true
		return a, true
	case a.clocks == plainChecked && (r.violation != nil || r.stopped != nil):
		return x.planIn(a.full, withoutClocks), true
	case a.clocks == withoutClocks && r.violation == nil && r.stopped == nil:
		return x.planIn(a.full, asIs), true
	}
	return a, false
}

// close releases the state cache's goroutines.
func (x *searcher) close() {
	if x.cache != nil {
		x.cache.Close()
	}
	if x.files != nil {
		x.files.close()
	}
}
