package explore

import (
	"encoding/binary"

	"github.com/elcheck/elcheck/spec"
)

// How each store's workers expand a chunk of a level at once
// (levelWorkers, for the level driver: levels.go) without writing
// anything they share.

// czWorkers are the collapsed store's workers: they expand states against
// the collapser's tables as they are, leave a chunk that needs what the
// tables lack to the searcher, and look their candidates up in the
// visited set themselves. The searcher counts the steps' uses in order.
type czWorkers struct {
	cs  *collapsedStore
	wks []czWorker
}

func (cs *collapsedStore) workers() levelWorkers {
	cs.wks.cs = cs
	return &cs.wks
}

func (cw *czWorkers) ready(par int) {
	cs := cw.cs
	x := cs.x
	if len(cw.wks) != par {
		cw.wks = make([]czWorker, par)
	}
	for w := range cw.wks {
		wk := &cw.wks[w]
		if cap(wk.chg) < cs.c.k+1 {
			wk.chg = make([]czChange, 0, cs.c.k+1)
		}
		wk.c, wk.sy, wk.inPort, wk.degree, wk.outEdge, wk.kview = *cs.c, x.sy, cs.inPort, cs.degree, cs.outEdge, x.kview
		wk.tagged = x.fps.tagged
	}
}

func (cw *czWorkers) expand(w int, first, end, _ int32, lc *levelChunkOut) bool {
	return cw.wks[w].expand(first, end, lc, len(cw.wks))
}

func (cw *czWorkers) inOrder(first int32, out *expansion) bool { return cw.cs.countUses(first, out) }
func (cw *czWorkers) lookUp() bool                             { return true }

// shape: two segments' chunks are kept (one expanded while the other is
// taken), each page of them a fault when first touched: at n = 12, 16
// chunks of 256 states took 3 MiB more than 4 do, and 64 5 MiB more than
// 16, for no more speed; 2 were slower by a tenth.
func (cw *czWorkers) shape() levelShape { return levelShape{chunk: 256, chunks: 4} }

// frozen sets the collapser's guard: it calls wait before the tables
// change.
func (cw *czWorkers) frozen(wait func()) { cw.cs.c.guard = wait }

func (cw *czWorkers) bytes() int64 {
	b := int64(0)
	for w := range cw.wks {
		b += int64(cap(cw.wks[w].cands))*24 + int64(cap(cw.wks[w].parents))*8
		for _, f := range cw.wks[w].fpo {
			b += int64(cap(f)) * 8
		}
	}
	return b
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
	levelView
	v    []uint32
	acts []slot
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
	_       [64]byte // apart from the next worker's cache lines
}

// expand appends the successors of states first to end to lc, as
// collapsedStore.expand does but from the tables as they are, without
// counting the steps' uses: it returns false, leaving lc partly written,
// at the first step or channel content the tables lack or the first step
// that sends on a port its process does not have. It only reads what it
// shares, so workers run it at once (levels.go).
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
// successors of states first, first+1, ... that a worker wrote, and
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

// byteWorkers are the byte store's workers: each expands states with its
// own expander and copy of the system (the outbox and the step memo are
// per worker), so a chunk is never left over, and takeState looks the
// candidates up, as in the sequential search.
type byteWorkers struct {
	b   *byteStore
	wks []byteWorker
}

// byteWorker is one worker's expander and view of the level.
type byteWorker struct {
	levelView
	e expander
	_ [64]byte // apart from the next worker's cache lines
}

func (b *byteStore) workers() levelWorkers {
	b.wks.b = b
	return &b.wks
}

func (bw *byteWorkers) ready(par int) {
	x := bw.b.x
	if len(bw.wks) != par {
		bw.wks = make([]byteWorker, par)
	}
	for w := range bw.wks {
		wk := &bw.wks[w]
		e := &wk.e
		e.own = *x.sy
		e.own.out = spec.Outbox{}
		e.own.memo = &e.memo
		e.sy, wk.kview = &e.own, x.kview
	}
}

func (bw *byteWorkers) expand(w int, first, end, d int32, lc *levelChunkOut) bool {
	wk, out := &bw.wks[w], &lc.out
	for i := first; i < end && out.err == nil; i++ {
		wk.e.expand(bw.b.x, d, wk.rec(i), out)
	}
	return true
}

func (bw *byteWorkers) inOrder(int32, *expansion) bool { return false }
func (bw *byteWorkers) lookUp() bool                   { return false }
func (bw *byteWorkers) frozen(func())                  {}
func (bw *byteWorkers) bytes() int64                   { return 0 }

// shape: a byte state costs several times a collapsed one to expand, so
// chunks are smaller and segments hold more of them: the searcher waits
// at a segment's end for the chunk a worker is still expanding.
func (bw *byteWorkers) shape() levelShape { return levelShape{chunk: 64, chunks: 16} }
