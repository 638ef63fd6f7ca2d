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

// clockwiseEnv is a run's env knowing fixture-clockwise, a two-way-ring
// protocol that relies on orientation.
func clockwiseEnv() *env { return newEnv([]spec.Machine{spec.Erase(fixtures.Clockwise{})}) }

// -orientation=any reaches the search, the reports, replay and merge: a
// protocol relying on orientation passes on the oriented ring and fails
// on the unoriented one; the trace of an unoriented instance replays; the
// shards of an unoriented sweep merge into the unsharded verdict.
func TestOrientation(t *testing.T) {
	e := clockwiseEnv()
	e.expectExit(t, []string{"verify", "-algo=fixture-clockwise", "-n=3"}, exitVerified, "VERIFIED")
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.json")
	out := e.expectExit(t, []string{"verify", "-algo=fixture-clockwise", "-n=3", "-orientation=any", "-trace-out=" + trace}, exitViolated, "VIOLATED: validity")
	if !strings.Contains(out, " of 56 explored (every orientation of each process and every id placement up to rotation and reflection") {
		t.Errorf("the report does not say what it covered:\n%s", out)
	}
	if !strings.Contains(out, "(ports swapped at") {
		t.Errorf("the counterexample does not say which ports are swapped:\n%s", out)
	}
	e.expectExit(t, []string{"replay", trace}, exitViolated, "CONFIRMED: validity")

	code, js, _ := e.elcheck("verify", "-algo=fixture-clockwise", "-n=3", "-orientation=any", "-format=json")
	var r jsonReport
	if err := json.Unmarshal([]byte(js), &r); code != exitViolated || err != nil || r.Space.Orientation != "any" || r.ConfigsTotal != 56 {
		t.Fatalf("JSON report: exit %d, %v, orientation %q, %d configurations", code, err, r.Space.Orientation, r.ConfigsTotal)
	}

	var shards []string
	for i, s := range []string{"0/2", "1/2"} {
		code, js, stderr := e.elcheck("verify", "-algo=fixture-clockwise", "-n=3", "-orientation=any", "-format=json", "-shard="+s)
		if code == exitUsage || code == exitInternal {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr)
		}
		f := filepath.Join(dir, "shard"+string(rune('0'+i))+".json")
		if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, f)
	}
	e.expectExit(t, append([]string{"merge"}, shards...), exitViolated, "VIOLATED: validity")
	// A shard of the oriented sweep does not merge with the unoriented.
	_, js, _ = e.elcheck("verify", "-algo=fixture-clockwise", "-n=3", "-format=json", "-shard=1/2")
	os.WriteFile(shards[1], []byte(js), 0o644)
	e.expectUsageError(t, append([]string{"merge"}, shards...), "orientation")
}

func TestOrientationRefused(t *testing.T) {
	e := clockwiseEnv()
	e.expectUsageError(t, []string{"verify", "-algo=fixture-clockwise", "-n=3", "-orientation=some"}, "-orientation=some: use consistent or any")
	e.expectUsageError(t, []string{"verify", "-algo=cr", "-n=3", "-orientation=any"}, "-orientation=any: every process of a unidirectional ring has one port")
	e.expectUsageError(t, []string{"bounds", "-algo=cr", "-n=3", "-orientation=any"}, "-orientation=any: every process of a unidirectional ring has one port")
}
