package explore

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Collapse compression (SPIN's -DCOLLAPSE, LTSmin's tree compression one
// level deep) for breadth-first search without clocks or costs, on FIFO or
// bag channels, reduced or not: every local state, message and channel
// content is interned to a small number, a state is the vector of its
// components' numbers (wake-ups, n local states, k channel contents; about one byte
// each, stored after its 8-byte fingerprint), a step is looked up by (local
// state number, event) and a channel's push and pop by number, and a
// successor's fingerprint is its parent's with the two to four changed
// components' terms replaced. Only new states are written out. The byte
// encoding (State.Encode) is rebuilt from the vector where a check or a
// trace needs it.
//
// Fingerprints are sums of terms, a term being a mix of a component's
// content hash (wyhash of its canonical bytes, so never of the order
// numbers were given out in) and its position: a sum of independent
// uniform 64-bit values is uniform, so this different function of the
// state than fingerprint(Encode) has the same collision figures. They are
// used only within the configuration being searched; what leaves it (the
// digest of final states) is computed from canonical encodings.

// czMaxLocals bounds the local states the tables hold: a step's key packs
// a local state's number in 24 bits.
const czMaxLocals = 1 << 24

// czLimit is the size of the tables (bytes, about) past which they start
// afresh at the next configuration.
const czLimit = 64 << 20

var errTooManyLocals = fmt.Errorf("more than %d distinct local states in one configuration: the collapsed search cannot number them", czMaxLocals)

// czMap is an open-addressing map from uint64 keys to uint32 values, for
// the step, push and remove tables. Keys are stored plus one: zero marks an empty
// slot.
type czMap struct {
	keys  []uint64
	vals  []uint32
	n     int
	shift uint
}

func (m *czMap) init(logSize uint) {
	m.keys = make([]uint64, 1<<logSize)
	m.vals = make([]uint32, 1<<logSize)
	m.n = 0
	m.shift = 64 - logSize
}

func (m *czMap) get(k uint64) (uint32, bool) {
	k++
	mask := uint64(len(m.keys) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> m.shift; ; i = (i + 1) & mask {
		switch m.keys[i] {
		case k:
			return m.vals[i], true
		case 0:
			return 0, false
		}
	}
}

func (m *czMap) put(k uint64, v uint32) {
	if 2*(m.n+1) > len(m.keys) { // at most half full
		keys, vals := m.keys, m.vals
		m.init(64 - m.shift + 1)
		for i, kk := range keys {
			if kk != 0 {
				m.put(kk-1, vals[i])
			}
		}
	}
	k++
	mask := uint64(len(m.keys) - 1)
	i := (k * 0x9e3779b97f4a7c15) >> m.shift
	for m.keys[i] != 0 {
		i = (i + 1) & mask
	}
	m.keys[i], m.vals[i] = k, v
	m.n++
}

// czStep is a remembered step: the new local state's number, the sends in
// collapser.sends[send:sendEnd], and whether the decision is unchanged.
type czStep struct {
	next          uint32
	send, sendEnd uint32
	uses          uint32 // by the search, counted for the purity check
	maxPort       int32  // the largest port sent on, or -1
	same          bool
}

// czChange is a channel a step changes: its content before and after.
type czChange struct {
	edge    int
	old, to uint32
}

// czSend is one message a step sends: the port and the message's number.
type czSend struct {
	port spec.Port
	msg  uint32
}

// collapser holds the interned components of one protocol's states on one
// topology size. Its tables outlive a configuration: a sweep's
// configurations share most local states, messages and steps.
type collapser struct {
	n, k int
	bag  bool     // unordered channels: contents sorted by spec.Message.Compare
	salt []uint64 // per vector position

	localIdx map[string]uint32
	initIdx  map[spec.Env]uint32 // initial local states
	localB   [][]byte
	localDec []spec.Decision
	// localTerm[id*n+p] is local state id's term at process p; chanTerm
	// [id*k+e] is channel content id's at channel e.
	localTerm, chanTerm []uint64

	msgIdx map[spec.Message]uint32
	msgs   []spec.Message

	// Channel contents are sequences of message numbers; 0 is empty.
	chanIdx  map[string]uint32
	chanSeq  [][]uint32
	chanPop  []uint32
	chanHead []uint32
	chanLen  []int32
	push     czMap // content<<32 | message -> content with message added
	remove   czMap // content<<32 | message -> content with it taken out (bags)

	wakes [1024]struct {
		set  uint32 // the wake-up set plus one; 0: empty entry
		term uint64
	}
	stepIdx czMap // local<<40 | event code -> index into steps
	steps   []czStep
	sends   []czSend
	keyBuf  []byte
	size    int64 // what the tables hold, about
}

// prepare readies c for states of n processes and k channels, unordered
// (bag) or not, starting afresh if that differs or the tables outgrew
// czLimit.
func (c *collapser) prepare(n, k int, bag bool) {
	if c.localIdx != nil && c.n == n && c.k == k && c.bag == bag && c.size < czLimit {
		return
	}
	*c = collapser{n: n, k: k, bag: bag, localIdx: map[string]uint32{}, initIdx: map[spec.Env]uint32{},
		msgIdx: map[spec.Message]uint32{}, chanIdx: map[string]uint32{}}
	for i := range 1 + n + k {
		c.salt = append(c.salt, mix(uint64(i)+0x9e3779b97f4a7c15))
	}
	c.push.init(10)
	c.remove.init(10)
	c.stepIdx.init(12)
	c.internChan(nil) // content 0: the empty channel
}

// term is the fingerprint term of a component at position pos whose
// content hashes to h.
func (c *collapser) term(pos int, h uint64) uint64 { return mix(h ^ c.salt[pos]) }

// wakeTerm is the term of wake-up set w, from a small cache: states with
// wake-ups pending are many, their sets few.
func (c *collapser) wakeTerm(w uint32) uint64 {
	e := &c.wakes[w%uint32(len(c.wakes))]
	if e.set != w+1 {
		e.set, e.term = w+1, c.term(0, mix(uint64(w)^0x5bd1e9955bd1e995))
	}
	return e.term
}

func (c *collapser) internLocal(b []byte, m spec.Machine) uint32 {
	if id, ok := c.localIdx[string(b)]; ok {
		return id
	}
	id := uint32(len(c.localB))
	b = append([]byte(nil), b...)
	c.localIdx[string(b)] = id
	c.localB = append(c.localB, b)
	c.localDec = append(c.localDec, m.Decision(b))
	h := fingerprint(b)
	for p := range c.n {
		c.localTerm = append(c.localTerm, c.term(1+p, h))
	}
	c.size += int64(2*len(b) + 64 + 8*c.n)
	return id
}

func (c *collapser) internMsg(m spec.Message) uint32 {
	m.Time = 0
	if id, ok := c.msgIdx[m]; ok {
		return id
	}
	id := uint32(len(c.msgs))
	c.msgIdx[m] = id
	c.msgs = append(c.msgs, m)
	c.size += 64
	return id
}

// internChan interns a channel content. Its hash is the wyhash of the
// messages' encodings and the count, as State.Encode writes them.
func (c *collapser) internChan(seq []uint32) uint32 {
	c.keyBuf = c.keyBuf[:0]
	for _, m := range seq {
		c.keyBuf = binary.LittleEndian.AppendUint32(c.keyBuf, m)
	}
	if id, ok := c.chanIdx[string(c.keyBuf)]; ok {
		return id
	}
	id := uint32(len(c.chanSeq))
	seq = append([]uint32(nil), seq...)
	c.chanIdx[string(c.keyBuf)] = id
	c.chanSeq = append(c.chanSeq, seq)
	enc := binary.AppendUvarint(nil, uint64(len(seq)))
	for _, m := range seq {
		enc = spec.AppendMessage(enc, c.msgs[m])
	}
	h := fingerprint(enc)
	for e := range c.k {
		c.chanTerm = append(c.chanTerm, c.term(1+c.n+e, h))
	}
	c.chanLen = append(c.chanLen, int32(len(seq)))
	c.chanHead = append(c.chanHead, 0)
	c.chanPop = append(c.chanPop, 0)
	c.size += int64(2*len(c.keyBuf) + 80 + 8*c.k)
	if len(seq) > 0 {
		head, pop := seq[0], c.internChan(seq[1:])
		c.chanHead[id], c.chanPop[id] = head, pop
	}
	return id
}

// pushed is content with message msg added: appended to a FIFO channel,
// put in its sorted place in a bag (before its equals, as applyInto does).
func (c *collapser) pushed(content, msg uint32) uint32 {
	key := uint64(content)<<32 | uint64(msg)
	if v, ok := c.push.get(key); ok {
		return v
	}
	seq := c.chanSeq[content]
	i := len(seq)
	if c.bag {
		i, _ = slices.BinarySearchFunc(seq, msg, func(a, b uint32) int { return c.msgs[a].Compare(c.msgs[b]) })
	}
	v := c.internChan(slices.Insert(seq[:len(seq):len(seq)], i, msg))
	c.push.put(key, v)
	c.size += 16
	return v
}

// removed is content with one copy of message msg taken out: the head of a
// FIFO channel, any copy in a bag.
func (c *collapser) removed(content, msg uint32) uint32 {
	if !c.bag {
		return c.chanPop[content]
	}
	key := uint64(content)<<32 | uint64(msg)
	if v, ok := c.remove.get(key); ok {
		return v
	}
	seq := c.chanSeq[content]
	j := slices.Index(seq, msg)
	v := c.internChan(slices.Delete(slices.Clone(seq), j, j+1))
	c.remove.put(key, v)
	c.size += 16
	return v
}

// step returns process a.Proc's step a from local state local, looked up
// or run (turning a panic into a StepError); a delivery delivers message
// number msg.
func (c *collapser) step(sy *System, local uint32, a Action, msg uint32) (*czStep, *StepError) {
	code := uint64(0) // a wake-up; a delivery: 1 + message<<8 | port
	if a.Kind == spec.Deliver {
		code = 1 + (uint64(msg)<<8 | uint64(sy.Config.Topology.Edges[a.Edge].To.Port))
	}
	key := uint64(local)<<40 | code
	if v, ok := c.stepIdx.get(key); ok {
		return &c.steps[v], nil
	}
	next, sends, err := sy.run(nil, c.localB[local], a)
	if err != nil {
		return nil, err
	}
	st := czStep{next: c.internLocal(next, sy.Machine), send: uint32(len(c.sends)), maxPort: -1}
	for _, s := range sends {
		c.sends = append(c.sends, czSend{s.Port, c.internMsg(s.Msg)})
		st.maxPort = max(st.maxPort, int32(s.Port))
	}
	st.sendEnd = uint32(len(c.sends))
	st.same = c.localDec[st.next] == c.localDec[local]
	c.steps = append(c.steps, st)
	c.stepIdx.put(key, uint32(len(c.steps)-1))
	c.size += int64(16 + 24 + 12*len(sends))
	return &c.steps[len(c.steps)-1], nil
}

// sum is the sum of vector v's terms: its fingerprint before mixing.
func (c *collapser) sum(v []uint32) uint64 { return c.sumWith(v, c.wakeTerm(v[0])) }

// sumWith is sum given v's wake-up term.
func (c *collapser) sumWith(v []uint32, wakeTerm uint64) uint64 {
	s := wakeTerm
	for p := range c.n {
		s += c.localTerm[int(v[1+p])*c.n+p]
	}
	for e := range c.k {
		s += c.chanTerm[int(v[1+c.n+e])*c.k+e]
	}
	return s
}

// vectorOf interns the components of s (channels in their order) into v.
func (c *collapser) vectorOf(v []uint32, s *State, m spec.Machine) []uint32 {
	v = append(v[:0], uint32(s.Wake))
	for _, l := range s.Locals {
		v = append(v, c.internLocal(l, m))
	}
	var seq []uint32
	for _, ch := range s.Chans {
		seq = seq[:0]
		for _, msg := range ch {
			seq = append(seq, c.internMsg(msg))
		}
		v = append(v, c.internChan(seq))
	}
	return v
}

// appendVec appends vector v as uvarints.
func appendVec(dst []byte, v []uint32) []byte {
	for _, x := range v {
		if x < 0x80 {
			dst = append(dst, byte(x))
		} else {
			dst = binary.AppendUvarint(dst, uint64(x))
		}
	}
	return dst
}

// readVec decodes what appendVec wrote into v, which has the vector's
// length.
func readVec(b []byte, v []uint32) {
	off, j := 0, 0
	// Eight one-byte numbers at a time, the usual case.
	for ; j+8 <= len(v) && off+8 <= len(b); j, off = j+8, off+8 {
		x := binary.LittleEndian.Uint64(b[off:])
		if x&0x8080808080808080 != 0 {
			break
		}
		w := v[j : j+8 : j+8]
		w[0], w[1], w[2], w[3] = uint32(x&0x7f), uint32(x>>8&0x7f), uint32(x>>16&0x7f), uint32(x>>24&0x7f)
		w[4], w[5], w[6], w[7] = uint32(x>>32&0x7f), uint32(x>>40&0x7f), uint32(x>>48&0x7f), uint32(x>>56)
	}
	for ; j < len(v); j++ {
		if x := b[off]; x < 0x80 {
			v[j] = uint32(x)
			off++
			continue
		}
		x, w := binary.Uvarint(b[off:])
		v[j] = uint32(x)
		off += w
	}
}

// encode appends the canonical encoding (State.Encode) of vector v.
func (c *collapser) encode(dst []byte, v []uint32) []byte {
	dst = binary.AppendUvarint(dst, uint64(v[0]))
	for p := range c.n {
		l := c.localB[v[1+p]]
		dst = binary.AppendUvarint(dst, uint64(len(l)))
		dst = append(dst, l...)
	}
	for e := range c.k {
		seq := c.chanSeq[v[1+c.n+e]]
		dst = binary.AppendUvarint(dst, uint64(len(seq)))
		for _, m := range seq {
			dst = spec.AppendMessage(dst, c.msgs[m])
		}
	}
	return dst
}

// collapsible reports whether the configuration of sy is searched with
// collapsed states: breadth-first, without clocks, costs or exact
// storage, not forced onto another engine by a test, with at most 32
// processes and with ports that fit a step's key.
func (x *searcher) collapsible(sy *System) bool {
	if !x.bfs || x.weighted() || sy.Clocks || x.opts.Exact || x.keepStates ||
		x.opts.par > 0 || x.opts.bytes ||
		sy.N() > 32 { // the wake-up set is a vector's uint32
		return false
	}
	for _, p := range sy.Config.Topology.Ports {
		if p > 256 {
			return false
		}
	}
	return true
}

// runCollapsed is run's breadth-first search with collapsed states. It
// records states, parents, action numbers and edges as run does, so traces,
// the graph analyses and every figure are the same.
//
// It first runs without recording edges: they serve only the graph
// analyses of a graph that is not layered (some edge does not go from a
// depth to the next), and in a layered graph there is no cycle and every
// path to a state is as long as its depth, so the message counts are
// terminal depths less the wake-ups. At the first edge that breaks the
// layering it starts again, recording them.
func (x *searcher) runCollapsed(sy *System, r *configResult) {
	budget := *x.budget
	x.noEdges = true
	if x.collapsedOnce(sy, r) {
		return
	}
	*x.budget = budget
	x.reset(sy)
	*r = configResult{minMsg: -1, minTime: -1}
	x.noEdges = false
	x.collapsedOnce(sy, r)
}

// collapsedOnce is runCollapsed's search, with edges or without
// (x.noEdges); without, it gives up, returning false, at the first edge
// that breaks the layering.
func (x *searcher) collapsedOnce(sy *System, r *configResult) bool {
	c := &x.cz
	n, k := sy.N(), len(sy.Config.Topology.Edges)
	c.prepare(n, k, sy.Config.Channels == spec.Bag)
	x.collapsed = true
	d := 1 + n + k
	edgeTo, inPort := x.czEdgeTo[:0], x.czInPort[:0]
	for _, e := range sy.Config.Topology.Edges {
		edgeTo, inPort = append(edgeTo, e.To.Node), append(inPort, e.To.Port)
	}
	x.czEdgeTo, x.czInPort = edgeTo, inPort
	// The initial state: local states by environment, remembered across
	// configurations (a sweep starts from the same few thousand).
	top := sy.Config.Topology
	v := append(x.czv[:0], uint32(sy.Config.Initiators))
	init := State{Wake: sy.Config.Initiators, Locals: x.czInit[:0], Chans: make([][]spec.Message, k)}
	for q := range n {
		env := spec.Env{ID: sy.Config.IDs[q], Ports: top.Ports[q]}
		if sy.Info.KnowsN {
			env.N = n
		}
		id, ok := c.initIdx[env]
		if !ok {
			id = c.internLocal(sy.init(q, env), sy.Machine)
			c.initIdx[env] = id
		}
		v = append(v, id)
		init.Locals = append(init.Locals, c.localB[id])
	}
	x.czInit = init.Locals
	for range k {
		v = append(v, 0)
	}
	w := append(x.czw[:0], v...)
	x.czv, x.czw = v, w
	x.seenFP.put(c.sum(v), 0)
	x.record(appendVec(binary.LittleEndian.AppendUint64(x.enc[:0], c.sum(v)), v), -1, 0, 0)
	r.states = 1
	if viol := x.check(0, &init, r); viol != nil {
		r.violation = viol
		return true
	}
	t := &x.tcur
	termMin, termMax, worst := int32(-1), int32(-1), int32(-1) // terminal depths
	for i := int32(0); i < x.states(); i++ {
		x.kept.expanding(i)
		if x.interrupted(i, r) {
			return true
		}
		if len(c.localB) >= czMaxLocals-1<<12 { // room for one state's new ones
			r.stopped = errTooManyLocals
			return true
		}
		dep := x.depthOf(i)
		rec := x.kept.get(i)
		sum := binary.LittleEndian.Uint64(rec)
		readVec(rec[8:], v)
		wake := v[0]
		wakeTerm := uint64(0)
		if wake != 0 {
			wakeTerm = c.wakeTerm(wake)
		}
		inFlight := 0
		for e := range k {
			inFlight += int(c.chanLen[v[1+n+e]])
		}
		acts := x.czEnabled(x.czActs[:0], v)
		x.czActs = acts
		if x.reduce && len(acts) > 1 {
			acts = x.czAmple(v, sum, wakeTerm, acts, dep)
		}
		if len(acts) == 0 { // terminal
			if termMin < 0 || dep < termMin {
				termMin = dep
			}
			if dep > termMax {
				termMax, worst = dep, i
			}
		}
		if !x.noEdges {
			x.beginEdges(i)
		}
		// Every successor's step and fingerprint first, and a touch of
		// where each fingerprint goes in the visited set: the cache misses
		// then overlap instead of coming one at a time.
		succ := x.czSucc[:0]
		var firstErr *StepError
		for _, ac := range acts {
			idx, err := x.czStepIdx(ac.p, ac.e, ac.msg, v[1+ac.p])
			if err != nil {
				firstErr = err
				break
			}
			fp, nw := x.czNext(v, sum, wakeTerm, ac.p, ac.e, ac.msg, &c.steps[idx])
			succ = append(succ, czSucc{idx, nw, fp})
		}
		x.czSucc = succ
		if len(succ) > 1 {
			for _, sc := range succ {
				x.czSink += x.seenFP.peek(sc.fp)
			}
		}
		for ai, ac := range acts {
			p, e, msg, kk := ac.p, ac.e, ac.msg, ac.num
			old := v[1+p]
			if ai == len(succ) { // the step failed
				r.violation = x.found(firstErr.Property, firstErr.Detail, i, x.czAction(p, e, msg))
				return true
			}
			st, err := &c.steps[succ[ai].step], (*StepError)(nil)
			// Every distinct step is run again at its 1st, 2nd, 4th,
			// 8th... use, as System.step does: all of them are checked,
			// soon and long after their first run.
			if st.uses < math.MaxUint32 {
				st.uses++
			}
			if runs := purityDue(st.uses, x.opts.PurityEvery); runs > 0 {
				x.czSends = x.czSends[:0]
				for _, s := range c.sends[st.send:st.sendEnd] {
					x.czSends = append(x.czSends, spec.Send{Port: s.port, Msg: c.msgs[s.msg]})
				}
				err = sy.checkPurity(c.localB[old], x.czAction(p, e, msg), c.localB[st.next], x.czSends, runs)
			}
			if err != nil {
				r.violation = x.found(err.Property, err.Detail, i, x.czAction(p, e, msg))
				return true
			}
			r.transitions++
			fp, nw := succ[ai].fp, succ[ai].wake
			j, seen := x.seenFP.put(fp, x.states())
			if !x.noEdges {
				x.addEdge(j)
			}
			if seen {
				if x.noteDuplicate(j, dep); x.noEdges && !x.layered {
					return false
				}
				continue
			}
			x.czNext(v, sum, wakeTerm, p, e, msg, st) // the channels it changes
			copy(w, v)
			w[0] = nw
			w[1+p] = st.next
			for _, ch := range x.czChg {
				w[1+n+ch.edge] = ch.to
			}
			ch := x.kept.reserve(8 + 5*d)
			ch.buf = appendVec(binary.LittleEndian.AppendUint64(ch.buf, fp), w)
			x.kept.added()
			x.recordRest(i, kk, dep+1)
			r.states++
			if int(dep)+1 > r.maxDepth {
				r.maxDepth = int(dep) + 1
			}
			if *x.budget--; *x.budget < 0 {
				r.stopped = errStateLimit
				return true
			}
			after := inFlight + int(st.sendEnd-st.send)
			if e >= 0 {
				after--
			}
			var viol *Violation
			if st.same && (nw != 0 || after > 0) {
				// Like its parent (checkNew): only the uniformity sample.
				viol = x.checkUniform(j, r)
			} else {
				t.Wake, t.Chans, t.Clocks = spec.Set(nw), nil, nil
				t.Locals = t.Locals[:0]
				for q := range n {
					t.Locals = append(t.Locals, c.localB[w[1+q]])
				}
				viol = x.checkView(j, t, after, r)
			}
			if viol != nil {
				r.violation = viol
				return true
			}
		}
		if !x.noEdges {
			x.endEdges(i)
		}
	}
	x.kept.trim()
	if x.noEdges {
		x.layeredResult(r, int64(termMin), int64(termMax), worst)
	} else {
		x.analyse(r)
	}
	return true
}

// encoding returns the canonical encoding of state i, whose record must
// still be kept (valid until the next call).
func (x *searcher) encoding(i int32) []byte {
	if !x.collapsed {
		return x.kept.get(i)
	}
	v := x.czu[:0]
	for range 1 + x.cz.n + x.cz.k {
		v = append(v, 0)
	}
	readVec(x.kept.get(i)[8:], v)
	x.czu = v
	x.czEnc = x.cz.encode(x.czEnc[:0], v)
	return x.czEnc
}

// collapsedPrint is the fingerprint, in the collapsed search's terms, of
// the state encoded as enc.
func (x *searcher) collapsedPrint(enc []byte) uint64 {
	s := DecodeState(enc, x.cz.n, x.cz.k)
	x.czu = x.cz.vectorOf(x.czu[:0], &s, x.sy.Machine)
	return x.cz.sum(x.czu)
}

// czUniform is uniform for state i of a collapsed search, on vectors:
// permuting a vector moves its numbers, and successors come from the same
// tables as the search's.
func (x *searcher) czUniform(i int32) bool {
	c := &x.cz
	v := x.czr[:0]
	for range 1 + c.n + c.k {
		v = append(v, 0)
	}
	readVec(x.kept.get(i)[8:], v)
	x.czr = v
	if len(x.czEdgeMaps) == 0 {
		// Where each symmetry sends each channel, as permuteInto does.
		for _, p := range x.sy.Config.Topology.Symmetries {
			m := make([]int, c.k)
			for e, ed := range x.sy.Config.Topology.Edges {
				m[e] = x.sy.outEdge[p.Node[ed.From.Node]][p.Port[ed.From.Node][ed.From.Port]]
			}
			x.czEdgeMaps = append(x.czEdgeMaps, m)
		}
	}
	rec := x.kept.get(i)
	sum := binary.LittleEndian.Uint64(rec)
	x.ufailed = false // as in uniform: a failing step is the search's to report
	for si, p := range x.sy.Config.Topology.Symmetries {
		node, edge := p.Node, x.czEdgeMaps[si]
		x.uprints[0] = x.czSuccessorPrints(x.uprints[0][:0], v, sum, node, edge)
		rot := x.czPermute(v, node, edge)
		x.uprints[1] = x.czSuccessorPrints(x.uprints[1][:0], rot, c.sum(rot), nil, nil)
		if !x.ufailed && !slices.Equal(x.uprints[0], x.uprints[1]) {
			return false
		}
	}
	return true
}

// permWake moves the wake-up set w by the node map node.
func permWake(w uint32, node []int) uint32 {
	u := uint32(0)
	for q, to := range node {
		if w&(1<<uint(q)) != 0 {
			u |= 1 << uint(to)
		}
	}
	return u
}

// czPermute returns vector v with its components moved by the node and
// channel maps of a symmetry, in scratch storage.
func (x *searcher) czPermute(v []uint32, node, edge []int) []uint32 {
	c := &x.cz
	u := append(x.czp[:0], v...)
	u[0] = permWake(v[0], node)
	for q, to := range node {
		u[1+to] = v[1+q]
	}
	for e, to := range edge {
		u[1+c.n+to] = v[1+c.n+e]
	}
	x.czp = u
	return u
}

// permutedSum is c.sum(x.czPermute(v, node, edge)) without building the
// permuted vector.
func (c *collapser) permutedSum(v []uint32, node, edge []int) uint64 {
	s := c.wakeTerm(permWake(v[0], node))
	for q, to := range node {
		s += c.localTerm[int(v[1+q])*c.n+to]
	}
	for e, to := range edge {
		s += c.chanTerm[int(v[1+c.n+e])*c.k+to]
	}
	return s
}

// czSuccessorPrints appends the fingerprints of the successors of vector
// v, whose fingerprint sum is sum, each moved by the node and channel maps
// of a symmetry if node is not nil, and sorts them; a step that fails
// counts as fingerprint 0. Each is the parent's sum (moved, if node is not
// nil) with the changed components' terms replaced.
func (x *searcher) czSuccessorPrints(dst []uint64, v []uint32, sum uint64, node, edge []int) []uint64 {
	c := &x.cz
	n, k := c.n, c.k
	wakeTerm := c.wakeTerm(v[0])
	psum, pwake := sum, uint64(0)
	if node != nil {
		psum, pwake = c.permutedSum(v, node, edge), c.wakeTerm(permWake(v[0], node))
	}
	x.czUActs = x.czEnabled(x.czUActs[:0], v)
	for _, a := range x.czUActs {
		q, e := a.p, a.e
		st, err := x.czStepOf(q, e, a.msg, v[1+q])
		if err != nil {
			dst, x.ufailed = append(dst, 0), true
			continue
		}
		fp, nw := x.czNext(v, sum, wakeTerm, q, e, a.msg, st)
		if node != nil {
			to := node[q]
			fp = psum - c.localTerm[int(v[1+q])*n+to] + c.localTerm[int(st.next)*n+to]
			if e < 0 {
				fp += c.wakeTerm(permWake(nw, node)) - pwake
			}
			for _, ch := range x.czChg {
				fp += c.chanTerm[int(ch.to)*k+edge[ch.edge]] - c.chanTerm[int(ch.old)*k+edge[ch.edge]]
			}
		}
		dst = append(dst, fp)
	}
	slices.Sort(dst)
	return dst
}

// czAction is the action of process p taking a wake-up (e < 0) or the
// delivery of message number msg from channel e.
func (x *searcher) czAction(p, e int, msg uint32) Action {
	if e < 0 {
		return Action{Kind: spec.Wake, Proc: p, Edge: -1}
	}
	return Action{Kind: spec.Deliver, Proc: p, Edge: e, Msg: x.cz.msgs[msg]}
}

// czEnabled appends the actions enabled in vector v to acts, in
// System.Enabled's order: wake-ups by process, then deliveries by channel
// (on bags, one per distinct message, in order).
func (x *searcher) czEnabled(acts []czAct, v []uint32) []czAct {
	c := &x.cz
	n := c.n
	wake := v[0]
	for q := range n {
		if wake&(1<<uint(q)) != 0 {
			acts = append(acts, czAct{p: q, e: -1, num: len(acts)})
		}
	}
	for e, q := range x.czEdgeTo {
		cont := v[1+n+e]
		if cont == 0 || wake&(1<<uint(q)) != 0 {
			continue
		}
		if !c.bag {
			acts = append(acts, czAct{p: q, e: e, msg: c.chanHead[cont], num: len(acts)})
			continue
		}
		seq := c.chanSeq[cont]
		for j, m := range seq {
			if j == 0 || m != seq[j-1] {
				acts = append(acts, czAct{p: q, e: e, msg: m, num: len(acts)})
			}
		}
	}
	return acts
}

// czAct is an enabled action of a collapsed state: process p's wake-up
// (e < 0) or its delivery of message number msg from channel e; num is its
// number in System.Enabled's order, which traces replay.
type czAct struct {
	p, e, num int
	msg       uint32
}

// czSucc is a successor of the state being expanded: its step (an index
// into collapser.steps), wake-up set and fingerprint sum.
type czSucc struct {
	step uint32
	wake uint32
	fp   uint64
}

// czStepOf returns process p's step from local state old on the wake-up
// (e < 0) or the delivery of message msg from channel e, looked up or run;
// a step that sends on a port p does not have is an error.
func (x *searcher) czStepOf(p, e int, msg, old uint32) (*czStep, *StepError) {
	idx, err := x.czStepIdx(p, e, msg, old)
	if err != nil {
		return nil, err
	}
	return &x.cz.steps[idx], nil
}

// czStepIdx is czStepOf giving the step's index in collapser.steps, which
// stays valid while later steps are added.
func (x *searcher) czStepIdx(p, e int, msg, old uint32) (uint32, *StepError) {
	c, sy := &x.cz, x.sy
	code := uint64(0) // a wake-up; a delivery: 1 + message<<8 | port
	if e >= 0 {
		code = 1 + (uint64(msg)<<8 | uint64(x.czInPort[e]))
	}
	idx, ok := c.stepIdx.get(uint64(old)<<40 | code)
	if !ok {
		if _, err := c.step(sy, old, x.czAction(p, e, msg), msg); err != nil {
			return 0, err
		}
		idx = uint32(len(c.steps) - 1)
	}
	st := &c.steps[idx]
	if outs := sy.outEdge[p]; int(st.maxPort) >= len(outs) {
		for _, s := range c.sends[st.send:st.sendEnd] {
			if int(s.port) >= len(outs) {
				return 0, sy.badPort(x.czAction(p, e, msg), spec.Send{Port: s.port, Msg: c.msgs[s.msg]})
			}
		}
	}
	return idx, nil
}

// czNext returns the fingerprint sum and the wake-up set of the successor
// of vector v (whose sum and wake-up term are given) by process p's step
// st, a wake-up (e < 0) or a delivery from channel e; the channels it
// changes are left in x.czChg.
func (x *searcher) czNext(v []uint32, sum, wakeTerm uint64, p, e int, msg uint32, st *czStep) (uint64, uint32) {
	c := &x.cz
	n, k := c.n, c.k
	old := v[1+p]
	fp := sum - c.localTerm[int(old)*n+p] + c.localTerm[int(st.next)*n+p]
	nw := v[0]
	chg := x.czChg[:0]
	if e < 0 {
		nw &^= 1 << uint(p)
		fp += c.wakeTerm(nw) - wakeTerm
	} else {
		cont := v[1+n+e]
		chg = append(chg, czChange{e, cont, c.removed(cont, msg)})
	}
	outs := x.sy.outEdge[p]
	for _, s := range c.sends[st.send:st.sendEnd] {
		o := outs[s.port]
		j := 0
		for j < len(chg) && chg[j].edge != o {
			j++
		}
		if j == len(chg) {
			chg = append(chg, czChange{o, v[1+n+o], v[1+n+o]})
		}
		chg[j].to = c.pushed(chg[j].to, s.msg)
	}
	for _, ch := range chg {
		fp += c.chanTerm[int(ch.to)*k+ch.edge] - c.chanTerm[int(ch.old)*k+ch.edge]
	}
	x.czChg = chg
	return fp, nw
}

// czAmple is ample for a collapsed state v at depth dep: the enabled
// actions acts of the first process, by position, whose wake-up is pending
// or whose in-channels all hold a message (C1), none of whose steps changes
// its decision (C2) or leads to a state found at a depth no greater than
// dep (C3, breadth-first), or acts itself. It chooses what ample chooses.
func (x *searcher) czAmple(v []uint32, sum, wakeTerm uint64, acts []czAct, dep int32) []czAct {
	c := &x.cz
	n := c.n
outer:
	for p := range n {
		lo, hi := -1, -1
		for j, a := range acts {
			if a.p == p {
				if lo < 0 {
					lo = j
				}
				hi = j + 1
			}
		}
		if lo < 0 {
			continue
		}
		cand := x.czCand[:0]
		for _, a := range acts[lo:hi] {
			if a.p == p {
				cand = append(cand, a)
			}
		}
		x.czCand = cand
		if len(cand) == len(acts) {
			break // p alone is enabled: nothing to reduce
		}
		if v[0]&(1<<uint(p)) == 0 {
			if c.bag { // others may add a message p would take first
				continue
			}
			for e, to := range x.czEdgeTo {
				if to == p && v[1+n+e] == 0 {
					continue outer
				}
			}
		}
		for _, a := range cand {
			st, err := x.czStepOf(p, a.e, a.msg, v[1+p])
			if err != nil || !st.same {
				continue outer
			}
			fp, _ := x.czNext(v, sum, wakeTerm, p, a.e, a.msg, st)
			if j, seen := x.seenFP.get(fp); seen && x.depthOf(j) <= dep {
				continue outer
			}
		}
		return cand
	}
	return acts
}
