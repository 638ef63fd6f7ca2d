package counterexamples

import (
	"fmt"
	"io"
	"strings"

	"github.com/elcheck/elcheck/spec"
)

// mermaidEscapes keep a label's meaning in a Mermaid message or note
// (TestMermaidHostileLabels checks them with internal/mermaid, a
// recognizer of Mermaid's grammar): ';' ends a statement and '#' a
// message (the rest is a comment), so both become entity codes, which
// Mermaid shows as the character; '<' would start HTML (<br> breaks the
// line) and '&' an entity; a line that has "style" or "classDef", then
// ':' and '#', loses its last ';' before parsing (encodeEntities), so
// their first letter is an entity code too; a text starting with wrap: or
// nowrap: loses it (parseMessage), so its colon is; and a line break
// would end the line.
var mermaidEscapes = strings.NewReplacer(
	";", "#59;", "#", "#35;", "<", "#60;", "&", "#38;",
	"style", "#115;tyle", "classDef", "#99;lassDef",
	"\n", " ", "\r", " ")

// mermaidText makes s safe inside a Mermaid message or note (see
// mermaidEscapes).
func mermaidText(s string) string {
	s = mermaidEscapes.Replace(s)
	for _, w := range []string{"wrap:", "nowrap:", ":wrap:", ":nowrap:"} {
		if strings.HasPrefix(strings.TrimSpace(s), w) {
			return strings.Replace(s, ":", "#58;", 1)
		}
	}
	return s
}

// WriteMermaid renders the trace as a Mermaid sequenceDiagram, which
// GitHub and GitLab draw in Markdown: a participant per process, a message
// per delivery (async, open arrows for the messages still in flight at the
// end), notes for wake-ups, new local states, the protocol's notes on why
// (right of the process) and the violation, a loop
// block around a lasso's loop and a red rect around the step where the
// property breaks. The output is deterministic; golden files pin it.
func (t *Trace) WriteMermaid(w io.Writer) error {
	return t.chartOf().writeMermaid(w, fmt.Sprintf("%s, %s", t.Algo, t.Config))
}

// writeMermaid is WriteMermaid of the chart model, headed by a comment
// naming what it shows.
func (c *chart) writeMermaid(w io.Writer, title string) error {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	fmt.Fprintf(&b, "    %%%% %s\n", mermaidText(title))
	for i := range c.n {
		fmt.Fprintf(&b, "    participant %s as %s (id %d)\n", c.procs[i], c.procs[i], c.ids[i])
	}
	indent := "    "
	for k, s := range c.steps {
		if k == c.loopAt {
			fmt.Fprintf(&b, "%sloop steps %d to %d repeat forever\n", indent, c.loopAt+1, len(c.steps))
			indent += "    "
		}
		if k == c.breakAt {
			fmt.Fprintf(&b, "%srect rgb(253, 228, 228)\n", indent)
			indent += "    "
		}
		p := c.procs[s.proc]
		if s.wake {
			fmt.Fprintf(&b, "%sNote over %s: step %d: wakes up\n", indent, p, k+1)
		} else if s.msg >= 0 {
			m := c.msgs[s.msg]
			fmt.Fprintf(&b, "%s%s->>%s: %s\n", indent, c.procs[m.from], p, mermaidText(m.label))
		}
		if s.note != "" {
			fmt.Fprintf(&b, "%sNote right of %s: why: %s\n", indent, p, mermaidText(s.note))
		}
		if k == c.differs {
			fmt.Fprintf(&b, "%sNote right of %s: DIFFERS from %s\n", indent, p, mermaidText(c.ref))
		}
		if s.after != "" {
			after := mermaidText(s.after)
			switch {
			case s.failed:
				after = "FAILED " + after
			case s.decided != spec.Undecided:
				// Mermaid notes have no bold: capitals mark the decision.
				word := s.decided.String()
				if rest, ok := strings.CutPrefix(after, word); ok {
					after = strings.ToUpper(word) + rest
				} else {
					after = strings.ToUpper(word) + ": " + after
				}
			}
			fmt.Fprintf(&b, "%sNote over %s: %s\n", indent, p, after)
		}
		if k == c.breakAt {
			what := c.caption
			if c.breakNote != "" {
				what = c.breakNote
			}
			fmt.Fprintf(&b, "%sNote over %s: step %d: %s\n", indent, c.span(), k+1, mermaidText(what))
			indent = indent[4:]
			fmt.Fprintf(&b, "%send\n", indent)
		}
	}
	if c.loopAt >= 0 {
		b.WriteString("    end\n")
	}
	for _, mi := range c.inFlight() {
		m := c.msgs[mi]
		fmt.Fprintf(&b, "    %s-)%s: %s (in flight)\n", c.procs[m.from], c.procs[m.to], mermaidText(m.label))
	}
	if c.breakNote != "" || c.breakAt < 0 {
		fmt.Fprintf(&b, "    Note over %s: %s\n", c.span(), mermaidText(c.caption))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// span is the participants a note over all of them names.
func (c *chart) span() string {
	if c.n == 1 {
		return c.procs[0]
	}
	return c.procs[0] + "," + c.procs[c.n-1]
}
