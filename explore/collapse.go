package explore

import (
	"encoding/binary"
	"fmt"
	"slices"
	"unsafe"

	"github.com/elcheck/elcheck/spec"
)

// Collapse compression (SPIN's -DCOLLAPSE, LTSmin's tree compression one
// level deep) for breadth-first search, on FIFO or bag channels, reduced or
// not, with clocks and costs or not: every local state, message and
// channel content is interned to a small number, a state is the vector of
// its components' numbers (wake-ups, n local states, k channel contents
// and, with clocks, n clock values; about one byte each, stored after its
// 8-byte fingerprint), a step is looked up by (local
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

// czLocals is the most local states a search goes on with: room for one
// state's new ones below czMaxLocals (Options.localsLimit, for the tests,
// lowers it).
const czLocals = czMaxLocals - 1<<12

var errTooManyLocals = fmt.Errorf("more than %d distinct local states in one configuration, more than the search can number (does a local state count something without bound?)", czMaxLocals)

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

// pile holds interned values back to back in blocks that never move: an
// interned local state or channel content is a view into a block, not an
// object of its own. A protocol whose states count something has a new
// local state at nearly every step; held one allocation each (and one
// more for the map key), 12.5 million of them kept Go's collector busy
// 90 % of the time and the search stalled.
type pile[T any] struct{ blocks [][]T }

// pileFirst and pileBlock are the sizes of a pile's first block and its
// largest, in values: each block doubles the one before up to pileBlock,
// so that a small check does not allocate three blocks of the largest
// size (768 KiB: with them, BenchmarkCheck allocated 128 bytes per state
// at n = 5 against 82).
const (
	pileFirst = 1 << 10
	pileBlock = 1 << 16
)

// add copies v into the pile and returns the copy.
func (p *pile[T]) add(v []T) []T {
	last := len(p.blocks) - 1
	if last < 0 || cap(p.blocks[last])-len(p.blocks[last]) < len(v) {
		size := pileFirst
		if last >= 0 {
			size = min(2*cap(p.blocks[last]), pileBlock)
		}
		p.blocks = append(p.blocks, make([]T, 0, max(size, len(v))))
		last++
	}
	b := p.blocks[last]
	start := len(b)
	b = append(b, v...)
	p.blocks[last] = b
	return b[start:len(b):len(b)]
}

// pileKey is b as a map key without a copy: b, from a pile, never changes.
func pileKey(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// czStep is a remembered step: the new local state's number, the sends in
// collapser.sends[send:sendEnd], and whether the decision is unchanged.
type czStep struct {
	next          uint32
	send, sendEnd uint32
	maxPort       int32 // the largest port sent on, or -1
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
	initIdx  envMemo[uint32] // initial local states
	localB   [][]byte
	// The interned local states, channel contents and their keys (pile).
	localPile, keyPile pile[byte]
	seqPile            pile[uint32]
	localDec           []spec.Decision
	// localTerm[id*n+p] is local state id's term at process p; chanTerm
	// [id*k+e] is channel content id's at channel e.
	localTerm, chanTerm []uint64

	msgIdx map[spec.Message]uint32
	msgs   []spec.Message
	// With clocks (Options.Time) a message in a channel carries its send
	// time: msgBase[id] is the number of message id without it, which
	// steps are keyed by (a protocol never sees the time), and timed maps
	// base<<32 | time to the timed message's number. clockTerm[t*n+p] is
	// the term of clock value t at process p, whose clocks follow the
	// channels in the vector.
	clocked   bool
	msgBase   []uint32
	timed     czMap
	clockTerm []uint64
	chanPlain []uint32 // plainChan's, plus one; 0: not yet
	// stepW[i*len(Options.Costs)+j] is cost j of step i's sends, for the
	// steps before stepWn (Options.Costs).
	stepW  []int64
	stepWn int

	// Channel contents are sequences of message numbers; 0 is empty.
	chanIdx  map[string]uint32
	chanSeq  [][]uint32
	chanPop  []uint32
	chanHead []uint32 // a content's first message: FIFO deliveries read it
	chanLen  []int32
	push     czMap // content<<32 | message -> content with message added
	remove   czMap // content<<32 | message -> content with it taken out (bags)

	wakes [1024]struct {
		set  uint32 // the wake-up set plus one; 0: empty entry
		term uint64
	}
	stepIdx czMap // local<<40 | event code -> index into steps
	steps   []czStep
	// uses counts each step's uses for the purity check, apart from
	// steps: workers read steps while the searcher counts (levels.go),
	// and a count written into a line they read sends it back and forth
	// between the cores.
	uses   []uint32
	sends  []czSend
	keyBuf []byte
	size   int64 // what the tables hold, about
	// guard, if set, is called before the tables change: the searcher
	// waits there for workers that read them (levels.go).
	guard func()
	clk   uint32 // with clocks, the process's clock after next's step
}

// changes calls the guard, before the tables change.
func (c *collapser) changes() {
	if c.guard != nil {
		c.guard()
	}
}

// prepare readies c for states of n processes and k channels, unordered
// (bag) or not, with clocks or not, starting afresh if that differs or the
// tables outgrew czLimit.
func (c *collapser) prepare(n, k int, bag, clocked bool) {
	if c.localIdx != nil && c.n == n && c.k == k && c.bag == bag && c.clocked == clocked && c.size < czLimit {
		return
	}
	*c = collapser{n: n, k: k, bag: bag, clocked: clocked, localIdx: map[string]uint32{},
		msgIdx: map[spec.Message]uint32{}, chanIdx: map[string]uint32{}}
	for i := range 1 + 2*n + k {
		c.salt = append(c.salt, mix(uint64(i)+0x9e3779b97f4a7c15))
	}
	c.push.init(10)
	c.remove.init(10)
	c.timed.init(10)
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
	if e.set == w+1 {
		return e.term
	}
	t := c.wakeTermOf(w)
	if c.guard == nil { // else workers read the cache (levels.go)
		e.set, e.term = w+1, t
	}
	return t
}

// wakeTermFrozen is wakeTerm without filling the cache, for workers that
// share the tables (levels.go).
func (c *collapser) wakeTermFrozen(w uint32) uint64 {
	if e := &c.wakes[w%uint32(len(c.wakes))]; e.set == w+1 {
		return e.term
	}
	return c.wakeTermOf(w)
}

// wakeTermOf computes the term of wake-up set w.
func (c *collapser) wakeTermOf(w uint32) uint64 { return c.term(0, mix(uint64(w)^0x5bd1e9955bd1e995)) }

func (c *collapser) internLocal(b []byte, m spec.Machine) uint32 {
	if id, ok := c.localIdx[string(b)]; ok {
		return id
	}
	c.changes()
	id := uint32(len(c.localB))
	b = c.localPile.add(b)
	c.localIdx[pileKey(b)] = id
	c.localB = append(c.localB, b)
	c.localDec = append(c.localDec, m.Decision(b))
	h := fingerprint(b)
	for p := range c.n {
		c.localTerm = append(c.localTerm, c.term(1+p, h))
	}
	c.size += int64(2*len(b) + 64 + 8*c.n)
	return id
}

// width is the length of a vector: the wake-up set, the local states,
// the channels and, with clocks, the clocks.
func (c *collapser) width() int {
	if c.clocked {
		return 1 + 2*c.n + c.k
	}
	return 1 + c.n + c.k
}

// internMsg interns m without its send time.
func (c *collapser) internMsg(m spec.Message) uint32 {
	m.Time = 0
	return c.internTimed(m)
}

// internTimed interns m with its send time.
func (c *collapser) internTimed(m spec.Message) uint32 {
	if id, ok := c.msgIdx[m]; ok {
		return id
	}
	base := uint32(len(c.msgs))
	if m.Time != 0 {
		u := m
		u.Time = 0
		base = c.internTimed(u)
	}
	c.changes()
	id := uint32(len(c.msgs))
	c.msgIdx[m] = id
	c.msgs = append(c.msgs, m)
	c.msgBase = append(c.msgBase, base)
	c.size += 64
	return id
}

// timedIf is the number of message base sent at time t. If frozen, it
// only looks it up, as pushedIf.
func (c *collapser) timedIf(base uint32, t uint32, frozen bool) (uint32, bool) {
	key := uint64(base)<<32 | uint64(t)
	if v, ok := c.timed.get(key); ok || frozen {
		return v, ok
	}
	c.changes()
	m := c.msgs[base]
	m.Time = int32(t)
	v := c.internTimed(m)
	c.timed.put(key, v)
	c.size += 16
	return v, true
}

// clockTermOf is the term of clock value t at process p.
func (c *collapser) clockTermOf(p int, t uint32) uint64 {
	i := int(t)*c.n + p
	if i >= len(c.clockTerm) {
		c.changes()
		for j := len(c.clockTerm); j < (int(t)+1)*c.n; j++ {
			c.clockTerm = append(c.clockTerm, c.term(1+c.n+c.k+j%c.n, mix(uint64(j/c.n)^0x2545f4914f6cdd1d)))
		}
	}
	return c.clockTerm[i]
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
	c.changes()
	id := uint32(len(c.chanSeq))
	seq = c.seqPile.add(seq)
	c.chanIdx[pileKey(c.keyPile.add(c.keyBuf))] = id
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
	c.chanPop = append(c.chanPop, 0)
	c.chanHead = append(c.chanHead, 0)
	c.size += int64(2*len(c.keyBuf) + 80 + 8*c.k)
	if len(seq) > 0 {
		head, pop := seq[0], c.internChan(seq[1:])
		c.chanHead[id], c.chanPop[id] = head, pop
	}
	return id
}

// pushedIf is content with message msg added: appended to a FIFO channel,
// put in its sorted place in a bag (before its equals, as applyInto does).
//
// If frozen, it only looks the content up, and reports whether it is there
// (workers sharing the tables add nothing: levels.go).
func (c *collapser) pushedIf(content, msg uint32, frozen bool) (uint32, bool) {
	key := uint64(content)<<32 | uint64(msg)
	if v, ok := c.push.get(key); ok || frozen {
		return v, ok
	}
	c.changes()
	seq := c.chanSeq[content]
	i := len(seq)
	if c.bag {
		i, _ = slices.BinarySearchFunc(seq, msg, func(a, b uint32) int { return c.msgs[a].Compare(c.msgs[b]) })
	}
	v := c.internChan(slices.Insert(seq[:len(seq):len(seq)], i, msg))
	c.push.put(key, v)
	c.size += 16
	return v, true
}

// removedIf is content with one copy of message msg taken out: the head of a
// FIFO channel, any copy in a bag.
// If frozen, it only looks it up, as pushedIf.
func (c *collapser) removedIf(content, msg uint32, frozen bool) (uint32, bool) {
	if !c.bag {
		return c.chanPop[content], true
	}
	key := uint64(content)<<32 | uint64(msg)
	if v, ok := c.remove.get(key); ok || frozen {
		return v, ok
	}
	c.changes()
	seq := c.chanSeq[content]
	j := slices.Index(seq, msg)
	v := c.internChan(slices.Delete(slices.Clone(seq), j, j+1))
	c.remove.put(key, v)
	c.size += 16
	return v, true
}

// step returns process a.Proc's step a from local state local, looked up
// under key (stepKey) or run (turning a panic into a StepError); a
// delivery delivers message number msg.
func (c *collapser) step(sy *System, local uint32, a Action, msg uint32, key uint64) (*czStep, *StepError) {
	if v, ok := c.stepIdx.get(key); ok {
		return &c.steps[v], nil
	}
	c.changes()
	next, sends, err := sy.run(nil, c.localB[local], a)
	if err != nil {
		return nil, err
	}
	remember, stepFP, checked := true, uint64(0), false
	if sy.checked != nil {
		stepFP = sy.stepPrint(c.localB[local], a)
		checked = sy.checked.has(stepFP)
	}
	if !checked {
		// A step not remembered (checkFirstRun) is added to the step list
		// at each use, which a protocol that hides its ids from its
		// Fields method pays for.
		if sends, remember, err = sy.checkFirstRun(c.localB[local], a, next, sends); err != nil {
			return nil, err
		}
	}
	st := czStep{next: c.internLocal(next, sy.Machine), send: uint32(len(c.sends)), maxPort: -1}
	for _, s := range sends {
		c.sends = append(c.sends, czSend{s.Port, c.internMsg(s.Msg)})
		st.maxPort = max(st.maxPort, int32(s.Port))
	}
	st.sendEnd = uint32(len(c.sends))
	st.same = c.localDec[st.next] == c.localDec[local]
	uses := uint32(0)
	switch {
	case checked:
		uses = 1 // its first use's checks passed elsewhere
	case sy.checked != nil && remember && purityDue(1, sy.purity) == 0:
		sy.checked.add(stepFP) // else after its first use's (checkPurity)
	}
	c.steps, c.uses = append(c.steps, st), append(c.uses, uses)
	if remember {
		c.stepIdx.put(key, uint32(len(c.steps)-1))
	}
	c.size += int64(16 + 24 + 4 + 12*len(sends))
	return &c.steps[len(c.steps)-1], nil
}

// plainPrint is the fingerprint sum fp of vector v without its clocks'
// terms and with its channels' messages' send times left out: a
// fingerprint of v's state without clocks.
func (cs *collapsedStore) plainPrint(fp uint64, v []uint32) uint64 {
	c := cs.c
	for p, t := range v[1+c.n+c.k:] {
		fp -= c.clockTermOf(p, t)
	}
	for e, id := range v[1+c.n : 1+c.n+c.k] {
		if id != 0 {
			fp += c.chanTerm[int(c.plainChan(id))*c.k+e] - c.chanTerm[int(id)*c.k+e]
		}
	}
	return fp
}

// plainChan is channel content id with its messages' send times left out.
// (On a bag, the order without the times is still Compare's.)
func (c *collapser) plainChan(id uint32) uint32 {
	if int(id) < len(c.chanPlain) && c.chanPlain[id] != 0 {
		return c.chanPlain[id] - 1
	}
	seq := c.chanSeq[id]
	base := make([]uint32, len(seq))
	for i, m := range seq {
		base[i] = c.msgBase[m]
	}
	p := c.internChan(base)
	for len(c.chanPlain) < len(c.chanSeq) {
		c.chanPlain = append(c.chanPlain, 0)
	}
	c.chanPlain[id] = p + 1
	return p
}

// stepWeights is what step i's sends cost, one figure per cost.
func (c *collapser) stepWeights(i uint32, costs []Cost) []int64 {
	nc := len(costs)
	if c.stepWn > 0 && len(c.stepW) != c.stepWn*nc { // other costs
		c.stepW, c.stepWn = c.stepW[:0], 0
	}
	for ; c.stepWn < len(c.steps); c.stepWn++ {
		st := &c.steps[c.stepWn]
		for _, cost := range costs {
			w := int64(0)
			for _, s := range c.sends[st.send:st.sendEnd] {
				w += cost.Of(c.msgs[s.msg])
			}
			c.stepW = append(c.stepW, w)
		}
	}
	return c.stepW[int(i)*nc : int(i+1)*nc]
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
	if c.clocked {
		for p, t := range v[1+c.n+c.k:] {
			s += c.clockTermOf(p, t)
		}
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
			if !c.clocked {
				msg.Time = 0
			}
			seq = append(seq, c.internTimed(msg))
		}
		v = append(v, c.internChan(seq))
	}
	if c.clocked {
		for p := range c.n {
			t := int32(0)
			if s.Clocks != nil {
				t = s.Clocks[p]
			}
			v = append(v, uint32(t))
		}
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
	if c.clocked {
		for _, t := range v[1+c.n+c.k:] {
			dst = binary.AppendUvarint(dst, uint64(t))
		}
	}
	return dst
}

// collapsedStore is the store of collapsed states: a record is a state's
// fingerprint sum (8 bytes) and its vector (appendVec). It expands a state
// by looking its steps up in the collapser's tables (running the protocol
// only for a step not seen before, through System) and computing each
// successor's fingerprint from its parent's.
type collapsedStore struct {
	x *searcher
	// localsLimit is czLocals, or Options.localsLimit (tests).
	localsLimit int
	c           *collapser // tables[0], or tables[1] with clocks
	// tables are the interned components of states without and with
	// clocks: a search with clocks follows one without them (search),
	// and each keeps its tables across a sweep's configurations.
	tables [2]collapser
	v, w   []uint32 // the vector being expanded, and a successor's
	u      []uint32 // encoding's and print's scratch
	enc    []byte
	init   [][]byte         // the initial state's local states
	chans  [][]spec.Message // and its channels, all empty
	// Per configuration: the process each channel goes to, and its port
	// there.
	edgeTo   []int
	inPort   []spec.Port
	degree   []uint8    // System.degree of each process
	chgBuf   []czChange // next's channel changes: chgBuf[:nchg]
	nchg     int
	clk      uint32  // and, with clocks, the process's clock after the step
	clocks   []int32 // view's
	outEdge  [][]int // the system's, at hand
	sends    []spec.Send
	acts     []slot
	cand     []slot
	uacts    []slot // uniform's
	r, p     []uint32
	vw       vecView
	procs    []int32 // ample's
	sum      uint64  // the fingerprint sum of the state being expanded
	wakeTerm uint64  // and its wake-up term
	rec      []byte
	kbuf     []byte // a successor's exact key (ample's)
	// loaded is the state whose vector, sum and wake-up term are in v,
	// sum and wakeTerm for keep (the sequential search takes the state it
	// just expanded, the level driver others too: levels.go).
	loaded int32
	// keys: expand writes every candidate's vector (out.keys), as for
	// Options.Exact: the disk search stores successors before knowing
	// which are new (disk.go).
	keys bool
	wks  czWorkers // the level driver's (workers.go)
}

// appendKey appends the exact key (Options.Exact) of the successor of v
// that next just computed (process p's step st, wake-up set nw): its
// vector, as a record holds it after the fingerprint. The component
// numbers stand for their contents one to one, so equal vectors are
// equal states.
func (cs *collapsedStore) appendKey(dst []byte, v []uint32, p int, nw uint32, st *czStep) []byte {
	return appendVec(dst, cs.successor(v, p, nw, st))
}

// successor writes into cs.w the vector of the successor of v that next
// just computed (process p's step st, wake-up set nw), and returns it.
func (cs *collapsedStore) successor(v []uint32, p int, nw uint32, st *czStep) []uint32 {
	n := cs.c.n
	w := append(cs.w[:0], v...)
	w[0], w[1+p] = nw, st.next
	for _, ch := range cs.chgBuf[:cs.nchg] {
		w[1+n+ch.edge] = ch.to
	}
	if cs.c.clocked {
		w[1+n+cs.c.k+p] = cs.clk
	}
	cs.w = w
	return w
}

// key is the exact key of the state encoded as enc (lookup).
func (cs *collapsedStore) key(enc []byte) []byte {
	s := DecodeState(enc, cs.c.n, cs.c.k)
	cs.u = cs.c.vectorOf(cs.u[:0], &s, cs.x.sy.Machine)
	return appendVec(nil, cs.u)
}

// recPrint is the fingerprint of the state whose record rec is.
func recPrint(rec []byte) uint64 { return binary.LittleEndian.Uint64(rec) }

// recKey is the exact key of a record: its vector.
func (cs *collapsedStore) recKey(rec []byte) []byte { return rec[8:] }

// begin interns the initial state: local states by environment,
// remembered across configurations (a sweep starts from the same few
// thousand).
func (cs *collapsedStore) begin(sy *System) ([]byte, uint64, State) {
	cs.c = &cs.tables[0]
	if sy.Clocks {
		cs.c = &cs.tables[1]
	}
	c := cs.c
	n, k := sy.N(), len(sy.Config.Topology.Edges)
	c.prepare(n, k, sy.Config.Channels == spec.Bag, sy.Clocks)
	cs.edgeTo, cs.inPort, cs.outEdge = cs.edgeTo[:0], cs.inPort[:0], sy.outEdge
	if cap(cs.chgBuf) < k+1 { // a step changes the channel it reads and those it sends on
		cs.chgBuf = make([]czChange, 0, k+1)
	}
	for _, e := range sy.Config.Topology.Edges {
		cs.edgeTo, cs.inPort = append(cs.edgeTo, e.To.Node), append(cs.inPort, e.To.Port)
	}
	cs.degree = cs.degree[:0]
	for p := range n {
		cs.degree = append(cs.degree, sy.degree(p))
	}
	v := append(cs.v[:0], uint32(sy.Config.Initiators))
	if cap(cs.chans) < k {
		cs.chans = make([][]spec.Message, k)
	}
	clear(cs.chans[:k])
	init := State{Wake: sy.Config.Initiators, Locals: cs.init[:0], Chans: cs.chans[:k]}
	for q := range n {
		env := sy.env(q)
		id, ok := c.initIdx.get(q, env)
		if !ok {
			id = c.internLocal(sy.init(q, env), sy.Machine)
			c.initIdx.put(q, env, id)
		}
		v = append(v, id)
		init.Locals = append(init.Locals, c.localB[id])
	}
	cs.init = init.Locals
	for range k {
		v = append(v, 0)
	}
	if sy.Clocks {
		init.Clocks = make([]int32, n)
		for range n {
			v = append(v, 0)
		}
	}
	cs.v, cs.w, cs.loaded = v, append(cs.w[:0], v...), -1
	sum := c.sum(v)
	cs.enc = appendVec(binary.LittleEndian.AppendUint64(cs.enc[:0], sum), v)
	return cs.enc, sum, init
}

// expand appends the successors of the state recorded as rec (state i at
// depth d) to out: each one's step, looked up or run, checked for purity
// on purityDue's schedule as System.step does, and its fingerprint and
// vector. Then it touches where each fingerprint goes in the visited set:
// the cache misses overlap instead of coming one at a time as takeState
// inserts them.
func (cs *collapsedStore) expand(i, d int32, rec []byte, out *expansion) {
	x, c := cs.x, cs.c
	cs.loaded = i
	if len(c.localB) >= cs.localsLimit {
		out.stop = errTooManyLocals
		return
	}
	n, k := c.n, c.k
	v := cs.v
	sum := binary.LittleEndian.Uint64(rec)
	readVec(rec[8:], v)
	wake := v[0]
	wakeTerm := uint64(0)
	if wake != 0 {
		wakeTerm = c.wakeTerm(wake)
	}
	cs.sum, cs.wakeTerm = sum, wakeTerm
	inFlight := 0
	for e := range k {
		inFlight += int(c.chanLen[v[1+n+e]])
	}
	acts := cs.enabled(cs.acts[:0], v)
	cs.acts = acts
	if x.reduce && len(acts) > 1 {
		acts = cs.ample(v, sum, wakeTerm, acts, d)
	}
	// The lists grow in local variables, stored back once: a slice kept
	// in the heap would pay the write barrier on every append while the
	// collector runs, which it often does here.
	first := len(out.cands)
	cands, every, exact := out.cands, x.sy.purity, x.opts.Exact || cs.keys
	var failed *StepError
	var failAt int
	for ai := range acts {
		ac := &acts[ai]
		p, e, msg := int(ac.p), int(ac.e), cs.msgOf(v, *ac)
		idx, err := cs.stepIdx(p, e, msg, v[1+p])
		if err != nil {
			failed, failAt = err, ai
			break
		}
		st := &c.steps[idx]
		if runs := countUse(&c.uses[idx], every); runs > 0 {
			if failed = cs.checkPurity(v, p, e, msg, idx, runs); failed != nil {
				failAt = ai
				break
			}
		}
		fp, nw := cs.next(v, sum, wakeTerm, p, e, msg, st)
		if exact {
			off := len(out.buf)
			out.buf = cs.appendKey(out.buf, v, p, nw, st)
			out.keys = append(out.keys, uint64(off)<<32|uint64(len(out.buf)))
		}
		wakes, pops := effect(ac.kind, p, e)
		_, after := afterEffect(0, inFlight, wakes, pops, int(st.sendEnd-st.send))
		// Like its parent (checkNew): the same decisions, not terminal.
		cands = append(cands, candidate{fp: fp, aux: uint64(idx)<<32 | uint64(msg), k: ac.k, p: uint8(p), e: int16(e),
			same: st.same && !terminal(spec.Set(nw), after)})
		if len(x.opts.Costs) > 0 {
			out.weights = append(out.weights, c.stepWeights(idx, x.opts.Costs)...)
		}
	}
	out.cands = cands
	if failed != nil {
		ac := acts[failAt]
		out.fail(failAt, failed, cs.action(int(ac.p), int(ac.e), cs.msgOf(v, ac)))
		return
	}
	if len(acts) > 1 {
		for _, cd := range cands[first:] {
			x.seen.peek(cd.fp)
		}
	}
	out.ncand = append(out.ncand, int32(len(acts)))
}

// checkPurity runs process p's step idx again, as purityDue says; after
// the runs of its first use, the step has passed its checks.
func (cs *collapsedStore) checkPurity(v []uint32, p, e int, msg uint32, idx uint32, runs int) *StepError {
	c, sy := cs.c, cs.x.sy
	st := &c.steps[idx]
	cs.sends = cs.sends[:0]
	for _, s := range c.sends[st.send:st.sendEnd] {
		cs.sends = append(cs.sends, spec.Send{Port: s.port, Msg: c.msgs[s.msg]})
	}
	local, a := c.localB[v[1+p]], cs.action(p, e, msg)
	if err := sy.checkPurity(local, a, c.localB[st.next], cs.sends, runs); err != nil {
		return err
	}
	if sy.checked != nil && c.uses[idx] == 1 {
		sy.checked.add(sy.stepPrint(local, a))
	}
	return nil
}

// keep writes the record of a new state, candidate c, straight into the
// window: its parent's (state i's) vector (still in cs.v: the loop takes
// a state's successors right after expanding it) with the changes of the
// step, taken again from the tables. Only new states' records are written:
// most successors are found before, so this is cheaper than noting every
// successor's changes (measured).
func (cs *collapsedStore) keep(win *window, i int32, out *expansion, c int) []byte {
	cd := &out.cands[c]
	if cs.loaded != i {
		cs.load(i) // expanded elsewhere (levels.go)
	}
	p, e, msg := int(cd.p), int(cd.e), uint32(cd.aux)
	st := &cs.c.steps[cd.aux>>32]
	_, nw := cs.next(cs.v, cs.sum, cs.wakeTerm, p, e, msg, st)
	w := cs.successor(cs.v, p, nw, st)
	ch := win.reserve(8 + 5*len(w))
	start := len(ch.buf)
	ch.buf = appendVec(binary.LittleEndian.AppendUint64(ch.buf, cd.fp), w)
	win.added()
	cs.rec = ch.buf[start:]
	return cs.rec
}

// load puts state i's vector, sum and wake-up term where expand leaves
// them for keep.
func (cs *collapsedStore) load(i int32) {
	c := cs.c
	rec := cs.x.kept.get(i)
	cs.sum = binary.LittleEndian.Uint64(rec)
	readVec(rec[8:], cs.v)
	cs.wakeTerm = 0
	if cs.v[0] != 0 {
		cs.wakeTerm = c.wakeTerm(cs.v[0])
	}
	cs.loaded = i
}

func (cs *collapsedStore) view(rec []byte, s *State, decs []spec.Decision) (int, []spec.Decision) {
	c := cs.c
	u := cs.w // the vector of the record just written, the usual case
	if len(rec) == 0 || len(cs.rec) == 0 || &rec[0] != &cs.rec[0] {
		u = cs.vec(rec)
	}
	// The decisions are in the tables: no local state is decoded.
	s.Wake, s.Clocks = spec.Set(u[0]), nil
	for _, l := range u[1 : 1+c.n] {
		decs = append(decs, c.localDec[l])
	}
	inFlight := 0
	for _, x := range u[1+c.n : 1+c.n+c.k] {
		inFlight += int(c.chanLen[x])
	}
	if c.clocked {
		cs.clocks = cs.clocks[:0]
		for _, t := range u[1+c.n+c.k:] {
			cs.clocks = append(cs.clocks, int32(t))
		}
		s.Clocks = cs.clocks
	}
	return inFlight, decs
}

// vec decodes a record's vector into scratch storage.
func (cs *collapsedStore) vec(rec []byte) []uint32 {
	u := cs.u[:0]
	for range cs.c.width() {
		u = append(u, 0)
	}
	readVec(rec[8:], u)
	cs.u = u
	return u
}

func (cs *collapsedStore) encoding(rec []byte) []byte {
	cs.enc = cs.c.encode(cs.enc[:0], cs.vec(rec))
	return cs.enc
}

// print is the fingerprint, in the collapsed search's terms, of the state
// encoded as enc.
func (cs *collapsedStore) print(enc []byte) uint64 {
	s := DecodeState(enc, cs.c.n, cs.c.k)
	cs.u = cs.c.vectorOf(cs.u[:0], &s, cs.x.sy.Machine)
	return cs.c.sum(cs.u)
}

func (cs *collapsedStore) bytes() int64 {
	if cs.c == nil {
		return 0
	}
	return cs.c.size
}

// uniform is searcher.uniform on vectors: permuting a vector moves its
// numbers, and successors come from the same tables as the search's. Each
// action of v is matched with its image in the rotated vector (process
// node[p], channel edge[e], the same message), so no list is sorted and
// the rotated vector's enabled actions are not listed again: the enabling
// rule reads only wake-up bits and channel contents, which the rotation
// moves together. The two fingerprints of each pair come by different
// sums: v's successor's terms moved, and the rotated vector's own sum
// with its successor's terms replaced.
func (cs *collapsedStore) uniform(rec []byte) bool {
	x, c := cs.x, cs.c
	n, k := c.n, c.k
	v := append(cs.r[:0], cs.vec(rec)...)
	cs.r = v
	sum := binary.LittleEndian.Uint64(rec)
	wakeTerm := c.wakeTerm(v[0])
	// As in uniform: a failing step is the search's to report, and makes
	// the comparison meaningless.
	failed, differ := false, false
	for si, sym := range x.sy.Config.Topology.Symmetries {
		node, edge := sym.Node, x.sy.symEdges[si]
		psum, pwake := c.permutedSum(v, node, edge), c.wakeTerm(permWake(v[0], node))
		rot := cs.permute(v, node, edge)
		rsum, rwake := c.sum(rot), c.wakeTerm(rot[0])
		cs.uacts = cs.enabled(cs.uacts[:0], v)
		for _, a := range cs.uacts {
			q, e, msg := int(a.p), int(a.e), cs.msgOf(v, a)
			st, err := cs.stepOf(q, e, msg, v[1+q])
			if err != nil {
				failed = true
				continue
			}
			_, nw := cs.next(v, sum, wakeTerm, q, e, msg, st)
			to := node[q]
			fp := psum - c.localTerm[int(v[1+q])*n+to] + c.localTerm[int(st.next)*n+to]
			if e < 0 {
				fp += c.wakeTerm(permWake(nw, node)) - pwake
			}
			for _, ch := range cs.chgBuf[:cs.nchg] {
				fp += c.chanTerm[int(ch.to)*k+edge[ch.edge]] - c.chanTerm[int(ch.old)*k+edge[ch.edge]]
			}
			if c.clocked {
				fp += c.clockTermOf(to, cs.clk) - c.clockTermOf(to, v[1+n+k+q])
			}
			f := e
			if e >= 0 {
				f = edge[e]
			}
			rst, err := cs.stepOf(to, f, msg, rot[1+to])
			if err != nil {
				failed = true
				continue
			}
			if rfp, _ := cs.next(rot, rsum, rwake, to, f, msg, rst); rfp != fp {
				differ = true
			}
		}
	}
	return failed || !differ
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

// permute returns vector v with its components moved by the node and
// channel maps of a symmetry, in scratch storage.
func (cs *collapsedStore) permute(v []uint32, node, edge []int) []uint32 {
	c := cs.c
	u := append(cs.p[:0], v...)
	u[0] = permWake(v[0], node)
	for q, to := range node {
		u[1+to] = v[1+q]
	}
	for e, to := range edge {
		u[1+c.n+to] = v[1+c.n+e]
	}
	if c.clocked {
		for q, to := range node {
			u[1+c.n+c.k+to] = v[1+c.n+c.k+q]
		}
	}
	cs.p = u
	return u
}

// permutedSum is c.sum(cs.permute(v, node, edge)) without building the
// permuted vector.
func (c *collapser) permutedSum(v []uint32, node, edge []int) uint64 {
	s := c.wakeTerm(permWake(v[0], node))
	for q, to := range node {
		s += c.localTerm[int(v[1+q])*c.n+to]
	}
	for e, to := range edge {
		s += c.chanTerm[int(v[1+c.n+e])*c.k+to]
	}
	if c.clocked {
		for q, to := range node {
			s += c.clockTermOf(to, v[1+c.n+c.k+q])
		}
	}
	return s
}

// action is the action of process p taking a wake-up (e < 0) or the
// delivery of message number msg from channel e.
func (cs *collapsedStore) action(p, e int, msg uint32) Action {
	if e < 0 {
		return Action{Kind: spec.Wake, Proc: p, Edge: -1}
	}
	return Action{Kind: spec.Deliver, Proc: p, Edge: e, Msg: cs.c.msgs[msg]}
}

// enabled appends the actions enabled in vector v to acts, by the
// enabling rule (System.enabled), so numbered as System.Enabled numbers
// them.
func (cs *collapsedStore) enabled(acts []slot, v []uint32) []slot {
	cs.vw = vecView{cs.c, v}
	// A channel's content number is 0 iff it is empty.
	return cs.x.sy.enabled(spec.Set(v[0]), v[1+cs.c.n:], &cs.vw, acts)
}

// msgOf is the number of the message action a of vector v delivers.
func (cs *collapsedStore) msgOf(v []uint32, a slot) uint32 { return cs.c.msgOf(v, a) }

// msgOf is collapsedStore.msgOf.
func (c *collapser) msgOf(v []uint32, a slot) uint32 {
	switch {
	case a.e < 0:
		return 0
	case c.bag:
		return c.chanSeq[v[1+c.n+int(a.e)]][a.j]
	}
	return c.chanHead[v[1+c.n+int(a.e)]]
}

// vecView is a collapsed state's bagView.
type vecView struct {
	c *collapser
	v []uint32
}

func (w *vecView) length(e int) int { return int(w.c.chanLen[w.v[1+w.c.n+e]]) }
func (w *vecView) repeats(e, j int) bool {
	seq := w.c.chanSeq[w.v[1+w.c.n+e]]
	return seq[j] == seq[j-1]
}

// stepOf returns process p's step from local state old on the wake-up
// (e < 0) or the delivery of message msg from channel e, looked up or run;
// a step that sends on a port p does not have is an error.
func (cs *collapsedStore) stepOf(p, e int, msg, old uint32) (*czStep, *StepError) {
	idx, err := cs.stepIdx(p, e, msg, old)
	if err != nil {
		return nil, err
	}
	return &cs.c.steps[idx], nil
}

// stepIdx is czStepOf giving the step's index in collapser.steps, which
// stays valid while later steps are added.
func (cs *collapsedStore) stepIdx(p, e int, msg, old uint32) (uint32, *StepError) {
	c, sy := cs.c, cs.x.sy
	base := msg
	if c.clocked && e >= 0 {
		base = c.msgBase[msg] // a step does not see the time
	}
	key := cs.stepKey(p, e, base, old)
	idx, ok := c.stepIdx.get(key)
	if !ok {
		if _, err := c.step(sy, old, cs.action(p, e, msg), base, key); err != nil {
			return 0, err
		}
		idx = uint32(len(c.steps) - 1)
	}
	st := &c.steps[idx]
	if int(st.maxPort) >= len(sy.outEdge[p]) { // route says what went wrong
		sends := c.sends[st.send:st.sendEnd]
		err := sy.route(cs.action(p, e, msg), len(sends),
			func(k int) spec.Port { return sends[k].port }, func(k int) spec.Message { return c.msgs[sends[k].msg] })
		return 0, err
	}
	return idx, nil
}

// stepKey is the step table's key of process p's step from local state
// old on the wake-up (e < 0) or the delivery of message msg from channel e.
func (cs *collapsedStore) stepKey(p, e int, msg, old uint32) uint64 {
	return stepKey(cs.inPort, cs.degree[p], e, msg, old)
}

// stepKey is collapsedStore.stepKey given the ports channels arrive at and
// the process's degree term (System.degree).
func stepKey(inPort []spec.Port, degree uint8, e int, msg, old uint32) uint64 {
	code := uint64(0) // a wake-up; a delivery: 1 + message<<8 | port
	if e >= 0 {
		code = 1 + (uint64(msg)<<8 | uint64(inPort[e]))
	}
	return uint64(old)<<40 | code<<5 | uint64(degree)
}

// next returns the fingerprint sum and the wake-up set of the successor
// of vector v (whose sum and wake-up term are given) by process p's step
// st, a wake-up (e < 0) or a delivery from channel e; the channels it
// changes are left in cs.chgBuf[:cs.nchg] (a buffer set up by begin, so
// that no slice header is stored per call: the write barrier would be
// paid while the collector runs).
func (cs *collapsedStore) next(v []uint32, sum, wakeTerm uint64, p, e int, msg uint32, st *czStep) (uint64, uint32) {
	fp, nw, nchg, _ := cs.c.next(cs.chgBuf[:0], cs.outEdge[p], false, v, sum, wakeTerm, p, e, msg, st)
	cs.nchg = nchg
	cs.clk = cs.c.clk
	return fp, nw
}

// next is collapsedStore.next for any caller: the changed channels go to
// chg[:nchg] (within its capacity), outs is process p's outgoing channels
// by port. If frozen, the tables are only read (levels.go), and ok is
// false if they lack a channel content the successor needs.
func (c *collapser) next(chg []czChange, outs []int, frozen bool, v []uint32, sum, wakeTerm uint64, p, e int, msg uint32, st *czStep) (fp uint64, nw uint32, nchg int, ok bool) {
	n, k := c.n, c.k
	kind, msgTime := spec.Deliver, int32(0) // a collapsed action with no channel is a wake-up
	if e < 0 {
		kind = spec.Wake
	} else if c.clocked {
		msgTime = c.msgs[msg].Time
	}
	mu := vecMut{wake: -1, in: -1}
	if c.clocked {
		mu.was = int32(v[1+n+k+p])
	}
	transitionVec(&mu, kind, p, e, msgTime, c.clocked)
	fp = sum - c.localTerm[int(v[1+p])*n+p] + c.localTerm[int(st.next)*n+p]
	nw = v[0]
	if mu.wake >= 0 {
		nw &^= 1 << uint(mu.wake)
		if frozen {
			fp += c.wakeTermFrozen(nw) - wakeTerm
		} else {
			fp += c.wakeTerm(nw) - wakeTerm
		}
	}
	ok = true
	c.clk = uint32(mu.clk)
	if c.clocked && mu.clk != mu.was {
		fp += c.clockTermOf(p, uint32(mu.clk)) - c.clockTermOf(p, uint32(mu.was))
	}
	if mu.in >= 0 {
		cont := v[1+n+mu.in]
		to, found := c.removedIf(cont, msg, frozen)
		ok = ok && found
		chg = append(chg, czChange{mu.in, cont, to})
	}
	for _, s := range c.sends[st.send:st.sendEnd] {
		o := outs[s.port]
		j := 0
		for j < len(chg) && chg[j].edge != o {
			j++
		}
		if j == len(chg) {
			chg = append(chg, czChange{o, v[1+n+o], v[1+n+o]})
		}
		m := s.msg
		if c.clocked {
			var found bool
			m, found = c.timedIf(m, uint32(mu.time), frozen)
			ok = ok && found
		}
		to, found := c.pushedIf(chg[j].to, m, frozen)
		ok = ok && found
		chg[j].to = to
	}
	for _, ch := range chg {
		fp += c.chanTerm[int(ch.to)*k+ch.edge] - c.chanTerm[int(ch.old)*k+ch.edge]
	}
	return fp, nw, len(chg), ok
}

// ample is ampleSet for a collapsed state v (its fingerprint sum and
// wake-up term given) at depth d: it chooses what the byte store's ample
// chooses, from the same tables as the expansion.
func (cs *collapsedStore) ample(v []uint32, sum, wakeTerm uint64, acts []slot, d int32) []slot {
	c, x := cs.c, cs.x
	n := c.n
	procs := cs.procs[:0]
	for _, a := range acts {
		procs = append(procs, a.p)
	}
	cs.procs = procs
	// A channel's content number is 0 iff it is empty.
	chosen, buf, _ := ampleSet(n, acts, cs.cand, procs,
		func(p int) bool { return x.sy.ready(p, v[0]&(1<<uint(p)) != 0, v[1+n:]) },
		func(_ int, a slot) bool {
			p, e, msg := int(a.p), int(a.e), cs.msgOf(v, a)
			st, err := cs.stepOf(p, e, msg, v[1+p])
			if err != nil || !st.same {
				return false
			}
			fp, nw := cs.next(v, sum, wakeTerm, p, e, msg, st)
			var key []byte
			if x.opts.Exact {
				cs.kbuf = cs.appendKey(cs.kbuf[:0], v, p, nw, st)
				key = cs.kbuf
			}
			return !x.closes(key, fp, d)
		})
	cs.cand = buf
	return chosen
}
