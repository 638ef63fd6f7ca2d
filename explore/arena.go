package explore

// arena stores the encodings of a configuration's states back to back in
// chunks: growing it never copies what it holds (one slice would be copied
// whole at every doubling, a large share of the explorer's time), and its
// chunks are reused from one configuration to the next.
type arena struct {
	chunks [][]byte
	cur    int    // the chunk being filled
	spans  []span // spans[i] is where state i's encoding is
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

// add stores a copy of b as the next state's encoding.
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

// get returns state i's encoding.
func (a *arena) get(i int32) []byte {
	s := a.spans[i]
	return a.chunks[s.chunk][s.off : s.off+s.n : s.off+s.n]
}

// bytes is what the stored encodings take, with their index.
func (a *arena) bytes() int64 {
	n := int64(len(a.spans)) * 12
	for _, c := range a.chunks[:min(a.cur+1, len(a.chunks))] {
		n += int64(len(c))
	}
	return n
}
