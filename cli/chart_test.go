package cli

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/mermaid"
)

const chartTrace = "../counterexamples/testdata/cr-flip.json"

// elcheck chart writes the golden chart of a trace, in the format that
// -format or the output's extension names.
func TestChart(t *testing.T) {
	golden := func(name string) string {
		b, err := os.ReadFile(filepath.Join("../counterexamples/testdata/charts", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		out  string // the file written, "" for stdout
		want string
	}{
		{"svg to stdout", []string{"chart", chartTrace}, "", golden("cr-flip.svg")},
		{"mermaid to stdout", []string{"chart", chartTrace, "-format=mermaid"}, "", golden("cr-flip.mmd")},
		{"flags before the file", []string{"chart", "-format=mermaid", chartTrace}, "", golden("cr-flip.mmd")},
		{"svg by extension", []string{"chart", chartTrace, "-o", filepath.Join(dir, "a.svg")}, "a.svg", golden("cr-flip.svg")},
		{"mermaid by extension", []string{"chart", chartTrace, "-o", filepath.Join(dir, "a.mmd")}, "a.mmd", golden("cr-flip.mmd")},
		{"markdown by extension", []string{"chart", chartTrace, "-o=" + filepath.Join(dir, "a.md")}, "a.md", "```mermaid\n" + golden("cr-flip.mmd") + "```\n"},
		{"verify -chart", []string{"verify", "-algo=cr-flip", "-n=3", "-chart=" + filepath.Join(dir, "v.svg")}, "v.svg", golden("cr-flip.svg")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := elcheck(tt.args...)
			if code != exitVerified && !(tt.args[0] == "verify" && code == exitViolated) {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := stdout
			if tt.out != "" {
				b, err := os.ReadFile(filepath.Join(dir, tt.out))
				if err != nil {
					t.Fatal(err)
				}
				got = string(b)
			}
			if got != tt.want {
				t.Errorf("the chart is not the golden one:\n%s", got)
			}
		})
	}
}

// A verification without a counterexample writes no chart.
func TestVerifyChartNone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.svg")
	if code, _, stderr := elcheck("verify", "-algo=cr", "-n=3", "-chart="+path); code != exitVerified {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s written without a counterexample", path)
	}
}

func TestChartBadInput(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "report.json")
	os.WriteFile(report, []byte(`{"elcheck_report": 1, "algo": "cr-flip"}`), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"chart"}, "chart takes one trace file"},
		{"missing file", []string{"chart", filepath.Join(dir, "nope.json")}, "no such file"},
		{"not a trace", []string{"chart", "chart_test.go"}, "is not an elcheck trace"},
		{"a report, not a trace", []string{"chart", report}, "report.json is a report (verify -format=json), not a trace: write the trace with verify -trace-out=FILE"},
		{"two files", []string{"chart", chartTrace, "other.json"}, `not "other.json" too`},
		{"unknown format", []string{"chart", chartTrace, "-format=png"}, "-format=png: use svg or mermaid"},
		{"unknown extension", []string{"chart", chartTrace, "-o", filepath.Join(dir, "a.png")}, "the extension .png names no chart format"},
		{"unknown flag", []string{"chart", chartTrace, "-x"}, "flag provided but not defined: -x"},
		{"out in a missing directory", []string{"chart", chartTrace, "-o", filepath.Join(dir, "no", "a.svg")}, "does not exist"},
		{"verify chart extension", []string{"verify", "-algo=cr-flip", "-n=3", "-chart=" + filepath.Join(dir, "a.png")}, "-chart=" + filepath.Join(dir, "a.png") + ": the extension .png"},
		{"verify chart no extension", []string{"verify", "-algo=cr-flip", "-n=3", "-chart=" + filepath.Join(dir, "a")}, "name a .svg, .mmd or .md file"},
		{"verify chart empty", []string{"verify", "-algo=cr-flip", "-n=3", "-chart="}, "-chart= is empty"},
		{"verify chart and trace one file", []string{"verify", "-algo=cr-flip", "-n=3", "-chart=" + filepath.Join(dir, "a.svg"), "-trace-out=" + filepath.Join(dir, "a.svg")}, "both name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectUsageError(t, tt.args, tt.want)
			if strings.Contains(tt.name, "verify") {
				if _, err := os.Stat(filepath.Join(dir, "a.svg")); err == nil {
					t.Errorf("a chart was written on bad input")
				}
			}
		})
	}
}

// readChart reads a chart file back: SVG as well-formed XML, Mermaid
// (bare or fenced in Markdown) with the recognizer of Mermaid's grammar.
// It returns the Mermaid statements (none for SVG).
func readChart(t *testing.T, path string) []mermaid.Statement {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	switch filepath.Ext(path) {
	case ".svg":
		dec := xml.NewDecoder(bytes.NewReader(b))
		for {
			if _, err := dec.Token(); errors.Is(err, io.EOF) {
				return nil
			} else if err != nil {
				t.Fatalf("%s is not well-formed XML: %v", path, err)
			}
		}
	case ".md":
		s, head := strings.CutPrefix(string(b), "```mermaid\n")
		s, tail := strings.CutSuffix(s, "```\n")
		if !head || !tail {
			t.Fatalf("%s is not one fenced mermaid block:\n%s", path, b)
		}
		b = []byte(s)
	}
	st, err := mermaid.Parse(string(b))
	if err != nil || mermaid.Dropped(st) {
		t.Fatalf("%s is not Mermaid as Mermaid reads it: %v\n%s", path, err, b)
	}
	return st
}

// hasRect says whether a Mermaid chart highlights a step.
func hasRect(st []mermaid.Statement) bool {
	return slices.ContainsFunc(st, func(s mermaid.Statement) bool { return s.Kind == "rect" })
}

// bounds -chart draws the execution -worst-out would write, the step that
// crosses the declared bound highlighted; nothing when not every
// configuration was measured.
func TestBoundsChart(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		args  []string
		chart string // the file, in dir
		code  int
		note  string // in the report
		rect  bool   // a Mermaid chart highlights the crossing
	}{
		{"exceeded, svg", []string{"-algo=dkr-nosecond", "-n=3"}, "a.svg", exitViolated, "the chart of the execution that exceeds the declared bound (n=3, 18 > 12 messages", false},
		{"exceeded, mermaid", []string{"-algo=dkr-nosecond", "-n=3"}, "a.mmd", exitViolated, "written to " + filepath.Join(dir, "a.mmd"), true},
		{"exceeded, markdown", []string{"-algo=dkr-nosecond", "-n=3"}, "a.md", exitViolated, "to save the execution that exceeds", true},
		{"within", []string{"-algo=cr", "-n=3"}, "b.mmd", exitVerified, "the chart of the execution with the most messages (n=3, 9 messages", false},
		{"not all measured", []string{"-algo=dkr", "-n=3..5", "-max-states=300"}, "c.svg", exitIncomplete, "-chart: nothing written: not every configuration was measured", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.chart)
			code, out, stderr := elcheck(append(append([]string{"bounds"}, tt.args...), "-chart="+path)...)
			if code != tt.code || !strings.Contains(out, tt.note) {
				t.Fatalf("exit %d, want %d, and a report saying %q:\n%s%s", code, tt.code, tt.note, out, stderr)
			}
			if tt.code == exitIncomplete {
				if _, err := os.Stat(path); err == nil {
					t.Errorf("%s written though not every configuration was measured", path)
				}
				return
			}
			if st := readChart(t, path); filepath.Ext(path) != ".svg" && hasRect(st) != tt.rect {
				t.Errorf("a highlighted step: %v, want %v", hasRect(st), tt.rect)
			}
		})
	}
	code, _, stderr := elcheck("bounds", "-algo=cr", "-n=3", "-chart="+filepath.Join(dir, "x.png"))
	if code != exitUsage || !strings.Contains(stderr, "-chart=") {
		t.Errorf("-chart=x.png: exit %d, want %d and a usage error:\n%s", code, exitUsage, stderr)
	}
}

// merge -chart draws the merged counterexample.
func TestMergeChart(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		_, out, _ := elcheck("verify", "-algo=cr-flip", "-n=3", fmt.Sprintf("-shard=%d/2", i), "-format=json")
		files = append(files, filepath.Join(dir, fmt.Sprintf("s%d.json", i)))
		if err := os.WriteFile(files[i], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "m.mmd")
	code, out, stderr := elcheck(append([]string{"merge", "-chart=" + path}, files...)...)
	if code != exitViolated {
		t.Fatalf("exit %d, want %d:\n%s%s", code, exitViolated, out, stderr)
	}
	if st := readChart(t, path); !hasRect(st) {
		t.Errorf("the merged counterexample's chart highlights no step")
	}
	if code, _, stderr := elcheck(append([]string{"merge", "-chart=" + filepath.Join(dir, "m")}, files...)...); code != exitUsage {
		t.Errorf("-chart without an extension: exit %d, want %d:\n%s", code, exitUsage, stderr)
	}
}

// elcheckStdin runs elcheck with standard input read from path.
func elcheckStdin(t *testing.T, path string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	return elcheck(args...)
}

// chart and replay read a trace from standard input for "-", and take a
// trace (and merge a report) that starts with a UTF-8 byte-order mark, as
// Notepad and Windows PowerShell write them.
func TestTraceStdinAndBOM(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(chartTrace)
	if err != nil {
		t.Fatal(err)
	}
	bom := filepath.Join(dir, "bom.json")
	if err := os.WriteFile(bom, append([]byte("\uFEFF"), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, svg, _ := elcheck("chart", chartTrace)
	_, mmd, _ := elcheck("chart", chartTrace, "-format=mermaid")
	if svg == "" || mmd == "" {
		t.Fatal("chart of the trace file: nothing written")
	}
	tests := []struct {
		name  string
		stdin string // the file on standard input, or ""
		args  []string
		code  int
		want  string // stdout, or its last line for replay
	}{
		{"chart -", chartTrace, []string{"chart", "-"}, exitVerified, svg},
		{"chart - with flags", chartTrace, []string{"chart", "-", "-format=mermaid"}, exitVerified, mmd},
		{"replay -", chartTrace, []string{"replay", "-"}, exitViolated, "CONFIRMED: validity"},
		{"chart with a BOM", "", []string{"chart", bom}, exitVerified, svg},
		{"replay with a BOM", "", []string{"replay", bom}, exitViolated, "CONFIRMED: validity"},
		{"chart - with a BOM", bom, []string{"chart", "-", "-format=mermaid"}, exitVerified, mmd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var code int
			var out, stderr string
			if tt.stdin != "" {
				code, out, stderr = elcheckStdin(t, tt.stdin, tt.args...)
			} else {
				code, out, stderr = elcheck(tt.args...)
			}
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr)
			}
			if tt.args[0] == "replay" {
				out = lastLine(out)
			}
			if !strings.HasPrefix(out, tt.want) || tt.args[0] == "chart" && out != tt.want {
				t.Errorf("stdout is not what the trace file gives:\n%.300s", out)
			}
		})
	}
	// An empty standard input is one line naming it.
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	if code, _, stderr := elcheckStdin(t, empty, "replay", "-"); code != exitUsage || stderr != "elcheck: standard input is not an elcheck trace: EOF\n" {
		t.Errorf("replay - of nothing: exit %d, stderr %q", code, stderr)
	}

	// A shard's report with a BOM merges.
	code, js, stderr := elcheck("verify", "-algo=cr-flip", "-n=3", "-shard=0/1", "-format=json")
	if code != exitViolated {
		t.Fatalf("the shard: exit %d: %s", code, stderr)
	}
	report := filepath.Join(dir, "report.json")
	if err := os.WriteFile(report, []byte("\uFEFF"+js), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := elcheck("merge", report); code != exitViolated || lastLine(out) != "VIOLATED: validity" {
		t.Errorf("merge of a report with a BOM: exit %d, want %d:\n%s%s", code, exitViolated, out, stderr)
	}
}
