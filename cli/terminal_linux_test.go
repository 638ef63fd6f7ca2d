package cli

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"unsafe"
)

// TestIsTerminalPty checks that a terminal is still one: the far end of a
// pseudo-terminal, opened as a terminal emulator opens it.
func TestIsTerminalPty(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer ptmx.Close()
	var unlock, num int32
	if err := ioctl(ptmx, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	if err := ioctl(ptmx, syscall.TIOCGPTN, unsafe.Pointer(&num)); err != nil {
		t.Skipf("numbering the pseudo-terminal: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", num), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	defer pts.Close()
	if !isTerminal(pts) {
		t.Errorf("%s not taken for a terminal", pts.Name())
	}
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(arg)); errno != 0 {
		return errno
	}
	return nil
}
