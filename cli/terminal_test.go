package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestIsTerminalNot checks that the places scripts send stderr are not
// taken for terminals: /dev/null (a character device, which the check
// took for one), a pipe and a file.
func TestIsTerminalNot(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, f := range map[string]*os.File{os.DevNull: null, "a pipe": w, "a file": file} {
		if isTerminal(f) {
			t.Errorf("%s taken for a terminal", name)
		}
	}
}
