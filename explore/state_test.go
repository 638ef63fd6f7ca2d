package explore

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// TestEncodeSuccessor checks that splicing a successor's encoding from its
// parent's (spliceStep) gives exactly the bytes of encoding it whole, on every
// transition of every protocol's reachable graphs for n <= 4 (FIFO, where
// the search splices), so fingerprints and digests do not depend on which
// way a state was encoded.
func TestEncodeSuccessor(t *testing.T) {
	for _, m := range protocols.All() {
		if m.Info().Channels != spec.FIFO {
			continue
		}
		transitions := 0
		for n := 1; n <= fixtures.MaxWholeN(m.Info(), 4); n++ {
			for cfg := range (configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: spec.FIFO}).Configs() {
				sy := NewSystem(m, cfg)
				k := len(cfg.Topology.Edges)
				init := sy.Initial()
				queue := [][]byte{init.Encode(nil)}
				seen := map[string]bool{string(queue[0]): true}
				var s State
				var lay layout
				for len(queue) > 0 {
					p := queue[0]
					queue = queue[1:]
					decodeInto(&s, nil, p, n, k, false, &lay)
					for _, a := range sy.Enabled(&s, nil) {
						next, _, err := sy.Apply(&s, a)
						if err != nil {
							continue
						}
						want := next.Encode(nil)
						// spliceStep, from the state decoded whole and heads only.
						var sc scratch
						lean, err := sy.spliceStep(nil, &sc, p, &lay, &s, a)
						if err != nil || !bytes.Equal(lean, want) {
							t.Fatalf("%s %v: after %+v: spliceStep gave %x (%v), encoded %x", m.Info().Name, cfg, a, lean, err, want)
						}
						hl := layout{headsOnly: true}
						var hs State
						decodeInto(&hs, nil, p, n, k, false, &hl)
						if hl.inFlight() != s.InFlight() || !slices.Equal(sy.Enabled(&hs, nil), sy.Enabled(&s, nil)) {
							t.Fatalf("%s %v: decoding heads only: %d in flight, enabled %v; whole: %d, %v", m.Info().Name, cfg, hl.inFlight(), sy.Enabled(&hs, nil), s.InFlight(), sy.Enabled(&s, nil))
						}
						if lean, err = sy.spliceStep(nil, &sc, p, &hl, &hs, a); err != nil || !bytes.Equal(lean, want) {
							t.Fatalf("%s %v: after %+v, heads only: spliceStep gave %x (%v), encoded %x", m.Info().Name, cfg, a, lean, err, want)
						}
						transitions++
						if !seen[string(want)] {
							seen[string(want)] = true
							queue = append(queue, want)
						}
					}
				}
			}
		}
		if transitions == 0 {
			t.Errorf("%s: no transition checked", m.Info().Name)
		}
	}
}

// TestReaderMessage checks that the explorer's fast reader reads messages
// exactly as spec.AppendMessage writes them, extremes included.
func TestReaderMessage(t *testing.T) {
	var b []byte
	var want []spec.Message
	for _, v := range []int32{0, 1, -1, 63, 64, -65, 1 << 20, -(1 << 30), 1<<31 - 1, -1 << 31} {
		m := spec.Message{Kind: spec.Kind(v & 7), ID: spec.ID(v), Arg: [2]int32{v, -v}, Time: max(v, 0)}
		want = append(want, m)
		b = spec.AppendMessage(b, m)
	}
	r := reader{b: b}
	for _, w := range want {
		if got := r.message(); got != w {
			t.Fatalf("read %+v, wrote %+v", got, w)
		}
	}
	if r.bad || r.p != len(b) {
		t.Fatalf("reader: bad %v, at %d of %d", r.bad, r.p, len(b))
	}
}

// TestFingerprintSpreads checks the fingerprint on what the visited set
// relies on: every length from 0 to 200 (each code path of the hash), each
// one-bit change of the input, and no collision among them.
func TestFingerprintSpreads(t *testing.T) {
	seen := map[uint64]string{}
	add := func(b []byte, what string) {
		fp := fingerprint(b)
		if prev, ok := seen[fp]; ok {
			t.Fatalf("%s and %s have the same fingerprint %x", what, prev, fp)
		}
		seen[fp] = what
	}
	for n := 0; n <= 200; n++ {
		b := make([]byte, n)
		add(b, fmt.Sprintf("%d zero bytes", n))
		for i := range n {
			for bit := range 8 {
				b[i] ^= 1 << bit
				add(b, fmt.Sprintf("%d zero bytes with bit %d of byte %d set", n, bit, i))
				b[i] ^= 1 << bit
			}
		}
	}
}

// TestReaderMessageShortAndLong checks the reader's one-byte fast path
// against spec.AppendMessage for small, negative and large fields.
func TestReaderMessageShortAndLong(t *testing.T) {
	for _, m := range []spec.Message{
		{},
		{Kind: 3, ID: 63, Arg: [2]int32{-64, 1}, Time: 127},
		{Kind: 1, ID: -1, Arg: [2]int32{0, -3}},
		{Kind: 2, ID: 64, Arg: [2]int32{-65, 1 << 20}, Time: 128},
	} {
		b := spec.AppendMessage([]byte{9}, m)
		r := reader{b: b, p: 1}
		if got := r.message(); got != m || r.bad || r.p != len(b) {
			t.Errorf("message %+v read back as %+v (bad %v, at %d of %d)", m, got, r.bad, r.p, len(b))
		}
	}
}

func TestStateEncodingRoundTrip(t *testing.T) {
	s := State{
		Locals: [][]byte{{1, 2, 3}, {}, {7}},
		Chans:  [][]spec.Message{{{Kind: 1, ID: 3}, {Kind: 0, ID: 2, Arg: [2]int32{-1, 5}}}, nil, {{Kind: 2}}},
		Wake:   spec.Set(5),
	}
	got := DecodeState(s.Encode(nil), 3, 3)
	if diff := cmp.Diff(s, got, cmp.Comparer(func(a, b []byte) bool { return string(a) == string(b) })); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// The fingerprint must not change between runs or builds: counts and
// traces are reproducible only if it does not.
func TestFingerprintIsStable(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"", 0x9ac2c3a040ba9638},
		{"elcheck", 0x1a630deb22accf5a},
		{"a longer input of more than eight bytes", 0x4e69fcf6c899a663},
		{"an input of more than forty-eight bytes, which takes the three-lane loop", 0x9ae147074788f04},
	}
	for _, tt := range tests {
		if got := fingerprint([]byte(tt.in)); got != tt.want {
			t.Errorf("fingerprint(%q) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
}
