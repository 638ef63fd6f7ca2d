package cli

import (
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/spec"
)

// A search that would outgrow the machine stops as INCOMPLETE, exit 3,
// saying it ran out of memory, rather than being killed by the system
// with nothing said. The machine here is made small: the guard allows 64
// MiB above what the process holds. fixture-endless never ends, so only a
// limit stops it; the time limit is there so that a guard that never
// fires fails the test rather than hang it.
func TestMemoryGuard(t *testing.T) {
	e := newEnv([]spec.Machine{spec.Erase(fixtures.Endless{})})
	e.available = func() uint64 { return uint64(float64(heldMemory()+64<<20) / guardShare) }
	for _, cmd := range [][]string{
		{"verify", "-algo=fixture-endless", "-n=3", "-ids=1,2,3", "-initiators=0", "-timeout=2m"},
		{"bounds", "-algo=fixture-endless", "-n=3", "-ids=1,2,3", "-initiators=0", "-timeout=2m"},
	} {
		code, out, stderr := e.elcheck(cmd...)
		if code != exitIncomplete || !strings.Contains(out+stderr, "out of memory: the process held") {
			t.Errorf("%s: exit %d, want %d and the memory guard's reason:\n%s%s", cmd[0], code, exitIncomplete, lastLines(out, 3), stderr)
		}
	}
	// -memory bounds the search itself (on disk past it): no guard then.
	e.available = func() uint64 { return 1 }
	e.expectExit(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=64M"}, exitVerified, "VERIFIED")
}

// lastLines returns the last k lines of s.
func lastLines(s string, k int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-k):], "\n") + "\n"
}
