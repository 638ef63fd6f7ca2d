package explore

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/elcheck/elcheck/spec"
)

// Both cores on one collapsed configuration (the default engine), for a
// breadth-first search on fingerprints, unreduced (recording the graph's
// edges or not: takeState does, in order). A level is searched in segments of consecutive states, each in
// five phases:
//
//  1. expand (parallel): workers expand chunks of the segment's states
//     against the collapser's tables as they are, writing each
//     successor's fingerprint and step, and the fingerprints again in one
//     list per worker of phase 3. A chunk that needs a step, or a channel
//     content, the tables lack is left to phase 2.
//  2. in order (the searcher): a chunk left over is expanded as the
//     sequential search expands (running the protocol and growing the
//     tables); every other chunk has its steps' uses counted and the
//     purity check run where due, here if the segment has a chunk left
//     over, else in phase 4, chunk by chunk. The protocol is so called in
//     the sequential search's order, and a failing step cuts the segment
//     where the sequential search would stop.
//  3. look up (parallel): each worker inserts into the visited set the
//     fingerprints of its own run of the table's segments (fpOwner), in
//     candidate order. A fingerprint not there gets a provisional index
//     (its rank among the worker's new ones), which its later duplicates
//     in the segment find: the first occurrence is the new state, as in
//     the sequential search, whichever worker holds it.
//  4. take (the searcher): takeState takes the candidates in order, with
//     the answers of phase 3: it numbers the new states, writes their
//     records, spends the budget and checks them, exactly as the
//     sequential search does. Meanwhile the workers do phase 1 of the next
//     segment (or of the next level's first, once its states are written),
//     which the searcher joins when it is done.
//  5. number (parallel): each worker replaces the provisional indices in
//     its segments of the table by the states' numbers.
//
// So counts, verdicts and traces are the sequential search's for any
// number of workers. Only the searcher grows the tables, and not while
// workers read them: the collapser calls its guard first, which waits for
// them (join). (A protocol whose steps read hidden state, such as a count
// of all calls, is caught either way, perhaps at another step: the
// uniformity check calls steps at other times in the two searches.) A
// worker writes only its own scratch and the chunks it claims, and reads
// copies of what it needs of the searcher's.

const (
	// levelChunk is the number of states a worker expands at a time, and
	// levelSegment the number of chunks in a segment (tests use smaller
	// chunks: Options.chunk). Two segments' chunks are kept (one expanded
	// while the other is taken), each page of them a fault when first
	// touched: at n = 12, 16 chunks took 3 MiB more than 4 do, and 64 5
	// MiB more than 16, for no more speed; 2 were slower by a tenth.
	levelChunk   = 256
	levelSegment = 4
	// levelAhead is the number of chunks of the next level that must be
	// written before workers expand them during the last segment of a
	// level.
	levelAhead = 8
	// levelSplit is the number of segments levelChunkFor gives a level
	// where it can, with chunks of at least levelMinChunk states.
	levelSplit    = 4
	levelMinChunk = 16
)

// levelChunkFor is the chunk size for a level of m states: levelChunk,
// or less for a level shorter than levelSplit segments, so that even a
// small level has segments for the workers to expand while the searcher
// takes the one before.
func levelChunkFor(m int32) int32 {
	size := int32(levelChunk)
	for size > levelMinChunk && m < levelSplit*levelSegment*size {
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

// czWorker is a worker's own scratch for expanding collapsed states
// against tables it only reads. What it reads of the searcher's is copied
// in (the tables' headers, the view of the level), so that it never reads
// a cache line the searcher writes.
type czWorker struct {
	c       collapser
	sy      *System
	inPort  []spec.Port
	degree  []uint8
	outEdge [][]int
	kview   []chunk
	v       []uint32
	acts    []slot
	// The chunk's candidates and their fingerprints by worker of phase 3,
	// written here and copied out at the end: appended one by one to the
	// chunk's storage, which the searcher read last on its own core, they
	// cost that core's lines one by one (a fifth of the expansion at
	// n = 12), and one copy moves them at the memory's pace.
	cands []candidate
	fpo   [][]uint64
	chg   []czChange
	// tagged: on the tag set, the worker writes the fingerprints of the
	// states it expands (levelChunkOut.parents).
	tagged  bool
	parents []uint64
	hit     int      // in the view of the level
	_       [64]byte // apart from the next worker's cache lines
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
	wks      []czWorker
	res      levelRes
	crew     crew
	// ahead is set while workers expand the next segment during phase 4
	// (the collapser's guard waits for them before the tables change).
	ahead bool
}

// segment is a run of consecutive states of one level.
type segment struct {
	lo, hi int32 // its states
	size   int32 // states per chunk
	parity int
}

func (sg segment) chunks() int                           { return int((sg.hi - sg.lo + sg.size - 1) / sg.size) }
func (sg segment) first(c int) int32                     { return sg.lo + int32(c)*sg.size }
func (sg segment) last(c int) int32                      { return min(sg.first(c)+sg.size, sg.hi) }
func (lv *levels) chunkOuts(sg segment) []*levelChunkOut { return lv.outs[sg.parity][:sg.chunks()] }

// runLevels runs breadth-first search from the initial state, already
// added and checked, with x.par workers sharing each level.
func (x *searcher) runLevels(r *configResult) taken {
	cs, lv, par := &x.cz, &x.lv, x.par
	for p := range lv.outs {
		if len(lv.outs[p]) != levelSegment || len(lv.outs[p][0].fpo) != par {
			lv.outs[p] = make([]*levelChunkOut, levelSegment)
			for c := range lv.outs[p] {
				lv.outs[p][c] = &levelChunkOut{fpo: make([][]uint64, par)}
			}
		}
		lv.deferred[p] = make([]bool, levelSegment)
	}
	if len(lv.wks) != par {
		lv.wks = make([]czWorker, par)
	}
	for w := range lv.wks {
		lv.wks[w].chg = make([]czChange, 0, cs.c.k+1)
	}
	lr := &lv.res
	*lr = levelRes{p: par, res: make([][]int32, par), cur: make([]int, par), fresh: make([][]uint64, par), num: make([][]int32, par)}
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
		d := x.depthOf(lo)
		size := levelChunkFor(hi - lo)
		if x.opts.chunk > 0 {
			size = int32(x.opts.chunk)
		}
		// The level's records stay where they are while the next level's
		// are written: workers read them from a view (window.view).
		x.kept.expanding(lo)
		x.kept.seal()
		x.kview = x.kept.view(x.kview)
		seg := segment{lo: lo, hi: min(hi, lo+levelSegment*size), size: size, parity: parity}
		if ahead.lo == lo && ahead.hi > lo {
			seg = ahead // expanded while the last level was taken
		} else {
			lv.crew.run(par, x.expandJob(seg))
		}
		for {
			if x.stop(r, max(r.maxDepth, int(d))) {
				return stopped
			}
			if x.memLimit > 0 && x.memBytes() > x.memLimit {
				r.stopped = errMemory
				return stopped
			}
			x.kept.expanding(seg.lo)
			outs, count := x.inOrder(seg, d)
			if x.fps.tagged {
				x.lookUpTags(outs, d)
			} else {
				x.lookUp(outs)
			}
			// Workers expand the next segment of the level while the
			// searcher takes this one.
			next := segment{lo: seg.hi, hi: min(hi, seg.hi+levelSegment*size), size: size, parity: 1 - seg.parity}
			ahead = segment{}
			var job func(w int)
			launch := func(sg segment) {
				ahead, job = sg, x.expandJob(sg)
				lv.crew.launch(par, job)
				lv.ahead, cs.c.guard = true, x.join
			}
			// soon launches, in the last segment of the level, the
			// expansion of the next level's first chunks once they are
			// written (states are numbered in order): the workers read
			// them from a new view, as the searcher writes only past them.
			soon := func() {
				if job != nil || next.lo < hi {
					return
				}
				if written := (x.states() - hi) / size * size; written >= min(levelAhead*size, levelSegment*size) {
					x.kview = x.kept.view(x.kview)
					launch(segment{lo: hi, hi: hi + min(written, levelSegment*size), size: size, parity: next.parity})
				}
			}
			if next.lo < hi {
				launch(next)
			}
			soon()
			if t := x.take(seg, outs, count, d, r, soon); t != goOn {
				return t
			}
			if job != nil && lv.ahead {
				job(par - 1) // the searcher helps
			}
			x.join()
			if !x.fps.tagged { // number
				lv.crew.run(par, func(o int) {
					f := &x.fps.set
					fresh := lr.fresh[o]
					for t, fp := range fresh {
						f.peekAhead(fresh, t)
						f.update(fp, lr.num[o][t])
					}
				})
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

// bytes is what the workers' chunks and the lookups' answers take.
func (lv *levels) bytes() int64 {
	b := int64(0)
	for _, outs := range lv.outs {
		for _, lc := range outs {
			b += int64(cap(lc.out.cands))*24 + int64(cap(lc.out.ncand))*4 + int64(cap(lc.parents))*8
			for _, f := range lc.fpo {
				b += int64(cap(f)) * 8
			}
		}
	}
	for o := range lv.res.res {
		b += int64(cap(lv.res.res[o]))*4 + int64(cap(lv.res.fresh[o]))*8 + int64(cap(lv.res.num[o]))*4
	}
	for w := range lv.wks {
		b += int64(cap(lv.wks[w].cands))*24 + int64(cap(lv.wks[w].parents))*8
		for _, f := range lv.wks[w].fpo {
			b += int64(cap(f)) * 8
		}
	}
	return b
}

// join waits for the workers expanding the next segment, if any: before
// the searcher changes the tables they read (the collapser's guard), or
// before it returns.
func (x *searcher) join() {
	if x.lv.ahead {
		x.lv.crew.wait()
		x.lv.ahead, x.cz.c.guard = false, nil
	}
}

// expandJob is phase 1 of segment sg, for the crew: worker w claims
// chunks and expands them into their storage.
func (x *searcher) expandJob(sg segment) func(w int) {
	cs, lv, par := &x.cz, &x.lv, x.par
	chunks := sg.chunks()
	outs, deferred := lv.outs[sg.parity], lv.deferred[sg.parity]
	for w := range lv.wks {
		wk := &lv.wks[w]
		wk.c, wk.sy, wk.inPort, wk.degree, wk.outEdge, wk.kview = *cs.c, x.sy, cs.inPort, cs.degree, cs.outEdge, x.kview
		wk.tagged = x.fps.tagged
	}
	var cursor atomic.Int32
	return func(w int) {
		wk := &lv.wks[w]
		for {
			c := int(cursor.Add(1)) - 1
			if c >= chunks {
				return
			}
			lc := outs[c]
			lc.out.reset()
			lc.out.res = nil
			deferred[c] = !wk.expand(sg.first(c), sg.last(c), lc, par)
		}
	}
}

// inOrder is phase 2 of segment sg, at depth d: it returns the chunks to
// take, up to the first that fails, and whether take must count their
// steps' uses itself. A segment whose chunks the workers all expanded has
// nothing to run in order but that count, which take does chunk by
// chunk, on candidates it reads anyway, while the workers expand the
// next segment (a pass of its own here kept the other cores idle: 18 ms
// of 300 at n = 12). Its lookups then cover candidates a failing purity
// check cuts off, which take never reaches: they are only put in the
// visited set of a search that stops there.
func (x *searcher) inOrder(sg segment, d int32) ([]*levelChunkOut, bool) {
	cs, lv, par := &x.cz, &x.lv, x.par
	x.opts.counts.segments.Add(1)
	outs := lv.chunkOuts(sg)
	if !slices.Contains(lv.deferred[sg.parity][:len(outs)], true) {
		x.opts.counts.expanded.Add(int64(len(outs)))
		return outs, true
	}
	for c, lc := range outs {
		out := &lc.out
		if lv.deferred[sg.parity][c] {
			x.opts.counts.leftOver.Add(1)
			out.reset()
			lc.parents = lc.parents[:0]
			for i := sg.first(c); i < sg.last(c) && out.err == nil && out.stop == nil; i++ {
				rec := x.kept.get(i)
				if x.fps.tagged {
					lc.parents = append(lc.parents, recPrint(rec))
				}
				cs.expand(i, d, rec, out)
			}
			lc.split(par)
		} else {
			x.opts.counts.expanded.Add(1)
			if cs.countUses(sg.first(c), out) {
				lc.split(par)
			}
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

// take is phase 4 of segment sg, at depth d, whose chunks to take are
// outs, counting their steps' uses first if count; after each chunk it
// calls between.
func (x *searcher) take(sg segment, outs []*levelChunkOut, count bool, d int32, r *configResult, between func()) taken {
	cs := &x.cz
	for c, lc := range outs {
		out := &lc.out
		if count {
			cs.countUses(sg.first(c), out) // a failure cuts out, and takeState reports it
		}
		out.res = &x.lv.res
		stop := out.stop
		out.stop = nil // takeState would stop before the states ahead of it
		k := 0
		for s := range out.ncand {
			i := sg.first(c) + int32(s)
			cs.parent = i
			if t := x.takeState(i, d, s, out, &k, r); t != goOn {
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

// rec is state i's record, from the view of the level (runLevels).
func (wk *czWorker) rec(i int32) []byte {
	if wk.hit >= len(wk.kview) || !wk.kview[wk.hit].holds(i) {
		wk.hit = findIn(wk.kview, i)
	}
	return wk.kview[wk.hit].get(i)
}

// expand appends the successors of states first to end to lc, as
// collapsedStore.expand does but from the tables as they are, without
// counting the steps' uses: it returns false, leaving lc partly written,
// at the first step or channel content the tables lack or the first step
// that sends on a port its process does not have. It only reads what it
// shares, so workers run it at once (runLevels).
func (wk *czWorker) expand(first, end int32, lc *levelChunkOut, p int) bool {
	c, sy := &wk.c, wk.sy
	n, k := c.n, c.k
	if cap(wk.v) < 1+n+k {
		wk.v = make([]uint32, 1+n+k)
	}
	v := wk.v[:1+n+k]
	out := &lc.out
	for o := range lc.fpo {
		lc.fpo[o] = lc.fpo[o][:0]
	}
	// In local variables, stored back at the end (expand says why).
	cands, ncand, acts, parents := wk.cands[:0], out.ncand, wk.acts, wk.parents[:0]
	vw := vecView{c, v}
	for i := first; i < end; i++ {
		rec := wk.rec(i)
		sum := binary.LittleEndian.Uint64(rec)
		if wk.tagged {
			parents = append(parents, sum)
		}
		readVec(rec[8:], v)
		wakeTerm := uint64(0)
		if v[0] != 0 {
			wakeTerm = c.wakeTermFrozen(v[0])
		}
		inFlight := 0
		for e := range k {
			inFlight += int(c.chanLen[v[1+n+e]])
		}
		acts = sy.enabled(spec.Set(v[0]), v[1+n:], &vw, acts[:0])
		for ai := range acts {
			ac := &acts[ai]
			p, e, msg := int(ac.p), int(ac.e), c.msgOf(v, *ac)
			idx, ok := c.stepIdx.get(stepKey(wk.inPort, wk.degree[p], e, msg, v[1+p]))
			if !ok {
				return false
			}
			st := &c.steps[idx]
			if int(st.maxPort) >= len(wk.outEdge[p]) {
				return false
			}
			fp, nw, _, ok := c.next(wk.chg[:0], wk.outEdge[p], true, v, sum, wakeTerm, p, e, msg, st)
			if !ok {
				return false
			}
			wakes, pops := effect(ac.kind, p, e)
			_, after := afterEffect(0, inFlight, wakes, pops, int(st.sendEnd-st.send))
			cands = append(cands, candidate{fp: fp, aux: uint64(idx)<<32 | uint64(msg), k: ac.k, p: uint8(p), e: int16(e),
				same: st.same && !terminal(spec.Set(nw), after)})
		}
		ncand = append(ncand, int32(len(acts)))
	}
	out.cands, out.ncand, wk.acts, wk.cands = append(out.cands, cands...), ncand, acts, cands
	lc.parents, wk.parents = append(lc.parents[:0], parents...), parents
	if len(wk.fpo) != p {
		wk.fpo = make([][]uint64, p)
	}
	for o := range wk.fpo {
		wk.fpo[o] = wk.fpo[o][:0]
	}
	for _, cd := range cands {
		o := fpOwner(cd.fp, p)
		wk.fpo[o] = append(wk.fpo[o], cd.fp)
	}
	for o, f := range wk.fpo {
		lc.fpo[o] = append(lc.fpo[o], f...)
	}
	return true
}

// countUses counts the uses of the steps of the candidates in out, the
// successors of states first, first+1, ... that expandFrozen wrote, and
// runs the purity check where purityDue says, as expand does; a failing
// check cuts out there, as expand stops, and countUses reports it.
func (cs *collapsedStore) countUses(first int32, out *expansion) bool {
	c, every := cs.c, cs.x.sy.purity
	base := 0
	for s, nc := range out.ncand {
		for a := range int(nc) {
			cd := &out.cands[base+a]
			idx := cd.aux >> 32
			runs := countUse(&c.uses[idx], every)
			if runs == 0 {
				continue
			}
			cs.load(first + int32(s))
			p, e, msg := int(cd.p), int(cd.e), uint32(cd.aux)
			if err := cs.checkPurity(cs.v, p, e, msg, uint32(idx), runs); err != nil {
				out.cands, out.ncand = out.cands[:base+a], out.ncand[:s]
				out.fail(a, err, cs.action(p, e, msg))
				return true
			}
		}
		base += int(nc)
	}
	return false
}

// crew is n goroutines that run a job with the searcher between a
// segment's phases. They wait for the next one spinning a little first:
// phases are a fraction of a millisecond apart, and waking a parked
// thread takes tens of microseconds.
type crew struct {
	jobs     []chan func(w int)
	done     atomic.Int32
	want     int32 // how many were launched
	mu       sync.Mutex
	panicked []any
}

// start starts the crew's n goroutines.
func (cr *crew) start(n int) {
	cr.jobs = make([]chan func(w int), n)
	for w := range n {
		ch := make(chan func(w int), 1)
		cr.jobs[w] = ch
		go func() {
			for {
				var job func(int)
				for spin := 0; job == nil; spin++ {
					if spin < 2000 {
						select {
						case job = <-ch:
						default:
							runtime.Gosched()
							continue
						}
					} else {
						job = <-ch
					}
					if job == nil { // closed
						return
					}
				}
				cr.do(job, w)
			}
		}()
	}
}

// do runs job(w), keeping a panic for wait to raise on the searcher's
// goroutine, where it becomes the configuration's internal error.
func (cr *crew) do(job func(int), w int) {
	defer func() {
		if p := recover(); p != nil {
			cr.mu.Lock()
			cr.panicked = append(cr.panicked, p)
			cr.mu.Unlock()
		}
		cr.done.Add(1)
	}()
	job(w)
}

// run runs f(0), ..., f(k-1) at once, f(k-1) on the calling goroutine, and
// returns when all have.
func (cr *crew) run(k int, f func(w int)) {
	cr.launch(k, f)
	defer cr.wait() // even if f panics: the others must be done before the crew is used again
	f(k - 1)
}

// launch starts f(0), ..., f(k-2) on the crew; wait waits for them.
func (cr *crew) launch(k int, f func(w int)) {
	cr.done.Store(0)
	cr.want = int32(k - 1)
	for w := range k - 1 {
		cr.jobs[w] <- f
	}
}

func (cr *crew) wait() {
	for cr.done.Load() != cr.want {
		runtime.Gosched()
	}
	if len(cr.panicked) > 0 {
		p := cr.panicked[0]
		cr.panicked = nil
		panic(p)
	}
}

// stop ends the crew's goroutines.
func (cr *crew) stop() {
	for _, ch := range cr.jobs {
		close(ch)
	}
	cr.jobs = nil
}
