package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// build compiles pkg into dir and returns the binary's path.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// run runs a binary and returns its exit code, stdout and stderr.
func run(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatalf("%s: %v", bin, err)
	}
	return 0, stdout.String(), stderr.String()
}

// A trace of the user's buggy variant, written by one process, is replayed
// and drawn by another: the trace file is all they share. The stock
// elcheck, which does not know the variant, refuses it in one line.
func TestTraceInAFreshProcess(t *testing.T) {
	dir := t.TempDir()
	crvariant := build(t, dir, ".", "crvariant")
	stock := build(t, dir, "github.com/elcheck/elcheck/cmd/elcheck", "elcheck")
	trace := filepath.Join(dir, "trace.json")

	if code, out, stderr := run(t, crvariant, "verify", "-algo=crv-relay", "-n=2", "-trace-out="+trace); code != 1 {
		t.Fatalf("verify: exit %d, want 1:\n%s%s", code, out, stderr)
	}
	if code, out, stderr := run(t, crvariant, "replay", trace); code != 1 || !strings.Contains(out, "CONFIRMED") {
		t.Errorf("replay in a fresh process: exit %d, want 1 and CONFIRMED:\n%s%s", code, out, stderr)
	}
	chart := filepath.Join(dir, "x.svg")
	if code, out, stderr := run(t, crvariant, "chart", trace, "-o", chart); code != 0 {
		t.Errorf("chart: exit %d:\n%s%s", code, out, stderr)
	}
	if b, err := os.ReadFile(chart); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("chart wrote no SVG: %v", err)
	}

	code, out, stderr := run(t, stock, "replay", trace)
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if code != 2 || out != "" || len(lines) != 1 || !strings.Contains(stderr, `"crv-relay"`) {
		t.Errorf("the stock elcheck: exit %d, want 2 and one line naming crv-relay:\n%s%s", code, out, stderr)
	}
}
