package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

func TestBoundsBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing n", []string{"bounds", "-algo=cr"}, "missing -n: a ring size like 5 or a range like 3..7"},
		{"reversed range", []string{"bounds", "-algo=cr", "-n=7..3"}, "-n=7..3 is an empty range: write the smaller size first, e.g. -n=3..7"},
		{"range not numbers", []string{"bounds", "-algo=cr", "-n=x..5"}, "-n=x..5: write a size like 5 or a range like 3..7"},
		{"open range", []string{"bounds", "-algo=cr", "-n=3.."}, "write a size like 5 or a range like 3..7"},
		{"n not a number", []string{"bounds", "-algo=cr", "-n=five"}, "write a size like 5"},
		{"range too large", []string{"bounds", "-algo=cr", "-n=3..17"}, "n must be between 1 and 16"},
		{"range from zero", []string{"bounds", "-algo=cr", "-n=0..3"}, "n must be between 1 and 16"},
		{"missing algo", []string{"bounds", "-n=3"}, "missing -algo"},
		{"unknown algo", []string{"bounds", "-algo=nope", "-n=3"}, `unknown algorithm "nope"`},
		{"ids with a range", []string{"bounds", "-algo=cr", "-n=3..4", "-ids=1,2,3"}, "-ids fixes one placement of n ids: give one size"},
		{"ids wrong count", []string{"bounds", "-algo=cr", "-n=3", "-ids=1,2"}, "has 2 ids but -n=3"},
		{"initiator beyond the smallest ring", []string{"bounds", "-algo=cr", "-n=3..5", "-initiators=0,4"}, "positions are 0 to 2"},
		{"bad format", []string{"bounds", "-algo=cr", "-n=3", "-format=xml"}, "use text, json, csv or markdown"},
		{"plot not svg", []string{"bounds", "-algo=cr", "-n=3", "-plot=cr.png"}, "name it FILE.svg"},
		{"bad reduce", []string{"bounds", "-algo=cr", "-n=3", "-reduce=some"}, "use none, por, sym or all"},
		{"negative max-states", []string{"bounds", "-algo=cr", "-n=3", "-max-states=-1"}, "must not be negative"},
		{"verify flag", []string{"bounds", "-algo=cr", "-n=3", "-shard=0/2"}, "flag provided but not defined"},
		{"argument", []string{"bounds", "-algo=cr", "-n=3", "extra"}, `unexpected argument "extra"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectUsageError(t, tt.args, tt.want) })
	}
}

func TestBoundsExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		code int
		last string
	}{
		{[]string{"bounds", "-algo=cr", "-n=3..4"}, exitVerified, "WITHIN BOUND"},
		{[]string{"bounds", "-algo=cr", "-n=4", "-ids=1,3,2,4", "-initiators=all"}, exitVerified, "WITHIN BOUND"},
		{[]string{"bounds", "-algo=dkr-nosecond", "-n=3"}, exitViolated, "EXCEEDED: the declared bound 2N⌊log N⌋ + 2N at n=3"},
		{[]string{"bounds", "-algo=cr-flip", "-n=3"}, exitViolated, "VIOLATED: validity"},
		{[]string{"bounds", "-algo=dkr", "-n=3..5", "-max-states=300"}, exitIncomplete, "INCOMPLETE: n=4: state limit of 130 reached"}, // n=3 has 170 states
		{[]string{"bounds", "-algo=dkr", "-n=4", "-timeout=1ns"}, exitIncomplete, "INCOMPLETE: time limit reached before n=4"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := expectExit(t, tt.args, tt.code, tt.last)
			// The ring cut short claims nothing.
			if tt.code == exitIncomplete && (strings.Contains(out, "WITHIN") || strings.Contains(out, "24: within")) {
				t.Errorf("an incomplete run claims a bound holds:\n%s", out)
			}
		})
	}
}

// tightMachine declares a bound one message too small.
type tightMachine struct{ spec.Machine }

func (m tightMachine) Info() spec.Info {
	info := m.Machine.Info()
	real := info.Bound.Max
	info.Name += "-tight"
	info.Bound = spec.Bound{Formula: "(" + info.Bound.Formula + ") - 1", Max: func(n int) int { return real(n) - 1 }}
	return info
}

// A variant whose declared bound is too small: EXCEEDED, exit 1, and the
// execution written with -worst-out is one elcheck replay confirms.
func TestBoundsTooSmallReplays(t *testing.T) {
	e := newEnv(nil)
	e.lookup = func(name string) (spec.Machine, bool) {
		if name == "cr-tight" {
			m, _ := protocols.Lookup("cr")
			return tightMachine{m}, true
		}
		return protocols.Lookup(name)
	}
	dir := t.TempDir()
	worst, plot := filepath.Join(dir, "worst.json"), filepath.Join(dir, "cr.svg")
	code, out, stderr := e.elcheck("bounds", "-algo=cr-tight", "-n=3..4", "-worst-out="+worst, "-plot="+plot)
	if code != exitViolated {
		t.Fatalf("exit %d, want 1:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"n=3: EXCEEDED: an execution sends 9 messages, more than the declared bound (n(n+1)/2 probes + n SELECTED) - 1 = 8",
		"written to " + worst + "; re-run it with: elcheck replay " + worst,
		"EXCEEDED: the declared bound (n(n+1)/2 probes + n SELECTED) - 1 at n=3, 4",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report does not say %q:\n%s", want, out)
		}
	}
	code, out, stderr = e.elcheck("replay", worst)
	if code != exitViolated || !strings.Contains(out, "CONFIRMED: message-bound: the execution sends 9 messages, more than (n(n+1)/2 probes + n SELECTED) - 1 = 8") {
		t.Errorf("replay exit %d, want 1 and CONFIRMED:\n%s%s", code, out, stderr)
	}
	readChart(t, plot) // well-formed XML, as a chart is
}

// A registered variant that breaks its bound: the worst execution replays
// with the registry's own machine. With the bound held, -worst-out writes
// the execution with the most messages, which replay runs but does not
// confirm.
func TestBoundsWorstOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "worst.json")
	if code, out, _ := elcheck("bounds", "-algo=dkr-nosecond", "-n=3..4", "-worst-out="+path); code != exitViolated {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, out, _ := elcheck("replay", path); code != exitViolated || !strings.Contains(out, "CONFIRMED: message-bound: the execution sends 18 messages") {
		t.Errorf("replay exit %d:\n%s", code, out)
	}
	if code, out, _ := elcheck("bounds", "-algo=cr", "-n=3..4", "-worst-out="+path); code != exitVerified || !strings.Contains(out, "the execution with the most messages (n=4, 14 messages") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if code, out, _ := elcheck("replay", path); code != exitVerified || !strings.Contains(out, "REPLAYED: the execution sends 14 messages, within") {
		t.Errorf("replay exit %d:\n%s", code, out)
	}
	// The same execution without the mark is a violation trace that no
	// longer exceeds the bound.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"worst": true`)) {
		t.Fatalf("%s has no worst mark:\n%s", path, b)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(`"worst": true`), []byte(`"worst": false`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := elcheck("replay", path); code != exitNotReproduced || !strings.Contains(out, "NOT REPRODUCED: the execution sends 14 messages, within") {
		t.Errorf("replay exit %d:\n%s", code, out)
	}
}

func TestBoundsFormats(t *testing.T) {
	code, out, _ := elcheck("bounds", "-algo=cr", "-n=3..4", "-format=json")
	var j struct {
		Algo string `json:"algo"`
		Rows []struct {
			N       int `json:"n"`
			Figures []struct {
				Name    string `json:"name"`
				Min     int64  `json:"min"`
				MeanMax string `json:"mean_max"`
				Max     int64  `json:"max"`
			} `json:"figures"`
			Bound struct {
				Bound  int64  `json:"bound"`
				Status string `json:"status"`
			} `json:"bound"`
		} `json:"rows"`
		Verdict string `json:"verdict"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil || code != exitVerified {
		t.Fatalf("exit %d, %v:\n%s", code, err, out)
	}
	if j.Algo != "cr" || len(j.Rows) != 2 || j.Rows[1].N != 4 || j.Rows[1].Figures[1].Name != "probe" || j.Rows[1].Figures[1].MeanMax != "25/3" ||
		j.Rows[1].Bound.Bound != 14 || j.Rows[1].Bound.Status != "within" || j.Verdict != "WITHIN BOUND" {
		t.Errorf("unexpected JSON: %+v", j)
	}
	code, out, _ = elcheck("bounds", "-algo=cr", "-n=3..5", "-format=csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || code != exitVerified || len(recs) != 4 || recs[0][0] != "algo" || recs[3][1] != "5" {
		t.Errorf("exit %d, %v: %q", code, err, recs)
	}
	code, out, _ = elcheck("bounds", "-algo=cr", "-n=3", "-format=markdown")
	if code != exitVerified || !strings.HasPrefix(out, "### cr\n") || !strings.Contains(out, "| n | configurations | messages min |") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// bounds -format=json gives its verdict as data too, beside the text line.
func TestBoundsVerdictJSON(t *testing.T) {
	type verdict struct {
		Verdict  string `json:"verdict"`
		Outcome  string `json:"outcome"`
		Property string `json:"property"`
		Reason   string `json:"reason"`
	}
	const stop = "n=3: state limit of 10 reached after 1 of 14 configurations"
	tests := []struct {
		args []string
		code int
		want verdict
	}{
		{[]string{"-algo=cr", "-n=3"}, exitVerified, verdict{"WITHIN BOUND", "verified", "", ""}},
		{[]string{"-algo=cr-flip", "-n=3"}, exitViolated, verdict{"VIOLATED: validity", "violated", "validity", ""}},
		{[]string{"-algo=dkr-nosecond", "-n=6"}, exitViolated, verdict{"EXCEEDED: the declared bound 2N⌊log N⌋ + 2N at n=6", "violated", "message-bound", "the declared bound 2N⌊log N⌋ + 2N at n=6"}},
		{[]string{"-algo=cr", "-n=3", "-max-states=10", "-workers=1"}, exitIncomplete, verdict{"INCOMPLETE: " + stop, "incomplete", "", stop}},
	}
	for _, tt := range tests {
		code, out, stderr := elcheck(append([]string{"bounds", "-format=json"}, tt.args...)...)
		var got verdict
		if err := json.Unmarshal([]byte(out), &got); err != nil || code != tt.code {
			t.Errorf("%v: exit %d, %v\n%s%s", tt.args, code, err, out, stderr)
			continue
		}
		if got != tt.want {
			t.Errorf("%v: got %+v, want %+v", tt.args, got, tt.want)
		}
	}
}
