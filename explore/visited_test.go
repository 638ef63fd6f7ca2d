package explore

import "testing"

// The exact set tells apart keys whose fingerprints collide, and finds
// each again, in and out of the overflow; a reset forgets them all.
func TestExactStatesCollisions(t *testing.T) {
	var m exactStates
	keys := []string{"a", "b", "c", "a longer key", ""}
	for round := range 2 {
		for i, k := range keys {
			fp := uint64(7) // every key the same fingerprint
			if k == "c" {
				fp = 9
			}
			if j, seen := m.put([]byte(k), fp, int32(i)); seen || j != int32(i) {
				t.Fatalf("round %d: put %q: %d, %v; want %d, new", round, k, j, seen, i)
			}
		}
		for i, k := range keys {
			fp := uint64(7)
			if k == "c" {
				fp = 9
			}
			if j, seen := m.put([]byte(k), fp, int32(len(keys))); !seen || j != int32(i) {
				t.Errorf("round %d: put %q again: %d, %v; want %d, seen", round, k, j, seen, i)
			}
			if j, ok := m.get([]byte(k), fp); !ok || j != int32(i) {
				t.Errorf("round %d: get %q: %d, %v", round, k, j, ok)
			}
		}
		if _, ok := m.get([]byte("d"), 7); ok {
			t.Errorf("round %d: found a key never put", round)
		}
		m.reset()
		if _, ok := m.get([]byte("a"), 7); ok {
			t.Errorf("round %d: found a key after reset", round)
		}
	}
}
