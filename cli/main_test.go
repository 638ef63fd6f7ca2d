package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// elcheck runs the command line as Run does when given no protocols.
func elcheck(args ...string) (code int, stdout, stderr string) { return newEnv(nil).elcheck(args...) }

// elcheck runs the command line in e, a test's env.
func (e *env) elcheck(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(append([]string{"elcheck"}, args...), &out, &errb, e)
	return code, out.String(), errb.String()
}

// Bad input gets one line on stderr naming the fix, exit 2, no stack trace.
func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"unknown algorithm", []string{"verify", "-algo=nope", "-n=3"}, `unknown algorithm "nope": use one of`},
		{"algorithm in capitals", []string{"verify", "-algo=DKR", "-n=3"}, `unknown algorithm "DKR": names are in lower case; did you mean dkr?`},
		{"against in capitals", []string{"verify", "-algo=cr-flip", "-n=3", "-against=CR"}, `-against=CR: unknown algorithm "CR": names are in lower case; did you mean cr?`},
		{"initiator twice", []string{"verify", "-algo=dkr", "-n=3", "-initiators=0,0"}, "-initiators=0,0: position 0 is given twice"},
		{"negative max-states", []string{"verify", "-algo=dkr", "-n=3", "-max-states=-5"}, "-max-states=-5 must not be negative: give a number of states, or 0 for no limit"},
		{"negative timeout", []string{"verify", "-algo=dkr", "-n=3", "-timeout=-1s"}, "-timeout must not be negative (it is -1s): give a duration such as 30s or 2h, or 0 for no limit"},
		{"timeout without unit", []string{"verify", "-algo=dkr", "-n=3", "-timeout=30"}, "elcheck: -timeout=30: missing unit, e.g. 30s or 5m\n"},
		{"bounds timeout without unit", []string{"bounds", "-algo=cr", "-n=3", "-timeout", "1.5"}, "elcheck: -timeout=1.5: missing unit, e.g. 1.5s or 5m\n"},
		{"n not a number", []string{"verify", "-algo=dkr", "-n=x"}, "elcheck: -n=x is not a whole number: write it in digits, e.g. -n=5\n"},
		{"workers in words", []string{"verify", "-algo=dkr", "-n=3", "-workers=two"}, "elcheck: -workers=two is not a whole number: write it in digits, e.g. -workers=5\n"},
		{"max states in exponent form", []string{"verify", "-algo=dkr", "-n=3", "-max-states=1e6"}, "elcheck: -max-states=1e6: write the whole number in digits, -max-states=1000000\n"},
		{"timeout not a duration", []string{"verify", "-algo=dkr", "-n=3", "-timeout=soon"}, "-timeout=soon is not a duration: write a number and a unit, e.g. 30s, 5m or 2h"},
		{"missing algorithm", []string{"verify", "-n=3"}, "missing -algo"},
		{"missing n", []string{"verify", "-algo=dkr"}, "missing -n"},
		{"n too small", []string{"verify", "-algo=dkr", "-n=0"}, "n must be between 1 and 16"},
		{"n too large", []string{"verify", "-algo=dkr", "-n=99"}, "n must be between 1 and 16"},
		{"n in words", []string{"verify", "-algo=dkr", "-n=five"}, "-n=five is not a whole number"},
		{"ids not numbers", []string{"verify", "-algo=dkr", "-n=3", "-ids=1,x,3"}, `"x" is not a number`},
		{"ids wrong count", []string{"verify", "-algo=dkr", "-n=3", "-ids=1,2"}, "has 2 ids but -n=3"},
		{"ids repeated", []string{"verify", "-algo=dkr", "-n=3", "-ids=1,1,2"}, "id 1 is repeated: ids must be distinct"},
		{"initiator out of range", []string{"verify", "-algo=dkr", "-n=3", "-initiators=0,3"}, "positions are 0 to 2"},
		{"initiator past int64", []string{"verify", "-algo=dkr", "-n=3", "-initiators=99999999999999999999"}, "99999999999999999999 is not a position; positions are 0 to 2"},
		{"id past MaxID", []string{"verify", "-algo=dkr", "-n=3", "-ids=2147483648,2,3"}, "-ids=2147483648,2,3: id 2147483648 is out of range: ids are 1 to 2147483647"},
		{"id wrapping to 0", []string{"verify", "-algo=dkr", "-n=3", "-ids=4294967296,2,3"}, "-ids=4294967296,2,3: id 4294967296 is out of range: ids are 1 to 2147483647"},
		{"id past int64", []string{"verify", "-algo=dkr", "-n=3", "-ids=99999999999999999999,2,3"}, "id 99999999999999999999 is out of range: ids are 1 to 2147483647"},
		{"id 0", []string{"verify", "-algo=dkr", "-n=3", "-ids=0,2,3"}, "id 0 is out of range: ids are 1 to 2147483647"},
		{"id -1", []string{"verify", "-algo=dkr", "-n=3", "-ids=-1,2,3"}, "id -1 is out of range: ids are 1 to 2147483647"},
		{"bounds id past MaxID", []string{"bounds", "-algo=cr", "-n=3", "-ids=1,2147483648,3"}, "id 2147483648 is out of range: ids are 1 to 2147483647"},
		// An empty value, as -ids=$IDS gives with IDS unset, is not
		// "every placement".
		{"empty ids", []string{"verify", "-algo=dkr", "-n=3", "-ids="}, "-ids= is empty: give one id per position"},
		{"blank ids", []string{"verify", "-algo=dkr", "-n=3", "-ids= "}, "is empty: give one id per position"},
		{"empty initiators", []string{"verify", "-algo=dkr", "-n=3", "-initiators="}, "-initiators= is empty: give positions, e.g. -initiators=0,2, or all"},
		{"bounds empty ids", []string{"bounds", "-algo=cr", "-n=3", "-ids="}, "-ids= is empty"},
		{"bounds empty initiators", []string{"bounds", "-algo=cr", "-n=3", "-initiators="}, "-initiators= is empty"},
		{"bounds empty n", []string{"bounds", "-algo=cr", "-n="}, "-n= is empty: give a ring size like 5"},
		{"empty algo", []string{"verify", "-algo=", "-n=3"}, "-algo= is empty: give a protocol, one of"},
		{"empty shard", []string{"verify", "-algo=dkr", "-n=3", "-shard="}, "-shard= is empty: give i/k, e.g. -shard=0/8, or leave -shard out"},
		{"empty channels", []string{"bounds", "-algo=cr", "-n=3", "-channels="}, "-channels= is empty"},
		{"empty merge trace-out", []string{"merge", "-trace-out=", "a.json"}, "-trace-out= is empty"},
		{"bad channels", []string{"verify", "-algo=dkr", "-n=3", "-channels=lossy"}, "use fifo or bag"},
		{"bad format", []string{"verify", "-algo=dkr", "-n=3", "-format=xml"}, "use text or json"},
		{"bad memory", []string{"verify", "-algo=dkr", "-n=3", "-memory=lots"}, `"lots" is not a size; write a size like 512M or 2G`},
		{"bad reduce", []string{"verify", "-algo=dkr", "-n=3", "-reduce=some"}, "use none, por, sym or all"},
		{"bad workers", []string{"verify", "-algo=dkr", "-n=3", "-workers=-1"}, "-workers=-1: use 1 to 1024, or 0 (the default) for one per CPU"},
		{"bad search", []string{"verify", "-algo=dkr", "-n=3", "-search=astar"}, "use bfs or dfs"},
		{"unknown flag", []string{"verify", "-algo=dkr", "-n=3", "-fast"}, "flag provided but not defined"},
		{"shard out of range", []string{"verify", "-algo=dkr", "-n=3", "-shard=3/3"}, "-shard=3/3: write i/k for part i of k, with 0 <= i < k"},
		{"shard negative", []string{"verify", "-algo=dkr", "-n=3", "-shard=-1/3"}, "with 0 <= i < k"},
		{"shard of no parts", []string{"verify", "-algo=dkr", "-n=3", "-shard=0/0"}, "with 0 <= i < k"},
		{"shard without count", []string{"verify", "-algo=dkr", "-n=3", "-shard=2"}, "write i/k"},
		{"too many shards", []string{"verify", "-algo=dkr", "-n=3", "-shard=0/2000000"}, "at most 1048576 shards"},
		{"shard not numbers", []string{"verify", "-algo=dkr", "-n=3", "-shard=a/b"}, "write i/k"},
		{"unknown command", []string{"prove"}, `unknown command "prove"`},
		{"merge without files", []string{"merge"}, "merge takes the JSON reports of the shards"},
		{"merge flag after files", []string{"merge", "a.json", "-format=json"}, "flags come before the files"},
		{"merge bad format", []string{"merge", "-format=xml", "a.json"}, "use text or json"},
		{"replay without file", []string{"replay"}, "replay takes one trace file"},
		{"replay missing file", []string{"replay", "/nonexistent/trace.json"}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { expectUsageError(t, tt.args, tt.want) })
	}
}

// The ends of the id range are accepted; what the checker then finds is
// its own business.
func TestIDRangeAccepted(t *testing.T) {
	for _, ids := range []string{"2147483647,2,3", "1,2,3", " 3 , 1 , 2 "} {
		code, out, stderr := elcheck("verify", "-algo=dkr", "-n=3", "-ids="+ids, "-skip-comparison-only")
		if code == exitUsage || strings.Contains(stderr, "out of range") || !strings.Contains(out, "configurations  7 of 7") {
			t.Errorf("-ids=%s: exit %d:\n%s%s", ids, code, out, stderr)
		}
	}
}

// expectUsageError runs elcheck and wants exit 2 with one line on stderr
// that says want.
func expectUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	newEnv(nil).expectUsageError(t, args, want)
}

// expectUsageError is expectUsageError in e.
func (e *env) expectUsageError(t *testing.T, args []string, want string) {
	t.Helper()
	code, _, stderr := e.elcheck(args...)
	if code != exitUsage {
		t.Errorf("exit code %d, want %d (stderr %q)", code, exitUsage, stderr)
	}
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr %q does not say %q", stderr, want)
	}
	if strings.Count(strings.TrimSpace(stderr), "\n") > 0 || strings.Contains(stderr, "goroutine") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
}

// expectExit runs elcheck and wants exit code code and a last line of
// output that starts with last; it returns the output.
func expectExit(t *testing.T, args []string, code int, last string) string {
	t.Helper()
	return newEnv(nil).expectExit(t, args, code, last)
}

// expectExit is expectExit in e.
func (e *env) expectExit(t *testing.T, args []string, code int, last string) string {
	t.Helper()
	got, out, stderr := e.elcheck(args...)
	if got != code {
		t.Errorf("exit code %d, want %d\n%s%s", got, code, out, stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if l := lines[len(lines)-1]; !strings.HasPrefix(l, last) {
		t.Errorf("last line %q, want %q", l, last)
	}
	return out
}

func TestVerifyExitCodes(t *testing.T) {
	tests := []struct {
		args []string
		code int
		last string
	}{
		{[]string{"verify", "-algo=dkr", "-n=3"}, exitVerified, "VERIFIED"},
		{[]string{"verify", "-algo=cr-flip", "-n=3"}, exitViolated, "VIOLATED: validity"},
		{[]string{"verify", "-algo=dkr", "-n=4", "-max-states=50"}, exitIncomplete, "INCOMPLETE: state limit of 50 reached after "},
		{[]string{"verify", "-algo=dkr", "-n=4", "-timeout=1ns"}, exitIncomplete, "INCOMPLETE: time limit reached"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := expectExit(t, tt.args, tt.code, tt.last)
			if tt.code == exitIncomplete && strings.Contains(out, "VERIFIED") {
				t.Errorf("an incomplete run printed VERIFIED:\n%s", out)
			}
		})
	}
}

// TestStoppedEarlyViolation: a violation found before a limit stopped the
// search is reported (exit 1), with the stop, and its counterexample is
// not called the shortest (here the full search finds a 17-step lasso in
// the configuration whose search the limit cut at 19), nor the execution
// sending the most messages the most.
func TestStoppedEarlyViolation(t *testing.T) {
	tests := []struct {
		args     []string
		stopped  string
		headline string
		last     string
	}{
		{[]string{"verify", "-algo=peterson-nocheck", "-n=4", "-workers=1", "-max-states=50"},
			"\nstopped early   state limit of 50 reached after 1 of 90 configurations\n",
			"\ncounterexample (17 steps, the shortest found before the search stopped: a shorter one may exist):\n",
			"VIOLATED: termination"},
		{[]string{"verify", "-algo=peterson-nocheck", "-n=4", "-workers=1"},
			"",
			"\ncounterexample (17 steps, shortest):\n",
			"VIOLATED: termination"},
		// The execution that sends the most is the most of those searched.
		{[]string{"verify", "-algo=dkr-nosecond", "-n=4", "-workers=1", "-max-states=300"},
			"\nstopped early   state limit of 300 reached after 14 of 90 configurations\n",
			"\nthe execution with the most messages found before the search stopped (36 steps):\n",
			"VIOLATED: message-bound"},
		{[]string{"verify", "-algo=dkr-nosecond", "-n=4", "-workers=1"},
			"",
			"\nthe execution with the most messages (36 steps):\n",
			"VIOLATED: message-bound"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out := expectExit(t, tt.args, exitViolated, tt.last)
			if got := strings.Contains(out, "\nstopped early "); got != (tt.stopped != "") || !strings.Contains(out, tt.stopped) {
				t.Errorf("want the stop %q in\n%s", tt.stopped, out)
			}
			if !strings.Contains(out, tt.headline) {
				t.Errorf("want %q in\n%s", tt.headline, out)
			}
		})
	}
}

func TestVerifyJSON(t *testing.T) {
	code, out, _ := elcheck("verify", "-algo=cr", "-n=3", "-format=json")
	if code != exitVerified {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	var r struct {
		Algo           string `json:"algo"`
		N              int    `json:"n"`
		Configurations int    `json:"configurations"`
		States         int64  `json:"states"`
		Transitions    int64  `json:"transitions"`
		MaxDepth       int    `json:"max_depth"`
		ElapsedMS      *int64 `json:"elapsed_ms"`
		Messages       struct{ Min, Max int }
		Properties     []struct {
			Name  string
			Holds bool
		}
		Verdict string
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// Every state but each configuration's initial one is reached by a
	// transition.
	if r.Algo != "cr" || r.N != 3 || r.Configurations != 14 || r.States == 0 || r.Transitions < r.States-int64(r.Configurations) ||
		r.MaxDepth == 0 || r.ElapsedMS == nil || r.Verdict != "VERIFIED" || len(r.Properties) != 9 {
		t.Errorf("unexpected report: %+v", r)
	}
	// Chang-Roberts on 3: best case 2n-1 probes + n SELECTED, worst n(n+1)/2 + n.
	if r.Messages.Min != 2*3-1+3 || r.Messages.Max != 6+3 {
		t.Errorf("messages min %d max %d, want 8 and 9", r.Messages.Min, r.Messages.Max)
	}
	for _, p := range r.Properties {
		if !p.Holds {
			t.Errorf("property %s does not hold in a VERIFIED report", p.Name)
		}
	}
}

// A counterexample written with -trace-out replays to the same violation.
func TestTraceOutReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	code, out, _ := elcheck("verify", "-algo=cr-flip", "-n=3", "-trace-out="+path)
	if code != exitViolated {
		t.Fatalf("verify exit %d:\n%s", code, out)
	}
	code, out, stderr := elcheck("replay", path)
	if code != exitViolated || !strings.Contains(out, "CONFIRMED: validity") {
		t.Fatalf("replay exit %d, want 1 and CONFIRMED:\n%s%s", code, out, stderr)
	}
	// A trace edited so that a step is not enabled is refused, exit 2.
	b, _ := os.ReadFile(path)
	bad := strings.Replace(string(b), `"event": "wake"`, `"event": "deliver"`, 1)
	os.WriteFile(path, []byte(bad), 0o644)
	if code, _, stderr := elcheck("replay", path); code != exitUsage || !strings.Contains(stderr, "does not fit") {
		t.Errorf("replay of a broken trace: exit %d, stderr %q", code, stderr)
	}
}

func TestList(t *testing.T) {
	code, out, _ := elcheck("list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, name := range append(protocols.Names(), "Buggy variants") {
		if !strings.Contains(out, name) {
			t.Errorf("elcheck list does not mention %s:\n%s", name, out)
		}
	}
	// -correct is what make bounds-doc measures: one name a line.
	code, out, _ = elcheck("list", "-correct")
	var want []string
	for _, m := range protocols.Correct() {
		want = append(want, m.Info().Name)
	}
	if code != 0 || out != strings.Join(want, "\n")+"\n" || !strings.Contains(out, "dkr\n") || strings.Contains(out, "cr-flip") {
		t.Errorf("elcheck list -correct: exit %d, output %q, want %v", code, out, want)
	}
}

// A bug in elcheck is exit 4 with one line asking for a report: never a
// verdict's code, never a usage error's.
func TestInternalErrors(t *testing.T) {
	failing, panicking := newEnv(nil), newEnv(nil)
	failing.rebuild = func(spec.Machine, *explore.Violation) (*counterexamples.Trace, error) {
		return nil, errors.New("injected failure")
	}
	panicking.lookup = func(string) (spec.Machine, bool) { panic("injected panic") }
	tests := []struct {
		name  string
		args  []string
		want  string
		panic bool
	}{
		{"counterexample does not replay", []string{"verify", "-algo=cr-flip", "-n=3"},
			"elcheck: internal error: the counterexample found (validity, configuration ", false},
		{"worst execution does not replay", []string{"bounds", "-algo=dkr-nosecond", "-n=3", "-worst-out=" + filepath.Join(t.TempDir(), "w.json")},
			"elcheck: internal error: the execution with the most messages (n=3, configuration ", false},
		{"panic", []string{"verify", "-algo=dkr", "-n=3"}, "elcheck: internal error: injected panic; please report it\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := failing
			if tt.panic {
				e = panicking
			}
			code, out, stderr := e.elcheck(tt.args...)
			if code != exitInternal || !strings.HasPrefix(stderr, tt.want) || !strings.HasSuffix(stderr, "; please report it\n") {
				t.Errorf("exit %d, stderr %q; want exit 4 and %q", code, stderr, tt.want)
			}
			if strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "goroutine") {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			if strings.Contains(out, "VERIFIED") || strings.Contains(out, "WITHIN") {
				t.Errorf("an internal error printed a verdict:\n%s", out)
			}
		})
	}
	// ELCHECK_DEBUG=1 adds the stack.
	t.Setenv("ELCHECK_DEBUG", "1")
	code, _, stderr := panicking.elcheck("verify", "-algo=dkr", "-n=3")
	if code != exitInternal || !strings.HasPrefix(stderr, "elcheck: internal error: injected panic; please report it\n") || !strings.Contains(stderr, "goroutine") {
		t.Errorf("ELCHECK_DEBUG=1: exit %d, stderr %q; want exit 4 and the stack", code, stderr)
	}
}

// -memory takes the units people write: single letters and KiB... are
// powers of 1024, KB... powers of 1000.
func TestParseSize(t *testing.T) {
	for s, want := range map[string]int64{
		"512M": 512 << 20, "1G": 1 << 30, "512MiB": 512 << 20, "512MB": 512e6, "2GiB": 2 << 30,
		"1g": 1 << 30, "512k": 512 << 10, "1.5G": 3 << 29, "1T": 1 << 40, "2TB": 2e12, " 2 G ": 2 << 30,
		"512mb": 512e6, "512mib": 512 << 20, "1048576": 1 << 20, "1000000B": 1e6, "64K": 64 << 10, ".5g": 1 << 29,
	} {
		if got, err := parseSize(s); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"lots", "1", "4096", "0", "-1G", "1e9", "1P", "1 2G", "G", "1..5G", "99999999999999999999T", "2000T", "0x10M", "NaN", "Inf", "1_000M"} {
		if got, err := parseSize(s); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", s, got)
		}
	}
	expectUsageError(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=4096"}, "elcheck: -memory=4096: 4,096 bytes is too little: the least is 64K (65,536 bytes); is the unit missing, as in 4096M?\n")
	expectUsageError(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=1KB"}, "elcheck: -memory=1KB: 1,000 bytes is too little: the least is 64K (65,536 bytes)\n")
	expectUsageError(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=2000T"}, "elcheck: -memory=2000T: too much: the most is 1024T\n")
	expectUsageError(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=1P"}, `-memory=1P: unknown unit "P"; write a size like 512M`)
	// -memory sets the process's memory limit: restore it for the other
	// tests.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	expectExit(t, []string{"verify", "-algo=dkr", "-n=3", "-memory=512M"}, exitVerified, "VERIFIED")
}

// A trace whose channels are not the network's is refused on one line,
// exit 2: it never runs on another network than the one it records.
func TestReplayOtherNetwork(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	if code, out, _ := elcheck("verify", "-algo=cr-flip", "-n=3", "-trace-out="+path); code != exitViolated {
		t.Fatalf("verify exit %d:\n%s", code, out)
	}
	b, _ := os.ReadFile(path)
	bad := strings.Replace(string(b), `"to": 1,`, `"to": 2,`, 1)
	if bad == string(b) {
		t.Fatal("the trace records no channel into process 1")
	}
	os.WriteFile(path, []byte(bad), 0o644)
	expectUsageError(t, []string{"replay", path}, "the trace's channels are not those of the unidirectional ring of 3 processes")
}

// otherTopology is a protocol declaring a topology elcheck does not know.
type otherTopology struct{ spec.Machine }

func (m otherTopology) Info() spec.Info {
	info := m.Machine.Info()
	info.Name, info.Topology = "cr-elsewhere", spec.TopologyKind(99)
	return info
}

// elsewhereEnv is a run's env in which "cr-elsewhere", cr on an unknown
// topology, is known to the commands.
func elsewhereEnv() *env {
	e := newEnv(nil)
	e.lookup = func(name string) (spec.Machine, bool) {
		if name == "cr-elsewhere" {
			m, _ := protocols.Lookup("cr")
			return otherTopology{m}, true
		}
		return protocols.Lookup(name)
	}
	return e
}

// A protocol on a topology elcheck cannot build is a one-line usage
// error, exit 2, never a run on an empty or assumed network.
func TestUnknownTopology(t *testing.T) {
	e := elsewhereEnv()
	for _, args := range [][]string{
		{"verify", "-algo=cr-elsewhere", "-n=3"},
		{"bounds", "-algo=cr-elsewhere", "-n=3"},
	} {
		e.expectUsageError(t, args, "unknown topology topology(99)")
	}
}

// A flag whose values are a few fixed words takes them in any case and
// with spaces around: the run is the same as with the words the help
// writes (but for the time it took).
func TestKeywordsAnyCase(t *testing.T) {
	tests := []struct{ plain, odd []string }{
		{[]string{"verify", "-algo=dkr", "-n=3", "-search=dfs", "-reduce=none", "-channels=fifo", "-orientation=consistent", "-topology=uniring"},
			[]string{"verify", "-algo=dkr", "-n=3", "-search=DFS", "-reduce=None", "-channels=FIFO", "-orientation=Consistent ", "-topology=UniRing"}},
		{[]string{"verify", "-algo=franklin", "-n=3", "-topology=biring", "-orientation=any", "-reduce=por"},
			[]string{"verify", "-algo=franklin", "-n=3", "-topology= BiRing", "-orientation=ANY", "-reduce=POR"}},
		{[]string{"verify", "-algo=cr-flip", "-n=3", "-format=json"}, []string{"verify", "-algo=cr-flip", "-n=3", "-format=JSON"}},
		{[]string{"bounds", "-algo=cr", "-n=3..4", "-format=csv"}, []string{"bounds", "-algo=cr", "-n=3..4", "-format=Csv"}},
	}
	untimed := func(s string) string {
		var keep []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, "time") && !strings.Contains(l, "states/s") && !strings.Contains(l, "elapsed") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.odd, " "), func(t *testing.T) {
			code, out, stderr := elcheck(tt.plain...)
			oddCode, oddOut, oddErr := elcheck(tt.odd...)
			if code == exitUsage || oddCode != code {
				t.Fatalf("exit %d against %d for %v\n%s%s%s", oddCode, code, tt.plain, stderr, oddOut, oddErr)
			}
			if untimed(oddOut) != untimed(out) {
				t.Errorf("the reports differ:\n%s\nagainst\n%s", oddOut, out)
			}
		})
	}
}
