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

// runParallel runs breadth-first search from the initial state, already
// added and checked, with x.par workers. It reports whether the search
// ended early (a violation or a stop, in r); otherwise the graph is
// complete.
func (x *searcher) runParallel(r *configResult) bool {
	sy := x.sy
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
		if x.stop(r, r.maxDepth) {
			return true
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
			e.expandChunk(x, first, min(first+size, hi), d, out)
			out.ready <- struct{}{}
			return true
		}
		for _, e := range x.exps[:x.par] {
			e.own = *sy
			e.own.out = spec.Outbox{}
			e.own.memo = &e.memo
			e.sy, e.hit = &e.own, 0
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
			// A level can be long: answer Ctrl-C and report progress within it.
			if c&63 == 63 && x.stop(r, r.maxDepth) {
				ended = true
				break
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

// expandChunk expands states first to end, at depth d, into out.
func (e *expander) expandChunk(x *searcher, first, end, d int32, out *expansion) {
	out.reset()
	for i := first; i < end && out.err == nil; i++ {
		if !x.kview[e.hit].holds(i) {
			e.hit = findIn(x.kview, i)
		}
		e.expand(x, d, x.kview[e.hit].get(i), out)
	}
}

// takeChunk takes the successors of states first to end, at depth d, as
// the sequential search takes them; it reports whether the search ended
// (a violation or a stop, in r).
func (x *searcher) takeChunk(first, end, d int32, out *expansion, r *configResult) bool {
	if x.memLimit > 0 && x.memBytes() > x.memLimit {
		r.stopped = errMemory
		return true
	}
	c := 0
	for s, i := 0, first; i < end && s < len(out.ncand); s, i = s+1, i+1 {
		if x.takeState(i, d, s, out, &c, r) != goOn {
			return true
		}
	}
	return false
}
