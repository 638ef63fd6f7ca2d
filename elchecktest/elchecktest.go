// Package elchecktest checks protocols from Go tests:
//
//	func TestMyProtocol(t *testing.T) {
//		elchecktest.Verify(t, spec.Erase(myproto.P{}), 4)
//	}
//
// passes quietly when every property holds on every configuration of 4
// processes, and otherwise fails with the shortest counterexample rendered
// as `elcheck verify` prints it, its JSON form (for `elcheck replay`) saved
// in the test's artifact directory.
package elchecktest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Verify checks m on n processes with elcheck.Verify, narrowed by opts,
// under the test's context, and returns the report.
//
// It fails the test (t.Fatal) unless the verdict is verified:
//
//   - violated: the message holds the rendered shortest counterexample, and
//     the trace is written as JSON to t.ArtifactDir() as ALGO-nN.json. Run
//     `go test -artifacts -outputdir=DIR` to keep it (without -artifacts the
//     directory is temporary and removed after the test); a main calling
//     cli.Run with the protocol replays it: `yourcli replay FILE`.
//   - incomplete (a state limit, or the test's context ended): nothing is
//     established, and the message says why the search stopped.
//   - an error (n out of range, a bad option, an Info that does not
//     validate): the message is the error.
func Verify(t testing.TB, m spec.Machine, n int, opts ...elcheck.Option) *elcheck.Report {
	t.Helper()
	rep, err := elcheck.Verify(t.Context(), m, n, opts...)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	switch rep.Verdict.Outcome {
	case invariants.Violated:
		where := "; no trace file: Init panicked, there is no initial state"
		if rep.Counterexample != nil {
			file := filepath.Join(t.ArtifactDir(), fmt.Sprintf("%s-n%d.json", sanitize(rep.Algo), n))
			if err := rep.Counterexample.WriteFile(file); err != nil {
				where = "; the trace could not be written: " + err.Error()
			} else {
				where = "; the trace is in " + file + " (keep it with go test -artifacts)"
			}
		}
		t.Fatalf("%s on %d processes: %s%s\n%s", rep.Algo, n, rep.Verdict, where, rep.Text)
	case invariants.Incomplete:
		t.Fatalf("%s on %d processes: the search did not finish, nothing is established: %s", rep.Algo, n, rep.Verdict)
	}
	return rep
}

// sanitize keeps a protocol's name usable as a file name.
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == ' ' {
			return '_'
		}
		return r
	}, name)
}
