package web

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/spec"
)

// LocalMaxN is the largest n the WebAssembly build runs: it searches on
// one thread, in the page, while a person waits.
const LocalMaxN = 6

// Local answers the page's API in-process, with no server: the
// WebAssembly build (cmd/elcheck-wasm) hands it the page's requests. It
// keeps one Server per protocol and n, on the whole space of
// configurations.
type Local struct {
	// Lookup finds a protocol by name.
	Lookup  func(name string) (spec.Machine, bool)
	mu      sync.Mutex
	servers map[string]*Server
}

// Do answers one request of the page, as the server would: method, the
// target ("api/state?ids=..."), the body; for protocol algo on n
// processes. It returns the status and the JSON answer.
func (l *Local) Do(algo string, n int, method, target, body string) (status int, answer string) {
	s, err := l.server(algo, n)
	if err != nil {
		b, _ := json.Marshal(apiError{err.Error()})
		return 400, string(b)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(method, "/"+strings.TrimPrefix(target, "/"), strings.NewReader(body)))
	return rec.Code, rec.Body.String()
}

func (l *Local) server(algo string, n int) (*Server, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := fmt.Sprintf("%s/%d", algo, n)
	if s, ok := l.servers[key]; ok {
		return s, nil
	}
	m, ok := l.Lookup(algo)
	if !ok {
		return nil, fmt.Errorf("unknown protocol %q", algo)
	}
	if n < 1 || n > LocalMaxN {
		return nil, fmt.Errorf("n=%d: this page runs in the browser, on 1 to %d processes (elcheck serve runs up to %d)", n, LocalMaxN, MaxN)
	}
	info := m.Info()
	space, err := configs.NewSpace(info.Topology, n)
	if err != nil {
		return nil, fmt.Errorf("%s cannot run on %d processes: %v", algo, n, err)
	}
	space.Channels, space.Capacity, space.PortBlind = info.Channels, info.Capacity, info.PortBlind
	s, err := New(m, space)
	if err != nil {
		return nil, err
	}
	if l.servers == nil {
		l.servers = map[string]*Server{}
	}
	l.servers[key] = s
	return s, nil
}
