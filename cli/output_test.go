package cli

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/elcheck/elcheck/counterexamples"
)

// An output path that cannot be written is a usage error before the
// search: these sweeps (n=16) would never end if the check came after it.
func TestOutputCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing", "out.json")
	svgDir := filepath.Join(dir, "p.svg")
	if err := os.Mkdir(svgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"trace-out in a missing directory", []string{"verify", "-algo=dkr", "-n=16", "-trace-out=" + missing},
			"-trace-out=" + missing + ": cannot create it: the directory " + filepath.Dir(missing) + " does not exist"},
		{"trace-out a directory", []string{"verify", "-algo=dkr", "-n=16", "-trace-out=" + dir}, "-trace-out=" + dir + ": it is a directory; name a file in it"},
		{"trace-out under a file", []string{"verify", "-algo=dkr", "-n=16", "-trace-out=/dev/null/x.json"}, "-trace-out=/dev/null/x.json: cannot write it: /dev/null is not a directory"},
		{"worst-out in a missing directory", []string{"bounds", "-algo=cr", "-n=16", "-worst-out=" + missing}, "the directory " + filepath.Dir(missing) + " does not exist"},
		{"plot a directory", []string{"bounds", "-algo=cr", "-n=16", "-plot=" + svgDir}, "-plot=" + svgDir + ": it is a directory"},
		{"worst-out and plot one file", []string{"bounds", "-algo=cr", "-n=16", "-worst-out=" + filepath.Join(dir, "x.svg"), "-plot=" + filepath.Join(dir, ".", "x.svg")}, "-worst-out and -plot both name"},
		{"merge trace-out before the reports", []string{"merge", "-trace-out=" + missing, filepath.Join(dir, "no-report.json")}, "-trace-out=" + missing + ": cannot create it"},
	}
	if runtime.GOOS == "linux" {
		// /proc exists, but answers "no such file" to a new file in it:
		// not a missing directory.
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"trace-out in /proc", []string{"verify", "-algo=dkr", "-n=16", "-trace-out=/proc/t.json"}, "elcheck: -trace-out=/proc/t.json: cannot create it: the directory /proc takes no new files (no such file or directory)\n"})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectUsageError(t, tt.args, tt.want)
		})
	}
}

// The check leaves nothing behind and changes nothing: a run with nothing
// to write creates no file, and an existing file is left as it was.
func TestOutputCheckLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	fresh, old := filepath.Join(dir, "fresh.json"), filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, []byte("old contents\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := elcheck("verify", "-algo=dkr", "-n=3", "-trace-out="+fresh)
	if code != exitVerified || stderr != "" {
		t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a verified run left %s behind (%v)", fresh, err)
	}
	// A run that ends (refused: too large) after the check, without a
	// search, writes nothing and removes nothing.
	expectUsageError(t, []string{"verify", "-algo=dkr", "-n=16", "-max-states=10", "-trace-out=" + old}, "configurations to check, more than a run can finish")
	if b, err := os.ReadFile(old); err != nil || string(b) != "old contents\n" {
		t.Errorf("the check changed %s: %q, %v", old, b, err)
	}
}

// whyNotWritable gives the OS's reason, and for "no such file" and "not
// a directory" which directory is missing or which file is in the way.
func TestWhyNotWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	pathErr := func(path string, err error) error { return &fs.PathError{Op: "open", Path: path, Err: err} }
	tests := []struct {
		path string
		err  error
		want string
	}{
		{filepath.Join(dir, "no", "t.json"), pathErr("", syscall.ENOENT), "cannot create it: the directory " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(dir, "t.json"), pathErr("", syscall.ENOENT), "cannot create it: the directory " + dir + " takes no new files (no such file or directory)"},
		{filepath.Join(file, "t.json"), pathErr("", syscall.ENOTDIR), "cannot write it: " + file + " is not a directory"},
		{filepath.Join(file, "a", "b", "t.json"), pathErr("", syscall.ENOTDIR), "cannot write it: " + file + " is not a directory"},
		{dir, pathErr("", syscall.EISDIR), "it is a directory; name a file in it"},
		{filepath.Join(dir, "t.json"), pathErr("", syscall.EACCES), "cannot write it: permission denied"},
		{filepath.Join(dir, "t.json"), pathErr("", syscall.EROFS), "cannot write it: read-only file system"},
	}
	for _, tt := range tests {
		if got := whyNotWritable(tt.path, tt.err); got != tt.want {
			t.Errorf("whyNotWritable(%s, %v) = %q, want %q", tt.path, tt.err, got, tt.want)
		}
	}
}

// A run without a counterexample removes the -trace-out and -chart files
// an earlier run left, and says so: a CI script that tests whether the
// file exists must not find an old counterexample. A run with one says
// where its chart went, as the report says where its trace went.
func TestStaleOutputsRemoved(t *testing.T) {
	dir := t.TempDir()
	trace, chart := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.svg")
	outputs := []string{"-trace-out=" + trace, "-chart=" + chart}
	exists := func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	}
	code, out, stderr := elcheck(append([]string{"verify", "-algo=cr-flip", "-n=3"}, outputs...)...)
	if code != exitViolated || !exists(trace) || !exists(chart) || !strings.Contains(out, "trace written to "+trace) || stderr != "elcheck: chart written to "+chart+"\n" {
		t.Fatalf("a violation: exit %d, stderr %q; want 1, both files, and the chart's line", code, stderr)
	}
	removed := "elcheck: -trace-out: no counterexample: removed old " + trace + "\nelcheck: -chart: no counterexample: removed old " + chart + "\n"
	shard := filepath.Join(dir, "shard.json")
	if code, js, stderr := elcheck("verify", "-algo=cr", "-n=3", "-shard=0/1", "-format=json"); code != exitVerified || os.WriteFile(shard, []byte(js), 0o644) != nil {
		t.Fatalf("the shard: exit %d: %s", code, stderr)
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string // stderr
	}{
		{"verified", []string{"verify", "-algo=cr", "-n=3"}, exitVerified, removed},
		{"nothing to remove", []string{"verify", "-algo=cr", "-n=3"}, exitVerified, ""},
		{"incomplete", []string{"verify", "-algo=cr", "-n=3", "-max-states=5"}, exitIncomplete, removed},
		{"verified as JSON", []string{"verify", "-algo=cr", "-n=3", "-format=json"}, exitVerified, removed},
		{"merged", []string{"merge"}, exitVerified, removed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want != "" {
				for _, p := range []string{trace, chart} {
					if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			args := append(tt.args, outputs...)
			if tt.args[0] == "merge" {
				args = append(args, shard) // flags before the files
			}
			code, _, stderr := elcheck(args...)
			if code != tt.code || stderr != tt.want {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr, tt.code, tt.want)
			}
			if exists(trace) || exists(chart) {
				t.Errorf("an old file is still there")
			}
		})
	}
	// bounds writes nothing when not every configuration was measured (a
	// buggy variant): its old -worst-out and -chart go too.
	for _, p := range []string{trace, chart} {
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr = elcheck("bounds", "-algo=cr-flip", "-n=3", "-worst-out="+trace, "-chart="+chart)
	want := "elcheck: -worst-out: nothing written: removed old " + trace + "\nelcheck: -chart: nothing written: removed old " + chart + "\n"
	if code != exitViolated || stderr != want || exists(trace) || exists(chart) {
		t.Errorf("bounds of a buggy variant: exit %d, stderr %q, files left %v %v; want 1, %q, none", code, stderr, exists(trace), exists(chart), want)
	}
}

// A write that fails after the search loses neither the report nor the
// verdict: both are printed, the error is one line on stderr, and the exit
// code is the verdict's.
func TestOutputWriteFails(t *testing.T) {
	e := newEnv(nil)
	e.writeTrace = func(*counterexamples.Trace, string) error { return errors.New("injected: disk full") }
	e.writeFile = func(string, []byte, os.FileMode) error { return errors.New("injected: disk full") }
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.json")

	code, out, stderr := e.elcheck("verify", "-algo=cr-flip", "-n=3", "-trace-out="+trace)
	if code != exitViolated || !strings.HasSuffix(out, "trace NOT written: injected: disk full\nVIOLATED: validity\n") || !strings.Contains(out, "counterexample (") {
		t.Errorf("verify: exit %d, want 1, the counterexample and the verdict:\n%s", code, out)
	}
	if stderr != "elcheck: -trace-out: the trace was not written: injected: disk full\n" {
		t.Errorf("verify: stderr %q", stderr)
	}

	// In JSON, the report carries the trace anyway.
	code, out, stderr = e.elcheck("verify", "-algo=cr-flip", "-n=3", "-format=json", "-trace-out="+trace)
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != exitViolated || r.Verdict != "VIOLATED: validity" || r.Violation == nil || len(r.Violation.Steps) == 0 {
		t.Errorf("verify -format=json: exit %d, %v:\n%s", code, err, out)
	}
	if strings.Count(stderr, "\n") != 1 {
		t.Errorf("verify -format=json: stderr %q", stderr)
	}

	code, out, stderr = e.elcheck("bounds", "-algo=dkr-nosecond", "-n=3", "-worst-out="+filepath.Join(dir, "w.json"), "-plot="+filepath.Join(dir, "p.svg"))
	if code != exitViolated || !strings.Contains(out, "NOT written: injected: disk full") || !strings.Contains(out, "plot NOT written") ||
		!strings.HasSuffix(out, "EXCEEDED: the declared bound 2N⌊log N⌋ + 2N at n=3\n") {
		t.Errorf("bounds: exit %d, want 1, the table and the verdict:\n%s", code, out)
	}
	if stderr != "elcheck: -worst-out: the execution was not written: injected: disk full\nelcheck: -plot: the plot was not written: injected: disk full\n" {
		t.Errorf("bounds: stderr %q", stderr)
	}
	code, out, _ = e.elcheck("bounds", "-algo=cr", "-n=3", "-plot="+filepath.Join(dir, "p.svg"))
	if code != exitVerified || !strings.HasSuffix(out, "WITHIN BOUND\n") {
		t.Errorf("bounds -plot: exit %d, want 0 (the verdict's):\n%s", code, out)
	}

	shard := filepath.Join(dir, "shard-0.json")
	e.writeFile = os.WriteFile
	_, out, _ = e.elcheck("verify", "-algo=cr-flip", "-n=3", "-format=json", "-shard=0/1")
	if err := os.WriteFile(shard, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = e.elcheck("merge", "-trace-out="+trace, shard)
	if code != exitViolated || !strings.HasSuffix(out, "trace NOT written: injected: disk full\nVIOLATED: validity\n") ||
		stderr != "elcheck: -trace-out: the trace was not written: injected: disk full\n" {
		t.Errorf("merge: exit %d, stderr %q:\n%s", code, stderr, out)
	}
}
