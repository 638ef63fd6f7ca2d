package counterexamples_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// A counterexample without steps (a step-purity finding that compares two
// searches of a configuration) is a trace like any other: the
// configuration, the property and detail, written and read back, and
// replay says it cannot re-check it rather than that it does not
// reproduce.
func TestConfirmZeroSteps(t *testing.T) {
	m, _ := protocols.Lookup("cr")
	cfg := spec.Config{Topology: spec.MustTopologies(spec.UniRing, 3)[0], IDs: []spec.ID{1, 3, 2}, Initiators: spec.All(3), Channels: spec.FIFO}
	detail := "a first search of this configuration found validity (...), a second found nothing"
	res := &explore.Result{Violation: &explore.Violation{Property: invariants.StepPurity, Detail: detail, Config: cfg, LoopAt: -1}}
	tr, err := counterexamples.Confirmation{}.Confirm(m, res)
	if err != nil || tr == nil {
		t.Fatalf("Confirm: %v, %v; want a trace without steps", tr, err)
	}
	if len(tr.Steps) != 0 || tr.Property != invariants.StepPurity || tr.Detail != detail || !slices.Equal(res.Violated, []string{invariants.StepPurity}) {
		t.Fatalf("trace %d steps, %s (%s), violated %v", len(tr.Steps), tr.Property, tr.Detail, res.Violated)
	}
	if text := tr.Text(); !strings.Contains(text, "initial state:") || !strings.Contains(text, "ids [1 3 2]") {
		t.Errorf("the text lacks the configuration or its initial state:\n%s", text)
	}
	path := filepath.Join(t.TempDir(), "zero.json")
	if err := tr.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	f, err := counterexamples.ReadFile(path)
	if err != nil || len(f.Steps) != 0 || f.Property != invariants.StepPurity || f.Detail != detail || !slices.Equal(f.IDs, cfg.IDs) {
		t.Fatalf("read back: %+v, %v", f, err)
	}
	o, err := counterexamples.Replay(f, m)
	if err != nil || o.Confirmed || !o.Unchecked {
		t.Errorf("replay: %+v, %v; want unchecked", o, err)
	}
}
