package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/protocols"
)

// TestLocal: the WebAssembly build's in-process API answers as the server
// does, and refuses what it cannot run.
func TestLocal(t *testing.T) {
	l := &Local{Lookup: protocols.Lookup}
	for _, tc := range []struct {
		name, algo     string
		n              int
		method, target string
		status         int
		want           string // in the answer
	}{
		{"state", "cr", 3, "GET", "api/state?ids=3,1,2&init=0&path=0", 200, `"p0 (id 3) wakes up"`},
		{"counterexample", "cr-flip", 3, "GET", "/api/counterexample", 200, `"property":"validity"`},
		{"unknown event", "cr", 3, "GET", "api/state?path=9", 400, "chooses event 9"},
		{"unknown protocol", "nope", 3, "GET", "api/info", 400, `unknown protocol \"nope\"`},
		{"n too large", "cr", LocalMaxN + 1, "GET", "api/info", 400, "this page runs in the browser, on 1 to 6 processes"},
		{"n too small", "cr", 0, "GET", "api/info", 400, "on 1 to 6 processes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, answer := l.Do(tc.algo, tc.n, tc.method, tc.target, "")
			if status != tc.status || !strings.Contains(answer, tc.want) || !json.Valid([]byte(answer)) {
				t.Errorf("%d %s, want %d and %s", status, answer, tc.status, tc.want)
			}
		})
	}
}
