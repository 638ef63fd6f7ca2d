package spec

import (
	"encoding/binary"
	"errors"
	"slices"
)

// Encoder builds a canonical byte encoding with varints. The zero value is
// ready to use.
type Encoder struct {
	buf []byte
}

// Bytes returns the encoding so far.
func (e *Encoder) Bytes() []byte { return e.buf }

// Reset empties the encoder, keeping its storage.
func (e *Encoder) Reset() { e.buf = e.buf[:0] }

// Uint appends an unsigned varint.
func (e *Encoder) Uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }

// Int appends a signed (zig-zag) varint.
func (e *Encoder) Int(v int64) { e.buf = binary.AppendVarint(e.buf, v) }

// Bool appends 0 or 1.
func (e *Encoder) Bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// ID appends an identity.
func (e *Encoder) ID(id ID) { e.Int(int64(id)) }

// IDSet appends a set of identities in ascending order, so that the same set
// always encodes the same way whatever order it was built in.
func (e *Encoder) IDSet(ids []ID) {
	s := slices.Clone(ids)
	slices.Sort(s)
	s = slices.Compact(s)
	e.Uint(uint64(len(s)))
	for _, id := range s {
		e.ID(id)
	}
}

// Message appends a message.
func (e *Encoder) Message(m Message) { e.buf = AppendMessage(e.buf, m) }

// AppendMessage appends the encoding of m to dst, as Encoder.Message does.
func AppendMessage(dst []byte, m Message) []byte {
	// The usual case, the same bytes written at once: every field fits
	// one varint byte (zig-zag values in [-64, 63], time below 128).
	if uint32(m.ID+64)|uint32(m.Arg[0]+64)|uint32(m.Arg[1]+64)|uint32(m.Time) < 128 {
		return append(dst, byte(m.Kind), zig(int32(m.ID)), zig(m.Arg[0]), zig(m.Arg[1]), byte(m.Time))
	}
	dst = append(dst, byte(m.Kind))
	dst = binary.AppendVarint(dst, int64(m.ID))
	dst = binary.AppendVarint(dst, int64(m.Arg[0]))
	dst = binary.AppendVarint(dst, int64(m.Arg[1]))
	return binary.AppendUvarint(dst, uint64(m.Time))
}

// zig is the one-byte zig-zag varint of x in [-64, 63].
func zig(x int32) byte { return byte(uint32(x<<1) ^ uint32(x>>31)) }

// Raw appends a length-prefixed byte string.
func (e *Encoder) Raw(b []byte) {
	e.Uint(uint64(len(b)))
	e.buf = append(e.buf, b...)
}

// ErrCorrupt is reported by a Decoder that ran past its input or read a
// malformed varint.
var ErrCorrupt = errors.New("corrupt encoding")

// Decoder reads what an Encoder wrote. Errors are sticky: after the first
// one every read returns zero and Err reports it.
type Decoder struct {
	buf []byte
	err error
}

// NewDecoder reads b.
func NewDecoder(b []byte) *Decoder { return &Decoder{buf: b} }

// Err returns the first error met, if any.
func (d *Decoder) Err() error { return d.err }

// fail records ErrCorrupt unless an error is recorded already.
func (d *Decoder) fail() {
	if d.err == nil {
		d.err = ErrCorrupt
	}
}

// Rest returns the bytes not read yet.
func (d *Decoder) Rest() []byte { return d.buf }

// Uint reads an unsigned varint.
func (d *Decoder) Uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Uvarint(d.buf)
	if k <= 0 {
		d.err = ErrCorrupt
		return 0
	}
	d.buf = d.buf[k:]
	return v
}

// Int reads a signed varint.
func (d *Decoder) Int() int64 {
	if d.err != nil {
		return 0
	}
	v, k := binary.Varint(d.buf)
	if k <= 0 {
		d.err = ErrCorrupt
		return 0
	}
	d.buf = d.buf[k:]
	return v
}

// Bool reads a boolean.
func (d *Decoder) Bool() bool { return d.Uint() != 0 }

// ID reads an identity.
func (d *Decoder) ID() ID { return ID(d.Int()) }

// IDSet reads a set written by Encoder.IDSet.
func (d *Decoder) IDSet() []ID {
	n := d.Uint()
	if n > uint64(len(d.buf)) {
		d.err = ErrCorrupt
		return nil
	}
	ids := make([]ID, 0, n)
	for range n {
		ids = append(ids, d.ID())
	}
	return ids
}

// Message reads a message.
func (d *Decoder) Message() Message {
	if d.err != nil {
		return Message{}
	}
	if len(d.buf) == 0 {
		d.err = ErrCorrupt
		return Message{}
	}
	m := Message{Kind: Kind(d.buf[0])}
	d.buf = d.buf[1:]
	m.ID = d.ID()
	m.Arg[0] = int32(d.Int())
	m.Arg[1] = int32(d.Int())
	m.Time = int32(d.Uint())
	return m
}

// Raw reads a length-prefixed byte string. The result aliases the input.
func (d *Decoder) Raw() []byte {
	n := d.Uint()
	if d.err != nil {
		return nil
	}
	if n > uint64(len(d.buf)) {
		d.err = ErrCorrupt
		return nil
	}
	b := d.buf[:n:n]
	d.buf = d.buf[n:]
	return b
}
