package explore

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/elcheck/elcheck/internal/hash"
	"github.com/elcheck/elcheck/spec"
)

// State is a global state: every process's encoded local state, every
// channel's contents, and the initiators that have not woken yet. It holds
// nothing else: costs such as message counts are computed over the
// reachable graph afterwards, so two paths to the same state merge and a
// protocol that runs forever shows up as a cycle rather than as an
// unbounded counter.
type State struct {
	// Locals[i] is process i's local state, encoded by the protocol.
	Locals [][]byte
	// Chans[e] is the contents of channel e (spec.Topology.Edges[e]),
	// oldest first; on bag channels, sorted by spec.Message.Compare.
	Chans [][]spec.Message
	// Wake is the set of initiators whose spontaneous start is pending.
	Wake spec.Set
	// Clocks[i] is process i's causal clock: the length of the longest
	// chain of messages that ends at its last step. Nil unless the search
	// measures time (Options.Time); messages then carry their send time.
	Clocks []int32
	// Held[i] is what process i, blocked on a full channel, has still to
	// send, oldest first: on channels of bounded capacity
	// (spec.Config.Capacity) a send into a full channel blocks the sender
	// until the receiver makes room, and its later sends wait behind it.
	// Nil when channels are unbounded.
	Held [][]spec.Send
}

// InFlight counts the messages in all channels, and those held by blocked
// senders.
func (s *State) InFlight() int {
	k := 0
	for _, c := range s.Chans {
		k += len(c)
	}
	for _, h := range s.Held {
		k += len(h)
	}
	return k
}

// Encode appends the canonical encoding of s to dst.
func (s *State) Encode(dst []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(s.Wake))
	for _, l := range s.Locals {
		dst = binary.AppendUvarint(dst, uint64(len(l)))
		dst = append(dst, l...)
	}
	for _, c := range s.Chans {
		dst = binary.AppendUvarint(dst, uint64(len(c)))
		for _, m := range c {
			dst = spec.AppendMessage(dst, m)
		}
	}
	for _, h := range s.Held {
		dst = binary.AppendUvarint(dst, uint64(len(h)))
		for _, snd := range h {
			dst = append(dst, byte(snd.Port))
			dst = spec.AppendMessage(dst, snd.Msg)
		}
	}
	for _, c := range s.Clocks {
		dst = binary.AppendUvarint(dst, uint64(c))
	}
	return dst
}

// DecodeState reads an encoding of a state with n processes and k channels.
// Local states alias b.
func DecodeState(b []byte, n, k int) State {
	var s State
	decodeInto(&s, nil, b, n, k, false, nil)
	return s
}

// Decode reads an encoding of a state of sy's configuration.
func (sy *System) Decode(b []byte) State {
	var s State
	sy.decodeInto(&s, nil, b, nil)
	return s
}

// decodeInto is decodeInto for sy's configuration.
func (sy *System) decodeInto(s *State, msgs []spec.Message, b []byte, lay *layout) []spec.Message {
	return decodeInto(s, msgs, b, sy.N(), len(sy.Config.Topology.Edges), sy.Config.Capacity > 0, lay)
}

// layout is where the parts of a state's encoding are, for building a
// successor's encoding by copying the parts a step does not change:
// at[0] is the wake set, at[1+i] process i's local state, at[1+n+e]
// channel e (its count, then its messages), at[1+n+k] the clocks or the
// end; head[e] is where channel e's second message starts.
type layout struct {
	at, head []int32
	// count[e] is the number of messages in channel e. With headsOnly,
	// decodeInto decodes only the first message of each channel (all
	// that Enabled reads on FIFO channels), and the state's channels hold
	// just that: count has the real lengths.
	count     []int32
	headsOnly bool
}

// decodeInto decodes b into s, reusing s's slices and msgs (which holds
// every channel's messages back to back); it returns msgs for reuse. If
// lay is not nil it records the layout of b. held says that the processes'
// held sends follow the channels (State.Held).
func decodeInto(s *State, msgs []spec.Message, b []byte, n, k int, held bool, lay *layout) []spec.Message {
	d := reader{b: b}
	if lay != nil {
		lay.reset()
	}
	s.Wake = spec.Set(d.uint())
	s.Locals = d.locals(s.Locals, n, lay)
	// The channels' lengths, until msgs stops growing: on the stack for
	// all but the largest topologies.
	var buf [64]int
	counts := buf[:0]
	if k > len(buf) {
		counts = make([]int, 0, k)
	}
	if lay != nil && lay.headsOnly {
		msgs, counts = d.channelHeads(msgs[:0], counts, k, lay)
	} else {
		msgs, counts = d.channels(msgs[:0], counts, k, lay)
	}
	if lay != nil {
		lay.at = append(lay.at, int32(d.p))
	}
	s.Held = nil
	if held {
		s.Held = d.held(n)
	}
	s.Clocks = s.Clocks[:0]
	if d.p < len(b) { // clocks follow when time is measured
		for range n {
			s.Clocks = append(s.Clocks, int32(d.uint()))
		}
	} else {
		s.Clocks = nil
	}
	if d.bad || d.p != len(b) {
		panic("explore: corrupt state encoding")
	}
	s.Chans = sliceChannels(s.Chans, msgs, counts)
	return msgs
}

// reset empties the layout for a new encoding, whose wake set is at 0.
func (lay *layout) reset() {
	lay.at = append(lay.at[:0], 0)
	lay.head = lay.head[:0]
	lay.count = lay.count[:0]
}

// locals reads n processes' local states into dst, aliasing the input,
// and notes where each starts in lay if it is not nil.
func (r *reader) locals(dst [][]byte, n int, lay *layout) [][]byte {
	dst = slices.Grow(dst[:0], n)[:n]
	for i := range n {
		if lay != nil {
			lay.at = append(lay.at, int32(r.p))
		}
		dst[i] = r.raw()
	}
	return dst
}

// channels reads k channels' messages, appending them to msgs and their
// lengths to counts, and notes each channel's layout in lay if it is not
// nil.
func (r *reader) channels(msgs []spec.Message, counts []int, k int, lay *layout) ([]spec.Message, []int) {
	for range k {
		if lay != nil {
			lay.at = append(lay.at, int32(r.p))
		}
		c := int(r.uint())
		if lay != nil {
			lay.count = append(lay.count, int32(c))
		}
		for j := range c {
			msgs = append(msgs, r.message())
			if lay != nil && j == 0 {
				lay.head = append(lay.head, int32(r.p))
			}
		}
		if lay != nil && c == 0 {
			lay.head = append(lay.head, int32(r.p))
		}
		counts = append(counts, c)
	}
	return msgs, counts
}

// channelHeads is channels for a layout with headsOnly: it reads only the
// first message of each channel and skips the others, so the lengths in
// counts are at most 1; lay.count has the real ones.
func (r *reader) channelHeads(msgs []spec.Message, counts []int, k int, lay *layout) ([]spec.Message, []int) {
	for range k {
		lay.at = append(lay.at, int32(r.p))
		c := int(r.uint())
		lay.count = append(lay.count, int32(c))
		if c > 0 {
			msgs = append(msgs, r.message())
		}
		lay.head = append(lay.head, int32(r.p))
		for range c - 1 {
			r.skipMessage()
		}
		counts = append(counts, min(c, 1))
	}
	return msgs, counts
}

// held reads the sends held by each of n processes (State.Held).
func (r *reader) held(n int) [][]spec.Send {
	h := make([][]spec.Send, n)
	for i := range n {
		for range r.uint() {
			port := spec.Port(r.byte())
			h[i] = append(h[i], spec.Send{Port: port, Msg: r.message()})
		}
	}
	return h
}

// sliceChannels returns chans, reused, with channel e holding the next
// counts[e] messages of msgs (nil if none), capped so that appending to a
// channel copies it.
func sliceChannels(chans [][]spec.Message, msgs []spec.Message, counts []int) [][]spec.Message {
	chans = slices.Grow(chans[:0], len(counts))[:len(counts)]
	off := 0
	for e, c := range counts {
		chans[e] = nil
		if c > 0 {
			chans[e] = msgs[off : off+c : off+c]
		}
		off += c
	}
	return chans
}

// inFlight is the number of messages in flight in the state laid out.
func (lay *layout) inFlight() int {
	n := 0
	for _, c := range lay.count {
		n += int(c)
	}
	return n
}

// reader decodes what State.Encode writes, faster than spec.Decoder: no
// allocation, and a one-byte varint (the usual case) without a call.
type reader struct {
	b   []byte
	p   int
	bad bool
}

func (r *reader) uint() uint64 {
	if p := r.p; p < len(r.b) && r.b[p] < 0x80 {
		r.p = p + 1
		return uint64(r.b[p])
	}
	return r.uintSlow()
}

// byte reads one byte.
func (r *reader) byte() byte {
	if r.p >= len(r.b) {
		r.bad = true
		return 0
	}
	r.p++
	return r.b[r.p-1]
}

// uintSlow is uint's case of a varint longer than a byte, out of line so
// that uint inlines.
func (r *reader) uintSlow() uint64 {
	v, k := binary.Uvarint(r.b[r.p:])
	if k <= 0 {
		r.bad, r.p = true, len(r.b)
		return 0
	}
	r.p += k
	return v
}

// int reads a zig-zag varint, as binary.AppendVarint writes it.
func (r *reader) int() int64 {
	u := r.uint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// message reads what spec.AppendMessage writes.
func (r *reader) message() spec.Message {
	// The usual case: a kind byte and four one-byte varints.
	if b, p := r.b, r.p; p+5 <= len(b) && (b[p+1]|b[p+2]|b[p+3]|b[p+4])&0x80 == 0 {
		r.p = p + 5
		return spec.Message{Kind: spec.Kind(b[p]), ID: spec.ID(unzig(b[p+1])),
			Arg: [2]int32{unzig(b[p+2]), unzig(b[p+3])}, Time: int32(b[p+4])}
	}
	if r.p >= len(r.b) {
		r.bad = true
		return spec.Message{}
	}
	m := spec.Message{Kind: spec.Kind(r.b[r.p])}
	r.p++
	m.ID = spec.ID(r.int())
	m.Arg[0] = int32(r.int())
	m.Arg[1] = int32(r.int())
	m.Time = int32(r.uint())
	return m
}

// unzig decodes a one-byte zig-zag varint.
func unzig(c byte) int32 { return int32(c>>1) ^ -int32(c&1) }

// skipMessage skips what spec.AppendMessage writes: a kind byte and four
// varints.
func (r *reader) skipMessage() {
	p := r.p + 1
	for range 4 {
		for p < len(r.b) && r.b[p] >= 0x80 {
			p++
		}
		p++
	}
	if p > len(r.b) {
		r.bad, p = true, len(r.b)
	}
	r.p = p
}

// raw reads a length-prefixed byte string, aliasing the input.
func (r *reader) raw() []byte {
	n := r.uint()
	if n > uint64(len(r.b)-r.p) {
		r.bad, r.p = true, len(r.b)
		return nil
	}
	b := r.b[r.p : r.p+int(n) : r.p+int(n)]
	r.p += int(n)
	return b
}

// Action is one transition: a pending initiator wakes up, or the message
// Msg at the head of channel Edge (any copy of it, on bag channels) is
// delivered.
type Action struct {
	Kind spec.EventKind
	// Proc is the process that takes the step.
	Proc int
	// Edge is the channel a delivery takes its message from.
	Edge int
	// Msg is the delivered message.
	Msg spec.Message
	// Choice is the alternatives the step takes at its choice points
	// (spec.Outbox.Choose); 0 for a step that does not choose. Enabled
	// lists one action per alternative.
	Choice spec.Choice
}

// fingerprint is the stable 64-bit hash of a state's encoding
// (hash.Bytes): the same in every run, build and process.
func fingerprint(p []byte) uint64 { return hash.Bytes(p) }

// mix is hash.Mix.
func mix(x uint64) uint64 { return hash.Mix(x) }

// copyUpTo appends p's parts from cur up to part c (not included) to dst,
// and returns the part after c as the new cur: the successor's part c is
// written next.
func copyUpTo(dst, p []byte, lay *layout, cur int32, c int) ([]byte, int32) {
	return append(dst, p[lay.at[cur]:lay.at[c]]...), int32(c) + 1
}

// uvarintLen is the length of v's uvarint encoding.
func uvarintLen(v uint64) int { return (bits.Len64(v|1) + 6) / 7 }
