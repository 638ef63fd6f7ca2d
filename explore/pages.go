package explore

// pages is an append-only array kept in fixed-size pages: growing it never
// copies what it holds (doubling one slice copies it whole, and at its peak
// holds it twice), and its pages are reused from one configuration to the
// next. The per-state and per-edge records of a search live in pages.
type pages[T any] struct {
	p [][]T
	n int
}

const (
	pageBits = 14
	pageMask = 1<<pageBits - 1
)

// reset empties the array, keeping its pages.
func (p *pages[T]) reset() { p.n = 0 }

// len is the number of elements.
func (p *pages[T]) len() int { return p.n }

// push appends v.
func (p *pages[T]) push(v T) {
	if p.n>>pageBits == len(p.p) {
		p.grow()
	}
	p.p[p.n>>pageBits][p.n&pageMask] = v
	p.n++
}

// append appends the elements of vs.
func (p *pages[T]) append(vs []T) {
	for len(vs) > 0 {
		if p.n>>pageBits == len(p.p) {
			p.grow()
		}
		k := copy(p.p[p.n>>pageBits][p.n&pageMask:], vs)
		p.n += k
		vs = vs[k:]
	}
}

// grow adds a page, mapped in at once (populate).
func (p *pages[T]) grow() {
	pg := make([]T, 1<<pageBits)
	populate(pg)
	p.p = append(p.p, pg)
}

// at returns element i.
func (p *pages[T]) at(i int32) T { return p.p[i>>pageBits][i&pageMask] }

// set replaces element i.
func (p *pages[T]) set(i int32, v T) { p.p[i>>pageBits][i&pageMask] = v }

// free gives the pages back to the collector.
func (p *pages[T]) free() { *p = pages[T]{} }
