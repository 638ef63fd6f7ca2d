package vet_test

import (
	"path/filepath"
	"testing"

	"github.com/elcheck/elcheck/vet"
	"golang.org/x/tools/go/analysis/analysistest"
)

// moduleRoot is where analysistest loads packages from: the module's own
// go.mod lets the fixtures import the real spec package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Each fixture under testdata/src has one kind of impurity, marked with
// `// want` comments; clean has none and must get no diagnostics.
func TestFixtures(t *testing.T) {
	tests := []struct {
		fixture string
		what    string
	}{
		{"maprange", "range over a map, directly, via a helper and via maps.Keys"},
		{"counter", "a package-level counter"},
		{"cache", "a package-level cache map; a read-only table beside it"},
		{"clock", "time.Now, time.Since, time.Sleep"},
		{"random", "math/rand, math/rand/v2, crypto/rand"},
		{"channels", "goroutine, make(chan), send, receive, select"},
		{"mutation", "writes into the received state: element, append, delete, sort, helpers, pointer state"},
		{"deephelper", "impurities two calls below Step"},
		{"fields", "a map range in Fields, the newer encoding; the registry beside it is not reported"},
		{"clean", "a correct protocol: no diagnostics"},
	}
	root := moduleRoot(t)
	patterns := make([]string, len(tests))
	for i, tt := range tests {
		patterns[i] = "./vet/testdata/src/" + tt.fixture
	}
	// One load for all fixtures keeps the test fast; the results come
	// back per package, checked against its own want comments.
	results := analysistest.Run(t, root, vet.Analyzer, patterns...)
	counts := make(map[string]int)
	for _, r := range results {
		counts[r.Action.Package.Name] += len(r.Diagnostics)
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			switch n := counts[tt.fixture]; {
			case tt.fixture == "clean" && n != 0:
				t.Errorf("%s: %d diagnostics, want none", tt.what, n)
			case tt.fixture != "clean" && n == 0:
				t.Errorf("%s: no diagnostics", tt.what)
			}
		})
	}
}

// The built-in protocols are pure: the analyzer must not report anything
// in them, their tests included.
func TestBuiltinProtocolsAreClean(t *testing.T) {
	results := analysistest.Run(t, moduleRoot(t), vet.Analyzer, "github.com/elcheck/elcheck/protocols")
	if len(results) == 0 {
		t.Fatal("the protocols package was not analysed")
	}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			t.Errorf("%s: %s", r.Action.Package.Fset.Position(d.Pos), d.Message)
		}
	}
}
