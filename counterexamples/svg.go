package counterexamples

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/elcheck/elcheck/spec"
)

// The SVG's geometry, in pixels. The text is monospace so that a label's
// width follows from its length, which is what keeps labels apart without
// measuring fonts: DejaVu Sans Mono (what rsvg and most browsers pick for
// monospace) advances 0.602 em, 7.22 px at 12 px; charW rounds up, and to a
// quarter so that every coordinate prints short and the same everywhere.
const (
	fontSize  = 12
	charW     = 7.25
	rowH      = 44 // a row holds a line above its centre (the event) and one below (the new state)
	maxChars  = 32 // longer labels are cut with an ellipsis; the full text is the tooltip
	noteChars = 56 // the same for the protocol's notes, in a column of their own
	margin    = 12
	headerTop = margin
	headerH   = 36
	rowsTop   = headerTop + headerH + 16
	loopColW  = 56
	minColW   = 104
	selfW     = 24 // how far right a message to oneself loops
)

// labelBox is where a text label lies: its text and its bounding box.
type labelBox struct {
	text           string
	x0, y0, x1, y1 float64
}

// svgLayout is the chart laid out: the SVG body and every text label's
// box, which the tests check for overlaps.
type svgLayout struct {
	// lines are drawn first, body (boxes and text) over them, so that
	// no arrow runs across a label.
	lines  strings.Builder
	body   strings.Builder
	labels []labelBox
	width  float64
	height float64
	maxX   float64
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func esc(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// cut shortens s to maxChars characters, the last an ellipsis.
func cut(s string) string { return cutTo(s, maxChars) }

// cutTo shortens s to limit characters, the last an ellipsis.
func cutTo(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-1]) + "…"
}

// joinNonEmpty joins the non-empty strings of parts with sep.
func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}

// textWidth is the width of s in the chart's font.
func textWidth(s string) float64 { return float64(utf8.RuneCountInString(s)) * charW }

// text draws a label with its baseline at y, anchored at x (start, middle
// or end), cut to maxChars with the full text as a tooltip, and records
// its box: from 10 px above the baseline to 4 px below (the font's ascent
// and descent at 12 px, rounded out).
func (l *svgLayout) text(x, y float64, anchor, class, full string) {
	l.textCut(x, y, anchor, class, full, maxChars)
}

// textCut is text with labels cut to limit characters.
func (l *svgLayout) textCut(x, y float64, anchor, class, full string, limit int) {
	s := cutTo(full, limit)
	w := textWidth(s)
	x0 := x
	switch anchor {
	case "middle":
		x0 = x - w/2
	case "end":
		x0 = x - w
	}
	l.labels = append(l.labels, labelBox{full, x0, y - 10, x0 + w, y + 4})
	l.maxX = max(l.maxX, x0+w)
	attrs := fmt.Sprintf(`x="%s" y="%s"`, num(x), num(y))
	if anchor != "start" {
		attrs += ` text-anchor="` + anchor + `"`
	}
	if class != "" {
		attrs += ` class="` + class + `"`
	}
	if s != full {
		fmt.Fprintf(&l.body, "<g><title>%s</title><text %s>%s</text></g>\n", esc(full), attrs, esc(s))
		return
	}
	fmt.Fprintf(&l.body, "<text %s>%s</text>\n", attrs, esc(s))
}

// wrap splits s into lines of at most width characters, at spaces where
// it can.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		for utf8.RuneCountInString(w) > width {
			if line != "" {
				lines, line = append(lines, line), ""
			}
			r := []rune(w)
			lines, w = append(lines, string(r[:width])), string(r[width:])
		}
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			lines, line = append(lines, line), w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// layoutSVG lays the chart out: a column per process (its lifeline in the
// middle), a row per step, then a row per message still in flight, then
// the caption.
func (t *Trace) layoutSVG() *svgLayout {
	c := t.chartOf()
	l := &svgLayout{}
	stepColW := margin + textWidth(fmt.Sprintf("step %d", len(c.steps))) + 12
	stepColW = max(stepColW, margin+textWidth("in flight")+12)
	left := stepColW
	if c.loopAt >= 0 {
		left += loopColW
	}
	// A column is as wide as the widest label centred on its lifeline
	// (the new local states, the headers), so that two never meet.
	colW := float64(minColW)
	for _, s := range c.steps {
		colW = max(colW, textWidth(cut(s.after))+24)
	}
	for i := range c.n {
		colW = max(colW, textWidth(fmt.Sprintf("id %d", c.ids[i]))+24)
	}
	// An event's label left of the first lifeline must not reach into
	// the step numbers: pad the first column for the widest.
	evW := textWidth("wakes up")
	for _, m := range c.msgs {
		if m.to == 0 && m.from > 0 {
			evW = max(evW, textWidth(cut(m.label+" (in flight)")))
		}
	}
	left += max(0, evW+16-colW/2)
	xs := make([]float64, c.n)
	for i := range xs {
		xs[i] = left + colW*(float64(i)+0.5)
	}
	rowY := func(k int) float64 { return rowsTop + rowH*float64(k) + rowH/2 }
	flying := c.inFlight()
	rows := len(c.steps) + len(flying)
	bottom := rowY(rows) - rowH/2 + 8

	// Lifelines and headers.
	for i := range c.n {
		x := xs[i]
		fmt.Fprintf(&l.lines, `<line class="life" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(x), num(headerTop+headerH), num(x), num(bottom))
		fmt.Fprintf(&l.body, `<rect class="head" x="%s" y="%d" width="%s" height="%d" rx="4"/>`+"\n", num(x-(colW-16)/2), headerTop, num(colW-16), headerH)
		l.text(x, headerTop+15, "middle", "proc", c.procs[i])
		l.text(x, headerTop+30, "middle", "", fmt.Sprintf("id %d", c.ids[i]))
	}
	// A delivery's label goes on the side away from its sender, so that
	// the arrow does not run through it.
	event := func(x, fromX, y float64, class, label string) {
		switch {
		case fromX == x: // a message to itself, drawn as a loop to the right
			l.text(x+selfW+6, y-6, "start", class, label)
		case fromX > x:
			l.text(x-8, y-6, "end", class, label)
		default:
			l.text(x+8, y-6, "start", class, label)
		}
	}
	arrow := func(m chartMsg, toY float64, class, marker string) {
		fromY := float64(headerTop + headerH)
		if m.sent >= 0 {
			fromY = rowY(m.sent)
		}
		if m.from == m.to {
			// Along the lifeline it would hide in it: a loop to the right.
			x := xs[m.from]
			fmt.Fprintf(&l.lines, `<path class="%s" d="M%s %sH%sV%sH%s" fill="none" marker-end="url(#%s)"/>`+"\n",
				class, num(x), num(fromY), num(x+selfW), num(toY), num(x), marker)
			return
		}
		fmt.Fprintf(&l.lines, `<line class="%s" x1="%s" y1="%s" x2="%s" y2="%s" marker-end="url(#%s)"/>`+"\n",
			class, num(xs[m.from]), num(fromY), num(xs[m.to]), num(toY), marker)
	}
	for k, s := range c.steps {
		y, x := rowY(k), xs[s.proc]
		cls := ""
		if k == c.breakAt {
			cls = "brk"
		}
		l.text(margin, y+4, "start", cls, fmt.Sprintf("step %d", k+1))
		if s.wake {
			fmt.Fprintf(&l.lines, `<circle class="wake" cx="%s" cy="%s" r="5"/>`+"\n", num(x), num(y))
			l.text(x+8, y-6, "start", "ev", "wakes up")
		} else if s.msg >= 0 {
			m := c.msgs[s.msg]
			arrow(m, y, "msg", "arr")
			event(x, xs[m.from], y, "ev", m.label)
		}
		if s.after != "" {
			cls := "st"
			switch {
			case s.failed:
				cls = "fail"
			case s.decided == spec.Elected:
				cls = "leader"
			case s.decided == spec.Defeated:
				cls = "lost"
			}
			w := textWidth(cut(s.after)) + 8
			fmt.Fprintf(&l.body, `<rect class="%s" x="%s" y="%s" width="%s" height="16" rx="3"/>`+"\n", cls, num(x-w/2), num(y+4), num(w))
			l.text(x, y+16, "middle", cls, s.after)
		}
	}
	// The protocol's notes, in a column right of everything the steps'
	// rows hold, so that a note meets no other label.
	noteX := max(l.maxX, left+colW*float64(c.n)) + 16
	for k, s := range c.steps {
		switch {
		case k == c.differs:
			// Where a reference protocol parts ways (-against).
			l.textCut(noteX, rowY(k)+4, "start", "diff", joinNonEmpty(": ", "≠ "+c.ref, s.note), noteChars)
		case s.note != "":
			l.textCut(noteX, rowY(k)+4, "start", "why", s.note, noteChars)
		}
	}
	for j, mi := range flying {
		k := len(c.steps) + j
		y, m := rowY(k), c.msgs[mi]
		l.text(margin, y+4, "start", "", "in flight")
		arrow(m, y, "flying", "open")
		event(xs[m.to], xs[m.from], y, "ev", m.label+" (in flight)")
	}
	if c.loopAt >= 0 {
		bx := stepColW + 8
		y0, y1 := rowY(c.loopAt)-rowH/2+4, rowY(len(c.steps)-1)+rowH/2-4
		fmt.Fprintf(&l.lines, `<path class="loop" d="M%s %sH%sV%sH%s"/>`+"\n", num(bx+10), num(y0), num(bx), num(y1), num(bx+10))
		l.text(bx+5, (y0+y1)/2+4, "start", "loopl", "loop")
	}

	// The caption: the property and what broke it, then the configuration.
	l.width = max(l.maxX, left+colW*float64(c.n)) + margin
	l.width = max(l.width, 2*margin+60*charW)
	chars := int((l.width - 2*margin) / charW)
	y := bottom + 20
	var lines [][2]string
	capClass := "cap"
	if t.Property == "" {
		capClass = "conf" // an execution, not a violation: not in red
	}
	for _, s := range wrap(c.caption, chars) {
		lines = append(lines, [2]string{capClass, s})
	}
	if c.breakNote != "" {
		for _, s := range wrap(fmt.Sprintf("step %d: %s", c.breakAt+1, c.breakNote), chars) {
			lines = append(lines, [2]string{"cap", s})
		}
	}
	if t.Differs != nil {
		for _, s := range wrap(t.Differs.String(), chars) {
			lines = append(lines, [2]string{"diff", s})
		}
	}
	for _, s := range wrap(fmt.Sprintf("%s, %s", t.Algo, t.Config), chars) {
		lines = append(lines, [2]string{"conf", s})
	}
	for _, ln := range lines {
		// Caption lines are wrapped to the width, never cut.
		l.labels = append(l.labels, labelBox{ln[1], margin, y - 10, margin + textWidth(ln[1]), y + 4})
		fmt.Fprintf(&l.body, `<text x="%d" y="%s" class="%s">%s</text>`+"\n", margin, num(y), ln[0], esc(ln[1]))
		y += 16
	}
	l.height = y - 16 + 4 + margin
	// The row where the property breaks, behind everything else.
	var all strings.Builder
	if c.breakAt >= 0 {
		fmt.Fprintf(&all, `<rect class="brkrow" x="0" y="%s" width="%s" height="%d"/>`+"\n", num(rowY(c.breakAt)-rowH/2), num(l.width), rowH)
	}
	all.WriteString(l.lines.String())
	all.WriteString(l.body.String())
	l.body = all
	return l
}

const svgStyle = `<style>
text { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; fill: #222; }
.ev, .loopl, .proc { paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
.proc { font-weight: bold; }
.life { stroke: #999; stroke-dasharray: 4 3; }
.head { fill: #eef2f8; stroke: #557; }
.msg { stroke: #246; stroke-width: 1.2; }
.flying { stroke: #246; stroke-width: 1.2; stroke-dasharray: 6 4; }
.wake { fill: #d80; }
rect.st { fill: #fff; stroke: #aaa; }
rect.leader { fill: #c9efc9; stroke: #282; }
rect.lost { fill: #e2e2e2; stroke: #777; }
rect.fail { fill: #fcc; stroke: #b00; }
text.leader, text.lost, text.fail { font-weight: bold; }
.loop { fill: none; stroke: #a50; stroke-width: 2; }
.loopl { fill: #a50; font-weight: bold; }
.brkrow { fill: #fde4e4; }
text.brk { fill: #b00; font-weight: bold; }
.cap { fill: #b00; }
.why { fill: #666; font-style: italic; }
.diff { fill: #a50; font-weight: bold; }
.conf { fill: #555; }
</style>
<defs>
<marker id="arr" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L10 5L0 10z" fill="#246"/></marker>
<marker id="open" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto"><path d="M0 0L10 5L0 10" fill="none" stroke="#246" stroke-width="1.5"/></marker>
</defs>
`

// WriteSVG renders the trace as a message-sequence chart in SVG: a
// lifeline per process, time flowing down a row per step, an arrow per
// message from the step that sent it to the step that delivered it (open
// and dashed when it is still in flight at the end), wake-ups and new
// local states on the lifelines (decisions emphasised), the protocol's
// notes on why each step did what it did (in a column on the right), a lasso's loop
// bracketed, and the step where the property breaks highlighted, with the
// property in the caption. The output is deterministic; golden files pin
// it.
func (t *Trace) WriteSVG(w io.Writer) error {
	l := t.layoutSVG()
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s">`+"\n",
		num(l.width), num(l.height), num(l.width), num(l.height))
	fmt.Fprintf(&b, "<title>%s</title>\n", esc(t.Algo+": "+t.Property))
	b.WriteString(svgStyle)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%s" height="%s" fill="#fff"/>`+"\n", num(l.width), num(l.height))
	b.WriteString(l.body.String())
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
