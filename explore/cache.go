package explore

import (
	"errors"
	"fmt"
	"slices"

	"github.com/dgraph-io/ristretto/v2"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// errMemory stops a breadth-first search that would outgrow its share of
// Options.Memory; the configuration is then searched with state caching.
var errMemory = errors.New("memory budget reached")

// memo is what the cache keeps of a state whose subtree is explored: the
// fewest and most messages from it to a final state. A cached state needs
// no second visit; an evicted one is explored again, which costs time but
// misses nothing.
type memo struct{ lo, hi int32 }

// memoCost is the cache cost of one memo, in bytes, with ristretto's own
// bookkeeping for the entry.
const memoCost = 96

// cached is the state of one depth-first search with state caching.
type cached struct {
	x     *searcher
	cache *ristretto.Cache[uint64, memo]
	// onStack maps the fingerprint of each state on the current path to
	// its depth: exact, so cycles are caught whatever the cache forgot.
	onStack map[uint64]int
	path    []Action
	r       *configResult
}

// newCache builds a state cache of about limit bytes.
func newCache(limit int64) *ristretto.Cache[uint64, memo] {
	entries := max(limit/memoCost, 64)
	c, err := ristretto.NewCache(&ristretto.Config[uint64, memo]{
		NumCounters: 10 * entries, // the library's advice: ten counters per entry
		MaxCost:     entries * memoCost,
		BufferItems: 64,
	})
	if err != nil {
		panic(fmt.Sprintf("explore: building the state cache: %v", err))
	}
	return c
}

// runCached explores sy's configuration depth-first, remembering finished
// states in a bounded cache instead of a visited set: memory stays within
// the cache and the path, at the price of exploring evicted states again.
// Counts are visits, not distinct states, and depend on what the cache
// evicted; verdicts, the fewest and most messages and the counterexample
// (the first in depth-first order) do not.
func (x *searcher) runCached(sy *System) configResult {
	if x.depthLimit != noLimit {
		// A depth-first search cannot keep to a depth limit (a state cut
		// at the limit may be met again higher up, and the cache would
		// skip it): search the whole configuration, reduced as the check
		// asks, as without a limit.
		defer func(reduce bool) { x.reduce = reduce }(x.reduce)
		x.reduce = x.opts.POR
	}
	x.reset(sy, plan{edges: true})
	if x.cache == nil {
		x.cache = newCache(x.memLimit)
	}
	x.cache.Clear()
	r := configResult{minMsg: -1, cached: true}
	c := &cached{x: x, cache: x.cache, onStack: map[uint64]int{}, r: &r}
	init := sy.Initial()
	lo, hi, v := c.visit(init)
	switch {
	case v != nil:
		r.violation = v
	case r.stopped == nil:
		r.minMsg, r.maxMsg = int(lo), int(hi)
		if bv := x.overBound(r.maxMsg); bv != nil {
			r.violation = x.violation(bv.Property, bv.Detail, c.worstPath(init, hi))
		}
	}
	return r
}

// visit explores s's subtree and returns the fewest and most messages from
// s to a final state, or the first violation in depth-first order.
func (c *cached) visit(s State) (lo, hi int32, v *Violation) {
	if c.count() {
		return 0, 0, nil
	}
	acts, v := c.inspect(&s)
	if v != nil || len(acts) == 0 {
		return 0, 0, v
	}
	x := c.x
	fp := fingerprint(s.Encode(nil))
	c.onStack[fp] = len(c.path)
	defer delete(c.onStack, fp)
	if x.reduce && len(acts) > 1 {
		acts = slices.Clone(x.ample(&s, acts, func(enc []byte) bool {
			_, on := c.onStack[fingerprint(enc)]
			return on
		}))
	}
	lo = -1
	for _, a := range acts {
		m, sent, v := c.follow(&s, a)
		if v != nil || c.r.stopped != nil {
			return 0, 0, v
		}
		if lo < 0 || m.lo+sent < lo {
			lo = m.lo + sent
		}
		hi = max(hi, m.hi+sent)
	}
	return lo, hi, nil
}

// count counts a visit to the state at the end of the path and reports
// progress now and then; it reports whether the search must stop (r says
// why): cancelled, or over the state budget.
func (c *cached) count() bool {
	x, r := c.x, c.r
	r.states++
	r.maxDepth = max(r.maxDepth, len(c.path))
	if r.states&1023 == 0 {
		if err := x.ctx.Err(); err != nil {
			r.stopped = err
			return true
		}
		if x.progress != nil {
			x.progress(r.states, len(c.path))
		}
	}
	if *x.budget--; *x.budget < 0 {
		r.stopped = errStateLimit
		return true
	}
	return false
}

// inspect checks s, the state at the end of the path: its properties, and
// its uniformity when the self-check is due. It returns s's enabled
// actions, or none for a final state, which it counts with its leaders.
func (c *cached) inspect(s *State) ([]Action, *Violation) {
	x, sy, r := c.x, c.x.sy, c.r
	view := sy.View(s, nil)
	if bad := x.checker.Always(view); bad != nil {
		return nil, x.violation(bad.Property, bad.Detail, slices.Clone(c.path))
	}
	acts := sy.Enabled(s, nil)
	if len(acts) == 0 {
		r.terminals++
		if bad := x.checker.AtEnd(view); bad != nil {
			return nil, x.violation(bad.Property, bad.Detail, slices.Clone(c.path))
		}
		for p, d := range view.Decisions {
			if d.Status == spec.Elected {
				r.elected = r.elected.With(p)
			}
		}
		return nil, nil
	}
	if every := x.opts.UniformityEvery; every > 0 && r.states%int64(every) == 0 {
		r.uniformChecked++
		if !x.uniform(s) {
			return nil, x.violation(invariants.Uniformity, "rotating this state by one position does not commute with taking its successors", slices.Clone(c.path))
		}
	}
	return acts, nil
}

// follow takes action a from s, the state at the end of the path, and
// returns the memo of the state it leads to and the messages a sends; or
// a violation: a's step failed, or, through successor, one found further.
func (c *cached) follow(s *State, a Action) (m memo, sent int32, v *Violation) {
	t, sends, err := c.x.sy.Apply(s, a)
	if err != nil {
		return memo{}, 0, c.x.violation(err.Property, err.Detail, append(slices.Clone(c.path), a))
	}
	c.r.transitions++
	c.path = append(c.path, a)
	m, v = c.successor(t)
	c.path = c.path[:len(c.path)-1]
	return m, int32(len(sends)), v
}

// successor returns the memo of t, the state at the end of the path: the
// cache's, or one made by visiting t (and cached); or a violation: t is
// on the path (a cycle: the execution can go on forever), or one found in
// t's subtree. It returns no memo if the search stopped.
func (c *cached) successor(t State) (memo, *Violation) {
	tfp := fingerprint(t.Encode(nil))
	if at, ok := c.onStack[tfp]; ok {
		trace := slices.Clone(c.path)
		v := c.x.violation(invariants.Termination,
			fmt.Sprintf("an execution can go on forever: the last %d step(s) return to the state reached after step %d", len(trace)-at, at), trace)
		v.LoopAt = at
		return memo{}, v
	}
	if m, ok := c.cache.Get(tfp); ok {
		return m, nil
	}
	l, h, v := c.visit(t)
	if v != nil || c.r.stopped != nil {
		return memo{}, v
	}
	m := memo{l, h}
	c.cache.Set(tfp, m, memoCost)
	c.cache.Wait() // make it visible now: Set is buffered
	return m, nil
}

// worstPath rebuilds an execution from s that sends exactly hi messages,
// asking the cache (or exploring again) for each successor's memo.
func (c *cached) worstPath(s State, hi int32) []Action {
	var trace []Action
	for {
		acts := c.x.sy.Enabled(&s, nil)
		if len(acts) == 0 {
			return trace // a final state
		}
		found := false
		for _, a := range acts {
			t, sends, _ := c.x.sy.Apply(&s, a)
			m, ok := c.cache.Get(fingerprint(t.Encode(nil)))
			if !ok {
				l, h, _ := c.visit(t)
				m = memo{l, h}
			}
			if m.hi+int32(len(sends)) == hi {
				trace = append(trace, a)
				s, hi, found = t, m.hi, true
				break
			}
		}
		if !found {
			return trace // cannot happen: some successor carries the maximum
		}
	}
}
