package explore

import (
	"sync"
	"sync/atomic"

	"github.com/elcheck/elcheck/spec"
)

// Parallel breadth-first search of one configuration, for a configuration
// too large to leave the other cores idle (Check gives a searcher several
// workers when there are fewer configurations than workers). It is level
// synchronous: the states of one level are cut into chunks, workers expand
// chunks (decode, steps, successors' encodings and fingerprints: the bulk
// of the work) into candidate lists, and the searcher takes the candidates
// chunk by chunk, in order, exactly as the sequential search takes
// successors: it inserts them, numbers the new states and checks them. So
// every count, verdict and trace is the sequential search's. Workers read
// only the level being expanded; the searcher writes the next level into
// other chunks, and recycles a chunk of this level only once every state
// in it is expanded. On a machine whose two vCPUs share a core, two
// workers give about 1.5 to 1.9 times one worker's speed.

// parChunk is the number of states in a chunk (tests use smaller ones).
const parChunk = 128

// expansion is what a worker made of one chunk.
type expansion struct {
	buf   []byte      // the successors' encodings, back to back
	cands []candidate // in state order, then action order
	ncand []int32     // per state of the chunk, its number of candidates
	// err is the first failed step of the chunk, if any: candidates stop
	// there.
	err    *StepError
	errAct Action
	ready  chan struct{}
}

// candidate is one successor of a state of the chunk.
type candidate struct {
	off, end int32 // its encoding in buf
	fp       uint64
	k        int32 // the action's number in the state's enabled list
	same     bool  // the state has its parent's decisions and is not terminal
}

// expander is a worker's private storage: its own copy of the transition
// system (the outbox and the step memo are per worker) and scratch.
type expander struct {
	sy   System
	memo stepMemo
	sc   scratch
	cur  State
	msgs []spec.Message
	lay  layout
	acts []Action
	hit  int // the chunk of x.kview that held the last state expanded
}

// runParallel runs breadth-first search from the initial state, already
// added and checked, with x.par workers. It reports whether the search
// ended early (a violation or a stop, in r); otherwise the graph is
// complete.
func (x *searcher) runParallel(sy *System, r *configResult) bool {
	window := 4 * x.par // chunks expanded ahead of the searcher
	size := int32(parChunk)
	if x.opts.chunk > 0 {
		size = int32(x.opts.chunk)
	}
	for len(x.exps) < x.par {
		x.exps = append(x.exps, &expander{})
	}
	for len(x.ring) < window {
		x.ring = append(x.ring, &expansion{ready: make(chan struct{}, 1)})
	}
	for lo := int32(0); lo < x.states(); {
		hi := x.states()
		x.kept.expanding(lo)
		x.kept.seal() // the next level goes to chunks the workers do not read
		x.kview = x.kept.view(x.kview)
		if err := x.ctx.Err(); err != nil {
			r.stopped = err
			return true
		}
		if x.progress != nil {
			x.progress(r.states, r.maxDepth)
		}
		d := x.depthOf(lo)
		chunks := int((hi - lo + size - 1) / size)
		tokens := make(chan struct{}, window)
		for range window {
			tokens <- struct{}{}
		}
		var cursor atomic.Int32
		// claim expands the next chunk nobody has taken, if any.
		claim := func(e *expander) bool {
			c := int(cursor.Add(1)) - 1
			if c >= chunks {
				return false
			}
			first := lo + int32(c)*size
			out := x.ring[c%window]
			e.expandChunk(x, first, min(first+size, hi), out)
			out.ready <- struct{}{}
			return true
		}
		for _, e := range x.exps[:x.par] {
			e.sy = *sy
			e.sy.out = spec.Outbox{}
			e.sy.memo = &e.memo
			e.hit = 0
		}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		// par-1 workers; the searcher is the last, expanding chunks itself
		// while the one it needs next is not ready.
		for _, e := range x.exps[:x.par-1] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-tokens:
					case <-stop:
						return
					}
					if !claim(e) {
						return
					}
				}
			}()
		}
		self := x.exps[x.par-1]
		ended := false
		for c := 0; c < chunks && !ended; c++ {
			if c&63 == 63 { // a level can be long: answer Ctrl-C and report progress within it
				if err := x.ctx.Err(); err != nil {
					r.stopped, ended = err, true
					break
				}
				if x.progress != nil {
					x.progress(r.states, r.maxDepth)
				}
			}
			out := x.ring[c%window]
			for waiting := true; waiting; {
				select {
				case <-out.ready:
					waiting = false
					continue
				default:
				}
				select {
				case <-tokens:
					if !claim(self) {
						tokens <- struct{}{}
						<-out.ready
						waiting = false
					}
				default: // the window is full, chunk c among it
					<-out.ready
					waiting = false
				}
			}
			first := lo + int32(c)*size
			x.kept.expanding(first) // chunks before it are free for the next level
			ended = x.takeChunk(first, min(first+size, hi), d, out, r)
			tokens <- struct{}{}
		}
		close(stop)
		wg.Wait()
		for _, out := range x.ring { // a chunk expanded past the end
			select {
			case <-out.ready:
			default:
			}
		}
		if ended {
			return true
		}
		lo = hi
	}
	return false
}

// expandChunk expands states first to end into out.
func (e *expander) expandChunk(x *searcher, first, end int32, out *expansion) {
	sy := &e.sy
	out.buf, out.cands, out.ncand, out.err = out.buf[:0], out.cands[:0], out.ncand[:0], nil
	n, k := sy.N(), len(sy.Config.Topology.Edges)
	for i := first; i < end; i++ {
		if !x.kview[e.hit].holds(i) {
			e.hit = findIn(x.kview, i)
		}
		p := x.kview[e.hit].get(i)
		e.lay.headsOnly = sy.splices()
		e.msgs = decodeInto(&e.cur, e.msgs, p, n, k, &e.lay)
		e.acts = sy.Enabled(&e.cur, e.acts[:0])
		inFlight := e.lay.inFlight()
		for ai, a := range e.acts {
			off := int32(len(out.buf))
			var err *StepError
			same := false
			if sy.splices() {
				out.buf, err = sy.spliceStep(out.buf, &e.sc, p, &e.lay, &e.cur, a)
				same = err == nil && sy.sameAsParent(&e.cur, inFlight, a, e.sc.same, len(e.sc.outs))
			} else { // bag channels: build the successor and encode it
				var t State
				if t, _, err = sy.applyInto(&e.cur, a, &e.sc); err == nil {
					out.buf = t.Encode(out.buf)
				}
			}
			if err != nil {
				out.buf = out.buf[:off]
				out.err, out.errAct = err, a
				out.ncand = append(out.ncand, int32(ai))
				return
			}
			out.cands = append(out.cands, candidate{off: off, end: int32(len(out.buf)),
				fp: fingerprint(out.buf[off:]), k: int32(ai), same: same})
		}
		out.ncand = append(out.ncand, int32(len(e.acts)))
	}
}

// takeChunk takes the candidates of states first to end (at depth d) as
// the sequential search takes successors; it reports whether the search
// ended (a violation or a stop, in r).
func (x *searcher) takeChunk(first, end, d int32, out *expansion, r *configResult) bool {
	if x.memLimit > 0 && x.memBytes() > x.memLimit {
		r.stopped = errMemory
		return true
	}
	c := 0
	for s, i := 0, first; i < end; s, i = s+1, i+1 {
		if s == len(out.ncand) {
			break // past a failed step
		}
		x.beginEdges(i)
		for range out.ncand[s] {
			cd := out.cands[c]
			c++
			r.transitions++
			enc := out.buf[cd.off:cd.end]
			j, fresh := x.addFingerprinted(enc, cd.fp, i, int(cd.k), d+1)
			x.addEdge(j)
			if !fresh {
				x.noteDuplicate(j, d)
				continue
			}
			r.states++
			r.maxDepth = max(r.maxDepth, int(d)+1)
			if *x.budget--; *x.budget < 0 {
				r.stopped = errStateLimit
				return true
			}
			if v := x.checkNew(j, enc, cd.same, r); v != nil {
				r.violation = v
				return true
			}
		}
		if s == len(out.ncand)-1 && out.err != nil {
			r.violation = x.found(out.err.Property, out.err.Detail, i, out.errAct)
			return true
		}
		x.endEdges(i)
	}
	return false
}
