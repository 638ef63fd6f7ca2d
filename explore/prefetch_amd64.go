package explore

import "unsafe"

// prefetch asks the processor to bring the cache line at p in, without
// waiting for it: a load would hold its place in the reorder buffer until
// the line arrives.
//
//go:noescape
func prefetch(p unsafe.Pointer)
