package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/urfave/cli/v2"
)

// shardReports runs verify args -shard=i/k -format=json in this process for
// every i and returns each report as a generic JSON object, to be edited.
func shardReports(t testing.TB, k int, args ...string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for i := range k {
		a := append(append([]string{"verify"}, args...), fmt.Sprintf("-shard=%d/%d", i, k), "-format=json")
		code, stdout, stderr := elcheck(a...)
		if code == exitUsage || code == exitInternal {
			t.Fatalf("%v: exit %d\n%s", a, code, stderr)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(stdout), &m); err != nil {
			t.Fatalf("%v: %v\n%s", a, err, stdout)
		}
		out = append(out, m)
	}
	return out
}

// set sets the field at path in a JSON object: dot-separated keys and
// array indices, as "properties.4.status".
func set(t testing.TB, v any, path string, val any) {
	t.Helper()
	keys := strings.Split(path, ".")
	for n, key := range keys {
		last := n == len(keys)-1
		switch c := v.(type) {
		case map[string]any:
			if last {
				c[key] = val
				return
			}
			v = c[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i >= len(c) {
				t.Fatalf("%s: no element %s", path, key)
			}
			if last {
				c[i] = val
				return
			}
			v = c[i]
		default:
			t.Fatalf("%s: %s is not in an object or array", path, key)
		}
	}
}

// writeReports writes reports to files shard-i.json in a new directory.
func writeReports(t *testing.T, reports []map[string]any) []string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, r := range reports {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(dir, fmt.Sprintf("shard-%d.json", i)))
		if err := os.WriteFile(files[i], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// merge proves a space by exhaustion: it takes no shard's word for what
// its counts do not bear out. A report edited to claim more than it counts
// is refused with the file and the field named (exit 2); one that says,
// consistently, that it stopped early makes the merge INCOMPLETE (exit 3).
func TestMergeCrossChecks(t *testing.T) {
	type edit struct {
		path string
		val  any
	}
	// A report of shard 1 that stopped early, as -max-states writes it.
	incomplete := []edit{{"configurations_done", 10}, {"incomplete", "state limit reached"}, {"verdict", "INCOMPLETE: state limit reached"},
		{"outcome", "incomplete"}, {"reason", "state limit reached"}}
	for i := range 9 {
		incomplete = append(incomplete, edit{fmt.Sprintf("properties.%d.status", i), "unknown"}, edit{fmt.Sprintf("properties.%d.holds", i), false})
	}
	tests := []struct {
		name  string
		edits []edit // to shard 1's report
		code  int
		want  string // in the error line (exit 2), or the last line of stdout
	}{
		{"untouched", nil, exitVerified, "VERIFIED"},
		{"configurations done cut", []edit{{"configurations_done", 10}}, exitUsage, "shard-1.json: configurations_done: 10 of 30, yet the report says neither why"},
		{"more done than there are", []edit{{"configurations_done", 31}}, exitUsage, "shard-1.json: configurations_done: 31, more than the shard's 30"},
		{"configurations of another shard", []edit{{"configurations", 29}}, exitUsage, "shard-1.json: configurations: shard 1 of 3 has 30 configurations but the report says 29"},
		{"verdict violated without a violation", []edit{{"verdict", "VIOLATED: validity"}}, exitUsage, `shard-1.json: verdict: "VIOLATED: validity", but the report's contents give "shard 1 of 3: VERIFIED`},
		{"verdict the whole space's", []edit{{"verdict", "VERIFIED"}}, exitUsage, `shard-1.json: verdict: "VERIFIED"`},
		{"outcome violated without a violation", []edit{{"outcome", "violated"}}, exitUsage, `shard-1.json: outcome: "violated", but the report's contents give "verified"`},
		{"a property violated without a violation", []edit{{"properties.4.status", "violated"}, {"properties.4.holds", false}}, exitUsage,
			"shard-1.json: properties: validity is violated, but the report has no counterexample"},
		{"a property unknown in a verified report", []edit{{"properties.4.status", "unknown"}, {"properties.4.holds", false}}, exitUsage,
			"shard-1.json: properties: validity is unknown, yet the report says neither"},
		{"holds beside status unknown", []edit{{"properties.4.status", "unknown"}}, exitUsage, "shard-1.json: properties: validity: holds is true but its status is unknown"},
		{"a status that is none", []edit{{"properties.4.status", "fine"}}, exitUsage, `shard-1.json: properties: validity: status "fine"`},
		{"no properties", []edit{{"properties", []any{}}}, exitUsage, "shard-1.json: properties: [], but this elcheck checks"},
		{"negative states", []edit{{"states", -5}}, exitUsage, "shard-1.json: states: -5 is negative"},
		{"negative max depth", []edit{{"max_depth", -1}}, exitUsage, "shard-1.json: max_depth: -1 is negative"},
		{"a collision probability over 1", []edit{{"collision_probability", 2}}, exitUsage, "shard-1.json: collision_probability: 2 is not a probability"},
		{"messages min over max", []edit{{"messages.min", 99}}, exitUsage, "shard-1.json: messages: min 99, max 16"},
		{"a shard claiming the whole space", []edit{{"whole_space", true}}, exitUsage, "shard-1.json: whole_space: true in shard 1 of 3"},
		{"an unknown protocol", []edit{{"algo", "nope"}}, exitUsage, `shard-1.json: algo: "nope" is not a protocol`},
		{"a topology the protocol does not run on", []edit{{"topology", "tree"}}, exitUsage, "shard-1.json: topology: dkr does not run on a tree"},
		{"ids of the wrong length", []edit{{"space.ids", []any{1, 2}}}, exitUsage, "shard-1.json: space.ids: 2 ids for n=4"},
		{"an unknown search", []edit{{"search", "random"}}, exitUsage, `shard-1.json: search: "random"`},
		{"a shard of another run", []edit{{"n", 5}}, exitUsage, "shard-1.json: configurations_total: the space has 744 configurations but the report says 90"},
		{"a shard of another sweep", []edit{{"partial_order_reduction", false}}, exitUsage, "are not shards of one sweep: partial_order_reduction true in one, false in the other"},
		{"a shard relabelled", []edit{{"shard.index", 0}}, exitUsage, `shard-1.json: verdict: "shard 1 of 3: VERIFIED on its 30 of 90 configurations; `},
		{"a consistent early stop", incomplete, exitIncomplete, "INCOMPLETE: shard 1: state limit reached"},
		{"depth limited without a violation", []edit{{"configurations_depth_limited", 3}, {"depth_limit", 5}}, exitUsage,
			"shard-1.json: configurations_depth_limited: 3, but only a violation limits the depth of a search"},
		{"negative depth limited", []edit{{"configurations_depth_limited", -3}}, exitUsage, "shard-1.json: configurations_depth_limited: -3 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reports := shardReports(t, 3, "-algo=dkr", "-n=4")
			for _, e := range tt.edits {
				set(t, reports[1], e.path, e.val)
			}
			code, out, stderr := elcheck(append([]string{"merge"}, writeReports(t, reports)...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out, stderr)
			}
			if code == exitUsage {
				if !strings.Contains(stderr, tt.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
					t.Errorf("stderr %q is not one line saying %q", stderr, tt.want)
				}
				return
			}
			if last := lastLine(out); !strings.HasPrefix(last, tt.want) {
				t.Errorf("last line %q, want %q", last, tt.want)
			}
		})
	}
}

// A violated shard's counterexample must be in the shard and of a property
// the shard marks violated.
func TestMergeChecksCounterexample(t *testing.T) {
	tests := []struct {
		name string
		path string
		val  any
		want string
	}{
		{"config index of another shard", "counterexample.config_index", 0, "counterexample: config_index 0 is not a configuration of shard"},
		{"config index past the space", "counterexample.config_index", 90 * 3, "is not a configuration of shard"},
		{"a property not marked violated", "counterexample.property", "agreement", "counterexample: of agreement, which properties does not mark violated"},
		{"a trace of another property", "violation.property", "agreement", `violation: property "agreement", but the counterexample's is "validity"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reports := shardReports(t, 3, "-algo=cr-flip", "-n=4")
			k := -1
			for i, r := range reports {
				if r["counterexample"] != nil {
					k = i
				}
			}
			if k < 0 {
				t.Fatal("no shard of cr-flip at n=4 found a violation")
			}
			set(t, reports[k], tt.path, tt.val)
			code, out, stderr := elcheck(append([]string{"merge"}, writeReports(t, reports)...)...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q, want exit %d saying %q\n%s", code, stderr, exitUsage, tt.want, out)
			}
		})
	}
}

// The verdict as data: every report says its outcome in a word, the
// property violated, the reason it stopped, and whether it covers the
// whole space; holds is true only with status holds.
func TestVerdictJSON(t *testing.T) {
	type verdict struct {
		Verdict    string `json:"verdict"`
		Outcome    string `json:"outcome"`
		Property   string `json:"property"`
		Reason     string `json:"reason"`
		WholeSpace bool   `json:"whole_space"`
		Properties []struct {
			Name   string         `json:"name"`
			Holds  bool           `json:"holds"`
			Status explore.Status `json:"status"`
		} `json:"properties"`
	}
	flip := writeReports(t, shardReports(t, 3, "-algo=cr-flip", "-n=4"))
	dkr := writeReports(t, shardReports(t, 3, "-algo=dkr", "-n=4"))
	const stop = "state limit of 100 reached after 6 of 90 configurations"
	tests := []struct {
		name string
		args []string
		code int
		want verdict // but Properties
		// status of each property, in order: h holds, v violated, u
		// unknown, n not checked
		statuses string
	}{
		{"verified", []string{"verify", "-algo=dkr", "-n=3"}, exitVerified,
			verdict{Verdict: "VERIFIED", Outcome: "verified", WholeSpace: true}, "hhhhhhhhh"},
		{"violated", []string{"verify", "-algo=cr-flip", "-n=4"}, exitViolated,
			verdict{Verdict: "VIOLATED: validity", Outcome: "violated", Property: "validity", WholeSpace: true}, "uuuuvuuuu"},
		{"incomplete", []string{"verify", "-algo=dkr-nosecond", "-n=4", "-max-states=100", "-workers=1"}, exitIncomplete,
			verdict{Verdict: "INCOMPLETE: " + stop, Outcome: "incomplete", Reason: stop, WholeSpace: true}, "uuuuuuuuu"},
		{"not checked", []string{"verify", "-algo=dkr", "-n=3", "-initiators=0", "-skip-comparison-only"}, exitVerified,
			verdict{Verdict: "VERIFIED", Outcome: "verified", WholeSpace: true}, "hhhhhnhnh"},
		{"a shard", []string{"verify", "-algo=dkr", "-n=4", "-shard=1/3"}, exitVerified,
			verdict{Verdict: "shard 1 of 3: VERIFIED on its 30 of 90 configurations; run elcheck merge on the reports of all 3 shards for the whole space", Outcome: "verified"}, "hhhhhhhhh"},
		{"an empty shard", []string{"verify", "-algo=dkr", "-n=4", "-shard=999/1000"}, exitVerified,
			verdict{Verdict: "shard 999 of 1000: EMPTY: none of the 90 configurations falls in it; run elcheck merge on the reports of all 1000 shards for the whole space", Outcome: "verified"}, "hhhhhhhhh"},
		{"one shard of one", []string{"verify", "-algo=dkr", "-n=3", "-shard=0/1"}, exitVerified,
			verdict{Verdict: "VERIFIED", Outcome: "verified", WholeSpace: true}, "hhhhhhhhh"},
		{"merge verified", append([]string{"merge"}, dkr...), exitVerified,
			verdict{Verdict: "VERIFIED", Outcome: "verified", WholeSpace: true}, "hhhhhhhhh"},
		{"merge violated", append([]string{"merge"}, flip...), exitViolated,
			verdict{Verdict: "VIOLATED: validity", Outcome: "violated", Property: "validity", WholeSpace: true}, "uuuuvuuuu"},
		{"merge with a shard missing", []string{"merge", dkr[0], dkr[2]}, exitIncomplete,
			verdict{Verdict: "INCOMPLETE: shard 1 of 3 missing", Outcome: "incomplete", Reason: "shard 1 of 3 missing", WholeSpace: true}, "uuuuuuuuu"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// -format=json comes first: merge takes its flags before the files.
			code, out, stderr := elcheck(append([]string{tt.args[0], "-format=json"}, tt.args[1:]...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, stderr)
			}
			var got verdict
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			statuses := ""
			for _, p := range got.Properties {
				statuses += string(p.Status[0])
				if p.Holds != (p.Status == explore.Holds) {
					t.Errorf("%s: holds %v with status %s", p.Name, p.Holds, p.Status)
				}
			}
			if statuses != tt.statuses {
				t.Errorf("statuses %s, want %s", statuses, tt.statuses)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.IgnoreFields(verdict{}, "Properties")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// The text report ends in the same line.
			code, text, _ := elcheck(tt.args...)
			if last := lastLine(text); code != tt.code || last != tt.want.Verdict {
				t.Errorf("text: exit %d, last line %q", code, last)
			}
		})
	}
}

// FuzzMergeReport feeds merge's reader anything: it must refuse what is
// not a consistent report with one line (exit 2), never panic, and what it
// accepts must merge without claiming more than it counts. The seeds in
// testdata/fuzz/FuzzMergeReport are real reports: shards verified,
// violated, cut short and empty.
func FuzzMergeReport(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) { mergeAll(t, b) })
}

// FuzzMergeReportEdit edits one field of one shard's report in a real
// sweep, as a hand or a script might, and merges the sweep under the rules
// of FuzzMergeReport: the mutations of bytes rarely get past the JSON
// syntax, these always do. sweep and shard pick the report, field one of
// its leaves (in the order walked), kind the value: num as a number, str as
// a string, or num's parity as a bool.
func FuzzMergeReportEdit(f *testing.F) {
	var sweeps [][]map[string]any
	for _, args := range [][]string{{"-algo=dkr", "-n=4"}, {"-algo=cr-flip", "-n=4"}, {"-algo=dkr-nosecond", "-n=4", "-max-states=100", "-workers=1"}} {
		sweeps = append(sweeps, shardReports(f, 3, args...))
	}
	sweeps = append(sweeps, shardReports(f, 1, "-algo=cr", "-n=3"))
	f.Add(uint8(0), uint8(1), uint16(17), uint8(0), int64(10), "")
	f.Add(uint8(0), uint8(1), uint16(40), uint8(1), int64(0), "violated")
	f.Fuzz(func(t *testing.T, sweep, shard uint8, field uint16, kind uint8, num int64, str string) {
		reports := sweeps[int(sweep)%len(sweeps)]
		files := make([][]byte, len(reports))
		for i, r := range reports {
			files[i], _ = json.Marshal(r)
		}
		i := int(shard) % len(reports)
		var r map[string]any
		json.Unmarshal(files[i], &r) // a copy to edit
		leaves := jsonLeaves(r, "")
		vals := []any{num, str, num%2 == 0}
		set(t, r, leaves[int(field)%len(leaves)], vals[int(kind)%len(vals)])
		files[i], _ = json.Marshal(r)
		mergeAll(t, files...)
	})
}

// jsonLeaves lists the paths (as set takes them) of the values in v that
// are neither objects nor arrays, in a fixed order.
func jsonLeaves(v any, path string) []string {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	switch c := v.(type) {
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(c)) {
			out = append(out, jsonLeaves(c[k], join(k))...)
		}
		return out
	case []any:
		var out []string
		for i, e := range c {
			out = append(out, jsonLeaves(e, join(strconv.Itoa(i)))...)
		}
		return out
	}
	return []string{path}
}

// mergeAll merges the reports in files: they must be refused with a
// one-line usage error, or merge without claiming more than they count.
func mergeAll(t *testing.T, files ...[]byte) {
	usage := func(err error) {
		var e cli.ExitCoder
		if !errors.As(err, &e) || e.ExitCode() != exitUsage || strings.Contains(e.Error(), "\n") {
			t.Fatalf("not a one-line usage error: %q", err)
		}
	}
	e := newEnv(nil)
	var shards []shardReport
	for i, b := range files {
		path := fmt.Sprintf("shard-%d.json", i)
		r, err := decodeReport(e, path, b)
		if err != nil {
			usage(err)
			return
		}
		shards = append(shards, shardReport{path, *r})
	}
	m, err := mergeReports(e, shards)
	if err != nil {
		usage(err)
		return
	}
	if m.verdict.Outcome == invariants.Verified {
		if m.ConfigsDone != m.ConfigsTotal || len(m.Merged.Missing) > 0 || m.Counterexample != nil {
			t.Fatalf("VERIFIED with %d of %d configurations done, missing %v", m.ConfigsDone, m.ConfigsTotal, m.Merged.Missing)
		}
		for _, p := range m.Properties {
			if p.Status != explore.Holds && p.Status != explore.NotChecked {
				t.Fatalf("VERIFIED with %s %s", p.Name, p.Status)
			}
		}
	}
	if m.States < 0 || m.Transitions < 0 || m.ConfigsDone < 0 || m.ConfigsDone > m.ConfigsTotal {
		t.Fatalf("figures out of range: %+v", m.jsonReport)
	}
	var buf bytes.Buffer
	m.writeText(&buf)
	m.writeJSON(&buf)
}

// A violated sweep's shards each limit the depth of their later
// configurations: merge adds up how many were limited, says so, and
// reports the unsharded run's counterexample.
func TestMergeDepthLimited(t *testing.T) {
	reports := shardReports(t, 3, "-algo=cr-flip", "-n=4")
	limited := 0
	for _, r := range reports {
		if v, ok := r["configurations_depth_limited"].(float64); ok {
			limited += int(v)
		}
	}
	if limited == 0 {
		t.Fatal("no shard was depth limited")
	}
	files := writeReports(t, reports)
	code, out, stderr := elcheck(append([]string{"merge", "-format=json"}, files...)...)
	if code != exitViolated {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
	got := parseReport(t, "merge", out)
	if got.DepthLimited != limited || got.ConfigsDone+got.DepthLimited > got.Configurations {
		t.Errorf("merged %d depth limited and %d done of %d, want %d limited", got.DepthLimited, got.ConfigsDone, got.Configurations, limited)
	}
	code, want, _ := elcheck("verify", "-algo=cr-flip", "-n=4", "-format=json")
	if code != exitViolated {
		t.Fatalf("verify: exit %d", code)
	}
	if w := parseReport(t, "verify", want); w.Counterexample == nil || got.Counterexample == nil || *w.Counterexample != *got.Counterexample {
		t.Errorf("merged counterexample %+v, unsharded %+v", got.Counterexample, w.Counterexample)
	}
	_, text, _ := elcheck(append([]string{"merge"}, files...)...)
	if !strings.Contains(text, fmt.Sprintf("\ndepth limited   %d configurations", limited)) {
		t.Errorf("the merged text does not say how many were depth limited:\n%s", text)
	}
}
