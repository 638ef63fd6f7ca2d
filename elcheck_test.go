package elcheck

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// Bad arguments are errors naming what is wrong.
func TestVerifyRefuses(t *testing.T) {
	cr, _ := protocols.Lookup("cr")
	for _, tc := range []struct {
		name string
		m    spec.Machine
		n    int
		opts []Option
		want string
	}{
		{"nil machine", nil, 3, nil, "nil machine"},
		{"n too small", cr, 0, nil, "between 1 and 16"},
		{"n too large", cr, 17, nil, "between 1 and 16"},
		{"ids too few", cr, 3, []Option{IDs(1, 2)}, "2 ids for 3 processes"},
		{"ids repeated", cr, 3, []Option{IDs(1, 2, 2)}, "repeated"},
		{"initiator out of range", cr, 3, []Option{Initiators(3)}, "not a position"},
		{"no initiators", cr, 3, []Option{Initiators()}, "no initiators"},
		{"workers", cr, 3, []Option{Workers(-1)}, "workers"},
		{"state limit", cr, 3, []Option{MaxStates(-1)}, "state limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Verify(context.Background(), tc.m, tc.n, tc.opts...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Verify: %v, %v; want an error saying %q", rep, err, tc.want)
			}
		})
	}
}

// The options reach the search, and reduction changes the effort but not
// the verdict.
func TestVerifyOptions(t *testing.T) {
	cr, _ := protocols.Lookup("cr")
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		opts    []Option
		outcome invariants.Outcome
		configs int
	}{
		{"default", nil, invariants.Verified, 14},
		{"no reduction", []Option{Reduction(false)}, invariants.Verified, 42},
		{"fixed ids and initiators", []Option{IDs(3, 1, 2), Initiators(0, 2)}, invariants.Verified, 1},
		{"bag channels", []Option{Channels(spec.Bag), Workers(1)}, invariants.Verified, 14},
		{"state limit", []Option{MaxStates(10)}, invariants.Incomplete, 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Verify(ctx, cr, 3, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict.Outcome != tc.outcome || rep.Configurations != tc.configs {
				t.Errorf("%v on %d configurations, want %v on %d", rep.Verdict, rep.Configurations, tc.outcome, tc.configs)
			}
			if (rep.Counterexample != nil) != (tc.outcome == invariants.Violated) || (rep.Text != "") != (rep.Counterexample != nil) {
				t.Errorf("counterexample %v, text %q with verdict %v", rep.Counterexample, rep.Text, rep.Verdict)
			}
		})
	}
}

// userMachine is a built-in dressed as a user's protocol that breaks the
// repository's house rules (no Source, KnowsN): Verify asks only for what
// spec.Info.Validate checks.
type userMachine struct{ spec.Machine }

func (m userMachine) Info() spec.Info {
	info := m.Machine.Info()
	info.Name, info.Source, info.KnowsN = "mine", "", true
	return info
}

func TestVerifyUserMachine(t *testing.T) {
	cr, _ := protocols.Lookup("cr")
	rep, err := Verify(context.Background(), userMachine{cr}, 3)
	if err != nil || rep.Verdict.Outcome != invariants.Verified || rep.Algo != "mine" {
		t.Fatalf("Verify: %+v, %v; want mine verified", rep, err)
	}
}

// A protocol that relies on port 0 leading the same way everywhere is
// correct on the oriented ring and caught on the unoriented one, which
// covers 2^n (n-1)!/2 placements; a one-way ring has nothing to orient.
func TestAnyOrientation(t *testing.T) {
	m := spec.Erase(fixtures.Clockwise{})
	ctx := context.Background()
	for n := 3; n <= 4; n++ {
		fact := 1
		for k := 2; k < n; k++ {
			fact *= k
		}
		inits := 1<<n - 1
		rep, err := Verify(ctx, m, n)
		if err != nil || rep.Verdict.Outcome != invariants.Verified || rep.Configurations != fact*inits {
			t.Fatalf("n=%d oriented: %v, %v", n, rep, err)
		}
		rep, err = Verify(ctx, m, n, AnyOrientation(), Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		if v := rep.Verdict; v.Outcome != invariants.Violated || v.Property != m.Info().Breaks || rep.Configurations != (1<<n)*fact/2*inits {
			t.Errorf("n=%d any orientation: %v, %d configurations; want %s violated over %d", n, v, rep.Configurations, m.Info().Breaks, (1<<n)*fact/2*inits)
		}
		var b strings.Builder
		rep.Counterexample.WriteText(&b)
		t.Logf("n=%d:\n%s", n, b.String())
	}
	cr, _ := protocols.Lookup("cr")
	if _, err := Verify(ctx, cr, 3, AnyOrientation()); err == nil || !strings.Contains(err.Error(), "one port") {
		t.Errorf("cr with any orientation: %v", err)
	}
}

// Family, Network and Capacity narrow the space as -topology, -graph and
// -capacity do: flooding is correct on every network, and deadlocks on a
// square once channels hold one message.
func TestFamilyNetworkCapacity(t *testing.T) {
	m := spec.Erase(fixtures.Flood{})
	ctx := context.Background()
	square := Network([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 0})
	tests := []struct {
		name    string
		n       int
		opts    []Option
		configs int
		want    invariants.Outcome
		prop    string
	}{
		// Placements are up to the automorphisms that keep the ports'
		// numbers (spec.Topology.PortPreserving), which ports numbered by
		// neighbour leave few of: 36 over the path and the star of 4,
		// 12 on the square, each with 15 initiator sets.
		{"trees", 4, []Option{Family(spec.Tree)}, 36 * 15, invariants.Verified, ""},
		{"complete", 3, []Option{Family(spec.Complete)}, 6 * 7, invariants.Verified, ""},
		{"a path", 4, []Option{Network([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3})}, 24 * 15, invariants.Verified, ""},
		{"a square", 4, []Option{square}, 12 * 15, invariants.Verified, ""},
		{"a square at capacity 1", 4, []Option{square, Capacity(1)}, 12 * 15, invariants.Violated, invariants.Deadlock},
	}
	for _, tt := range tests {
		rep, err := Verify(ctx, m, tt.n, append(tt.opts, Workers(1))...)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if rep.Configurations != tt.configs || rep.Verdict.Outcome != tt.want || rep.Verdict.Property != tt.prop {
			t.Errorf("%s: %d configurations, %v; want %d, %v %s", tt.name, rep.Configurations, rep.Verdict, tt.configs, tt.want, tt.prop)
		}
	}
	for _, bad := range []struct {
		opt  Option
		want string
	}{
		{Family(spec.BiRing), "not on a bidirectional ring"},
		{Network([2]int{0, 1}), "connected"},
		{Capacity(-1), "capacity -1"},
	} {
		if _, err := Verify(ctx, m, 4, bad.opt); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("want an error saying %q, got %v", bad.want, err)
		}
	}
}

// A protocol that caches a step's result in a package-level map is named
// step-purity, as on the command line, though the cache makes its
// counterexample look like arithmetic on ids (comparison-only) in the
// process that searched: the finding does not occur again on ids the
// search had not used. Protocols that do misuse ids stay comparison-only,
// with the property violated and nothing demoted.
func TestImpureNamedStepPurity(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		m    spec.Machine
		n    int
		want string
	}{
		{spec.Erase(fixtures.PkgCache{}), 3, invariants.StepPurity},
		{spec.Erase(fixtures.PkgCache{}), 4, invariants.StepPurity},
		{spec.Erase(fixtures.PkgCache{}), 3, invariants.StepPurity}, // again, the cache as the first run left it
		{spec.Erase(fixtures.OddSkips{}), 3, invariants.ComparisonOnly},
		{spec.Erase(fixtures.Overflow{}), 3, invariants.ComparisonOnly},
	} {
		rep, err := Verify(ctx, tt.m, tt.n, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s n=%d", tt.m.Info().Name, tt.n)
		if v := rep.Verdict; v.Outcome != invariants.Violated || v.Property != tt.want || rep.Counterexample == nil || rep.Counterexample.Property != tt.want {
			t.Fatalf("%s: %v, want %s violated with its counterexample:\n%s", name, v, tt.want, rep.Text)
		}
		if !slices.Equal(rep.Result.Violated, []string{tt.want}) {
			t.Errorf("%s: violated %v, want only %s", name, rep.Result.Violated, tt.want)
		}
		if tt.want == invariants.StepPurity && !strings.Contains(rep.Counterexample.Detail, "does not reproduce on a fresh copy of its configuration") {
			t.Errorf("%s: the detail does not say why:\n%s", name, rep.Counterexample.Detail)
		}
	}
}

// What the command line gives Verify: a space of its own (one network of a
// family too large to enumerate, which Verify then does not enumerate), the
// explorer's options, and how to confirm a counterexample; a confirmation
// that fails is an InternalError.
func TestVerifyGivenSpace(t *testing.T) {
	ctx := context.Background()
	flood := spec.Erase(fixtures.Flood{})
	path := Network([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 4}, [2]int{4, 5}, [2]int{5, 6})
	rep, err := Verify(ctx, flood, 7, path, IDs(1, 2, 3, 4, 5, 6, 7), Initiators(0), Workers(1))
	if err != nil || rep.Verdict.Outcome != invariants.Verified || rep.Configurations != 1 {
		t.Fatalf("flood on a path of 7: %+v, %v; want verified on 1 configuration", rep, err)
	}
	cr, _ := protocols.Lookup("cr")
	sp, err := configs.NewSpace(spec.UniRing, 3)
	if err != nil {
		t.Fatal(err)
	}
	sp.IDs = []spec.ID{3, 1, 2}
	limited := explore.DefaultOptions()
	limited.MaxStates = 10
	rep, err = Verify(ctx, cr, 3, Space(sp), Explore(limited))
	if err != nil || rep.Verdict.Outcome != invariants.Incomplete || rep.Configurations != 7 {
		t.Fatalf("cr on ids 3,1,2 with a state limit: %+v, %v; want incomplete over 7 configurations", rep, err)
	}
	if _, err := Verify(ctx, cr, 4, Space(sp)); err == nil || !strings.Contains(err.Error(), "a space of 3 processes given for n = 4") {
		t.Errorf("a space of 3 for n = 4: %v", err)
	}
	flip, _ := protocols.Lookup("cr-flip")
	failing := counterexamples.Confirmation{Rebuild: func(spec.Machine, *explore.Violation) (*counterexamples.Trace, error) {
		return nil, errors.New("injected failure")
	}}
	_, err = Verify(ctx, flip, 3, Confirm(failing))
	var ie *InternalError
	if !errors.As(err, &ie) || ie.Search || !strings.Contains(err.Error(), "injected failure") {
		t.Errorf("a counterexample that does not re-execute: %v; want an InternalError saying why", err)
	}
}
