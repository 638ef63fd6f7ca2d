package explore

import "testing"

// TestPopulateKeepsContents checks that populate only maps pages in: a
// wrong advice (MADV_DONTNEED is 4, MADV_FREE 8) would drop the pages,
// and the slice would read back as zeros.
func TestPopulateKeepsContents(t *testing.T) {
	for _, n := range []int{0, 1, populateMin - 1, populateMin, populateMin + 4095, 1 << 20} {
		s := make([]byte, n)
		for i := range s {
			s[i] = byte(i*7 + 1)
		}
		// An unaligned start and end too.
		for _, sub := range [][]byte{s, s[min(n, 3):max(min(n, 3), n-5)]} {
			populate(sub)
		}
		for i := range s {
			if s[i] != byte(i*7+1) {
				t.Fatalf("n = %d: byte %d is %d after populate, want %d", n, i, s[i], byte(i*7+1))
			}
		}
	}
}
