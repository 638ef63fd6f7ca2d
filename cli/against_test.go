package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// -against replays the counterexample on a reference protocol: verify
// and replay mark the first step that differs and say how, after the
// trace; a trace never differs from its own protocol.
func TestAgainst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	const differs = `against cr: first difference at step 2: p1 (id 3) receives probe(1) from p0: sends probe(3) to p2, probe(1) to p2 here, sends probe(3) to p2 in cr (cr: "discard probe(1): 3 > 1")`
	tests := []struct {
		name string
		args []string
		want []string // lines of the output, in order
	}{
		{"verify", []string{"verify", "-algo=cr-flip", "-n=3", "-ids=1,3,2", "-initiators=0", "-trace-out=" + path, "-against=cr"},
			[]string{"step 2: p1 (id 3) receives probe(1) from p0   <- differs from cr", "    why: relay probe(1): 3 > 1", differs, "VIOLATED: validity"}},
		{"replay", []string{"replay", path, "-against=cr"},
			[]string{"step 2: p1 (id 3) receives probe(1) from p0   <- differs from cr", differs, "CONFIRMED: validity: p0 (id 1) is leader but the winner must be 3 (max of all ids)"}},
		{"replay, flag first", []string{"replay", "-against=cr", path}, []string{differs}},
		{"replay against itself", []string{"replay", path, "-against=cr-flip"},
			[]string{"against cr-flip: no difference over the whole trace (6 steps)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := elcheck(tt.args...)
			if code != exitViolated {
				t.Fatalf("exit %d, want %d:\n%s%s", code, exitViolated, out, stderr)
			}
			rest := out
			for _, w := range tt.want {
				i := strings.Index(rest, w+"\n")
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%s", w, out)
				}
				rest = rest[i+len(w):]
			}
		})
	}

	// The JSON report carries the difference.
	_, out, _ := elcheck("verify", "-algo=cr-flip", "-n=3", "-ids=1,3,2", "-initiators=0", "-format=json", "-against=cr")
	var rep struct{ Against string }
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Against != differs {
		t.Errorf("JSON report's against: %q (%v), want %q", rep.Against, err, differs)
	}
}

// A reference that does not exist, is empty or runs on another topology
// is a one-line usage error, exit 2, before any search.
func TestAgainstBadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	if code, out, _ := elcheck("verify", "-algo=cr-flip", "-n=3", "-trace-out="+path); code != exitViolated {
		t.Fatalf("verify exit %d:\n%s", code, out)
	}
	e := elsewhereEnv()
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"verify unknown", []string{"verify", "-algo=cr-flip", "-n=3", "-against=nope"}, "-against=nope: unknown algorithm \"nope\": use one of afek-gafni, afek-gafni-levelonly,"},
		{"replay unknown", []string{"replay", path, "-against=nope"}, "-against=nope: unknown algorithm \"nope\": use one of afek-gafni, afek-gafni-levelonly,"},
		{"verify empty", []string{"verify", "-algo=cr-flip", "-n=3", "-against="}, "-against= is empty: give a protocol, one of afek-gafni,"},
		{"replay empty", []string{"replay", path, "-against="}, "-against= is empty: give a protocol, one of afek-gafni,"},
		{"verify other topology", []string{"verify", "-algo=cr-flip", "-n=3", "-against=cr-elsewhere"}, "-against=cr-elsewhere: cr-elsewhere runs on a topology(99), but cr-flip on a unidirectional ring"},
		{"replay other topology", []string{"replay", path, "-against=cr-elsewhere"}, "-against=cr-elsewhere: cr-elsewhere runs on a topology(99), but cr-flip on a unidirectional ring"},
		{"replay unknown flag", []string{"replay", path, "-fast"}, "flag provided but not defined: -fast"},
	} {
		t.Run(tt.name, func(t *testing.T) { e.expectUsageError(t, tt.args, tt.want) })
	}
}
