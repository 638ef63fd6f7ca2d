package explore

import (
	"runtime"
	"sync/atomic"
	"unsafe"
)

// fpSet is the visited set of fingerprint mode: open addressing with
// linear probing over flat arrays, so an insertion allocates nothing (a Go
// map allocates buckets and hashes the key again). It maps a fingerprint
// to the index of its state. The table is cut into segments by the top
// bits of the fingerprint, each doubling on its own: a growth copies a
// sixty-fourth of the table, not all of it, so memory never holds the old
// table and the new one at once, and the load stays between the extremes
// a single table swings between.
type fpSet struct {
	segs    [fpSegs]fpSeg
	garbage outgrown
}

// outgrown counts the bytes of a set's outgrown segments since the last
// collection; atomic, as workers grow segments of their own at once
// (levels.go).
type outgrown struct{ atomic.Int64 }

// add counts an outgrown segment of b bytes. Outgrown segments add up:
// past 4 MiB they are reclaimed at once rather than at the collector's
// next turn, which GOGC may put far off.
func (g *outgrown) add(b int64) {
	if g.Add(b) > 4<<20 {
		g.Store(0)
		runtime.GC()
	}
}

const (
	fpSegBits = 6
	fpSegs    = 1 << fpSegBits
)

type fpSeg struct {
	slots []fpSlot
	n     int
	max   int // the most fingerprints before it grows (fpFill)
}

// fpBig is the size in slots from which a segment is filled to 7/8
// rather than 3/4 before it doubles. A small table is kept sparse for
// short probes; in a large one nearly every probe misses the cache
// anyway, a line holds five slots, and the memory counts: a segment just
// doubled at 3/4 is 3/8 full, at 7/8 it is 7/16.
const fpBig = 32 << 10

// fpFill is the most fingerprints a segment of size slots holds.
func fpFill(size int) int {
	if size >= fpBig {
		return size / 8 * 7
	}
	return size / 4 * 3
}

// fpSlot is a fingerprint (0 marks an empty slot) and its state's index,
// side by side in 12 bytes: a probe that finds the fingerprint finds the
// index in the same cache line (mostly), where two arrays cost two misses.
type fpSlot [3]uint32

func (e *fpSlot) key() uint64 { return uint64(e[0]) | uint64(e[1])<<32 }
func (e *fpSlot) set(fp uint64, v int32) {
	*e = fpSlot{uint32(fp), uint32(fp >> 32), uint32(v)}
}

// reset empties the set, keeping its storage. It clears only the
// segments in use: a sweep's configurations are mostly far smaller than
// its largest, whose size the table keeps, and most of their segments
// are empty.
func (f *fpSet) reset() {
	for i := range f.segs {
		if f.segs[i].n > 0 {
			clear(f.segs[i].slots)
			f.segs[i].n = 0
		}
	}
}

func (f *fpSet) seg(fp uint64) *fpSeg { return &f.segs[fp>>(64-fpSegBits)] }

// slot returns where fp is, or the empty slot where it would go. The
// segment must not be empty.
func (s *fpSeg) slot(fp uint64) (*fpSlot, bool) {
	mask := uint64(len(s.slots) - 1)
	for i := fp & mask; ; i = (i + 1) & mask {
		e := &s.slots[i]
		switch e.key() {
		case fp:
			return e, true
		case 0:
			return e, false
		}
	}
}

// key maps fingerprint 0, the empty marker, to 1: merging the two costs a
// 2^-64 chance of a missed state.
func key(fp uint64) uint64 { return max(fp, 1) }

// peek prefetches the slot where fp's search starts, so that a put or get
// of fp soon after finds it in the cache.
func (f *fpSet) peek(fp uint64) {
	fp = key(fp)
	if s := f.seg(fp); len(s.slots) > 0 {
		prefetch(unsafe.Pointer(&s.slots[fp&uint64(len(s.slots)-1)]))
	}
}

// lookAhead is how many fingerprints ahead of its put or update a run of
// them has its lines prefetched (peekAhead).
const lookAhead = 16

// peekAhead is called before the t-th put or update of the run fps: it
// prefetches the line of the one lookAhead further (and at t = 0 those
// of the first lookAhead), so that lookAhead misses overlap.
func (f *fpSet) peekAhead(fps []uint64, t int) {
	if t == 0 {
		for _, fp := range fps[:min(len(fps), lookAhead)] {
			f.peek(fp)
		}
	}
	if t+lookAhead < len(fps) {
		f.peek(fps[t+lookAhead])
	}
}

// put inserts fp with index v unless fp is there; it returns the index
// stored for fp and whether fp was already present (TLC's FPSet.put).
func (f *fpSet) put(fp uint64, v int32) (int32, bool) {
	fp = key(fp)
	s := f.seg(fp)
	if s.n >= s.max {
		f.grow(s)
	}
	e, found := s.slot(fp)
	if found {
		return int32(e[2]), true
	}
	e.set(fp, v)
	s.n++
	return v, false
}

// update sets the index stored for fp, which is in the set.
func (f *fpSet) update(fp uint64, v int32) {
	e, _ := f.seg(key(fp)).slot(key(fp))
	e[2] = uint32(v)
}

// fpOwner is which of p workers inserts fp when they share the insertions
// (levels.go): a run of whole segments each, so that they never write the
// same segment, nor (but at the ends of the runs) neighbouring segments'
// headers, which share cache lines.
func fpOwner(fp uint64, p int) int { return int(key(fp)>>(64-fpSegBits)) * p >> fpSegBits }

// get returns the index stored for fp, if any.
func (f *fpSet) get(fp uint64) (int32, bool) {
	fp = key(fp)
	s := f.seg(fp)
	if len(s.slots) == 0 {
		return 0, false
	}
	e, found := s.slot(fp)
	return int32(e[2]), found
}

func (f *fpSet) grow(s *fpSeg) {
	old := s.slots
	s.slots, s.n = make([]fpSlot, max(16, 2*len(old))), 0
	s.max = fpFill(len(s.slots))
	populate(s.slots)
	for i := range old {
		if k := old[i].key(); k != 0 {
			e, _ := s.slot(k)
			*e = old[i]
			s.n++
		}
	}
	f.garbage.add(int64(len(old)) * 12)
}

// len is the number of fingerprints in the set.
func (f *fpSet) len() int {
	n := 0
	for i := range f.segs {
		n += f.segs[i].n
	}
	return n
}

// bytes is what the table takes.
func (f *fpSet) bytes() int64 {
	b := int64(0)
	for i := range f.segs {
		b += int64(len(f.segs[i].slots)) * 12
	}
	return b
}
