package explore

import "encoding/binary"

// visited is a search's visited set: it maps each state found to its
// index, TLC's FPSet behind one interface. A state is given both as its
// record (a store's bytes) and as its fingerprint; each set uses one.
type visited interface {
	// put inserts the state with index i unless it is there, and returns
	// the index stored for it and whether it was already present.
	put(rec []byte, fp uint64, i int32) (int32, bool)
	// get returns the index stored for the state, if any.
	get(rec []byte, fp uint64) (int32, bool)
	// peek prefetches where fp would be, so that a put soon after finds it
	// in the cache (fingerprint sets; others do nothing).
	peek(fp uint64)
	// bytes is what the set takes.
	bytes() int64
	// reset empties the set, keeping its storage where it can.
	reset()
}

// fingerprints is the visited set of 64-bit fingerprints (fpset.go): a
// collision can hide a state, with the probability Result.Collision
// reports.
// With tagged (plan.tags, which only the searcher's reset sets), the
// search uses tags instead of set, directly: through the visited
// interface it then only peeks, counts and resets.
type fingerprints struct {
	set    fpSet
	tags   tagSet
	tagged bool
}

func (f *fingerprints) put(_ []byte, fp uint64, i int32) (int32, bool) { return f.set.put(fp, i) }
func (f *fingerprints) get(_ []byte, fp uint64) (int32, bool)          { return f.set.get(fp) }
func (f *fingerprints) bytes() int64                                   { return f.set.bytes() + f.tags.bytes() }

func (f *fingerprints) peek(fp uint64) {
	if f.tagged {
		f.tags.peek(fp)
	} else {
		f.set.peek(fp)
	}
}

func (f *fingerprints) reset() {
	f.set.reset()
	f.tags.reset()
}

// exactStates is the visited set of whole keys (Options.Exact): no
// collision can hide a state. It is the fingerprint table, mapping each
// key's fingerprint to its state's index, over an arena that holds state
// i's key: a match on the fingerprint is confirmed by comparing the keys,
// and the rare distinct key with the same fingerprint goes to an overflow
// map. Keys are a store's canonical form of a state (the byte store's
// encoding, the collapsed store's vector of component numbers). The arena
// and the index of where each key starts grow by fixed blocks rather than
// by doubling one slice, so memory per state is the key's length, one
// byte of length, 8 bytes of index and the table's, with no slack of up
// to half the arena and no copy when it grows.
type exactStates struct {
	fps      fpSet
	starts   [][]uint64 // state i's key starts at arena position starts[i/exactChunk][i%exactChunk]
	blocks   [][]byte   // the arena: a position is block<<32 | offset
	n        int        // keys held
	overflow map[string]int32
}

const (
	exactChunk = 1 << 14 // starts per chunk
	exactBlock = 1 << 20 // bytes per arena block
)

// keyOf returns state i's key.
func (m *exactStates) keyOf(i int32) []byte {
	pos := m.starts[i/exactChunk][i%exactChunk]
	b := m.blocks[pos>>32][uint32(pos):]
	n, k := binary.Uvarint(b)
	return b[k : k+int(n)]
}

// add appends key as the key of the next state.
func (m *exactStates) add(key []byte) {
	need := binary.MaxVarintLen64 + len(key)
	last := len(m.blocks) - 1
	if last < 0 || cap(m.blocks[last])-len(m.blocks[last]) < need {
		last++
		if last == len(m.blocks) || cap(m.blocks[last]) < need { // reset keeps blocks for reuse
			m.blocks = append(m.blocks[:last], make([]byte, 0, max(exactBlock, need)))
		}
	}
	b := m.blocks[last]
	pos := uint64(last)<<32 | uint64(len(b))
	b = binary.AppendUvarint(b, uint64(len(key)))
	m.blocks[last] = append(b, key...)
	c := m.n / exactChunk
	if c == len(m.starts) {
		m.starts = append(m.starts, make([]uint64, 0, exactChunk))
	}
	m.starts[c] = append(m.starts[c], pos)
	m.n++
}

func (m *exactStates) put(key []byte, fp uint64, i int32) (int32, bool) {
	j, found := m.fps.get(fp)
	switch {
	case !found:
		m.fps.put(fp, i)
	case string(m.keyOf(j)) == string(key):
		return j, true
	default: // the same fingerprint, another key
		if j, ok := m.overflow[string(key)]; ok {
			return j, true
		}
		if m.overflow == nil {
			m.overflow = map[string]int32{}
		}
		m.overflow[string(key)] = i
	}
	if int(i) != m.n {
		panic("exactStates: states must be numbered in the order they are put")
	}
	m.add(key)
	return i, false
}

func (m *exactStates) get(key []byte, fp uint64) (int32, bool) {
	j, found := m.fps.get(fp)
	if !found {
		return 0, false
	}
	if string(m.keyOf(j)) == string(key) {
		return j, true
	}
	j, ok := m.overflow[string(key)]
	return j, ok
}

func (m *exactStates) peek(fp uint64) { m.fps.peek(fp) }

func (m *exactStates) bytes() int64 {
	b := m.fps.bytes() + int64(len(m.starts))*exactChunk*8 + int64(len(m.overflow))*64
	for _, bl := range m.blocks {
		b += int64(cap(bl))
	}
	return b
}

// reset empties the set, keeping its blocks and chunks.
func (m *exactStates) reset() {
	m.fps.reset()
	for i := range m.blocks {
		m.blocks[i] = m.blocks[i][:0]
	}
	m.blocks = m.blocks[:min(len(m.blocks), 1)]
	for i := range m.starts {
		m.starts[i] = m.starts[i][:0]
	}
	m.starts = m.starts[:min(len(m.starts), 1)]
	m.n, m.overflow = 0, nil
}
