package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// reportFormat is the version of the -format=json report, which merge
// reads back (docs/json.md). Fields are only ever added; a change of
// meaning bumps it. 2: a shard's verdict line says it covers only its part
// (verdictLine), and outcome, property, reason and whole_space are added.
const reportFormat = 2

// report is what verify and merge print. verify builds it from one
// explore.Result, merge from the JSON reports of shards; both print it with
// writeText or writeJSON, so the two commands read the same.
type report struct {
	jsonReport
	command  string        // "verify" or "merge", for the text's first line
	elapsed  time.Duration // summed over shards for merge
	trace    *counterexamples.Trace
	config   string // the violation's configuration, when there is no trace to show
	traceOut string // where the trace was written, if it was
	traceErr string // why the trace was not written to -trace-out
	// verdict is the typed verdict, which the exit code comes from;
	// jsonReport.Verdict is its text (setVerdict keeps the two together).
	verdict invariants.Verdict
}

// setVerdict sets the report's verdict, its text and its JSON fields; the
// report's shard and counts must be set first.
func (r *report) setVerdict(v invariants.Verdict) {
	r.verdict, r.Verdict, r.JSONVerdict = v, r.verdictLine(v), v.JSON()
}

// verdictLine is the report's last line: the verdict's text, but for one
// shard of several that verified its part, which must not read as a proof
// of the whole space: it says what it covers, and an empty
// shard says it is empty. A violation in a part is one of the whole, and
// an incomplete part leaves the whole incomplete: those read as they are.
func (r *jsonReport) verdictLine(v invariants.Verdict) string {
	s := r.Shard
	if s == nil || s.Count <= 1 || v.Outcome != invariants.Verified {
		return v.String()
	}
	whole := fmt.Sprintf("run elcheck merge on the reports of all %d shards for the whole space", s.Count)
	if r.Configurations == 0 {
		return fmt.Sprintf("shard %d of %d: EMPTY: none of the %d configurations falls in it; %s", s.Index, s.Count, r.ConfigsTotal, whole)
	}
	return fmt.Sprintf("shard %d of %d: VERIFIED on its %d of %d configurations; %s", s.Index, s.Count, r.Configurations, r.ConfigsTotal, whole)
}

// jsonReport is the -format=json report. The fields up to elapsed_ms,
// messages, properties (name, holds) and verdict are the original ones and
// keep their names; the others carry what merge needs.
type jsonReport struct {
	Format         int            `json:"elcheck_report"`
	Algo           string         `json:"algo"`
	Topology       string         `json:"topology"`
	N              int            `json:"n"`
	Channels       string         `json:"channels"`
	Space          jsonSpace      `json:"space"`
	Search         string         `json:"search"`
	Exact          bool           `json:"exact"`
	ComparisonOnly bool           `json:"comparison_only"`
	POR            bool           `json:"partial_order_reduction"`
	Shard          *jsonShard     `json:"shard,omitempty"`  // verify: the part of the space checked
	Merged         *jsonMerged    `json:"merged,omitempty"` // merge: the shards combined
	ConfigsTotal   int            `json:"configurations_total"`
	Configurations int            `json:"configurations"` // in the shard (verify) or the whole space (merge)
	ConfigsDone    int            `json:"configurations_done"`
	States         int64          `json:"states"`
	Transitions    int64          `json:"transitions"`
	FinalStates    int64          `json:"final_states"`
	MaxDepth       int            `json:"max_depth"`
	ElapsedMS      int64          `json:"elapsed_ms"`     // summed over shards for merge
	ElapsedMaxMS   int64          `json:"elapsed_max_ms"` // the slowest shard
	Messages       jsonMessages   `json:"messages"`
	Collision      float64        `json:"collision_probability"`
	Cached         int            `json:"configurations_cached"`            // searched with state caching (-memory)
	Disk           int            `json:"configurations_on_disk,omitempty"` // searched with their sets on disk (-memory)
	UniformChecked int64          `json:"uniformity_checked"`
	UniformEvery   int            `json:"uniformity_every"` // the self-check's sampling, 0: off
	Properties     []jsonProperty `json:"properties"`
	// Verdict is the text report's last line (verdictLine).
	Verdict string `json:"verdict"`
	// JSONVerdict is the verdict as data: outcome, property, reason.
	invariants.JSONVerdict
	// WholeSpace: the outcome is about the whole space (an unsharded
	// verify, or merge), not one shard's part of it.
	WholeSpace bool   `json:"whole_space"`
	Incomplete string `json:"incomplete,omitempty"`
	// DepthLimited counts the configurations searched, after a violation
	// was known, only to DepthLimit (the deepest such limit), for a
	// shorter counterexample; First: the check stopped at the first
	// configuration with a violation (-first, or dfs).
	DepthLimited int  `json:"configurations_depth_limited,omitempty"`
	DepthLimit   int  `json:"depth_limit,omitempty"`
	First        bool `json:"first,omitempty"`
	// Counterexample summarises Violation for merge: which configuration
	// of the whole space, and how many steps.
	Counterexample *jsonCounterexample `json:"counterexample,omitempty"`
	// Violation is the trace as -trace-out writes it: `jq .violation`
	// gives a file elcheck replay reads.
	Violation *counterexamples.File `json:"violation,omitempty"`
	// Against is where -against's reference protocol first parts ways
	// with the counterexample, in one line.
	Against string `json:"against,omitempty"`
}

// jsonSpace is the set of configurations: fixed ids and initiators, or
// (absent) all of them.
type jsonSpace struct {
	Description string    `json:"description"`
	IDs         []spec.ID `json:"ids,omitempty"`
	Initiators  []int     `json:"initiators,omitempty"`
	// AllPlacements: with ids not fixed, every placement, rotations
	// included, rather than one per rotation class.
	AllPlacements bool `json:"all_placements,omitempty"`
	// Orientation is "any" when every port numbering was covered
	// (-orientation=any), absent for the network's own.
	Orientation string `json:"orientation,omitempty"`
	// Graph is the one network checked (-graph), its links as given;
	// absent for every network of the family.
	Graph string `json:"graph,omitempty"`
	// Capacity bounds every channel (-capacity); absent when unbounded.
	Capacity int `json:"capacity,omitempty"`
}

type jsonShard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

type jsonMerged struct {
	Shards  int   `json:"shards"`  // k
	Missing []int `json:"missing"` // shard indices with no report
}

type jsonMessages struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

type jsonProperty struct {
	Name string `json:"name"`
	// Holds is Status == explore.Holds, kept for the scripts that read it.
	Holds  bool           `json:"holds"`
	Status explore.Status `json:"status"`
	Note   string         `json:"note,omitempty"`
}

type jsonCounterexample struct {
	Property    string `json:"property"`
	Detail      string `json:"detail"`
	ConfigIndex int    `json:"config_index"` // in the enumeration of the whole space
	Length      int    `json:"length"`       // steps
}

// verifyReport builds the report of one verify run. trace is the rebuilt
// counterexample, nil if the violation has no steps to show.
func verifyReport(j *job, r *explore.Result, trace *counterexamples.Trace) *report {
	info := j.machine.Info()
	whole := j.space
	whole.Shard, whole.Shards = 0, 0
	rep := &report{command: "verify", elapsed: r.Elapsed, trace: trace}
	rep.jsonReport = jsonReport{Format: reportFormat, Algo: r.Algo, Topology: family(j.space, info).String(), N: r.N, Channels: r.Channels.String(),
		Space:  jsonSpace{Description: spaceText(j.space, j.graph), Graph: j.graph, IDs: j.space.IDs, Initiators: j.space.Initiators.Members(), AllPlacements: j.space.AllPlacements && j.space.IDs == nil, Orientation: orientation(j.space), Capacity: j.space.Capacity},
		Search: j.opts.Search.String(), Exact: r.Exact, ComparisonOnly: j.opts.ComparisonOnly, POR: j.opts.POR,
		Shard:        &jsonShard{Index: j.space.Shard, Count: max(j.space.Shards, 1)},
		ConfigsTotal: whole.Count(), Configurations: r.Configs, ConfigsDone: r.ConfigsDone,
		States: r.States, Transitions: r.Transitions, FinalStates: r.Terminals, MaxDepth: r.MaxDepth,
		ElapsedMS: r.Elapsed.Milliseconds(), ElapsedMaxMS: r.Elapsed.Milliseconds(),
		Messages: jsonMessages{r.MinMessages, r.MaxMessages}, Collision: r.Collision, Cached: r.Cached, Disk: r.Disk,
		UniformChecked: r.UniformChecked, UniformEvery: j.opts.UniformityEvery,
		WholeSpace: j.space.Shards <= 1, Incomplete: r.Incomplete, DepthLimited: r.DepthCut, DepthLimit: r.CutDepth, First: r.First}
	rep.setVerdict(r.Verdict())
	for _, p := range r.Properties {
		rep.Properties = append(rep.Properties, jsonProperty{p.Name, p.Status == explore.Holds, p.Status, p.Note})
	}
	if v := r.Violation; v != nil {
		rep.Counterexample = &jsonCounterexample{Property: v.Property, Detail: v.Detail, ConfigIndex: v.ConfigIndex, Length: len(v.Trace)}
		rep.config = v.Config.String()
		if trace != nil {
			rep.Violation = trace.ToFile()
			if trace.Differs != nil {
				rep.Against = trace.Differs.String()
			}
		} else {
			rep.Violation = &counterexamples.File{Version: counterexamples.FormatVersion, Algo: r.Algo, N: r.N, Topology: v.Config.Topology.Kind.String(),
				Property: v.Property, Detail: v.Detail, IDs: v.Config.IDs, Initiators: v.Config.Initiators.Members(),
				Channels: v.Config.Channels.String(), Edges: counterexamples.Edges(v.Config.Topology), LoopAt: -1, Steps: []counterexamples.FileStep{}}
		}
	}
	return rep
}

// orientation is jsonSpace.Orientation for sp.
func orientation(sp configs.Space) string {
	if sp.AnyNumbering {
		return "any"
	}
	return ""
}

// family is the family of the space's networks: the protocol's own, or
// the one -topology chose.
func family(sp configs.Space, info spec.Info) spec.TopologyKind {
	if len(sp.Topologies) == 0 {
		return info.Topology
	}
	return sp.Topologies[0].Kind
}

// spaceText describes the configurations of sp (graph: -graph's links).
func spaceText(sp configs.Space, graph string) string {
	linked := len(sp.Topologies) > 0 && sp.Topologies[0].Kind.Linked()
	p := "every id placement up to rotation"
	if linked {
		p = "every id placement up to each network's symmetries"
	}
	if sp.AllPlacements {
		p = "every id placement"
	}
	if sp.AnyNumbering && !linked { // familyText says it for a network
		p = "every orientation of each process and " + p
		if !sp.AllPlacements {
			p += " and reflection"
		}
	}
	if sp.IDs != nil {
		p = fmt.Sprintf("ids %v", sp.IDs)
	}
	i := "every non-empty initiator set"
	if sp.Initiators != 0 {
		i = fmt.Sprintf("initiators %v", sp.Initiators.Members())
	}
	c := ""
	if sp.Capacity > 0 {
		c = fmt.Sprintf(", channels of capacity %d", sp.Capacity)
	}
	return familyText(sp, graph) + p + ", " + i + c
}

// saveTrace writes the counterexample's trace, if there is one, to path
// (-trace-out; "" for none), then prints the report. A write that fails
// loses nothing else: the report and its verdict are printed (the text
// says the trace was not written, the JSON report carries it as
// .violation), the error goes to stderr on one line, and the exit code
// stays the verdict's.
func (r *report) saveTrace(c *cli.Context, path string) {
	var werr error
	if r.trace != nil && path != "" {
		if werr = envOf(c).writeTrace(r.trace, path); werr == nil {
			r.traceOut = path
		} else {
			r.traceErr = oneLine(werr)
		}
	}
	r.write(c.App.Writer, keyword(c, formatFlag.Name))
	if werr != nil {
		fmt.Fprintf(c.App.ErrWriter, "elcheck: -trace-out: the trace was not written: %s\n", oneLine(werr))
	}
}

// exit returns the verdict's exit code as the action's error.
func (r *report) exit() error {
	return verdictExit(r.verdict.Outcome)
}

func (r *report) write(w io.Writer, format string) {
	if format == "json" {
		r.writeJSON(w)
	} else {
		r.writeText(w)
	}
}

func (r *report) writeJSON(w io.Writer) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(r.jsonReport)
}

func (r *report) writeText(w io.Writer) {
	fmt.Fprintf(w, "elcheck %s %s: %s, n=%d, %s channels, %s search\n", r.command, r.Algo, r.Topology, r.N, r.Channels, r.Search)
	if s := r.Shard; s != nil && s.Count > 1 {
		fmt.Fprintf(w, "shard           %d of %d: %d of %d configurations\n", s.Index, s.Count, r.Configurations, r.ConfigsTotal)
	}
	if m := r.Merged; m != nil {
		missing := ""
		if len(m.Missing) > 0 {
			missing = ", missing " + shardList(m.Missing)
		}
		fmt.Fprintf(w, "shards          %d of %d merged%s\n", m.Shards-len(m.Missing), m.Shards, missing)
	}
	fmt.Fprintf(w, "configurations  %d of %d explored (%s)\n", r.ConfigsDone, r.Configurations, r.Space.Description)
	if r.Incomplete != "" && r.Counterexample != nil {
		// The verdict line names the violation, not the stop: say it here.
		fmt.Fprintf(w, "stopped early   %s\n", r.Incomplete)
	}
	if r.DepthLimited > 0 {
		fmt.Fprintf(w, "depth limited   %d configurations, searched after the violation was found only as deep as a shorter one could be (to depth %d at most): beyond that, not searched\n", r.DepthLimited, r.DepthLimit)
	}
	if r.First && r.Counterexample != nil && r.ConfigsDone+1 < r.Configurations {
		fmt.Fprintf(w, "stopped         at the first configuration with a violation: the %d after it were not searched\n", r.Configurations-r.ConfigsDone-1)
	}
	store := fmt.Sprintf("64-bit fingerprints, collision probability %.1e", r.Collision)
	if r.Exact {
		store = "exact"
	}
	distinct := "distinct"
	if r.Cached > 0 {
		distinct = "visited (distinct, but for repeat visits in the configurations below)"
	}
	fmt.Fprintf(w, "states          %d %s (%s)\n", r.States, distinct, store)
	if r.Cached > 0 {
		fmt.Fprintf(w, "state caching   %d configurations outgrew -memory and were searched depth-first with a bounded cache: their states are visits, and their traces not shortest\n", r.Cached)
	}
	if r.Disk > 0 {
		fmt.Fprintf(w, "on disk         %d configurations outgrew -memory and were searched with their visited sets and frontiers on disk: counts and traces as in memory\n", r.Disk)
	}
	fmt.Fprintf(w, "transitions     %d\n", r.Transitions)
	fmt.Fprintf(w, "final states    %d\n", r.FinalStates)
	fmt.Fprintf(w, "max depth       %d\n", r.MaxDepth)
	if r.Messages.Max >= 0 {
		fmt.Fprintf(w, "messages        min %d, max %d per complete execution\n", r.Messages.Min, r.Messages.Max)
	}
	secs := r.elapsed.Seconds()
	rate := float64(r.States) / max(secs, 1e-9)
	if m := r.Merged; m != nil {
		fmt.Fprintf(w, "time            %.2fs summed over %d shards, slowest %.2fs (%.0f states/s per process)\n",
			secs, m.Shards-len(m.Missing), float64(r.ElapsedMaxMS)/1000, rate)
	} else {
		fmt.Fprintf(w, "time            %.2fs (%.0f states/s)\n", secs, rate)
	}
	fmt.Fprintln(w, "properties")
	for _, p := range r.Properties {
		note := ""
		if p.Note != "" {
			note = "  (" + p.Note + ")"
		}
		fmt.Fprintf(w, "  %-20s %s%s\n", p.Name, p.Status, note)
	}
	if c := r.Counterexample; c != nil {
		switch {
		case c.Property == invariants.MessageBound && r.Incomplete != "":
			fmt.Fprintf(w, "\nthe execution with the most messages found before the search stopped (%d steps):\n", c.Length)
		case c.Property == invariants.MessageBound:
			// Not a shortest trace: the longest, the one that sends the most.
			fmt.Fprintf(w, "\nthe execution with the most messages (%d steps):\n", c.Length)
		case r.Incomplete != "" && r.Search == explore.BFS.String():
			// Configurations not searched, or a cycle found in part of a
			// graph, may hold a shorter one.
			fmt.Fprintf(w, "\ncounterexample (%d steps, the shortest found before the search stopped: a shorter one may exist):\n", c.Length)
		case r.First && r.Search == explore.BFS.String():
			fmt.Fprintf(w, "\ncounterexample (%d steps, the first found: a shorter one may exist):\n", c.Length)
		case r.Search == explore.BFS.String():
			fmt.Fprintf(w, "\ncounterexample (%d steps, shortest):\n", c.Length)
		default:
			fmt.Fprintf(w, "\ncounterexample (%d steps, not necessarily shortest):\n", c.Length)
		}
		if r.trace != nil {
			r.trace.WriteText(w)
		} else {
			fmt.Fprintf(w, "%s: %s\nconfiguration: %s\n", c.Property, c.Detail, r.config)
		}
		if r.traceOut != "" {
			fmt.Fprintf(w, "trace written to %s; re-run it with: elcheck replay %s\n", r.traceOut, r.traceOut)
		} else if r.traceErr != "" {
			fmt.Fprintf(w, "trace NOT written: %s\n", r.traceErr)
		} else if r.trace != nil {
			fmt.Fprintln(w, "to save it for elcheck replay, add -trace-out=FILE")
		}
	}
	fmt.Fprintln(w, r.Verdict)
}

// shardList renders shard indices as "1, 4 and 6".
func shardList(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	if len(s) == 1 {
		return "shard " + s[0]
	}
	return "shards " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
