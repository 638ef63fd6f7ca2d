package explore

// NoDisk makes a search over the memory budget go to the state cache at
// once, for the tests of the cache (cache_test.go).
func NoDisk(o *Options) { o.noDisk = true }

// SetLocalsLimit makes searches stop at n distinct local states instead
// of some 16 million, until restore is called.
func SetLocalsLimit(n int) (restore func()) {
	saved := czLocals
	czLocals = n
	return func() { czLocals = saved }
}

// Halted is how many configurations checks have left unsearched so far
// because an earlier one stopped short.
func Halted() int64 { return halted.Load() }

// Unlimited makes a check search every configuration to its end even
// after a violation, as before depth limits (sweep.go).
func Unlimited(o *Options) { o.unlimited = true }

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
