package web

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// State is GET /api/state's answer: one global state of one configuration,
// reached by the path of event choices given, with what can happen next.
type State struct {
	Algo     string `json:"algo"`
	Topology string `json:"topology"`
	// Network is the topology's label ("" for the family's own numbering).
	Network  string `json:"network"`
	Channels string `json:"channels"`
	// Config is the configuration in one line, as the text trace gives it.
	Config string `json:"config"`
	// Query is the configuration as the API's query parameters, without
	// the path.
	Query     string    `json:"query"`
	Path      []int     `json:"path"`
	Processes []Process `json:"processes"`
	Edges     []Channel `json:"edges"`
	// Enabled are the events that can happen next, in the enabling rule's
	// order: choosing index k appends k to the path.
	Enabled []Event `json:"enabled"`
	// Steps are the path's events, as the text trace labels them.
	Steps      []string         `json:"steps"`
	Messages   int              `json:"messages"`
	Terminal   bool             `json:"terminal"`
	Properties []PropertyStatus `json:"properties"`
	// Failed is the step error of the path's last step (a panic in the
	// protocol), "" if none; nothing is enabled after it.
	Failed string `json:"failed,omitempty"`
	// Chart is the message-sequence chart of the path so far, in SVG.
	Chart string `json:"chart"`
}

// Process is one process in a state.
type Process struct {
	ID       spec.ID `json:"id"`
	State    string  `json:"state"`
	Decision string  `json:"decision"`
	// Leader is the leader id the process knows, 0 if none.
	Leader    spec.ID `json:"leader,omitempty"`
	Initiator bool    `json:"initiator"`
	// Asleep says the process is an initiator whose wake-up is pending.
	Asleep bool `json:"asleep"`
	// Held is what the process, blocked on a full channel (bounded
	// capacity), has still to send: "id(1) to p2"; empty if not blocked.
	Held []string `json:"held,omitempty"`
}

// Channel is one channel with its contents, the next to be delivered
// first (on a bag channel, any may be).
type Channel struct {
	From     int      `json:"from"`
	FromPort int      `json:"from_port"`
	To       int      `json:"to"`
	ToPort   int      `json:"to_port"`
	Messages []string `json:"messages"`
}

// Event is one enabled event.
type Event struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	Proc  int    `json:"process"`
	// Edge is the channel a delivery takes from, -1 for a wake-up.
	Edge int `json:"edge"`
}

// PropertyStatus is a property's status in one state: an
// invariants.Status ("holds", "violated", "pending", "unknown", "n/a"),
// with the checker's words.
type PropertyStatus struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// request is a parsed state request: a configuration and a path.
type request struct {
	cfg  spec.Config
	net  int
	path []int
}

// query renders cfg as the API's query parameters (without the path).
func query(cfg spec.Config, net int) string {
	ids := make([]string, len(cfg.IDs))
	for i, id := range cfg.IDs {
		ids[i] = strconv.Itoa(int(id))
	}
	init := make([]string, 0, cfg.Initiators.Len())
	for _, p := range cfg.Initiators.Members() {
		init = append(init, strconv.Itoa(p))
	}
	v := url.Values{"ids": {strings.Join(ids, ",")}, "init": {strings.Join(init, ",")}, "net": {strconv.Itoa(net)}, "ch": {cfg.Channels.String()}}
	return v.Encode()
}

// parseInts reads a comma-separated list of integers ("" is none).
func parseInts(s, what string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %q is not a number; write a comma-separated list like 3,1,2", what, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseRequest reads a configuration and a path from q; a parameter left
// out takes the server's default configuration's value (or, for another
// n, the family's first network and every process initiating).
func (s *Server) parseRequest(q url.Values) (*request, error) {
	cfg := s.def
	if q.Has("ids") {
		s := q.Get("ids")
		// The page's limit first: it is what to change in a list too long.
		if k := len(strings.Split(s, ",")); k > MaxN {
			return nil, fmt.Errorf("ids=%s: %d ids: the page runs 1 to %d processes (larger networks are for elcheck verify)", s, k, MaxN)
		}
		// As elcheck verify -ids reads them, with its words.
		ids, err := configs.ParseIDs("ids", s)
		if err != nil {
			return nil, err
		}
		cfg.IDs = ids
	}
	n, same := len(cfg.IDs), len(cfg.IDs) == s.def.Topology.N
	net := 0
	if same {
		net = s.defNet
	}
	if q.Has("net") {
		k, err := strconv.Atoi(q.Get("net"))
		if err != nil {
			return nil, fmt.Errorf("net: %q is not a number", q.Get("net"))
		}
		net = k
	}
	top, err := s.network(n, net)
	if err != nil {
		return nil, err
	}
	cfg.Topology = top
	if !same {
		cfg.Initiators = spec.All(n)
	}
	if q.Has("init") {
		// As elcheck verify -initiators reads them, with its words.
		init, err := configs.ParseInitiators("init", q.Get("init"), n)
		if err != nil {
			return nil, err
		}
		cfg.Initiators = init
	}
	if q.Has("ch") {
		ch, err := spec.ParseChannels(q.Get("ch"))
		if err != nil {
			return nil, fmt.Errorf("ch=%s: use fifo or bag", q.Get("ch"))
		}
		cfg.Channels = ch
	}
	path, err := parseInts(q.Get("path"), "path")
	if err != nil {
		return nil, err
	}
	if len(path) > MaxPath {
		return nil, fmt.Errorf("path: %d steps: the page follows at most %d", len(path), MaxPath)
	}
	return &request{cfg: cfg, net: net, path: path}, nil
}

// network returns the k-th network of n processes of the protocol's
// family: its instances, then each instance's port numberings (the
// networks -orientation=any covers), so that a configuration found under
// any orientation has an index too.
func (s *Server) network(n, k int) (spec.Topology, error) {
	if n > MaxN {
		return spec.Topology{}, fmt.Errorf("n=%d: the page runs 1 to %d processes", n, MaxN)
	}
	tops, err := spec.NewTopologies(s.info.Topology, n)
	if err != nil {
		return spec.Topology{}, fmt.Errorf("%s cannot run on %d processes: %v", s.info.Name, n, err)
	}
	if k >= 0 && k < len(tops) {
		return tops[k], nil
	}
	i := len(tops)
	for _, t := range tops {
		nums, err := t.Numberings()
		if err != nil {
			continue
		}
		if k >= i && k < i+len(nums) {
			return nums[k-i], nil
		}
		i += len(nums)
	}
	return spec.Topology{}, fmt.Errorf("net: %d: the %v of %d has networks 0 to %d", k, s.info.Topology, n, i-1)
}

// networkIndex is the index network gives top, or -1.
func (s *Server) networkIndex(top spec.Topology) int {
	want := counterexamples.Edges(top)
	for k := 0; ; k++ {
		t, err := s.network(top.N, k)
		if err != nil {
			return -1
		}
		if slices.Equal(counterexamples.Edges(t), want) {
			return k
		}
	}
}

// walk takes the path's choices from the initial state and returns the
// actions taken.
func walk(sy *explore.System, path []int) ([]explore.Action, error) {
	acts, _, err := follow(sy, len(path), func(k int, en []explore.Action) (int, error) {
		switch i := path[k]; {
		case len(en) == 0:
			return 0, fmt.Errorf("path: step %d chooses event %d, but no event is enabled after step %d", k+1, i, k)
		case i < 0 || i >= len(en):
			return 0, fmt.Errorf("path: step %d chooses event %d, but the events enabled after step %d are 0 to %d", k+1, i, k, len(en)-1)
		}
		return path[k], nil
	})
	return acts, err
}

// choices turns actions into the path of event choices that takes them
// from the initial state: the inverse of walk, for a trace found by the
// checker or uploaded.
func choices(sy *explore.System, acts []explore.Action) ([]int, error) {
	_, path, err := follow(sy, len(acts), func(k int, en []explore.Action) (int, error) {
		if i := slices.Index(en, acts[k]); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("step %d is not enabled where the trace takes it", k+1)
	})
	return path, err
}

// follow takes steps events from sy's initial state, pick choosing each
// among the enabled ones, and returns the actions and choices. A step that
// fails (a panic in the protocol) must be the last.
func follow(sy *explore.System, steps int, pick func(k int, en []explore.Action) (int, error)) ([]explore.Action, []int, error) {
	s := sy.Initial()
	acts, path := make([]explore.Action, 0, steps), make([]int, 0, steps)
	for k := range steps {
		en := sy.Enabled(&s, nil)
		i, err := pick(k, en)
		if err != nil {
			return nil, nil, err
		}
		acts, path = append(acts, en[i]), append(path, i)
		next, _, serr := sy.Apply(&s, en[i])
		if serr != nil {
			if k != steps-1 {
				return nil, nil, fmt.Errorf("step %d fails (%s): no event follows it", k+1, serr.Detail)
			}
			break
		}
		s = next
	}
	return acts, path, nil
}

// state answers a state request.
func (s *Server) state(r *request) (*State, error) {
	sy := explore.NewSystem(s.m, r.cfg)
	acts, err := walk(sy, r.path)
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("the execution so far: %d steps", len(acts))
	t, err := counterexamples.Rebuild(s.m, &explore.Violation{Config: r.cfg, Trace: acts, LoopAt: -1, Detail: what})
	if err != nil {
		// walk has just taken these steps: the protocol's steps are not
		// functions of their input.
		return nil, fmt.Errorf("the path does not run again as it ran: %v (step-purity)", err)
	}
	top := r.cfg.Topology
	st := &State{
		Algo: s.info.Name, Topology: top.Kind.String(), Network: top.Label, Channels: r.cfg.Channels.String(),
		Config: r.cfg.String(), Query: query(r.cfg, r.net), Path: r.path, Steps: []string{}, Enabled: []Event{},
	}
	final := t.Final()
	for i, l := range final.Locals {
		d := s.m.Decision(l)
		st.Processes = append(st.Processes, Process{ID: r.cfg.IDs[i], State: s.m.Format(l), Decision: d.Status.String(),
			Leader: d.Leader, Initiator: r.cfg.Initiators.Has(i), Asleep: final.Wake.Has(i)})
	}
	for i, h := range final.Held {
		for _, snd := range h {
			to := top.Edges[sy.OutEdge(i, snd.Port)].To.Node
			st.Processes[i].Held = append(st.Processes[i].Held, fmt.Sprintf("%s to p%d", snd.Msg.Format(s.info.Messages), to))
		}
	}
	for e, ed := range top.Edges {
		c := Channel{From: ed.From.Node, FromPort: int(ed.From.Port), To: ed.To.Node, ToPort: int(ed.To.Port), Messages: []string{}}
		for _, m := range final.Chans[e] {
			c.Messages = append(c.Messages, m.Format(s.info.Messages))
		}
		st.Edges = append(st.Edges, c)
	}
	for _, step := range t.Steps {
		st.Steps = append(st.Steps, t.Describe(step.Action))
		st.Messages += len(step.Sends)
	}
	if n := len(t.Steps); n > 0 && n == len(acts) {
		if _, _, err := sy.Apply(stepBefore(t), t.Steps[n-1].Action); err != nil {
			st.Failed = err.Property + ": " + err.Detail
		}
	}
	if st.Failed == "" {
		for i, a := range sy.Enabled(&final, nil) {
			st.Enabled = append(st.Enabled, Event{Index: i, Label: t.Describe(a), Proc: a.Proc, Edge: a.Edge})
		}
	}
	st.Terminal = len(st.Enabled) == 0 && st.Failed == ""
	st.Properties = s.properties(sy, r.cfg, &final, st)
	markViolation(t, st)
	var b strings.Builder
	if err := t.WriteSVG(&b); err != nil {
		return nil, err
	}
	st.Chart = b.String()
	return st, nil
}

// markViolation makes the chart show the property the state violates: as
// a counterexample's chart when the last step broke it, else in the
// caption with the step that did.
func markViolation(t *counterexamples.Trace, st *State) {
	for _, p := range st.Properties {
		if p.Status != "violated" {
			continue
		}
		since := len(t.Steps)
		if p.Kind == invariants.Always.String() {
			chk := invariants.NewChecker(t.System().Info, t.Config)
			for since > 1 {
				prev := &t.Steps[since-2].State
				if v := chk.Always(t.System().View(prev, nil)); v == nil || v.Property != p.Name {
					break
				}
				since--
			}
		}
		if since == len(t.Steps) {
			t.Property, t.Detail = p.Name, p.Detail
		} else {
			t.Detail += fmt.Sprintf("; %s is violated since step %d: %s", p.Name, since, p.Detail)
		}
		return
	}
}

// stepBefore returns the state before t's last step.
func stepBefore(t *counterexamples.Trace) *explore.State {
	if len(t.Steps) < 2 {
		return &t.Initial
	}
	return &t.Steps[len(t.Steps)-2].State
}

// properties judges each property in one state with the checker the
// search uses (invariants.Checker.Judge): the state properties, those of
// a final state if no event is enabled, the message bound against the
// messages sent so far; and the breach of the contract of a failed step.
func (s *Server) properties(sy *explore.System, cfg spec.Config, final *explore.State, st *State) []PropertyStatus {
	deadlock := ""
	if st.Terminal {
		deadlock = sy.Deadlock(final)
	}
	var out []PropertyStatus
	for _, j := range invariants.NewChecker(s.info, cfg).Judge(sy.View(final, nil), st.Terminal, deadlock, st.Messages) {
		out = append(out, PropertyStatus{Name: j.Property.Name, Kind: j.Property.Kind.String(), Status: string(j.Status), Detail: j.Detail})
	}
	if st.Failed != "" {
		out = append(out, PropertyStatus{Name: strings.SplitN(st.Failed, ":", 2)[0], Kind: invariants.Contract.String(), Status: "violated", Detail: st.Failed})
	}
	return out
}
