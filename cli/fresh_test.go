package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/spec"
)

// fixturesEnv is a run's env knowing extra beside the built-ins, in which
// the test fixtures are found by name too.
func fixturesEnv(extra ...spec.Machine) *env {
	e := newEnv(extra)
	e.lookup = func(name string) (spec.Machine, bool) {
		for _, m := range fixtures.All() {
			if m.Info().Name == name {
				return m, true
			}
		}
		return e.known(name)
	}
	return e
}

// Impure protocols are reported as step-purity from the command line, with
// a trace, every time: never a panic, never another property's name.
func TestImpureProtocolsFromTheCLI(t *testing.T) {
	e := fixturesEnv()
	runs := 5
	if testing.Short() {
		runs = 2
	}
	for _, tt := range []struct {
		algo, n string
		warm    []string // a run before, in the same process
		detail  string
	}{
		{"fixture-counter", "4", nil, "not deterministic"},
		{"fixture-counter", "5", nil, "not deterministic"},
		{"fixture-map-order", "4", nil, "not deterministic"},
		{"fixture-map-order", "5", nil, "not deterministic"},
		// Unwarmed, the cache filled by the search (the relabelled runs
		// among it) makes a step look like arithmetic on ids; on ids the
		// search had not used it commutes: step-purity, as elcheck.Verify
		// says.
		{"fixture-pkg-cache", "3", nil, "does not reproduce on a fresh copy of its configuration"},
		// The package-level cache gives the same answer all through one
		// process. Filled by the first run (probe 2 asked about first at
		// id 1: forward), it makes id 3 forward probe 2 in the second,
		// unlike its relabelled run: a comparison-only finding, which does
		// not occur again on ids the search had not used.
		{"fixture-pkg-cache", "3", []string{"-ids=2,1,3", "-initiators=all"}, "does not reproduce on a fresh copy of its configuration"},
		// Without the comparison-only check, the forwarded probe 2 is
		// elected (validity); replayed in a fresh process, where id 3 asks
		// first and discards it, that does not happen.
		{"fixture-pkg-cache", "3", []string{"-ids=2,1,3", "-initiators=all", "-skip-comparison-only"}, "does not reproduce in a fresh process (elcheck replay: "},
	} {
		t.Run(tt.algo+"/n="+tt.n, func(t *testing.T) {
			for range runs {
				fixtures.ResetPkgCache()
				args := []string{"verify", "-algo=" + tt.algo, "-n=" + tt.n, "-workers=1"}
				if tt.warm != nil {
					e.elcheck(append(args, tt.warm...)...)
					args = append(args, "-ids=1,2,3", "-initiators=all")
					if slices.Contains(tt.warm, "-skip-comparison-only") {
						args = append(args, "-skip-comparison-only")
					}
				}
				code, out, stderr := e.elcheck(args...)
				if code != exitViolated || !strings.HasSuffix(out, "VIOLATED: step-purity\n") || !strings.Contains(out, tt.detail) {
					t.Fatalf("exit %d, want 1, VIOLATED: step-purity and %q:\n%s%s", code, tt.detail, out, stderr)
				}
				if !strings.Contains(out, "step 1:") {
					t.Errorf("no trace shown:\n%s", out)
				}
			}
		})
	}
}

// A comparison-only finding made at a step comes with the trace to it,
// is confirmed in a fresh process, and replays from its file: the replay
// runs the step and its relabelled twin again.
func TestComparisonOnlyReplays(t *testing.T) {
	e := fixturesEnv()
	for _, algo := range []string{"fixture-odd-skips", "fixture-overflow"} {
		t.Run(algo, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace.json")
			code, out, stderr := e.elcheck("verify", "-algo="+algo, "-n=3", "-trace-out="+path)
			if code != exitViolated || !strings.HasSuffix(out, "VIOLATED: comparison-only\n") || !strings.Contains(out, "step 1:") {
				t.Fatalf("verify: exit %d, want 1, comparison-only with a trace:\n%s%s", code, out, stderr)
			}
			code, out, stderr = e.elcheck("replay", path)
			if code != exitViolated || !strings.Contains(out, "CONFIRMED: comparison-only") || !strings.Contains(out, "relabelling the ids it reads") {
				t.Fatalf("replay: exit %d, want 1 and CONFIRMED:\n%s%s", code, out, stderr)
			}
		})
	}
}
