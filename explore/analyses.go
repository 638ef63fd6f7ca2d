package explore

import (
	"fmt"
	"slices"
	"sync"

	"github.com/elcheck/elcheck/invariants"
)

// analyse runs the checks that need the whole reachable graph of one
// configuration: termination (no cycle) and the fewest and most messages
// over complete executions, against the declared bound.
func (x *searcher) analyse(r *configResult) {
	if r.cut {
		// Cut at the depth limit: costs and the message bound need the
		// whole graph, but a cycle among the states searched is one.
		if !x.noEdges && !x.layered {
			x.topological(r, false)
		}
		return
	}
	if x.noEdges || x.layered && !x.weighted() && !x.opts.Time {
		// Every path to a state is as long as its depth, and the longest
		// is the shortest: the terminal states' depths, noted as the
		// search met them (graph.terminalAt), say it all.
		x.layeredResult(r, int64(x.termMin), int64(x.termMax), x.worst)
		return
	}
	var order []int32
	if x.layered {
		// Breadth-first search numbers a layered graph's states level by
		// level: a topological order, in which every path to a state is
		// as long as its depth.
		if x.layeredResult(r, int64(x.termMin), int64(x.termMax), x.worst); r.violation != nil {
			return
		}
		order = make([]int32, x.states())
		for i := range order {
			order[i] = int32(i)
		}
	} else if order = x.topological(r, len(x.opts.Costs) > 0 || x.opts.Time); order == nil {
		return
	}
	if len(x.opts.Costs) == 0 && !x.opts.Time {
		return
	}
	c := &ConfigCosts{}
	var worst0 int32
	var via0 []int32
	var err error
	if c.Min, c.Max, worst0, via0, err = x.pathRanges(order, len(x.opts.Costs), false); err != nil {
		r.stopped = err
		return
	}
	if len(c.Max) > 0 && x.wantWorst(c.Max[0], r.maxMsg) {
		c.Worst = append([]Action{}, x.pathActions(x.pathTo(worst0, via0))...) // not nil: built
		for i := range c.Worst {
			c.Worst[i].Msg.Time = 0 // as in a system without clocks, which replays it
		}
	}
	if x.opts.Time {
		c.MinTime, c.MaxTime = r.minTime, r.maxTime
	}
	r.costs = c
}

// topological returns a topological order of the graph, and sets the
// fewest and most messages of r; or it sets r's violation (a cycle, or the
// declared bound exceeded), or r.stopped (an internal error), and returns
// nil. Without keep, it keeps only a queue of the states not yet taken,
// not the whole order, and returns an empty one: the analyses after it
// need none.
func (x *searcher) topological(r *configResult, keep bool) []int32 {
	k := x.kahn(keep)
	if k.taken < x.states() {
		r.violation, r.stopped = x.lasso(k.left())
		return nil
	}
	minLen, maxLen, worst, err := x.terminalLengths(&k)
	if err != nil {
		r.stopped = err
		return nil
	}
	if r.cut {
		return nil // no figures from part of a graph
	}
	order := k.order
	k = kahnPass{} // its counts, before pathRanges takes its own
	if bv := x.setMessages(r, minLen, maxLen); bv != nil {
		if !keep {
			return x.topological(r, true) // the order, for the trace
		}
		_, _, _, via, err := x.pathRanges(order, 1, true)
		if err != nil {
			r.stopped = err
			return nil
		}
		r.violation = x.violation(bv.Property, bv.Detail, x.pathActions(x.pathTo(worst, via)))
		return nil
	}
	if order == nil {
		order = []int32{}
	}
	return order
}

// kahnPass is what Kahn's algorithm leaves: a topological order exists
// iff it takes every state, that is iff there is no cycle. The longest
// path to each state (hi) is found on the way: a state's is final when it
// leaves the queue. In depth-first search the shortest (lo) too; in
// breadth-first search that is the depth. Counts are a byte or two per
// state (the disk search's analysis runs within its memory budget).
type kahnPass struct {
	// order is the states taken, in order, if the whole order is kept;
	// else what is left of the queue.
	order []int32
	// indeg is each state's count of in-edges from states not yet taken.
	indeg counts[uint8]
	hi    counts[uint16]
	lo    []int32 // nil in breadth-first search
	taken int32
}

// kahn runs Kahn's algorithm over the graph, keeping the whole order or
// only the queue of states not yet taken.
func (x *searcher) kahn(keep bool) kahnPass {
	n := x.states()
	indeg, hi := x.inDegrees(), newCounts[uint16](n)
	var order, lo []int32
	if keep {
		order = make([]int32, 0, n)
	}
	for i := range n {
		if indeg.get(i) == 0 {
			order = append(order, i)
		}
	}
	if !x.bfs {
		lo = make([]int32, n)
		for i := range lo {
			lo[i] = -1
		}
		lo[0] = 0
	}
	taken := int32(0)
	for k := 0; k < len(order); k++ {
		v := order[k]
		taken++
		hv := hi.get(v) + 1
		for _, w := range x.successors(v) {
			if hv > hi.get(w) {
				hi.set(w, hv)
			}
			if lo != nil && lo[v] >= 0 && (lo[w] < 0 || lo[v]+1 < lo[w]) {
				lo[w] = lo[v] + 1
			}
			d := indeg.get(w) - 1
			if indeg.set(w, d); d == 0 {
				order = append(order, w)
			}
		}
		if !keep && k >= len(order)/2 && k >= 1<<12 {
			// Drop the taken half of the queue.
			order = order[:copy(order, order[k+1:])]
			k = -1
		}
	}
	return kahnPass{order: order, indeg: indeg, hi: hi, lo: lo, taken: taken}
}

// inDegrees counts each state's in-edges.
func (g *graph) inDegrees() counts[uint8] {
	n := g.states()
	indeg := newCounts[uint8](n)
	for v := range n {
		for _, w := range g.successors(v) {
			indeg.set(w, indeg.get(w)+1)
		}
	}
	return indeg
}

// left is the in-degree Kahn's algorithm left each state: the states with
// a positive count lie on or after a cycle.
func (k *kahnPass) left() []int32 {
	left := make([]int32, len(k.indeg.v))
	for v := range left {
		left[v] = k.indeg.get(int32(v))
	}
	return left
}

// terminalLengths returns the lengths of the shortest and the longest
// paths to a terminal state after a pass of Kahn's algorithm that took
// every state, and the first terminal state at the end of a longest (-1,
// -1 and -1 if none is terminal); or an internal error if some state keeps
// an in-edge.
func (x *searcher) terminalLengths(k *kahnPass) (minLen, maxLen int64, worst int32, err error) {
	minLen, maxLen, worst = -1, -1, -1
	for v := range x.states() {
		if d := k.indeg.get(v); d > 0 {
			// Taking every state leaves none with an in-edge: else the
			// count of states taken is wrong and a cycle went unseen,
			// which the search with clocks after this one would follow
			// without end.
			return 0, 0, 0, &InternalError{fmt.Sprintf("state %d keeps %d in-edge(s) after the check for cycles took every state", v, d)}
		}
		if !x.terminal(v) {
			continue
		}
		l := int64(x.depthOf(v))
		if k.lo != nil {
			l = int64(k.lo[v])
		}
		if minLen < 0 || l < minLen {
			minLen = l
		}
		if h := int64(k.hi.get(v)); h > maxLen {
			maxLen, worst = h, v
		}
	}
	return minLen, maxLen, worst, nil
}

// setMessages sets the fewest and most messages of r from the shortest
// and longest complete executions, of minLen and maxLen steps, and returns
// the violation of the declared bound, if any. Messages need no weights: a
// step sends as many messages as the channels gain, plus the one it
// consumed if it is a delivery. Summed along an execution, the gains
// cancel out but for the final state's, which is empty (a message in a
// channel is a delivery still to make, or a wake-up still to come), so an
// execution of L steps, of which one per initiator is a wake-up, sends
// L - initiators messages.
func (x *searcher) setMessages(r *configResult, minLen, maxLen int64) *invariants.Violation {
	wakes := int64(x.sy.Config.Initiators.Len())
	r.minMsg, r.maxMsg = int(minLen-wakes), int(maxLen-wakes)
	return x.overBound(r.maxMsg)
}

// counts is an array of non-negative counters of one byte or two each;
// the few that outgrow them are kept in a map.
type counts[T uint8 | uint16] struct {
	v   []T
	big map[int32]int32
}

func newCounts[T uint8 | uint16](n int32) counts[T] { return counts[T]{v: make([]T, n)} }

func (c *counts[T]) get(i int32) int32 {
	if v := c.v[i]; v != ^T(0) {
		return int32(v)
	}
	return c.big[i]
}

func (c *counts[T]) set(i, v int32) {
	if v < int32(^T(0)) {
		if c.v[i] == ^T(0) {
			delete(c.big, i)
		}
		c.v[i] = T(v)
		return
	}
	if c.big == nil {
		c.big = map[int32]int32{}
	}
	c.v[i], c.big[i] = ^T(0), v
}

// layeredResult sets the message counts of a layered graph whose terminal
// states lie at depths minLen to maxLen, worst being the first at maxLen,
// and checks the declared bound.
func (x *searcher) layeredResult(r *configResult, minLen, maxLen int64, worst int32) {
	if bv := x.setMessages(r, minLen, maxLen); bv != nil {
		r.violation = x.found(bv.Property, bv.Detail, worst)
	}
}

// pathRanges returns the least and the greatest total of each of the nc
// costs on the edges (Options.Costs) over the paths from the initial
// state to a terminal state, in one pass over the graph; for the first
// cost, a terminal state reached by a heaviest path and the predecessor
// of each state on a heaviest path to it. With unit, there is one cost,
// 1 on every edge: path lengths. order must be a topological order of
// the (acyclic) graph: every state once, before its successors. An order
// that is not (a cycle the check before missed) is an internal error,
// found in the same one pass: left unchecked, it gives wrong figures, or
// a via with a cycle, which pathTo would follow for ever.
func (g *graph) pathRanges(order []int32, nc int, unit bool) (mins, maxs []int64, worst int32, via []int32, err error) {
	if nc == 0 {
		return nil, nil, -1, nil, nil
	}
	n := len(order)
	if int32(n) != g.states() {
		return nil, nil, -1, nil, &InternalError{fmt.Sprintf("the topological order has %d states, the graph %d", n, g.states())}
	}
	p := pathSums{nc: nc, lo: make([]int64, n*nc), hi: make([]int64, n*nc), via: make([]int32, n)}
	if err := g.sumPaths(&p, order, unit); err != nil {
		return nil, nil, -1, nil, err
	}
	mins, maxs, worst = g.terminalRanges(&p)
	return mins, maxs, worst, p.via, nil
}

// pathSums holds, for each state and each of nc costs, the least (lo) and
// the greatest (hi) total over the paths from the initial state to it, at
// [state*nc + cost]; via is each state's predecessor on a heaviest path
// by the first cost (-1 for the initial state and the unreached).
type pathSums struct {
	nc     int
	lo, hi []int64
	via    []int32
}

// sumPaths fills p by taking the states in order, each adding its edges'
// costs (1 each with unit) to its totals for its successors; it returns
// an internal error if order is not a topological order of the graph.
func (g *graph) sumPaths(p *pathSums, order []int32, unit bool) error {
	n, nc := len(order), p.nc
	lo, hi, via := p.lo, p.hi, p.via
	reached, done := make([]bool, n), make([]bool, n)
	for i := range n {
		via[i] = -1
	}
	reached[0] = true
	for _, v := range order {
		if v < 0 || int(v) >= n || done[v] {
			return &InternalError{fmt.Sprintf("state %d is in the topological order of %d states twice, or is none of them", v, n)}
		}
		done[v] = true
		if !reached[v] {
			continue
		}
		lv, hv := lo[int(v)*nc:int(v+1)*nc], hi[int(v)*nc:int(v+1)*nc]
		for ei, to := range g.successors(v) {
			if done[to] {
				return &InternalError{fmt.Sprintf("state %d's successor %d comes before it in the topological order: a cycle", v, to)}
			}
			first := !reached[to]
			reached[to] = true
			lt, ht := lo[int(to)*nc:int(to+1)*nc], hi[int(to)*nc:int(to+1)*nc]
			for k := range nc {
				w := int64(1)
				if !unit {
					w = g.weights.at(ei*int32(nc) + int32(k))
				}
				if l := lv[k] + w; first || l < lt[k] {
					lt[k] = l
				}
				if h := hv[k] + w; first || h > ht[k] {
					ht[k] = h
					if k == 0 {
						via[to] = v
					}
				}
			}
		}
	}
	return nil
}

// terminalRanges returns the least and the greatest total of each cost
// over the terminal states, and the first terminal state whose greatest
// first cost is the greatest (-1 if none is terminal).
func (g *graph) terminalRanges(p *pathSums) (mins, maxs []int64, worst int32) {
	nc, lo, hi := p.nc, p.lo, p.hi
	mins, maxs = make([]int64, nc), make([]int64, nc)
	worst = -1
	for v := range int32(len(p.via)) {
		if !g.terminal(v) {
			continue
		}
		for k := range nc {
			l, h := lo[int(v)*nc+k], hi[int(v)*nc+k]
			if worst < 0 {
				mins[k], maxs[k] = l, h
				continue
			}
			mins[k], maxs[k] = min(mins[k], l), max(maxs[k], h)
		}
		if worst < 0 || hi[int(v)*nc] > hi[int(worst)*nc] {
			worst = v
		}
	}
	return mins, maxs, worst
}

// pathTo follows via (the predecessor on a heaviest path) back from state
// v to the initial state.
func (x *searcher) pathTo(v int32, via []int32) []int32 {
	var path []int32
	for ; v != 0; v = via[v] {
		path = append(path, v)
	}
	path = append(path, 0)
	slices.Reverse(path)
	return path
}

// lasso finds a cycle and returns a termination violation whose trace is a
// shortest path to the earliest-found state on a cycle, then a shortest
// cycle through it (firstCycle). indeg is what Kahn's algorithm left:
// states with a positive count lie on or after a cycle. If none lies on
// one, Kahn's algorithm was wrong: an internal error.
func (x *searcher) lasso(indeg []int32) (*Violation, error) {
	cycle := x.firstCycle(indeg)
	if cycle == nil {
		return nil, &InternalError{"the check for cycles left states, but none lies on a cycle"}
	}
	prefix, _, bad := x.replay(cycle[0])
	if bad != nil {
		return bad, nil
	}
	viol := x.violation(invariants.Termination,
		fmt.Sprintf("an execution can go on forever: the last %d step(s) return to the state reached after step %d", len(cycle)-1, len(prefix)),
		append(prefix, x.pathActions(cycle)...))
	viol.LoopAt = len(prefix)
	return viol, nil
}

// firstCycle returns a shortest cycle (v, ..., v) through v, the first
// state in index order that lies on a cycle, or nil if none does. Every
// state on a cycle must have a positive count in indeg; the others may.
// States are numbered as the search found them, so in breadth-first
// search v is a shallowest state on a cycle: its path, then the cycle,
// make a short lasso.
func (g *graph) firstCycle(indeg []int32) []int32 {
	in := g.cycleCore(indeg)
	for v := range int32(len(in)) {
		if !in[v] {
			continue
		}
		if c := g.shortestCycle(v, in); c != nil {
			return c
		}
	}
	return nil
}

// cycleCore returns which of the states with a positive count in indeg
// lead to a cycle among them: it trims, again and again, those with no
// successor left. What remains lies on or between cycles.
func (g *graph) cycleCore(indeg []int32) []bool {
	n := len(indeg)
	in := make([]bool, n)
	outdeg := make([]int32, n)
	preds := make([][]int32, n)
	for v := range n {
		in[v] = indeg[v] > 0
	}
	for v := range n {
		if !in[v] {
			continue
		}
		for _, w := range g.successors(int32(v)) {
			if in[w] {
				outdeg[v]++
				preds[w] = append(preds[w], int32(v))
			}
		}
	}
	var q []int32
	for v := range n {
		if in[v] && outdeg[v] == 0 {
			q = append(q, int32(v))
		}
	}
	for len(q) > 0 {
		v := q[0]
		q = q[1:]
		in[v] = false
		for _, u := range preds[v] {
			if in[u] {
				if outdeg[u]--; outdeg[u] == 0 {
					q = append(q, u)
				}
			}
		}
	}
	return in
}

// shortestCycle returns a shortest cycle (v, ..., v) through v within the
// states in, found breadth-first from v, or nil if none returns to v.
func (g *graph) shortestCycle(v int32, in []bool) []int32 {
	from := map[int32]int32{}
	q := []int32{v}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, w := range g.successors(u) {
			if !in[w] {
				continue
			}
			if w == v {
				var back []int32 // u, ..., the state after v
				for c := u; c != v; c = from[c] {
					back = append(back, c)
				}
				slices.Reverse(back)
				return append(append([]int32{v}, back...), v)
			}
			if _, seen := from[w]; !seen {
				from[w] = u
				q = append(q, w)
			}
		}
	}
	return nil
}

// pathActions returns the actions that lead along a path of states,
// replaying it from the initial state: each step is the enabled action
// whose successor is the next state on the path.
func (x *searcher) pathActions(path []int32) []Action {
	_, s, _ := x.replay(path[0]) // the caller replayed it already
	var acts []Action
	for k := 0; k+1 < len(path); k++ {
		for _, a := range x.sy.Enabled(&s, nil) {
			t, _, err := x.sy.Apply(&s, a)
			if err != nil {
				continue
			}
			if j, ok := x.lookup(t.Encode(nil)); ok && j == path[k+1] {
				acts, s = append(acts, a), t
				break
			}
		}
	}
	return acts
}

// worstSoFar is the greatest first cost of the configurations finished,
// and the first configuration, in order, that has it.
type worstSoFar struct {
	mu    sync.Mutex
	most  int64
	index int // -1: none yet
}

// wantWorst reports whether the configuration being searched, whose
// greatest first cost is most and most messages maxMsg, builds its
// ConfigCosts.Worst, and notes it.
func (x *searcher) wantWorst(most int64, maxMsg int) bool {
	if invariants.CheckBound(x.sy.Info, &x.sy.Config.Topology, maxMsg) != nil {
		return true
	}
	w := x.worstSeen
	if w == nil {
		return true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.index >= 0 && (most < w.most || most == w.most && x.configIndex > w.index) {
		return false
	}
	w.most, w.index = most, x.configIndex
	return true
}
