package explore

import (
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
	// ComparisonOnly re-explores every configuration with the ids relabelled
	// by order-preserving maps (relabel.go) and compares the results.
	ComparisonOnly bool
	// ComparisonSeed seeds the comparison-only check's random relabelling;
	// reports name it, so that a finding can be reproduced.
	ComparisonSeed uint64
	// POR turns on partial-order reduction: in a state, only the steps of
	// one process are explored when that provably loses nothing
	// (docs/reduction.md). Counterexamples are still shortest: a
	// configuration with a violation is searched again unreduced.
	POR bool
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
	// among the workers; 0: no bound). A configuration whose breadth-first
	// search would outgrow it is searched again depth-first with a state
	// cache of that size (github.com/dgraph-io/ristretto/v2): SPIN's and
	// VeriSoft's state-space caching, where an evicted state is explored
	// again and none is missed. Such configurations report visits, not
	// distinct states, and traces that are not shortest.
	Memory int64
	// Workers is the number of configurations searched at once; 0 means
	// one per CPU. With fewer configurations than workers, the workers
	// share one configuration's breadth-first search instead (unreduced
	// searches without costs or time), unless the search runs collapsed
	// (collapse.go: breadth-first, without -exact, time or costs), which is
	// faster on one core than the shared search on two. Results do not depend on it.
	Workers int
	// Progress, if set, is called now and then during the search, by one
	// goroutine at a time.
	Progress func(Progress)

	// par and chunk, for tests: every configuration's breadth-first
	// search expands with par workers, chunk states at a time.
	par, chunk int
	// bytes, for tests: never search with collapsed states (collapse.go).
	bytes bool
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
}

// Space is a set of configurations: a topology size, a channel semantics,
// and either fixed ids and initiators or all of them.
type Space struct {
	N        int
	Topology spec.TopologyKind
	Channels spec.Channels
	// IDs fixes the id placement; nil means every placement of 1..n up to
	// rotation (id 1 at position 0): (n-1)! of them.
	IDs []spec.ID
	// AllPlacements turns off symmetry reduction: with IDs nil, every
	// placement is enumerated, n! of them, rotations included.
	AllPlacements bool
	// Initiators fixes the initiator set; 0 means every non-empty subset.
	Initiators spec.Set
	// Shard and Shards select a part of the space: the configurations whose
	// index in enumeration order is Shard modulo Shards. Shards 0 or 1
	// means the whole space. The parts of 0..Shards-1 are disjoint and
	// cover the space, and interleaving keeps them balanced.
	Shard, Shards int
}

// inShard reports whether the configuration with enumeration index k
// belongs to the space's shard.
func (sp Space) inShard(k int) bool { return sp.Shards <= 1 || k%sp.Shards == sp.Shard }

// Count returns the number of configurations in the space (in its shard).
func (sp Space) Count() int {
	c := sp.total()
	if sp.Shards > 1 {
		c = c/sp.Shards + btoi(sp.Shard < c%sp.Shards)
	}
	return c
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// total is the number of configurations in the whole space.
func (sp Space) total() int {
	c := 1
	if sp.IDs == nil {
		for k := 2; k < sp.N; k++ {
			c *= k
		}
		if sp.AllPlacements {
			c *= sp.N
		}
	}
	if sp.Initiators == 0 {
		c *= 1<<uint(sp.N) - 1
	}
	return c
}

// Configs enumerates the configurations of the shard in a fixed order:
// placements in lexicographic order, then initiator sets as increasing bit
// masks.
func (sp Space) Configs() iter.Seq[spec.Config] {
	return func(yield func(spec.Config) bool) {
		for _, cfg := range sp.Indexed() {
			if !yield(cfg) {
				return
			}
		}
	}
}

// Indexed enumerates the configurations of the shard with their index in
// the enumeration of the whole space, which orders counterexamples across
// shards.
func (sp Space) Indexed() iter.Seq2[int, spec.Config] {
	top, _ := spec.NewTopology(sp.Topology, sp.N)
	return func(yield func(int, spec.Config) bool) {
		k := -1
		placements := func(yield func([]spec.ID) bool) {
			if sp.IDs != nil {
				yield(sp.IDs)
				return
			}
			ids := make([]spec.ID, sp.N)
			for i := range ids {
				ids[i] = spec.ID(i + 1)
			}
			for {
				if !yield(slices.Clone(ids)) {
					return
				}
				free := ids[1:] // id 1 stays at position 0: one rotation of each
				if sp.AllPlacements {
					free = ids
				}
				if !nextPermutation(free) {
					return
				}
			}
		}
		for ids := range placements {
			lo, hi := spec.Set(1), spec.All(sp.N)
			if sp.Initiators != 0 {
				lo, hi = sp.Initiators, sp.Initiators
			}
			for init := lo; init <= hi; init++ {
				k++
				if !sp.inShard(k) {
					continue
				}
				if !yield(k, spec.Config{Topology: top, IDs: ids, Initiators: init, Channels: sp.Channels}) {
					return
				}
			}
		}
	}
}

// nextPermutation advances a to its next lexicographic permutation and
// reports whether there was one.
func nextPermutation(a []spec.ID) bool {
	i := len(a) - 2
	for i >= 0 && a[i] >= a[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(a) - 1
	for a[j] <= a[i] {
		j--
	}
	a[i], a[j] = a[j], a[i]
	slices.Reverse(a[i+1:])
	return true
}

// Violation is a property that failed, with the configuration and the
// actions that lead from its initial state to the failure.
type Violation struct {
	Property string
	Detail   string
	Config   spec.Config
	// ConfigIndex is the configuration's index in the enumeration of the
	// whole space (see Space.Indexed).
	ConfigIndex int
	Trace       []Action
	// LoopAt is, for a termination violation, the number of steps after
	// which the trace's last state was first reached: steps LoopAt+1 to the
	// end form a cycle. -1 otherwise.
	LoopAt int
}

// Status is the verdict on one property.
type Status string

// The verdicts on a property.
const (
	Holds      Status = "holds"
	Violated   Status = "violated"
	Unknown    Status = "unknown"     // the search stopped before it was established
	NotChecked Status = "not checked" // the run was not set up to check it
)

// PropertyResult is one property's verdict with a short note.
type PropertyResult struct {
	Name   string
	Status Status
	Note   string
}

// Result is the outcome of a check over a space of configurations.
type Result struct {
	Algo        string
	N           int
	Channels    spec.Channels
	Configs     int // in the space
	ConfigsDone int // explored completely
	States      int64
	Transitions int64
	Terminals   int64
	MaxDepth    int
	// FinalDigest is an order-independent digest of the set of terminal
	// states of every configuration: equal digests mean, up to a 2^-64
	// chance, equal sets. Reduced and unreduced searches must agree on it.
	FinalDigest uint64
	// MinMessages and MaxMessages are over complete executions of every
	// configuration explored completely; -1 if there was none.
	MinMessages, MaxMessages int
	Elapsed                  time.Duration
	Exact                    bool
	// Collision is the estimated probability that two distinct states of
	// one configuration shared a fingerprint, so that one went unexplored.
	Collision  float64
	Properties []PropertyResult
	// UniformChecked is the number of states on which the engine's
	// symmetry self-check ran (UniformityNote).
	UniformChecked int64
	// Cached counts the configurations searched with state caching
	// (Options.Memory): their states are visits, and may include repeats.
	Cached int
	// Violation is the counterexample reported: the shortest (BFS), the
	// first in enumeration order among equals.
	Violation *Violation
	// Violated lists every property some configuration violated, sorted.
	Violated []string
	// Incomplete says why the search stopped early; empty if it did not.
	Incomplete string
	// Internal, if not empty, is a fault of elcheck itself that stopped the
	// check (with a stack), to be reported as such, never as a verdict.
	Internal string
}

// Verdict returns the report's last line: VERIFIED, VIOLATED: p or
// INCOMPLETE: why. A violation found is reported even if the search was
// then cut short, since it is a fact; VERIFIED needs a complete search.
func (r *Result) Verdict() string {
	switch {
	case r.Violation != nil:
		return "VIOLATED: " + r.Violation.Property
	case r.Incomplete != "":
		return "INCOMPLETE: " + r.Incomplete
	}
	return "VERIFIED"
}

// batchSize is how many configurations are searched between two merges of
// results. Each configuration is searched on its own, whatever the others
// found, so the counts do not depend on the batch size, the number of
// workers or the sharding of the space.
const batchSize = 64

// outcome is one configuration's result inside a batch.
type outcome struct {
	k   int
	cfg spec.Config
	r   configResult
	cmp *Violation // from the comparison-only re-exploration
	err error      // the comparison stopped early
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

// InternalError is a fault of elcheck itself met during a check: the
// check stops, and Result.Internal says what happened.
type InternalError struct{ What string }

func (e *InternalError) Error() string { return "internal error: " + e.What }

// better reports whether violation a is to be reported rather than b.
func better(a *Violation, b *Violation) bool {
	return b == nil || Precedes(len(a.Trace), a.ConfigIndex, len(b.Trace), b.ConfigIndex)
}

// Precedes is the order in which counterexamples are preferred, given
// their trace lengths and configuration indices: shorter traces first, then
// earlier configurations; a violation without a trace (comparison-only)
// after any with one. `elcheck merge` applies the same rule across shards.
func Precedes(lenA, configA, lenB, configB int) bool {
	if (lenA == 0) != (lenB == 0) {
		return lenA != 0
	}
	if lenA != lenB {
		return lenA < lenB
	}
	return configA < configB
}

// Check explores every configuration of space for m and checks every
// property. The counterexample reported, if any, is a shortest one over
// all configurations (with BFS), the first in enumeration order among
// equals. Configurations are searched by opts.Workers goroutines; the
// result does not depend on how many.
func Check(ctx context.Context, m spec.Machine, space Space, opts Options) *Result {
	start := time.Now()
	info := m.Info()
	res := &Result{Algo: info.Name, N: space.N, Channels: space.Channels, Configs: space.Count(),
		Exact: opts.Exact, MinMessages: -1, MaxMessages: -1}
	remaining := int64(math.MaxInt64)
	if opts.MaxStates > 0 {
		remaining = opts.MaxStates
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	searchers := make([]*searcher, workers)
	budgets := make([]int64, workers)
	for w := range searchers {
		searchers[w] = newSearcher(ctx, opts, &budgets[w])
		if opts.Memory > 0 {
			searchers[w].memLimit = max(1, opts.Memory/int64(workers))
		}
		defer searchers[w].close()
	}
	// Fewer configurations than workers: the first searcher gets them all
	// and expands its states in parallel (parallel.go).
	if res.Configs < workers && workers > 1 {
		searchers = searchers[:1]
		searchers[0].par = workers
		if opts.Memory > 0 {
			searchers[0].memLimit = opts.Memory
		}
	}
	if opts.par > 0 {
		for _, x := range searchers {
			x.par = opts.par
		}
	}
	var progressMu sync.Mutex
	var uniformChecked int64
	var stopped error
	batch := make([]outcome, 0, batchSize)
	next, pull := iter.Pull2(space.Indexed())
	defer pull()
	for stopped == nil {
		batch = batch[:0]
		for len(batch) < batchSize {
			k, cfg, ok := next()
			if !ok {
				break
			}
			batch = append(batch, outcome{k: k, cfg: cfg})
		}
		if len(batch) == 0 {
			break
		}
		done, states, depth := res.ConfigsDone, res.States, res.MaxDepth
		var wg sync.WaitGroup
		var cursor atomic.Int64
		for w := range min(len(searchers), len(batch)) {
			wg.Add(1)
			go func(x *searcher, budget *int64) {
				defer wg.Done()
				for {
					j := int(cursor.Add(1)) - 1
					if j >= len(batch) {
						return
					}
					o := &batch[j]
					func() {
						defer o.recover()
						*budget = remaining
						if opts.Progress != nil {
							x.progress = func(s int64, d int) {
								progressMu.Lock()
								defer progressMu.Unlock()
								opts.Progress(Progress{States: states + s, Depth: max(depth, d), ConfigsDone: done + j, ConfigsTotal: res.Configs, ConfigStates: s, Config: o.cfg})
							}
						}
						// A reduced search may reach a violation by a longer
						// path than the shortest: search such a configuration
						// again, unreduced, for the shortest trace.
						x.reduce = opts.POR
						o.r = x.search(x.system(m, o.cfg))
						if o.r.violation != nil && x.reduce && opts.Search == BFS && !o.r.cached {
							x.reduce = false
							first := o.r
							if o.r = x.search(x.system(m, o.cfg)); o.r.violation == nil {
								// Not found again (an impure step need not
								// fail twice alike): what was found stands.
								o.r = first
							}
						}
						if o.r.violation != nil {
							o.r.violation.ConfigIndex = o.k
						}
						if opts.ComparisonOnly && o.r.violation == nil && o.r.stopped == nil {
							o.cmp, o.err = x.compareRelabelled(m, o.cfg, o.r)
							if o.cmp != nil {
								o.cmp.ConfigIndex = o.k
							}
						}
					}()
				}
			}(searchers[w], &budgets[w])
		}
		wg.Wait()
		// Merge in enumeration order, as a single worker would have.
		for _, o := range batch {
			r := o.r
			res.States += r.states
			res.Transitions += r.transitions
			res.Terminals += r.terminals
			if r.cached {
				res.Cached++
			}
			res.FinalDigest += r.finals
			res.MaxDepth = max(res.MaxDepth, r.maxDepth)
			uniformChecked += r.uniformChecked
			if !opts.Exact {
				res.Collision += float64(r.states) * float64(r.states) / math.Exp2(65)
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
			if remaining -= r.states; remaining < 0 && r.stopped == nil {
				r.stopped = errStateLimit
			}
			if r.stopped == nil {
				r.stopped = o.err
			}
			if r.stopped != nil {
				stopped = r.stopped
				break
			}
			if res.Violation != nil && opts.Search == DFS {
				stopped = errFound // DFS traces are not shortest: the first one will do
				break
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
		}
	}
	var internal *InternalError
	switch {
	case stopped == nil, errors.Is(stopped, errFound):
	case errors.As(stopped, &internal):
		res.Internal = internal.What
		res.Incomplete = "internal error"
	case errors.Is(stopped, errMemory):
		res.Incomplete = fmt.Sprintf("memory limit of %d bytes reached", opts.Memory)
	case errors.Is(stopped, errStateLimit):
		res.Incomplete = fmt.Sprintf("state limit of %d reached", opts.MaxStates)
	case errors.Is(stopped, context.DeadlineExceeded):
		res.Incomplete = "time limit reached"
	default:
		res.Incomplete = "interrupted"
	}
	if res.Incomplete != "" {
		res.Incomplete += fmt.Sprintf(" after %d of %d configurations", res.ConfigsDone, res.Configs)
	}
	res.Elapsed = time.Since(start)
	res.UniformChecked = uniformChecked
	res.Properties = properties(res, info, space, opts, uniformChecked)
	return res
}

var errFound = errors.New("violation found")

// UniformityNote is the report's note on uniformity. A protocol cannot
// break it: a process is given its id and its ports, never its position, so
// its behaviour is the same wherever it stands. What can break is the
// engine's own symmetry (the successor function must commute with the
// topology's automorphisms), which a sample of states checks; the note
// says on how many, every being Options.UniformityEvery.
func UniformityNote(checked int64, every int) string {
	const why = "by construction: a process sees its id and its ports, never its position"
	switch {
	case every == 0:
		return why + "; the engine's symmetry self-check was off"
	case checked == 0:
		return why + "; the engine's symmetry self-check ran on no state"
	}
	return fmt.Sprintf("%s; the engine's symmetry self-check ran on %d states (every %dth)", why, checked, every)
}

func properties(res *Result, info spec.Info, space Space, opts Options, uniformChecked int64) []PropertyResult {
	complete := res.Incomplete == "" && res.Violation == nil
	var out []PropertyResult
	for _, p := range invariants.All {
		pr := PropertyResult{Name: p.Name, Status: Unknown}
		if complete {
			pr.Status = Holds
		}
		switch p.Name {
		case invariants.Decentralization:
			if space.Initiators != 0 {
				pr.Status, pr.Note = NotChecked, "initiators fixed by -initiators"
			} else if complete {
				pr.Note = fmt.Sprintf("all %d non-empty initiator sets", 1<<uint(space.N)-1)
			}
		case invariants.Uniformity:
			pr.Note = UniformityNote(uniformChecked, opts.UniformityEvery)
		case invariants.ComparisonOnly:
			if !opts.ComparisonOnly {
				pr.Status = NotChecked
			} else if complete {
				pr.Note = RelabellingNote(opts.ComparisonSeed)
			}
		case invariants.MessageBound:
			switch {
			case info.Bound.Max == nil:
				pr.Status, pr.Note = NotChecked, "no bound declared"
			case res.MaxMessages >= 0:
				pr.Note = fmt.Sprintf("max %d, bound %s = %d", res.MaxMessages, info.Bound.Formula, info.Bound.Max(space.N))
			}
		}
		if slices.Contains(res.Violated, p.Name) {
			pr.Status, pr.Note = Violated, "violated in some configuration"
			if res.Violation.Property == p.Name {
				pr.Note = res.Violation.Detail
			}
		}
		out = append(out, pr)
	}
	return out
}
