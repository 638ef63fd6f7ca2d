package explore

import (
	"context"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// countingLeLann counts the runs of its steps.
type countingLeLann struct {
	protocols.LeLann
	runs *int
}

func (p countingLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	*p.runs++
	return p.LeLann.Step(s, ev, out)
}

func TestCheckedSteps(t *testing.T) {
	cs := newCheckedSteps()
	for _, h := range []uint64{0, 2, 1 << 63, 12345 << 32, ^uint64(0)} {
		if cs.has(h) {
			t.Fatalf("%#x: found in an empty table", h)
		}
		cs.add(h)
		if !cs.has(h) {
			t.Fatalf("%#x: not found after add", h)
		}
	}
	if cs.has(12346 << 32) {
		t.Fatalf("a fingerprint never added is found")
	}

	// Two searchers share the table, one after the other on the same
	// configuration: the second runs each step once to learn it, and
	// the purity check's later runs, but not its first use's checks.
	for _, bytes := range []bool{false, true} { // collapsed states; byte encodings and the memo
		var runs int
		m := spec.Erase[protocols.LeLannState](countingLeLann{runs: &runs})
		cfg := spec.Config{Topology: spec.NewUniRing(4), IDs: []spec.ID{3, 1, 4, 2}, Initiators: spec.All(4), Channels: spec.FIFO}
		search := func(checked *checkedSteps) (int, int) {
			runs = 0
			budget := int64(1 << 40)
			opts := DefaultOptions()
			opts.bytes = bytes
			x := newSearcher(context.Background(), opts, &budget)
			defer x.close()
			x.checked = checked
			r := x.search(x.system(m, cfg))
			if r.violation != nil || r.stopped != nil {
				t.Fatalf("bytes %v: %+v, stopped %v", bytes, r.violation, r.stopped)
			}
			steps := len(x.memo.steps)
			if !bytes {
				steps = len(x.cz.c.steps)
			}
			return runs, steps
		}
		alone, steps := search(nil)
		shared := newCheckedSteps()
		first, _ := search(shared)
		second, _ := search(shared)
		t.Logf("bytes %v: %d distinct steps; runs alone %d, first %d, second %d", bytes, steps, alone, first, second)
		if first != alone {
			t.Errorf("bytes %v: the first searcher ran %d steps, %d alone", bytes, first, alone)
		}
		if alone-second < firstUseRuns*steps {
			t.Errorf("bytes %v: the second searcher saved %d runs of %d, not the %d of its %d steps' first uses",
				bytes, alone-second, alone, firstUseRuns*steps, steps)
		}
	}
}

func TestPuritySchedule(t *testing.T) {
	tests := []struct {
		s    puritySchedule
		want []int // purityDue at uses 1, 2, 3, ...
	}{
		{puritySchedule{every: 0}, []int{0, 0, 0, 0, 0, 0, 0, 0}},
		{puritySchedule{every: 1}, []int{16, 1, 1, 1, 1, 1, 1, 1}},
		{puritySchedule{every: 2}, []int{16, 1, 0, 1, 0, 0, 0, 1}},
		{puritySchedule{every: 2, part: 0, parts: 1}, []int{16, 1, 0, 1, 0, 0, 0, 1}},
		{puritySchedule{every: 2, part: 0, parts: 2}, []int{16, 0, 0, 1, 0, 0, 0, 0}},
		{puritySchedule{every: 2, part: 1, parts: 2}, []int{16, 1, 0, 0, 0, 0, 0, 1}},
		{puritySchedule{every: 1, part: 1, parts: 2}, []int{16, 1, 1, 1, 1, 1, 1, 1}},
	}
	for _, tt := range tests {
		var got []int
		for u := range len(tt.want) {
			got = append(got, purityDue(uint32(u+1), tt.s))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%+v: %v, want %v", tt.s, got, tt.want)
		}
	}
	// Whatever the parts, each 2^k-th use is some one part's.
	for parts := 1; parts <= 5; parts++ {
		for k := 1; k < 32; k++ {
			n := 0
			for part := range parts {
				n += purityDue(1<<k, puritySchedule{every: 2, part: part, parts: parts})
			}
			if n != 1 {
				t.Errorf("%d parts: use 2^%d is checked by %d parts", parts, k, n)
			}
		}
	}
}
