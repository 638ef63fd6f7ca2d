package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/elcheck/elcheck/explore"
	"github.com/google/go-cmp/cmp"
)

// The sweep tests run elcheck as separate processes, as a sweep across
// machines does: one binary, built once for the package's tests.
var binary struct {
	once sync.Once
	dir  string
	path string
	err  error
}

func TestMain(m *testing.M) {
	if os.Getenv(freshEnv) != "" {
		// verify replays its counterexamples in a fresh process, which in
		// a test is this binary: be elcheck, knowing the fixtures and the
		// tests' user protocols too.
		if err := checkMachines(userMachines()); err != nil {
			panic(err)
		}
		os.Exit(run(os.Args, os.Stdout, os.Stderr, fixturesEnv(userMachines()...)))
	}
	code := m.Run()
	if binary.dir != "" {
		os.RemoveAll(binary.dir)
	}
	os.Exit(code)
}

func elcheckBinary(t *testing.T) string {
	t.Helper()
	binary.once.Do(func() {
		goTool, err := exec.LookPath("go")
		if err != nil {
			binary.err = fmt.Errorf("the go command is not on PATH: %v", err)
			return
		}
		if binary.dir, binary.err = os.MkdirTemp("", "elcheck-test-"); binary.err != nil {
			return
		}
		binary.path = filepath.Join(binary.dir, "elcheck")
		out, err := exec.Command(goTool, "build", "-o", binary.path, "../cmd/elcheck").CombinedOutput()
		if err != nil {
			binary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// runBinary runs the elcheck binary and returns its exit code and output.
func runBinary(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(elcheckBinary(t), args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("elcheck %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errb.String()
}

func parseReport(t *testing.T, what, out string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%s: not a JSON report: %v\n%s", what, err, out)
	}
	return r
}

// sweep runs `elcheck verify args -shard=i/k -format=json` for every i as
// k processes at once and returns the files of their reports, by shard.
func sweep(t *testing.T, args []string, k int) []string {
	t.Helper()
	dir := t.TempDir()
	files := make([]string, k)
	errs := make([]string, k)
	var wg sync.WaitGroup
	for i := range k {
		files[i] = filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := os.Create(files[i])
			if err != nil {
				errs[i] = err.Error()
				return
			}
			defer out.Close()
			var stderr bytes.Buffer
			cmd := exec.Command(elcheckBinary(t), append(append([]string{"verify"}, args...), fmt.Sprintf("-shard=%d/%d", i, k), "-format=json")...)
			cmd.Stdout, cmd.Stderr = out, &stderr
			err = cmd.Run()
			var ee *exec.ExitError
			if err != nil && (!errors.As(err, &ee) || ee.ExitCode() == exitUsage) {
				errs[i] = fmt.Sprintf("shard %d: %v: %s", i, err, stderr.String())
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	return files
}

// A sweep of k shards, merged, reports what one unsharded run reports.
func TestShardedSweepMatchesUnsharded(t *testing.T) {
	tests := []struct {
		name string
		args []string
		k    int
		code int
	}{
		{"dkr verified", []string{"-algo=dkr", "-n=4"}, 3, exitVerified},
		{"dkr verified, 7 shards", []string{"-algo=dkr", "-n=4"}, 7, exitVerified},
		{"cr-flip violates validity", []string{"-algo=cr-flip", "-n=4"}, 3, exitViolated},
		{"peterson-norelay violates termination", []string{"-algo=peterson-norelay", "-n=4"}, 3, exitViolated},
		{"cr-min-noabsorb loops", []string{"-algo=cr-min-noabsorb", "-n=3"}, 4, exitViolated},
		{"one shard is the whole space", []string{"-algo=cr", "-n=3"}, 1, exitVerified},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runBinary(t, append(append([]string{"verify"}, tt.args...), "-format=json")...)
			if code != tt.code {
				t.Fatalf("unsharded run: exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			want := parseReport(t, "unsharded run", out)

			files := sweep(t, tt.args, tt.k)
			code, out, stderr = runBinary(t, append([]string{"merge", "-format=json"}, files...)...)
			if code != tt.code {
				t.Fatalf("merge: exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			got := parseReport(t, "merge", out)

			// After a violation, each shard limits the depth of its own
			// later configurations (docs/semantics.md), so the figures of a
			// violated sweep are its shards' own: only the verdict, the
			// statuses and the counterexample are the unsharded run's.
			verified := want.Violation == nil
			if got.Verdict != want.Verdict || got.Algo != want.Algo || got.N != want.N || got.Channels != want.Channels ||
				got.Configurations != want.Configurations || verified && got.ConfigsDone != want.ConfigsDone || got.ConfigsTotal != want.ConfigsTotal {
				t.Errorf("merged %s, %d of %d configurations (%d done); unsharded %s, %d of %d (%d done)",
					got.Verdict, got.Configurations, got.ConfigsTotal, got.ConfigsDone, want.Verdict, want.Configurations, want.ConfigsTotal, want.ConfigsDone)
			}
			status := func(r jsonReport) map[string]explore.Status {
				m := map[string]explore.Status{}
				for _, p := range r.Properties {
					m[p.Name] = p.Status
				}
				return m
			}
			if diff := cmp.Diff(status(want), status(got)); diff != "" {
				t.Errorf("property statuses differ (-unsharded +merged):\n%s", diff)
			}
			// Every configuration is searched on its own, whatever the
			// others found, so every figure is a sum, minimum or maximum
			// of per-configuration figures: they must all agree.
			type figures struct {
				States, Transitions, Final int64
				MaxDepth                   int
				Messages                   jsonMessages
				UniformChecked             int64
				Properties                 []jsonProperty
			}
			f := func(r jsonReport) figures {
				return figures{r.States, r.Transitions, r.FinalStates, r.MaxDepth, r.Messages, r.UniformChecked, r.Properties}
			}
			if diff := cmp.Diff(f(want), f(got)); verified && diff != "" {
				t.Errorf("figures differ (-unsharded +merged):\n%s", diff)
			}
			if want.Violation == nil {
				if got.Violation != nil {
					t.Errorf("merged report has a violation: %+v", got.Counterexample)
				}
			} else {
				if got.Counterexample == nil || got.Violation == nil {
					t.Fatalf("merged report has no counterexample")
				}
				if diff := cmp.Diff(*want.Counterexample, *got.Counterexample); diff != "" {
					t.Errorf("counterexample summary differs (-unsharded +merged):\n%s", diff)
				}
				if diff := cmp.Diff(want.Violation, got.Violation); diff != "" {
					t.Errorf("counterexample trace differs (-unsharded +merged):\n%s", diff)
				}
			}

			// The text report ends in the same verdict.
			_, wantText, _ := runBinary(t, append([]string{"verify"}, tt.args...)...)
			code, gotText, _ := runBinary(t, append([]string{"merge"}, files...)...)
			if code != tt.code || lastLine(gotText) != lastLine(wantText) {
				t.Errorf("merge (text): exit %d, last line %q; unsharded last line %q", code, lastLine(gotText), lastLine(wantText))
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Reports that do not make up one sweep are refused, or merged as
// INCOMPLETE when shards are missing.
func TestMergeRejects(t *testing.T) {
	dkr := sweep(t, []string{"-algo=dkr", "-n=4"}, 3)
	flip := sweep(t, []string{"-algo=cr-flip", "-n=4"}, 3)
	dkr4 := sweep(t, []string{"-algo=dkr", "-n=4"}, 4)
	bag := sweep(t, []string{"-algo=dkr", "-n=4", "-channels=bag"}, 3)
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	notReport := filepath.Join(dir, "trace.json")
	os.WriteFile(notReport, []byte(`{"elcheck_trace": 1, "algo": "dkr"}`), 0o644)
	cut := filepath.Join(dir, "cut.json")
	code, out, stderr := runBinary(t, "verify", "-algo=dkr", "-n=4", "-shard=1/3", "-max-states=10", "-format=json")
	if code != exitIncomplete {
		t.Fatalf("a shard with -max-states=10: exit %d, want %d\n%s", code, exitIncomplete, stderr)
	}
	os.WriteFile(cut, []byte(out), 0o644)
	merged := filepath.Join(dir, "merged.json")
	_, out, _ = runBinary(t, append([]string{"merge", "-format=json"}, dkr...)...)
	os.WriteFile(merged, []byte(out), 0o644)

	tests := []struct {
		name  string
		files []string
		code  int
		want  string // the start of the last line of stdout, or in the error line (exit 2)
	}{
		{"a shard missing", []string{dkr[0], dkr[2]}, exitIncomplete, "INCOMPLETE: shard 1 of 3 missing"},
		{"a shard cut short", []string{dkr[0], cut, dkr[2]}, exitIncomplete, "INCOMPLETE: shard 1: state limit of 10 reached after "},
		{"two shards missing", []string{dkr4[2]}, exitIncomplete, "INCOMPLETE: shards 0, 1 and 3 of 4 missing"},
		{"a shard missing, a violation found", []string{flip[1]}, exitViolated, "VIOLATED: validity"},
		{"different algorithms", []string{dkr[0], flip[1], dkr[2]}, exitUsage, "algo dkr in one, cr-flip in the other"},
		{"different shard counts", []string{dkr[0], dkr4[1]}, exitUsage, "shard count 3 in one, 4 in the other"},
		{"different channels", []string{dkr[0], bag[1], bag[2]}, exitUsage, "channels fifo in one, bag in the other"},
		{"a shard twice", []string{dkr[0], dkr[1], dkr[1], dkr[2]}, exitUsage, "are both shard 1 of 3"},
		{"an empty file", []string{dkr[0], empty}, exitUsage, "is not an elcheck report"},
		{"a trace, not a report", []string{notReport}, exitUsage, "trace.json is a trace (verify -trace-out), not a shard's report: replay it with elcheck replay"},
		{"a merged report", []string{merged}, exitUsage, "is a merged report"},
		{"a missing file", []string{filepath.Join(dir, "nope.json")}, exitUsage, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runBinary(t, append([]string{"merge"}, tt.files...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			if tt.code == exitUsage {
				if !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
					t.Errorf("stderr %q is not one line saying %q", stderr, tt.want)
				}
				return
			}
			if last := lastLine(out); !strings.HasPrefix(last, tt.want) {
				t.Errorf("last line %q, want %q", last, tt.want)
			}
			if strings.Contains(out, "VERIFIED") {
				t.Errorf("a partial merge printed VERIFIED:\n%s", out)
			}
		})
	}
}
