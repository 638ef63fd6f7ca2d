package cli

import (
	"io"
	"os"
)

// isTerminal reports whether w is a terminal: a character device on which
// the terminal's own request succeeds (isTerminalFd). A character device
// alone is not enough: /dev/null is one, and a run with 2>/dev/null, as in
// scripts and CI, must not pay for progress reports nobody sees (10 % of
// a dkr n = 7 sweep on two workers).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	is := false
	if err := rc.Control(func(fd uintptr) { is = isTerminalFd(fd) }); err != nil {
		return false
	}
	return is
}
