package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"chart"}, "chart takes one trace file"},
		{"missing file", []string{"chart", filepath.Join(dir, "nope.json")}, "no such file"},
		{"not a trace", []string{"chart", "chart_test.go"}, "is not an elcheck trace"},
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
