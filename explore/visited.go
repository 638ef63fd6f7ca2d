package explore

// visited is a search's visited set: it maps each state found to its
// index, TLC's FPSet behind one interface. A state is given both as its
// record (a store's bytes) and as its fingerprint; each set uses one.
type visited interface {
	// put inserts the state with index i unless it is there, and returns
	// the index stored for it and whether it was already present.
	put(rec []byte, fp uint64, i int32) (int32, bool)
	// get returns the index stored for the state, if any.
	get(rec []byte, fp uint64) (int32, bool)
	// peek touches where fp would be, so that a put soon after finds it in
	// the cache (fingerprint sets; others return 0).
	peek(fp uint64) uint64
	// bytes is what the set takes.
	bytes() int64
	// reset empties the set, keeping its storage where it can.
	reset()
}

// fingerprints is the visited set of 64-bit fingerprints (fpset.go): a
// collision can hide a state, with the probability Result.Collision
// reports.
type fingerprints struct{ set fpSet }

func (f *fingerprints) put(_ []byte, fp uint64, i int32) (int32, bool) { return f.set.put(fp, i) }
func (f *fingerprints) get(_ []byte, fp uint64) (int32, bool)          { return f.set.get(fp) }
func (f *fingerprints) peek(fp uint64) uint64                          { return f.set.peek(fp) }
func (f *fingerprints) bytes() int64                                   { return f.set.bytes() }
func (f *fingerprints) reset()                                         { f.set.reset() }

// exactStates is the visited set of whole records (Options.Exact): no
// collision can hide a state.
type exactStates map[string]int32

func (m exactStates) put(rec []byte, _ uint64, i int32) (int32, bool) {
	if j, ok := m[string(rec)]; ok {
		return j, true
	}
	m[string(rec)] = i
	return i, false
}

func (m exactStates) get(rec []byte, _ uint64) (int32, bool) {
	j, ok := m[string(rec)]
	return j, ok
}

func (m exactStates) peek(uint64) uint64 { return 0 }

// bytes estimates the map's size: the key's bytes are counted as a
// typical state's.
func (m exactStates) bytes() int64 { return int64(len(m)) * 64 }
func (m exactStates) reset()       { clear(m) }
