package explore

import "runtime"

// arena stores the encodings of states back to back in chunks: growing it
// never copies what it holds (one slice would be copied whole at every
// doubling, a large share of the explorer's time), and its chunks are
// reused.
type arena struct {
	chunks [][]byte
	cur    int    // the chunk being filled
	spans  []span // spans[i] is where the i-th encoding is
}

type span struct{ chunk, off, n uint32 }

const chunkSize = 1 << 20

func (a *arena) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur = 0
	a.spans = a.spans[:0]
}

// add stores a copy of b as the next encoding.
func (a *arena) add(b []byte) {
	if len(a.chunks) == 0 || len(a.chunks[a.cur])+len(b) > cap(a.chunks[a.cur]) {
		if len(a.chunks) > 0 {
			a.cur++
		}
		if a.cur == len(a.chunks) {
			a.chunks = append(a.chunks, make([]byte, 0, max(chunkSize, len(b))))
		}
	}
	c := a.chunks[a.cur]
	a.spans = append(a.spans, span{uint32(a.cur), uint32(len(c)), uint32(len(b))})
	a.chunks[a.cur] = append(c, b...)
}

// get returns the i-th encoding.
func (a *arena) get(i int32) []byte {
	s := a.spans[i]
	return a.chunks[s.chunk][s.off : s.off+s.n : s.off+s.n]
}

// bytes is what the stored encodings take, with their index.
func (a *arena) bytes() int64 {
	n := int64(cap(a.spans)) * 12
	for _, c := range a.chunks {
		n += int64(cap(c))
	}
	return n
}

// window keeps the encodings a search still needs. Depth-first search
// needs every state's (keepAll). Breadth-first search needs only those of
// states not yet expanded: it expands states in the order it finds them,
// so the encodings live in two generations, the one being expanded (old)
// and the one being found (young), and the old one is dropped when
// expansion reaches the young one. Traces are rebuilt from the initial
// state by replaying recorded action numbers, not from stored states.
type window struct {
	keepAll          bool
	old, young       arena
	oldBase, youngAt int32 // index of the first state in old, in young
}

func (w *window) reset(keepAll bool) {
	w.keepAll = keepAll
	w.old.reset()
	w.young.reset()
	w.oldBase, w.youngAt = 0, 0
}

// add stores the encoding of the next state.
func (w *window) add(b []byte) { w.young.add(b) }

// get returns state i's encoding, which must still be kept.
func (w *window) get(i int32) []byte {
	if i >= w.youngAt {
		return w.young.get(i - w.youngAt)
	}
	return w.old.get(i - w.oldBase)
}

// expanding tells the window that breadth-first search expands state i:
// every state before it is done with.
func (w *window) expanding(i int32) {
	if w.keepAll || i < w.youngAt {
		return
	}
	w.old.reset()
	w.old, w.young = w.young, w.old
	w.oldBase = w.youngAt
	w.youngAt += int32(len(w.old.spans))
}

// bytes is what the kept encodings take.
func (w *window) bytes() int64 { return w.old.bytes() + w.young.bytes() }

// trim empties the window and gives back all but a chunk of each arena:
// a large configuration's frontier is not kept for the analyses after the
// search, nor for the next configuration.
func (w *window) trim() {
	freed := 0
	for _, a := range []*arena{&w.old, &w.young} {
		a.reset()
		if len(a.chunks) > 1 {
			freed += len(a.chunks) - 1
			a.chunks = a.chunks[:1]
		}
		if cap(a.spans) > 1<<16 {
			a.spans = nil
		}
	}
	w.oldBase, w.youngAt = 0, 0
	if freed >= 8 {
		// Megabytes of frontier: reclaim them for the analyses now rather
		// than at the collector's next turn.
		runtime.GC()
	}
}
