//go:build !amd64

package explore

import "unsafe"

// prefetch does nothing where no instruction for it is written.
func prefetch(unsafe.Pointer) {}
