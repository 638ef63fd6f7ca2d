package explore

import (
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// byteStore keeps each state as its canonical encoding (State.Encode): a
// record is the encoding. It expands a state by decoding it and taking
// System's steps, splicing the successors' encodings from the parent's
// where it can (System.spliceStep).
type byteStore struct {
	x    *searcher
	self expander // the sequential search's
	wks  byteWorkers
	enc  []byte
	msgs []spec.Message
}

// expander expands states of the byte store: a transition system (for a
// worker of the level driver, its own copy, since the outbox and the step
// memo are per worker) and scratch.
type expander struct {
	sy     *System
	own    System // a worker's copy of the system
	memo   stepMemo
	sc     scratch
	cur    State
	msgs   []spec.Message
	lay    layout
	all    []Action // the enabled actions
	cand   []Action // ampleWith's, with the actions' processes and the channels' lengths
	procs  []int32
	full   []uint32
	abuf   []byte // ampleWith's spliced successors
	probes []probe
	probe  []byte
}

func (b *byteStore) begin(sy *System) ([]byte, uint64, State) {
	b.self.sy = sy
	init := sy.Initial()
	b.enc = init.Encode(b.enc[:0])
	return b.enc, b.print(b.enc), init
}

func (b *byteStore) print(enc []byte) uint64 { return fingerprint(enc) }

// key is the state's exact key: its encoding is its record.
func (b *byteStore) key(enc []byte) []byte { return enc }

// recKey is a record's exact key: the record, an encoding.
func (b *byteStore) recKey(rec []byte) []byte { return rec }

func (b *byteStore) expand(_, d int32, rec []byte, out *expansion) { b.self.expand(b.x, d, rec, out) }

func (b *byteStore) view(rec []byte, s *State, decs []spec.Decision) (int, []spec.Decision) {
	sy := b.x.sy
	b.msgs = sy.decodeInto(s, b.msgs, rec, nil) // clocks too: a final state's are its time
	inFlight := s.InFlight()
	for _, l := range s.Locals {
		decs = append(decs, sy.Machine.Decision(l))
	}
	return inFlight, decs
}

func (b *byteStore) encoding(rec []byte) []byte { return rec }

func (b *byteStore) keep(w *window, _ int32, out *expansion, c int) []byte {
	w.add(out.cands[c].span(out.buf))
	return w.last()
}

func (b *byteStore) uniform(rec []byte) bool {
	x := b.x
	x.u.msgs = x.sy.decodeInto(&x.u.cur, x.u.msgs, rec, nil)
	return x.uniform(&x.u.cur)
}

func (b *byteStore) bytes() int64 { return 0 }

// expand appends the successors of the state encoded as rec, at depth d,
// to out. Where the system splices (FIFO channels, no clocks) it decodes
// only the channels' heads and splices each successor's encoding without
// building it; otherwise it builds each successor and encodes it.
func (e *expander) expand(x *searcher, d int32, rec []byte, out *expansion) {
	sy := e.sy
	lean := sy.splices()
	weighted := len(x.opts.Costs) > 0
	// Lean expansion reads only channel heads, and so does ample when it
	// splices (not when edges carry costs: it then builds successors).
	e.lay.headsOnly = lean && !(x.reduce && weighted)
	e.msgs = sy.decodeInto(&e.cur, e.msgs, rec, &e.lay)
	s := &e.cur
	inFlight := e.lay.inFlight()
	e.all = sy.Enabled(s, e.all[:0])
	acts := e.all
	if x.reduce && len(acts) > 1 {
		var ln *splicing
		if lean && !weighted {
			ln = &splicing{rec, &e.lay, inFlight}
		}
		acts = x.ampleWith(e, s, acts, func(enc []byte) bool { return x.closes(enc, x.st.print(enc), d) }, ln)
	} else {
		e.probes = e.probes[:0]
	}
	for ai, a := range acts {
		k := ai // a's number in the enabled list, which traces replay
		if len(acts) != len(e.all) {
			k = slices.Index(e.all, a)
		}
		off := len(out.buf)
		var err *StepError
		same := false
		switch {
		case len(e.probes) == len(acts): // ampleWith spliced these already
			pr := e.probes[ai]
			out.buf, same = append(out.buf, e.abuf[pr.off:pr.end]...), pr.same
		case lean:
			if out.buf, err = sy.spliceStep(out.buf, &e.sc, rec, &e.lay, s, a); err == nil {
				same = sy.sameAsParent(s, inFlight, a, e.sc.same, len(e.sc.sends))
				out.addWeights(x.opts.Costs, e.sc.sends)
			}
		default: // bag channels or clocks: build the successor, encode it
			var t State
			var sends []spec.Send
			if t, sends, err = sy.applyInto(s, a, &e.sc); err == nil {
				same = sy.sameAsParent(s, inFlight, a, e.sc.same, len(sends))
				out.addWeights(x.opts.Costs, sends)
				out.buf = t.Encode(out.buf)
			}
		}
		if err != nil {
			out.buf = out.buf[:off]
			out.fail(ai, err, a)
			return
		}
		out.add(off, fingerprint(out.buf[off:]), k, same)
	}
	out.ncand = append(out.ncand, int32(len(acts)))
}
