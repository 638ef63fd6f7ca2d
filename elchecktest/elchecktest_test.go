package elchecktest

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/elcheck/elcheck"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
)

// recorder is a test that records a failure instead of failing, so that
// Verify's failures can be tested; the rest is the real test's.
type recorder struct {
	*testing.T
	failed string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// verify runs Verify on a recorder, on its own goroutine, as testing runs
// a test: Fatal ends it with runtime.Goexit.
func verify(t *testing.T, name string, n int, opts ...elcheck.Option) (*recorder, *elcheck.Report) {
	t.Helper()
	m, ok := protocols.Lookup(name)
	for _, f := range fixtures.All() {
		if f.Info().Name == name {
			m, ok = f, true
		}
	}
	if !ok {
		t.Fatalf("no protocol %q", name)
	}
	r := &recorder{T: t}
	var rep *elcheck.Report
	done := make(chan struct{})
	go func() {
		defer close(done)
		rep = Verify(r, m, n, opts...)
	}()
	<-done
	return r, rep
}

func TestVerify(t *testing.T) {
	for _, tc := range []struct {
		name, algo string
		n          int
		opts       []elcheck.Option
		// fails is what the failure says; empty: no failure.
		fails []string
		trace bool
		// property is the trace file's; validity if empty.
		property string
	}{
		{name: "verified", algo: "cr", n: 3},
		{name: "violated", algo: "cr-flip", n: 3, fails: []string{"VIOLATED: validity", "step 1:", "cr-flip-n3.json"}, trace: true},
		{name: "incomplete", algo: "cr", n: 4, opts: []elcheck.Option{elcheck.MaxStates(5)}, fails: []string{"did not finish", "INCOMPLETE"}},
		{name: "bad n", algo: "cr", n: 0, fails: []string{"n must be between 1 and 16"}},
		// A package-level cache is named as on the command line, and its
		// counterexample is written like any other.
		{name: "impure", algo: "fixture-pkg-cache", n: 3, fails: []string{"VIOLATED: step-purity", "does not reproduce on a fresh copy", "fixture-pkg-cache-n3.json"}, trace: true, property: "step-purity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, rep := verify(t, tc.algo, tc.n, tc.opts...)
			if len(tc.fails) == 0 {
				if r.failed != "" || rep == nil {
					t.Fatalf("failed: %s", r.failed)
				}
				return
			}
			for _, w := range tc.fails {
				if !strings.Contains(r.failed, w) {
					t.Errorf("the failure does not say %q:\n%s", w, r.failed)
				}
			}
			file := filepath.Join(t.ArtifactDir(), fmt.Sprintf("%s-n%d.json", tc.algo, tc.n))
			_, err := os.Stat(file)
			if tc.trace != (err == nil) {
				t.Fatalf("trace file %s: %v, want it written: %v", file, err, tc.trace)
			}
			if tc.trace {
				f, err := counterexamples.ReadFile(file)
				want := cmp.Or(tc.property, "validity")
				if err != nil || f.Property != want {
					t.Errorf("the trace file reads back as %+v, %v", f, err)
				}
			}
		})
	}
}
