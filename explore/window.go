package explore

import (
	"runtime/debug"
	"slices"
)

// window keeps the encodings of states a search still needs, back to back
// in chunks: growing it never copies what it holds, and chunks are reused.
// Depth-first search needs every state's (keepAll). Breadth-first search
// expands states in the order it finds them and needs only those not yet
// expanded: a chunk whose states are all expanded goes back to the free
// list, so what is kept is about one level of the search, not the whole
// graph. Traces are rebuilt from the initial state by replaying recorded
// action numbers, not from stored states.
type window struct {
	keepAll bool
	live    []*chunk // in state order; the last one is being filled
	free    []*chunk
	next    int32 // the index the next state added gets
	hit     int   // live[hit] held the last state asked for
}

// chunk holds the encodings of states first, first+1, ...: state first+k
// is buf[offs[k]:offs[k+1]].
type chunk struct {
	buf   []byte
	offs  []uint32
	first int32
}

// chunkSize is the capacity of a chunk (a variable: tests make chunks
// tiny, so that chunks are sealed, recycled and found across many).
var chunkSize = 1 << 16

func (c *chunk) states() int32 { return int32(len(c.offs) - 1) }

func (w *window) reset(keepAll bool) {
	w.keepAll = keepAll
	w.free = append(w.free, w.live...)
	w.live, w.next, w.hit = w.live[:0], 0, 0
}

// add stores the encoding of the next state.
func (w *window) add(b []byte) {
	c := w.reserve(len(b))
	c.buf = append(c.buf, b...)
	w.added()
}

// reserve returns the chunk the next record goes in, with room for max
// bytes at the end of its buffer; the caller appends the record to buf and
// calls added.
func (w *window) reserve(max int) *chunk {
	if len(w.live) == 0 || len(w.live[len(w.live)-1].buf)+max > cap(w.live[len(w.live)-1].buf) {
		w.seal()
		if max > chunkSize {
			w.live[len(w.live)-1].buf = make([]byte, 0, max)
		}
	}
	return w.live[len(w.live)-1]
}

// last returns the record added last.
func (w *window) last() []byte {
	c := w.live[len(w.live)-1]
	k := len(c.offs) - 1
	return c.buf[c.offs[k-1]:c.offs[k]:c.offs[k]]
}

// added ends the record appended to the last chunk's buffer.
func (w *window) added() {
	c := w.live[len(w.live)-1]
	c.offs = append(c.offs, uint32(len(c.buf)))
	w.next++
}

// seal starts a new chunk for the states added from now on: the parallel
// search seals at each level, so its workers read chunks nobody writes.
func (w *window) seal() {
	var c *chunk
	if n := len(w.free); n > 0 {
		c, w.free = w.free[n-1], w.free[:n-1]
	} else {
		c = &chunk{buf: make([]byte, 0, chunkSize)}
		populate(c.buf[:cap(c.buf)])
	}
	c.buf, c.offs, c.first = c.buf[:0], append(c.offs[:0], 0), w.next
	w.live = append(w.live, c)
}

// get returns state i's encoding, which must still be kept. It only reads
// the window.
func (w *window) get(i int32) []byte { return w.live[w.index(i)].get(i) }

func (c *chunk) get(i int32) []byte {
	k := i - c.first
	return c.buf[c.offs[k]:c.offs[k+1]:c.offs[k+1]]
}

func (c *chunk) holds(i int32) bool { return i >= c.first && i < c.first+c.states() }

// index returns the position in live of the chunk that holds state i.
func (w *window) index(i int32) int {
	if h := w.hit; h < len(w.live) && w.live[h].holds(i) {
		return h
	}
	return findChunk(w.live, i)
}

// findChunk returns the position in cs (in state order) of the chunk that
// holds state i.
func findChunk(cs []*chunk, i int32) int {
	k, _ := slices.BinarySearchFunc(cs, i, (*chunk).order)
	return k
}

// order compares c with state i, for binary search: 0 if c holds i, 1 if
// i comes before c, -1 after.
func (c *chunk) order(i int32) int {
	switch {
	case i < c.first:
		return 1
	case c.holds(i):
		return 0
	}
	return -1
}

// view appends copies of the live chunks to dst: workers find states in
// them while the searcher changes the window (sealed first, so nobody
// writes the states they read, and a chunk the searcher recycles is one
// whose states they are done with).
func (w *window) view(dst []chunk) []chunk {
	dst = dst[:0]
	for _, c := range w.live {
		dst = append(dst, *c)
	}
	return dst
}

// findIn is findChunk over a view.
func findIn(cs []chunk, i int32) int {
	k, _ := slices.BinarySearchFunc(cs, i, func(c chunk, i int32) int { return c.order(i) })
	return k
}

// expanding tells the window that breadth-first search expands state i:
// every state before it is done with.
func (w *window) expanding(i int32) {
	if w.keepAll || w.live[w.hit].holds(i) {
		return
	}
	k := 0
	for k < len(w.live)-1 && w.live[k].first+w.live[k].states() <= i {
		k++
	}
	if k > 0 {
		w.free = append(w.free, w.live[:k]...)
		w.live = append(w.live[:0], w.live[k:]...)
	}
	w.hit = findChunk(w.live, i)
}

// bytes is what the kept and free chunks take.
func (w *window) bytes() int64 {
	n := int64(0)
	for _, cs := range [][]*chunk{w.live, w.free} {
		for _, c := range cs {
			n += int64(cap(c.buf)) + 4*int64(cap(c.offs))
		}
	}
	return n
}

// trim empties the window and gives back what it holds beyond a chunk: a
// large configuration's frontier is not kept for the analyses after the
// search, nor for the next configuration.
func (w *window) trim() {
	w.reset(w.keepAll)
	freed := max(0, len(w.free)-1)
	if freed > 0 {
		clear(w.free[1:])
		w.free = w.free[:1]
	}
	if freed >= 32 {
		// Megabytes of frontier: give them back now. The analyses'
		// arrays are larger than a chunk and could not reuse them.
		debug.FreeOSMemory()
	}
}
