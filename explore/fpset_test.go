package explore

import (
	"testing"
)

func TestFPSet(t *testing.T) {
	var f fpSet
	for i := range 10000 {
		fp := mix(uint64(i) + 1)
		if _, seen := f.put(fp, int32(i)); seen {
			t.Fatalf("fingerprint %d reported present before insertion", i)
		}
	}
	for i := range 10000 {
		fp := mix(uint64(i) + 1)
		if v, seen := f.put(fp, -1); !seen || v != int32(i) {
			t.Fatalf("fingerprint %d: got %d, %v", i, v, seen)
		}
		if v, ok := f.get(fp); !ok || v != int32(i) {
			t.Fatalf("get %d: got %d, %v", i, v, ok)
		}
	}
	if _, ok := f.get(mix(123456789)); ok {
		t.Error("get of an absent fingerprint succeeded")
	}
	// 0 is the empty marker: it must still be storable.
	if _, seen := f.put(0, 7); seen {
		t.Error("0 reported present")
	}
	if v, ok := f.get(0); !ok || v != 7 {
		t.Errorf("get(0) = %d, %v", v, ok)
	}
	f.reset()
	if _, ok := f.get(mix(1)); ok || f.len() != 0 {
		t.Error("reset did not empty the set")
	}
}

// TestFPSetFill pins when a segment doubles: at 3/4 full below fpBig
// slots, at 7/8 from there on, and that every fingerprint survives the
// growths.
func TestFPSetFill(t *testing.T) {
	var f fpSet
	s := &f.segs[5]
	inserted := 0
	// fpOf is the i-th fingerprint of segment 5.
	fpOf := func(i int) uint64 { return 5<<(64-fpSegBits) | mix(uint64(i)+1)>>fpSegBits }
	// fill puts fingerprints of segment 5 until it holds n, and returns
	// its size then.
	fill := func(n int) int {
		for ; inserted < n; inserted++ {
			if _, seen := f.put(fpOf(inserted), int32(inserted)); seen {
				t.Fatalf("fingerprint %d reported present before insertion", inserted)
			}
		}
		return len(s.slots)
	}
	for _, c := range []struct{ n, size int }{
		{12, 16},
		{13, 32},
		{fpBig / 2 * 3 / 4, fpBig / 2},
		{fpBig/2*3/4 + 1, fpBig},
		{fpBig * 7 / 8, fpBig},
		{fpBig*7/8 + 1, 2 * fpBig},
		{2 * fpBig * 7 / 8, 2 * fpBig},
		{2*fpBig*7/8 + 1, 4 * fpBig},
	} {
		if got := fill(c.n); got != c.size {
			t.Errorf("segment of %d fingerprints has %d slots, want %d", c.n, got, c.size)
		}
	}
	if f.len() != inserted || s.n != inserted {
		t.Fatalf("the set holds %d fingerprints, want %d", f.len(), inserted)
	}
	for i := range inserted {
		if v, ok := f.get(fpOf(i)); !ok || v != int32(i) {
			t.Fatalf("fingerprint %d: got %d, %v", i, v, ok)
		}
	}
}

// BenchmarkVisitedSetInsert measures what the visited set alone can
// insert per second: each op fills an empty set with as many new
// fingerprints as one configuration of DKR at n = 12 has states
// (BenchmarkConfig), so the figure does not depend on how many ops the
// benchmark runs. docs/benchmarks.md prints it beside the explorer's.
func BenchmarkVisitedSetInsert(b *testing.B) {
	const states = 575747
	i := uint64(0)
	for b.Loop() {
		var f fpSet
		for range states {
			i++
			f.put(mix(i), int32(i))
		}
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "inserts/s")
}

// BenchmarkVisitedSetGraph measures the visited set alone on the work
// the explorer gives it for one configuration of DKR at n = 12 unreduced
// (BenchmarkConfig): 575,747 new fingerprints, each found again 5.6 times
// on average (3,811,179 transitions). Its states/s is the ceiling of the
// explorer's on that graph; docs/benchmarks.md prints the two side by side.
func BenchmarkVisitedSetGraph(b *testing.B) {
	for b.Loop() {
		replayGraph()
	}
	b.ReportMetric(float64(graphStates)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// graphStates and graphTransitions are the size of DKR's n = 12
// configuration (BenchmarkConfig).
const graphStates, graphTransitions = 575747, 3811179

// replayGraph does to a fresh visited set what the explorer does on that
// configuration: 575,747 new fingerprints, each found again 5.6 times on
// average (3,811,179 transitions).
func replayGraph() {
	const states, transitions = graphStates, graphTransitions
	var f fpSet
	seen := int64(0)
	for i := range int64(states) {
		f.put(mix(uint64(i)+1), int32(i))
		// Revisits, spread as the explorer's are: uniformly over the
		// last 32,768 states found (measured on that graph: an edge's
		// target lies in the next BFS level, median 12,000 states into
		// it; levels hold up to 40,889).
		for ; seen*states < i*(transitions-states); seen++ {
			j := i - int64(mix(uint64(seen))%uint64(min(i+1, 32768)))
			f.put(mix(uint64(j)+1), -1)
		}
	}
}

// BenchmarkFingerprint hashes a 48-byte state encoding, a typical size.
func BenchmarkFingerprint(b *testing.B) {
	enc := make([]byte, 48)
	for i := range enc {
		enc[i] = byte(i * 7)
	}
	for b.Loop() {
		enc[0]++
		fingerprint(enc)
	}
}
