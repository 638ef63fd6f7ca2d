package invariants

import (
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// The bound is decided in one place for every engine and for bounds: the
// comparison (more than the bound, not at it) and the words.
func TestCheckBound(t *testing.T) {
	tri := spec.Info{Bound: spec.Bound{Formula: "n(n+1)/2", Max: func(n int) int { return n * (n + 1) / 2 }}}
	// A bound per network: twice the channels, on a path of 3 (4
	// channels) and a triangle (6).
	links := spec.Info{Bound: spec.Bound{Formula: "2E", Max: func(n int) int { return n * (n - 1) },
		Of: func(t *spec.Topology) int { return 2 * len(t.Edges) }}}
	path, _ := spec.NewNetwork(spec.Graph, 3, [][2]int{{0, 1}, {1, 2}})
	triangle, _ := spec.NewNetwork(spec.Graph, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}})
	tests := []struct {
		name   string
		info   spec.Info
		n      int
		top    *spec.Topology // a ring of n if nil
		most   int
		detail string // "" for no violation
	}{
		{"within on the triangle", links, 3, &triangle, 12, ""},
		{"over on the path", links, 3, &path, 9, "an execution sends 9 messages, more than the declared bound 2E = 8 on the connected graph (links 0-1,1-2)"},
		{"no bound declared", spec.Info{}, 3, nil, 1000, ""},
		{"below", tri, 3, nil, 5, ""},
		{"at the bound", tri, 3, nil, 6, ""},
		{"one over", tri, 3, nil, 7, "an execution sends 7 messages, more than the declared bound n(n+1)/2 = 6"},
		{"larger ring", tri, 5, nil, 16, "an execution sends 16 messages, more than the declared bound n(n+1)/2 = 15"},
		{"nothing measured", tri, 3, nil, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := tt.top
			if top == nil {
				ring := spec.NewUniRing(tt.n)
				top = &ring
			}
			v := CheckBound(tt.info, top, tt.most)
			switch {
			case tt.detail == "" && v != nil:
				t.Errorf("violation %v, want none", v)
			case tt.detail != "" && (v == nil || v.Property != MessageBound || v.Detail != tt.detail):
				t.Errorf("got %v, want %s: %s", v, MessageBound, tt.detail)
			}
		})
	}
}

// Each outcome has its text, today's last line of a report.
func TestVerdictString(t *testing.T) {
	tests := []struct {
		v    Verdict
		want string
	}{
		{Verdict{Outcome: Verified}, "VERIFIED"},
		{Verdict{Outcome: Violated, Property: Validity}, "VIOLATED: validity"},
		{Verdict{Outcome: Incomplete, Reason: "state limit of 50 reached after 3 of 90 configurations"}, "INCOMPLETE: state limit of 50 reached after 3 of 90 configurations"},
		{Verdict{Outcome: Internal, Reason: "internal error after 0 of 90 configurations"}, "INCOMPLETE: internal error after 0 of 90 configurations"},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%s verdict: %q, want %q", tt.v.Outcome, got, tt.want)
		}
	}
}

// The notes are what explore wrote before they moved here.
func TestReportNotes(t *testing.T) {
	tri := spec.Bound{Formula: "n(n+1)/2", Max: func(n int) int { return n * (n + 1) / 2 }}
	done := Figures{N: 3, Complete: true, UniformChecked: 12, UniformEvery: 17, Relabellings: "every configuration re-explored", Bound: tri, MaxMessages: 5}
	cut := done
	cut.Complete = false
	type want struct {
		note    string
		checked bool
	}
	tests := []struct {
		name string
		f    Figures
		want map[string]want
	}{
		{"complete", done, map[string]want{
			AtMostOneLeader:  {"", true},
			Decentralization: {"all 7 non-empty initiator sets", true},
			Uniformity:       {"by construction: a process sees its id and its ports, never its position; the engine's symmetry self-check ran on 12 states (every 17th)", true},
			ComparisonOnly:   {"every configuration re-explored", true},
			MessageBound:     {"max 5, bound n(n+1)/2 = 6", true},
		}},
		{"cut short", cut, map[string]want{
			Decentralization: {"", true},
			ComparisonOnly:   {"", true},
			MessageBound:     {"max 5, bound n(n+1)/2 = 6", true},
		}},
		{"nothing measured", Figures{N: 3, Bound: tri, MaxMessages: -1, Relabellings: "x"}, map[string]want{
			MessageBound: {"", true},
			Uniformity:   {"by construction: a process sees its id and its ports, never its position; the engine's symmetry self-check was off", true},
		}},
		{"not checked", Figures{N: 3, Complete: true, InitiatorsFixed: true, UniformEvery: 17, MaxMessages: 4}, map[string]want{
			Decentralization: {"initiators fixed by -initiators", false},
			ComparisonOnly:   {"", false},
			MessageBound:     {"no bound declared", false},
			Uniformity:       {"by construction: a process sees its id and its ports, never its position; the engine's symmetry self-check ran on no state", true},
		}},
		{"bound left to the caller", Figures{N: 3, Bound: tri, BoundIgnored: true, MaxMessages: 9}, map[string]want{
			MessageBound: {"left to the caller, which compares the figures with the bound itself", false},
		}},
		{"violated", Figures{N: 3, InitiatorsFixed: true, Violated: []string{Decentralization, Validity}, Reported: &Violation{Validity, "p0 (id 1) is leader"}}, map[string]want{
			Validity:         {"p0 (id 1) is leader", true},
			Decentralization: {"violated in some configuration", true},
			Agreement:        {"", true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, w := range tt.want {
				p, ok := Lookup(name)
				if !ok {
					t.Fatalf("no property %s", name)
				}
				if note, checked := p.Report(tt.f); note != w.note || checked != w.checked {
					t.Errorf("%s: %q, checked %v; want %q, %v", name, note, checked, w.note, w.checked)
				}
			}
		})
	}
}

// Every outcome has its word in the JSON reports, and the verdict's
// property and reason go with it as they are.
func TestVerdictJSON(t *testing.T) {
	tests := []struct {
		v    Verdict
		want JSONVerdict
	}{
		{Verdict{Outcome: Verified}, JSONVerdict{Outcome: "verified"}},
		{Verdict{Outcome: Violated, Property: Validity}, JSONVerdict{Outcome: "violated", Property: Validity}},
		{Verdict{Outcome: Incomplete, Reason: "time limit reached"}, JSONVerdict{Outcome: "incomplete", Reason: "time limit reached"}},
		{Verdict{Outcome: Internal, Reason: "internal error after 0 of 6 configurations"}, JSONVerdict{Outcome: "internal", Reason: "internal error after 0 of 6 configurations"}},
	}
	for _, tt := range tests {
		if got := tt.v.JSON(); got != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.v, got, tt.want)
		}
	}
}
