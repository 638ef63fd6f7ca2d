package counterexamples

import (
	"fmt"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/mermaid"
)

// TestMermaidChart reads every golden trace's Mermaid with the
// recognizer: it parses, drops nothing, declares the participants before
// any use, and its messages say what the chart model's do.
func TestMermaidChart(t *testing.T) {
	for name, tr := range chartTraces(t) {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			if err := tr.WriteMermaid(&b); err != nil {
				t.Fatal(err)
			}
			st, err := mermaid.Parse(b.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			c := tr.chartOf()
			declared := map[string]bool{}
			labels := map[string]bool{}
			for _, m := range c.msgs {
				labels[m.label] = true
				labels[m.label+" (in flight)"] = true
			}
			for _, s := range st {
				switch s.Kind {
				case "invalid":
					t.Errorf("line %d: Mermaid drops %q", s.Line, s.Text)
				case "participant":
					declared[s.Actors[0]] = true
				case "message":
					if !labels[s.Text] {
						t.Errorf("line %d: message %q is none of the chart's", s.Line, s.Text)
					}
				}
				for _, a := range s.Actors {
					if !declared[a] {
						t.Errorf("line %d: %s used before it is declared", s.Line, a)
					}
				}
			}
			if len(declared) != c.n {
				t.Errorf("%d participants declared, want %d", len(declared), c.n)
			}
		})
	}
}

// TestMermaidHostileLabels writes labels holding what Mermaid's grammar
// gives a meaning to, as messages, local states and the caption, and
// checks the recognizer reads each back as written (a line break shown as
// a space, the ends trimmed as Mermaid trims them).
func TestMermaidHostileLabels(t *testing.T) {
	labels := []string{
		"a;b", "#1", "x #35; y", "x: y", ":x", "p0-->>p1: z", "p0->>p1", "-x", "50%% done", "%%x", "}%%x",
		"a<br>b", "a<br/>b", "<b>bold</b>", "&lt;", "&amp;", `"quoted" 'too'`, "λ → ∀ 😀 ⌊log N⌋",
		"end", "end loop", "loop", "Note over p0: x", "participant p9", "style:#1;", "x style y:#0;z",
		"classDef c:#f00;", "wrap:x", " nowrap:y", ":wrap:z", "a\nb", "(in flight)", "\\-//-",
	}
	c := &chart{n: 2, procs: []string{"p0", "p1"}, ids: nil, loopAt: -1, breakAt: -1, differs: -1}
	c.ids = append(c.ids, 1, 2)
	var want []mermaid.Statement
	shown := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\n", " ")) }
	for k, l := range labels {
		c.msgs = append(c.msgs, chartMsg{from: 0, to: 1, label: l, sent: -1, recv: k})
		c.steps = append(c.steps, chartStep{proc: 1, msg: k, after: l})
		want = append(want,
			mermaid.Statement{Kind: "message", Actors: []string{"p0", "p1"}, Arrow: "SOLID_ARROW", Text: shown(l)},
			mermaid.Statement{Kind: "note", Actors: []string{"p1"}, Arrow: "over", Text: shown(l)})
	}
	c.caption = strings.Join(labels, " ")
	want = append(want, mermaid.Statement{Kind: "note", Actors: []string{"p0", "p1"}, Arrow: "over", Text: shown(c.caption)})
	var b strings.Builder
	if err := c.writeMermaid(&b, c.caption); err != nil {
		t.Fatal(err)
	}
	st, err := mermaid.Parse(b.String())
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	var got []mermaid.Statement
	for _, s := range st {
		if s.Kind != "participant" {
			s.Line = 0
			got = append(got, s)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("read %d statements, want %d:\n%s", len(got), len(want), b.String())
	}
	for i := range got {
		if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
			t.Errorf("read %+v\nwant %+v", got[i], want[i])
		}
	}
}
