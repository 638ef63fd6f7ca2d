package protocols

import (
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

var wantNames = []string{
	"cr", "cr-flip", "cr-min", "cr-min-noabsorb", "cr-noselected",
	"dkr", "dkr-nosecond",
	"lelann", "lelann-flip", "lelann-list", "lelann-list-bag",
	"peterson", "peterson-nocheck", "peterson-norelay",
}

var properties = []string{"at-most-one-leader", "agreement", "termination", "exactly-one-leader", "validity", "message-bound"}

func TestRegistry(t *testing.T) {
	if got := Names(); !slices.Equal(got, wantNames) {
		t.Fatalf("Names() = %v, want %v", got, wantNames)
	}
	all := All()
	if len(all) != len(wantNames) {
		t.Fatalf("All() has %d machines", len(all))
	}
	for i, m := range all {
		name := m.Info().Name
		if name != wantNames[i] {
			t.Errorf("All()[%d] is %q, want %q", i, name, wantNames[i])
		}
		got, ok := Lookup(name)
		if !ok || got.Info().Name != name {
			t.Errorf("Lookup(%q) = %v, %v", name, got, ok)
		}
	}
	if _, ok := Lookup("bully"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	all[0] = nil
	if All()[0] == nil {
		t.Error("All() shares its slice between callers")
	}
}

func TestInfo(t *testing.T) {
	for _, m := range All() {
		info := m.Info()
		t.Run(info.Name, func(t *testing.T) {
			switch {
			case info.Title == "", info.Source == "":
				t.Error("no Title or Source")
			case !strings.Contains(info.Source, "document 00"):
				t.Errorf("Source %q names no document", info.Source)
			case info.Topology != spec.UniRing:
				t.Errorf("topology %v", info.Topology)
			case len(info.Messages) == 0:
				t.Error("no message kinds")
			case info.Bound.Formula == "" || info.Bound.Max == nil:
				t.Error("no bound")
			case info.Leftovers || info.KnowsN:
				t.Error("Leftovers or KnowsN set")
			}
			for n := 1; n <= 8; n++ {
				if info.Bound.Max(n) < n {
					t.Errorf("Bound.Max(%d) = %d", n, info.Bound.Max(n))
				}
			}
			if info.Bug == "" {
				if info.Breaks != "" {
					t.Errorf("correct protocol with Breaks %q", info.Breaks)
				}
				if info.Channels != spec.FIFO {
					t.Errorf("correct protocol on %v channels", info.Channels)
				}
				return
			}
			if !slices.Contains(properties, info.Breaks) {
				t.Errorf("Breaks %q is not one of %v", info.Breaks, properties)
			}
			// A buggy variant is named after the correct protocol it breaks
			// and keeps its message kinds and winner.
			base := ""
			for _, name := range Names() {
				if strings.HasPrefix(info.Name, name+"-") && len(name) > len(base) {
					base = name
				}
			}
			b, ok := Lookup(base)
			if !ok || b.Info().Bug != "" {
				t.Fatalf("no correct protocol %q for variant %q", base, info.Name)
			}
			if !slices.Equal(b.Info().Messages, info.Messages) || b.Info().Winner != info.Winner {
				t.Errorf("variant changes kinds or winner of %s", base)
			}
		})
	}
}
