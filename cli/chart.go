package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/urfave/cli/v2"
)

var (
	chartFormatFlag = &cli.StringFlag{Name: "format", Usage: "the chart's `FORMAT`, svg or mermaid (default: from -o's extension, .svg, .mmd or .md; else svg)"}
	chartOutFlag    = &cli.StringFlag{Name: "o", Usage: "write the chart to `OUT` (default: stdout)"}
	// chartFlag is verify's and merge's: the counterexample's chart, if
	// there is one.
	chartFlag = &cli.StringFlag{Name: "chart", Usage: "write the counterexample's message-sequence chart, if any, to `FILE`: .svg for SVG, .mmd for Mermaid, .md for Mermaid in Markdown; a run without one removes an old FILE"}
	// boundsChartFlag is bounds': the chart of the execution -worst-out
	// writes, the step that crosses the declared bound highlighted.
	boundsChartFlag = &cli.StringFlag{Name: "chart", Usage: "draw the execution with the most messages (as -worst-out writes it) as a message-sequence chart in `FILE`, the step that crosses the declared bound highlighted: .svg, .mmd or .md; the path is checked first"}
)

var chartCommand = &cli.Command{
	Name:            "chart",
	Usage:           "draw a trace written by verify -trace-out as a message-sequence chart (SVG or Mermaid)",
	UsageText:       "elcheck chart FILE.json [-format=svg|mermaid] [-o OUT]\n\nFILE.json = - reads the trace from standard input: elcheck chart - -o trace.svg < trace.json",
	Flags:           []cli.Flag{chartFormatFlag, chartOutFlag},
	Action:          chartAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

func chartAction(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usagef("chart takes one trace file: elcheck chart FILE.json [-format=svg|mermaid] [-o OUT]")
	}
	fs := flag.NewFlagSet("chart", flag.ContinueOnError)
	format := fs.String("format", c.String(chartFormatFlag.Name), "")
	out := fs.String("o", c.String(chartOutFlag.Name), "")
	if err := trailingFlags(fs, args, "elcheck chart FILE.json [-format=svg|mermaid] [-o OUT]"); err != nil {
		return err
	}
	kind, err := chartKind(toKeyword(*format), *out, "o")
	if err != nil {
		return err
	}
	if *out != "" {
		if err := checkOutputs([2]string{"o", *out}); err != nil {
			return err
		}
	}
	f, err := readTrace(c, args[0])
	if err != nil {
		return usagef("%s%s", oneLine(err), helpHint(c, args[0]))
	}
	m, ok := envOf(c).lookup(f.Algo)
	if !ok {
		return usagef("the trace is of %q, which this elcheck does not know (see elcheck list)", f.Algo)
	}
	o, err := counterexamples.Replay(f, m)
	if err != nil {
		return usagef("the trace does not fit %s: %s", f.Algo, oneLine(err))
	}
	b, err := renderChart(o.Trace, kind)
	if err != nil {
		return internalf("rendering the chart: %v", err)
	}
	if *out == "" {
		_, err = c.App.Writer.Write(b)
		return err
	}
	if err := envOf(c).writeFile(*out, b, 0o644); err != nil {
		return cli.Exit("-o: "+oneLine(err), exitUsage)
	}
	return nil
}

// chartKind is the format a chart is written in: svg, mermaid, or
// markdown (Mermaid in a fenced block), from -format or else from the
// output's extension.
func chartKind(format, out, outFlag string) (string, error) {
	ext := strings.ToLower(filepath.Ext(out))
	switch format {
	case "svg":
		return "svg", nil
	case "mermaid":
		if ext == ".md" {
			return "markdown", nil
		}
		return "mermaid", nil
	case "":
	default:
		return "", usagef("-format=%s: use svg or mermaid", format)
	}
	switch ext {
	case "", ".svg":
		return "svg", nil
	case ".mmd", ".mermaid":
		return "mermaid", nil
	case ".md", ".markdown":
		return "markdown", nil
	}
	hint := ", or give -format=svg|mermaid"
	if outFlag != "o" {
		hint = ""
	}
	return "", usagef("-%s=%s: the extension %s names no chart format: use .svg, .mmd or .md%s", outFlag, out, ext, hint)
}

// verifyChartKind checks -chart (verify's, merge's, bounds'): a path whose extension names a
// format (and that can be written).
func verifyChartKind(path string) error {
	if path == "" {
		return nil
	}
	if ext := strings.ToLower(filepath.Ext(path)); ext == "" {
		return usagef("-chart=%s: name a .svg, .mmd or .md file", path)
	}
	_, err := chartKind("", path, "chart")
	return err
}

// renderChart renders t in kind (chartKind's).
func renderChart(t *counterexamples.Trace, kind string) ([]byte, error) {
	var b bytes.Buffer
	var err error
	switch kind {
	case "svg":
		err = t.WriteSVG(&b)
	case "mermaid":
		err = t.WriteMermaid(&b)
	case "markdown":
		b.WriteString("```mermaid\n")
		err = t.WriteMermaid(&b)
		b.WriteString("```\n")
	default:
		err = fmt.Errorf("unknown chart format %q", kind)
	}
	return b.Bytes(), err
}

// trailingFlags parses fs from the arguments after a command's one file
// argument: urfave/cli stops at the first argument, and the usages put
// the flags after the file, so they are parsed here, as the flag package
// would. usage is the command's synopsis, for the errors.
func trailingFlags(fs *flag.FlagSet, args []string, usage string) error {
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args[1:]); err != nil {
		return usagef("%v (see elcheck help %s)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return usagef("%s takes one trace file, not %q too: %s", fs.Name(), fs.Arg(0), usage)
	}
	return nil
}

// saveChart writes -chart (verify's, merge's), when there is a
// counterexample, and says so on stderr: like -trace-out, a write that
// fails costs one line on stderr, not the verdict.
func saveChart(c *cli.Context, t *counterexamples.Trace) {
	path := c.String(chartFlag.Name)
	if t == nil || path == "" {
		return
	}
	if err := writeChart(envOf(c), path, t); err != nil {
		fmt.Fprintf(c.App.ErrWriter, "elcheck: -chart: the chart was not written: %s\n", oneLine(err))
		return
	}
	// On stderr, after the report: the text report says where -trace-out
	// went, but the JSON one has no room for a line.
	fmt.Fprintf(c.App.ErrWriter, "elcheck: chart written to %s\n", path)
}

// writeChart writes t's chart to path, in the format its extension names
// (checked before the search by verifyChartKind).
func writeChart(e *env, path string, t *counterexamples.Trace) error {
	kind, err := chartKind("", path, "chart")
	if err != nil {
		return err
	}
	b, err := renderChart(t, kind)
	if err != nil {
		return err
	}
	return e.writeFile(path, b, 0o644)
}
