package explore

import (
	"errors"
	"math"
	"sync"
	"sync/atomic"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Once a sweep has found a violation, the rest of it looks only for a
// shorter one: a later configuration is searched breadth-first no deeper
// than one step short of the shortest known (ties go to the earlier
// configuration, so an earlier one is searched as deep as it), and a
// search already deeper stops. What such a search finds within its limit
// is what a search without one finds there, breadth-first order being the
// same up to it, so the counterexample reported is the one an unlimited
// sweep reports.
//
// The limit of configuration k depends only on the violations of the
// configurations before k, never on the workers' timing: a worker reads
// those published so far, tightens its limit as more come, and the merge,
// which knows them all, searches a configuration again if its result was
// reached under a looser limit than its own (Check). So the figures do not
// depend on the number of workers.
//
// A reduced search (partial-order reduction) may reach a violation by a
// longer path than the shortest, so a limited configuration is searched
// unreduced. That costs less than the reduced search to the end would:
// a reduced ring configuration of tens of states holds paths as long as
// its executions, where the unreduced search to the depth of a short
// counterexample holds a few states more or less; and a graph's reduced
// search of millions of states becomes thousands (docs/benchmarks.md).

// noLimit is searcher.depthLimit's "no limit".
const noLimit = math.MaxInt32

// errRelimit stops a search whose depth limit fell below what it has
// explored (searcher.relimit): it starts again under the new limit.
var errRelimit = errors.New("a shorter violation is known: search again to a lower depth")

// shorter holds the length of the shortest violation found so far in each
// configuration that has one, shared by a check's searchers. Only
// violations found by the search count: a message-bound violation is
// decided on the whole graph, and comparison-only findings have no trace.
type shorter struct {
	mu    sync.Mutex
	found map[int]int // configuration index -> trace length
	// shortest is the shortest violation published, for progress.
	shortest *Violation
	// version grows with every violation published, so that a search
	// notices a new one with one atomic load (searcher.stop).
	version atomic.Int64
}

// limits reports whether v, found in a search, bounds the depth of the
// searches after it (shorter).
func limits(v *Violation) bool {
	return v != nil && len(v.Trace) > 0 && v.Property != invariants.MessageBound
}

// publish records the violation found in configuration k.
func (s *shorter) publish(k int, v *Violation) {
	if !limits(v) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.found == nil {
		s.found = map[int]int{}
	}
	if l, ok := s.found[k]; ok && l <= len(v.Trace) {
		return
	}
	s.found[k] = len(v.Trace)
	if s.shortest == nil || len(v.Trace) < len(s.shortest.Trace) {
		s.shortest = v
	}
	s.version.Add(1)
}

// best returns the property and length of the shortest violation
// published ("" if none).
func (s *shorter) best() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shortest == nil {
		return "", 0
	}
	return s.shortest.Property, len(s.shortest.Trace)
}

// limit returns the depth limit of configuration k given the violations
// published so far, and the version they are.
func (s *shorter) limit(k int) (int32, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := math.MaxInt
	for j, l := range s.found {
		if j < k {
			best = min(best, l)
		}
	}
	return limitBelow(best), s.version.Load()
}

// limitBelow is the depth limit of a configuration after one whose
// violation has length best (math.MaxInt: none): a shorter one has at most
// best-1 steps.
func limitBelow(best int) int32 {
	if best == math.MaxInt {
		return noLimit
	}
	return int32(best - 1)
}

// relimit takes the violations published since the search began: if they
// lower its depth limit, it goes on under the new one where the states
// found so far lie within it, breadth-first and unreduced (the states to
// the limit are found in the same order either way), and stops to start
// again otherwise (errRelimit).
func (x *searcher) relimit(r *configResult) bool {
	lim, v := x.short.limit(x.configIndex)
	x.shortSeen = v
	if lim >= x.cfgLimit {
		return false
	}
	if !x.inPlace || x.plan.parallel || r.cached || r.maxDepth > int(lim) {
		r.stopped = errRelimit
		return true
	}
	x.cfgLimit, x.depthLimit = lim, min(x.depthLimit, lim)
	return false
}

// sweep is what a check's configurations share.
type sweep struct {
	m         spec.Machine
	opts      Options
	portBlind bool
	// short holds the violations found, for the depth limits; nil where
	// there are none: depth-first (which stops at the first violation),
	// First, and EveryConfig.
	short *shorter
}

// limitOf returns configuration k's depth limit and the version of the
// violations it reflects.
func (sw *sweep) limitOf(k int) (int32, int64) {
	if sw.short == nil {
		return noLimit, 0
	}
	return sw.short.limit(k)
}

// searchConfig searches o's configuration with x, within the state budget
// remaining, under the depth limit the violations before it set (again
// if a new one lowers it during the search), then checks its initial
// states' port blindness and its comparison-only use of ids, if the
// search was complete and found nothing.
func (sw *sweep) searchConfig(x *searcher, o *outcome, remaining int64) {
	x.configIndex = o.k
	x.cmpStep.missed.Store(false)
	for {
		*x.budget = remaining
		lim, v := sw.limitOf(o.k)
		o.r = x.searchLimited(sw, o, lim, v)
		o.lim = x.cfgLimit
		if !errors.Is(o.r.stopped, errRelimit) {
			break
		}
	}
	if o.r.violation != nil {
		o.r.violation.ConfigIndex = o.k
		if sw.short != nil {
			sw.short.publish(o.k, o.r.violation)
		}
	}
	if o.r.violation != nil || o.r.stopped != nil || o.r.cut {
		return
	}
	if sw.portBlind {
		if d := x.system(sw.m, o.cfg).checkInitPorts(&x.portsPassed); d != "" {
			o.cmp = &Violation{Property: invariants.Uniformity, Config: o.cfg, LoopAt: -1, Detail: d, ConfigIndex: o.k}
			return
		}
	}
	if sw.opts.ComparisonOnly {
		o.cmp, o.err = x.compareRelabelled(sw.m, o.cfg, o.r)
		if o.cmp != nil {
			o.cmp.ConfigIndex = o.k
		}
	}
}

// searchLimited searches configuration o under depth limit lim (noLimit:
// none). A limited configuration is searched unreduced, since a reduced
// search may reach a violation by a longer path than the shortest; it
// then takes a lower limit as it goes (relimit).
func (x *searcher) searchLimited(sw *sweep, o *outcome, lim int32, version int64) configResult {
	x.shortSeen, x.cfgLimit = version, lim
	defer func() { x.depthLimit, x.inPlace = noLimit, false }()
	x.depthLimit, x.reduce = lim, sw.opts.POR && lim == noLimit
	x.inPlace = !x.reduce
	return x.searchShortest(sw, o)
}

// searchShortest searches o's configuration with the searcher's reduction
// and depth limit: a reduced search that finds a violation, which it may
// reach by a longer path than the shortest, searches again unreduced, no
// deeper than that path (nor the limit), for the shortest trace.
func (x *searcher) searchShortest(sw *sweep, o *outcome) configResult {
	r := x.search(x.system(sw.m, o.cfg))
	if r.violation == nil || !x.reduce || sw.opts.Search != BFS || r.cached || sw.opts.First {
		return r
	}
	first := r
	if len(first.violation.Trace) > 0 {
		x.depthLimit = min(x.depthLimit, int32(len(first.violation.Trace)))
	}
	x.reduce = false
	if r = x.search(x.system(sw.m, o.cfg)); r.violation == nil && !errors.Is(r.stopped, errRelimit) {
		// Not found again: an impure step need not fail twice alike, a
		// violation longer than the limit is beyond it, and the search
		// may have stopped short. What was found stands.
		return first
	}
	return r
}
