package counterexamples

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// FormatVersion is the version of the JSON trace format. Version 2 added
// Edges, the network's channels; ReadFile still reads version 1, which has
// none and was only ever written for the one-way ring (the only network
// elcheck had), so its network follows from n. FileStep.Note, optional,
// came later within version 2: files without it read as before.
const FormatVersion = 2

// File is a trace as `-trace-out` writes it and `elcheck replay` reads it.
type File struct {
	Version  int    `json:"elcheck_trace"`
	Algo     string `json:"algo"`
	N        int    `json:"n"`
	Topology string `json:"topology"`
	Channels string `json:"channels"`
	// Capacity is the channels' capacity; omitted when unbounded.
	Capacity   int       `json:"capacity,omitempty"`
	IDs        []spec.ID `json:"ids"`
	Initiators []int     `json:"initiators"`
	// Edges are the channels of the network the trace ran on, in the
	// explorer's order: replay refuses to run it on another network.
	Edges    []FileEdge `json:"edges,omitempty"`
	Property string     `json:"property"`
	Detail   string     `json:"detail"`
	// Worst marks a message-bound trace that records no violation but
	// the execution with the most messages elcheck bounds found, within
	// the declared bound (-worst-out); omitted otherwise.
	Worst    bool        `json:"worst,omitempty"`
	LoopAt   int         `json:"loop_at"`
	Steps    []FileStep  `json:"steps"`
	Messages int         `json:"messages"`
	Final    []FileLocal `json:"final,omitempty"`
}

// FileStep is one step: a wake-up, or the delivery of a message to a
// process on one of its ports. Text repeats it for a person, and Note is
// the protocol's note on why the step did what it did (omitted when it has
// none; replay recomputes notes, so it reads no note from a file).
type FileStep struct {
	Event   string       `json:"event"`
	Process int          `json:"process"`
	Port    int          `json:"port"`
	From    int          `json:"from"`
	Message *FileMessage `json:"message,omitempty"`
	// Choice is the alternatives the step took at its choice points
	// (spec.Outbox.Choose), as "2" or "2.0.1"; omitted if it chose none.
	Choice string `json:"choice,omitempty"`
	Text   string `json:"text"`
	Note   string `json:"note,omitempty"`
}

// FileEdge is one channel: from a process's port to a process's port.
type FileEdge struct {
	From     int `json:"from"`
	FromPort int `json:"from_port"`
	To       int `json:"to"`
	ToPort   int `json:"to_port"`
}

// Edges lists top's channels as a trace file records them.
func Edges(top spec.Topology) []FileEdge {
	es := make([]FileEdge, len(top.Edges))
	for k, e := range top.Edges {
		es[k] = FileEdge{e.From.Node, int(e.From.Port), e.To.Node, int(e.To.Port)}
	}
	return es
}

// FileMessage is a message with its kind by name.
type FileMessage struct {
	Kind string   `json:"kind"`
	ID   spec.ID  `json:"id"`
	Arg  [2]int32 `json:"arg"`
}

// FileLocal is one process's final local state, for a person.
type FileLocal struct {
	Process int     `json:"process"`
	ID      spec.ID `json:"id"`
	State   string  `json:"state"`
}

// ToFile converts a rebuilt trace to its JSON form.
func (t *Trace) ToFile() *File {
	f := &File{Version: FormatVersion, Algo: t.Algo, N: t.Config.Topology.N, Topology: t.Config.Topology.Kind.String(),
		Channels: t.Config.Channels.String(), Capacity: t.Config.Capacity, IDs: t.Config.IDs, Initiators: t.Config.Initiators.Members(),
		Edges: Edges(t.Config.Topology), Property: t.Property, Detail: t.Detail, Worst: t.Worst, LoopAt: t.LoopAt, Steps: []FileStep{}}
	for _, st := range t.Steps {
		a := st.Action
		fs := FileStep{Event: a.Kind.String(), Process: a.Proc, From: -1, Choice: a.Choice.String(), Text: t.describe(a), Note: st.Note}
		if a.Kind == spec.Deliver {
			ed := t.Config.Topology.Edges[a.Edge]
			fs.Port, fs.From = int(ed.To.Port), ed.From.Node
			fs.Message = &FileMessage{Kind: t.sys.Info.Messages[a.Msg.Kind], ID: a.Msg.ID, Arg: a.Msg.Arg}
		}
		f.Messages += len(st.Sends)
		f.Steps = append(f.Steps, fs)
	}
	for i, l := range t.Final().Locals {
		f.Final = append(f.Final, FileLocal{i, t.Config.IDs[i], t.sys.Machine.Format(l)})
	}
	return f
}

// WriteFile writes the trace as indented JSON.
func (t *Trace) WriteFile(path string) error {
	b, err := json.MarshalIndent(t.ToFile(), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadFile reads a JSON trace.
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(b, path)
}

// ParseFile reads a JSON trace from b; name says where it came from, in
// errors (a path, or "the upload").
func ParseFile(b []byte, name string) (*File, error) {
	b = TrimBOM(b)
	var report struct {
		Version int `json:"elcheck_report"`
	}
	if json.Unmarshal(b, &report) == nil && report.Version != 0 {
		// verify -format=json's, easily mixed up with a trace.
		return nil, fmt.Errorf("%s is a report (verify -format=json), not a trace: write the trace with verify -trace-out=FILE", name)
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s is not an elcheck trace: %v", name, err)
	}
	if f.Version < 1 || f.Version > FormatVersion {
		return nil, fmt.Errorf("%s: trace format version %d, this elcheck reads versions 1 to %d", name, f.Version, FormatVersion)
	}
	return &f, nil
}

// TrimBOM drops the UTF-8 byte-order mark that some editors and shells
// (Notepad, Windows PowerShell's Out-File -Encoding utf8) put at the start
// of a file, and that encoding/json refuses ("invalid character 'ï'"):
// every JSON file elcheck reads, trace or shard report, goes through it.
func TrimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\uFEFF")) }

// Config rebuilds the configuration a trace file runs in.
func (f *File) Config(m spec.Machine) (spec.Config, error) {
	info := m.Info()
	kind, err := spec.ParseTopologyKind(f.Topology)
	if err != nil || !slices.Contains(info.Topology.Families(), kind) {
		return spec.Config{}, fmt.Errorf("the trace runs on a %s but %s runs on a %s", f.Topology, info.Name, info.Topology)
	}
	if f.N < 1 || f.N > 64 || len(f.IDs) != f.N {
		return spec.Config{}, fmt.Errorf("the trace has n=%d and %d ids", f.N, len(f.IDs))
	}
	if err := spec.CheckIDs(f.IDs); err != nil {
		return spec.Config{}, fmt.Errorf("the trace's ids: %v", err)
	}
	ch, err := spec.ParseChannels(f.Channels)
	if err != nil {
		return spec.Config{}, err
	}
	top, err := f.network(kind)
	if err != nil {
		return spec.Config{}, err
	}
	var init spec.Set
	for _, p := range f.Initiators {
		if p < 0 || p >= f.N {
			return spec.Config{}, fmt.Errorf("initiator %d is not a position 0..%d", p, f.N-1)
		}
		init = init.With(p)
	}
	if f.Capacity < 0 {
		return spec.Config{}, fmt.Errorf("the trace has channel capacity %d", f.Capacity)
	}
	return spec.Config{Topology: top, IDs: f.IDs, Initiators: init, Channels: ch, Capacity: f.Capacity}, nil
}

// network returns the instance of family k with f.N processes whose
// channels are the file's, or an error saying why none is: a trace never
// runs silently on another network than the one it was found on.
func (f *File) network(k spec.TopologyKind) (spec.Topology, error) {
	if k.Linked() {
		return f.linked(k)
	}
	tops, err := spec.NewTopologies(k, f.N)
	if err != nil {
		return spec.Topology{}, err
	}
	if f.Version == 1 {
		// Version 1 recorded no channels: it was written for the one-way
		// ring only, which n determines.
		if k != spec.UniRing || len(tops) != 1 || f.Edges != nil {
			return spec.Topology{}, fmt.Errorf("a version-1 trace records no channels, and only a %v of n processes follows from n", spec.UniRing)
		}
		return tops[0], nil
	}
	if len(f.Edges) == 0 {
		return spec.Topology{}, fmt.Errorf("the trace records no channels (edges)")
	}
	for _, t := range tops {
		if slices.Equal(Edges(t), f.Edges) {
			return t, nil
		}
	}
	// Another numbering of the ports (verify -orientation=any), in the
	// form the search ran it: with its own symmetries and label.
	for _, t := range tops {
		nums, _ := t.Numberings()
		for _, r := range nums {
			if slices.Equal(Edges(r), f.Edges) {
				return r, nil
			}
		}
	}
	why := ""
	if len(tops) == 1 {
		want := Edges(tops[0])
		switch k := slices.IndexFunc(f.Edges, func(e FileEdge) bool { return !slices.Contains(want, e) }); {
		case len(want) != len(f.Edges):
			why = fmt.Sprintf(": it has %d channels, the network %d", len(f.Edges), len(want))
		case k >= 0:
			why = fmt.Sprintf(": channel %d is %s, which the network does not have", k, f.Edges[k])
		default:
			why = ": the same channels in another order"
		}
	}
	return spec.Topology{}, fmt.Errorf("the trace's channels are not those of the %v of %d processes%s", k, f.N, why)
}

// linked returns the network of two-way links of family k whose channels
// are the file's: the one spec.NewNetwork builds from the links they
// record (a->b then b->a, link by link), as verify built each instance
// of the family and a -graph network, or one of its numberings
// (-orientation=any), as the search ran it.
func (f *File) linked(k spec.TopologyKind) (spec.Topology, error) {
	var links [][2]int
	for e := 0; e < len(f.Edges); e += 2 {
		a := f.Edges[e]
		if e+1 == len(f.Edges) || f.Edges[e+1].From != a.To || f.Edges[e+1].To != a.From {
			return spec.Topology{}, fmt.Errorf("the trace's channel %d (%s) is not followed by its way back: not a network of two-way links", e, a)
		}
		links = append(links, [2]int{a.From, a.To})
	}
	t, err := spec.NewNetwork(k, f.N, links)
	if err != nil {
		return spec.Topology{}, fmt.Errorf("the trace's channels are not a %v: %v", k, err)
	}
	if slices.Equal(Edges(t), f.Edges) {
		return t, nil
	}
	nums, err := t.Numberings()
	if err != nil {
		return spec.Topology{}, err
	}
	for _, r := range nums {
		if slices.Equal(Edges(r), f.Edges) {
			return r, nil
		}
	}
	return spec.Topology{}, fmt.Errorf("the trace's ports are not a numbering of the %v %s that elcheck explores", k, t.Label)
}

// String renders the channel as from:port->to:port.
func (e FileEdge) String() string {
	return fmt.Sprintf("%d:%d->%d:%d", e.From, e.FromPort, e.To, e.ToPort)
}

// Violation turns the file back into the violation it records, checking
// that every step names a process, port and message kind that exist.
func (f *File) Violation(m spec.Machine) (*explore.Violation, error) {
	cfg, err := f.Config(m)
	if err != nil {
		return nil, err
	}
	// No property: an execution that breaks nothing (one being explored
	// step by step, as the web page does).
	if _, ok := invariants.Lookup(f.Property); !ok && f.Property != "" {
		return nil, fmt.Errorf("the trace breaks %q, which is not a property elcheck checks (elcheck list)", f.Property)
	}
	if f.LoopAt < -1 || f.LoopAt > len(f.Steps) {
		return nil, fmt.Errorf("the trace's loop starts after step %d of %d", f.LoopAt, len(f.Steps))
	}
	v := &explore.Violation{Property: f.Property, Detail: f.Detail, Config: cfg, LoopAt: f.LoopAt}
	kinds := m.Info().Messages
	for k, fs := range f.Steps {
		if fs.Process < 0 || fs.Process >= f.N {
			return nil, fmt.Errorf("step %d: no process %d", k+1, fs.Process)
		}
		a := explore.Action{Proc: fs.Process, Edge: -1}
		switch fs.Event {
		case "wake":
			a.Kind = spec.Wake
		case "deliver":
			a.Kind = spec.Deliver
			a.Edge = slices.IndexFunc(cfg.Topology.Edges, func(e spec.Edge) bool {
				return e.To == spec.Endpoint{Node: fs.Process, Port: spec.Port(fs.Port)}
			})
			if a.Edge < 0 || fs.Message == nil {
				return nil, fmt.Errorf("step %d: process %d has no in-port %d, or the message is missing", k+1, fs.Process, fs.Port)
			}
			kind := slices.Index(kinds, fs.Message.Kind)
			if kind < 0 {
				return nil, fmt.Errorf("step %d: %s has no message kind %q (it has %v)", k+1, m.Info().Name, fs.Message.Kind, kinds)
			}
			a.Msg = spec.Message{Kind: spec.Kind(kind), ID: fs.Message.ID, Arg: fs.Message.Arg}
		default:
			return nil, fmt.Errorf("step %d: unknown event %q (wake or deliver)", k+1, fs.Event)
		}
		if fs.Choice != "" {
			c, err := parseChoice(fs.Choice)
			if err != nil {
				return nil, fmt.Errorf("step %d: %v", k+1, err)
			}
			a.Choice = c
		}
		v.Trace = append(v.Trace, a)
	}
	return v, nil
}

// Outcome is what replaying a trace showed.
type Outcome struct {
	// Confirmed is true when the recorded violation occurs again.
	Confirmed bool
	// Within is true when a Worst trace runs again within the bound, as
	// recorded: neither a violation nor a failure to reproduce one.
	Within bool
	// Unchecked is true when the property is not one a replay can re-check
	// (it relates several executions or searches): nothing is established.
	Unchecked bool
	// Why says what was seen, in one line.
	Why   string
	Trace *Trace
}

// Replay re-executes a trace file with m and checks that it ends in the
// violation it records. An error means the trace does not fit the
// protocol (a step not enabled, an unknown kind).
func Replay(f *File, m spec.Machine) (Outcome, error) {
	if f.Algo != m.Info().Name {
		return Outcome{}, fmt.Errorf("the trace is of %s, not %s", f.Algo, m.Info().Name)
	}
	v, err := f.Violation(m)
	if err != nil {
		return Outcome{}, err
	}
	t, err := Rebuild(m, v)
	if err != nil {
		return Outcome{}, err
	}
	t.Worst = f.Worst && f.Property == invariants.MessageBound
	return judge(t), nil
}

// judge decides whether the rebuilt trace ends in its recorded violation,
// as its property's row says a trace confirms it (invariants.Confirm); a
// trace that breaks no property (one being explored step by step) is
// judged by its last state.
func judge(t *Trace) Outcome {
	p, _ := invariants.Lookup(t.Property)
	r := replayed{t: t, sy: t.System(), final: t.Final()}
	r.terminal = len(r.sy.Enabled(&r.final, nil)) == 0
	o := confirmations[p.Confirm](&r)
	o.Trace = t
	return o
}

// replayed is a rebuilt trace with what its confirmations read: its
// system, its last state and whether that state is terminal.
type replayed struct {
	t        *Trace
	sy       *explore.System
	final    explore.State
	terminal bool
}

// confirmations holds, for each way a trace confirms a violation
// (invariants.Confirm), the replay that carries it out: a table read,
// never written.
var confirmations = [...]func(r *replayed) Outcome{
	invariants.ByState:       (*replayed).byState,
	invariants.ByCycle:       (*replayed).byCycle,
	invariants.ByLastStep:    (*replayed).byLastStep,
	invariants.ByMessages:    (*replayed).byMessages,
	invariants.ByRelabelling: (*replayed).byRelabelling,
	invariants.ByDeadlock:    (*replayed).byDeadlock,
	invariants.NotByTrace:    (*replayed).relatesExecutions,
}

// byState: the last state breaks the property, among the checks of every
// state or, where nothing is enabled, of a terminal state.
func (r *replayed) byState() Outcome {
	chk := invariants.NewChecker(r.sy.Info, r.t.Config)
	view := r.sy.View(&r.final, nil)
	if v := chk.Always(view); v != nil && v.Property == r.t.Property {
		return Outcome{Confirmed: true, Why: v.Detail}
	}
	if r.terminal {
		if v := chk.AtEnd(view); v != nil && v.Property == r.t.Property {
			return Outcome{Confirmed: true, Why: v.Detail}
		}
	}
	return Outcome{Why: "the trace runs, but its last state does not violate " + r.t.Property}
}

// byCycle: the loop returns to the state it left; without a loop, by
// state.
func (r *replayed) byCycle() Outcome {
	t := r.t
	if t.LoopAt < 0 {
		return r.byState()
	}
	back := t.Initial
	if t.LoopAt > 0 && t.LoopAt <= len(t.Steps) {
		back = t.Steps[t.LoopAt-1].State
	}
	if len(t.Steps) > t.LoopAt && string(back.Encode(nil)) == string(r.final.Encode(nil)) {
		return Outcome{Confirmed: true, Why: fmt.Sprintf("steps %d to %d return to the state after step %d: the execution can repeat them forever", t.LoopAt+1, len(t.Steps), t.LoopAt)}
	}
	return Outcome{Why: "the last state is not the state the loop should return to"}
}

// byLastStep: the last step panics again, or is not a function of its
// input.
func (r *replayed) byLastStep() Outcome {
	if len(r.t.Steps) == 0 {
		// Found by comparing two searches of the configuration, or a
		// path that did not replay from its first step.
		return Outcome{Unchecked: true, Why: "a finding with no step relates two runs of the search; run `elcheck verify` again to re-check it"}
	}
	prev, last := r.lastStep()
	if _, _, err := r.sy.Apply(&prev, last); err != nil && err.Property == r.t.Property {
		return Outcome{Confirmed: true, Why: err.Detail}
	}
	if err := r.sy.CheckPurity(&prev, last); err != nil && err.Property == r.t.Property {
		return Outcome{Confirmed: true, Why: err.Detail}
	}
	return Outcome{Why: "the last step ran normally"}
}

// lastStep returns the state before the trace's last step, which it has,
// and that step's action.
func (r *replayed) lastStep() (explore.State, explore.Action) {
	steps := r.t.Steps
	prev := r.t.Initial
	if len(steps) > 1 {
		prev = steps[len(steps)-2].State
	}
	return prev, steps[len(steps)-1].Action
}

// byMessages: the execution ends and sends more messages than the
// declared bound; a Worst trace within it is Within.
func (r *replayed) byMessages() Outcome {
	sent := 0
	for _, st := range r.t.Steps {
		sent += len(st.Sends)
	}
	b, n := r.sy.Info.Bound, r.t.Config.Topology.N
	switch {
	case !r.terminal:
		return Outcome{Why: "the trace does not end in a final state"}
	case b.Max == nil:
		return Outcome{Why: "the protocol declares no bound"}
	case sent > b.Max(n):
		return Outcome{Confirmed: true, Why: fmt.Sprintf("the execution sends %d messages, more than %s = %d", sent, b.Formula, b.Max(n))}
	}
	return Outcome{Within: r.t.Worst, Why: fmt.Sprintf("the execution sends %d messages, within %s = %d", sent, b.Formula, b.Max(n))}
}

// byRelabelling: found at a step (the per-step check), or at the initial
// states; else by exploring the configuration relabelled, which relates
// several executions, as uniformity does.
func (r *replayed) byRelabelling() Outcome {
	seed := explore.DefaultOptions().ComparisonSeed
	switch {
	case len(r.t.Steps) > 0:
		prev, last := r.lastStep()
		if err := r.sy.CheckRelabelled(&prev, last, seed); err != nil && err.Property == r.t.Property {
			return Outcome{Confirmed: true, Why: err.Detail}
		}
		return Outcome{Why: "the last step commutes with the relabellings of its ids"}
	case strings.HasPrefix(r.t.Detail, "Init of"):
		if d := r.sy.CheckInitRelabelled(seed); d != "" {
			return Outcome{Confirmed: true, Why: d}
		}
		return Outcome{Why: "the initial states commute with the relabellings of the ids"}
	}
	return r.relatesExecutions()
}

// byDeadlock: the trace ends with a blocked process and nothing enabled.
func (r *replayed) byDeadlock() Outcome {
	if d := r.sy.Deadlock(&r.final); r.terminal && d != "" {
		return Outcome{Confirmed: true, Why: d}
	}
	return Outcome{Why: "the trace does not end with a blocked process and nothing enabled"}
}

// relatesExecutions: nothing a trace can re-check.
func (r *replayed) relatesExecutions() Outcome {
	return Outcome{Unchecked: true, Why: r.t.Property + " relates several executions; run `elcheck verify` again to re-check it"}
}

// parseChoice reads a step's choice as FileStep.Choice writes it: "2" or
// "2.0.1".
func parseChoice(s string) (spec.Choice, error) {
	var alts []int
	for _, f := range strings.Split(s, ".") {
		a, err := strconv.Atoi(f)
		if err != nil {
			return 0, fmt.Errorf("choice %q: not numbers separated by dots", s)
		}
		alts = append(alts, a)
	}
	c, ok := spec.PackChoice(alts)
	if !ok {
		return 0, fmt.Errorf("choice %q: at most %d alternatives, each in 0..%d", s, spec.MaxChoices, spec.MaxAlternatives-1)
	}
	return c, nil
}
