package counterexamples

import (
	"context"
	"errors"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
)

// loudNotes is a protocol whose steps panic when notes are on: the search
// must run it to its real violation, and only a rebuild turns notes on.
type loudNotes struct{ spec.Machine }

func (m loudNotes) Step(dst, local []byte, ev spec.Event, out *spec.Outbox) []byte {
	if out.Noting() {
		panic("notes are on")
	}
	return m.Machine.Step(dst, local, ev, out)
}

// The search runs with notes off, and Rebuild with notes on, so that
// notes cost the search nothing and still reach every counterexample.
func TestNotesOffDuringSearch(t *testing.T) {
	m := loudNotes{lookup(t, "cr-flip")}
	space := configs.Space{Topologies: spec.MustTopologies(spec.UniRing, 3), Channels: spec.FIFO}
	res := explore.Check(context.Background(), m, space, explore.DefaultOptions())
	v := res.Violation
	if v == nil || v.Property != "validity" {
		t.Fatalf("the search with notes off: %s, want the validity violation", res.Verdict())
	}
	var div *Diverged
	if _, err := Rebuild(m, v); !errors.As(err, &div) {
		t.Errorf("Rebuild ran the steps without notes: %v", err)
	}
	tr, err := Rebuild(lookup(t, "cr-flip"), v)
	if err != nil {
		t.Fatal(err)
	}
	noted := 0
	for _, st := range tr.Steps {
		if st.Note != "" {
			noted++
		}
	}
	if noted == 0 {
		t.Errorf("no step of the rebuilt trace has a note:\n%s", tr.Text())
	}
}
