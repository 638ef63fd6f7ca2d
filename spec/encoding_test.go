package spec

import (
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
