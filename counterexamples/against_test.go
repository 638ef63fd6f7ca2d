package counterexamples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
	"github.com/google/go-cmp/cmp"
)

// otherTopology is a protocol that claims another network family, for the
// refusal of a reference that cannot run the trace.
type otherTopology struct{ spec.Machine }

func (o otherTopology) Info() spec.Info {
	info := o.Machine.Info()
	info.Topology = spec.UniRing + 1
	return info
}

// TestAgainst runs each golden buggy trace on its correct protocol, and on
// itself: the first difference of each is pinned in
// testdata/against/differences.txt (make golden rewrites it), and a trace
// never differs from the protocol it came from.
func TestAgainst(t *testing.T) {
	traces := chartTraces(t)
	delete(traces, "cr-flip-against-cr")
	tests := []struct {
		trace, ref string
		same       bool // no step differs
	}{
		{"cr-flip", "cr", false},
		{"cr-flip", "cr-flip", true},
		{"cr-noselected", "cr", false},
		{"cr-min-noabsorb", "cr-min", false},
		{"dkr-nosecond", "dkr", false},
		{"dkr-nosecond", "dkr-nosecond", true},
		{"lelann-flip", "lelann", false},
		// Its bug is its channels (bag): in the trace's configuration,
		// bag channels included, lelann-list's steps are the same.
		{"lelann-list-bag", "lelann-list", true},
		{"peterson-nocheck", "peterson", false},
		{"peterson-norelay", "peterson", false},
		{"peterson-norelay", "cr", false}, // another protocol altogether
		{"franklin-noround", "franklin", false},
		{"hs-replyback", "hs", false},
		{"tree-early", "tree", false},
		{"tree-nowake", "tree", false},
		{"echo-noreset", "echo", false},
		{"echo-joinhigher", "echo", false},
		// Steps that choose (spec.Outbox.Choose): the reference takes the
		// alternatives the trace took, so the two part ways where the
		// variant's bug acts (a waiting process asks again), not at the
		// first choice.
		{"afek-gafni-noqueue", "afek-gafni", false},
		{"afek-gafni-noqueue", "afek-gafni-noqueue", true},
		{"afek-gafni-levelonly", "afek-gafni", false},
	}
	var got strings.Builder
	for _, tt := range tests {
		tr, ref := traces[tt.trace], lookup(t, tt.ref)
		d, err := Against(tr, ref)
		if err != nil {
			t.Fatalf("%s against %s: %v", tt.trace, tt.ref, err)
		}
		if tt.same != (d.Step == 0) {
			t.Errorf("%s against %s: %s", tt.trace, tt.ref, d)
		}
		got.WriteString(tt.trace + ": " + d.String() + "\n")
	}
	golden(t, filepath.Join("testdata", "against", "differences.txt"), got.String())

	// The text trace marks the step and ends with the difference.
	tr := traces["cr-flip"]
	d, _ := Against(tr, lookup(t, "cr"))
	tr.Differs = &d
	golden(t, filepath.Join("testdata", "against", "cr-flip-against-cr.txt"), tr.Text())

	if _, err := Against(tr, otherTopology{lookup(t, "cr")}); err == nil || !strings.Contains(err.Error(), "runs on a") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a reference on another topology: %v, want a one-line error", err)
	}
}

func lookup(t *testing.T, name string) spec.Machine {
	t.Helper()
	m, ok := protocols.Lookup(name)
	if !ok {
		t.Fatalf("no protocol %s", name)
	}
	return m
}

// golden compares now with the file at path, rewriting it first with
// ELCHECK_REWRITE=1.
func golden(t *testing.T, path, now string) {
	t.Helper()
	if os.Getenv("ELCHECK_REWRITE") != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(now), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run make golden to create it)", err)
	}
	if diff := cmp.Diff(string(want), now); diff != "" {
		t.Errorf("differs from %s (-golden +now):\n%s", path, diff)
	}
}
