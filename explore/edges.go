package explore

import (
	"encoding/binary"
	"slices"
)

// The reachable graph's edges, for the analyses after the search (no
// cycle, path lengths and costs). A state's successors are one block of
// varints: each target as a zig-zag difference from the previous one,
// the first from the state itself. Sorted first (unless edge costs must
// stay in step with them), most differences fit in one or two bytes,
// against four for a plain index. Blocks are found by byte offset:
// estart (and eend in depth-first search).

// beginEdges starts state i's block.
func (x *searcher) beginEdges(i int32) {
	x.block = x.block[:0]
	x.estart.set(i, int32(x.ebytes.len()))
	if x.weighted() {
		x.wfirst.set(i, int32(x.weights.len()/len(x.opts.Costs)))
	}
}

// addEdge records an edge from the state being expanded to state to.
func (x *searcher) addEdge(to int32) { x.block = append(x.block, to) }

// endEdges writes state i's block.
func (x *searcher) endEdges(i int32) {
	if !x.weighted() {
		sortSmall(x.block)
	}
	prev := i
	buf := x.eblock[:0]
	for _, to := range x.block {
		if d := to - prev; d >= -64 && d < 64 { // one zig-zag byte, as AppendVarint writes it
			buf = append(buf, byte(d<<1^d>>31))
		} else {
			buf = binary.AppendVarint(buf, int64(d))
		}
		prev = to
	}
	x.ebytes.append(buf)
	x.eblock = buf
	x.edgeCount += int64(len(x.block))
	if !x.bfs {
		x.eend.set(i, int32(x.ebytes.len()))
	}
}

// weighted reports whether edges carry costs (Options.Costs), in
// x.weights, numbered from wfirst[i] for state i's block.
func (x *searcher) weighted() bool { return len(x.opts.Costs) > 0 }

// edgeIter walks one state's successors.
type edgeIter struct {
	x      *searcher
	p, end int32
	prev   int32
	k      int32 // the edge's number, for its costs
}

// succ returns an iterator over the successors of state v, which must
// have been expanded.
func (x *searcher) succ(v int32) edgeIter {
	first, end := x.edgesOf(v)
	it := edgeIter{x: x, p: first, end: end, prev: v, k: -1}
	if x.weighted() {
		it.k = x.wfirst.at(v) - 1
	}
	return it
}

// next returns the next successor, or false at the end.
func (it *edgeIter) next() (int32, bool) {
	if it.p >= it.end {
		return 0, false
	}
	var u uint64
	page := it.x.ebytes.p[it.p>>pageBits]
	if off := it.p & pageMask; page[off] < 0x80 { // one byte: the usual case
		u = uint64(page[off])
		it.p++
	} else {
		for s := uint(0); ; s += 7 {
			b := it.x.ebytes.at(it.p)
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
func (x *searcher) terminal(v int32) bool {
	first, end := x.edgesOf(v)
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
