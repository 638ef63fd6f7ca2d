package explore

import (
	"slices"
	"sync/atomic"
)

// The level driver: several workers share the breadth-first search of one
// configuration (Check gives a searcher several when there are fewer
// configurations than workers), on either store, unreduced, without a
// depth limit, costs or clocks. A level is searched in segments of
// consecutive states, each in five phases:
//
//  1. expand (parallel): workers expand chunks of the segment's states
//     without writing anything they share (levelWorkers.expand: the
//     collapsed store against its tables as they are, the byte store each
//     with its own copy of the system). The collapsed store leaves a chunk
//     that needs a step, or a channel content, the tables lack to phase 2;
//     it also writes the fingerprints again in one list per worker of
//     phase 3.
//  2. in order (the searcher): a chunk left over is expanded as the
//     sequential search expands (running the protocol and growing the
//     tables); every other chunk has the store's in-order part done
//     (levelWorkers.inOrder: the collapsed store counts its steps' uses
//     and runs the purity check where due), here if the segment has a
//     chunk left over, else in phase 4, chunk by chunk. The protocol is so
//     called in the sequential search's order, and a failing step cuts
//     the segment where the sequential search would stop.
//  3. look up (parallel, if the store's workers look up: lookUp): each
//     worker inserts into the visited set the fingerprints of its own run
//     of the table's segments (fpOwner), in candidate order. A fingerprint
//     not there gets a provisional index (its rank among the worker's new
//     ones), which its later duplicates in the segment find: the first
//     occurrence is the new state, as in the sequential search, whichever
//     worker holds it. Otherwise takeState inserts them.
//  4. take (the searcher): takeState takes the candidates in order, with
//     the answers of phase 3 if any: it numbers the new states, writes
//     their records, spends the budget and checks them, exactly as the
//     sequential search does. Meanwhile the workers do phase 1 of the next
//     segment (or of the next level's first, once its states are written),
//     which the searcher joins when it is done.
//  5. number (parallel, after phase 3): each worker replaces the
//     provisional indices in its segments of the table by the states'
//     numbers.
//
// So counts, verdicts and traces are the sequential search's for any
// number of workers. Only the searcher changes what workers read, and not
// while they read it: a store whose tables grow calls first the function
// levelWorkers.frozen gave it, which waits for them (join). (A protocol
// whose steps read hidden state, such as a count of all calls, is caught
// either way, perhaps at another step: the uniformity check calls steps at
// other times in the two searches.) A worker writes only its own scratch
// and the chunks it claims, and reads copies of what it needs of the
// searcher's. On a machine whose two vCPUs share a core, two workers give
// about 1.5 to 1.9 times one worker's speed.

// levelWorkers is what a store supplies the level driver (store.workers):
// how its workers expand a chunk at once, and what is left to do in order.
type levelWorkers interface {
	// ready copies in, for par workers, what they read of the searcher's
	// (the view of the level, the tables' headers); no worker is running.
	ready(par int)
	// expand appends to lc, as worker w, the successors of states first
	// to end at depth d. It returns false if the chunk is left to the
	// searcher (phase 2), lc partly written.
	expand(w int, first, end, d int32, lc *levelChunkOut) bool
	// inOrder does the searcher's part of a chunk a worker expanded, the
	// successors of states first, first+1, ..., in the sequential order; it
	// reports whether a failing step cut out there.
	inOrder(first int32, out *expansion) bool
	// lookUp reports whether the workers look the candidates up in the
	// visited set (phase 3, from lc.fpo, which expand then fills).
	lookUp() bool
	// frozen gives the store the function that waits for the workers
	// expanding ahead while the searcher takes (join), to call before
	// what they read changes; nil once they are done.
	frozen(wait func())
	// bytes is what the workers' scratch takes.
	bytes() int64
	// shape is how the store's levels are cut.
	shape() levelShape
}

// levelShape is how a level is cut: into chunks of at most chunk states,
// chunks in a segment. A chunk is what a worker expands at a time, so its
// size weighs the cost of a claim against the time the last chunk of a
// segment may keep the others waiting, and a store whose expansion costs
// more takes smaller chunks, and more in a segment.
type levelShape struct{ chunk, chunks int32 }

const (
	// levelAhead is the number of chunks of the next level that must be
	// written before workers expand them during the last segment of a
	// level.
	levelAhead = 8
	// levelSplit is the number of segments levelChunkFor gives a level
	// where it can, with chunks of at least a sixteenth of the shape's.
	levelSplit = 4
)

// levelChunkFor is the chunk size for a level of m states cut as sh says:
// sh.chunk, or less for a level shorter than levelSplit segments, so that
// even a small level has segments for the workers to expand while the
// searcher takes the one before.
func levelChunkFor(m int32, sh levelShape) int32 {
	size := sh.chunk
	for size > sh.chunk/16 && m < levelSplit*sh.chunks*size {
		size /= 2
	}
	return size
}

// levelChunkOut is one chunk's expansion, with its fingerprints by worker
// of phase 3, alone on its cache lines.
type levelChunkOut struct {
	out expansion
	fpo [][]uint64
	// parents, on the tag set, are the fingerprints of the states the
	// chunk expands, which phase 3 tags as expanded.
	parents []uint64
	_       [64]byte
}

// split fills fpo from the candidates, for a chunk phase 2 expanded.
func (lc *levelChunkOut) split(p int) {
	for o := range lc.fpo {
		lc.fpo[o] = lc.fpo[o][:0]
	}
	for _, cd := range lc.out.cands {
		o := fpOwner(cd.fp, p)
		lc.fpo[o] = append(lc.fpo[o], cd.fp)
	}
}

// levelRes is what phase 3 found, a stream of answers per worker in
// candidate order, with phase 4's place in each and the numbers it gave
// the new states, by worker and rank.
type levelRes struct {
	p     int
	res   [][]int32
	cur   []int
	fresh [][]uint64 // the new fingerprints, by worker and rank
	num   [][]int32
}

// next returns the index of the candidate whose fingerprint is fp, the
// next in candidate order, and whether it was found before; if not, the
// caller numbers it j.
func (lr *levelRes) next(fp uint64, j int32) (int32, bool) {
	o := fpOwner(fp, lr.p)
	v := lr.res[o][lr.cur[o]]
	lr.cur[o]++
	if v >= 0 {
		return v, true
	}
	if r := int(-v - 1); r < len(lr.num[o]) {
		return lr.num[o][r], true // a duplicate of a state new in this segment
	}
	lr.num[o] = append(lr.num[o], j)
	return j, false
}

// Phase 3's answers on the tag set (tagset.go): new, found at the depth
// of the level being built, found at another.
const (
	tagNew int32 = iota - 1
	tagSame
	tagOther
)

// nextTag is next on the tag set: it returns whether the candidate whose
// fingerprint is fp was found before, and if so whether at another depth
// than its own.
func (lr *levelRes) nextTag(fp uint64) (seen, other bool) {
	o := fpOwner(fp, lr.p)
	v := lr.res[o][lr.cur[o]]
	lr.cur[o]++
	return v != tagNew, v == tagOther
}

// numbered returns the number of the state whose fingerprint fp has the
// provisional index v in the set (phase 4 stopped before phase 5).
func (lr *levelRes) numbered(fp uint64, v int32) (int32, bool) {
	if lr.p == 0 {
		return 0, false
	}
	o := fpOwner(fp, lr.p)
	if r := int(-v - 1); r < len(lr.num[o]) {
		return lr.num[o][r], true
	}
	return 0, false
}

// levelView is a worker's copy of the view of the level (window.view),
// where it finds the records of the states it expands.
type levelView struct {
	kview []chunk
	hit   int // the chunk that held the last state asked for
}

// rec is state i's record, from the view.
func (lv *levelView) rec(i int32) []byte {
	if lv.hit >= len(lv.kview) || !lv.kview[lv.hit].holds(i) {
		lv.hit = findIn(lv.kview, i)
	}
	return lv.kview[lv.hit].get(i)
}

// levels is the storage of runLevels, kept across configurations.
type levels struct {
	// Per segment parity (a segment is expanded while the one before it
	// is taken): per chunk, its expansion and whether it is left to phase
	// 2. A chunk's storage is its place's, whichever worker claims it, so
	// that the two segments' chunks are all there is: per-worker pools
	// grew to the most chunks each worker ever claimed in one segment.
	outs     [2][]*levelChunkOut
	deferred [2][]bool
	res      levelRes
	crew     crew
	ws       levelWorkers // the store's, in the last search
	// ahead is set while workers expand the next segment during phase 4
	// (the store's frozen function waits for them before what they read
	// changes).
	ahead bool
}

// segment is a run of consecutive states of one level.
type segment struct {
	lo, hi int32 // its states
	size   int32 // states per chunk
	d      int32 // their depth
	parity int
}

func (sg segment) chunks() int                           { return int((sg.hi - sg.lo + sg.size - 1) / sg.size) }
func (sg segment) first(c int) int32                     { return sg.lo + int32(c)*sg.size }
func (sg segment) last(c int) int32                      { return min(sg.first(c)+sg.size, sg.hi) }
func (lv *levels) chunkOuts(sg segment) []*levelChunkOut { return lv.outs[sg.parity][:sg.chunks()] }

// prepare readies lv's chunk outputs and look-up results for par workers
// on chunks of shape sh.
func (lv *levels) prepare(par int, sh levelShape) {
	for p := range lv.outs {
		if len(lv.outs[p]) != int(sh.chunks) || len(lv.outs[p][0].fpo) != par {
			lv.outs[p] = make([]*levelChunkOut, sh.chunks)
			for c := range lv.outs[p] {
				lv.outs[p][c] = &levelChunkOut{fpo: make([][]uint64, par)}
			}
		}
		lv.deferred[p] = make([]bool, sh.chunks)
	}
	lv.res = levelRes{p: par, res: make([][]int32, par), cur: make([]int, par), fresh: make([][]uint64, par), num: make([][]int32, par)}
}

// beginLevel starts the level of states lo to hi: its chunk size, and its
// first segment, expanded now unless it is ahead, the segment expanded
// while the last level was taken.
func (x *searcher) beginLevel(lo, hi int32, sh levelShape, parity int, ahead segment) (segment, int32) {
	size := levelChunkFor(hi-lo, sh)
	if x.opts.chunk > 0 {
		size = int32(x.opts.chunk)
	}
	// The level's records stay where they are while the next level's are
	// written: workers read them from a view (window.view).
	x.kept.expanding(lo)
	x.kept.seal()
	x.kview = x.kept.view(x.kview)
	if ahead.lo == lo && ahead.hi > lo {
		return ahead, size
	}
	seg := segment{lo: lo, hi: min(hi, lo+sh.chunks*size), size: size, d: x.depthOf(lo), parity: parity}
	x.lv.crew.run(x.par, x.expandJob(seg))
	return seg, size
}

// number is phase 5: each worker replaces the provisional indices in its
// segments of the visited set by the states' numbers.
func (x *searcher) number() {
	lr := &x.lv.res
	x.lv.crew.run(x.par, func(o int) {
		f := &x.fps.set
		fresh := lr.fresh[o]
		for t, fp := range fresh {
			f.peekAhead(fresh, t)
			f.update(fp, lr.num[o][t])
		}
	})
}

// runLevels runs breadth-first search from the initial state, already
// added and checked, with x.par workers sharing each level.
func (x *searcher) runLevels(r *configResult) taken {
	lv, par := &x.lv, x.par
	lv.ws = x.st.workers()
	look, sh := lv.ws.lookUp(), lv.ws.shape()
	lv.prepare(par, sh)
	lr := &lv.res
	if !x.noEdges {
		x.opts.counts.edges.Add(1)
	}
	lv.crew.start(par - 1)
	defer func() {
		x.join()
		lv.crew.stop()
		lr.p = 0
	}()
	var ahead segment // the next level's first segment, if expanded already
	parity := 0
	for lo := int32(0); lo < x.states(); {
		hi := x.states()
		seg, size := x.beginLevel(lo, hi, sh, parity, ahead)
		d := x.depthOf(lo)
		span := sh.chunks * size // states per segment
		for {
			if x.stop(r, max(r.maxDepth, int(d))) {
				return stopped
			}
			if x.memLimit > 0 && x.memBytes() > x.memLimit {
				r.stopped = errMemory
				return stopped
			}
			x.kept.expanding(seg.lo)
			outs, count := x.inOrder(seg, look)
			switch {
			case !look:
			case x.fps.tagged:
				x.lookUpTags(outs, d)
			default:
				x.lookUp(outs)
			}
			// Workers expand the next segment of the level while the
			// searcher takes this one.
			next := segment{lo: seg.hi, hi: min(hi, seg.hi+span), size: size, d: d, parity: 1 - seg.parity}
			ahead = segment{}
			var job func(w int)
			launch := func(sg segment) {
				ahead, job = sg, x.expandJob(sg)
				lv.crew.launch(par, job)
				lv.ahead = true
				lv.ws.frozen(x.join)
			}
			// soon launches, in the last segment of the level, the
			// expansion of the next level's first chunks once they are
			// written (states are numbered in order): the workers read
			// them from a new view, as the searcher writes only past them.
			soon := func() {
				if job != nil || next.lo < hi {
					return
				}
				if written := (x.states() - hi) / size * size; written >= min(levelAhead*size, span) {
					x.kview = x.kept.view(x.kview)
					launch(segment{lo: hi, hi: hi + min(written, span), size: size, d: d + 1, parity: next.parity})
				}
			}
			if next.lo < hi {
				launch(next)
			}
			soon()
			if t := x.take(seg, outs, count, look, r, soon); t != goOn {
				return t
			}
			if job != nil && lv.ahead {
				job(par - 1) // the searcher helps
			}
			x.join()
			if look && !x.fps.tagged {
				x.number()
			}
			parity = next.parity
			if next.lo == hi {
				break
			}
			seg = next
		}
		lo = hi
	}
	return goOn
}

// bytes is what the workers' chunks and scratch and the lookups' answers
// take.
func (lv *levels) bytes() int64 {
	b := int64(0)
	for _, outs := range lv.outs {
		for _, lc := range outs {
			b += int64(cap(lc.out.cands))*24 + int64(cap(lc.out.ncand))*4 + int64(cap(lc.out.buf)) + int64(cap(lc.parents))*8
			for _, f := range lc.fpo {
				b += int64(cap(f)) * 8
			}
		}
	}
	for o := range lv.res.res {
		b += int64(cap(lv.res.res[o]))*4 + int64(cap(lv.res.fresh[o]))*8 + int64(cap(lv.res.num[o]))*4
	}
	if lv.ws != nil {
		b += lv.ws.bytes()
	}
	return b
}

// join waits for the workers expanding the next segment, if any: before
// the searcher changes what they read (the store calls it), or before it
// returns.
func (x *searcher) join() {
	if x.lv.ahead {
		x.lv.crew.wait()
		x.lv.ahead = false
		x.lv.ws.frozen(nil)
	}
}

// expandJob is phase 1 of segment sg, for the crew: worker w claims
// chunks and expands them into their storage.
func (x *searcher) expandJob(sg segment) func(w int) {
	lv := &x.lv
	chunks := sg.chunks()
	outs, deferred := lv.outs[sg.parity], lv.deferred[sg.parity]
	lv.ws.ready(x.par)
	var cursor atomic.Int32
	return func(w int) {
		for {
			c := int(cursor.Add(1)) - 1
			if c >= chunks {
				return
			}
			lc := outs[c]
			lc.out.reset()
			lc.out.res = nil
			deferred[c] = !lv.ws.expand(w, sg.first(c), sg.last(c), sg.d, lc)
		}
	}
}

// inOrder is phase 2 of segment sg: it returns the chunks to take, up to
// the first that fails, and whether take must do the store's in-order
// part itself. A segment whose chunks the workers all expanded has
// nothing to run in order but that part, which take does chunk by chunk,
// on candidates it reads anyway, while the workers expand the next
// segment (a pass of its own here kept the other cores idle: 18 ms of
// 300 at n = 12). Its lookups then cover candidates a failing purity
// check cuts off, which take never reaches: they are only put in the
// visited set of a search that stops there. With look, a chunk changed
// here has its fingerprints split again for phase 3.
func (x *searcher) inOrder(sg segment, look bool) ([]*levelChunkOut, bool) {
	lv, par := &x.lv, x.par
	x.opts.counts.segments.Add(1)
	outs := lv.chunkOuts(sg)
	if !slices.Contains(lv.deferred[sg.parity][:len(outs)], true) {
		x.opts.counts.expanded.Add(int64(len(outs)))
		return outs, true
	}
	for c, lc := range outs {
		out := &lc.out
		changed := true
		if lv.deferred[sg.parity][c] {
			x.opts.counts.leftOver.Add(1)
			out.reset()
			lc.parents = lc.parents[:0]
			for i := sg.first(c); i < sg.last(c) && out.err == nil && out.stop == nil; i++ {
				rec := x.kept.get(i)
				if x.fps.tagged {
					lc.parents = append(lc.parents, recPrint(rec))
				}
				x.st.expand(i, sg.d, rec, out)
			}
		} else {
			x.opts.counts.expanded.Add(1)
			changed = lv.ws.inOrder(sg.first(c), out)
		}
		if changed && look {
			lc.split(par)
		}
		if out.err != nil || out.stop != nil {
			return outs[:c+1], false
		}
	}
	return outs, false
}

// lookUp is phase 3 of the chunks outs.
func (x *searcher) lookUp(outs []*levelChunkOut) {
	lr := &x.lv.res
	x.lv.crew.run(x.par, func(o int) {
		f := &x.fps.set
		res, fresh := lr.res[o][:0], lr.fresh[o][:0]
		for _, lc := range outs {
			fps := lc.fpo[o]
			for t, fp := range fps {
				f.peekAhead(fps, t)
				j, seen := f.put(fp, int32(-len(fresh)-1))
				if !seen {
					fresh = append(fresh, fp)
				}
				res = append(res, j)
			}
		}
		lr.res[o], lr.fresh[o], lr.cur[o], lr.num[o] = res, fresh, 0, lr.num[o][:0]
	})
}

// lookUpTags is lookUp on the tag set, for chunks outs at depth d: each
// worker tags its own of their parents as expanded, then puts the
// candidates at depth d+1.
func (x *searcher) lookUpTags(outs []*levelChunkOut, d int32) {
	lr := &x.lv.res
	x.lv.crew.run(x.par, func(o int) {
		f := &x.fps.tags
		own := lr.fresh[o][:0] // unused on the tag set: scratch
		for _, lc := range outs {
			for _, fp := range lc.parents {
				if fpOwner(fp, x.par) == o {
					own = append(own, fp)
				}
			}
		}
		for t, fp := range own {
			f.peekAhead(own, t)
			f.expanded(fp)
		}
		lr.fresh[o] = own
		res := lr.res[o][:0]
		for _, lc := range outs {
			fps := lc.fpo[o]
			for t, fp := range fps {
				f.peekAhead(fps, t)
				switch seen, other := f.put(fp, d+1); {
				case !seen:
					res = append(res, tagNew)
				case other:
					res = append(res, tagOther)
				default:
					res = append(res, tagSame)
				}
			}
		}
		lr.res[o], lr.cur[o] = res, 0
	})
}

// take is phase 4 of segment sg, whose chunks to take are outs, doing the
// store's in-order part first if count, with the answers of phase 3 if
// look; after each chunk it calls between.
func (x *searcher) take(sg segment, outs []*levelChunkOut, count, look bool, r *configResult, between func()) taken {
	for c, lc := range outs {
		out := &lc.out
		if count {
			x.lv.ws.inOrder(sg.first(c), out) // a failure cuts out, and takeState reports it
		}
		if look {
			out.res = &x.lv.res
		}
		stop := out.stop
		out.stop = nil // takeState would stop before the states ahead of it
		k := 0
		for s := range out.ncand {
			if t := x.takeState(sg.first(c)+int32(s), sg.d, s, out, &k, r); t != goOn {
				return t
			}
		}
		out.res = nil
		if stop != nil {
			r.stopped = stop
			return stopped
		}
		between()
	}
	return goOn
}
