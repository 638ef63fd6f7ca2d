package protocols

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// pinned are names that the README, the docs, the Makefile's defaults and
// the golden traces use: they must stay registered. The list is
// deliberately pinned; a new protocol registers itself and need not be
// added here.
var pinned = []string{
	"cr", "cr-flip", "cr-min", "cr-min-noabsorb", "cr-noselected",
	"dkr", "dkr-nosecond",
	"lelann", "lelann-flip", "lelann-list", "lelann-list-bag",
	"peterson", "peterson-nocheck", "peterson-norelay",
}

var properties = []string{"at-most-one-leader", "agreement", "termination", "exactly-one-leader", "validity", "message-bound", "deadlock"}

func TestRegistry(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("Names() = %v: not sorted, or a name twice", names)
	}
	for _, name := range pinned {
		if !slices.Contains(names, name) {
			t.Errorf("%q is not registered", name)
		}
	}
	all := All()
	if len(all) != len(names) {
		t.Fatalf("All() has %d machines, Names() %d", len(all), len(names))
	}
	var correct []string
	for i, m := range all {
		name := m.Info().Name
		if name != names[i] {
			t.Errorf("All()[%d] is %q, want %q", i, name, names[i])
		}
		got, ok := Lookup(name)
		if !ok || got.Info().Name != name {
			t.Errorf("Lookup(%q) = %v, %v", name, got, ok)
		}
		if m.Info().Bug == "" {
			correct = append(correct, name)
		}
	}
	var gotCorrect []string
	for _, m := range Correct() {
		gotCorrect = append(gotCorrect, m.Info().Name)
	}
	if !slices.Equal(gotCorrect, correct) {
		t.Errorf("Correct() = %v, want %v", gotCorrect, correct)
	}
	if _, ok := Lookup("bully"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	all[0] = nil
	if All()[0] == nil {
		t.Error("All() shares its slice between callers")
	}
}

// slip is CR with an Info of the test's choosing, to register.
type slip struct {
	CR
	info spec.Info
}

func (p slip) Info() spec.Info { return p.info }

// bareState has neither Fields nor Encode: it cannot be registered.
type bareState struct{}

func (bareState) Decision() spec.Decision { return spec.Decision{} }

func (bareState) String() string { return "bare" }

// noEncoding is a protocol over bareState.
type noEncoding struct{}

func (noEncoding) Info() spec.Info { return spec.Info{Name: "no-encoding", Messages: []string{"m"}} }

func (noEncoding) Init(spec.Env) bareState { return bareState{} }

func (noEncoding) Step(s bareState, _ spec.Event, _ *spec.Outbox) bareState { return s }

// TestRegisterRejects: what would make a protocol unusable stops the
// package from initialising, so it cannot go unnoticed.
func TestRegisterRejects(t *testing.T) {
	cr := CR{}.Info()
	with := func(change func(*spec.Info)) func() {
		info := CR{}.Info()
		info.Name = "cr-test"
		change(&info)
		return func() { register[CRState](slip{info: info}) }
	}
	tests := []struct {
		name string
		reg  func()
		want string
	}{
		{"a name twice", func() { register[CRState](slip{info: cr}) }, `"cr" is registered twice`},
		{"a kind without a name", with(func(in *spec.Info) { in.Messages = []string{2: "late"} }), "kind 0 has no name"},
		{"two kinds with one name", with(func(in *spec.Info) { in.Messages = []string{"probe", "probe"} }), `named "probe"`},
		{"no kinds", with(func(in *spec.Info) { in.Messages = nil }), "no message kinds"},
		{"an incomplete formula", with(func(in *spec.Info) { in.Literature[0].Value = nil }), "without its"},
		{"a formula's stat", with(func(in *spec.Info) { in.Literature[0].Stat = "median" }), "not min, mean or max"},
		{"no encoding", func() { register[bareState](noEncoding{}) }, "no Fields method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved := slices.Clone(registry)
			defer func() {
				registry = saved
				r := recover()
				if msg := fmt.Sprint(r); r == nil || !strings.Contains(msg, tt.want) {
					t.Errorf("panic %v, want one saying %q", r, tt.want)
				}
			}()
			tt.reg()
		})
	}
}

// TestInfo holds the built-in protocols to the house rules: a Source with
// docs/references.md anchors, a title and a bound, Breaks one of the
// properties, no Leftovers or KnowsN. They are this repository's rules, not
// the contract: a user's protocol, given to cli.Run or elcheck.Verify, is
// asked only for what spec.Info.Validate checks (cli's TestUserMachines
// runs one without a Source).
func TestInfo(t *testing.T) {
	refs := readReferences(t)
	for _, m := range All() {
		info := m.Info()
		t.Run(info.Name, func(t *testing.T) {
			checkSource(t, info, refs)
			switch {
			case info.Title == "", info.Source == "":
				t.Error("no Title or Source")
			case info.Topology > spec.Complete:
				t.Errorf("topology %v", info.Topology)
			case len(info.Messages) == 0:
				t.Error("no message kinds")
			case info.Bound.Formula == "" || info.Bound.Max == nil:
				t.Error("no bound")
			case info.Leftovers || info.KnowsN:
				t.Error("Leftovers or KnowsN set")
			}
			// Every process but the leader must hear of it: n - 1 messages
			// at least (a ring's n, to go round; a tree's 4N-4 is 0 at 1).
			for n := 1; n <= 8; n++ {
				if info.Bound.Max(n) < n-1 {
					t.Errorf("Bound.Max(%d) = %d", n, info.Bound.Max(n))
				}
			}
			if info.Bug == "" {
				if info.Breaks != "" {
					t.Errorf("correct protocol with Breaks %q", info.Breaks)
				}
				if info.Channels != spec.FIFO {
					t.Errorf("correct protocol on %v channels", info.Channels)
				}
				return
			}
			if !slices.Contains(properties, info.Breaks) {
				t.Errorf("Breaks %q is not one of %v", info.Breaks, properties)
			}
			// A buggy variant is named after the correct protocol it breaks
			// and keeps its message kinds and winner.
			base := ""
			for _, name := range Names() {
				if strings.HasPrefix(info.Name, name+"-") && len(name) > len(base) {
					base = name
				}
			}
			b, ok := Lookup(base)
			if !ok || b.Info().Bug != "" {
				t.Fatalf("no correct protocol %q for variant %q", base, info.Name)
			}
			if !slices.Equal(b.Info().Messages, info.Messages) || b.Info().Winner != info.Winner {
				t.Errorf("variant changes kinds or winner of %s", base)
			}
		})
	}
}

// references is what docs/references.md says: its anchors, and the table
// "Which protocol follows what", by protocol name.
type references struct {
	anchors map[string]bool
	follows map[string]followsRow
}

// followsRow is a row of that table: the anchor of the algorithm's
// original, the anchor of the source whose pseudo-code the protocol
// follows, and the part of that source ("Improved algorithm").
type followsRow struct {
	algorithm, source, part string
}

var (
	anchorRE  = regexp.MustCompile(`<a id="([a-z0-9-]+)"></a>`)
	followsRE = regexp.MustCompile("^\\| `([a-z0-9-]+)` \\| \\[[^]]*\\]\\(#([a-z0-9-]+)\\) \\| \\[[^]]*\\]\\(#([a-z0-9-]+)\\), (\"[^\"]+\") \\|")
	// sourceRE finds the anchors a Source names: "docs/references.md#cr79,
	// #slides-leader".
	sourceRE = regexp.MustCompile(`docs/references\.md((?:#[a-z0-9-]+(?:, )?)+)$`)
)

func readReferences(t *testing.T) references {
	t.Helper()
	b, err := os.ReadFile("../docs/references.md")
	if err != nil {
		t.Fatal(err)
	}
	r := references{anchors: map[string]bool{}, follows: map[string]followsRow{}}
	for _, m := range anchorRE.FindAllStringSubmatch(string(b), -1) {
		r.anchors[m[1]] = true
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m := followsRE.FindStringSubmatch(line); m != nil {
			r.follows[m[1]] = followsRow{algorithm: m[2], source: m[3], part: m[4]}
		}
	}
	if len(r.anchors) == 0 || len(r.follows) == 0 {
		t.Fatalf("docs/references.md: %d anchors, %d rows in the table of which protocol follows what", len(r.anchors), len(r.follows))
	}
	return r
}

// checkSource: a Source ends with the anchors in docs/references.md of the
// algorithm's original and of the source whose pseudo-code the protocol (or,
// for a buggy variant, the correct protocol it breaks) follows, as that
// file's table says, and quotes the part of the source the table names.
func checkSource(t *testing.T, info spec.Info, refs references) {
	t.Helper()
	m := sourceRE.FindStringSubmatch(info.Source)
	if m == nil {
		t.Errorf("Source %q does not end with docs/references.md#anchor", info.Source)
		return
	}
	var named []string
	for a := range strings.SplitSeq(m[1], ",") {
		a = strings.TrimPrefix(strings.TrimSpace(a), "#")
		if !refs.anchors[a] {
			t.Errorf("Source %q names #%s, which docs/references.md does not have", info.Source, a)
		}
		named = append(named, a)
	}
	base := baseName(info)
	row, ok := refs.follows[base]
	if !ok {
		t.Errorf("docs/references.md's table of which protocol follows what has no row for %q", base)
		return
	}
	for _, a := range []string{row.algorithm, row.source} {
		if !slices.Contains(named, a) {
			t.Errorf("Source %q does not name #%s, which docs/references.md gives for %s", info.Source, a, base)
		}
	}
	if !strings.Contains(info.Source, row.part) {
		t.Errorf("Source %q does not quote %s, the part docs/references.md gives for %s", info.Source, row.part, base)
	}
}

// baseName is the correct protocol info belongs to: itself, or for a buggy
// variant the longest registered name its name extends with "-".
func baseName(info spec.Info) string {
	if info.Bug == "" {
		return info.Name
	}
	base := ""
	for _, n := range Names() {
		if strings.HasPrefix(info.Name, n+"-") && len(n) > len(base) {
			base = n
		}
	}
	return base
}

// TestReferencesTable: every row of docs/references.md's table of which
// protocol follows what names a registered correct protocol.
func TestReferencesTable(t *testing.T) {
	for name := range readReferences(t).follows {
		m, ok := Lookup(name)
		if !ok || m.Info().Bug != "" {
			t.Errorf("docs/references.md has a row for %q, which is not a registered correct protocol", name)
		}
	}
}
