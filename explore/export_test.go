package explore

// NoDisk makes a search over the memory budget go to the state cache at
// once, for the tests of the cache (cache_test.go).
func NoDisk(o *Options) { o.noDisk = true }
