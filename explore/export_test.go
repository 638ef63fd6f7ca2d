package explore

// NoDisk makes a search over the memory budget go to the state cache at
// once, for the tests of the cache (cache_test.go).
func NoDisk(o *Options) { o.noDisk = true }

// LocalsLimit makes o's searches stop at n distinct local states instead
// of some 16 million.
func LocalsLimit(o *Options, n int) { o.localsLimit = n }

// Halted has o's checks count the configurations they left unsearched
// because an earlier one stopped short, and returns the count so far.
func Halted(o *Options) func() int64 {
	c := new(pathCounts)
	o.counts = c
	return c.halted.Load
}

// OnMerged has f see each configuration's result as the check merges it:
// its index, depth limit (-1: none), deepest state, whether it was cut,
// and the length of its violation that limits the later ones (-1: none).
func OnMerged(o *Options, f func(k, lim, depth int, cut bool, found int)) {
	o.onMerged = func(k int, lim int32, depth int, cut bool, found int) {
		l := int(lim)
		if lim == noLimit {
			l = -1
		}
		f(k, l, depth, cut, found)
	}
}
