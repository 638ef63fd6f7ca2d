package explore

import (
	"bytes"
	"encoding/binary"

	"github.com/elcheck/elcheck/spec"
)

// stepMemo remembers protocol steps. A step is a pure function of the
// process's local state and the event (the contract, which the purity check
// samples), so its result can be looked up instead of decoding the local
// state, running the step and encoding the result again: in a reachable
// graph the same local step recurs in many global states, and across the
// configurations of a sweep. It is bounded: when full it starts afresh.
//
// It is an open-addressing table of its own rather than a map[string]: a
// lookup is one hash of the key bytes, which are compared only on a
// matching hash, and nothing is allocated per entry.
type stepMemo struct {
	slots  []int32 // 1 + index into steps, or 0; a power of two long
	key    []byte  // the key being looked up
	keys   []byte  // the keys, back to back
	locals []byte  // the new local states, back to back
	sends  []spec.Send
	steps  []memoStep
}

type memoStep struct {
	hash                         uint64
	key, keyEnd, local, localEnd uint32
	send, sendEnd                uint32
	same                         bool   // the step keeps the process's decision
	uses                         uint32 // lookups so far, for the purity check (System.step)
}

// memoLimit bounds what the memo holds, in bytes (about).
const memoLimit = 32 << 20

// keyOf builds the memo key of a step: the local state, then the event,
// the alternatives it takes (Action.Choice) and its process's degree term
// (System.degree).
func (m *stepMemo) keyOf(local []byte, ev spec.Event, c spec.Choice, degree uint8) []byte {
	k := append(m.key[:0], local...)
	k = binary.LittleEndian.AppendUint32(k, uint32(c))
	k = append(k, byte(ev.Kind))
	k = binary.AppendUvarint(k, uint64(ev.Port))
	k = spec.AppendMessage(k, ev.Msg)
	k = append(k, degree)
	m.key = k
	return k
}

// find returns the slot of key, whose hash is h: the slot holding it, or
// the empty slot where it would go.
func (m *stepMemo) find(key []byte, h uint64) int {
	mask := len(m.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		j := m.slots[i]
		if j == 0 {
			return i
		}
		if s := &m.steps[j-1]; s.hash == h && bytes.Equal(m.keys[s.key:s.keyEnd], key) {
			return i
		}
	}
}

// get appends the remembered new local state of the step keyed by key to
// dst, and returns it with the step's sends, whether the step keeps the
// process's decision and its count of uses, if the step is remembered.
func (m *stepMemo) get(dst, key []byte) ([]byte, []spec.Send, bool, *uint32, bool) {
	if len(m.slots) == 0 {
		return nil, nil, false, nil, false
	}
	j := m.slots[m.find(key, fingerprint(key))]
	if j == 0 {
		return nil, nil, false, nil, false
	}
	s := &m.steps[j-1]
	return append(dst, m.locals[s.local:s.localEnd]...), m.sends[s.send:s.sendEnd:s.sendEnd], s.same, &s.uses, true
}

// put remembers a step's result; key must not be remembered yet.
func (m *stepMemo) put(key, next []byte, sends []spec.Send, same bool) {
	if len(m.slots) == 0 || m.bytes() > memoLimit {
		m.slots = make([]int32, 1024)
		m.keys, m.locals, m.sends, m.steps = m.keys[:0], m.locals[:0], m.sends[:0], m.steps[:0]
	}
	if 2*(len(m.steps)+1) > len(m.slots) { // keep the table at most half full
		m.slots = make([]int32, 2*len(m.slots))
		for j := range m.steps {
			m.slots[m.free(m.steps[j].hash)] = int32(j + 1)
		}
	}
	h := fingerprint(key)
	s := memoStep{hash: h, key: uint32(len(m.keys)), local: uint32(len(m.locals)), send: uint32(len(m.sends)), same: same, uses: 1}
	m.keys = append(m.keys, key...)
	m.locals = append(m.locals, next...)
	m.sends = append(m.sends, sends...)
	s.keyEnd, s.localEnd, s.sendEnd = uint32(len(m.keys)), uint32(len(m.locals)), uint32(len(m.sends))
	m.steps = append(m.steps, s)
	m.slots[m.find(key, h)] = int32(len(m.steps))
}

// free returns the first empty slot for hash h.
func (m *stepMemo) free(h uint64) int {
	mask := len(m.slots) - 1
	i := int(h) & mask
	for m.slots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// bytes estimates what the memo holds.
func (m *stepMemo) bytes() int64 {
	return int64(len(m.slots))*4 + int64(len(m.keys)) + int64(len(m.locals)) +
		int64(len(m.sends))*24 + int64(len(m.steps))*40
}
