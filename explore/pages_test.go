package explore

import "testing"

// TestPagesAppend checks pages.append and push against a plain slice,
// across page boundaries and with pieces longer than a page.
func TestPagesAppend(t *testing.T) {
	var p pages[byte]
	var want []byte
	for i, n := range []int{0, 1, 7, pageMask, 2, 1 << pageBits, 3*(1<<pageBits) + 5, 1} {
		piece := make([]byte, n)
		for j := range piece {
			piece[j] = byte(i*31 + j)
		}
		p.append(piece)
		p.push(byte(i))
		want = append(append(want, piece...), byte(i))
	}
	if p.len() != len(want) {
		t.Fatalf("len %d, want %d", p.len(), len(want))
	}
	for i, b := range want {
		if got := p.at(int32(i)); got != b {
			t.Fatalf("element %d = %d, want %d", i, got, b)
		}
	}
}
