package spec

// Codec encodes or decodes a local state, whichever it was made for. A
// state lists its fields once, in a Fields method on its pointer, and the
// same list serves both directions, so that what is written and what is read
// cannot drift apart:
//
//	func (s *CRState) Fields(c *spec.Codec) {
//		c.ID(&s.ID)
//		spec.Uint(c, &s.phase)
//		c.ID(&s.Leader)
//	}
//
// When encoding, each call appends the field as the Encoder method of the
// same name would; when decoding, it reads the field back into the pointer.
// Errors are the Decoder's: sticky, reported by the erased machine.
type Codec struct {
	decoding bool
	e        Encoder
	d        Decoder
	// relabel, when encoding, maps every identity written through ID,
	// IDSet and Message (Relabel); raw records that Fields wrote through
	// the Encoder itself, where identities cannot be told apart.
	relabel func(ID) ID
	raw     bool
	// ports, when encoding, renumbers every port written through
	// PortField and PortSetField (RenamePorts).
	ports []Port
}

// Fielder is a local state (through its pointer) that lists its fields for
// a Codec. spec.Erase prefers it to the older pair of S.Encode and
// Protocol.Decode.
type Fielder interface {
	Fields(c *Codec)
}

// Decoding reports whether the codec reads (true) or writes (false): a
// state whose encoding is not a plain list of fields, a sorted map for
// instance, branches on it.
func (c *Codec) Decoding() bool { return c.decoding }

// Encoder returns the encoder of an encoding codec, nil when decoding.
// What a state writes through it directly is opaque to the comparison-only
// check's relabelling (Relabel): prefer the Codec's methods for ids.
func (c *Codec) Encoder() *Encoder {
	if c.decoding {
		return nil
	}
	c.raw = true
	return &c.e
}

// Decoder returns the decoder of a decoding codec, nil when encoding.
func (c *Codec) Decoder() *Decoder {
	if !c.decoding {
		return nil
	}
	return &c.d
}

// ID writes or reads an identity (Encoder.ID).
func (c *Codec) ID(p *ID) {
	switch {
	case c.decoding:
		*p = c.d.ID()
	case c.relabel != nil:
		c.e.ID(c.relabel(*p))
	default:
		c.e.ID(*p)
	}
}

// IDSet writes a set of identities in ascending order, or reads one back
// into a fresh slice (Encoder.IDSet).
func (c *Codec) IDSet(p *[]ID) {
	switch {
	case c.decoding:
		*p = c.d.IDSet()
	case c.relabel != nil:
		ids := make([]ID, len(*p))
		for i, id := range *p {
			ids[i] = c.relabel(id)
		}
		c.e.IDSet(ids)
	default:
		c.e.IDSet(*p)
	}
}

// Bool writes or reads a boolean (Encoder.Bool).
func (c *Codec) Bool(p *bool) {
	if c.decoding {
		*p = c.d.Bool()
	} else {
		c.e.Bool(*p)
	}
}

// Message writes or reads a message (Encoder.Message).
func (c *Codec) Message(p *Message) {
	switch {
	case c.decoding:
		*p = c.d.Message()
	case c.relabel != nil:
		m := *p
		m.ID = c.relabel(m.ID)
		c.e.Message(m)
	default:
		c.e.Message(*p)
	}
}

// Unsigned is the unsigned integer types, and the types defined on them
// (a protocol's phase type).
type Unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint
}

// Signed is the signed integer types, and the types defined on them.
type Signed interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int
}

// Uint writes or reads an unsigned field of any unsigned type, such as a
// phase, as an unsigned varint (Encoder.Uint). A function rather than a
// method because methods cannot have type parameters. A value that does not
// fit the field's type is an ErrCorrupt.
func Uint[T Unsigned](c *Codec, p *T) {
	if !c.decoding {
		c.e.Uint(uint64(*p))
		return
	}
	v := c.d.Uint()
	if uint64(T(v)) != v {
		c.d.fail()
	}
	*p = T(v)
}

// Int writes or reads a signed field of any signed type as a zig-zag
// varint (Encoder.Int). A value that does not fit is an ErrCorrupt.
func Int[T Signed](c *Codec, p *T) {
	if !c.decoding {
		c.e.Int(int64(*p))
		return
	}
	v := c.d.Int()
	if int64(T(v)) != v {
		c.d.fail()
	}
	*p = T(v)
}

// PortField writes or reads a field that names one of the process's
// ports, of any unsigned type, as Uint does. RenamePorts renumbers it: a
// protocol that declares spec.Info.PortBlind keeps its ports in such
// fields. A value that is not a port (at least the number of ports: a
// mark for "none") stays as it is.
func PortField[T Unsigned](c *Codec, p *T) {
	if !c.decoding && c.ports != nil && uint64(*p) < uint64(len(c.ports)) {
		c.e.Uint(uint64(c.ports[*p]))
		return
	}
	Uint(c, p)
}

// PortSetField writes or reads a set of ports as a bit mask (bit k for
// port k), of any unsigned type, as Uint does; RenamePorts renumbers its
// members. Bits beyond the process's ports stay as they are.
func PortSetField[T Unsigned](c *Codec, p *T) {
	if !c.decoding && c.ports != nil {
		v := uint64(*p)
		out := v &^ (uint64(1)<<len(c.ports) - 1)
		for k, to := range c.ports {
			if v&(1<<k) != 0 {
				out |= 1 << to
			}
		}
		c.e.Uint(out)
		return
	}
	Uint(c, p)
}
