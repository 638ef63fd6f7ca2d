package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/elcheck/elcheck/configs"
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
		"exit 0: verified; 1: a violation found; 2: a file is unreadable or inconsistent (its counts or verdict do not add up), or the files do not belong together; " +
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
	e := envOf(c)
	var shards []shardReport
	for _, path := range c.Args().Slice() {
		r, err := readReport(e, path)
		if err != nil {
			if h := helpHint(c, path); h != "" {
				return usagef("%v%s", err.Error(), h)
			}
			return err
		}
		shards = append(shards, shardReport{path, *r})
	}
	rep, err := mergeReports(e, shards)
	if err != nil {
		return err
	}
	saveCounterexample(c, rep, traceOut)
	return rep.exit()
}

// readReport reads one shard's report and checks it (decodeReport).
func readReport(e *env, path string) (*jsonReport, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return decodeReport(e, path, b)
}

// decodeReport reads the report in b (path names it in errors) and checks
// that it is whole and consistent: merge proves a space by exhaustion, so
// it trusts no claim of a shard's that its counts do not bear out
// (checkReport). Every refusal is a usage error naming the file and the
// field.
func decodeReport(e *env, path string, b []byte) (*jsonReport, error) {
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
		return nil, usagef("%s is not an elcheck report (write one with elcheck verify -shard=i/k -format=json): %v", path, oneLine(err))
	}
	switch {
	case r.Format == 0:
		return nil, usagef("%s is not an elcheck report: it has no elcheck_report field (write one with elcheck verify -shard=i/k -format=json)", path)
	case r.Format != reportFormat:
		return nil, usagef("%s: report format %d, this elcheck reads format %d: write every shard's report with this elcheck", path, r.Format, reportFormat)
	case r.Merged != nil:
		return nil, usagef("%s is a merged report: merge takes the shards' own reports", path)
	}
	if err := checkReport(e, &r); err != nil {
		return nil, usagef("%s: %s", path, oneLine(err))
	}
	return &r, nil
}

// checkReport checks a shard's report against itself: the shard against
// the space it names (the counts follow from the protocol, n, the fixed
// ids and initiators, and i/k), the counts against each other, and the
// verdict against what the report holds. A report that disagrees was cut,
// edited, or written by another build. The error names the field.
func checkReport(e *env, r *jsonReport) error {
	switch {
	case r.Shard == nil || r.Shard.Count < 1 || r.Shard.Count > maxShards || r.Shard.Index < 0 || r.Shard.Index >= r.Shard.Count:
		return errors.New("shard: the report names no valid shard i of k")
	case r.WholeSpace != (r.Shard.Count == 1):
		return fmt.Errorf("whole_space: %v in shard %d of %d", r.WholeSpace, r.Shard.Index, r.Shard.Count)
	case r.N < 1 || r.N > maxN:
		return fmt.Errorf("n: %d is out of range 1..%d", r.N, maxN)
	case (r.Violation == nil) != (r.Counterexample == nil):
		return errors.New("violation: the report has a violation without its counterexample summary, or the reverse")
	case r.Search != explore.BFS.String() && r.Search != explore.DFS.String():
		return fmt.Errorf("search: %q: the report's search is bfs or dfs", r.Search)
	}
	mach, ok := e.lookup(r.Algo)
	if !ok {
		return fmt.Errorf("algo: %q is not a protocol this elcheck knows (see elcheck list)", r.Algo)
	}
	if _, err := spec.ParseChannels(r.Channels); err != nil {
		return fmt.Errorf("channels: %q: fifo or bag", r.Channels)
	}
	for _, f := range []struct {
		name string
		v    int64
	}{
		{"configurations_done", int64(r.ConfigsDone)}, {"states", r.States}, {"transitions", r.Transitions}, {"final_states", r.FinalStates},
		{"max_depth", int64(r.MaxDepth)}, {"elapsed_ms", r.ElapsedMS}, {"elapsed_max_ms", r.ElapsedMaxMS}, {"configurations_cached", int64(r.Cached)},
		{"configurations_on_disk", int64(r.Disk)}, {"uniformity_checked", r.UniformChecked}, {"uniformity_every", int64(r.UniformEvery)},
		{"configurations_depth_limited", int64(r.DepthLimited)}, {"depth_limit", int64(r.DepthLimit)},
	} {
		if f.v < 0 {
			return fmt.Errorf("%s: %d is negative", f.name, f.v)
		}
	}
	if r.Collision < 0 || r.Collision > 1 {
		return fmt.Errorf("collision_probability: %g is not a probability", r.Collision)
	}
	// -1 and -1 when no execution was complete.
	if m := r.Messages; (m.Min < 0 || m.Max < 0) && m != (jsonMessages{-1, -1}) || m.Min > m.Max {
		return fmt.Errorf("messages: min %d, max %d: want 0 <= min <= max, or both -1", m.Min, m.Max)
	}
	sp, err := reportSpace(r, mach)
	if err != nil {
		return err
	}
	if total := sp.Count(); r.ConfigsTotal != total {
		return fmt.Errorf("configurations_total: the space has %d configurations but the report says %d", total, r.ConfigsTotal)
	}
	sp.Shard, sp.Shards = r.Shard.Index, r.Shard.Count
	if c := sp.Count(); r.Configurations != c {
		return fmt.Errorf("configurations: shard %d of %d has %d configurations but the report says %d", r.Shard.Index, r.Shard.Count, c, r.Configurations)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"configurations_done", r.ConfigsDone}, {"configurations_cached", r.Cached}, {"configurations_on_disk", r.Disk}} {
		if f.v > r.Configurations {
			return fmt.Errorf("%s: %d, more than the shard's %d configurations", f.name, f.v, r.Configurations)
		}
	}
	if err := checkProperties(r, explore.Checks(sp)); err != nil {
		return err
	}
	if r.DepthLimited > 0 && r.Counterexample == nil {
		return fmt.Errorf("configurations_depth_limited: %d, but only a violation limits the depth of a search, and there is no counterexample", r.DepthLimited)
	}
	if r.ConfigsDone+r.DepthLimited > r.Configurations {
		return fmt.Errorf("configurations_depth_limited: %d and %d done, more than the shard's %d configurations", r.DepthLimited, r.ConfigsDone, r.Configurations)
	}
	if c := r.Counterexample; c != nil {
		switch {
		case c.ConfigIndex < 0 || c.ConfigIndex >= r.ConfigsTotal || c.ConfigIndex%r.Shard.Count != r.Shard.Index:
			return fmt.Errorf("counterexample: config_index %d is not a configuration of shard %d of %d", c.ConfigIndex, r.Shard.Index, r.Shard.Count)
		case c.Length < 0:
			return fmt.Errorf("counterexample: length %d is negative", c.Length)
		case r.Violation.Property != c.Property:
			return fmt.Errorf("violation: property %q, but the counterexample's is %q", r.Violation.Property, c.Property)
		}
	}
	v := r.contentVerdict()
	if v.Outcome == invariants.Verified && r.ConfigsDone != r.Configurations {
		return fmt.Errorf("configurations_done: %d of %d, yet the report says neither why the search stopped (incomplete) nor what it found (counterexample)", r.ConfigsDone, r.Configurations)
	}
	if want := r.verdictLine(v); r.Verdict != want {
		return fmt.Errorf("verdict: %q, but the report's contents give %q", r.Verdict, want)
	}
	want := v.JSON()
	for _, f := range [][3]string{{"outcome", r.Outcome, want.Outcome}, {"property", r.Property, want.Property}, {"reason", r.Reason, want.Reason}} {
		if f[1] != f[2] {
			return fmt.Errorf("%s: %q, but the report's contents give %q", f[0], f[1], f[2])
		}
	}
	return nil
}

// reportSpace is the space a report names, without its shard: the space
// verify builds from the same flags (parseSpace).
func reportSpace(r *jsonReport, mach spec.Machine) (configs.Space, error) {
	kind, err := spec.ParseTopologyKind(r.Topology)
	if err != nil {
		return configs.Space{}, fmt.Errorf("topology: %v", err)
	}
	var links [][2]int
	if g := r.Space.Graph; g != "" {
		if links, _, err = parseLinks(g); err != nil {
			return configs.Space{}, fmt.Errorf("space.graph: %v", err)
		}
	}
	if own := mach.Info().Topology; !slices.Contains(own.Families(), kind) {
		return configs.Space{}, fmt.Errorf("topology: %s does not run on a %v", r.Algo, kind)
	}
	sp, err := familySpace(r.Algo, kind, r.N, links, r.Space.Graph)
	if err != nil {
		return sp, fmt.Errorf("topology: %v", err)
	}
	if ids := r.Space.IDs; ids != nil {
		if len(ids) != r.N {
			return sp, fmt.Errorf("space.ids: %d ids for n=%d", len(ids), r.N)
		}
		if err := spec.CheckIDs(ids); err != nil {
			return sp, fmt.Errorf("space.ids: %v", err)
		}
	}
	if c := r.Space.Capacity; c < 0 || c > maxCapacity {
		return sp, fmt.Errorf("space.capacity: %d is not 0..%d", c, maxCapacity)
	}
	sp.IDs, sp.AllPlacements, sp.Capacity = r.Space.IDs, r.Space.AllPlacements, r.Space.Capacity
	sp.PortBlind = mach.Info().PortBlind
	switch r.Space.Orientation {
	case "":
	case "any":
		if err := sp.AnyPorts(); err != nil {
			return sp, fmt.Errorf("space.orientation: any: %v", err)
		}
	default:
		return sp, fmt.Errorf("space.orientation: unknown orientation %q", r.Space.Orientation)
	}
	for _, p := range r.Space.Initiators {
		if p < 0 || p >= r.N || sp.Initiators.Has(p) {
			return sp, fmt.Errorf("space.initiators: %v: positions 0..%d, each once", r.Space.Initiators, r.N-1)
		}
		sp.Initiators = sp.Initiators.With(p)
	}
	return sp, nil
}

// checkProperties checks a report's properties: the ones a check of its
// space reports (want), in order, each with a status, holds saying the
// same, and a property marked violated exactly when there is a
// counterexample, which must be of a violated property.
func checkProperties(r *jsonReport, want []invariants.Property) error {
	var got, wantNames []string
	for _, p := range r.Properties {
		got = append(got, p.Name)
	}
	for _, p := range want {
		wantNames = append(wantNames, p.Name)
	}
	if !slices.Equal(got, wantNames) {
		return fmt.Errorf("properties: %q, but this elcheck checks %q: was the report written by another version?", got, wantNames)
	}
	for _, p := range r.Properties {
		switch p.Status {
		case explore.Holds, explore.Violated, explore.Unknown, explore.NotChecked:
		default:
			return fmt.Errorf("properties: %s: status %q: holds, violated, unknown or not checked", p.Name, p.Status)
		}
		if p.Holds != (p.Status == explore.Holds) {
			return fmt.Errorf("properties: %s: holds is %v but its status is %s", p.Name, p.Holds, p.Status)
		}
		if p.Status == explore.Violated && r.Counterexample == nil {
			return fmt.Errorf("properties: %s is violated, but the report has no counterexample", p.Name)
		}
		if p.Status == explore.Unknown && r.Incomplete == "" && r.Counterexample == nil {
			return fmt.Errorf("properties: %s is unknown, yet the report says neither why the search stopped (incomplete) nor what it found (counterexample)", p.Name)
		}
	}
	if c := r.Counterexample; c != nil {
		if i := slices.IndexFunc(r.Properties, func(p jsonProperty) bool { return p.Name == c.Property }); i < 0 || r.Properties[i].Status != explore.Violated {
			return fmt.Errorf("counterexample: of %s, which properties does not mark violated", c.Property)
		}
	}
	return nil
}

// contentVerdict is the verdict a report's contents give, by the rule
// explore.Result.Verdict applies to a search: a counterexample makes it
// violated, else a stop (incomplete) incomplete, else verified. merge
// holds each shard's verdict to it and gives the merged report its own.
func (r *jsonReport) contentVerdict() invariants.Verdict {
	res := explore.Result{Incomplete: r.Incomplete}
	if c := r.Counterexample; c != nil {
		res.Violation = &explore.Violation{Property: c.Property}
	}
	return res.Verdict()
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
func mergeReports(e *env, shards []shardReport) (*report, error) {
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
		ConfigsTotal: first.ConfigsTotal, Configurations: first.ConfigsTotal, Messages: jsonMessages{-1, -1}, WholeSpace: true}
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
		m.DepthLimited += s.DepthLimited
		m.DepthLimit = max(m.DepthLimit, s.DepthLimit)
		m.First = m.First || s.First
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
		if err := m.setViolation(e, best); err != nil {
			return nil, err
		}
	}
	m.Properties = mergeProperties(e, shards, m)
	m.setVerdict(m.contentVerdict())
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
func (m *report) setViolation(e *env, s *shardReport) error {
	m.Counterexample, m.Violation = s.Counterexample, s.Violation
	mach, ok := e.lookup(s.Algo)
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
func mergeProperties(e *env, shards []shardReport, m *report) []jsonProperty {
	complete := len(m.Merged.Missing) == 0
	var out []jsonProperty
	for i, p := range shards[0].Properties {
		statuses := make([]explore.Status, len(shards))
		for j, s := range shards {
			statuses[j] = s.Properties[i].Status
		}
		all := func(st explore.Status) bool {
			return !slices.ContainsFunc(statuses, func(s explore.Status) bool { return s != st })
		}
		q := jsonProperty{Name: p.Name, Status: explore.Unknown}
		switch {
		case slices.Contains(statuses, explore.Violated):
			q.Status = explore.Violated
			q.Note = m.violationDetail(shards, i)
		case all(explore.NotChecked):
			q.Status, q.Note = explore.NotChecked, p.Note
		case all(explore.Holds) && complete:
			q.Status = explore.Holds
		}
		q.Holds = q.Status == explore.Holds
		if q.Status != explore.Violated && q.Status != explore.NotChecked {
			q.Note = mergedNote(e, shards, i, q.Status, m)
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
		if p := s.Properties[i]; p.Status == explore.Violated {
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
func mergedNote(e *env, shards []shardReport, i int, status explore.Status, m *report) string {
	name := shards[0].Properties[i].Name
	switch name {
	case invariants.Uniformity, invariants.MessageBound:
		p, _ := invariants.Lookup(name)
		f := invariants.Figures{N: m.N, UniformChecked: m.UniformChecked, UniformEvery: m.UniformEvery, MaxMessages: m.Messages.Max}
		if mach, ok := e.lookup(m.Algo); ok {
			f.Bound = mach.Info().Bound
		} else if name == invariants.MessageBound {
			// A protocol this elcheck does not know: its bound is
			// known only from the shards' notes.
			return ""
		}
		note, _ := p.Report(f)
		return note
	default:
		if status == explore.Holds {
			return shards[0].Properties[i].Note
		}
	}
	return ""
}
