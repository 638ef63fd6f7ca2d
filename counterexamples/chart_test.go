package counterexamples

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/protocols"
	"github.com/google/go-cmp/cmp"
)

// chartTraces rebuilds every golden trace of testdata (the buggy variants'
// at n = 3, and the longer ones kept for the charts, such as an n = 6
// message-bound trace of 40 steps).
func chartTraces(t *testing.T) map[string]*Trace {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no golden traces in testdata: %v", err)
	}
	out := map[string]*Trace{}
	for _, p := range paths {
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = replayFile(t, p)
	}
	// cr-flip once more, with the step where cr parts ways marked.
	tr := replayFile(t, filepath.Join("testdata", "cr-flip.json"))
	cr, _ := protocols.Lookup("cr")
	d, err := Against(tr, cr)
	if err != nil {
		t.Fatal(err)
	}
	tr.Differs = &d
	out["cr-flip-against-cr"] = tr
	return out
}

// replayFile replays the trace file at path with its protocol.
func replayFile(t *testing.T, path string) *Trace {
	t.Helper()
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := protocols.Lookup(f.Algo)
	if !ok {
		t.Fatalf("%s: no protocol %s", path, f.Algo)
	}
	o, err := Replay(f, m)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return o.Trace
}

// TestGoldenCharts pins the SVG and Mermaid charts of every golden trace:
// ELCHECK_REWRITE=1 (make golden) rewrites them.
func TestGoldenCharts(t *testing.T) {
	for name, tr := range chartTraces(t) {
		for _, g := range []struct {
			ext    string
			render func(io.Writer) error
		}{{".svg", tr.WriteSVG}, {".mmd", tr.WriteMermaid}} {
			t.Run(name+g.ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := g.render(&b); err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("testdata", "charts", name+g.ext), b.String())
			})
		}
	}
}

// TestSVGChart checks every golden trace's SVG: well-formed XML, and no two
// text labels overlapping (from the layout's own boxes, which follow from
// the monospace font's advance).
func TestSVGChart(t *testing.T) {
	for name, tr := range chartTraces(t) {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tr.WriteSVG(&b); err != nil {
				t.Fatal(err)
			}
			dec := xml.NewDecoder(&b)
			for {
				_, err := dec.Token()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("the SVG is not well-formed XML: %v", err)
				}
			}
			l := tr.layoutSVG()
			if len(l.labels) == 0 {
				t.Fatal("no labels laid out")
			}
			for i, a := range l.labels {
				if a.x0 < 0 || a.x1 > l.width || a.y0 < 0 || a.y1 > l.height {
					t.Errorf("label %q (%v,%v)-(%v,%v) leaves the %vx%v canvas", a.text, a.x0, a.y0, a.x1, a.y1, l.width, l.height)
				}
				for _, o := range l.labels[i+1:] {
					if a.x0 < o.x1 && o.x0 < a.x1 && a.y0 < o.y1 && o.y0 < a.y1 {
						t.Errorf("labels %q (%v,%v)-(%v,%v) and %q (%v,%v)-(%v,%v) overlap",
							a.text, a.x0, a.y0, a.x1, a.y1, o.text, o.x0, o.y0, o.x1, o.y1)
					}
				}
			}
		})
	}
}

func TestCutAndWrap(t *testing.T) {
	long := strings.Repeat("x", maxChars+5)
	cuts := []struct{ in, want string }{
		{"", ""},
		{"probe(5)", "probe(5)"},
		{strings.Repeat("y", maxChars), strings.Repeat("y", maxChars)},
		{long, strings.Repeat("x", maxChars-1) + "…"},
	}
	for _, tt := range cuts {
		if got := cut(tt.in); got != tt.want {
			t.Errorf("cut(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	wraps := []struct {
		in    string
		width int
		want  []string
	}{
		{"a bc def", 4, []string{"a bc", "def"}},
		{"abcdefghij k", 4, []string{"abcd", "efgh", "ij k"}},
		{"  ", 4, nil},
	}
	for _, tt := range wraps {
		if got := wrap(tt.in, tt.width); !cmp.Equal(got, tt.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

// A label too long for its column is cut, with the whole text as the
// tooltip, and the layout keeps to the cut width.
func TestSVGTooltip(t *testing.T) {
	tr := *chartTraces(t)["cr-flip"]
	tr.Steps = slices.Clone(tr.Steps)
	full := "participating " + strings.Repeat("and waiting ", 4) + "<&>"
	tr.Steps[0].After = full
	var b strings.Builder
	if err := tr.WriteSVG(&b); err != nil {
		t.Fatal(err)
	}
	if want := "<g><title>" + esc(full) + "</title>"; !strings.Contains(b.String(), want) {
		t.Errorf("no tooltip %q in the SVG", want)
	}
	if want := ">" + esc(cut(full)) + "</text>"; !strings.Contains(b.String(), want) {
		t.Errorf("no cut label %q in the SVG", want)
	}
	for _, l := range tr.layoutSVG().labels {
		if l.text == full && l.x1-l.x0 != textWidth(cut(full)) {
			t.Errorf("the label's box is %v wide, the cut text %v", l.x1-l.x0, textWidth(cut(full)))
		}
	}
}

// Every delivery is drawn from the step that sent it: on a bag channel
// too (lelann-list-bag delivers out of order), and a message still in
// flight at the end is one no step delivers.
func TestChartMatchesSends(t *testing.T) {
	for name, tr := range chartTraces(t) {
		c := tr.chartOf()
		for k, s := range c.steps {
			if s.wake {
				continue
			}
			if s.msg < 0 {
				t.Errorf("%s: step %d delivers no message", name, k+1)
				continue
			}
			m := c.msgs[s.msg]
			if m.recv != k || m.sent >= k || m.to != s.proc || m.sent >= 0 && c.steps[m.sent].proc != m.from {
				t.Errorf("%s: step %d delivers %+v", name, k+1, m)
			}
		}
		flying := 0
		for _, ch := range tr.Final().Chans {
			flying += len(ch)
		}
		if got := len(c.inFlight()); got != flying {
			t.Errorf("%s: %d messages drawn in flight, the final state has %d", name, got, flying)
		}
	}
}
