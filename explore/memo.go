package explore

import (
	"encoding/binary"

	"github.com/elcheck/elcheck/spec"
)

// stepMemo remembers protocol steps. A step is a pure function of the
// process's local state and the event (the contract, which the purity check
// samples), so its result can be looked up instead of decoding the local
// state, running the step and encoding the result again: in a reachable
// graph the same local step recurs in many global states, and across the
// configurations of a sweep. It is bounded: when full it starts afresh.
type stepMemo struct {
	index  map[string]int32
	key    []byte
	locals []byte      // the new local states, back to back
	sends  []spec.Send // the sends, back to back
	steps  []memoStep
}

type memoStep struct{ local, localEnd, send, sendEnd uint32 }

// memoLimit bounds what the memo holds, in bytes (about).
const memoLimit = 32 << 20

// keyOf builds the memo key of a step: the local state, then the event.
func (m *stepMemo) keyOf(local []byte, ev spec.Event) []byte {
	k := append(m.key[:0], local...)
	k = append(k, byte(ev.Kind))
	k = binary.AppendUvarint(k, uint64(ev.Port))
	k = spec.AppendMessage(k, ev.Msg)
	m.key = k
	return k
}

// get appends the remembered new local state of the step keyed by key to
// dst, and returns it with the step's sends, if the step is remembered.
func (m *stepMemo) get(dst, key []byte) ([]byte, []spec.Send, bool) {
	i, ok := m.index[string(key)]
	if !ok {
		return nil, nil, false
	}
	s := m.steps[i]
	return append(dst, m.locals[s.local:s.localEnd]...), m.sends[s.send:s.sendEnd:s.sendEnd], true
}

// put remembers a step's result.
func (m *stepMemo) put(key, next []byte, sends []spec.Send) {
	if m.index == nil || m.bytes() > memoLimit {
		m.index = make(map[string]int32)
		m.locals, m.sends, m.steps = m.locals[:0], m.sends[:0], m.steps[:0]
	}
	s := memoStep{local: uint32(len(m.locals)), send: uint32(len(m.sends))}
	m.locals = append(m.locals, next...)
	m.sends = append(m.sends, sends...)
	s.localEnd, s.sendEnd = uint32(len(m.locals)), uint32(len(m.sends))
	m.index[string(key)] = int32(len(m.steps))
	m.steps = append(m.steps, s)
}

// bytes estimates what the memo holds.
func (m *stepMemo) bytes() int64 {
	const perEntry = 64 // the map's entry and the key's header
	return int64(len(m.index))*perEntry + int64(len(m.locals)) + int64(len(m.sends))*24 +
		int64(len(m.steps))*16 + int64(len(m.key))*int64(len(m.index))
}
