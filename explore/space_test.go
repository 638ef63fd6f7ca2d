package explore

import (
	"testing"

	"github.com/elcheck/elcheck/spec"
	"github.com/google/go-cmp/cmp"
)

func TestSpaceCount(t *testing.T) {
	tests := []struct {
		space Space
		want  int
	}{
		{Space{N: 1}, 1},
		{Space{N: 3}, 2 * 7},
		{Space{N: 5}, 24 * 31},
		{Space{N: 7}, 720 * 127}, // 91,440: one SPIN run each
		{Space{N: 5, IDs: []spec.ID{1, 2, 3, 4, 5}}, 31},
		{Space{N: 5, Initiators: 3}, 24},
		{Space{N: 5, IDs: []spec.ID{1, 2, 3, 4, 5}, Initiators: 3}, 1},
	}
	for _, tt := range tests {
		got := 0
		seen := map[string]bool{}
		for cfg := range tt.space.Configs() {
			got++
			key := spec.Config{IDs: cfg.IDs, Initiators: cfg.Initiators}.String()
			if seen[key] {
				t.Errorf("%+v: configuration %s enumerated twice", tt.space, key)
			}
			seen[key] = true
			if cfg.Initiators == 0 || cfg.IDs[0] != 1 && tt.space.IDs == nil {
				t.Errorf("%+v: bad configuration %s", tt.space, key)
			}
		}
		if got != tt.want || tt.space.Count() != tt.want {
			t.Errorf("%+v: enumerated %d, Count %d, want %d", tt.space, got, tt.space.Count(), tt.want)
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

// The shards of a space are disjoint, cover it, and keep the enumeration
// index of every configuration.
func TestShardsPartitionTheSpace(t *testing.T) {
	whole := Space{N: 4}
	var all []int
	for k := range whole.Indexed() {
		all = append(all, k)
	}
	for _, shards := range []int{1, 2, 3, 7, 200} {
		seen := make([]int, len(all))
		for i := range shards {
			sp := whole
			sp.Shard, sp.Shards = i, shards
			count := 0
			for k := range sp.Indexed() {
				seen[k]++
				count++
			}
			if count != sp.Count() {
				t.Errorf("shard %d/%d: enumerated %d, Count %d", i, shards, count, sp.Count())
			}
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: configuration %d seen %d times", shards, k, c)
			}
		}
	}
}
