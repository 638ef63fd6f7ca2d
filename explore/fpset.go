package explore

import "runtime"

// fpSet is the visited set of fingerprint mode: open addressing with
// linear probing over two flat arrays, so an insertion allocates nothing
// (a Go map allocates buckets and hashes the key again). It maps a
// fingerprint to the index of its state.
type fpSet struct {
	keys []uint64 // 0 marks an empty slot
	vals []int32
	n    int
}

// reset empties the set, keeping its storage.
func (f *fpSet) reset() {
	clear(f.keys)
	f.n = 0
}

// slot returns where fp is, or the empty slot where it would go. The
// table must not be empty.
func (f *fpSet) slot(fp uint64) (uint64, bool) {
	mask := uint64(len(f.keys) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		switch f.keys[i] {
		case fp:
			return i, true
		case 0:
			return i, false
		}
	}
}

// key maps fingerprint 0, the empty marker, to 1: merging the two costs a
// 2^-64 chance of a missed state.
func key(fp uint64) uint64 { return max(fp, 1) }

// put inserts fp with index v unless fp is there; it returns the index
// stored for fp and whether fp was already present (TLC's FPSet.put).
func (f *fpSet) put(fp uint64, v int32) (int32, bool) {
	fp = key(fp)
	if 4*(f.n+1) > 3*len(f.keys) {
		f.grow()
	}
	i, found := f.slot(fp)
	if found {
		return f.vals[i], true
	}
	f.keys[i], f.vals[i] = fp, v
	f.n++
	return v, false
}

// get returns the index stored for fp, if any.
func (f *fpSet) get(fp uint64) (int32, bool) {
	if len(f.keys) == 0 {
		return 0, false
	}
	i, found := f.slot(key(fp))
	return f.vals[i], found
}

func (f *fpSet) grow() {
	keys, vals := f.keys, f.vals
	size := max(1024, 2*len(keys))
	f.keys, f.vals, f.n = make([]uint64, size), make([]int32, size), 0
	for i, k := range keys {
		if k != 0 {
			f.put(k, vals[i])
		}
	}
	if len(keys) >= bigTable {
		// The old table is a third of the new heap: reclaim it now rather
		// than at the collector's next turn, which GOGC may put far off.
		keys, vals = nil, nil
		runtime.GC()
	}
}

// bigTable is the number of slots from which a table outgrown is
// collected at once.
const bigTable = 1 << 18
