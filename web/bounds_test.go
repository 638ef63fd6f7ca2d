package web

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/spec"
)

// parseSVG fails t unless svg is well-formed XML with an <svg> root.
func parseSVG(t *testing.T, svg string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the plot is not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("the plot's root is <%s>, want <svg>", root)
	}
}

// checkRows compares the answer's rows with bounds.Measure on every
// configuration of n = 1, 2, ...
func checkRows(t *testing.T, m spec.Machine, rows []BoundsRow, want int) {
	t.Helper()
	if len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	for i, got := range rows {
		n := i + 1
		space, err := configs.NewSpace(m.Info().Topology, n)
		if err != nil {
			t.Fatal(err)
		}
		space.Channels = m.Info().Channels
		r := bounds.Measure(context.Background(), m, space, bounds.DefaultCheck())
		s := r.Stats[0]
		if got.N != n || got.Configs != r.Configs || got.Measured != r.Measured || got.Min != s.Min || got.Max != s.Max || got.Mean != s.MeanString() {
			t.Errorf("n=%d: got %+v, Measure has configs %d measured %d min %d mean %s max %d", n, got, r.Configs, r.Measured, s.Min, s.MeanString(), s.Max)
		}
		switch b := r.Bound; {
		case b == nil && got.Bound != nil:
			t.Errorf("n=%d: a bound %d, but none is declared", n, *got.Bound)
		case b != nil && (got.Bound == nil || *got.Bound != b.Bound || got.Status != string(b.Status)):
			t.Errorf("n=%d: bound %v %s, want %d %s", n, got.Bound, got.Status, b.Bound, b.Status)
		}
	}
}

func TestBounds(t *testing.T) {
	m := lookup(t, "cr")
	// The served space fixes ids and initiators; the bounds are over every
	// configuration all the same.
	ts := serve(t, m, 3, func(sp *configs.Space) { sp.IDs, sp.Initiators = []spec.ID{3, 1, 2}, spec.All(3) })
	var info Info
	if got := get(t, "GET", ts.URL+"/api/info", "", &info); got != 200 || info.BoundsN != 3 || info.BoundsCap != boundsCapUni {
		t.Fatalf("info %d %+v", got, info)
	}
	var b Bounds
	if got := get(t, "GET", ts.URL+"/api/bounds", "", &b); got != 200 || !b.Complete || b.Formula == "" {
		t.Fatalf("%d %+v", got, b)
	}
	checkRows(t, m, b.Rows, 3)
	for _, r := range b.Rows {
		if r.Status != string(bounds.Within) || r.Note != "" {
			t.Errorf("n=%d: %s %q", r.N, r.Status, r.Note)
		}
	}
	parseSVG(t, b.SVG)
	var again Bounds
	if get(t, "GET", ts.URL+"/api/bounds", "", &again); again.SVG != b.SVG || len(again.Rows) != 3 {
		t.Errorf("the second answer differs")
	}
}

func TestBoundsCap(t *testing.T) {
	for _, tc := range []struct {
		algo    string
		n, want int
	}{{"cr", 7, boundsCapUni}, {"hs", 6, boundsCapTwo}, {"hs", 2, 2}} {
		var info Info
		if get(t, "GET", serve(t, lookup(t, tc.algo), tc.n, nil).URL+"/api/info", "", &info); info.BoundsN != tc.want {
			t.Errorf("%s n=%d: bounds_n %d, want %d", tc.algo, tc.n, info.BoundsN, tc.want)
		}
	}
}

// noBound is a protocol that declares no message bound.
type noBound struct{ spec.Machine }

func (m noBound) Info() spec.Info {
	i := m.Machine.Info()
	i.Bound = spec.Bound{}
	return i
}

func TestBoundsNoBound(t *testing.T) {
	m := noBound{lookup(t, "cr")}
	var b Bounds
	if got := get(t, "GET", serve(t, m, 2, nil).URL+"/api/bounds", "", &b); got != 200 || !b.Complete || b.Formula != "" || !strings.Contains(b.Note, "no message bound") {
		t.Fatalf("%d %+v", got, b)
	}
	checkRows(t, m, b.Rows, 2)
	parseSVG(t, b.SVG)
}

func TestBoundsViolated(t *testing.T) {
	m := lookup(t, "cr-noselected")
	var b Bounds
	if got := get(t, "GET", serve(t, m, 3, nil).URL+"/api/bounds", "", &b); got != 200 || !b.Complete {
		t.Fatalf("%d %+v", got, b)
	}
	checkRows(t, m, b.Rows, 3)
	noted := false
	for _, r := range b.Rows {
		if (r.Measured < r.Configs) != (r.Note != "") {
			t.Errorf("n=%d: %d of %d measured, note %q", r.N, r.Measured, r.Configs, r.Note)
		}
		noted = noted || r.Note != ""
	}
	if !noted {
		t.Errorf("cr-noselected: no row says some configurations violate a property")
	}
}

func TestBoundsCut(t *testing.T) {
	m := lookup(t, "cr")
	ts := serve(t, m, 3, nil)
	old := searchTime
	searchTime = time.Nanosecond
	var b Bounds
	get(t, "GET", ts.URL+"/api/bounds", "", &b)
	searchTime = old
	if b.Complete || len(b.Rows) != 0 || b.SVG != "" || !strings.Contains(b.Note, "time limit") {
		t.Fatalf("a search cut at once: %+v", b)
	}
	// A cut search is not kept.
	if get(t, "GET", ts.URL+"/api/bounds", "", &b); !b.Complete || len(b.Rows) != 3 {
		t.Fatalf("after the cut: %+v", b)
	}
}
