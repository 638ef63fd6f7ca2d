package cli

import (
	"strings"
	"testing"
)

// elcheck vet prints findings as file:line:col: message and exits 1, exits
// 0 on clean code, and 2 when the packages do not load.
func TestVet(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // lines that must be printed
		stderr string
	}{
		{
			name: "impure fixture",
			args: []string{"vet", "../vet/testdata/src/maprange"},
			code: exitViolated,
			stdout: []string{
				"maprange.go:67:2: range over a map in Proto.Step (via relayAll): iteration order is random; sort the keys first",
				"maprange.go:60:2: range over maps.Keys in Proto.Step",
			},
			stderr: "vet: 3 findings",
		},
		{
			name: "two packages, one clean",
			args: []string{"vet", "../vet/testdata/src/counter", "../vet/testdata/src/clean"},
			code: exitViolated,
			stdout: []string{
				"counter.go:48:2: write to package-level variable steps in Proto.Step: hidden state",
			},
			stderr: "vet: 2 findings",
		},
		{
			// The impure fixtures the explorer's tests run: vet sees each
			// for certain, the package-level cache included.
			name: "impure fixtures",
			args: []string{"vet", "../internal/fixtures"},
			code: exitViolated,
			stdout: []string{
				"write to package-level variable calls in Counter.Step",
				"range over a map in MapOrder.Step",
				"write to package-level variable verdicts in PkgCache.Step",
			},
			stderr: "vet: 6 findings",
		},
		{name: "built-in protocols", args: []string{"vet", "../protocols"}, code: exitVerified},
		{name: "no such package", args: []string{"vet", "./nonexistent"}, code: exitUsage, stderr: "nonexistent"},
		{name: "flag after packages", args: []string{"vet", "../protocols", "-tests"}, code: exitUsage, stderr: "flags come before the packages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := elcheck(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("output does not say %q:\n%s", want, out)
				}
			}
			if tt.stdout == nil && out != "" {
				t.Errorf("unexpected output:\n%s", out)
			}
			if !strings.Contains(stderr, tt.stderr) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("stderr %q: want one line saying %q", stderr, tt.stderr)
			}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				if line != "" && !strings.Contains(line, ".go:") {
					t.Errorf("line %q is not file:line:col: message", line)
				}
			}
		})
	}
}
