// Package web is elcheck's explorer page: an HTTP handler that serves a
// page (plain HTML, CSS and a little JavaScript, embedded in the binary)
// on which a person steps through the executions of one protocol, and the
// small JSON API the page uses. The API is stateless: a request names the
// configuration and the path of event choices from its initial state, so
// going back and forward is the page changing the path. Every step is
// taken by explore.System, every property judged by invariants.Checker,
// every chart drawn by counterexamples: the page re-implements nothing.
//
// The API (every error is JSON {"error": "..."} with status 400, or 500
// for a fault of elcheck's own):
//
//	GET  /api/info                  the protocol, n, the default configuration's query
//	GET  /api/state?QUERY&path=...  one state (State); QUERY is ids, init, net, ch
//	GET  /api/counterexample        the shortest counterexample of the served space (Jump)
//	GET  /api/worst                 the execution with the most messages (Jump)
//	POST /api/trace                 a trace file (verify -trace-out), as a Jump
//	GET  /api/bounds                messages per n = 1..BoundsN against the declared bound (Bounds)
package web

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
)

// Limits of the page. The state API follows a path by replaying it from
// the initial state at every request, and the jumps search the served
// space while a person waits: both are for small networks.
const (
	// MaxN is the largest number of processes the page runs.
	MaxN = 8
	// MaxPath is the longest path of event choices a request may give.
	MaxPath = 2000
	// maxUpload is the largest trace file the page accepts.
	maxUpload = 4 << 20
)

// searchTime bounds a search of the jumps and of the bounds; a search cut
// short says so. A variable for the tests.
var searchTime = 2 * time.Minute

//go:embed static
var static embed.FS

// Server is the page and its API for one protocol and one space of
// configurations (the jumps search it; the default configuration is its
// first, with every process initiating unless the space fixes the
// initiators).
type Server struct {
	m      spec.Machine
	info   spec.Info
	space  configs.Space
	def    spec.Config
	defNet int
	mux    *http.ServeMux
	// cache holds the answers of the jumps and of the bounds: they depend
	// on the space only.
	mu    sync.Mutex
	cache map[string]any
}

// New returns the page for m on space (a space as elcheck verify checks
// it: ids and initiators fixed or not). It refuses a space of more than
// MaxN processes.
func New(m spec.Machine, space configs.Space) (*Server, error) {
	n := space.N()
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("n=%d: the page runs 1 to %d processes (larger networks are for elcheck verify)", n, MaxN)
	}
	s := &Server{m: m, info: m.Info(), space: space, mux: http.NewServeMux(), cache: map[string]any{}}
	for cfg := range space.Configs() {
		s.def = cfg
		break
	}
	if s.def.IDs == nil {
		return nil, fmt.Errorf("the space has no configuration")
	}
	if space.Initiators == 0 {
		s.def.Initiators = spec.All(n)
	}
	s.defNet = s.networkIndex(s.def.Topology)
	if s.defNet < 0 {
		return nil, fmt.Errorf("the default network (%s) is none of the %v's", s.def.Topology.Label, s.info.Topology)
	}
	files, err := fs.Sub(static, "static")
	if err != nil {
		return nil, err
	}
	s.mux.Handle("GET /{$}", fileHandler(files, "index.html"))
	for _, f := range []string{"app.js", "style.css"} {
		s.mux.Handle("GET /"+f, fileHandler(files, f))
	}
	s.mux.HandleFunc("GET /api/info", s.api(s.handleInfo))
	s.mux.HandleFunc("GET /api/state", s.api(s.handleState))
	s.mux.HandleFunc("GET /api/counterexample", s.api(s.handleCounterexample))
	s.mux.HandleFunc("GET /api/worst", s.api(s.handleWorst))
	s.mux.HandleFunc("POST /api/trace", s.api(s.handleTrace))
	s.mux.HandleFunc("GET /api/bounds", s.api(s.handleBounds))
	s.mux.HandleFunc("/api/", s.api(func(r *http.Request) (any, error) {
		return nil, fmt.Errorf("no API %s %s: see GET /api/info", r.Method, r.URL.Path)
	}))
	return s, nil
}

// ServeHTTP serves the page, its files and the API; any other path is 404.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// fileHandler serves one embedded file: the page serves its own files
// only, by name, never a directory listing or a path from the request.
func fileHandler(files fs.FS, name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, files, name)
	})
}

// apiError is an answer's error: Status 400 for the request's fault.
type apiError struct {
	Error string `json:"error"`
}

// api wraps a handler: its answer as JSON, an error as {"error"} with 400,
// a panic (a fault of elcheck's, or of the protocol outside a step) as
// {"error"} with 500, never a crash of the server.
func (s *Server) api(h func(*http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status := http.StatusOK
		var v any
		func() {
			defer func() {
				if p := recover(); p != nil {
					msg, _, _ := strings.Cut(fmt.Sprint(p), "\n")
					status, v = http.StatusInternalServerError, apiError{"internal error: " + msg + "; please report it"}
				}
			}()
			var err error
			if v, err = h(r); err != nil {
				status, v = http.StatusBadRequest, apiError{err.Error()}
			}
		}()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
}

// Info is GET /api/info's answer.
type Info struct {
	Algo     string `json:"algo"`
	Doc      string `json:"doc"`
	Bug      string `json:"bug,omitempty"`
	Winner   string `json:"winner"`
	Topology string `json:"topology"`
	N        int    `json:"n"`
	MaxN     int    `json:"max_n"`
	// Space says what the jumps search.
	Space string `json:"space"`
	// Query is the default configuration's query.
	Query string `json:"query"`
	// BoundsN is the largest n GET /api/bounds measures: n, at most
	// BoundsCap, the page's limit for this network family.
	BoundsN   int `json:"bounds_n"`
	BoundsCap int `json:"bounds_cap"`
}

func (s *Server) handleInfo(*http.Request) (any, error) {
	space := "every id placement up to symmetry"
	if s.space.IDs != nil {
		space = fmt.Sprintf("ids %v", s.space.IDs)
	}
	if s.space.Initiators != 0 {
		space += fmt.Sprintf(", initiators %v", s.space.Initiators.Members())
	} else {
		space += ", every non-empty initiator set"
	}
	if s.space.AnyNumbering {
		space += ", every port numbering"
	}
	return &Info{Algo: s.info.Name, Doc: s.info.Title, Bug: s.info.Bug, Winner: s.info.Winner.String(), Topology: s.info.Topology.String(),
		N: s.space.N(), MaxN: MaxN, Space: space, Query: query(s.def, s.defNet), BoundsN: s.boundsN(), BoundsCap: s.boundsCap()}, nil
}

func (s *Server) handleState(r *http.Request) (any, error) {
	req, err := s.parseRequest(r.URL.Query())
	if err != nil {
		return nil, err
	}
	return s.state(req)
}

// Jump is the answer of the jumps and of a trace upload: a configuration
// and the path to follow in it.
type Jump struct {
	// Found is false when there is nothing to jump to; Note says why.
	Found bool   `json:"found"`
	Note  string `json:"note"`
	Query string `json:"query,omitempty"`
	Path  []int  `json:"path,omitempty"`
	// Property is the property the execution breaks, "" if none.
	Property string `json:"property,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// jump answers a jump from its cache, or computes it. Concurrent requests
// for the same jump wait for one search rather than run two.
func (s *Server) jump(ctx context.Context, key string, find func(context.Context) (*Jump, error)) (*Jump, error) {
	v, err := s.cached(ctx, key, func(ctx context.Context) (any, error) { return find(ctx) })
	if err != nil {
		return nil, err
	}
	return v.(*Jump), nil
}

// cached answers a search from the cache, or runs it within searchTime,
// keeping the answer unless the search was cut short. One search runs at
// a time: concurrent requests wait rather than share the CPUs.
func (s *Server) cached(ctx context.Context, key string, find func(context.Context) (any, error)) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.cache[key]; ok {
		return v, nil
	}
	ctx, cancel := context.WithTimeout(ctx, searchTime)
	defer cancel()
	v, err := find(ctx)
	if err != nil {
		return nil, err
	}
	if ctx.Err() == nil {
		s.cache[key] = v
	}
	return v, nil
}

// toJump turns a violation's actions into a jump, checking that they run.
func (s *Server) toJump(v *explore.Violation, note string) (*Jump, error) {
	net := s.networkIndex(v.Config.Topology)
	if net < 0 {
		return nil, fmt.Errorf("the execution runs on a network the page cannot name")
	}
	path, err := choices(explore.NewSystem(s.m, v.Config), v.Trace)
	if err != nil {
		return nil, err
	}
	return &Jump{Found: true, Note: note, Query: query(v.Config, net), Path: path, Property: v.Property, Detail: v.Detail}, nil
}

func (s *Server) handleCounterexample(r *http.Request) (any, error) {
	return s.jump(r.Context(), "counterexample", func(ctx context.Context) (*Jump, error) {
		res := explore.Check(ctx, s.m, s.space, explore.DefaultOptions())
		if res.Internal != "" {
			what, _, _ := strings.Cut(res.Internal, "\n")
			panic("during the search: " + what)
		}
		v := res.Violation
		switch {
		case v == nil && res.Incomplete != "":
			return &Jump{Note: "the search stopped before finding a counterexample: " + res.Incomplete}, nil
		case v == nil:
			return &Jump{Note: fmt.Sprintf("no counterexample: every property checked holds on %s", s.spaceNote())}, nil
		case len(v.Trace) == 0:
			return &Jump{Note: fmt.Sprintf("%s is violated (%s), but by no single execution", v.Property, v.Detail)}, nil
		}
		if res.Incomplete != "" {
			return s.toJump(v, fmt.Sprintf("a counterexample: %d steps that break %s, the shortest found before the search stopped (%s)", len(v.Trace), v.Property, res.Incomplete))
		}
		return s.toJump(v, fmt.Sprintf("the shortest counterexample: %d steps that break %s", len(v.Trace), v.Property))
	})
}

func (s *Server) handleWorst(r *http.Request) (any, error) {
	return s.jump(r.Context(), "worst", func(ctx context.Context) (*Jump, error) {
		row := bounds.Measure(ctx, s.m, s.space, bounds.DefaultCheck())
		if row.Worst == nil {
			why := "no configuration could be measured"
			switch {
			case row.Incomplete != "":
				why = row.Incomplete
			case len(row.Violated) > 0:
				why = fmt.Sprintf("every configuration violates %s, so no execution was measured (jump to the counterexample instead)", strings.Join(row.Violated, ", "))
			}
			return &Jump{Note: "no execution to jump to: " + why}, nil
		}
		j, err := s.toJump(row.Worst, "the execution with the most messages: "+row.Worst.Detail)
		if err == nil && (row.Bound == nil || row.Bound.Status != bounds.Exceeded) {
			j.Property = "" // within the bound: not a violation
		}
		return j, err
	})
}

func (s *Server) spaceNote() string {
	info, _ := s.handleInfo(nil)
	return fmt.Sprintf("n=%d, %s", s.space.N(), info.(*Info).Space)
}

func (s *Server) handleTrace(r *http.Request) (any, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxUpload+1))
	if err != nil {
		return nil, fmt.Errorf("reading the upload: %v", err)
	}
	if len(b) > maxUpload {
		return nil, fmt.Errorf("the upload is larger than %d MiB: it is not a trace the page can follow", maxUpload>>20)
	}
	f, err := counterexamples.ParseFile(b, "the upload")
	if err != nil {
		return nil, err
	}
	if f.Algo != s.info.Name {
		return nil, fmt.Errorf("the trace is of %s, but this page runs %s: start elcheck serve -algo=%s", f.Algo, s.info.Name, f.Algo)
	}
	if f.N > MaxN {
		return nil, fmt.Errorf("the trace has n=%d: the page runs 1 to %d processes", f.N, MaxN)
	}
	if len(f.Steps) > MaxPath {
		return nil, fmt.Errorf("the trace has %d steps: the page follows at most %d", len(f.Steps), MaxPath)
	}
	v, err := f.Violation(s.m)
	if err != nil {
		return nil, fmt.Errorf("the trace does not fit %s: %v", s.info.Name, err)
	}
	j, err := s.toJump(v, fmt.Sprintf("the uploaded trace: %d steps", len(v.Trace)))
	if err != nil {
		return nil, fmt.Errorf("the trace does not fit %s: %v", s.info.Name, err)
	}
	return j, nil
}
