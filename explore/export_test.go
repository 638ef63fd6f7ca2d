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
