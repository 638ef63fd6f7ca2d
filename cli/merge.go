package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

var mergeCommand = &cli.Command{
	Name:  "merge",
	Usage: "combine the JSON reports of the shards of a sweep (verify -shard=i/k -format=json) into one report",
	UsageText: "elcheck merge [-format=json] [-trace-out=FILE] [-chart=FILE] FILE...\n\n" +
		"exit 0: verified; 1: a violation found; 2: a file is unreadable or the files do not belong together; " +
		"3: incomplete (a shard was cut short or is missing)",
	Flags:           []cli.Flag{formatFlag, traceOutFlag, chartFlag},
	Action:          mergeAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

// shardReport is one shard's JSON report and the file it came from.
type shardReport struct {
	path string
	jsonReport
}

func mergeAction(c *cli.Context) error {
	if err := checkEmpty(c); err != nil {
		return err
	}
	format := keyword(c, formatFlag.Name)
	if format != "text" && format != "json" {
		return usagef("-format=%s: use text or json", format)
	}
	if c.Args().Len() == 0 {
		return usagef("merge takes the JSON reports of the shards: elcheck merge [-format=json] shard-0.json shard-1.json ...")
	}
	for _, path := range c.Args().Slice() {
		if strings.HasPrefix(path, "-") {
			return usagef("%s: flags come before the files: elcheck merge -format=json FILE...", path)
		}
	}
	traceOut := c.String(traceOutFlag.Name)
	if err := verifyChartKind(c.String(chartFlag.Name)); err != nil {
		return err
	}
	if err := checkOutputs([2]string{"trace-out", traceOut}, [2]string{"chart", c.String(chartFlag.Name)}); err != nil {
		return err
	}
	var shards []shardReport
	for _, path := range c.Args().Slice() {
		r, err := readReport(path)
		if err != nil {
			if h := helpHint(c, path); h != "" {
				return usagef("%v%s", err.Error(), h)
			}
			return err
		}
		shards = append(shards, shardReport{path, *r})
	}
	rep, err := mergeReports(shards)
	if err != nil {
		return err
	}
	saveCounterexample(c, rep, traceOut)
	return rep.exit()
}

// readReport reads one shard's report and checks that it is whole and
// consistent with the space it names.
func readReport(path string) (*jsonReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	b = counterexamples.TrimBOM(b)
	var trace struct {
		Version int `json:"elcheck_trace"`
	}
	if json.Unmarshal(b, &trace) == nil && trace.Version != 0 {
		// A file verify -trace-out wrote, easily mixed up with a report.
		return nil, usagef("%s is a trace (verify -trace-out), not a shard's report: replay it with elcheck replay %s", path, path)
	}
	var r jsonReport
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, usagef("%s is not an elcheck report (write one with elcheck verify -shard=i/k -format=json): %v", path, err)
	}
	switch {
	case r.Format == 0:
		return nil, usagef("%s is not an elcheck report: it has no elcheck_report field (write one with elcheck verify -shard=i/k -format=json)", path)
	case r.Format != reportFormat:
		return nil, usagef("%s: report format %d, this elcheck reads format %d", path, r.Format, reportFormat)
	case r.Merged != nil:
		return nil, usagef("%s is a merged report: merge takes the shards' own reports", path)
	case r.Shard == nil || r.Shard.Count < 1 || r.Shard.Count > maxShards || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Count:
		return nil, usagef("%s: the report names no valid shard i of k", path)
	case r.N < 1 || r.N > maxN:
		return nil, usagef("%s: n=%d is out of range", path, r.N)
	case (r.Violation == nil) != (r.Counterexample == nil):
		return nil, usagef("%s: the report has a violation without its counterexample summary, or the reverse", path)
	}
	// The counts of the space and of the shard follow from n, the fixed ids
	// and initiators, and i/k: a report that disagrees was cut or edited.
	kind, err := spec.ParseTopologyKind(r.Topology)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	var links [][2]int
	if g := r.Space.Graph; g != "" {
		if links, _, err = parseLinks(g); err != nil {
			return nil, usagef("%s: %v", path, err)
		}
	}
	sp, err := familySpace(r.Algo, kind, r.N, links, r.Space.Graph)
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	sp.IDs, sp.AllPlacements, sp.Capacity = r.Space.IDs, r.Space.AllPlacements, r.Space.Capacity
	if mach, ok := lookupMachine(r.Algo); ok {
		sp.PortBlind = mach.Info().PortBlind
	}
	switch r.Space.Orientation {
	case "":
	case "any":
		if err := sp.AnyPorts(); err != nil {
			return nil, usagef("%s: orientation any: %v", path, err)
		}
	default:
		return nil, usagef("%s: unknown orientation %q", path, r.Space.Orientation)
	}
	for _, p := range r.Space.Initiators {
		if p < 0 || p >= r.N {
			return nil, usagef("%s: initiator %d is not a position 0..%d", path, p, r.N-1)
		}
		sp.Initiators = sp.Initiators.With(p)
	}
	if total := sp.Count(); r.ConfigsTotal != total {
		return nil, usagef("%s: the space has %d configurations but the report says %d", path, total, r.ConfigsTotal)
	}
	sp.Shard, sp.Shards = r.Shard.Index, r.Shard.Count
	if c := sp.Count(); r.Configurations != c || r.ConfigsDone > c {
		return nil, usagef("%s: shard %d of %d has %d configurations but the report says %d (%d done)", path, r.Shard.Index, r.Shard.Count, c, r.Configurations, r.ConfigsDone)
	}
	return &r, nil
}

// belongTogether returns an error if b is not a shard of the same sweep as a.
func belongTogether(a, b shardReport) error {
	key := func(r shardReport) [][2]string {
		return [][2]string{
			{"algo", r.Algo},
			{"n", fmt.Sprint(r.N)},
			{"topology", r.Topology},
			{"channels", r.Channels},
			{"ids", fmt.Sprint(r.Space.IDs)},
			{"initiators", fmt.Sprint(r.Space.Initiators)},
			{"all_placements", fmt.Sprint(r.Space.AllPlacements)},
			{"orientation", r.Space.Orientation},
			{"graph", r.Space.Graph},
			{"capacity", fmt.Sprint(r.Space.Capacity)},
			{"search", r.Search},
			{"exact", fmt.Sprint(r.Exact)},
			{"comparison_only", fmt.Sprint(r.ComparisonOnly)},
			{"partial_order_reduction", fmt.Sprint(r.POR)},
			{"shard count", fmt.Sprint(r.Shard.Count)},
		}
	}
	ka, kb := key(a), key(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return usagef("%s and %s are not shards of one sweep: %s %s in one, %s in the other", a.path, b.path, ka[i][0], ka[i][1], kb[i][1])
		}
	}
	if a.Shard.Index == b.Shard.Index {
		return usagef("%s and %s are both shard %d of %d: give each shard once", a.path, b.path, a.Shard.Index, a.Shard.Count)
	}
	if !slices.EqualFunc(a.Properties, b.Properties, func(p, q jsonProperty) bool { return p.Name == q.Name }) {
		return usagef("%s and %s check different properties: were they written by different versions of elcheck?", a.path, b.path)
	}
	return nil
}

// mergeReports combines the shards' reports into the report an unsharded
// run of the whole space gives.
func mergeReports(shards []shardReport) (*report, error) {
	for _, s := range shards[1:] {
		if err := belongTogether(shards[0], s); err != nil {
			return nil, err
		}
	}
	for i := range shards {
		for _, s := range shards[i+1:] {
			if s.Shard.Index == shards[i].Shard.Index {
				return nil, belongTogether(shards[i], s)
			}
		}
	}
	slices.SortFunc(shards, func(a, b shardReport) int { return a.Shard.Index - b.Shard.Index })
	first := shards[0]
	k := first.Shard.Count
	m := &report{command: "merge"}
	m.jsonReport = jsonReport{Format: reportFormat, Algo: first.Algo, Topology: first.Topology, N: first.N, Channels: first.Channels,
		Space: first.Space, Search: first.Search, Exact: first.Exact, ComparisonOnly: first.ComparisonOnly, POR: first.POR,
		Merged:       &jsonMerged{Shards: k, Missing: []int{}},
		ConfigsTotal: first.ConfigsTotal, Configurations: first.ConfigsTotal, Messages: jsonMessages{-1, -1}}
	have := make([]bool, k)
	var incomplete []string
	var best *shardReport
	for i := range shards {
		s := &shards[i]
		have[s.Shard.Index] = true
		m.ConfigsDone += s.ConfigsDone
		m.States += s.States
		m.Transitions += s.Transitions
		m.FinalStates += s.FinalStates
		m.MaxDepth = max(m.MaxDepth, s.MaxDepth)
		m.ElapsedMS += s.ElapsedMS
		m.ElapsedMaxMS = max(m.ElapsedMaxMS, s.ElapsedMS)
		m.Collision += s.Collision
		m.Cached += s.Cached
		m.Disk += s.Disk
		m.UniformChecked += s.UniformChecked
		m.UniformEvery = s.UniformEvery
		if s.Messages.Min >= 0 && (m.Messages.Min < 0 || s.Messages.Min < m.Messages.Min) {
			m.Messages.Min = s.Messages.Min
		}
		m.Messages.Max = max(m.Messages.Max, s.Messages.Max)
		if s.Incomplete != "" {
			incomplete = append(incomplete, fmt.Sprintf("shard %d: %s", s.Shard.Index, s.Incomplete))
		}
		if s.Counterexample != nil && (best == nil || better(s.Counterexample, best.Counterexample, m.Search)) {
			best = s
		}
	}
	m.elapsed = time.Duration(m.ElapsedMS) * time.Millisecond
	for i, ok := range have {
		if !ok {
			m.Merged.Missing = append(m.Merged.Missing, i)
		}
	}
	if len(m.Merged.Missing) > 0 {
		incomplete = append(incomplete, fmt.Sprintf("%s of %d missing", shardList(m.Merged.Missing), k))
	}
	m.Incomplete = strings.Join(incomplete, "; ")
	if best != nil {
		if err := m.setViolation(best); err != nil {
			return nil, err
		}
	}
	m.Properties = mergeProperties(shards, m)
	switch {
	case m.Violation != nil:
		m.setVerdict(invariants.Verdict{Outcome: invariants.Violated, Property: m.Counterexample.Property})
	case m.Incomplete != "":
		m.setVerdict(invariants.Verdict{Outcome: invariants.Incomplete, Reason: m.Incomplete})
	default:
		m.setVerdict(invariants.Verdict{Outcome: invariants.Verified})
	}
	return m, nil
}

// better reports whether counterexample a is to be reported rather than b,
// as an unsharded run chooses (explore.Check): with BFS a shorter trace,
// then an earlier configuration, and a violation without steps
// (comparison-only) after any with steps; with DFS the earliest
// configuration, where the unsharded run stops.
func better(a, b *jsonCounterexample, search string) bool {
	if search == explore.DFS.String() {
		return a.ConfigIndex < b.ConfigIndex
	}
	return explore.Precedes(a.Length, a.ConfigIndex, b.Length, b.ConfigIndex)
}

// setViolation makes s's counterexample the merged one, re-executing it to
// render it as verify does (and to check that it fits the protocol).
func (m *report) setViolation(s *shardReport) error {
	m.Counterexample, m.Violation = s.Counterexample, s.Violation
	mach, ok := lookupMachine(s.Algo)
	if !ok {
		return usagef("%s is a report on %q, which this elcheck does not know (see elcheck list)", s.path, s.Algo)
	}
	f := s.Violation
	v, err := f.Violation(mach)
	if err != nil {
		return usagef("%s: the counterexample does not fit %s: %v", s.path, s.Algo, err)
	}
	m.config = v.Config.String()
	if len(v.Trace) > 0 || v.LoopAt >= 0 {
		if m.trace, err = counterexamples.Rebuild(mach, v); err != nil {
			return usagef("%s: the counterexample does not replay: %v", s.path, err)
		}
	}
	return nil
}

// mergeProperties gives each property the verdict of the whole space:
// violated if a shard violated it, not checked if no shard checked it,
// holds if it holds in every shard and none is missing, unknown otherwise.
func mergeProperties(shards []shardReport, m *report) []jsonProperty {
	complete := len(m.Merged.Missing) == 0
	var out []jsonProperty
	for i, p := range shards[0].Properties {
		statuses := make([]string, len(shards))
		for j, s := range shards {
			statuses[j] = s.Properties[i].Status
		}
		all := func(st explore.Status) bool {
			return !slices.ContainsFunc(statuses, func(s string) bool { return s != string(st) })
		}
		q := jsonProperty{Name: p.Name, Status: string(explore.Unknown)}
		switch {
		case slices.Contains(statuses, string(explore.Violated)):
			q.Status = string(explore.Violated)
			q.Note = m.violationDetail(shards, i)
		case all(explore.NotChecked):
			q.Status, q.Note = string(explore.NotChecked), p.Note
		case all(explore.Holds) && complete:
			q.Status = string(explore.Holds)
		}
		q.Holds = q.Status == string(explore.Holds)
		if q.Status != string(explore.Violated) && q.Status != string(explore.NotChecked) {
			q.Note = mergedNote(shards, i, q.Status, m)
		}
		out = append(out, q)
	}
	return out
}

// violationDetail is the note of violated property i: the merged
// counterexample's detail if it is of that property, else the detail of
// the first shard that violated it.
func (m *report) violationDetail(shards []shardReport, i int) string {
	name := shards[0].Properties[i].Name
	if m.Counterexample != nil && m.Counterexample.Property == name {
		return m.Counterexample.Detail
	}
	for _, s := range shards {
		if p := s.Properties[i]; p.Status == string(explore.Violated) {
			return fmt.Sprintf("shard %d: %s", s.Shard.Index, p.Note)
		}
	}
	return ""
}

// mergedNote rewrites the note of property i for the whole space as
// explore writes it for an unsharded run: the notes made of counts are
// written afresh from the counts added up, by the table that writes them
// for explore (invariants.Property.Report), and notes that claim the whole
// space are kept only when it was all checked.
func mergedNote(shards []shardReport, i int, status string, m *report) string {
	name := shards[0].Properties[i].Name
	switch name {
	case invariants.Uniformity, invariants.MessageBound:
		p, _ := invariants.Lookup(name)
		f := invariants.Figures{N: m.N, UniformChecked: m.UniformChecked, UniformEvery: m.UniformEvery, MaxMessages: m.Messages.Max}
		if mach, ok := lookupMachine(m.Algo); ok {
			f.Bound = mach.Info().Bound
		} else if name == invariants.MessageBound {
			// A protocol this elcheck does not know: its bound is
			// known only from the shards' notes.
			return ""
		}
		note, _ := p.Report(f)
		return note
	default:
		if status == string(explore.Holds) {
			return shards[0].Properties[i].Note
		}
	}
	return ""
}
