package spec

import (
	"encoding/binary"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncodingRoundTrip(t *testing.T) {
	var e Encoder
	e.Uint(300)
	e.Int(-7)
	e.Bool(true)
	e.ID(42)
	e.IDSet([]ID{5, 1, 3, 1})
	e.Message(Message{Kind: 2, ID: 9, Arg: [2]int32{-1, 1 << 20}})
	e.Raw([]byte("xyz"))
	d := NewDecoder(e.Bytes())
	got := []any{d.Uint(), d.Int(), d.Bool(), d.ID(), d.IDSet(), d.Message(), string(d.Raw())}
	want := []any{uint64(300), int64(-7), true, ID(42), []ID{1, 3, 5}, Message{Kind: 2, ID: 9, Arg: [2]int32{-1, 1 << 20}}, "xyz"}
	if diff := cmp.Diff(want, got); diff != "" || d.Err() != nil || len(d.Rest()) != 0 {
		t.Errorf("round trip (-want +got):\n%s err %v rest %v", diff, d.Err(), d.Rest())
	}
	// Reading past the end is an error, not a panic.
	d.Uint()
	if d.Err() != ErrCorrupt {
		t.Errorf("err = %v, want ErrCorrupt", d.Err())
	}
}

// The same set built in any order encodes alike: states must be canonical.
func TestIDSetIsCanonical(t *testing.T) {
	var a, b Encoder
	a.IDSet([]ID{3, 1, 2})
	b.IDSet([]ID{2, 3, 1, 3})
	if string(a.Bytes()) != string(b.Bytes()) {
		t.Errorf("%v != %v", a.Bytes(), b.Bytes())
	}
}

func TestMessageFormat(t *testing.T) {
	kinds := []string{"one", "two"}
	for m, want := range map[Message]string{
		{Kind: 0, ID: 3}:                      "one(3)",
		{Kind: 1}:                             "two",
		{Kind: 1, ID: 4, Arg: [2]int32{0, 2}}: "two(4,0,2)",
		{Kind: 7, ID: 1}:                      "kind7(1)",
	} {
		if got := m.Format(kinds); got != want {
			t.Errorf("%+v: %q, want %q", m, got, want)
		}
	}
}

// TestAppendMessageFastPath checks AppendMessage's one-byte shortcut
// against the varint encoding it stands for, around every boundary.
func TestAppendMessageFastPath(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 63, 64, -64, -65, 127, 128, 300, -300, 1 << 30, -1 << 31} {
		for _, m := range []Message{
			{Kind: 1, ID: ID(v)}, {Kind: 2, Arg: [2]int32{v, 0}}, {Kind: 3, Arg: [2]int32{5, v}},
			{Kind: 4, ID: 3, Time: max(v, 0)}, {Kind: 5, ID: ID(v), Arg: [2]int32{v, -v}, Time: max(-v, 0)},
		} {
			want := []byte{byte(m.Kind)}
			want = binary.AppendVarint(want, int64(m.ID))
			want = binary.AppendVarint(want, int64(m.Arg[0]))
			want = binary.AppendVarint(want, int64(m.Arg[1]))
			want = binary.AppendUvarint(want, uint64(m.Time))
			if got := AppendMessage(nil, m); string(got) != string(want) {
				t.Errorf("AppendMessage(%+v) = %v, want %v", m, got, want)
			}
		}
	}
}
