package explore

import "testing"

// TestCounts checks the analyses' small counters across the edge of
// their bytes, where values move to the map and back.
func TestCounts(t *testing.T) {
	c8, c16 := newCounts[uint8](4), newCounts[uint16](4)
	for _, v := range []int32{0, 1, 254, 255, 256, 70000, 3, 65534, 65535, 0} {
		for i := range int32(4) {
			c8.set(i, v+i)
			c16.set(i, v+i)
		}
		for i := range int32(4) {
			if got := c8.get(i); got != v+i {
				t.Errorf("uint8 counts: set %d, got %d", v+i, got)
			}
			if got := c16.get(i); got != v+i {
				t.Errorf("uint16 counts: set %d, got %d", v+i, got)
			}
		}
	}
	if len(c8.big) != 0 || len(c16.big) != 0 {
		t.Errorf("%d and %d values left in the maps, want none", len(c8.big), len(c16.big))
	}
}
