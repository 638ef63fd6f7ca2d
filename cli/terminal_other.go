//go:build !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd && !windows

package cli

// isTerminalFd cannot ask here: a character device is taken for a
// terminal.
func isTerminalFd(uintptr) bool { return true }
