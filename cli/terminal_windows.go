package cli

import "syscall"

// isTerminalFd asks for the console mode of handle fd, which only a
// console has (NUL, the null device, is a character device too).
func isTerminalFd(fd uintptr) bool {
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(fd), &mode) == nil
}
