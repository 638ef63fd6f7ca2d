package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// maxN is the largest ring elcheck accepts: initiator sets are 64-bit
// masks, and past 16 even one configuration is out of reach.
const maxN = 16

var (
	algoFlag       = &cli.StringFlag{Name: "algo", Usage: "protocol or variant to check (see elcheck list)"}
	nFlag          = &cli.IntFlag{Name: "n", Usage: fmt.Sprintf("number of processes, 1 to %d", maxN)}
	idsFlag        = &cli.StringFlag{Name: "ids", Usage: "fix the id placement: the ids at positions 0..n-1, e.g. 3,1,2,5,4 (default: every placement up to rotation)"}
	initiatorsFlag = &cli.StringFlag{Name: "initiators", Usage: "fix the initiators: positions 0..n-1, e.g. 0,2,3 (default: every non-empty set)"}
	channelsFlag   = &cli.StringFlag{Name: "channels", Usage: "channel semantics, fifo or bag (default: the protocol's)"}
	exactFlag      = &cli.BoolFlag{Name: "exact", Usage: "store whole states instead of 64-bit fingerprints"}
	searchFlag     = &cli.StringFlag{Name: "search", Value: "bfs", Usage: "bfs (shortest counterexamples) or dfs"}
	maxStatesFlag  = &cli.Int64Flag{Name: "max-states", Usage: "stop INCOMPLETE after this many distinct states (0: no limit)"}
	timeoutFlag    = &cli.DurationFlag{Name: "timeout", Usage: "stop INCOMPLETE after this long, e.g. 30s (0: no limit)"}
	formatFlag     = &cli.StringFlag{Name: "format", Value: "text", Usage: "text or json"}
	traceOutFlag   = &cli.StringFlag{Name: "trace-out", Usage: "write the counterexample, if any, to this JSON file for elcheck replay"}
	noCompareFlag  = &cli.BoolFlag{Name: "skip-comparison-only", Usage: "do not re-explore with relabelled ids (halves the time; comparison-only is then not checked)"}
)

var verifyCommand = &cli.Command{
	Name:      "verify",
	Usage:     "explore every execution of every configuration and check every property",
	UsageText: "elcheck verify -algo=dkr -n=5 [-ids=...] [-initiators=...] [-channels=bag] [-format=json] [-trace-out=FILE]",
	Flags: []cli.Flag{algoFlag, nFlag, idsFlag, initiatorsFlag, channelsFlag, exactFlag, searchFlag,
		maxStatesFlag, timeoutFlag, formatFlag, traceOutFlag, noCompareFlag},
	Action:       verifyAction,
	OnUsageError: usageError,
}

// job is a parsed verify command line.
type job struct {
	machine  spec.Machine
	space    explore.Space
	opts     explore.Options
	format   string
	traceOut string
	timeout  time.Duration
}

func parseJob(c *cli.Context) (*job, error) {
	if c.Args().Len() > 0 {
		return nil, usagef("unexpected argument %q: flags come as -name=value", c.Args().First())
	}
	name := c.String(algoFlag.Name)
	if name == "" {
		return nil, usagef("missing -algo: one of %s", strings.Join(protocols.Names(), ", "))
	}
	m, ok := protocols.Lookup(name)
	if !ok {
		return nil, usagef("unknown algorithm %q: use one of %s", name, strings.Join(protocols.Names(), ", "))
	}
	n := c.Int(nFlag.Name)
	if !c.IsSet(nFlag.Name) {
		return nil, usagef("missing -n: the number of processes, 1 to %d", maxN)
	}
	if n < 1 || n > maxN {
		return nil, usagef("-n=%d is out of range: n must be between 1 and %d", n, maxN)
	}
	info := m.Info()
	j := &job{machine: m, format: c.String(formatFlag.Name), traceOut: c.String(traceOutFlag.Name), timeout: c.Duration(timeoutFlag.Name)}
	j.space = explore.Space{N: n, Topology: info.Topology, Channels: info.Channels}
	if s := c.String(channelsFlag.Name); s != "" {
		ch, err := spec.ParseChannels(s)
		if err != nil {
			return nil, usagef("-channels=%s: use fifo or bag", s)
		}
		j.space.Channels = ch
	}
	if s := c.String(idsFlag.Name); s != "" {
		ids, err := parseList(s, "-ids")
		if err != nil {
			return nil, err
		}
		if len(ids) != n {
			return nil, usagef("-ids=%s has %d ids but -n=%d: give one id per position", s, len(ids), n)
		}
		for k, id := range ids {
			if id < 1 || slices.Contains(ids[:k], id) {
				return nil, usagef("-ids=%s: ids must be distinct positive integers", s)
			}
			j.space.IDs = append(j.space.IDs, spec.ID(id))
		}
	}
	if s := c.String(initiatorsFlag.Name); s != "" {
		ps, err := parseList(s, "-initiators")
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			if p < 0 || p >= n {
				return nil, usagef("-initiators=%s: %d is not a position; positions are 0 to %d", s, p, n-1)
			}
			j.space.Initiators = j.space.Initiators.With(p)
		}
	}
	switch j.format {
	case "text", "json":
	default:
		return nil, usagef("-format=%s: use text or json", j.format)
	}
	j.opts = explore.DefaultOptions()
	j.opts.Exact = c.Bool(exactFlag.Name)
	j.opts.MaxStates = c.Int64(maxStatesFlag.Name)
	j.opts.ComparisonOnly = !c.Bool(noCompareFlag.Name)
	switch s := c.String(searchFlag.Name); s {
	case "bfs":
	case "dfs":
		j.opts.Search = explore.DFS
	default:
		return nil, usagef("-search=%s: use bfs or dfs", s)
	}
	if j.opts.MaxStates < 0 || j.timeout < 0 {
		return nil, usagef("-max-states and -timeout must not be negative")
	}
	return j, nil
}

func parseList(s, flag string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, usagef("%s=%s: %q is not a number; write a comma-separated list like 3,1,2", flag, s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

func verifyAction(c *cli.Context) error {
	j, err := parseJob(c)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if j.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, j.timeout)
		defer cancel()
	}
	if isTerminal(c.App.ErrWriter) {
		j.opts.Progress = progressPrinter(c.App.ErrWriter)
	}
	res := explore.Check(ctx, j.machine, j.space, j.opts)
	if j.opts.Progress != nil {
		fmt.Fprint(c.App.ErrWriter, "\r\033[K")
	}
	var trace *counterexamples.Trace
	if v := res.Violation; v != nil && (len(v.Trace) > 0 || v.LoopAt >= 0) {
		trace, err = counterexamples.Rebuild(j.machine, v)
		if err != nil {
			return cli.Exit(fmt.Sprintf("internal error: the counterexample does not replay: %v", err), exitViolated)
		}
		if j.traceOut != "" {
			if err := trace.WriteFile(j.traceOut); err != nil {
				return cli.Exit(fmt.Sprintf("writing the trace: %v", err), exitUsage)
			}
		}
	}
	if j.format == "json" {
		writeJSON(c.App.Writer, res, trace)
	} else {
		writeText(c.App.Writer, res, trace, j)
	}
	switch {
	case res.Violation != nil:
		return cli.Exit("", exitViolated)
	case res.Incomplete != "":
		return cli.Exit("", exitIncomplete)
	}
	return nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressPrinter reports on one rewritten stderr line, twice a second.
func progressPrinter(w io.Writer) func(explore.Progress) {
	start := time.Now()
	var last time.Time
	return func(p explore.Progress) {
		now := time.Now()
		if now.Sub(last) < 500*time.Millisecond {
			return
		}
		last = now
		rate := float64(p.States) / now.Sub(start).Seconds()
		fmt.Fprintf(w, "\r\033[K%d states, %.0f states/s, depth %d, configurations %d/%d", p.States, rate, p.Depth, p.ConfigsDone, p.ConfigsTotal)
	}
}

func writeText(w io.Writer, r *explore.Result, t *counterexamples.Trace, j *job) {
	info := j.machine.Info()
	fmt.Fprintf(w, "elcheck verify %s: %s, n=%d, %s channels, %s search\n", r.Algo, info.Topology, r.N, r.Channels, j.opts.Search)
	fmt.Fprintf(w, "configurations  %d of %d explored (%s)\n", r.ConfigsDone, r.Configs, spaceText(j.space))
	store := fmt.Sprintf("64-bit fingerprints, collision probability %.1e", r.Collision)
	if r.Exact {
		store = "exact"
	}
	fmt.Fprintf(w, "states          %d distinct (%s)\n", r.States, store)
	fmt.Fprintf(w, "transitions     %d\n", r.Transitions)
	fmt.Fprintf(w, "final states    %d\n", r.Terminals)
	fmt.Fprintf(w, "max depth       %d\n", r.MaxDepth)
	if r.MaxMessages >= 0 {
		fmt.Fprintf(w, "messages        min %d, max %d per complete execution\n", r.MinMessages, r.MaxMessages)
	}
	secs := r.Elapsed.Seconds()
	fmt.Fprintf(w, "time            %.2fs (%.0f states/s)\n", secs, float64(r.States)/max(secs, 1e-9))
	fmt.Fprintln(w, "properties")
	for _, p := range r.Properties {
		note := ""
		if p.Note != "" {
			note = "  (" + p.Note + ")"
		}
		fmt.Fprintf(w, "  %-20s %s%s\n", p.Name, p.Status, note)
	}
	if v := r.Violation; v != nil {
		fmt.Fprintf(w, "\ncounterexample (%d steps, %s):\n", len(v.Trace), map[bool]string{true: "shortest", false: "not necessarily shortest"}[j.opts.Search == explore.BFS])
		if t != nil {
			t.WriteText(w)
		} else {
			fmt.Fprintf(w, "%s: %s\nconfiguration: %s\n", v.Property, v.Detail, v.Config)
		}
		if j.traceOut != "" {
			fmt.Fprintf(w, "trace written to %s; re-run it with: elcheck replay %s\n", j.traceOut, j.traceOut)
		} else if t != nil {
			fmt.Fprintln(w, "to save it for elcheck replay, add -trace-out=FILE")
		}
	}
	fmt.Fprintln(w, r.Verdict())
}

func spaceText(sp explore.Space) string {
	p := "every id placement up to rotation"
	if sp.IDs != nil {
		p = fmt.Sprintf("ids %v", sp.IDs)
	}
	i := "every non-empty initiator set"
	if sp.Initiators != 0 {
		i = fmt.Sprintf("initiators %v", sp.Initiators.Members())
	}
	return p + ", " + i
}

// jsonResult is the -format=json report.
type jsonResult struct {
	Algo           string                `json:"algo"`
	N              int                   `json:"n"`
	Channels       string                `json:"channels"`
	Configurations int                   `json:"configurations"`
	ConfigsDone    int                   `json:"configurations_done"`
	States         int64                 `json:"states"`
	Transitions    int64                 `json:"transitions"`
	FinalStates    int64                 `json:"final_states"`
	MaxDepth       int                   `json:"max_depth"`
	ElapsedMS      int64                 `json:"elapsed_ms"`
	Messages       jsonMessages          `json:"messages"`
	Exact          bool                  `json:"exact"`
	Collision      float64               `json:"collision_probability"`
	Properties     []jsonProperty        `json:"properties"`
	Verdict        string                `json:"verdict"`
	Incomplete     string                `json:"incomplete,omitempty"`
	Violation      *counterexamples.File `json:"violation,omitempty"`
}

type jsonMessages struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type jsonProperty struct {
	Name   string `json:"name"`
	Holds  bool   `json:"holds"`
	Status string `json:"status"`
	Note   string `json:"note,omitempty"`
}

func writeJSON(w io.Writer, r *explore.Result, t *counterexamples.Trace) {
	out := jsonResult{Algo: r.Algo, N: r.N, Channels: r.Channels.String(), Configurations: r.Configs, ConfigsDone: r.ConfigsDone,
		States: r.States, Transitions: r.Transitions, FinalStates: r.Terminals, MaxDepth: r.MaxDepth, ElapsedMS: r.Elapsed.Milliseconds(),
		Messages: jsonMessages{r.MinMessages, r.MaxMessages}, Exact: r.Exact, Collision: r.Collision, Verdict: r.Verdict(), Incomplete: r.Incomplete}
	for _, p := range r.Properties {
		out.Properties = append(out.Properties, jsonProperty{p.Name, p.Status == explore.Holds, string(p.Status), p.Note})
	}
	if t != nil {
		out.Violation = t.ToFile()
	} else if v := r.Violation; v != nil {
		out.Violation = &counterexamples.File{Version: counterexamples.FormatVersion, Algo: r.Algo, N: r.N, Property: v.Property, Detail: v.Detail,
			IDs: v.Config.IDs, Initiators: v.Config.Initiators.Members(), Channels: v.Config.Channels.String(), LoopAt: -1, Steps: []counterexamples.FileStep{}}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(out)
}
