package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/elcheck/elcheck"
	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// serve starts the page for the named protocol on every configuration of
// n processes, narrowed by narrow if given.
func serve(t *testing.T, m spec.Machine, n int, narrow func(*configs.Space)) *httptest.Server {
	t.Helper()
	space, err := configs.NewSpace(m.Info().Topology, n)
	if err != nil {
		t.Fatal(err)
	}
	space.Channels = m.Info().Channels
	if narrow != nil {
		narrow(&space)
	}
	s, err := New(m, space)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func lookup(t *testing.T, name string) spec.Machine {
	t.Helper()
	m, ok := protocols.Lookup(name)
	if !ok {
		t.Fatalf("no protocol %s", name)
	}
	return m
}

// get requests url and decodes the JSON answer into v, returning the
// status.
func get(t *testing.T, method, url, body string, v any) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a hang guard only
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b)
		}
	}
	return r.StatusCode
}

func TestErrors(t *testing.T) {
	ts := serve(t, lookup(t, "cr"), 3, nil)
	big := strings.Repeat("0,", MaxPath) + "0"
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"unknown event", "GET", "/api/state?path=7", "", 400, "chooses event 7, but the events enabled after step 0 are 0 to 2"},
		{"negative event", "GET", "/api/state?path=-1", "", 400, "chooses event -1"},
		{"event after the end", "GET", "/api/state?ids=1,2,3&init=0&path=" + strings.Repeat("0,", 40) + "0", "", 400, "no event is enabled after step"},
		{"not a number", "GET", "/api/state?path=x", "", 400, `path: "x" is not a number`},
		{"path too long", "GET", "/api/state?path=" + big, "", 400, fmt.Sprintf("the page follows at most %d", MaxPath)},
		{"huge n", "GET", "/api/state?ids=" + strings.TrimSuffix(strings.Repeat("1,", 40), ","), "", 400, fmt.Sprintf("the page runs 1 to %d processes", MaxN)},
		{"repeated id", "GET", "/api/state?ids=1,1,2", "", 400, "ids=1,1,2: id 1 is repeated: ids must be distinct"},
		{"id out of range", "GET", "/api/state?ids=0,1,2", "", 400, "ids=0,1,2: id 0 is out of range: ids are 1 to 2147483647"},
		// A configuration is validated as elcheck verify validates it
		// (configs.ParseIDs, ParseInitiators), in its words.
		{"no initiator", "GET", "/api/state?init=", "", 400, "init= is empty: give positions, e.g. init=0,2, or all: a configuration has at least one initiator"},
		{"blank initiators", "GET", "/api/state?init=%20", "", 400, "init=  is empty"},
		{"initiator out of range", "GET", "/api/state?init=5", "", 400, "init=5: 5 is not a position; positions are 0 to 2"},
		{"negative initiator", "GET", "/api/state?init=0,-1", "", 400, "init=0,-1: -1 is not a position; positions are 0 to 2"},
		{"initiator past int64", "GET", "/api/state?init=99999999999999999999", "", 400, "init=99999999999999999999: 99999999999999999999 is not a position; positions are 0 to 2"},
		{"initiator twice", "GET", "/api/state?init=1,1", "", 400, "init=1,1: position 1 is given twice"},
		{"initiator not a number", "GET", "/api/state?init=0,x", "", 400, `init=0,x: "x" is not a number; write a comma-separated list like 3,1,2`},
		{"initiators of another n", "GET", "/api/state?ids=1,2&init=2", "", 400, "init=2: 2 is not a position; positions are 0 to 1"},
		{"no ids", "GET", "/api/state?ids=", "", 400, "ids= is empty: give one id per position, e.g. ids=3,1,2"},
		{"id past MaxID", "GET", "/api/state?ids=2147483648,2,3", "", 400, "ids=2147483648,2,3: id 2147483648 is out of range: ids are 1 to 2147483647"},
		{"id past int64", "GET", "/api/state?ids=99999999999999999999,2,3", "", 400, "ids=99999999999999999999,2,3: id 99999999999999999999 is out of range"},
		{"negative id", "GET", "/api/state?ids=-1,2,3", "", 400, "ids=-1,2,3: id -1 is out of range"},
		{"id not a number", "GET", "/api/state?ids=1,x,3", "", 400, `ids=1,x,3: "x" is not a number`},
		{"bad network", "GET", "/api/state?net=9", "", 400, "net: 9"},
		{"bad channels", "GET", "/api/state?ch=lossy", "", 400, "use fifo or bag"},
		{"malformed trace", "POST", "/api/trace", "{not json", 400, "the upload is not an elcheck trace"},
		{"empty trace", "POST", "/api/trace", "", 400, "the upload is not an elcheck trace"},
		{"trace of another protocol", "POST", "/api/trace", `{"elcheck_trace":2,"algo":"dkr","n":3}`, 400, "the trace is of dkr, but this page runs cr"},
		{"trace version", "POST", "/api/trace", `{"elcheck_trace":9,"algo":"cr"}`, 400, "trace format version 9"},
		{"trace of huge n", "POST", "/api/trace", `{"elcheck_trace":2,"algo":"cr","n":40}`, 400, "the trace has n=40"},
		{"trace not fitting", "POST", "/api/trace", `{"elcheck_trace":2,"algo":"cr","n":3,"topology":"unidirectional ring","channels":"fifo","ids":[1,2,3],"initiators":[0],"edges":[{"from":0,"from_port":0,"to":1,"to_port":0},{"from":1,"from_port":0,"to":2,"to_port":0},{"from":2,"from_port":0,"to":0,"to_port":0}],"steps":[{"event":"wake","process":1}]}`, 400, "step 1 is not enabled"},
		{"trace too large", "POST", "/api/trace", strings.Repeat(" ", maxUpload+1), 400, "larger than"},
		{"unknown API", "GET", "/api/nothing", "", 400, "no API GET /api/nothing"},
		{"wrong method", "POST", "/api/state", "", 400, "no API POST /api/state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var e apiError
			if got := get(t, tc.method, ts.URL+tc.path, tc.body, &e); got != tc.status || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%s %s: %d %q, want %d and %q", tc.method, tc.path, got, e.Error, tc.status, tc.want)
			}
		})
	}
}

// TestOwnFilesOnly: the page serves its three files and the API, nothing
// else: no directory listing, no path taken from the request.
func TestOwnFilesOnly(t *testing.T) {
	ts := serve(t, lookup(t, "cr"), 3, nil)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/", 200}, {"/app.js", 200}, {"/style.css", 200},
		{"/index.html", 404}, {"/static/", 404}, {"/static/app.js", 404}, {"/../go.mod", 404}, {"/web.go", 404}, {"/server.go", 404},
	} {
		r, err := http.Get(ts.URL + tc.path) // after any redirect

		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != tc.status {
			t.Errorf("GET %s: %d, want %d", tc.path, r.StatusCode, tc.status)
		}
	}
}

// TestPanicIsAnError: a panic while answering (here a protocol's Init)
// is a JSON error with status 500, and the server goes on serving.
func TestPanicIsAnError(t *testing.T) {
	ts := serve(t, spec.Erase(fixtures.BadInit{}), 3, func(sp *configs.Space) { sp.IDs = []spec.ID{1, 3, 4} })
	var e apiError
	if got := get(t, "GET", ts.URL+"/api/state?ids=1,2,3", "", &e); got != 500 || !strings.Contains(e.Error, "internal error") {
		t.Errorf("Init panics: %d %q, want 500 and an internal error", got, e.Error)
	}
	var st State
	if got := get(t, "GET", ts.URL+"/api/state?ids=1,3,4&path=0", "", &st); got != 200 || len(st.Steps) != 1 {
		t.Errorf("after a panic: %d, %d steps", got, len(st.Steps))
	}
}

// TestStates steps through a configuration: labels as the text trace's,
// channels in order, decisions, properties, the chart.
func TestStates(t *testing.T) {
	ts := serve(t, lookup(t, "cr"), 3, nil)
	var st State
	if got := get(t, "GET", ts.URL+"/api/state?ids=3,1,2&init=0&path=0,0", "", &st); got != 200 {
		t.Fatalf("status %d", got)
	}
	want := []string{"p0 (id 3) wakes up", "p1 (id 1) receives probe(3) from p0"}
	// p1 wakes on the probe: it sends its own, then passes probe(3) on.
	if !slices.Equal(st.Steps, want) {
		t.Errorf("steps %q, want %q", st.Steps, want)
	}
	if got := st.Edges[1].Messages; !slices.Equal(got, []string{"probe(1)", "probe(3)"}) {
		t.Errorf("channel p1->p2 holds %q, want [probe(1) probe(3)], head first", got)
	}
	if len(st.Enabled) != 1 || st.Enabled[0].Label != "p2 (id 2) receives probe(1) from p1" {
		t.Errorf("enabled %+v", st.Enabled)
	}
	if st.Messages != 3 || st.Terminal || !strings.Contains(st.Chart, "<svg") {
		t.Errorf("messages %d, terminal %v, chart %.40q", st.Messages, st.Terminal, st.Chart)
	}
	// To the end: p0 is leader, every property judged on one state holds.
	path := "0,0"
	for !st.Terminal {
		path += ",0"
		if got := get(t, "GET", ts.URL+"/api/state?ids=3,1,2&init=0&path="+path, "", &st); got != 200 {
			t.Fatalf("status %d", got)
		}
	}
	if st.Processes[0].Decision != "leader" {
		t.Errorf("p0 is %s at the end", st.Processes[0].Decision)
	}
	for _, p := range st.Properties {
		if p.Status != "holds" && p.Status != "n/a" {
			t.Errorf("%s: %s (%s) at the end of a correct run", p.Name, p.Status, p.Detail)
		}
	}
}

// TestJumps: the counterexample is Verify's, the worst execution has the
// most messages bounds measures, an uploaded trace is its own path; each
// path leads to the state it claims.
func TestJumps(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		algo string
		n    int
	}{{"cr-flip", 4}, {"lelann-flip", 3}} {
		m := lookup(t, tc.algo)
		ts := serve(t, m, tc.n, nil)
		rep, err := elcheck.Verify(ctx, m, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		var j Jump
		if got := get(t, "GET", ts.URL+"/api/counterexample", "", &j); got != 200 || !j.Found {
			t.Fatalf("%s: %d %+v", tc.algo, got, j)
		}
		cex := rep.Counterexample
		if j.Property != rep.Verdict.Property || len(j.Path) != len(cex.Steps) {
			t.Errorf("%s: jump to %s in %d steps, Verify %s in %d", tc.algo, j.Property, len(j.Path), rep.Verdict.Property, len(cex.Steps))
		}
		st := followJump(t, ts, j)
		if st.Config != cex.Config.String() || !violated(st, j.Property) {
			t.Errorf("%s: the jump ends in %s with %+v", tc.algo, st.Config, st.Properties)
		}
		// One step past the violation: the chart says since when.
		if len(st.Enabled) > 0 {
			j2 := j
			j2.Path = append(slices.Clone(j.Path), 0)
			if st2 := followJump(t, ts, j2); !strings.Contains(st2.Chart, fmt.Sprintf("%s is violated since step %d", j.Property, len(j.Path))) {
				t.Errorf("%s: one step past the violation, the chart does not say since when", tc.algo)
			}
		}
		// The same trace, uploaded, is the same jump.
		b, err := json.Marshal(cex.ToFile())
		if err != nil {
			t.Fatal(err)
		}
		var up Jump
		if got := get(t, "POST", ts.URL+"/api/trace", string(b), &up); got != 200 || up.Query != j.Query || !slices.Equal(up.Path, j.Path) {
			t.Errorf("%s: upload %d %+v, want %+v", tc.algo, got, up, j)
		}
	}

	m := lookup(t, "cr")
	ts := serve(t, m, 4, nil)
	space, _ := configs.NewSpace(spec.UniRing, 4)
	row := bounds.Measure(ctx, m, space, bounds.DefaultCheck())
	var j Jump
	if got := get(t, "GET", ts.URL+"/api/worst", "", &j); got != 200 || !j.Found || j.Property != "" {
		t.Fatalf("worst: %d %+v", got, j)
	}
	if st := followJump(t, ts, j); int64(st.Messages) != row.Stats[0].Max || !st.Terminal {
		t.Errorf("the worst execution sends %d messages (terminal %v), bounds measures %d", st.Messages, st.Terminal, row.Stats[0].Max)
	}
	// The file bounds -worst-out writes is the same jump.
	worst, err := counterexamples.Rebuild(m, row.Worst)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(worst.ToFile())
	if err != nil {
		t.Fatal(err)
	}
	var up Jump
	if got := get(t, "POST", ts.URL+"/api/trace", string(b), &up); got != 200 || up.Query != j.Query || !slices.Equal(up.Path, j.Path) {
		t.Errorf("the worst execution uploaded: %d %+v, want %+v", got, up, j)
	}
	if got := get(t, "GET", ts.URL+"/api/counterexample", "", &j); got != 200 || j.Found || !strings.Contains(j.Note, "no counterexample") {
		t.Errorf("cr has a counterexample: %d %+v", got, j)
	}
}

// TestTwoWayRing: under -orientation=any the counterexample runs on a
// renumbered network, which the query names by its index.
func TestTwoWayRing(t *testing.T) {
	m := spec.Erase(fixtures.Clockwise{})
	ts := serve(t, m, 3, func(sp *configs.Space) {
		if err := sp.AnyPorts(); err != nil {
			t.Fatal(err)
		}
	})
	var j Jump
	if got := get(t, "GET", ts.URL+"/api/counterexample", "", &j); got != 200 || !j.Found || j.Property != "validity" {
		t.Fatalf("%d %+v", got, j)
	}
	st := followJump(t, ts, j)
	if len(st.Edges) != 6 || st.Network == "" || !violated(st, "validity") {
		t.Errorf("%d channels, network %q, properties %+v", len(st.Edges), st.Network, st.Properties)
	}
}

func followJump(t *testing.T, ts *httptest.Server, j Jump) State {
	t.Helper()
	var ps []string
	for _, k := range j.Path {
		ps = append(ps, fmt.Sprint(k))
	}
	var st State
	if got := get(t, "GET", ts.URL+"/api/state?"+j.Query+"&path="+url.QueryEscape(strings.Join(ps, ",")), "", &st); got != 200 {
		t.Fatalf("status %d", got)
	}
	return st
}

func violated(st State, name string) bool {
	return slices.ContainsFunc(st.Properties, func(p PropertyStatus) bool { return p.Name == name && p.Status == "violated" })
}

func TestNewRefusesHugeN(t *testing.T) {
	space, _ := configs.NewSpace(spec.UniRing, MaxN+1)
	if _, err := New(lookup(t, "cr"), space); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("1 to %d", MaxN)) {
		t.Errorf("n=%d: %v", MaxN+1, err)
	}
}

// TestEndOfCounterexample: the state at the end of hs-oneway n=3's
// shortest counterexample (p0 and p1 lost, p2 undecided, nothing enabled)
// is judged as the search judges it: termination violated with Verify's
// words, and the properties the search did not reach after it not
// claimed to hold; one step before, the properties of a final state are
// pending.
func TestEndOfCounterexample(t *testing.T) {
	m := lookup(t, "hs-oneway")
	ts := serve(t, m, 3, nil)
	rep, err := elcheck.Verify(context.Background(), m, 3)
	if err != nil {
		t.Fatal(err)
	}
	var j Jump
	if got := get(t, "GET", ts.URL+"/api/counterexample", "", &j); got != 200 || !j.Found {
		t.Fatalf("%d %+v", got, j)
	}
	end := followJump(t, ts, j)
	if !end.Terminal || end.Config != rep.Counterexample.Config.String() {
		t.Fatalf("the jump ends in %s, terminal %v; Verify's counterexample is in %s", end.Config, end.Terminal, rep.Counterexample.Config)
	}
	before := j
	before.Path = j.Path[:len(j.Path)-1]
	prev := followJump(t, ts, before)
	for _, tc := range []struct {
		st             State
		name, status   string
		detailContains string
	}{
		{end, "termination", "violated", rep.Counterexample.Detail},
		{end, "exactly-one-leader", "unknown", "stops at the first violation"},
		{end, "agreement", "holds", ""}, // not every process must learn the leader: judged by Always alone
		{end, "at-most-one-leader", "holds", ""},
		{end, "validity", "holds", ""},
		{end, "decentralization", "n/a", ""},
		{end, "message-bound", "holds", "the execution sent"},
		{prev, "termination", "pending", ""},
		{prev, "exactly-one-leader", "pending", ""},
		{prev, "agreement", "holds", ""},
		{prev, "message-bound", "pending", "so far"},
	} {
		i := slices.IndexFunc(tc.st.Properties, func(p PropertyStatus) bool { return p.Name == tc.name })
		if i < 0 {
			t.Errorf("after %d steps: no %s in %+v", len(tc.st.Steps), tc.name, tc.st.Properties)
			continue
		}
		if p := tc.st.Properties[i]; p.Status != tc.status || !strings.Contains(p.Detail, tc.detailContains) {
			t.Errorf("after %d steps: %s is %s (%s), want %s (%s)", len(tc.st.Steps), tc.name, p.Status, p.Detail, tc.status, tc.detailContains)
		}
	}
}
