package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/invariants"
)

// replay's exit codes tell a script what it showed: 1 confirmed, 5 not
// reproduced (the trace runs, or stops fitting after its first steps: the
// protocol changed, not the file), 3 not re-checkable, 2 a file that does
// not fit from its first step.
func TestReplayExitCodes(t *testing.T) {
	dir := t.TempDir()
	recorded := filepath.Join(dir, "cr-flip.json")
	if code, out, stderr := elcheck("verify", "-algo=cr-flip", "-n=3", "-trace-out="+recorded); code != exitViolated {
		t.Fatalf("verify: exit %d:\n%s%s", code, out, stderr)
	}
	f, err := counterexamples.ReadFile(recorded)
	if err != nil || len(f.Steps) < 3 {
		t.Fatalf("%v, %+v: want a trace of 3 steps or more", err, f)
	}
	tests := []struct {
		name   string
		edit   func(f *counterexamples.File)
		code   int
		out    string // in stdout
		stderr string // in stderr
	}{
		{"as recorded", func(*counterexamples.File) {}, exitViolated, "CONFIRMED: validity", ""},
		{"another property", func(f *counterexamples.File) { f.Property = invariants.AtMostOneLeader }, exitNotReproduced,
			"NOT REPRODUCED: the trace runs, but its last state does not violate at-most-one-leader", ""},
		{"stops fitting part way", func(f *counterexamples.File) {
			f.Steps[len(f.Steps)-1].Process = (f.Steps[len(f.Steps)-1].Process + 1) % f.N
		}, exitNotReproduced,
			"is not enabled: the protocol does not behave as when the trace was recorded (impure?)", ""},
		// Of another configuration: its first step wakes a process that
		// is not an initiator there.
		{"does not fit from the start", func(f *counterexamples.File) { f.Initiators = []int{(f.Steps[0].Process + 1) % f.N} }, exitUsage,
			"", "the trace does not fit cr-flip: step 1 (p"},
		{"no step, not re-checkable", func(f *counterexamples.File) { f.Property, f.Steps = invariants.StepPurity, nil }, exitIncomplete,
			"NOT RE-CHECKED: a finding with no step relates two runs of the search", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := *f
			g.IDs = append(g.IDs[:0:0], f.IDs...)
			g.Steps = append(g.Steps[:0:0], f.Steps...)
			tt.edit(&g)
			b, err := json.Marshal(&g)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".json")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := elcheck("replay", path)
			if code != tt.code || !strings.Contains(out, tt.out) || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit %d, want %d, %q on stdout and %q on stderr:\n%s%s", code, tt.code, tt.out, tt.stderr, out, stderr)
			}
		})
	}
}
