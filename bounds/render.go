package bounds

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elcheck/elcheck/invariants"
)

// FormatVersion is the version of the JSON form; fields are only added.
const FormatVersion = 1

// label is how a measure is headed in tables.
func label(name string) string {
	switch name {
	case Bits:
		return "bits (binary)"
	case Dyadic:
		return "bits (dyadic)"
	}
	return name
}

// Approx renders a rational exactly, with a decimal beside it when it is
// not an integer: "12", "363/20 ≈ 18.15".
func Approx(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return RatString(r) + " ≈ " + r.FloatString(2)
}

// MeanString renders a mean: one value when it does not depend on the
// schedule, "lo .. hi" (the means of the least and of the greatest) when
// it does, "n/a" when there is no placement to average over.
func (s *Stat) MeanString() string {
	switch {
	case s.MeanMin == nil:
		return "n/a"
	case s.MeanMin.Cmp(s.MeanMax) == 0:
		return Approx(s.MeanMin)
	}
	return Approx(s.MeanMin) + " .. " + Approx(s.MeanMax)
}

// Cell renders a literature check: "13 = 13", "24 > ≈20.00", "n/a".
func (l LitCheck) Cell() string {
	if l.Measured == "" {
		return "n/a"
	}
	if l.PerNetwork() { // checked on each configuration: Measured says how
		return l.Measured
	}
	rel := string(l.Rel)
	switch {
	case l.Holds && l.Measured == l.Value:
		rel = "="
	case !l.Holds && l.Rel == AtMost:
		rel = ">"
	case !l.Holds:
		rel = "≠"
	}
	return l.Measured + " " + rel + " " + l.Value
}

// Cell renders a bound check: the bound's value and the verdict, "35:
// within", "23: EXCEEDED", "42: unknown".
func (b *BoundCheck) Cell() string { return fmt.Sprintf("%d: %s", b.Bound, b.Status) }

// grid is a table: a group row (labels spanning columns), a header row and
// the data rows.
type grid struct {
	groups []group
	head   []string
	rows   [][]string
}

type group struct {
	label string
	span  int
}

func (g *grid) add(groupLabel string, cols ...string) {
	g.groups = append(g.groups, group{groupLabel, len(cols)})
	g.head = append(g.head, cols...)
}

// figures builds the tables of the report: messages (total, against the
// declared bound, and by kind), then bits and time, then the literature.
func (t *Table) figures() (msgs, bitsTime, lit *grid) {
	msgs, bitsTime, lit = &grid{}, &grid{}, &grid{}
	msgs.add("", "n", "configurations")
	bitsTime.add("", "n")
	lit.add("", "n")
	stat := func(g *grid, name string) { g.add(label(name), "min", "mean", "max") }
	stat(msgs, Messages)
	if t.Info.Bound.Max != nil {
		msgs.add("declared bound", t.Info.Bound.Formula)
	}
	for _, k := range t.Info.Messages {
		stat(msgs, k)
	}
	for _, name := range []string{Bits, Dyadic, Time} {
		stat(bitsTime, name)
	}
	for _, f := range Literature(t.Info) {
		lit.add(f.Measure+" "+f.Stat, string(f.Rel)+" "+f.Text+" ["+strings.SplitN(f.Source, ",", 2)[0]+"]")
	}
	for _, r := range t.Rows {
		configs := strconv.Itoa(r.Configs)
		if r.Measured < r.Configs {
			configs = fmt.Sprintf("%d of %d", r.Measured, r.Configs)
		}
		m := []string{strconv.Itoa(r.N), configs}
		b := []string{strconv.Itoa(r.N)}
		cells := func(s *Stat) []string {
			if r.Measured == 0 {
				return []string{"-", "-", "-"}
			}
			return []string{strconv.FormatInt(s.Min, 10), s.MeanString(), strconv.FormatInt(s.Max, 10)}
		}
		for k := range r.Stats {
			s := &r.Stats[k]
			switch {
			case s.Name == Messages:
				m = append(m, cells(s)...)
				if r.Bound != nil {
					m = append(m, r.Bound.Cell())
				}
			case s.Kind:
				m = append(m, cells(s)...)
			default:
				b = append(b, cells(s)...)
			}
		}
		msgs.rows = append(msgs.rows, m)
		bitsTime.rows = append(bitsTime.rows, b)
		l := []string{strconv.Itoa(r.N)}
		for k := range Literature(t.Info) {
			cell := "n/a"
			if k < len(r.Literature) {
				cell = r.Literature[k].Cell()
			}
			l = append(l, cell)
		}
		lit.rows = append(lit.rows, l)
	}
	if !slices.ContainsFunc(t.Rows, func(r *Row) bool { return len(r.Literature) > 0 }) {
		lit = nil // no formula, or a placement fixed by -ids
	}
	return msgs, bitsTime, lit
}

func width(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, w int, right bool) string {
	fill := strings.Repeat(" ", max(0, w-width(s)))
	if right {
		return fill + s
	}
	return s + fill
}

// writeText renders g with aligned columns, numbers to the right, and the
// group labels over their columns.
func (g *grid) writeText(w io.Writer) {
	ws := make([]int, len(g.head))
	for i, h := range g.head {
		ws[i] = width(h)
	}
	for _, row := range g.rows {
		for i, c := range row {
			ws[i] = max(ws[i], width(c))
		}
	}
	// Widen the last column of a group whose label is wider than it.
	col := 0
	for _, gr := range g.groups {
		total := sum(ws[col:col+gr.span]) + 2*(gr.span-1)
		if d := width(gr.label) - total; d > 0 {
			ws[col+gr.span-1] += d
		}
		col += gr.span
	}
	var line strings.Builder
	col = 0
	for k, gr := range g.groups {
		total := sum(ws[col:col+gr.span]) + 2*(gr.span-1)
		if k > 0 {
			line.WriteString(" | ")
		}
		line.WriteString(pad(gr.label, total, false))
		col += gr.span
	}
	fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	writeRow := func(cells []string) {
		line.Reset()
		col := 0
		for k, gr := range g.groups {
			if k > 0 {
				line.WriteString(" | ")
			}
			for j := range gr.span {
				if j > 0 {
					line.WriteString("  ")
				}
				line.WriteString(pad(cells[col+j], ws[col+j], true))
			}
			col += gr.span
		}
		fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
	}
	writeRow(g.head)
	for _, row := range g.rows {
		writeRow(row)
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// writeMarkdown renders g as a GitHub table, each header cell prefixed by
// its group's label.
func (g *grid) writeMarkdown(w io.Writer) {
	var head, align []string
	col := 0
	for _, gr := range g.groups {
		for j := range gr.span {
			h := g.head[col+j]
			if gr.label != "" {
				h = gr.label + " " + h
			}
			head = append(head, mdEscape(h))
			align = append(align, "---:")
		}
		col += gr.span
	}
	fmt.Fprintf(w, "| %s |\n| %s |\n", strings.Join(head, " | "), strings.Join(align, " | "))
	for _, row := range g.rows {
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = mdEscape(c)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// Intro returns the lines that say what the figures are over.
func (t *Table) Intro() []string {
	out := []string{
		fmt.Sprintf("%s (%s), %s, %s channels", t.Info.Name, t.Info.Title, t.Info.Topology, t.Channels),
		"configurations: " + t.Space,
		"min and max: over every complete execution of every configuration",
		"mean: over " + t.Placements + "; \"a .. b\" when it depends on the schedule: the mean of each placement's least, then of its greatest",
		"bits: those of the ids messages carry (binary, and dyadic as in Vitányi 1983); time: the longest causal chain of messages",
	}
	return out
}

// WriteText writes the report for a terminal: what the figures are over,
// the tables, the exceeded bounds, notes (lines the caller adds, such as
// where it wrote a file) and the verdict.
func (t *Table) WriteText(w io.Writer, notes string) {
	fmt.Fprintln(w, "elcheck bounds "+t.Intro()[0])
	for _, l := range t.Intro()[1:] {
		fmt.Fprintln(w, l)
	}
	msgs, bitsTime, lit := t.figures()
	fmt.Fprintln(w)
	msgs.writeText(w)
	fmt.Fprintln(w)
	bitsTime.writeText(w)
	if lit != nil {
		fmt.Fprintln(w, "\nagainst the published formulas ([tag]: the source's anchor in docs/references.md):")
		lit.writeText(w)
	}
	t.writeNotes(w)
	fmt.Fprint(w, notes)
	fmt.Fprintln(w, t.Verdict())
}

// writeNotes says what went wrong, row by row.
func (t *Table) writeNotes(w io.Writer) {
	first := true
	note := func(format string, args ...any) {
		if first {
			fmt.Fprintln(w)
			first = false
		}
		fmt.Fprintf(w, format+"\n", args...)
	}
	for _, r := range t.Rows {
		if b := r.Bound; b != nil && b.Status == Exceeded {
			// The worst execution's detail is invariants.CheckBound's.
			note("n=%d: EXCEEDED: %s (configuration %s, %d steps)", r.N, r.Worst.Detail, r.Worst.Config, len(r.Worst.Trace))
		}
		if len(r.Violated) > 0 {
			note("n=%d: %d of %d configurations measured: %s fails in the others (elcheck verify -algo=%s -n=%d shows a counterexample)",
				r.N, r.Measured, r.Configs, strings.Join(r.Violated, ", "), t.Info.Name, r.N)
		}
		if r.Incomplete != "" {
			note("n=%d: %s: the figures are over the %d configurations measured, and no bound is claimed", r.N, r.Incomplete, r.Measured)
		}
	}
}

// WriteMarkdown writes the tables as GitHub markdown, for docs/bounds.md.
func (t *Table) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "### %s\n\n", t.Info.Name)
	fmt.Fprintf(w, "%s. Source: %s. On a %s with %s channels; configurations: %s; mean over %s.\n\n",
		t.Info.Title, t.Info.Source, t.Info.Topology, t.Channels, t.Space, t.Placements)
	msgs, bitsTime, lit := t.figures()
	fmt.Fprint(w, "Messages per execution, and the declared bound:\n\n")
	msgs.writeMarkdown(w)
	fmt.Fprint(w, "\nBits of the ids carried, and causal time:\n\n")
	bitsTime.writeMarkdown(w)
	if lit != nil {
		fmt.Fprint(w, "\nAgainst the published formulas ([tag]: the source's anchor in [references.md](references.md)):\n\n")
		lit.writeMarkdown(w)
	}
	var notes strings.Builder
	t.writeNotes(&notes)
	if s := strings.TrimSpace(notes.String()); s != "" {
		fmt.Fprintf(w, "\n%s\n", s)
	}
	fmt.Fprintf(w, "\nVerdict: %s.\n", t.Verdict())
}

// WriteCSV writes one line per n: the configurations, then for each
// measure its min, the means of the per-placement least and greatest
// (exact rationals, empty if there is none) and its max, then the
// declared bound.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"algo", "n", "configurations", "measured", "placements"}
	var names []string
	if len(t.Rows) > 0 {
		for _, s := range t.Rows[0].Stats {
			names = append(names, s.Name)
		}
	}
	for _, name := range names {
		k := strings.ReplaceAll(name, " ", "_")
		head = append(head, k+"_min", k+"_mean_min", k+"_mean_max", k+"_max")
	}
	head = append(head, "bound_formula", "bound", "bound_status")
	cw.Write(head)
	for _, r := range t.Rows {
		rec := []string{t.Info.Name, strconv.Itoa(r.N), strconv.Itoa(r.Configs), strconv.Itoa(r.Measured), strconv.Itoa(r.Placements)}
		for _, s := range r.Stats {
			lo, hi := "", ""
			if s.MeanMin != nil {
				lo, hi = RatString(s.MeanMin), RatString(s.MeanMax)
			}
			rec = append(rec, strconv.FormatInt(s.Min, 10), lo, hi, strconv.FormatInt(s.Max, 10))
		}
		if b := r.Bound; b != nil {
			rec = append(rec, b.Formula, strconv.FormatInt(b.Bound, 10), string(b.Status))
		} else {
			rec = append(rec, "", "", "")
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// JSON is the -format=json report.
type JSON struct {
	Format     int       `json:"elcheck_bounds"`
	Algo       string    `json:"algo"`
	Title      string    `json:"title"`
	Topology   string    `json:"topology"`
	Channels   string    `json:"channels"`
	Space      string    `json:"space"`
	MeanOver   string    `json:"mean_over"`
	Rows       []JSONRow `json:"rows"`
	Verdict    string    `json:"verdict"`
	Incomplete string    `json:"incomplete,omitempty"`
	// JSONVerdict is the verdict as data: outcome, property
	// (message-bound when the bound is exceeded), reason (docs/json.md).
	invariants.JSONVerdict
	// WorstOut is where -worst-out wrote the worst execution.
	WorstOut string `json:"worst_out,omitempty"`
}

// JSONRow is one n.
type JSONRow struct {
	N              int         `json:"n"`
	Configurations int         `json:"configurations"`
	Measured       int         `json:"measured"`
	Placements     int         `json:"placements"`
	States         int64       `json:"states"`
	Figures        []JSONStat  `json:"figures"`
	Bound          *BoundCheck `json:"bound,omitempty"`
	Literature     []LitCheck  `json:"literature,omitempty"`
	Worst          *JSONWorst  `json:"worst,omitempty"`
	Violated       []string    `json:"violated,omitempty"`
	Incomplete     string      `json:"incomplete,omitempty"`
}

// JSONStat is one measure; the means are exact rationals ("363/20"), with
// float approximations, and absent when there is no placement to average
// over.
type JSONStat struct {
	Name          string   `json:"name"`
	Kind          bool     `json:"kind,omitempty"` // a message kind
	Min           int64    `json:"min"`
	MeanMin       string   `json:"mean_min,omitempty"`
	MeanMax       string   `json:"mean_max,omitempty"`
	MeanMinApprox *float64 `json:"mean_min_approx,omitempty"`
	MeanMaxApprox *float64 `json:"mean_max_approx,omitempty"`
	Max           int64    `json:"max"`
}

// JSONWorst names an execution with the most messages.
type JSONWorst struct {
	Config      string `json:"config"`
	ConfigIndex int    `json:"config_index"`
	Steps       int    `json:"steps"`
	Messages    int64  `json:"messages"`
}

// ToJSON converts the table.
func (t *Table) ToJSON() *JSON {
	j := &JSON{Format: FormatVersion, Algo: t.Info.Name, Title: t.Info.Title, Topology: t.Info.Topology.String(),
		Channels: t.Channels.String(), Space: t.Space, MeanOver: t.Placements, Verdict: t.Verdict().String(), JSONVerdict: t.Verdict().JSON(), Incomplete: t.Incomplete, Rows: []JSONRow{}}
	for _, r := range t.Rows {
		jr := JSONRow{N: r.N, Configurations: r.Configs, Measured: r.Measured, Placements: r.Placements, States: r.States,
			Bound: r.Bound, Literature: r.Literature, Violated: r.Violated, Incomplete: r.Incomplete}
		for _, s := range r.Stats {
			js := JSONStat{Name: s.Name, Kind: s.Kind, Min: s.Min, Max: s.Max}
			if s.MeanMin != nil {
				js.MeanMin, js.MeanMax = RatString(s.MeanMin), RatString(s.MeanMax)
				lo, _ := s.MeanMin.Float64()
				hi, _ := s.MeanMax.Float64()
				js.MeanMinApprox, js.MeanMaxApprox = &lo, &hi
			}
			jr.Figures = append(jr.Figures, js)
		}
		if w := r.Worst; w != nil {
			jr.Worst = &JSONWorst{Config: w.Config.String(), ConfigIndex: w.ConfigIndex, Steps: len(w.Trace), Messages: r.Stats[0].Max}
		}
		j.Rows = append(j.Rows, jr)
	}
	return j
}

// WriteJSON writes the table as one indented JSON object.
func (t *Table) WriteJSON(w io.Writer, worstOut string) error {
	j := t.ToJSON()
	j.WorstOut = worstOut
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}
