package explore

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
)

// Breadth-first search with its visited set, its frontier and its states'
// parents on disk, for a configuration whose search in memory outgrows
// Options.Memory: the delayed duplicate detection of U. Stern and D. L.
// Dill, "Using magnetic disk instead of main memory in the Murφ verifier"
// (CAV 1998), which TLC's disk-backed fingerprint set and state queue
// follow. The successors of a level are collected in a batch in memory
// (deduplicated there); when the batch is full or the level ends, it is
// sorted and merged against the sorted files of the states found before,
// and what is left is new: numbered in the order the sequential search
// would number it, checked in that order, appended to the next level's
// file, and merged into the sorted file. Memory holds the batch, the
// store's tables and a few buffers, whatever the number of states; the
// files are read and written sequentially (the operating system's page
// cache, not the process, holds them).
//
// Counts, verdicts and traces are the in-memory search's: states are
// numbered and checked in the same order, and a trace is rebuilt from the
// parents on disk. A layered graph (every edge from one depth to the
// next: DKR's, and most protocols') needs no edges for the analyses after
// the search; a search without edges that finds an edge to an earlier
// level gives up, and the configuration is searched again with its edges
// written to a file as well (diskedges.go).

// errUnlayered stops a disk search that met an edge to an earlier level.
var errUnlayered = errors.New("the graph is not layered")

// DiskError stops a search whose files could not be written or read (a
// full disk, say): the search is incomplete.
type DiskError struct{ Err error }

func (e *DiskError) Error() string { return "searching on disk: " + e.Err.Error() }
func (e *DiskError) Unwrap() error { return e.Err }

// diskSparse is the number of entries of a sorted file per entry of its
// index in memory.
const diskSparse = 256

// diskEntBytes is what one entry of the batch costs in memory, its record
// aside: the entry, two slots of the table and its place in the sort.
const diskEntBytes = 32 + 8 + 4

// diskEnt is one successor in the batch.
type diskEnt struct {
	fp       uint64
	parent   int32
	k        int32  // the action's number in the parent's enabled list
	off, end uint32 // its record in the batch's recs
	idx      int32  // its state number once numbered (diskNew before, oldRef(j) if found before as j)
	same     bool   // as candidate.same
}

const (
	diskNew = -1
	diskOld = -2 // and below: found before (oldRef)
)

// oldRef is the idx of an entry found before as state j.
func oldRef(j int32) int32 { return diskOld - j }

// target is the number of the state e is, new or found before.
func (e *diskEnt) target() int32 {
	if e.idx >= 0 {
		return e.idx
	}
	return diskOld - e.idx
}

// diskEdge is an edge found in the batch, from a state to an entry.
type diskEdge struct{ from, ent int32 }

// diskBatch is the successors of a level collected since the last flush:
// each distinct one once, in the order the search found them, with a
// table from fingerprint (and key) to entry.
type diskBatch struct {
	ents  []diskEnt
	recs  []byte
	slots []int32 // entry+1, 0 for empty; open addressing on fp
	mask  uint64
	max   int // entries before a flush
	recs0 int // record bytes before a flush
	// edges, when the search records them: every successor found, as
	// (state, entry), in the order found; emax before a flush.
	edges []diskEdge
	emax  int
}

// sortedRun is a file of states sorted by fingerprint (and key): each
// entry is the fingerprint (8 bytes), the state's number (4) and the key's
// length (a uvarint) and key (Options.Exact; length 0 otherwise).
type sortedRun struct {
	f      *os.File
	n      int64
	size   int64
	sparse []sparseEnt // every diskSparse-th entry's fingerprint and offset
}

type sparseEnt struct {
	fp  uint64
	off int64
}

// parentLog is the parent and action number of every state, in state
// order: 6 bytes each on disk, the latest in memory.
type parentLog struct {
	f       *os.File
	err     error // the first write that failed
	buf     []byte
	flushed int32 // states on disk
	n       int32
}

// diskSearch is the state of one disk search.
type diskSearch struct {
	x     *searcher
	files *diskFiles
	exact bool
	b     diskBatch
	// old are the states of the levels expanded or being expanded, in a
	// few sorted files, each at least twice the size of the next: a level's
	// file is merged into the last only when as large as half of it, so an
	// entry is rewritten a few times, not once per level.
	old []sortedRun
	cur sortedRun // the next level's states found so far
	log parentLog
	// edges, if set, records the edges (a graph that is not layered);
	// backward is set once one goes to an earlier level or the same.
	edges    *edgeFile
	backward bool
	// The level being expanded is read from lvl[d%2], the next written to
	// lvl[(d+1)%2].
	lvl   [2]*os.File
	lw    *bufio.Writer
	lr    *bufio.Reader
	order []int32
	rec   []byte
	// Buffers reused from file to file: two readers (a merge), a small one
	// for look-ups, and a writer.
	rbuf [3][]byte
	wbuf []byte
	err  error
}

// diskable reports whether the configuration of sy can be searched on
// disk once its search in memory is over the budget: breadth-first,
// without costs or clocks (their analyses weigh the edges).
func (x *searcher) diskable(sy *System) bool {
	return x.opts.Search == BFS && len(x.opts.Costs) == 0 && !sy.Clocks && !x.opts.noDisk
}

// runDisk searches sy's configuration breadth-first with its sets on disk
// (see above). Without edges, it reports errUnlayered in r.stopped if the
// graph turns out not to be layered; with them, it records every edge on
// disk and analyses the graph after the search, layered or not.
func (x *searcher) runDisk(sy *System, edges bool) configResult {
	x.reset(sy, plan{collapsed: x.collapsible(sy)})
	r := configResult{minMsg: -1, minTime: -1}
	files, err := x.diskFiles()
	if err != nil {
		r.stopped = &DiskError{err}
		return r
	}
	ds := &diskSearch{x: x, files: files, exact: x.opts.Exact}
	if edges {
		if files.ef.f == nil {
			f, err := files.create()
			if err != nil {
				r.stopped = &DiskError{err}
				return r
			}
			files.ef.f = f
		}
		ds.edges = &files.ef
		ds.edges.reset(ds.edges.f)
	}
	x.seen = &diskSet{ds}
	x.graph.log = &ds.log
	x.cz.keys = true
	defer func() {
		x.graph.log, x.graph.disk = nil, nil
		x.cz.keys = false
		ds.release()
		x.seen = &x.fps
		if !x.keepStates {
			x.kept.trim()
		}
	}()
	ds.plan(x.memLimit)
	if ds.err == nil {
		ds.search(&r)
	}
	if ds.err != nil && r.violation == nil {
		r.stopped = &DiskError{ds.err}
	}
	return r
}

// plan sizes the batch to what limit leaves beside the store's tables and
// the buffers, and opens the files.
func (ds *diskSearch) plan(limit int64) {
	room := limit - ds.x.st.bytes() - 2<<20 // the buffers
	room = max(room, 1<<20)
	if n := ds.x.opts.diskBatch; n > 0 { // tests: flush every n states
		room = int64(n) * (diskEntBytes + 64)
	}
	b := &ds.b
	parts := int64(2)
	if ds.edges != nil {
		parts = 3 // a third for the edges
		b.emax = int(room / 3 / 8)
	}
	b.max = int(room / parts / diskEntBytes)
	b.recs0 = int(room / parts)
	if n := ds.x.opts.diskBatch; n > 0 {
		b.max, b.emax = n, 2*n
	}
	size := 1
	for size < 2*b.max {
		size <<= 1
	}
	// The batch's storage is the searcher's, kept for its next disk
	// search: a sweep may send many configurations to disk.
	df := ds.files
	if len(df.slots) != size || cap(df.ents) < b.max || cap(df.recs) < b.recs0+1<<12 {
		df.slots = make([]int32, size)
		df.ents = make([]diskEnt, 0, b.max)
		df.recs = make([]byte, 0, b.recs0+1<<12)
		df.order = make([]int32, 0, b.max)
	}
	clear(df.slots)
	if ds.edges != nil && cap(df.edges) < b.emax {
		df.edges = make([]diskEdge, 0, b.emax)
	}
	b.slots, b.ents, b.recs, b.edges, ds.order = df.slots, df.ents[:0], df.recs[:0], df.edges[:0], df.order[:0]
	b.mask = uint64(size - 1)
	ds.log.f, ds.lvl = ds.files.parents, ds.files.lvl
	for _, f := range append([]*os.File{ds.log.f}, ds.lvl[:]...) {
		if ds.err = rewind(f); ds.err != nil {
			return
		}
	}
}

// release gives the sorted files back to the searcher's pool.
func (ds *diskSearch) release() {
	for _, run := range append(ds.old, ds.cur) {
		if run.f != nil {
			ds.files.release(run.f)
		}
	}
}

// diskFiles are a searcher's files for disk searches, kept from one
// configuration to the next (creating files costs more than searching a
// small configuration), in a directory of their own under the temporary
// directory, removed when the searcher closes.
type diskFiles struct {
	dir     string
	parents *os.File
	lvl     [2]*os.File
	free    []*os.File // sorted files not in use
	// The batch's storage (diskBatch), kept from search to search.
	slots []int32
	ents  []diskEnt
	recs  []byte
	order []int32
	edges []diskEdge
	// The edge file of a search on a graph that is not layered.
	ef edgeFile
}

// diskFiles returns the searcher's files, creating them the first time.
func (x *searcher) diskFiles() (*diskFiles, error) {
	if x.files != nil {
		return x.files, nil
	}
	dir, err := os.MkdirTemp("", "elcheck-disk-")
	if err != nil {
		return nil, err
	}
	df := &diskFiles{dir: dir}
	if df.parents, err = df.create(); err == nil {
		if df.lvl[0], err = df.create(); err == nil {
			df.lvl[1], err = df.create()
		}
	}
	if err != nil {
		df.close()
		return nil, err
	}
	x.files = df
	return df, nil
}

// create makes a file in the directory.
func (df *diskFiles) create() (*os.File, error) { return os.CreateTemp(df.dir, "f") }

// file returns an empty sorted file from the pool, or a new one.
func (df *diskFiles) file() (*os.File, error) {
	var f *os.File
	if n := len(df.free); n > 0 {
		f, df.free = df.free[n-1], df.free[:n-1]
	} else {
		var err error
		if f, err = df.create(); err != nil {
			return nil, err
		}
	}
	return f, rewind(f)
}

// release returns a sorted file to the pool.
func (df *diskFiles) release(f *os.File) { df.free = append(df.free, f) }

// close closes the files and removes the directory.
func (df *diskFiles) close() {
	for _, f := range append(append(df.free, df.parents, df.ef.f), df.lvl[:]...) {
		if f != nil {
			f.Close()
		}
	}
	os.RemoveAll(df.dir)
}

// search runs the levels, then the analyses of the graph.
func (ds *diskSearch) search(r *configResult) {
	if ds.start(r) {
		return
	}
	x := ds.x
	for d, lo := int32(0), int32(0); lo < x.states() && ds.err == nil; d++ {
		hi := x.states()
		lr, err := ds.turnLevel(d)
		if err != nil {
			ds.err = err
			return
		}
		if ds.expandLevel(d, lo, hi, lr, r) || ds.flush(d, r) {
			return
		}
		ds.settleLevel()
		lo = hi
	}
	if ds.err != nil {
		return
	}
	if ds.edges != nil {
		ds.analyseEdges(r)
		return
	}
	x.analyse(r)
}

// start numbers, records and checks the initial state, and writes it as
// level 0 and as the first sorted file; it reports whether the search
// ended (r says why).
func (ds *diskSearch) start(r *configResult) bool {
	x := ds.x
	rec, fp, init := x.st.begin(x.sy)
	x.kept.add(rec)
	x.record(-1, 0, 0)
	r.states = 1
	if *x.budget--; *x.budget < 0 {
		r.stopped = errStateLimit
		return true
	}
	if v := x.check(0, &init, r); v != nil {
		r.violation = v
		return true
	}
	ds.cur = ds.writeRun(sortedRun{}, 1, func(int) (uint64, int32, []byte) { return fp, 0, ds.keyOf(rec) })
	ds.old, ds.cur = append(ds.old[:0], ds.cur), sortedRun{}
	ds.lw = bufio.NewWriterSize(ds.lvl[0], 1<<18)
	ds.writeLevel(rec)
	return false
}

// turnLevel ends the writing of level d, returns a reader of it from its
// start, and sets the writer to write level d+1 over the file of level
// d-1.
func (ds *diskSearch) turnLevel(d int32) (*bufio.Reader, error) {
	if err := ds.lw.Flush(); err != nil {
		return nil, err
	}
	in := ds.lvl[d%2]
	if _, err := in.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if ds.lr == nil {
		ds.lr = bufio.NewReaderSize(in, 1<<18)
	}
	ds.lr.Reset(in)
	next := ds.lvl[(d+1)%2]
	if err := rewind(next); err != nil {
		return nil, err
	}
	ds.lw.Reset(next)
	return ds.lr, nil
}

// rewind empties f, to be written from its start.
func rewind(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.Seek(0, io.SeekStart)
	return err
}

// expandLevel expands the states lo to hi-1 of level d, read from lr; it
// reports whether the search ended (r says why, or ds.err).
func (ds *diskSearch) expandLevel(d, lo, hi int32, lr *bufio.Reader, r *configResult) bool {
	for i := lo; i < hi; i++ {
		if i&1023 == 0 && ds.x.stop(r, max(r.maxDepth, int(d))) {
			return true
		}
		rec, err := ds.readLevel(lr)
		if err != nil {
			ds.err = err
			return true
		}
		if ds.expand(i, d, rec, r) {
			return true
		}
	}
	return false
}

// expand expands state i of level d, whose record is rec: it puts its
// successors in the batch, flushing the batch when full, or notes it
// terminal; a step that failed is a violation once the successors found
// before it are flushed (numbered and checked, as in memory). It reports
// whether the search ended (r says why).
func (ds *diskSearch) expand(i, d int32, rec []byte, r *configResult) bool {
	x, out := ds.x, &ds.x.exp
	out.reset()
	x.st.expand(i, d, rec, out)
	if out.stop != nil {
		r.stopped = out.stop
		return true
	}
	failed := out.err != nil
	if d >= x.depthLimit { // as atLimit
		if out.ncand[0] > 0 || failed {
			r.cut = true
		} else {
			x.terminalAt(i, d)
		}
		return false
	}
	if out.ncand[0] == 0 && !failed {
		x.terminalAt(i, d)
	}
	for c := range int(out.ncand[0]) {
		r.transitions++
		if ds.add(i, out, c) && ds.flush(d, r) {
			return true
		}
	}
	if !failed {
		return false
	}
	if !ds.flush(d, r) {
		r.violation = x.found(out.err.Property, out.err.Detail, i, out.errAct)
	}
	return true
}

// settleLevel adds the next level's sorted file to the old ones, merging
// each into the one before while at least half its size.
func (ds *diskSearch) settleLevel() {
	ds.old = append(ds.old, ds.cur)
	for k := len(ds.old) - 1; k > 0 && 2*ds.old[k].n >= ds.old[k-1].n; k-- {
		ds.old[k-1] = ds.mergeRuns(ds.old[k-1], ds.old[k])
		ds.old = ds.old[:k]
	}
	ds.cur = sortedRun{}
}

// analyseEdges analyses the graph with its edges on disk: the batch's
// storage is given back first, for the analysis's own (analyses.go's Kahn's
// algorithm keeps 3 bytes per state and a queue).
func (ds *diskSearch) analyseEdges(r *configResult) {
	x, df := ds.x, ds.files
	if ds.err = ds.edges.finish(x.states()); ds.err != nil {
		return
	}
	df.slots, df.ents, df.recs, df.order, df.edges = nil, nil, nil, nil, nil
	ds.b = diskBatch{}
	ds.order = nil
	debug.FreeOSMemory() // the batch's pages, before the analysis takes its own
	x.graph.disk, x.graph.noEdges, x.graph.layered = ds.edges, false, !ds.backward
	x.analyse(r)
}

// add puts candidate c of out, a successor of state i, in the batch
// unless it is there; it reports whether the batch is full.
func (ds *diskSearch) add(i int32, out *expansion, c int) bool {
	b, cd := &ds.b, &out.cands[c]
	off := len(b.recs)
	if ds.x.plan.collapsed {
		b.recs = binary.LittleEndian.AppendUint64(b.recs, cd.fp)
		b.recs = append(b.recs, out.key(c)...)
	} else {
		b.recs = append(b.recs, cd.span(out.buf)...)
	}
	rec := b.recs[off:]
	key := ds.keyOf(rec)
	h := mix(cd.fp) & b.mask
	for ; b.slots[h] != 0; h = (h + 1) & b.mask {
		e := &b.ents[b.slots[h]-1]
		if e.fp == cd.fp && (!ds.exact || bytes.Equal(ds.keyOf(b.recs[e.off:e.end]), key)) {
			b.recs = b.recs[:off] // a successor found before in this level
			if ds.edges != nil {
				b.edges = append(b.edges, diskEdge{i, b.slots[h] - 1})
				return len(b.edges) >= b.emax
			}
			return false
		}
	}
	b.ents = append(b.ents, diskEnt{fp: cd.fp, parent: i, k: cd.k, off: uint32(off), end: uint32(len(b.recs)), idx: diskNew, same: cd.same})
	b.slots[h] = int32(len(b.ents))
	if ds.edges != nil {
		b.edges = append(b.edges, diskEdge{i, int32(len(b.ents) - 1)})
		if len(b.edges) >= b.emax {
			return true
		}
	}
	return len(b.ents) >= b.max || len(b.recs) >= b.recs0
}

// find returns the batch entry of the state with fingerprint fp and key,
// or nil.
func (ds *diskSearch) find(fp uint64, key []byte) *diskEnt {
	b := &ds.b
	if b.slots == nil {
		return nil
	}
	for h := mix(fp) & b.mask; b.slots[h] != 0; h = (h + 1) & b.mask {
		e := &b.ents[b.slots[h]-1]
		if e.fp == fp && (!ds.exact || bytes.Equal(ds.keyOf(b.recs[e.off:e.end]), key)) {
			return e
		}
	}
	return nil
}

// keyOf is the key of a record in the sorted files: nil unless the search
// is exact.
func (ds *diskSearch) keyOf(rec []byte) []byte {
	if !ds.exact {
		return nil
	}
	return ds.x.st.recKey(rec)
}

// flush finds which of the batch's successors (of level d's states) are
// new, numbers and checks them in the order they were found, and merges
// them into the next level's sorted file. It reports whether the search
// ended (r says why).
func (ds *diskSearch) flush(d int32, r *configResult) bool {
	x, b := ds.x, &ds.b
	if len(b.ents) == 0 {
		return ds.err != nil
	}
	order := ds.order[:0]
	for k := range b.ents {
		order = append(order, int32(k))
	}
	slices.SortFunc(order, func(p, q int32) int { return ds.cmpEnts(&b.ents[p], &b.ents[q]) })
	ds.order = order
	for _, run := range ds.old {
		// Without edges, a state found in an earlier level (or this one)
		// ends the search; with them, it is an edge back.
		if ds.scan(run, order, ds.edges == nil) {
			if ds.edges == nil {
				r.stopped = errUnlayered
				return true
			}
			ds.backward = true
		}
	}
	ds.scan(ds.cur, order, false)
	if ds.err != nil {
		return true
	}
	for k := range b.ents {
		e := &b.ents[k]
		if e.idx <= diskOld {
			continue
		}
		j := x.states()
		e.idx = j
		rec := b.recs[e.off:e.end]
		x.kept.add(rec)
		ds.writeLevel(rec)
		x.cz.rec = nil // the record is not the one keep wrote last
		if x.admit(j, e.parent, e.k, d+1, x.kept.get(j), e.same, r) {
			return true
		}
		x.kept.expanding(j)
	}
	if ds.edges != nil {
		for _, e := range b.edges {
			ds.edges.add(e.from, b.ents[e.ent].target())
		}
		b.edges = b.edges[:0]
	}
	kept := order[:0] // the new states, sorted
	for _, k := range order {
		if b.ents[k].idx >= 0 {
			kept = append(kept, k)
		}
	}
	if len(kept) > 0 {
		ds.cur = ds.writeRun(ds.cur, len(kept), func(k int) (uint64, int32, []byte) {
			e := &b.ents[kept[k]]
			return e.fp, e.idx, ds.keyOf(b.recs[e.off:e.end])
		})
	}
	b.ents, b.recs = b.ents[:0], b.recs[:0]
	clear(b.slots)
	if ds.err == nil {
		ds.err = ds.log.err
	}
	return ds.err != nil
}

// cmpEnts orders batch entries by fingerprint, then key.
func (ds *diskSearch) cmpEnts(p, q *diskEnt) int {
	if p.fp != q.fp {
		if p.fp < q.fp {
			return -1
		}
		return 1
	}
	return bytes.Compare(ds.keyOf(ds.b.recs[p.off:p.end]), ds.keyOf(ds.b.recs[q.off:q.end]))
}

// scan merges the batch, in sorted order, against a sorted file: entries
// found there are marked found before (oldRef). It reports whether any
// is; with any, it returns at the first, marking nothing.
func (ds *diskSearch) scan(run sortedRun, order []int32, any bool) (found bool) {
	if run.n == 0 {
		return false
	}
	rr, err := ds.openRun(run, 0, 0)
	if err != nil {
		ds.err = err
		return false
	}
	b := &ds.b
	ok := rr.next()
	for _, k := range order {
		e := &b.ents[k]
		key := ds.keyOf(b.recs[e.off:e.end])
		for ok && cmpRun(rr.fp, rr.key, e.fp, key) < 0 {
			ok = rr.next()
		}
		if !ok {
			break
		}
		if cmpRun(rr.fp, rr.key, e.fp, key) == 0 {
			if any {
				return true
			}
			e.idx, found = oldRef(rr.idx), true
		}
	}
	if rr.err != nil {
		ds.err = rr.err
	}
	return found
}

// cmpRun orders (fingerprint, key) pairs.
func cmpRun(fp1 uint64, k1 []byte, fp2 uint64, k2 []byte) int {
	switch {
	case fp1 < fp2:
		return -1
	case fp1 > fp2:
		return 1
	}
	return bytes.Compare(k1, k2)
}

// writeRun writes the merge of run and n new entries (sorted, none in
// run; at gives the k-th) as a new sorted file and returns it; run's file
// is removed.
func (ds *diskSearch) writeRun(run sortedRun, n int, at func(k int) (uint64, int32, []byte)) sortedRun {
	var rr *runReader
	if run.f != nil {
		defer ds.files.release(run.f)
	}
	if run.n > 0 {
		var err error
		if rr, err = ds.openRun(run, 0, 0); err != nil {
			ds.err = err
			return run
		}
	}
	w, err := ds.createRun()
	if err != nil {
		ds.err = err
		return run
	}
	ok := rr != nil && rr.next()
	for k := range n {
		fp, idx, key := at(k)
		for ok && cmpRun(rr.fp, rr.key, fp, key) < 0 {
			w.put(rr.fp, rr.idx, rr.key)
			ok = rr.next()
		}
		w.put(fp, idx, key)
	}
	for ok {
		w.put(rr.fp, rr.idx, rr.key)
		ok = rr.next()
	}
	if rr != nil && rr.err != nil {
		ds.err = rr.err
	}
	return ds.finish(w)
}

// mergeRuns merges two sorted files into a new one; both are removed.
func (ds *diskSearch) mergeRuns(a, b sortedRun) sortedRun {
	if b.n == 0 {
		if b.f != nil {
			ds.files.release(b.f)
		}
		return a
	}
	ra, err := ds.openRun(a, 0, 0)
	if err != nil {
		ds.err = err
		return a
	}
	rb, err := ds.openRun(b, 0, 1)
	if err != nil {
		ds.err = err
		return a
	}
	defer func() {
		ds.files.release(a.f)
		ds.files.release(b.f)
	}()
	w, err := ds.createRun()
	if err != nil {
		ds.err = err
		return a
	}
	okA, okB := ra.next(), rb.next()
	for okA || okB {
		if !okB || okA && cmpRun(ra.fp, ra.key, rb.fp, rb.key) <= 0 {
			w.put(ra.fp, ra.idx, ra.key)
			okA = ra.next()
		} else {
			w.put(rb.fp, rb.idx, rb.key)
			okB = rb.next()
		}
	}
	for _, rr := range []*runReader{ra, rb} {
		if rr.err != nil {
			ds.err = rr.err
		}
	}
	return ds.finish(w)
}

// runWriter writes a sorted file, through a buffer of its own: entries
// are appended to it, and it goes to the file when full.
type runWriter struct {
	f   *os.File
	run sortedRun
	buf []byte
	err error
}

// diskBuf is the size of the sorted files' read and write buffers.
const diskBuf = 1 << 18

func (ds *diskSearch) createRun() (*runWriter, error) {
	f, err := ds.files.file()
	if err != nil {
		return nil, err
	}
	if ds.wbuf == nil {
		ds.wbuf = make([]byte, 0, diskBuf+64)
	}
	return &runWriter{f: f, run: sortedRun{f: f}, buf: ds.wbuf[:0]}, nil
}

func (w *runWriter) put(fp uint64, idx int32, key []byte) {
	if w.run.n%diskSparse == 0 {
		w.run.sparse = append(w.run.sparse, sparseEnt{fp, w.run.size})
	}
	n := len(w.buf)
	b := binary.LittleEndian.AppendUint64(w.buf, fp)
	b = binary.LittleEndian.AppendUint32(b, uint32(idx))
	b = binary.AppendUvarint(b, uint64(len(key)))
	b = append(b, key...)
	w.run.n++
	w.run.size += int64(len(b) - n)
	if len(b) >= diskBuf {
		b = w.write(b)
	}
	w.buf = b
}

// write sends b to the file and returns it emptied; an error is kept for
// finish.
func (w *runWriter) write(b []byte) []byte {
	if w.err == nil {
		_, w.err = w.f.Write(b)
	}
	return b[:0]
}

// finish writes what w holds and returns its file.
func (ds *diskSearch) finish(w *runWriter) sortedRun {
	w.buf = w.write(w.buf)
	if w.err != nil && ds.err == nil {
		ds.err = w.err
	}
	ds.wbuf = w.buf
	return w.run
}

// runReader reads a sorted file from an offset: blocks go into its
// buffer, and entries are decoded there (a key is valid until the next
// entry).
type runReader struct {
	src  io.Reader
	buf  []byte
	p, n int // the next entry starts at buf[p]; buf[:n] was read
	eof  bool
	fp   uint64
	idx  int32
	key  []byte
	err  error
}

// openRun opens a sorted file at an offset, with the reader buffer of
// slot (0 and 1: large, for merges and scans; 2: small, for look-ups).
func (ds *diskSearch) openRun(run sortedRun, off int64, slot int) (*runReader, error) {
	size := diskBuf
	if slot == 2 {
		size = 1 << 12 // a look-up reads a block or two
	}
	if ds.rbuf[slot] == nil {
		ds.rbuf[slot] = make([]byte, size)
	}
	return &runReader{src: io.NewSectionReader(run.f, off, run.size-off), buf: ds.rbuf[slot]}, nil
}

// fill moves what is left to the front of the buffer and reads more,
// until need bytes are there or the file ends; it reports whether they
// are.
func (rr *runReader) fill(need int) bool {
	left := rr.buf[rr.p:rr.n]
	if need > len(rr.buf) { // a long key
		nb := make([]byte, need)
		rr.n, rr.buf = copy(nb, left), nb
	} else {
		rr.n = copy(rr.buf, left)
	}
	rr.p = 0
	for rr.n < need && !rr.eof {
		k, err := rr.src.Read(rr.buf[rr.n:])
		rr.n += k
		if err == io.EOF {
			rr.eof = true
		} else if err != nil {
			rr.err = fmt.Errorf("reading a sorted file: %w", err)
			return false
		}
	}
	return rr.n >= need
}

// next reads the next entry; false at the end or on an error (err).
func (rr *runReader) next() bool {
	if rr.n-rr.p < 13 && !rr.fill(13+binary.MaxVarintLen64) && (rr.n-rr.p < 13 || rr.err != nil) {
		if rr.n > rr.p && rr.err == nil {
			rr.err = errors.New("reading a sorted file: it ends inside an entry")
		}
		return false
	}
	b := rr.buf[rr.p:rr.n]
	klen, w := binary.Uvarint(b[12:])
	if w <= 0 {
		if !rr.fill(12+binary.MaxVarintLen64) && (rr.n-rr.p < 13 || rr.err != nil) {
			return false
		}
		b = rr.buf[rr.p:rr.n]
		if klen, w = binary.Uvarint(b[12:]); w <= 0 {
			rr.err = errors.New("reading a sorted file: a bad key length")
			return false
		}
	}
	total := 12 + w + int(klen)
	if len(b) < total {
		if !rr.fill(total) {
			if rr.err == nil {
				rr.err = errors.New("reading a sorted file: it ends inside an entry")
			}
			return false
		}
		b = rr.buf[rr.p:rr.n]
	}
	rr.fp = binary.LittleEndian.Uint64(b)
	rr.idx = int32(binary.LittleEndian.Uint32(b[8:]))
	rr.key = b[12+w : total : total]
	rr.p += total
	return true
}

// lookup finds the state with fingerprint fp and key in a sorted file.
func (ds *diskSearch) lookup(run sortedRun, fp uint64, key []byte) (int32, bool) {
	if run.n == 0 {
		return 0, false
	}
	k, _ := slices.BinarySearchFunc(run.sparse, fp, func(s sparseEnt, fp uint64) int {
		switch {
		case s.fp < fp:
			return -1
		case s.fp > fp:
			return 1
		}
		return 0
	})
	off := int64(0)
	if k > 0 { // entry k is the first whose fingerprint is not less than fp
		off = run.sparse[k-1].off
	}
	rr, err := ds.openRun(run, off, 2)
	if err != nil {
		ds.err = err
		return 0, false
	}
	for rr.next() {
		switch c := cmpRun(rr.fp, rr.key, fp, key); {
		case c == 0:
			return rr.idx, true
		case c > 0:
			return 0, false
		}
	}
	if rr.err != nil {
		ds.err = rr.err
	}
	return 0, false
}

// writeLevel appends a record to the next level's file.
func (ds *diskSearch) writeLevel(rec []byte) {
	ds.rec = binary.AppendUvarint(ds.rec[:0], uint64(len(rec)))
	ds.lw.Write(ds.rec)
	ds.lw.Write(rec) // errors are sticky: the level's Flush reports them
}

// readLevel reads the next record of the level being expanded.
func (ds *diskSearch) readLevel(r *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(r)
	if err == nil {
		ds.rec = slices.Grow(ds.rec[:0], int(n))[:n]
		_, err = io.ReadFull(r, ds.rec)
	}
	if err != nil {
		return nil, fmt.Errorf("reading a level's states: %w", err)
	}
	return ds.rec, nil
}

// diskSet is the disk search's visited set for look-ups (replaying a
// trace, the cycle proviso): the batch, then the sorted files. The search
// inserts by batches itself.
type diskSet struct{ ds *diskSearch }

func (s *diskSet) put([]byte, uint64, int32) (int32, bool) {
	panic("explore: the disk search inserts by batches")
}

func (s *diskSet) get(key []byte, fp uint64) (int32, bool) {
	ds := s.ds
	if !ds.exact {
		key = nil
	}
	if e := ds.find(fp, key); e != nil && e.idx >= 0 {
		return e.idx, true
	}
	if j, ok := ds.lookup(ds.cur, fp, key); ok {
		return j, true
	}
	for _, run := range ds.old {
		if j, ok := ds.lookup(run, fp, key); ok {
			return j, true
		}
	}
	return 0, false
}

func (s *diskSet) peek(uint64) {}
func (s *diskSet) bytes() int64 {
	b := &s.ds.b
	return int64(cap(b.ents))*32 + int64(cap(b.recs)) + int64(len(b.slots))*4
}
func (s *diskSet) reset() {}

// push appends state n's parent and action number.
func (l *parentLog) push(parent int32, k uint16) {
	l.buf = binary.LittleEndian.AppendUint32(l.buf, uint32(parent))
	l.buf = binary.LittleEndian.AppendUint16(l.buf, k)
	l.n++
	if len(l.buf) >= 1<<20 {
		l.write()
	}
}

// write moves the records in memory to the file; an error is the
// search's next read's.
func (l *parentLog) write() {
	if l.err != nil {
		return
	}
	if _, l.err = l.f.WriteAt(l.buf, int64(l.flushed)*6); l.err == nil {
		l.flushed, l.buf = l.n, l.buf[:0]
	}
}

// at returns state i's parent and action number.
func (l *parentLog) at(i int32) (int32, uint16) {
	var b []byte
	if i >= l.flushed {
		b = l.buf[(i-l.flushed)*6:]
	} else {
		var rb [6]byte
		if _, err := l.f.ReadAt(rb[:], int64(i)*6); err != nil {
			panic(fmt.Sprintf("reading state %d's parent from disk: %v", i, err))
		}
		b = rb[:]
	}
	return int32(binary.LittleEndian.Uint32(b)), binary.LittleEndian.Uint16(b[4:])
}
