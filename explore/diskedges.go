package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// The edges of a disk search on a graph that is not layered, for the
// analyses after the search (no cycle, the longest path). They are found
// a batch at a time, in the order the states are expanded, so they go to
// a file in state order: each state's block is a uvarint byte length and
// the block graph.endEdges writes in memory (its successors sorted, as
// zig-zag differences). A sparse index in memory, one offset per
// edgeSparse states, finds a block; reads go through one window of the
// file, and the analyses visit states nearly in order, so most reads are
// in it.

// edgeSparse is the number of states per entry of the edge file's index.
const edgeSparse = 64

// edgeWindow is the size of the window the edge file is read through.
const edgeWindow = 1 << 18

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
	// Reading: the window holds the file's bytes from off on.
	win  []byte
	off  int64
	dec  []int32 // a block's successors, decoded
	busy int     // how many callers are iterating over dec
}

// reset empties the file for a search.
func (e *edgeFile) reset(f *os.File) {
	*e = edgeFile{f: f, buf: e.buf[:0], block: e.block[:0], enc: e.enc[:0], sparse: e.sparse[:0], win: e.win[:0], dec: e.dec[:0]}
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
	e.win, e.off = e.win[:0], 0
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
		u, w := binary.Uvarint(blk)
		if w <= 0 {
			panic(fmt.Sprintf("explore: a bad successor of state %d in the edge file", v))
		}
		blk = blk[w:]
		d := int64(u >> 1)
		if u&1 != 0 {
			d = ^d
		}
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
	for skip := v % edgeSparse; ; skip-- {
		b := e.at(off, binary.MaxVarintLen64)
		l, w := binary.Uvarint(b)
		if w <= 0 {
			panic(fmt.Sprintf("explore: a bad block length in the edge file at byte %d", off))
		}
		if skip == 0 {
			return e.at(off, w+int(l))[w : w+int(l)]
		}
		off += int64(w) + int64(l)
	}
}

// at returns the file's bytes from off on, at least need of them unless
// the file ends first, reading them into the window if needed. A read
// error is elcheck's (the search wrote the file): it panics, and the
// configuration's search reports an internal error.
func (e *edgeFile) at(off int64, need int) []byte {
	if off >= e.off && off+int64(need) <= e.off+int64(len(e.win)) {
		return e.win[off-e.off:]
	}
	size := max(need, edgeWindow)
	if cap(e.win) < size {
		e.win = make([]byte, size)
	}
	e.win = e.win[:size]
	k, err := e.f.ReadAt(e.win, off)
	if err != nil && !errors.Is(err, io.EOF) {
		panic(fmt.Sprintf("explore: reading the edge file: %v", err))
	}
	e.win, e.off = e.win[:k], off
	return e.win
}
