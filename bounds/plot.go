package bounds

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// The plot's geometry, in SVG user units.
const (
	plotW, plotH               = 760, 460
	marginL, marginR           = 72, 24
	marginT, marginB           = 64, 60
	innerW                     = plotW - marginL - marginR
	innerH                     = plotH - marginT - marginB
	legendX, legendY, legendDY = marginL + 14, marginT + 14, 20
)

// series is one line of the plot: a value per n (NaN: none).
type series struct {
	label  string
	color  string
	dash   string // stroke-dasharray; empty for a solid line
	marker string // "circle", "square", "diamond" or ""
	ys     []float64
}

// WriteSVG draws the measured messages per complete execution (min, mean
// over placements, max) against the declared bound and the published
// formulas on the total, over n: a self-contained SVG. Points where the
// most messages exceed the declared bound are ringed.
func (t *Table) WriteSVG(w io.Writer) {
	var ns []int
	for _, r := range t.Rows {
		ns = append(ns, r.N)
	}
	nan := math.NaN()
	val := func(f func(r *Row) float64) []float64 {
		ys := make([]float64, len(t.Rows))
		for i, r := range t.Rows {
			ys[i] = nan
			if r.Measured > 0 {
				ys[i] = f(r)
			}
		}
		return ys
	}
	ss := []series{
		{label: "most messages (worst execution)", color: "#d62728", marker: "circle",
			ys: val(func(r *Row) float64 { return float64(r.Stats[0].Max) })},
		{label: "mean over id placements", color: "#1f77b4", marker: "diamond",
			ys: val(func(r *Row) float64 {
				if r.Stats[0].MeanMax == nil {
					return nan
				}
				f, _ := r.Stats[0].MeanMax.Float64()
				return f
			})},
		{label: "fewest messages (best execution)", color: "#2ca02c", marker: "square",
			ys: val(func(r *Row) float64 { return float64(r.Stats[0].Min) })},
	}
	if b := t.Info.Bound; b.Max != nil {
		ys := make([]float64, len(ns))
		for i, n := range ns {
			ys[i] = float64(b.Max(n))
		}
		ss = append(ss, series{label: "declared bound " + b.Formula, color: "#222222", dash: "7 4", ys: ys})
	}
	for _, f := range Literature(t.Info) {
		if f.Measure != Messages {
			continue
		}
		ys := make([]float64, len(ns))
		for i, n := range ns {
			ys[i] = f.Float(n)
		}
		src := strings.SplitN(f.Source, ",", 2)[0]
		ss = append(ss, series{label: fmt.Sprintf("[%s] %s %s %s", src, f.Stat, f.Rel, f.Text), color: "#9467bd", dash: "2 4", ys: ys})
	}

	// Leave out what has no point (a mean without placements).
	kept := ss[:0]
	for _, s := range ss {
		if slices.ContainsFunc(s.ys, func(y float64) bool { return !math.IsNaN(y) }) {
			kept = append(kept, s)
		}
	}
	ss = kept

	// Scales: n on x (one tick per size), messages on y from 0 to a round
	// figure above the largest value.
	xlo, xhi := 0.0, 1.0
	if len(ns) > 0 {
		xlo, xhi = float64(ns[0])-0.5, float64(ns[len(ns)-1])+0.5
	}
	ymax := 1.0
	for _, s := range ss {
		for _, y := range s.ys {
			if !math.IsNaN(y) {
				ymax = math.Max(ymax, y)
			}
		}
	}
	step := niceStep(ymax / 6)
	ytop := math.Ceil(ymax*1.08/step) * step
	px := func(x float64) float64 { return marginL + (x-xlo)/(xhi-xlo)*innerW }
	py := func(y float64) float64 { return marginT + innerH - y/ytop*innerH }

	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="13">
`, plotW, plotH, plotW, plotH)
	fmt.Fprintf(w, "<title>%s</title>\n", esc("elcheck bounds "+t.Info.Name+": messages per complete execution"))
	fmt.Fprintf(w, `<rect x="0" y="0" width="%d" height="%d" fill="white"/>`+"\n", plotW, plotH)
	fmt.Fprintf(w, `<text x="%d" y="26" font-size="16" font-weight="bold">%s</text>`+"\n", marginL, esc(t.Info.Name+": messages per complete execution"))
	fmt.Fprintf(w, `<text x="%d" y="46" fill="#555">%s</text>`+"\n", marginL, esc(t.Info.Topology.String()+", "+t.Channels.String()+" channels; "+t.Space))

	// Grid and ticks.
	fmt.Fprintln(w, `<g stroke="#e3e3e3" stroke-width="1">`)
	for y := 0.0; y <= ytop+step/2; y += step {
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`+"\n", marginL, py(y), marginL+innerW, py(y))
	}
	for _, n := range ns {
		fmt.Fprintf(w, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d"/>`+"\n", px(float64(n)), marginT, px(float64(n)), marginT+innerH)
	}
	fmt.Fprintln(w, `</g>`)
	fmt.Fprintf(w, `<g stroke="#333" stroke-width="1.2"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		marginL, marginT+innerH, marginL+innerW, marginT+innerH, marginL, marginT, marginL, marginT+innerH)
	fmt.Fprintln(w, `<g fill="#333">`)
	for y := 0.0; y <= ytop+step/2; y += step {
		fmt.Fprintf(w, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", marginL-8, py(y)+4, trimFloat(y))
	}
	for _, n := range ns {
		fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", px(float64(n)), marginT+innerH+20, n)
	}
	fmt.Fprintf(w, `<text x="%.1f" y="%d" text-anchor="middle">n (processes on the ring)</text>`+"\n", marginL+innerW/2.0, plotH-14)
	fmt.Fprintf(w, `<text transform="translate(20 %.1f) rotate(-90)" text-anchor="middle">messages</text>`+"\n", marginT+innerH/2.0)
	fmt.Fprintln(w, `</g>`)

	// Lines, then markers over them.
	for _, s := range ss {
		var pts []string
		for i, y := range s.ys {
			if math.IsNaN(y) {
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(float64(ns[i])), py(y)))
		}
		if len(pts) == 0 {
			continue
		}
		dash := ""
		if s.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, s.dash)
		}
		fmt.Fprintf(w, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", s.color, dash, strings.Join(pts, " "))
		for i, y := range s.ys {
			if !math.IsNaN(y) {
				marker(w, s.marker, s.color, px(float64(ns[i])), py(y))
			}
		}
	}
	for _, r := range t.Rows {
		if b := r.Bound; b != nil && b.Status == Exceeded {
			x, y := px(float64(r.N)), py(float64(b.Max))
			fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="#d62728" stroke-width="2"/>`+"\n", x, y)
			fmt.Fprintf(w, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#d62728" font-weight="bold">EXCEEDED</text>`+"\n", x, y-14)
		}
	}

	// Legend, top left, where the lines (growing with n) leave room.
	lw := 0
	for _, s := range ss {
		lw = max(lw, len([]rune(s.label)))
	}
	fmt.Fprintf(w, `<rect x="%d" y="%d" width="%d" height="%d" fill="white" fill-opacity="0.9" stroke="#bbb"/>`+"\n",
		legendX-8, legendY-8, 46+lw*7, len(ss)*legendDY+6)
	for k, s := range ss {
		y := float64(legendY + k*legendDY + 6)
		dash := ""
		if s.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, s.dash)
		}
		fmt.Fprintf(w, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="2"%s/>`+"\n", legendX, y, legendX+28, y, s.color, dash)
		marker(w, s.marker, s.color, float64(legendX+14), y)
		fmt.Fprintf(w, `<text x="%d" y="%.1f" fill="#222">%s</text>`+"\n", legendX+36, y+4, esc(s.label))
	}
	fmt.Fprintln(w, `</svg>`)
}

// marker draws a point. The circle (drawn first) is the largest and the
// square (last) the smallest, so points that coincide stay visible.
func marker(w io.Writer, kind, color string, x, y float64) {
	switch kind {
	case "circle":
		fmt.Fprintf(w, `<circle cx="%.1f" cy="%.1f" r="6" fill="%s"/>`+"\n", x, y, color)
	case "square":
		fmt.Fprintf(w, `<rect x="%.1f" y="%.1f" width="6" height="6" fill="%s"/>`+"\n", x-3, y-3, color)
	case "diamond":
		fmt.Fprintf(w, `<path d="M %.1f %.1f l 5 5 l -5 5 l -5 -5 z" fill="%s"/>`+"\n", x, y-5, color)
	}
}

// niceStep rounds a tick step up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return math.Max(1, m*p)
		}
	}
	return 10 * p
}

func trimFloat(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%g", f)
}

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
