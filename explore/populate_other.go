//go:build !linux

package explore

// populate does nothing where the kernel has no MADV_POPULATE_WRITE: the
// pages are faulted in as they are touched.
func populate[T any](s []T) {}
