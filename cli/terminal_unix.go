//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cli

import (
	"syscall"
	"unsafe"
)

// isTerminalFd asks for fd's terminal settings, which only a terminal has.
func isTerminalFd(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, ioctlGetTermios, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
