package explore

import "github.com/elcheck/elcheck/spec"

// Partial-order reduction (docs/reduction.md): in a state, only the steps
// of one process are explored when that provably loses nothing elcheck
// checks. The rule is written once, in ampleSet; each store supplies how
// to take a step and whether its result closes a cycle.

// ampleSet returns the enabled actions of the first process p, by
// position, such that
//
//   - no other process can enable or disable an action of p before p
//     moves (C1, ready(p): System.ready);
//   - none of them changes p's decision (C2, invisibility), so every
//     sequence of decision vectors of the full graph is kept;
//   - none of them leads to a state closing a cycle (C3, the cycle
//     proviso): in breadth- and depth-first search with a visited set, a
//     state already found at a depth no greater than the state's own
//     (every cycle has such an edge: searcher.closes), in depth-first
//     search with a state cache, a state on the stack; so every cycle has
//     a fully expanded state;
//
// or acts itself, reporting whether it reduced. procs[i] is the process
// of acts[i]; try(j, a) takes the step of a, the j-th of p's, and reports
// whether it succeeds, keeps p's decision and closes no cycle (C2, C3).
// cand is scratch storage, returned for reuse.
//
// Steps of different processes commute: a step reads and writes only its
// process's local state, pops one of its in-channels and appends to its
// out-channels.
func ampleSet[A any](n int, acts, cand []A, procs []int32, ready func(p int) bool, try func(j int, a A) bool) (chosen, buf []A, reduced bool) {
	for p := range int32(n) {
		cand = cand[:0]
		for i, q := range procs {
			if q == p {
				cand = append(cand, acts[i])
			}
		}
		if len(cand) == 0 {
			continue
		}
		if len(cand) == len(acts) {
			break // p alone is enabled: nothing to reduce
		}
		if !ready(int(p)) {
			continue
		}
		ok := true
		for j, a := range cand {
			if !try(j, a) {
				ok = false
				break
			}
		}
		if ok {
			return cand, cand, true
		}
	}
	return acts, cand, false
}

// ready is the reduction's condition C1 for process p, whose wake-up is
// pending or not, full[e] being 0 iff channel e is empty: the wake-up is
// pending (an initiator's first event, which nothing else can disable), or
// the channels are FIFO and every channel into p holds a message, so
// others only append behind the messages p is offered.
func (sy *System) ready(p int, pending bool, full []uint32) bool {
	if sy.Config.Capacity > 0 {
		// A step may fill a channel and block another process's send:
		// no step is independent of the others, so no reduction.
		return false
	}
	if pending {
		return true
	}
	if sy.Config.Channels != spec.FIFO {
		return false
	}
	for _, e := range sy.inEdges[p] {
		if full[e] == 0 {
			return false
		}
	}
	return true
}

// closes is the cycle proviso's test (C3) with a visited set: the
// successor (its record, or its fingerprint) of a state at depth d was
// found already, at a depth no greater than d.
func (x *searcher) closes(rec []byte, fp uint64, d int32) bool {
	if x.fps.tagged {
		return x.fps.tags.shallower(fp, d)
	}
	j, seen := x.seen.get(rec, fp)
	return seen && x.depthOf(j) <= d
}

// ample is ampleSet for state s of the byte store, with closes as the
// cycle proviso's test of a successor's encoding. A searcher without a
// search under way (the cached driver, tests) calls it.
func (x *searcher) ample(s *State, acts []Action, closes func(enc []byte) bool) []Action {
	return x.ampleWith(&x.bytes.self, s, acts, closes, nil)
}

// splicing is what ampleWith needs to splice successors (System.spliceStep)
// and keep them for the expansion: the parent's encoding, its layout and
// the messages in flight.
type splicing struct {
	penc     []byte
	lay      *layout
	inFlight int
}

// ampleWith is ample with e's scratch; with lean, successors are spliced
// and kept in e.probes, so that the expansion need not take the chosen
// steps again.
func (x *searcher) ampleWith(e *expander, s *State, acts []Action, closes func(enc []byte) bool, ln *splicing) []Action {
	sy := e.sy
	var before spec.Decision
	e.procs, e.full = e.procs[:0], e.full[:0]
	for _, a := range acts {
		e.procs = append(e.procs, int32(a.Proc))
	}
	for _, c := range s.Chans {
		e.full = append(e.full, uint32(len(c)))
	}
	chosen, buf, reduced := ampleSet(sy.N(), acts, e.cand, e.procs,
		func(p int) bool { return sy.ready(p, s.Wake.Has(p), e.full) },
		func(j int, a Action) bool {
			if j == 0 {
				before = sy.Machine.Decision(s.Locals[a.Proc])
				e.abuf, e.probes = e.abuf[:0], e.probes[:0]
			}
			if ln != nil {
				off := len(e.abuf)
				var err *StepError
				e.abuf, err = sy.spliceStep(e.abuf, &e.sc, ln.penc, ln.lay, s, a)
				if err != nil || sy.Machine.Decision(e.sc.local) != before {
					return false
				}
				e.probes = append(e.probes, probe{off, len(e.abuf), sy.sameAsParent(s, ln.inFlight, a, e.sc.same, len(e.sc.sends))})
				return !closes(e.abuf[off:])
			}
			t, _, err := sy.applyInto(s, a, &e.sc)
			if err != nil || sy.Machine.Decision(t.Locals[a.Proc]) != before {
				return false
			}
			e.probe = t.Encode(e.probe[:0])
			return !closes(e.probe)
		})
	e.cand = buf
	if !reduced || ln == nil {
		e.probes = e.probes[:0]
	}
	return chosen
}

// probe is a successor ampleWith spliced: its encoding in expander.abuf,
// and whether it is like its parent (checkNew).
type probe struct {
	off, end int
	same     bool
}
