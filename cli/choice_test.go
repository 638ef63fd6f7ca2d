package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/spec"
)

// A protocol's choices (spec.Outbox.Choose) are explored, shown in the
// trace, written to the trace file and replayed from it; a choice the
// protocol does not declare is a named finding.
func TestChoicesFromTheCLI(t *testing.T) {
	e := newEnv([]spec.Machine{spec.Erase(fixtures.Coin{}), spec.Erase(fixtures.Undeclared{}), spec.Erase(fixtures.Tagged{})})
	path := filepath.Join(t.TempDir(), "coin.json")
	out := e.expectExit(t, []string{"verify", "-algo=fixture-coin", "-n=2", "-trace-out=" + path}, exitViolated, "VIOLATED: validity")
	if !strings.Contains(out, "wakes up, choosing 1") {
		t.Errorf("the trace does not show the choice taken:\n%s", out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Steps []struct {
			Choice string `json:"choice"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &f); err != nil || len(f.Steps) == 0 || f.Steps[len(f.Steps)-1].Choice != "1" {
		t.Errorf("the trace file does not record the last step's choice 1 (%v):\n%s", err, b)
	}
	e.expectExit(t, []string{"replay", path}, exitViolated, "CONFIRMED")
	// The same file with the other alternative no longer shows it.
	other := strings.Replace(string(b), `"choice": "1"`, `"choice": "0"`, 1)
	if other == string(b) {
		t.Fatalf("no choice to change in:\n%s", b)
	}
	if err := os.WriteFile(path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := e.elcheck("replay", path); code == exitViolated || strings.Contains(out, "CONFIRMED") {
		t.Errorf("the trace with the other alternative is confirmed (exit %d):\n%s", code, out)
	}

	out = e.expectExit(t, []string{"verify", "-algo=fixture-undeclared", "-n=2"}, exitViolated, "VIOLATED: step-panicked")
	if !strings.Contains(out, "does not declare Info.Chooses") {
		t.Errorf("the finding does not say what to declare:\n%s", out)
	}
	e.expectExit(t, []string{"verify", "-algo=fixture-tagged", "-n=4"}, exitVerified, "VERIFIED")
}

// -capacity=1 blocks senders on full channels: flooding a triangle
// deadlocks, reported with the blocked process and a trace that replays;
// a capacity no execution fills changes nothing but the report's words.
func TestCapacityFromTheCLI(t *testing.T) {
	e := floodEnv()
	path := filepath.Join(t.TempDir(), "deadlock.json")
	out := e.expectExit(t, []string{"verify", "-algo=fixture-flood", "-graph=0-1,1-2,2-0", "-capacity=1", "-trace-out=" + path}, exitViolated, "VIOLATED: deadlock")
	for _, want := range []string{"channels of capacity 1", "is blocked sending", "no event is enabled"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
	e.expectExit(t, []string{"replay", path}, exitViolated, "CONFIRMED")
	// No partial-order reduction on either side: with bounded channels
	// there is none (a step may block another's send).
	unbounded := e.expectExit(t, []string{"verify", "-algo=fixture-flood", "-n=3", "-reduce=sym"}, exitVerified, "VERIFIED")
	roomy := e.expectExit(t, []string{"verify", "-algo=fixture-flood", "-n=3", "-reduce=sym", "-capacity=9"}, exitVerified, "VERIFIED")
	if a, b := statesLine(unbounded), statesLine(roomy); a == "" || a != b {
		t.Errorf("capacity 9 explores %q, unbounded %q", b, a)
	}
	if !strings.Contains(roomy, "deadlock") || strings.Contains(unbounded, "deadlock") {
		t.Errorf("deadlock should be listed with a capacity, only:\n%s\n%s", roomy, unbounded)
	}
	e.expectUsageError(t, []string{"verify", "-algo=fixture-flood", "-n=3", "-capacity=-1"}, "-capacity=-1 is out of range")
}

// statesLine returns the report's line of state counts.
func statesLine(out string) string {
	for l := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(l, "states") {
			return l
		}
	}
	return ""
}
