package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// The edges of a disk search on a graph that is not layered, for the
// analyses after the search (no cycle, the longest path). They are found
// a batch at a time, in the order the states are expanded, so they go to
// a file in state order: each state's block is a uvarint byte length and
// the block graph.endEdges writes in memory (its successors sorted, as
// zig-zag differences). A sparse index in memory, one offset per
// edgeSparse states, finds a block; reads go through a small cache of the
// file's pages, direct-mapped: Kahn's algorithm visits states near each
// other in the numbering, but not in order (a window of 256 KiB read
// again at every jump cost two thirds of a disk search's time).

// edgeSparse is the number of states per entry of the edge file's index.
const edgeSparse = 64

// edgeWindow is the size of the buffer the edge file is written through.
const edgeWindow = 1 << 18

// The edge file's page cache: edgePages pages of edgePage bytes.
const (
	edgePage  = 1 << 12
	edgePages = 1 << 8
)

// edgeFile is the edge file of one disk search, written then read.
type edgeFile struct {
	f      *os.File
	buf    []byte  // written but not yet in the file
	size   int64   // the bytes written, buffered ones included
	n      int32   // the states whose blocks are written
	block  []int32 // the successors of state n found so far
	enc    []byte  // a block's encoding, scratch
	sparse []int64 // the offset of the block of state k·edgeSparse
	err    error
	// Reading: the page cache (tags[s] is 1 + the number of the page in
	// slot s, 0 if none; lens[s] its bytes, fewer at the end of the file)
	// and a buffer for a block across two pages.
	cache []byte
	tags  []int64
	lens  []int32
	long  []byte
	dec   []int32 // a block's successors, decoded
	busy  int     // how many callers are iterating over dec
}

// reset empties the file for a search.
func (e *edgeFile) reset(f *os.File) {
	*e = edgeFile{f: f, buf: e.buf[:0], block: e.block[:0], enc: e.enc[:0], sparse: e.sparse[:0],
		cache: e.cache, tags: e.tags, lens: e.lens, long: e.long, dec: e.dec[:0]}
	clear(e.tags)
	if err := f.Truncate(0); err != nil {
		e.err = err
	}
}

// add records an edge from state from, the state being expanded or a
// later one, to state to.
func (e *edgeFile) add(from, to int32) {
	for e.n < from {
		e.end()
	}
	e.block = append(e.block, to)
}

// end writes state n's block.
func (e *edgeFile) end() {
	if e.n%edgeSparse == 0 {
		e.sparse = append(e.sparse, e.size)
	}
	sortSmall(e.block)
	e.enc = appendBlock(e.enc[:0], e.n, e.block)
	k := len(e.buf)
	e.buf = binary.AppendUvarint(e.buf, uint64(len(e.enc)))
	e.buf = append(e.buf, e.enc...)
	e.size += int64(len(e.buf) - k)
	e.n++
	e.block = e.block[:0]
	if len(e.buf) >= edgeWindow {
		e.write()
	}
}

// write moves the buffered bytes to the file.
func (e *edgeFile) write() {
	if e.err == nil {
		_, e.err = e.f.WriteAt(e.buf, e.size-int64(len(e.buf)))
	}
	e.buf = e.buf[:0]
}

// finish writes the blocks of the states up to states (those after the
// last edge have none) and everything buffered; it returns the first
// error met writing.
func (e *edgeFile) finish(states int32) error {
	for e.n < states {
		e.end()
	}
	e.write()
	if e.cache == nil {
		e.cache = make([]byte, edgePages*edgePage)
		e.tags, e.lens = make([]int64, edgePages), make([]int32, edgePages)
	}
	clear(e.tags)
	return e.err
}

// successors returns state v's successors, sorted. The slice is e's
// until the next call.
func (e *edgeFile) successors(v int32) []int32 {
	blk := e.blockOf(v)
	out := e.dec[:0]
	if e.busy > 0 { // a caller iterating over the last answer still: its own
		out = nil
	}
	prev := v
	for len(blk) > 0 {
		d, w := binary.Varint(blk) // appendBlock's zig-zag differences
		if w <= 0 {
			panic(fmt.Sprintf("explore: a bad successor of state %d in the edge file", v))
		}
		blk = blk[w:]
		prev += int32(d)
		out = append(out, prev)
	}
	if e.busy == 0 {
		e.dec = out
	}
	return out
}

// blockOf returns state v's block of encoded successors.
func (e *edgeFile) blockOf(v int32) []byte {
	if v < 0 || v >= e.n {
		panic(fmt.Sprintf("explore: state %d has no edges on disk (%d states)", v, e.n))
	}
	off := e.sparse[v/edgeSparse]
	b := e.at(off, binary.MaxVarintLen64)
	for skip := v % edgeSparse; ; skip-- {
		l, w := binary.Uvarint(b)
		if w <= 0 { // the length runs past b
			b = e.at(off, binary.MaxVarintLen64)
			if l, w = binary.Uvarint(b); w <= 0 {
				panic(fmt.Sprintf("explore: a bad block length in the edge file at byte %d", off))
			}
		}
		end := w + int(l)
		if skip == 0 {
			if len(b) < end {
				b = e.at(off, end)
			}
			return b[w:end]
		}
		off += int64(end)
		if len(b) > end {
			b = b[end:]
		} else {
			b = e.at(off, binary.MaxVarintLen64)
		}
	}
}

// at returns the file's bytes from off on, at least need of them unless
// the file ends first, from the page cache, or read anew if they lie
// across two pages. A read error is elcheck's (the search wrote the
// file): it panics, and the configuration's search reports an internal
// error.
func (e *edgeFile) at(off int64, need int) []byte {
	p, in := off/edgePage, int(off%edgePage)
	if in+need > edgePage {
		e.long = slices.Grow(e.long[:0], need)[:need]
		return e.read(e.long, off)
	}
	slot := int(p % edgePages)
	page := e.cache[slot*edgePage : (slot+1)*edgePage]
	if e.tags[slot] != p+1 {
		e.lens[slot] = int32(len(e.read(page, p*edgePage)))
		e.tags[slot] = p + 1
	}
	return page[in:e.lens[slot]]
}

// read reads b's length of the file from off on, or up to its end.
func (e *edgeFile) read(b []byte, off int64) []byte {
	k, err := e.f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		panic(fmt.Sprintf("explore: reading the edge file: %v", err))
	}
	return b[:k]
}
