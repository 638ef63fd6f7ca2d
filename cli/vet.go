package cli

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/vet"
	"github.com/urfave/cli/v2"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

var vetTestsFlag = &cli.BoolFlag{Name: "tests", Usage: "check the packages' test files too (as go vet does)"}

var vetCommand = &cli.Command{
	Name:  "vet",
	Usage: "check protocol code for impurity statically: map iteration, package-level state, clocks, randomness, I/O, goroutines, writes into the received state",
	UsageText: "elcheck vet [-tests] [PACKAGE...]   (default ./...)\n\n" +
		"Prints each finding as file:line:col: message (docs/purity.md). " +
		"exit 0: nothing found; 1: findings; 2: the packages do not load",
	Flags:        []cli.Flag{vetTestsFlag},
	Action:       vetAction,
	OnUsageError: usageError,
}

func vetAction(c *cli.Context) error {
	patterns := c.Args().Slice()
	for _, p := range patterns {
		if strings.HasPrefix(p, "-") {
			return usagef("%s: flags come before the packages: elcheck vet -tests ./...", p)
		}
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	findings, err := vetPackages(patterns, c.Bool(vetTestsFlag.Name))
	if err != nil {
		return usagef("%v", err)
	}
	for _, f := range findings {
		fmt.Fprintln(c.App.Writer, f)
	}
	// Findings exit 1, like a violation: run prints the count on stderr.
	switch n := len(findings); n {
	case 0:
		return nil
	case 1:
		return cli.Exit("vet: 1 finding (docs/purity.md)", exitViolated)
	default:
		return cli.Exit(fmt.Sprintf("vet: %d findings (docs/purity.md)", n), exitViolated)
	}
}

// vetPackages loads the packages and runs the purity analyzer on them. It
// returns the findings as "file:line:col: message", sorted and without the
// duplicates a package and its test variant share.
func vetPackages(patterns []string, tests bool) ([]string, error) {
	// Syntax and types for the packages named; their dependencies come as
	// export data, since the analyzer looks at one package at a time.
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Tests: tests,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages match %s", strings.Join(patterns, " "))
	}
	for _, p := range pkgs {
		// The analyzer needs whole, well-typed packages: report the first
		// error, as go build would.
		if len(p.Errors) > 0 {
			e := p.Errors[0]
			if e.Pos == "" || e.Pos == "-" {
				return nil, fmt.Errorf("%s: %s", p.PkgPath, e.Msg)
			}
			return nil, fmt.Errorf("%s: %s", e.Pos, e.Msg)
		}
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{vet.Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	type finding struct {
		pos token.Position
		msg string
	}
	var all []finding
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			all = append(all, finding{act.Package.Fset.Position(d.Pos), d.Message})
		}
	}
	slices.SortFunc(all, func(a, b finding) int {
		if c := strings.Compare(a.pos.Filename, b.pos.Filename); c != 0 {
			return c
		}
		if a.pos.Line != b.pos.Line {
			return a.pos.Line - b.pos.Line
		}
		if a.pos.Column != b.pos.Column {
			return a.pos.Column - b.pos.Column
		}
		return strings.Compare(a.msg, b.msg)
	})
	all = slices.Compact(all)
	wd, _ := os.Getwd()
	out := make([]string, len(all))
	for i, f := range all {
		// Paths below the working directory print relative, as go vet's do.
		name := f.pos.Filename
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		out[i] = fmt.Sprintf("%s:%d:%d: %s", name, f.pos.Line, f.pos.Column, f.msg)
	}
	return out, nil
}
