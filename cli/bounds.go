package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/invariants"
	"github.com/urfave/cli/v2"
)

var (
	rangeFlag        = &cli.StringFlag{Name: "n", Usage: fmt.Sprintf("the ring sizes `N`: a range like 3..7, or one size like 5, 1 to %d (required)", maxN)}
	boundsFormatFlag = &cli.StringFlag{Name: "format", Value: "text", Usage: "the report's `FORMAT`: text, json, csv or markdown (default: text)"}
	worstOutFlag     = &cli.StringFlag{Name: "worst-out", Usage: "write the execution with the most messages (one that exceeds the declared bound, if any does) to `FILE` (JSON) for elcheck replay; the path is checked first"}
	plotFlag         = &cli.StringFlag{Name: "plot", Usage: "draw the measured messages against the declared bound over n in `FILE`.svg; the path is checked first"}
)

var boundsCommand = &cli.Command{
	Name:      "bounds",
	Usage:     "measure messages, bits and causal time over every execution and set them against the declared bound",
	UsageText: "elcheck bounds -algo=cr -n=3..7 [-topology=NAME|-graph=LINKS] [-ids=...] [-initiators=...|all] [-orientation=any] [-channels=bag] [-format=text|json|csv|markdown] [-worst-out=FILE] [-chart=FILE.svg|.mmd|.md] [-plot=FILE.svg]",
	Flags: []cli.Flag{algoFlag, rangeFlag, topologyFlag, graphFlag, idsFlag, initiatorsFlag, orientFlag, channelsFlag, capacityFlag, exactFlag, maxStatesFlag, timeoutFlag,
		reduceFlag, workersFlag, boundsFormatFlag, worstOutFlag, boundsChartFlag, plotFlag, progressFlag, forceFlag},
	Action:          boundsAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

// parseRange reads -n=3..7 or -n=5.
func parseRange(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		b = a
	}
	lo, err1 := strconv.Atoi(strings.TrimSpace(a))
	hi, err2 := strconv.Atoi(strings.TrimSpace(b))
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, usagef("-n=%s: write a size like 5 or a range like 3..7", s)
	case lo > hi:
		return 0, 0, usagef("-n=%s is an empty range: write the smaller size first, e.g. -n=%d..%d", s, hi, lo)
	case lo < 1 || hi > maxN:
		return 0, 0, usagef("-n=%s is out of range: n must be between 1 and %d", s, maxN)
	}
	return lo, hi, nil
}

func boundsAction(c *cli.Context) error {
	e := envOf(c)
	m, err := parseMachine(c)
	if err != nil {
		return err
	}
	_, gn, err := parseGraph(c)
	if err != nil {
		return err
	}
	if !c.IsSet(rangeFlag.Name) && gn == 0 {
		return usagef("missing -n: a ring size like 5 or a range like 3..7, between 1 and %d", maxN)
	}
	lo, hi := gn, gn // the network given names its processes
	if c.IsSet(rangeFlag.Name) {
		if lo, hi, err = parseRange(c.String(rangeFlag.Name)); err != nil {
			return err
		}
	}
	if gn > 0 && lo != hi {
		return usagef("-graph gives one network of %d processes: give one size, or leave -n out", gn)
	}
	if c.String(idsFlag.Name) != "" && lo != hi {
		return usagef("-ids fixes one placement of n ids: give one size, e.g. -n=%d", lo)
	}
	format := keyword(c, boundsFormatFlag.Name)
	switch format {
	case "text", "json", "csv", "markdown":
	default:
		return usagef("-format=%s: use text, json, csv or markdown", format)
	}
	plot := c.String(plotFlag.Name)
	if plot != "" && !strings.HasSuffix(strings.ToLower(plot), ".svg") {
		return usagef("-plot=%s: the plot is an SVG file; name it FILE.svg", plot)
	}
	opts := bounds.DefaultCheck()
	var template configs.Space
	if err := parseSearchOptions(c, &opts, &template); err != nil {
		return err
	}
	var spaces []configs.Space
	for n := lo; n <= hi; n++ {
		sp, err := parseSpace(c, m.Info(), n)
		if err != nil {
			return err
		}
		sp.AllPlacements = template.AllPlacements
		spaces = append(spaces, sp)
	}
	worstOut, chart := c.String(worstOutFlag.Name), c.String(boundsChartFlag.Name)
	if err := verifyChartKind(chart); err != nil {
		return err
	}
	if err := checkOutputs([2]string{"worst-out", worstOut}, [2]string{"chart", chart}, [2]string{"plot", plot}); err != nil {
		return err
	}
	// The files drawn from the execution with the most messages.
	fromWorst := [][2]string{{"worst-out", worstOut}, {"chart", chart}}

	configs := 0
	for _, sp := range spaces {
		configs += sp.Count()
	}
	if err := checkSweep(c, configs); err != nil {
		return err
	}
	ctx, stop := searchContext(c.Context, c.Duration(timeoutFlag.Name), e.available)
	defer stop()
	progress := newProgress(c, lo < hi)
	if progress != nil {
		opts.Progress = progress.report
	}
	t := bounds.Run(ctx, m, spaces, opts)
	progress.finish()

	// The notes that follow the text report (or go to stderr for the
	// other formats).
	var notes bytes.Buffer
	var writeErrs []string // one line each, for stderr after the report
	if w := t.Worst(); w != nil {
		exceeded := w.Bound != nil && w.Bound.Status == bounds.Exceeded
		what := fmt.Sprintf("the execution with the most messages (n=%d, %d messages, configuration %s)", w.N, w.Stats[0].Max, w.Worst.Config)
		if exceeded {
			what = fmt.Sprintf("the execution that exceeds the declared bound (n=%d, %d > %d messages, configuration %s)", w.N, w.Bound.Max, w.Bound.Bound, w.Worst.Config)
		}
		if worstOut == "" && exceeded {
			fmt.Fprintf(&notes, "to save %s for elcheck replay, add -worst-out=FILE\n", what)
		}
		switch {
		case worstOut == "" && chart == "":
		case (t.Incomplete != "" || t.Violated() != nil) && !exceeded:
			for _, o := range fromWorst {
				if o[1] != "" {
					fmt.Fprintf(&notes, "-%s: nothing written: not every configuration was measured, so the most messages found need not be the most there are\n", o[0])
					removeStale(c.App.ErrWriter, o[0], o[1], "nothing written")
				}
			}
			worstOut = ""
		default:
			trace, err := e.rebuild(m, w.Worst)
			var div *counterexamples.Diverged
			if errors.As(err, &div) {
				// The search measured an execution the protocol does not
				// take again: its steps are not functions of their input.
				v := invariants.Verdict{Outcome: invariants.Violated, Property: invariants.StepPurity}
				return cli.Exit(v.String()+": "+div.PurityFinding().Detail, exitCode(v.Outcome))
			}
			if err != nil {
				return internalf("the execution with the most messages (n=%d, configuration %s) does not replay: %v", w.N, w.Worst.Config, err)
			}
			trace.Worst = !exceeded
			if worstOut != "" {
				if err := e.writeTrace(trace, worstOut); err != nil {
					fmt.Fprintf(&notes, "-worst-out: %s NOT written: %s\n", what, oneLine(err))
					writeErrs = append(writeErrs, "-worst-out: the execution was not written: "+oneLine(err))
					worstOut = ""
				} else {
					fmt.Fprintf(&notes, "%s written to %s; re-run it with: elcheck replay %s\n", what, worstOut, worstOut)
				}
			}
			if chart != "" {
				if err := writeChart(e, chart, trace); err != nil {
					fmt.Fprintf(&notes, "-chart: the chart of %s NOT written: %s\n", what, oneLine(err))
					writeErrs = append(writeErrs, "-chart: the chart was not written: "+oneLine(err))
				} else {
					fmt.Fprintf(&notes, "the chart of %s written to %s\n", what, chart)
				}
			}
		}
	} else {
		for _, o := range fromWorst {
			if o[1] != "" {
				fmt.Fprintf(&notes, "-%s: nothing written: no configuration was measured\n", o[0])
				removeStale(c.App.ErrWriter, o[0], o[1], "nothing written")
			}
		}
		worstOut = ""
	}
	if plot != "" {
		var svg bytes.Buffer
		t.WriteSVG(&svg)
		if err := e.writeFile(plot, svg.Bytes(), 0o644); err != nil {
			fmt.Fprintf(&notes, "plot NOT written: %s\n", oneLine(err))
			writeErrs = append(writeErrs, "-plot: the plot was not written: "+oneLine(err))
		} else {
			fmt.Fprintf(&notes, "plot written to %s\n", plot)
		}
	}

	out := c.App.Writer
	switch format {
	case "json":
		t.WriteJSON(out, worstOut)
		c.App.ErrWriter.Write(notes.Bytes())
	case "csv":
		t.WriteCSV(out)
		c.App.ErrWriter.Write(notes.Bytes())
	case "markdown":
		t.WriteMarkdown(out)
		c.App.ErrWriter.Write(notes.Bytes())
	default:
		t.WriteText(out, notes.String())
	}
	for _, e := range writeErrs {
		fmt.Fprintln(c.App.ErrWriter, "elcheck: "+e)
	}
	return verdictExit(t.Verdict().Outcome)
}
