package explore

import "unsafe"

// tagSet is the visited set of a breadth-first search on fingerprints
// that records no edges (plan.tags): 8 bytes a state where fpSet takes 12,
// for it stores no index. Such a search looks a state's index up for one
// thing only, to see whether a state found again lies on the level being
// built (graph.noteDuplicate): the set answers that from a tag instead.
//
// A slot holds the fingerprint's low 62 bits, the top ones being the
// segment's number, and in the top two bits the tag: the parity of the
// state's depth while it waits to be expanded, then tagExpanded. A search
// expands every state of depths up to d-1 before it takes the successors
// of depth d's states, so a state found again there is at depth d+1 if
// and only if it waits with d+1's parity: one of depth d has the other
// parity or is expanded, and every shallower one is expanded. The
// segments, their filling and their growth are fpSet's.
type tagSet struct {
	segs    [fpSegs]tagSeg
	garbage outgrown
	// The last states the sequential search expanded, of depth lagDepth,
	// whose slots are prefetched and tagged lookAhead states later
	// (expandedLater).
	lag      [lookAhead]uint64
	lagN     int
	lagDepth int32
	used     bool // since the last reset (begin; a sweep's searches mostly do not use it)
}

type tagSeg struct {
	slots  []uint64
	n, max int
}

const (
	tagShift    = 62
	tagLow      = 1<<tagShift - 1
	tagExpanded = 3
)

// waiting is the tag of a state of depth d not expanded yet: 1 or 2, so
// that no slot in use is 0, the empty marker.
func waiting(d int32) uint64 { return uint64(1 + d&1) }

func (f *tagSet) seg(fp uint64) *tagSeg { return &f.segs[fp>>(64-fpSegBits)] }

// slot returns where fp is, or the empty slot where it would go. The
// segment must not be empty.
func (s *tagSeg) slot(fp uint64) (*uint64, bool) {
	mask := uint64(len(s.slots) - 1)
	low := fp & tagLow
	for i := fp & mask; ; i = (i + 1) & mask {
		e := &s.slots[i]
		switch {
		case *e == 0: // a slot in use has a tag
			return e, false
		case *e&tagLow == low:
			return e, true
		}
	}
}

// put inserts fp as a state of depth d unless fp is there; it reports
// whether it was, and if so whether at another depth than d (or at d but
// expanded, which the search never asks).
func (f *tagSet) put(fp uint64, d int32) (seen, other bool) {
	s := f.seg(fp)
	if s.n >= s.max {
		f.grow(s)
	}
	e, found := s.slot(fp)
	if found {
		return true, *e>>tagShift != waiting(d)
	}
	*e = fp&tagLow | waiting(d)<<tagShift
	s.n++
	return false, false
}

// begin puts a search's initial state, whose fingerprint is fp: the set
// is in use until the next reset.
func (f *tagSet) begin(fp uint64) {
	f.used = true
	f.put(fp, 0)
}

// expanded tags fp, which is in the set, as expanded.
func (f *tagSet) expanded(fp uint64) {
	e, _ := f.seg(fp).slot(fp)
	*e |= tagExpanded << tagShift
}

// expandedLater tags fp, of a state of depth d the sequential search
// expands, as expanded once lookAhead more states are, its slot
// prefetched meanwhile; or before the first state of another depth is,
// so that every state of depth d is tagged before the search takes the
// successors of depth d+1's. Until then the state waits at depth d,
// which answers as the tag would: not d+1, no deeper than d.
func (f *tagSet) expandedLater(fp uint64, d int32) {
	if d != f.lagDepth {
		f.flushLag()
		f.lagDepth = d
	}
	at := &f.lag[f.lagN%lookAhead]
	if f.lagN >= lookAhead {
		f.expanded(*at)
	}
	f.peek(fp)
	*at = fp
	f.lagN++
}

// flushLag tags the states expandedLater holds.
func (f *tagSet) flushLag() {
	for _, fp := range f.lag[:min(f.lagN, lookAhead)] {
		f.expanded(fp)
	}
	f.lagN = 0
}

// shallower reports whether fp is in the set at a depth of d or less,
// the successor of a state of depth d being expanded (the reduction's
// cycle proviso, closes).
func (f *tagSet) shallower(fp uint64, d int32) bool {
	s := f.seg(fp)
	if len(s.slots) == 0 {
		return false
	}
	e, found := s.slot(fp)
	return found && *e>>tagShift != waiting(d+1)
}

// peek prefetches the slot where fp's search starts.
func (f *tagSet) peek(fp uint64) {
	if s := f.seg(fp); len(s.slots) > 0 {
		prefetch(unsafe.Pointer(&s.slots[fp&uint64(len(s.slots)-1)]))
	}
}

// peekAhead is fpSet.peekAhead.
func (f *tagSet) peekAhead(fps []uint64, t int) {
	if t == 0 {
		for _, fp := range fps[:min(len(fps), lookAhead)] {
			f.peek(fp)
		}
	}
	if t+lookAhead < len(fps) {
		f.peek(fps[t+lookAhead])
	}
}

func (f *tagSet) grow(s *tagSeg) {
	old := s.slots
	s.slots, s.n = make([]uint64, max(16, 2*len(old))), 0
	s.max = fpFill(len(s.slots))
	populate(s.slots)
	mask := uint64(len(s.slots) - 1)
	for _, k := range old {
		if k != 0 {
			// Every key in a segment is distinct: no comparison needed.
			i := k & mask
			for s.slots[i] != 0 {
				i = (i + 1) & mask
			}
			s.slots[i] = k
			s.n++
		}
	}
	f.garbage.add(int64(len(old)) * 8)
}

// reset empties the set, keeping its storage (fpSet.reset).
func (f *tagSet) reset() {
	f.lagN, f.lagDepth = 0, 0
	if !f.used {
		return
	}
	f.used = false
	for i := range f.segs {
		if f.segs[i].n > 0 {
			clear(f.segs[i].slots)
			f.segs[i].n = 0
		}
	}
}

// bytes is what the table takes.
func (f *tagSet) bytes() int64 {
	b := int64(0)
	for i := range f.segs {
		b += int64(len(f.segs[i].slots)) * 8
	}
	return b
}
