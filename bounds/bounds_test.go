package bounds_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

func lookup(t *testing.T, name string) spec.Machine {
	t.Helper()
	m, ok := protocols.Lookup(name)
	if !ok {
		t.Fatalf("no protocol %q", name)
	}
	return m
}

func space(m spec.Machine, n int, init spec.Set) configs.Space {
	info := m.Info()
	return configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels, Initiators: init}
}

func harmonic(n int) *big.Rat {
	h := new(big.Rat)
	for k := 1; k <= n; k++ {
		h.Add(h, big.NewRat(1, int64(k)))
	}
	return h
}

// The lecture slides' Chang-Roberts, every process initiating, probes only:
// best case 2n-1, worst case n(n+1)/2, and over all n! rings (here the
// (n-1)! up to rotation) the average n·H_n, exactly.
func TestChangRobertsProbes(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	m := lookup(t, "cr")
	for n := 3; n <= maxN; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			row := bounds.Measure(context.Background(), m, space(m, n, spec.All(n)), bounds.DefaultCheck())
			if row.Incomplete != "" || row.Measured != row.Configs {
				t.Fatalf("measured %d of %d configurations (%s)", row.Measured, row.Configs, row.Incomplete)
			}
			fact := 1
			for k := 2; k < n; k++ {
				fact *= k
			}
			if row.Placements != fact {
				t.Errorf("%d placements, want (n-1)! = %d", row.Placements, fact)
			}
			p := row.Stat("probe")
			wantMean := new(big.Rat).Mul(big.NewRat(int64(n), 1), harmonic(n))
			if p.Min != int64(2*n-1) || p.Max != int64(n*(n+1)/2) || p.Mean() == nil || p.Mean().Cmp(wantMean) != 0 {
				t.Errorf("probes min %d mean %s max %d, want %d, %s, %d", p.Min, p.MeanString(), p.Max, 2*n-1, wantMean.RatString(), n*(n+1)/2)
			}
			if s := row.Stat("selected"); s.Min != int64(n) || s.Max != int64(n) {
				t.Errorf("SELECTED %d..%d, want %d", s.Min, s.Max, n)
			}
			for _, l := range row.Literature {
				if !l.Holds {
					t.Errorf("%s %s %s %s: measured %s, formula %s", l.Measure, l.Stat, l.Rel, l.Text, l.Measured, l.Value)
				}
			}
			if len(row.Literature) != 3 {
				t.Errorf("%d literature checks, want 3", len(row.Literature))
			}
		})
	}
	// At n = 7 the mean is the lecture slides' 363/20.
	if maxN == 7 {
		if got := new(big.Rat).Mul(big.NewRat(7, 1), harmonic(7)); got.RatString() != "363/20" {
			t.Errorf("7·H_7 = %s", got.RatString())
		}
	}
}

// LeLann (the lecture notes) with every process initiating: every token goes
// round, n^2 messages in every execution of every placement.
func TestLeLannSquare(t *testing.T) {
	m := lookup(t, "lelann")
	for n := 3; n <= 6; n++ {
		row := bounds.Measure(context.Background(), m, space(m, n, spec.All(n)), bounds.DefaultCheck())
		s := row.Stat(bounds.Messages)
		// The least over all placements and schedules equals the
		// greatest: each placement's least and greatest are both n^2.
		if row.Measured == 0 || s.Min != int64(n*n) || s.Max != int64(n*n) || s.Mean().Cmp(big.NewRat(int64(n*n), 1)) != 0 {
			t.Errorf("n=%d: %d..%d messages over %d placements, want %d", n, s.Min, s.Max, row.Placements, n*n)
		}
	}
}

// Every correct protocol stays within its declared bound on every
// configuration, and the figures hang together.
func TestDeclaredBoundsHold(t *testing.T) {
	maxN := 6
	if testing.Short() {
		maxN = 5
	}
	for _, m := range protocols.All() {
		info := m.Info()
		if info.Breaks != "" {
			continue
		}
		spaces := []configs.Space{}
		for n := 3; n <= fixtures.MaxN(info, maxN); n++ {
			spaces = append(spaces, space(m, n, 0))
		}
		t.Run(info.Name, func(t *testing.T) {
			tab := bounds.Run(context.Background(), m, spaces, bounds.DefaultCheck())
			if v := tab.Verdict(); v != (bounds.Verdict{Declared: true}) {
				t.Fatalf("verdict %s", v)
			}
			for _, r := range tab.Rows {
				if r.Bound == nil || r.Bound.Status != bounds.Within || r.Bound.Max > r.Bound.Bound || r.Measured != r.Configs {
					t.Errorf("n=%d: bound %+v, %d of %d measured", r.N, r.Bound, r.Measured, r.Configs)
				}
				var kmin, kmax int64
				for _, s := range r.Stats {
					if s.Min > s.Max || s.MeanMin.Cmp(s.MeanMax) > 0 || s.MeanMax.Cmp(big.NewRat(s.Max, 1)) > 0 || s.MeanMin.Cmp(big.NewRat(s.Min, 1)) < 0 {
						t.Errorf("n=%d %s: min %d, means %s, max %d", r.N, s.Name, s.Min, s.MeanString(), s.Max)
					}
					if s.Kind {
						kmin += s.Min
						kmax += s.Max
					}
				}
				msgs := r.Stat(bounds.Messages)
				if kmin > msgs.Min || kmax < msgs.Max {
					t.Errorf("n=%d: kinds add up to %d..%d, messages %d..%d", r.N, kmin, kmax, msgs.Min, msgs.Max)
				}
				if w := r.Worst; w == nil || int64(len(w.Trace)) < msgs.Max {
					t.Errorf("n=%d: no worst execution, or a short one", r.N)
				}
			}
		})
	}
}

// tight is a protocol whose declared bound is one message too small.
type tight struct{ spec.Machine }

func (m tight) Info() spec.Info {
	info := m.Machine.Info()
	real := info.Bound.Max
	info.Name += "-tight"
	info.Bound = spec.Bound{Formula: "(" + info.Bound.Formula + ") - 1", Max: func(n int) int { return real(n) - 1 }}
	return info
}

// A bound one too small is EXCEEDED on every n, the figures are still all
// there, and the worst execution replays as a message-bound violation.
func TestTooSmallBound(t *testing.T) {
	m := tight{lookup(t, "cr")}
	tab := bounds.Run(context.Background(), m, []configs.Space{space(m, 3, 0), space(m, 4, 0)}, bounds.DefaultCheck())
	if v := tab.Verdict(); v.Outcome != invariants.Violated || v.Property != invariants.MessageBound || v.String() != "EXCEEDED: the declared bound (n(n+1)/2 probes + n SELECTED) - 1 at n=3, 4" {
		t.Errorf("verdict %q", v)
	}
	for _, r := range tab.Rows {
		if r.Measured != r.Configs || r.Bound.Status != bounds.Exceeded || r.Bound.Max != r.Bound.Bound+1 {
			t.Errorf("n=%d: %d of %d measured, bound %+v", r.N, r.Measured, r.Configs, r.Bound)
		}
	}
	w := tab.Worst()
	if w == nil || w.N != 3 {
		t.Fatalf("the execution to write is not the n=3 one: %+v", w)
	}
	trace, err := counterexamples.Rebuild(m, w.Worst)
	if err != nil {
		t.Fatal(err)
	}
	o, err := counterexamples.Replay(trace.ToFile(), m)
	if err != nil || !o.Confirmed {
		t.Fatalf("replay: %v, %+v", err, o)
	}
	var out bytes.Buffer
	tab.WriteText(&out, "")
	if !strings.Contains(out.String(), "n=3: EXCEEDED: an execution sends 9 messages, more than the declared bound (n(n+1)/2 probes + n SELECTED) - 1 = 8") {
		t.Errorf("the report does not say which bound is exceeded:\n%s", out.String())
	}
}

// A protocol that violates another property gets no VERIFIED-like verdict,
// and a run cut short claims no bound.
func TestViolatedAndIncomplete(t *testing.T) {
	m := lookup(t, "cr-flip")
	tab := bounds.Run(context.Background(), m, []configs.Space{space(m, 3, 0)}, bounds.DefaultCheck())
	if v := tab.Verdict(); v.Verdict != (invariants.Verdict{Outcome: invariants.Violated, Property: invariants.Validity}) || tab.Rows[0].Measured >= tab.Rows[0].Configs || tab.Rows[0].Bound.Status == bounds.Within {
		t.Errorf("cr-flip: %s, %d of %d measured, bound %+v", v, tab.Rows[0].Measured, tab.Rows[0].Configs, tab.Rows[0].Bound)
	}
	m = lookup(t, "dkr")
	opts := bounds.DefaultCheck()
	opts.MaxStates = 300 // n=3 has 170 states
	tab = bounds.Run(context.Background(), m, []configs.Space{space(m, 3, 0), space(m, 4, 0)}, opts)
	if v := tab.Verdict(); v.Outcome != invariants.Incomplete || !strings.HasPrefix(v.Reason, "n=4: state limit of ") {
		t.Errorf("verdict %q", v)
	}
	if r := tab.Rows[len(tab.Rows)-1]; r.Bound.Status != bounds.Unknown {
		t.Errorf("an incomplete row claims %s", r.Bound.Status)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tab = bounds.Run(ctx, m, []configs.Space{space(m, 3, 0)}, bounds.DefaultCheck())
	if v := tab.Verdict(); v.Outcome != invariants.Incomplete {
		t.Errorf("cancelled: verdict %q", v)
	}
}

// TestLiteratureSources: every formula a registered protocol declares
// measures a figure bounds reports (a message kind or one of its measures),
// and its Source starts with the anchor in docs/references.md of the source
// it comes from (the tag the tables and plots show) and quotes a passage.
func TestLiteratureSources(t *testing.T) {
	b, err := os.ReadFile("../docs/references.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range protocols.Correct() {
		info := m.Info()
		for _, f := range bounds.Literature(info) {
			if !slices.Contains(info.Messages, f.Measure) && !slices.Contains([]string{bounds.Messages, bounds.Bits, bounds.Dyadic, bounds.Time}, f.Measure) {
				t.Errorf("%s: formula %s measures %q, which bounds does not report", info.Name, f.Text, f.Measure)
			}
			tag, rest, ok := strings.Cut(f.Source, ", ")
			if !ok || rest == "" || !bytes.Contains(b, []byte(`<a id="`+tag+`"></a>`)) {
				t.Errorf("%s: Source %q does not start with an anchor of docs/references.md and a passage", info.Name, f.Source)
			}
		}
	}
}

// A buggy variant has no formulas of its own: those it inherits describe
// the correct algorithm.
func TestLiteratureSkipsBuggyVariants(t *testing.T) {
	info := lookup(t, "cr").Info()
	if len(bounds.Literature(info)) != 3 {
		t.Fatalf("cr: %d formulas, want 3", len(bounds.Literature(info)))
	}
	info.Bug = "a slip"
	if fs := bounds.Literature(info); len(fs) != 0 {
		t.Errorf("a buggy variant gets %d formulas", len(fs))
	}
}

// Vitányi 1983: "1, 2, 3, 4, 5, 6, ... are encoded as 1, 2, 11, 21, 12,
// 22, ...".
func TestDyadic(t *testing.T) {
	want := []string{"1", "2", "11", "21", "12", "22", "111", "211"}
	for i, w := range want {
		id := spec.ID(i + 1)
		if got := bounds.DyadicString(id); got != w || bounds.DyadicLen(id) != int64(len(w)) {
			t.Errorf("%d: dyadic %q (length %d), want %q", id, got, bounds.DyadicLen(id), w)
		}
	}
	for id, w := range map[spec.ID]int64{0: 0, 1: 1, 2: 2, 3: 2, 4: 3, 7: 3, 8: 4, 14: 4, 15: 4} {
		if got := bounds.BinaryLen(id); got != w {
			t.Errorf("binary length of %d: %d, want %d", id, got, w)
		}
	}
	for id, w := range map[spec.ID]int64{0: 0, 6: 2, 7: 3, 14: 3, 15: 4} {
		if got := bounds.DyadicLen(id); got != w {
			t.Errorf("dyadic length of %d: %d, want %d", id, got, w)
		}
	}
}

// Formulas with a logarithm compare exactly.
func TestFormulaCompare(t *testing.T) {
	var f bounds.Formula
	for _, g := range bounds.Literature(lookup(t, "dkr").Info()) {
		if g.Text == "2N log N + N" {
			f = g
		}
	}
	tests := []struct {
		n    int
		x    *big.Rat
		want int
		val  string
	}{
		{3, big.NewRat(12, 1), -1, "≈12.51"}, // 6·1.585 + 3
		{3, big.NewRat(13, 1), 1, "≈12.51"},
		{4, big.NewRat(20, 1), 0, "20"},
		{4, big.NewRat(24, 1), 1, "20"},
		{6, big.NewRat(36, 1), -1, "≈37.02"},
		{8, big.NewRat(56, 1), 0, "56"},
		{8, big.NewRat(111, 2), -1, "56"},
	}
	for _, tt := range tests {
		if got := f.Compare(tt.n, tt.x); got != tt.want || f.ValueString(tt.n) != tt.val {
			t.Errorf("n=%d x=%s: compare %d (want %d), value %s (want %s)", tt.n, tt.x.RatString(), got, tt.want, f.ValueString(tt.n), tt.val)
		}
	}
}

func TestMeanString(t *testing.T) {
	s := bounds.Stat{MeanMin: big.NewRat(363, 20), MeanMax: big.NewRat(363, 20)}
	if got := s.MeanString(); got != "363/20 ≈ 18.15" {
		t.Errorf("%q", got)
	}
	s.MeanMax = big.NewRat(19, 1)
	if got := s.MeanString(); got != "363/20 ≈ 18.15 .. 19" || s.Mean() != nil {
		t.Errorf("%q", got)
	}
	if got := (&bounds.Stat{}).MeanString(); got != "n/a" {
		t.Errorf("%q", got)
	}
}

// The four renderings have the shape their readers expect.
func TestFormats(t *testing.T) {
	m := lookup(t, "dkr")
	tab := bounds.Run(context.Background(), m, []configs.Space{space(m, 3, 0), space(m, 4, 0)}, bounds.DefaultCheck())
	var js bytes.Buffer
	if err := tab.WriteJSON(&js, ""); err != nil {
		t.Fatal(err)
	}
	var j bounds.JSON
	if err := json.Unmarshal(js.Bytes(), &j); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if j.Algo != "dkr" || len(j.Rows) != 2 || j.Verdict != "WITHIN BOUND" || len(j.Rows[1].Figures) != 7 || j.Rows[1].Figures[0].MeanMax != "56/3" || j.Rows[1].Bound.Bound != 24 {
		t.Errorf("unexpected JSON: %s", js.String())
	}
	var cs bytes.Buffer
	if err := tab.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(recs) != 3 || len(recs[0]) != 5+4*7+3 || recs[0][1] != "n" || recs[2][1] != "4" || recs[2][7] != "56/3" {
		t.Errorf("unexpected CSV (%v): %q", err, recs)
	}
	var md bytes.Buffer
	tab.WriteMarkdown(&md)
	cols := -1
	for _, line := range strings.Split(md.String(), "\n") {
		if !strings.HasPrefix(line, "| ") {
			cols = -1
			continue
		}
		c := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|")
		if cols >= 0 && c != cols {
			t.Errorf("markdown row with %d bars after a row with %d: %s", c, cols, line)
		}
		cols = c
	}
	if !strings.Contains(md.String(), "| 4 | 90 | 8 | 56/3 ≈ 18.67 | 24 | 24: within |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var txt bytes.Buffer
	tab.WriteText(&txt, "")
	if lines := strings.Split(strings.TrimSpace(txt.String()), "\n"); lines[len(lines)-1] != "WITHIN BOUND" {
		t.Errorf("text ends in %q", lines[len(lines)-1])
	}
	var svg bytes.Buffer
	tab.WriteSVG(&svg)
	wellFormed(t, svg.Bytes())
	// An exceeded bound is marked on the plot.
	tm := tight{m}
	tab = bounds.Run(context.Background(), tm, []configs.Space{space(tm, 3, 0)}, bounds.DefaultCheck())
	svg.Reset()
	tab.WriteSVG(&svg)
	wellFormed(t, svg.Bytes())
	if !strings.Contains(svg.String(), ">EXCEEDED</text>") {
		t.Errorf("the plot does not mark the exceeded bound")
	}
}

// wellFormed decodes b as XML to the end, and checks it is an SVG with
// lines and a legend.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	elems := map[string]int{}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, b)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elems[se.Name.Local]++
			if elems["svg"] == 1 && se.Name.Local == "svg" && se.Name.Space != "http://www.w3.org/2000/svg" {
				t.Errorf("svg element in namespace %q", se.Name.Space)
			}
		}
	}
	if elems["svg"] != 1 || elems["polyline"] < 4 || elems["text"] < 10 {
		t.Errorf("unexpected SVG elements %v", elems)
	}
}

// Moving a placement by a symmetry of the network changes no figure, so
// the mean over the placements up to symmetry is the mean over all n! of
// them, network by network (a family's mean weighs each network by its
// placements up to its own symmetries, so only each network's compares).
func TestMeanUpToRotation(t *testing.T) {
	for _, m := range protocols.All() {
		if m.Info().Breaks != "" {
			continue
		}
		for n := 3; n <= fixtures.MaxN(m.Info(), 5); n++ {
			for _, top := range spec.MustTopologies(m.Info().Topology, n) {
				sp := space(m, n, spec.All(n))
				sp.Topologies = []spec.Topology{top}
				reduced := bounds.Measure(context.Background(), m, sp, bounds.DefaultCheck())
				sp.AllPlacements = true
				all := bounds.Measure(context.Background(), m, sp, bounds.DefaultCheck())
				if g := len(top.PortPreserving()); all.Placements != g*reduced.Placements {
					t.Errorf("%s n=%d %s: %d placements, %d up to its %d symmetries", m.Info().Name, n, top.Label, all.Placements, reduced.Placements, g)
				}
				for k, s := range all.Stats {
					r := reduced.Stats[k]
					if s.Min != r.Min || s.Max != r.Max || s.MeanMin.Cmp(r.MeanMin) != 0 || s.MeanMax.Cmp(r.MeanMax) != 0 {
						t.Errorf("%s n=%d %s %s: all placements %d %s %d, up to symmetry %d %s %d", m.Info().Name, n, top.Label, s.Name, s.Min, s.MeanString(), s.Max, r.Min, r.MeanString(), r.Max)
					}
				}
			}
		}
	}
}

// withInfo is a machine with another Info.
type withInfo struct {
	spec.Machine
	info spec.Info
}

func (w withInfo) Info() spec.Info { return w.info }

// A formula per network (tree election's time, 3D + 1 with D each tree's
// diameter) is checked on every configuration against its own network,
// and fails where one network's figure is above it, though the row's
// maximum is within the family's largest value.
func TestPerNetworkFormula(t *testing.T) {
	m := lookup(t, "tree")
	find := func(row *bounds.Row) bounds.LitCheck {
		for _, l := range row.Literature {
			if l.PerNetwork() {
				return l
			}
		}
		t.Fatal("no per-network formula in the row")
		return bounds.LitCheck{}
	}
	row := bounds.Measure(context.Background(), m, space(m, 4, 0), bounds.DefaultCheck())
	if l := find(row); !l.Holds || !strings.Contains(l.Cell(), "≤ on all 540") {
		t.Errorf("3D + 1 on every tree of 4: %q, holds %v", l.Cell(), l.Holds)
	}
	// 2D + 1 holds with equality on 36 configurations; 2D does not: the
	// path of 4 (D = 3) takes time 7.
	info := m.Info()
	info.Literature = slices.Clone(info.Literature)
	for i, f := range info.Literature {
		if f.Of != nil {
			f.Text, f.Of = "2D", func(t *spec.Topology) int64 { return int64(2 * t.Diameter()) }
			info.Literature[i] = f
		}
	}
	row = bounds.Measure(context.Background(), withInfo{m, info}, space(m, 4, 0), bounds.DefaultCheck())
	if l := find(row); l.Holds || !strings.Contains(l.Cell(), "> on") || !strings.Contains(l.Cell(), "first:") {
		t.Errorf("2D on every tree of 4: %q, holds %v", l.Cell(), l.Holds)
	}
}

// A buggy variant's configurations without a violation are all measured,
// also those after the first violation, which a check looking only for a
// shorter counterexample would search to a depth (explore.Options.EveryConfig).
func TestMeasureAfterViolation(t *testing.T) {
	for _, tc := range []struct {
		algo            string
		n, measured, of int
	}{{"echo-joinhigher", 3, 12, 28}, {"echo-noreset", 3, 24, 28}, {"afek-gafni-levelonly", 3, 3, 7}, {"lelann-flip", 4, 24, 90}} {
		m := lookup(t, tc.algo)
		sp := space(m, tc.n, 0)
		sp.PortBlind = m.Info().PortBlind // as elcheck bounds takes the placements
		row := bounds.Measure(context.Background(), m, sp, bounds.DefaultCheck())
		if row.Measured != tc.measured || row.Configs != tc.of || len(row.Violated) == 0 {
			t.Errorf("%s n=%d: %d of %d measured, violated %v; want %d of %d and a violation", tc.algo, tc.n, row.Measured, row.Configs, row.Violated, tc.measured, tc.of)
		}
	}
}
