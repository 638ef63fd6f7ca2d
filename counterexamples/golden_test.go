package counterexamples_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
	"github.com/google/go-cmp/cmp"
)

// rewrite regenerates the golden files: ELCHECK_REWRITE=1 go test ./... -run Golden
// (make golden); review the diff before committing it.
var rewrite = os.Getenv("ELCHECK_REWRITE") != ""

// goldenN is the ring size each buggy variant is checked on: the smallest
// sweep that shows the bug, so the golden trace stays short to read.
const goldenN = 3

// TestGoldenCounterexamples checks every buggy variant: elcheck must catch
// it with the property the variant documents, the trace must be the one in
// testdata (text for people, JSON for replay), and replaying the JSON must
// confirm the violation.
func TestGoldenCounterexamples(t *testing.T) {
	for _, m := range protocols.All() {
		info := m.Info()
		if info.Breaks == "" {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			space := explore.Space{N: goldenN, Topology: info.Topology, Channels: info.Channels}
			opts := explore.DefaultOptions()
			opts.Exact = true
			res := explore.Check(context.Background(), m, space, opts)
			v := res.Violation
			if v == nil {
				t.Fatalf("%s not caught at n=%d: %s", info.Name, goldenN, res.Verdict())
			}
			if v.Property != info.Breaks {
				t.Errorf("%s caught with %s (%s), but it documents that it breaks %s", info.Name, v.Property, v.Detail, info.Breaks)
			}
			tr, err := counterexamples.Rebuild(m, v)
			if err != nil {
				t.Fatal(err)
			}
			text := tr.Text()
			js, err := json.MarshalIndent(tr.ToFile(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			js = append(js, '\n')
			txtPath := filepath.Join("testdata", info.Name+".txt")
			jsonPath := filepath.Join("testdata", info.Name+".json")
			if rewrite {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				for path, b := range map[string][]byte{txtPath: []byte(text), jsonPath: js} {
					if err := os.WriteFile(path, b, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			// Both files are golden: the text for people, the JSON for
			// replay, which must not drift either (field names, steps,
			// final states).
			for _, g := range []struct {
				path string
				now  string
			}{{txtPath, text}, {jsonPath, string(js)}} {
				want, err := os.ReadFile(g.path)
				if err != nil {
					t.Fatalf("%v (run make golden to create it)", err)
				}
				if diff := cmp.Diff(string(want), g.now); diff != "" {
					t.Errorf("trace differs from %s (-golden +now):\n%s", g.path, diff)
				}
			}
			f, err := counterexamples.ReadFile(jsonPath)
			if err != nil {
				t.Fatal(err)
			}
			o, err := counterexamples.Replay(f, m)
			if err != nil {
				t.Fatalf("replaying %s: %v", jsonPath, err)
			}
			if !o.Confirmed {
				t.Errorf("replaying %s did not confirm %s: %s", jsonPath, f.Property, o.Why)
			}
		})
	}
}

// Replaying a violation against the correct protocol refutes it (or shows
// it does not fit): replay is a real re-execution, not an echo of the file.
func TestReplayRefutesOnFixedProtocol(t *testing.T) {
	f, err := counterexamples.ReadFile(filepath.Join("testdata", "cr-flip.json"))
	if err != nil {
		// A missing golden file is a failure, not a reason to skip: only
		// while the files are being rewritten may it not exist yet.
		if rewrite {
			t.Skip("golden files being rewritten")
		}
		t.Fatalf("%v (run make golden to create it)", err)
	}
	m, _ := protocols.Lookup("cr")
	f.Algo = "cr"
	o, err := counterexamples.Replay(f, m)
	if err == nil && o.Confirmed {
		t.Errorf("the cr-flip trace confirms a violation on the correct cr: %s", o.Why)
	}
}
