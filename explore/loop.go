package explore

import (
	"github.com/elcheck/elcheck/spec"
)

// The search loop in memory: a state is taken from the frontier (the
// next index breadth-first, the stack depth-first), its store expands it
// into successors, and takeState takes them one by one: count the
// transition, insert into the visited set, record the edge, handle a
// duplicate, spend the budget, check the new state. The sequential search
// expands one state at a time; the level driver (levels.go) has workers
// expand chunks of a level ahead and takes them with the same takeState.
// The disk search (disk.go) and the state cache (cache.go) still have loops
// of their own (docs/architecture.md, "Not yet one").

// store keeps the states of one search in a representation of its own and
// expands them. It is where the byte encodings (byteStore) and the
// collapsed vectors (collapsedStore) differ; the semantics are System's.
type store interface {
	// begin prepares for sy's configuration and returns the initial
	// state's record and fingerprint, and the initial state.
	begin(sy *System) (rec []byte, fp uint64, init State)
	// expand appends to out the successors of state i, at depth d, whose
	// record is rec, in the order of its enabled actions, stopping at the
	// first step that fails (out.err).
	expand(i, d int32, rec []byte, out *expansion)
	// view decodes what the properties read of a record: the wake-ups
	// (and clocks, if the states carry them) into s, the messages in
	// flight, and the processes' decisions, appended to decs.
	view(rec []byte, s *State, decs []spec.Decision) (int, []spec.Decision)
	// encoding returns the canonical encoding (State.Encode) of a record,
	// valid until the next call.
	encoding(rec []byte) []byte
	// print is the visited-set fingerprint of the state encoded as enc.
	print(enc []byte) uint64
	// key is the exact visited set's key (Options.Exact) of the state
	// encoded as enc, and recKey that of a record.
	key(enc []byte) []byte
	recKey(rec []byte) []byte
	// keep adds the record of out's c-th candidate, a new state and a
	// successor of state i, to w and returns it: a store may write only
	// new states' records.
	keep(w *window, i int32, out *expansion, c int) []byte
	// uniform runs the uniformity self-check on the state of a record.
	uniform(rec []byte) bool
	// bytes is what the store's own tables hold.
	bytes() int64
	// workers are the store's for the level driver (levels.go).
	workers() levelWorkers
}

// expansion is the successors of one or more states, as a store's expand
// (or a worker, levels.go) writes them.
type expansion struct {
	buf   []byte      // the successors' records, back to back
	cands []candidate // in state order, then action order
	// keys, if set, are the candidates' exact keys (Options.Exact) as
	// spans of buf; else a candidate's record is its key (byte store).
	keys    []uint64
	ncand   []int32 // per state, its number of candidates
	weights []int64 // per candidate, its sends' costs (Options.Costs)
	// err is the first failed step, if any: candidates stop there.
	err    *StepError
	errAct Action
	// stop, if set, ends the search (a store's own limit).
	stop error
	// res, if set, is what workers found of the candidates in the
	// visited set (levels.go).
	res *levelRes
}

// candidate is one successor.
type candidate struct {
	fp uint64 // its fingerprint
	// aux is the store's own: where its record is in buf (byteStore), or
	// its step and message (collapsedStore), for keep.
	aux  uint64
	k    int32 // the action's number in the state's enabled list
	same bool  // it has its parent's decisions and is not terminal
	// p and e are the action's process and channel (-1: a wake-up), for
	// the collapsed store's keep; they fill the candidate's padding.
	p uint8
	e int16
}

// span is the part of buf a candidate's aux names (byteStore).
func (cd *candidate) span(buf []byte) []byte { return buf[cd.aux>>32 : uint32(cd.aux)] }

// reset empties the expansion, keeping its storage.
func (out *expansion) reset() {
	out.buf, out.cands, out.ncand, out.weights, out.keys = out.buf[:0], out.cands[:0], out.ncand[:0], out.weights[:0], out.keys[:0]
	out.err, out.stop = nil, nil
}

// key is candidate c's exact key (Options.Exact).
func (out *expansion) key(c int) []byte {
	if len(out.keys) > 0 {
		k := out.keys[c]
		return out.buf[k>>32 : uint32(k)]
	}
	return out.cands[c].span(out.buf)
}

// add appends the candidate whose record was appended to buf from off.
func (out *expansion) add(off int, fp uint64, k int, same bool) {
	out.cands = append(out.cands, candidate{fp: fp, aux: uint64(off)<<32 | uint64(len(out.buf)), k: int32(k), same: same})
}

// fail ends the expansion of the current state, of which n successors
// were added, at the failed step of action a.
func (out *expansion) fail(n int, err *StepError, a Action) {
	out.err, out.errAct = err, a
	out.ncand = append(out.ncand, int32(n))
}

// addWeights appends the costs of a step's sends.
func (out *expansion) addWeights(costs []Cost, sends []spec.Send) {
	for _, c := range costs {
		w := int64(0)
		for _, snd := range sends {
			w += c.Of(snd.Msg)
		}
		out.weights = append(out.weights, w)
	}
}

// explore runs the search the searcher was reset for. It returns false if
// it gave up because the graph is not layered and no edges are recorded.
func (x *searcher) explore(r *configResult) bool {
	rec, fp, init := x.st.begin(x.sy)
	if x.plainCheck {
		x.plainSeen.reset()
		x.plainSeen.put(x.cz.plainPrint(fp, x.cz.v), 0)
	}
	if x.fps.tagged {
		x.fps.tags.begin(fp)
	} else {
		x.seen.put(x.st.recKey(rec), fp, 0)
	}
	x.kept.add(rec)
	x.record(-1, 0, 0)
	r.states = 1
	x.init0 = init // in the searcher, not on the heap once per configuration
	if v := x.check(0, &x.init0, r); v != nil {
		r.violation = v
		return true
	}
	if x.plan.parallel {
		switch x.runLevels(r) {
		case stopped:
			return true
		case unlayered:
			return false
		}
	} else {
		x.stack = append(x.stack[:0], 0)
		out := &x.exp
		for next := int32(0); ; {
			var i int32
			if !x.bfs {
				if len(x.stack) == 0 {
					break
				}
				i, x.stack = x.stack[len(x.stack)-1], x.stack[:len(x.stack)-1]
			} else {
				if next == x.states() {
					break
				}
				i, next = next, next+1
				x.kept.expanding(i)
			}
			if x.interrupted(i, r) {
				return true
			}
			d := x.depthOf(i)
			out.reset()
			rec := x.kept.get(i)
			if x.fps.tagged {
				x.fps.tags.expandedLater(recPrint(rec), d)
			}
			x.st.expand(i, d, rec, out)
			if d >= x.depthLimit {
				x.atLimit(i, d, out, r)
				continue
			}
			c := 0
			switch x.takeState(i, d, 0, out, &c, r) {
			case stopped:
				return true
			case unlayered:
				return false
			}
		}
	}
	if !x.keepStates {
		x.kept.trim()
	}
	x.analyse(r)
	return true
}

// atLimit ends the search's path at state i, at the depth limit d
// (searcher.depthLimit), whose successors out holds: none of them is
// taken. A state with successors (or a failed step) marks the search cut
// short there; one without is terminal, as in a search without a limit.
// Its block of edges stays empty, so the analyses of a cut graph
// (analyse) see a graph without the states beyond the limit.
func (x *searcher) atLimit(i, d int32, out *expansion, r *configResult) {
	if len(out.cands) > 0 || out.err != nil {
		r.cut = true
	} else {
		x.terminalAt(i, d)
	}
	if !x.noEdges {
		x.beginEdges(i)
		x.endEdges(i)
	}
}

// notLayered is what takeState does when it finds the graph, or without
// clocks its projection, not layered (search).
func (x *searcher) notLayered(r *configResult) taken {
	if x.plainCheck {
		r.stopped = errClocksUnbounded
		return stopped
	}
	return unlayered
}

// plainLayered notes the state keep just wrote, at depth d, by its
// fingerprint sum fp without its clocks' terms, and reports whether that
// projection has been met at no other depth (search).
func (x *searcher) plainLayered(fp uint64, d int32) bool {
	at, seen := x.plainSeen.put(x.cz.plainPrint(fp, x.cz.w), d)
	return !seen || at == d
}

// taken is what takeState did with a state's successors.
type taken uint8

const (
	goOn      taken = iota
	stopped         // a violation or a stop, in the result
	unlayered       // an edge breaks the layering and no edges are recorded
)

// takeState takes the successors of state i, at depth d, the s-th state
// of out, whose candidates start at out.cands[*c].
func (x *searcher) takeState(i, d int32, s int, out *expansion, c *int, r *configResult) taken {
	if out.stop != nil {
		r.stopped = out.stop
		return stopped
	}
	failed := s == len(out.ncand)-1 && out.err != nil
	if out.ncand[s] == 0 && !failed {
		x.terminalAt(i, d)
	}
	if !x.noEdges {
		x.beginEdges(i)
	}
	noEdges, costs, fps := x.noEdges, x.costs, x.seen == &x.fps
	tagged := fps && x.fps.tagged
	for range out.ncand[s] {
		ci := *c
		cd := &out.cands[ci]
		if costs > 0 {
			for _, w := range out.weights[ci*costs : (ci+1)*costs] {
				x.weights.push(w)
			}
		}
		*c++
		r.transitions++
		var j int32
		var seen, other bool
		switch {
		case out.res != nil: // looked up by the workers (levels.go)
			if tagged {
				j = x.states()
				seen, other = out.res.nextTag(cd.fp)
			} else {
				j, seen = out.res.next(cd.fp, x.states())
			}
		case fps: // the usual set, called directly: this is the hot path
			if tagged {
				j = x.states()
				seen, other = x.fps.tags.put(cd.fp, d+1)
			} else {
				j, seen = x.fps.set.put(cd.fp, x.states())
			}
		default:
			j, seen = x.seen.put(out.key(ci), cd.fp, x.states())
		}
		if !noEdges {
			x.addEdge(j)
		}
		if seen {
			if !tagged {
				x.noteDuplicate(j, d)
			} else if other {
				x.layered = false // as noteDuplicate
			}
			if !x.layered && (noEdges || x.plainCheck) {
				return x.notLayered(r)
			}
			continue
		}
		rec := x.st.keep(&x.kept, i, out, ci)
		if x.plainCheck && !x.plainLayered(cd.fp, d+1) {
			return x.notLayered(r)
		}
		if x.admit(j, i, cd.k, d+1, rec, cd.same, r) {
			return stopped
		}
		if !x.bfs {
			x.stack = append(x.stack, j)
		}
	}
	if failed {
		r.violation = x.found(out.err.Property, out.err.Detail, i, out.errAct)
		return stopped
	}
	if !x.noEdges {
		x.endEdges(i)
	}
	return goOn
}

// admit takes new state j, at depth d, reached from parent by its k-th
// enabled action, whose record is rec and which is like its parent or not
// (same, checkNew): it records it, counts it, spends the budget and
// checks it. It reports whether the search stops there (r says why). The
// loop (takeState) and the disk search (disk.go) take new states here.
func (x *searcher) admit(j, parent, k, d int32, rec []byte, same bool, r *configResult) bool {
	x.record(parent, int(k), d)
	r.states++
	r.maxDepth = max(r.maxDepth, int(d))
	if *x.budget--; *x.budget < 0 {
		r.stopped = errStateLimit
		return true
	}
	if v := x.checkNew(j, rec, same, r); v != nil {
		r.violation = v
		return true
	}
	return false
}
