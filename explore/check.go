package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Options configures a check.
type Options struct {
	// Search is the exploration order (BFS by default).
	Search Search
	// Exact stores whole state encodings in the visited set instead of
	// 64-bit fingerprints: slower and larger, but no collision can hide a
	// state. The tests use it.
	Exact bool
	// MaxStates stops the check, INCOMPLETE, after this many distinct
	// states over all configurations; 0 means no limit.
	MaxStates int64
	// PurityEvery turns on the check that steps are functions of their
	// input: every distinct step is run again firstUseRuns times at its
	// first use, and once at its 2nd, 4th, 8th... use (at every use if
	// PurityEvery is 1), and compared with the result the search used. 0
	// turns the check off; 2 or more is that schedule (the default, 2).
	PurityEvery int
	// UniformityEvery checks on every k-th state that rotating it commutes
	// with taking its successors; 0 turns the check off.
	UniformityEvery int
	// ComparisonOnly checks that every distinct step and initial state
	// commutes with order-preserving relabellings of its ids
	// (comparison.go); for a protocol whose states hide their ids, it
	// explores every configuration again relabelled (relabel.go).
	ComparisonOnly bool
	// ComparisonSeed seeds the comparison-only check's random relabelling;
	// reports name it, so that a finding can be reproduced.
	ComparisonSeed uint64
	// POR turns on partial-order reduction: in a state, only the steps of
	// one process are explored when that provably loses nothing
	// (docs/reduction.md). Counterexamples are still shortest: a
	// configuration with a violation is searched again unreduced.
	POR bool
	// IgnoreBound leaves the declared message bound unchecked, so that a
	// configuration that exceeds it is explored and measured like any
	// other (OnConfig) instead of ending in a message-bound violation:
	// elcheck bounds compares the figures with the bound itself.
	IgnoreBound bool
	// Costs are additive costs of messages (one per message of a kind, the
	// bits of its ids...) whose least and greatest totals over complete
	// executions OnConfig reports for each configuration.
	Costs []Cost
	// Time measures causal time: states carry Lamport clocks that count
	// message hops, and OnConfig reports the least and greatest length of
	// the longest causal chain of an execution. It enlarges the state.
	Time bool
	// OnConfig, if set, receives the costs of every configuration explored
	// completely without a violation, in enumeration order.
	OnConfig func(ConfigCosts)
	// Memory bounds, in bytes, what the searches hold at once (shared
	// among the workers; 0: no bound): their data are kept to half of it,
	// the other half being the collector's room (the CLI sets the Go
	// memory limit to the whole). A configuration whose breadth-first
	// search would outgrow its share is searched again breadth-first with
	// its visited set, frontier and parents on disk (disk.go: Stern and
	// Dill's delayed duplicate detection, as TLC's disk-backed sets), with
	// the same counts, verdicts and traces (and its edges too, if its
	// graph is not layered); a depth-first search, or one with costs or
	// clocks, is searched again depth-first with a state cache of that size
	// (github.com/dgraph-io/ristretto/v2): SPIN's and VeriSoft's
	// state-space caching, where an evicted state is explored again and
	// none is missed; the cached configurations report visits, not
	// distinct states, and traces that are not shortest.
	Memory int64
	// Workers is the number of configurations searched at once; 0 means
	// one per CPU. With fewer configurations than workers, the workers
	// share one configuration's breadth-first search instead, where it is
	// unreduced, without time or costs: level by level (levels.go), on
	// collapsed states on fingerprints, or on byte encodings. Results do
	// not depend on it.
	Workers int
	// Progress, if set, is called now and then during the search, by one
	// goroutine at a time.
	Progress func(Progress)
	// First stops the check at the first configuration, in enumeration
	// order, with a violation, with the trace its search found (with
	// partial-order reduction, not necessarily its shortest): "is there
	// a bug?". Without it, a breadth-first check goes on looking for a
	// shorter counterexample, each configuration no deeper than one could
	// be (sweep.go).
	First bool
	// EveryConfig searches every configuration to its end even after a
	// violation, as it was before depth limits (sweep.go): elcheck bounds
	// measures every configuration without a violation, and the tests
	// compare limited sweeps with whole ones.
	EveryConfig bool

	// par and chunk, for tests: every configuration's breadth-first
	// search is on byte encodings and shares its levels among par workers
	// (levels.go), chunk states at a time.
	par, chunk int
	// levels, for tests: every configuration's collapsed search shares
	// its levels among levels workers (levels.go), chunk states at a time.
	levels int
	// bytes, for tests: never search with collapsed states (collapse.go).
	bytes bool
	// tags, for tests: search every configuration on the tag set
	// (tagset.go) where one can (1), or none (-1).
	tags int
	// diskBatch, for tests: the disk search (disk.go) flushes its batch
	// every diskBatch new successors (or twice as many edges); noDisk: a
	// search over the memory budget goes to the state cache at once.
	diskBatch int
	noDisk    bool
	// counts, for tests, counts the paths the check's searches took
	// (pathCounts); Check makes one if it is nil. localsLimit, for tests,
	// stops a search at that many distinct local states (0: czLocals).
	counts      *pathCounts
	localsLimit int
	// onMerged, for tests, sees each configuration's result as it is
	// merged: its index, its depth limit, the deepest state it reached,
	// whether it was cut at the limit, and the length of the violation it
	// found that limits the ones after it (-1: none).
	onMerged func(k int, lim int32, depth int, cut bool, found int)
}

// DefaultOptions returns the options `elcheck verify` uses.
func DefaultOptions() Options {
	return Options{PurityEvery: 2, UniformityEvery: 17, ComparisonOnly: true, ComparisonSeed: 1, POR: true}
}

// Cost is an additive cost of sending a message.
type Cost struct {
	Name string
	Of   func(spec.Message) int64
}

// ConfigCosts is what one configuration's executions cost: for each
// Options.Costs entry the least and greatest total over complete
// executions, the same for causal time, and an execution reaching the
// greatest total of the first cost (its actions carry no timestamps, so it
// replays in a system without clocks).
//
// Worst is built (a replay of the path, as costly as the rest of a small
// configuration's search) only where it may be wanted: if the
// configuration's greatest first cost is at least that of every
// configuration finished before it (and comes before it in order, if
// equal), or if its messages exceed the declared bound. So the first
// configuration, in order, of the greatest total over all has it, as has
// every one that exceeds the bound; others may not.
type ConfigCosts struct {
	Index            int
	Config           spec.Config
	Min, Max         []int64
	MinTime, MaxTime int64
	Worst            []Action
}

// Progress is a snapshot of a running check.
type Progress struct {
	States       int64
	Depth        int
	ConfigsDone  int
	ConfigsTotal int
	ConfigStates int64
	Config       spec.Config
	// Violated is the property of the shortest violation known so far
	// (empty: none), Steps its length; the configurations left are
	// searched only to depth Steps-1, for a shorter one.
	Violated string
	Steps    int
}

// sweepProgress is a check's progress across its workers: the states of
// the batch's finished configurations and of each worker's current search
// (current, each back to 0 when its search ends), on top of the batches
// before, so that the figure grows whichever worker reports. Made once per
// check, not per configuration: a sweep's configurations are searched in
// microseconds, and a closure or two each were 10 % of a two-worker sweep
// (dkr n = 7) with progress on.
type sweepProgress struct {
	fn    func(Progress)
	total int
	mu    sync.Mutex // guards the rest, and serialises fn's calls
	// At the start of the batch.
	done, depth int
	states      int64
	// Since.
	current         []int64
	finished        int64
	finishedConfigs int
	short           *shorter // the violations known
}

// batch starts a batch, after done configurations with states states and
// the given depth.
func (sp *sweepProgress) batch(done int, states int64, depth int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.done, sp.states, sp.depth = done, states, depth
	sp.finished, sp.finishedConfigs = 0, 0
}

// report is worker w's, searching cfg: s states so far, at depth d.
func (sp *sweepProgress) report(w int, cfg spec.Config, s int64, d int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.current[w] = s
	all := sp.states + sp.finished
	for _, c := range sp.current {
		all += c
	}
	p := Progress{States: all, Depth: max(sp.depth, d), ConfigsDone: sp.done + sp.finishedConfigs, ConfigsTotal: sp.total, ConfigStates: s, Config: cfg}
	if sp.short != nil {
		p.Violated, p.Steps = sp.short.best()
	}
	sp.fn(p)
}

// finish ends worker w's search, whose result is r.
func (sp *sweepProgress) finish(w int, r *configResult) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.current[w] = 0
	sp.finished += r.states
	if r.stopped == nil { // searched to its end or its depth limit
		sp.finishedConfigs++
	}
}

// batchSize is how many configurations are searched between two merges of
// results. Each configuration is searched on its own, whatever the others
// found, so the counts do not depend on the batch size, the number of
// workers or the sharding of the space. Each merge waits for the last
// configuration of its batch, the other workers idle meanwhile: 64 cost
// 20 ms of a 0.7 s sweep (n = 7) on two workers, 256 cost 6 ms; and at
// n = 6, where a configuration met first does its steps' checks, 256 left
// a worker idle 5 ms of 31 (1,024: 41 to 45 ms against 45 to 51, in an
// hour the host lent the second core unevenly).
const batchSize = 1024

// firstBatch is the size of the first batch, which the workers wait for:
// 1,024 configurations took 0.26 ms to enumerate at n = 6.
const firstBatch = 64

// outcome is one configuration's result inside a batch.
type outcome struct {
	k   int
	cfg spec.Config
	r   configResult
	cmp *Violation // from the comparison-only re-exploration
	err error      // the comparison stopped early
	lim int32      // the depth limit r was found under (sweep.go)
}

// recover ends the search of o's configuration after a panic outside a
// protocol's steps (which the system turns into findings): a protocol's
// Init is the protocol's fault, a step-panicked finding; anything else is
// elcheck's own, an internal error that stops the check.
func (o *outcome) recover() {
	r := recover()
	if r == nil {
		return
	}
	if ip, ok := r.(initPanic); ok {
		o.r = configResult{minMsg: -1, violation: &Violation{Property: invariants.StepPanicked, Detail: ip.detail,
			Config: o.cfg, ConfigIndex: o.k, LoopAt: -1}}
		o.cmp, o.err = nil, nil
		return
	}
	o.r = configResult{minMsg: -1, stopped: &InternalError{fmt.Sprintf("%v\n%s", r, debug.Stack())}}
}

// pathCounts counts the paths a check's searches took, for the tests to see
// each one taken (Options.counts): configurations left unsearched because
// an earlier one stopped short; searches on the tag set (tagset.go), those
// run again without it for a violation's trace, and those run again with
// edges; and the levels' segments, chunks expanded by the workers and left
// over to the searcher, and searches with edges (levels.go).
type pathCounts struct {
	halted                                 atomic.Int64
	tagSearches, tagRetraced, tagUnlayered atomic.Int64
	segments, expanded, leftOver, edges    atomic.Int64
}

// InternalError is a fault of elcheck itself met during a check: the
// check stops, and Result.Internal says what happened.
type InternalError struct{ What string }

func (e *InternalError) Error() string { return "internal error: " + e.What }

// Check explores every configuration of space for m and checks every
// property. The counterexample reported, if any, is a shortest one over
// all configurations (with BFS), the first in enumeration order among
// equals. Configurations are searched by opts.Workers goroutines; the
// result does not depend on how many.
func Check(ctx context.Context, m spec.Machine, space configs.Space, opts Options) *Result {
	start := time.Now()
	if opts.counts == nil {
		opts.counts = new(pathCounts)
	}
	info := m.Info()
	ck := newChecking(ctx, m, space, opts)
	defer ck.close()
	res := ck.res
	next, pull := iter.Pull2(space.Indexed())
	defer pull()
	// fill pulls the next batch of configurations into b. The calling
	// goroutine does it for batch i+1 while the other workers search
	// batch i: done between batches, it left them waiting (4 % of a
	// sweep's time on two workers).
	fill := func(b []outcome) []outcome {
		b = b[:0]
		for len(b) < cap(b) {
			k, cfg, ok := next()
			if !ok {
				break
			}
			b = append(b, outcome{k: k, cfg: cfg})
		}
		return b
	}
	batch, ahead := fill(make([]outcome, 0, firstBatch)), make([]outcome, 0, batchSize)
	for ; ck.stopped == nil && len(batch) > 0; batch, ahead = ahead, batch {
		if ck.sp != nil {
			ck.sp.batch(res.ConfigsDone+res.DepthCut, res.States, res.MaxDepth) // the depth-limited ones are finished too
		}
		var cursor atomic.Int64
		search := func(w int) { ck.searchBatch(w, batch, &cursor) }
		k := min(len(ck.searchers), len(batch))
		ck.cr.launch(k, search)
		if cap(ahead) < batchSize { // the first batch's
			ahead = make([]outcome, 0, batchSize)
		}
		ahead = fill(ahead)
		search(k - 1)
		ck.cr.wait()
		// Merge in enumeration order, as a single worker would have.
		for i := range batch {
			if ck.merge(&batch[i]) {
				break
			}
		}
	}
	res.Incomplete, res.Internal = stopReason(ctx, ck.stopped, opts)
	if res.Incomplete != "" {
		res.Incomplete += fmt.Sprintf(" after %d of %d configurations", res.ConfigsDone, res.Configs)
	}
	res.Elapsed = time.Since(start)
	res.UniformChecked = ck.uniformChecked
	res.Properties = properties(res, info, space, opts, ck.uniformChecked, spec.CanRelabel(m))
	return res
}

// checking is the state of one Check: its searchers and what they share,
// and the result merged so far.
type checking struct {
	opts      Options
	res       *Result
	searchers []*searcher
	cr        crew
	sp        *sweepProgress // nil without Options.Progress
	sw        *sweep
	// remaining is the state budget left after the configurations merged.
	remaining int64
	// mergedBest is the length of the shortest violation merged so far
	// that limits the depth of the searches after it (sweep.go).
	mergedBest     int
	uniformChecked int64
	stopped        error // why the check stops, once it does
	// A configuration whose search stops short (a limit, an internal
	// error) ends the check after the batch, in merge: the batch's later
	// configurations stop too, rather than run to their own ends for
	// nothing (an endless protocol's, each to the engine's limit: minutes
	// each). Earlier ones go on, so the result is the one a single worker
	// gives.
	haltAt atomic.Int64 // searcher.haltAt
}

// newChecking readies a check: a searcher per worker (one with all the
// workers if the space has fewer configurations than workers), the
// workers' crew, progress, and the sweep's depth limits.
func newChecking(ctx context.Context, m spec.Machine, space configs.Space, opts Options) *checking {
	ck := &checking{opts: opts, remaining: math.MaxInt64, mergedBest: math.MaxInt,
		res: &Result{Algo: m.Info().Name, N: space.N(), Channels: space.Channels, Configs: space.Count(),
			Exact: opts.Exact, MinMessages: -1, MaxMessages: -1}}
	if opts.MaxStates > 0 {
		ck.remaining = opts.MaxStates
	}
	ck.haltAt.Store(math.MaxInt64)
	// Placements taken up to automorphisms that move ports stand for one
	// another only if the steps are blind to port numbering: check them.
	portBlind := space.MovesPorts()
	ck.searchers = newSearchers(ctx, opts, ck.res.Configs, portBlind)
	for _, x := range ck.searchers {
		x.haltAt = &ck.haltAt
	}
	// The workers wait between batches spinning a little (crew), not
	// parked: a sweep has thousands of batches, and waking a parked
	// thread took tens of microseconds each time (5 % of a sweep's time on
	// two workers).
	ck.cr.start(len(ck.searchers) - 1)
	if opts.Progress != nil {
		sp := &sweepProgress{fn: opts.Progress, total: ck.res.Configs, current: make([]int64, len(ck.searchers))}
		for w, x := range ck.searchers {
			x.progress = func(s int64, d int) { sp.report(w, x.progressCfg, s, d) }
		}
		ck.sp = sp
	}
	ck.sw = &sweep{m: m, opts: opts, portBlind: portBlind}
	if opts.Search == BFS && !opts.First && !opts.EveryConfig {
		ck.sw.short = &shorter{}
		for _, x := range ck.searchers {
			x.short = ck.sw.short
		}
		if ck.sp != nil {
			ck.sp.short = ck.sw.short
		}
	}
	return ck
}

// newSearchers returns the searchers of a check with opts on a space of
// configs configurations.
func newSearchers(ctx context.Context, opts Options, configs int, portBlind bool) []*searcher {
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	searchers := make([]*searcher, workers)
	budgets := make([]budgetLine, workers)
	worst := &worstSoFar{index: -1} // ConfigCosts.Worst's
	for w := range searchers {
		x := newSearcher(ctx, opts, &budgets[w].n)
		x.portBlind, x.worstSeen = portBlind, worst
		if opts.Memory > 0 {
			x.memLimit = max(1, opts.Memory/int64(workers)/2)
		}
		searchers[w] = x
	}
	// Fewer configurations than workers: the first searcher gets them all
	// and expands its states in parallel (levels.go).
	if configs < workers && workers > 1 {
		for _, x := range searchers[1:] {
			x.close()
		}
		searchers = searchers[:1]
		searchers[0].par = workers
		if opts.Memory > 0 {
			searchers[0].memLimit = max(1, opts.Memory/2)
		}
	}
	if len(searchers) > 1 {
		checked := newCheckedSteps()
		for w, x := range searchers {
			x.checked, x.purityPart, x.purityParts = checked, w, len(searchers)
		}
	}
	if opts.par > 0 || opts.levels > 0 {
		for _, x := range searchers {
			x.par = max(opts.par, opts.levels)
		}
	}
	return searchers
}

// close stops the crew and releases the searchers' caches and files.
func (ck *checking) close() {
	ck.cr.stop()
	for _, x := range ck.searchers {
		x.close()
	}
}

// searchBatch is worker w's part of a batch: it searches the
// configurations it claims (cursor) until none is left.
func (ck *checking) searchBatch(w int, batch []outcome, cursor *atomic.Int64) {
	x := ck.searchers[w]
	for {
		j := int(cursor.Add(1)) - 1
		if j >= len(batch) {
			return
		}
		o := &batch[j]
		if int64(o.k) > ck.haltAt.Load() {
			o.r = configResult{minMsg: -1, stopped: errHalted}
			ck.opts.counts.halted.Add(1)
			continue
		}
		ck.searchOne(w, x, o)
	}
}

// searchOne searches o's configuration on worker w's searcher x, turning
// a panic into a stop, and lowers haltAt to it if it stops the check.
func (ck *checking) searchOne(w int, x *searcher, o *outcome) {
	// After recover, which turns a panic into a stop.
	defer func() {
		st := cmp.Or(o.r.stopped, o.err)
		if ck.opts.First && (o.r.violation != nil || o.cmp != nil) {
			st = errFound // the later configurations are not wanted
		}
		if st != nil && !errors.Is(st, errHalted) {
			// haltAt only falls: lower it to o.k, unless another
			// worker's stop is earlier.
			for h := ck.haltAt.Load(); int64(o.k) < h; h = ck.haltAt.Load() {
				if ck.haltAt.CompareAndSwap(h, int64(o.k)) {
					break
				}
			}
		}
	}()
	defer o.recover()
	if ck.sp != nil {
		x.progressCfg = o.cfg
		defer ck.sp.finish(w, &o.r)
	}
	ck.sw.searchConfig(x, o, ck.remaining)
}

// merge adds o's result to the check's, in enumeration order, and reports
// whether the check stops there.
func (ck *checking) merge(o *outcome) bool {
	res, opts := ck.res, ck.opts
	ck.searchAgain(o)
	r := o.r
	found := -1 // the length of a violation that limits the later ones
	if limits(r.violation) {
		found = len(r.violation.Trace)
		ck.mergedBest = min(ck.mergedBest, found)
	}
	if opts.onMerged != nil {
		opts.onMerged(o.k, o.lim, r.maxDepth, r.cut, found)
	}
	ck.addFigures(o)
	if ck.remaining -= r.states; ck.remaining < 0 && r.stopped == nil {
		r.stopped = errStateLimit
	}
	if r.stopped == nil {
		r.stopped = o.err
	}
	if r.stopped != nil {
		ck.stopped = r.stopped
		return true
	}
	if res.Violation != nil && (opts.Search == DFS || opts.First) {
		// DFS traces are not shortest: the first one will do.
		ck.stopped = errFound
		res.First = true
		return true
	}
	if r.cut {
		return false // not explored completely
	}
	res.ConfigsDone++
	if r.costs != nil && opts.OnConfig != nil && r.violation == nil && o.cmp == nil {
		r.costs.Index, r.costs.Config = o.k, o.cfg
		opts.OnConfig(*r.costs)
	}
	if r.minMsg >= 0 {
		if res.MinMessages < 0 || r.minMsg < res.MinMessages {
			res.MinMessages = r.minMsg
		}
		res.MaxMessages = max(res.MaxMessages, r.maxMsg)
	}
	return false
}

// searchAgain searches o's configuration again if it was searched before an
// earlier configuration's violation was known, under its own limit, so
// that the figures do not depend on the workers' timing.
func (ck *checking) searchAgain(o *outcome) {
	if ck.sw.short == nil || o.lim == limitBelow(ck.mergedBest) || o.r.stopped != nil {
		return
	}
	o.cmp, o.err = nil, nil
	defer o.recover()
	ck.sw.searchConfig(ck.searchers[0], o, ck.remaining)
}

// addFigures adds o's counts and violations to the check's result.
func (ck *checking) addFigures(o *outcome) {
	res, r := ck.res, &o.r
	if r.cut {
		res.DepthCut++
		res.CutDepth = max(res.CutDepth, int(o.lim))
	}
	res.States += r.states
	res.Transitions += r.transitions
	res.Terminals += r.terminals
	if r.cached {
		res.Cached++
	}
	if r.disk {
		res.Disk++
	}
	res.FinalDigest += r.finals
	res.MaxDepth = max(res.MaxDepth, r.maxDepth)
	ck.uniformChecked += r.uniformChecked
	if !ck.opts.Exact {
		res.Collision += float64(r.states) * float64(r.states) / math.Exp2(65)
	}
	if r.violation != nil && r.violation.Property != invariants.MessageBound {
		res.CutShort = true // the bound is decided after the whole graph is searched
	}
	for _, v := range []*Violation{r.violation, o.cmp} {
		if v == nil {
			continue
		}
		if better(v, res.Violation) {
			res.Violation = v
		}
		if !slices.Contains(res.Violated, v.Property) {
			res.Violated = append(res.Violated, v.Property)
			slices.Sort(res.Violated)
		}
	}
}

// stopReason says why a check that stopped with stopped is incomplete
// ("": it is not), and what its internal error was, if that is why.
func stopReason(ctx context.Context, stopped error, opts Options) (incomplete, internal string) {
	var ie *InternalError
	switch {
	case stopped == nil, errors.Is(stopped, errFound):
		return "", ""
	case errors.As(stopped, &ie):
		return "internal error", ie.What
	case errors.As(stopped, new(*DiskError)):
		return stopped.Error(), ""
	case errors.Is(stopped, errMemory):
		return fmt.Sprintf("memory limit of %d bytes reached", opts.Memory), ""
	case errors.Is(stopped, errStateLimit):
		return fmt.Sprintf("state limit of %d reached", opts.MaxStates), ""
	case errors.Is(stopped, context.DeadlineExceeded):
		return "time limit reached", ""
	case errors.Is(stopped, context.Canceled):
		// A caller that cancelled with a cause (context.WithCancelCause)
		// gets it as the reason: the CLI's memory guard does.
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause.Error(), ""
		}
		return "interrupted", ""
	}
	// A limit of the engine's own (errTooManyLocals), said as it is:
	// "interrupted" would blame the user.
	return stopped.Error(), ""
}

var errFound = errors.New("violation found")

// budgetLine is one worker's state budget alone on its cache line: every
// new state decrements it, and budgets side by side made the workers' cores
// fight over one line (a sweep on two workers ran 1.25x longer).
type budgetLine struct {
	n int64
	_ [56]byte
}
