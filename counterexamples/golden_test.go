package counterexamples_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// rewrite regenerates the golden files: ELCHECK_REWRITE=1 go test ./... -run Golden
// (make golden); review the diff before committing it.
var rewrite = os.Getenv("ELCHECK_REWRITE") != ""

// goldenN is the ring size each buggy variant is checked on: the smallest
// sweep that shows the bug, so the golden trace stays short to read.
const goldenN = 3

// goldenAt narrows the space for the variants that no network of goldenN
// processes shows: the configuration of their shortest trace.
var goldenAt = map[string]configs.Space{
	// Two ARRIVEs at the ordinary process of p3 while it waits: n = 4.
	"afek-gafni-noqueue": {Topologies: spec.MustTopologies(spec.Complete, 4), IDs: []spec.ID{1, 2, 3, 4}, Initiators: 7},
}

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
			space := configs.Space{Topologies: spec.MustTopologies(info.Topology, goldenN), Channels: info.Channels}
			if sp, ok := goldenAt[info.Name]; ok {
				space = sp
				space.Channels = info.Channels
			}
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

// A trace runs on the network it records, or not at all: a version-1
// file (no channels, one-way rings only) still replays, and a file whose
// channels are not the ring's is refused with an error that says so.
func TestTraceNetwork(t *testing.T) {
	m, _ := protocols.Lookup("cr-flip")
	tests := []struct {
		name  string
		path  string
		edit  func(*counterexamples.File)
		fails string // "" when the replay must confirm
	}{
		{"current", filepath.Join("testdata", "cr-flip.json"), func(*counterexamples.File) {}, ""},
		{"version 1", filepath.Join("testdata", "v1", "cr-flip.json"), func(*counterexamples.File) {}, ""},
		{"version 1 with channels", filepath.Join("testdata", "v1", "cr-flip.json"), func(f *counterexamples.File) {
			f.Edges = []counterexamples.FileEdge{{From: 0, To: 1}}
		}, "version-1 trace records no channels"},
		{"no channels", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.Edges = nil }, "records no channels"},
		{"reversed ring", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) {
			for k := range f.Edges {
				f.Edges[k].From, f.Edges[k].To = f.Edges[k].To, f.Edges[k].From
			}
		}, "channel 0 is 1:0->0:0, which the network does not have"},
		{"missing channel", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.Edges = f.Edges[1:] }, "it has 2 channels, the network 3"},
		{"reordered", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) {
			f.Edges[0], f.Edges[1] = f.Edges[1], f.Edges[0]
		}, "the same channels in another order"},
		// A file edited by hand: refused on what is wrong, not replayed
		// into a misleading "not enabled" or "does not violate".
		{"repeated id", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.IDs[2] = f.IDs[1] }, "the trace's ids: id 3 is repeated"},
		{"id out of range", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.IDs[0] = -4 }, "id -4 is out of range"},
		{"unknown property", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.Property = "made-up" }, `breaks "made-up", which is not a property`},
		{"loop past the end", filepath.Join("testdata", "cr-flip.json"), func(f *counterexamples.File) { f.LoopAt = 99 }, "loop starts after step 99 of"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := counterexamples.ReadFile(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			tt.edit(f)
			o, err := counterexamples.Replay(f, m)
			switch {
			case tt.fails == "" && (err != nil || !o.Confirmed):
				t.Errorf("replay: %v, %s", err, o.Why)
			case tt.fails != "" && (err == nil || !strings.Contains(err.Error(), tt.fails) || strings.Contains(err.Error(), "\n")):
				t.Errorf("replay error %v, want one line with %q", err, tt.fails)
			}
		})
	}
}

// Files of a later format, or of none, are refused.
func TestTraceVersion(t *testing.T) {
	dir := t.TempDir()
	for _, v := range []int{0, counterexamples.FormatVersion + 1} {
		path := filepath.Join(dir, "trace.json")
		os.WriteFile(path, []byte(`{"elcheck_trace": `+strconv.Itoa(v)+`}`), 0o644)
		if _, err := counterexamples.ReadFile(path); err == nil || !strings.Contains(err.Error(), "trace format version") {
			t.Errorf("version %d: %v", v, err)
		}
	}
}
