package explore

import (
	"encoding/binary"
	"iter"
	"slices"
)

// graph is what a search records of the reachable graph of one
// configuration, by state index in discovery order: each state's parent
// and the number of the action that first reached it (traces are rebuilt
// by replaying these), its depth, and its outgoing edges for the analyses
// after the search (analyses.go). The states themselves are in the store.
type graph struct {
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
	// noEdges: the search records no edges (plan decides when): a layered
	// graph needs none, and the first edge that breaks the layering stops
	// the search, to be run again with them.
	noEdges bool
	// The edges: blocks of varints, and the block being written.
	ebytes    pages[byte]
	block     []int32
	eblock    []byte // endEdges' scratch
	edgeCount int64
	// costs is len(Options.Costs); weights[k*costs+c] is cost c of the
	// k-th edge's sends, and wfirst[i] is state i's first edge's number.
	costs   int
	wfirst  pages[int32]
	weights pages[int64]
	// The terminal states' least and greatest depth, and the first state
	// at the greatest: all a layered graph's analysis needs.
	termMin, termMax, worst int32
	// log, if set, holds parents and action numbers instead of parent and
	// act (the disk search, disk.go); disk, if set, holds the edges (a
	// disk search on a graph that is not layered, diskedges.go).
	log  *parentLog
	disk *edgeFile
}

// reset empties the graph for a search, breadth-first or not, recording
// edges or not, with costs per edge.
func (g *graph) reset(bfs, noEdges bool, costs int) {
	for _, p := range []*pages[int32]{&g.parent, &g.depth, &g.estart, &g.eend, &g.wfirst} {
		p.reset()
	}
	g.ebytes.reset()
	g.edgeCount = 0
	g.act.reset()
	clear(g.actBig)
	g.bfs, g.layered, g.noEdges, g.costs = bfs, bfs, noEdges, costs
	g.levels = g.levels[:0]
	g.weights.reset()
	g.termMin, g.termMax, g.worst = -1, -1, -1
}

// free gives the graph's storage back.
func (g *graph) free() {
	for _, p := range []*pages[int32]{&g.parent, &g.depth, &g.estart, &g.eend, &g.wfirst} {
		p.free()
	}
	g.ebytes.free()
	g.act.free()
	g.weights.free()
}

// states is the number of states recorded.
func (g *graph) states() int32 {
	if g.log != nil {
		return g.log.n
	}
	return int32(g.parent.len())
}

// parentOf is the state from which state i was first reached (-1 for the
// initial state).
func (g *graph) parentOf(i int32) int32 {
	if g.log != nil {
		p, _ := g.log.at(i)
		return p
	}
	return g.parent.at(i)
}

// record adds the next state: reached from parent by its k-th enabled
// action, at depth depth.
func (g *graph) record(parent int32, k int, depth int32) {
	next := g.states()
	if g.log != nil {
		g.log.push(parent, uint16(min(k, 65535)))
	} else {
		g.parent.push(parent)
	}
	if k >= 65535 {
		if g.actBig == nil {
			g.actBig = map[int32]int32{}
		}
		g.actBig[next] = int32(k)
		k = 65535
	}
	if g.log == nil {
		g.act.push(uint16(k))
	}
	if !g.noEdges {
		g.estart.push(0)
	}
	if g.weighted() {
		g.wfirst.push(0)
	}
	if g.bfs {
		if int(depth) == len(g.levels) {
			g.levels = append(g.levels, next)
		}
	} else {
		g.depth.push(depth)
		g.eend.push(0)
	}
}

// actionOf is the number, in its parent's enabled list, of the action
// that first reached state i.
func (g *graph) actionOf(i int32) int32 {
	var k uint16
	if g.log != nil {
		_, k = g.log.at(i)
	} else {
		k = g.act.at(i)
	}
	if k < 65535 {
		return int32(k)
	}
	return g.actBig[i]
}

// depthOf is the depth at which state i was found.
func (g *graph) depthOf(i int32) int32 {
	if !g.bfs {
		return g.depth.at(i)
	}
	d, _ := slices.BinarySearch(g.levels, i+1)
	return int32(d) - 1
}

// edgesOf returns the range of state i's outgoing edges; i must have been
// expanded.
func (g *graph) edgesOf(i int32) (int32, int32) {
	switch {
	case !g.bfs:
		return g.estart.at(i), g.eend.at(i)
	case i+1 < g.states():
		return g.estart.at(i), g.estart.at(i + 1)
	}
	return g.estart.at(i), int32(g.ebytes.len())
}

// noteDuplicate records an edge of the state being expanded, at depth d,
// to state j, found before: unless j is at depth d+1, the graph is not
// layered.
func (g *graph) noteDuplicate(j, d int32) {
	if g.bfs && (len(g.levels) <= int(d)+1 || j < g.levels[d+1]) {
		g.layered = false
	}
}

// terminalAt notes a terminal state i at depth d.
func (g *graph) terminalAt(i, d int32) {
	if g.termMin < 0 || d < g.termMin {
		g.termMin = d
	}
	if d > g.termMax {
		g.termMax, g.worst = d, i
	}
}

// The reachable graph's edges, for the analyses after the search (no
// cycle, path lengths and costs). A state's successors are one block of
// varints: each target as a zig-zag difference from the previous one,
// the first from the state itself. Sorted first (unless edge costs must
// stay in step with them), most differences fit in one or two bytes,
// against four for a plain index. Blocks are found by byte offset:
// estart (and eend in depth-first search).

// beginEdges starts state i's block.
func (g *graph) beginEdges(i int32) {
	g.block = g.block[:0]
	g.estart.set(i, int32(g.ebytes.len()))
	if g.weighted() {
		g.wfirst.set(i, int32(g.weights.len()/g.costs))
	}
}

// addEdge records an edge from the state being expanded to state to.
func (g *graph) addEdge(to int32) { g.block = append(g.block, to) }

// endEdges writes state i's block.
func (g *graph) endEdges(i int32) {
	if !g.weighted() {
		sortSmall(g.block)
	}
	buf := appendBlock(g.eblock[:0], i, g.block)
	g.ebytes.append(buf)
	g.eblock = buf
	g.edgeCount += int64(len(g.block))
	if !g.bfs {
		g.eend.set(i, int32(g.ebytes.len()))
	}
}

// appendBlock appends the block of state i's successors to, each as a
// zig-zag varint difference from the one before, the first from i.
func appendBlock(buf []byte, i int32, to []int32) []byte {
	prev := i
	for _, t := range to {
		if d := t - prev; d >= -64 && d < 64 { // one zig-zag byte, as AppendVarint writes it
			buf = append(buf, byte(d<<1^d>>31))
		} else {
			buf = binary.AppendVarint(buf, int64(d))
		}
		prev = t
	}
	return buf
}

// weighted reports whether edges carry costs (Options.Costs), in
// g.weights, numbered from wfirst[i] for state i's block.
func (g *graph) weighted() bool { return g.costs > 0 }

// edgeIter walks one state's successors.
type edgeIter struct {
	g      *graph
	p, end int32
	prev   int32
	k      int32 // the edge's number, for its costs
}

// successors iterates over the successors of state v, which must have
// been expanded, with each edge's number (for its costs).
func (g *graph) successors(v int32) iter.Seq2[int32, int32] {
	return func(yield func(int32, int32) bool) {
		if g.disk != nil {
			ws := g.disk.successors(v)
			g.disk.busy++
			defer func() { g.disk.busy-- }()
			for k, w := range ws {
				if !yield(int32(k), w) {
					return
				}
			}
			return
		}
		for it := g.succ(v); ; {
			w, ok := it.next()
			if !ok || !yield(it.k, w) {
				return
			}
		}
	}
}

// succ returns an iterator over the successors of state v, which must
// have been expanded.
func (g *graph) succ(v int32) edgeIter {
	first, end := g.edgesOf(v)
	it := edgeIter{g: g, p: first, end: end, prev: v, k: -1}
	if g.weighted() {
		it.k = g.wfirst.at(v) - 1
	}
	return it
}

// next returns the next successor, or false at the end.
func (it *edgeIter) next() (int32, bool) {
	if it.p >= it.end {
		return 0, false
	}
	var u uint64
	page := it.g.ebytes.p[it.p>>pageBits]
	if off := it.p & pageMask; page[off] < 0x80 { // one byte: the usual case
		u = uint64(page[off])
		it.p++
	} else {
		for s := uint(0); ; s += 7 {
			b := it.g.ebytes.at(it.p)
			it.p++
			u |= uint64(b&0x7f) << s
			if b < 0x80 {
				break
			}
		}
	}
	d := int64(u >> 1)
	if u&1 != 0 {
		d = ^d
	}
	it.prev += int32(d)
	it.k++
	return it.prev, true
}

// terminal reports whether expanded state v has no successor.
func (g *graph) terminal(v int32) bool {
	if g.disk != nil {
		return len(g.disk.blockOf(v)) == 0
	}
	first, end := g.edgesOf(v)
	return first == end
}

// sortSmall sorts b, by insertion when it is short (a state's successors,
// usually a handful), which beats slices.Sort's setup there.
func sortSmall(b []int32) {
	if len(b) > 16 {
		slices.Sort(b)
		return
	}
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && b[j] < b[j-1]; j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
}
