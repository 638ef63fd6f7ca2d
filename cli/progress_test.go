package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func heap120MB() uint64                      { return 120 << 20 }
func ring(n int) spec.Config                 { return spec.Config{Topology: spec.Topology{N: n}} }
func at(done, total int, states int64) explore.Progress {
	return explore.Progress{States: states, Depth: 40, ConfigsDone: done, ConfigsTotal: total, Config: ring(5)}
}

// progressStep is a report after a while, and the text it must print.
type progressStep struct {
	after time.Duration
	pr    explore.Progress
	want  string
}

// playProgress moves the clock and reports each step to p, checking what
// p writes to b.
func playProgress(t *testing.T, p *progressReporter, clk *fakeClock, b *bytes.Buffer, steps []progressStep) {
	t.Helper()
	for i, s := range steps {
		clk.advance(s.after)
		b.Reset()
		p.report(s.pr)
		if b.String() != s.want {
			t.Errorf("step %d: got %q, want %q", i, b.String(), s.want)
		}
	}
}

// -progress off a terminal: plain lines, the first after 10 s, then at
// most one every 10 s, with the share done and the ETA.
func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgressReporter(&b, true, false, clk.now, heap120MB)
	steps := []progressStep{
		{0, at(0, 1000, 0), ""},
		{5 * time.Second, at(0, 1000, 2_500_000), ""},
		{5 * time.Second, at(100, 1000, 5_000_000), "elcheck: after 10s: 100/1,000 configurations (10.0%), ETA 1m30s; 5,000,000 states (500,000/s), depth 40, heap 120 MB\n"},
		{9 * time.Second, at(150, 1000, 9_000_000), ""},
		{1 * time.Second, at(200, 1000, 10_000_000), "elcheck: after 20s: 200/1,000 configurations (20.0%), ETA 1m20s; 10,000,000 states (500,000/s), depth 40, heap 120 MB\n"},
		{3 * time.Hour, at(200, 1000, 10_000_000), "elcheck: after 3h00m: 200/1,000 configurations (20.0%), ETA 12h01m; 10,000,000 states (924/s), depth 40, heap 120 MB\n"},
	}
	playProgress(t, p, clk, &b, steps)
	p.finish()
	if b.Len() != 0 && !strings.HasSuffix(b.String(), "\n") {
		t.Errorf("finish wrote %q", b.String())
	}
}

// On a terminal: one line rewritten, at once and then twice a second, and
// cleared at the end.
func TestProgressTerminal(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgressReporter(&b, false, true, clk.now, heap120MB)
	p.report(at(0, 7, 0))
	if want := "\r\033[Kn=5: 0/7 configurations (0.0%), ETA unknown; 0 states (0/s), depth 40, heap 120 MB"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	clk.advance(100 * time.Millisecond)
	p.report(at(1, 7, 100))
	if b.Len() != 0 {
		t.Errorf("a report within half a second: %q", b.String())
	}
	clk.advance(400 * time.Millisecond)
	p.report(at(1, 7, 100))
	if want := "\r\033[Kn=5: 1/7 configurations (14.3%), ETA 3s; 100 states (200/s), depth 40, heap 120 MB"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	p.finish()
	if b.String() != "\r\033[K" {
		t.Errorf("finish wrote %q", b.String())
	}
}

// Bounds' next ring starts its rates and ETA afresh.
func TestProgressNextRing(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgressReporter(&b, true, true, clk.now, heap120MB)
	clk.advance(30 * time.Second)
	p.report(explore.Progress{States: 1000, ConfigsDone: 6, ConfigsTotal: 6, Config: ring(4)})
	clk.advance(10 * time.Second)
	p.report(explore.Progress{States: 10, ConfigsDone: 0, ConfigsTotal: 360, Config: ring(5)})
	clk.advance(10 * time.Second)
	b.Reset()
	p.report(explore.Progress{States: 5000, ConfigsDone: 36, ConfigsTotal: 360, Config: ring(5)})
	if want := "elcheck: after 50s: n=5: 36/360 configurations (10.0%), ETA 1m30s; 5,000 states (500/s), depth 0, heap 120 MB\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Two workers report out of order (each its own configuration's states
// on top of the same total): a smaller count is not a new search, and the
// rate and ETA stay those of the whole run.
func TestProgressWorkersOutOfOrder(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgressReporter(&b, true, false, clk.now, heap120MB)
	clk.advance(20 * time.Second)
	p.report(explore.Progress{States: 2000, ConfigsDone: 10, ConfigsTotal: 100, Config: ring(5)})
	clk.advance(5 * time.Second)
	p.report(explore.Progress{States: 1990, ConfigsDone: 11, ConfigsTotal: 100, Config: ring(5)})
	clk.advance(5 * time.Second)
	b.Reset()
	p.report(explore.Progress{States: 3000, ConfigsDone: 15, ConfigsTotal: 100, Config: ring(5)})
	// Rates from the start: 3,000 states and 15 configurations in 30 s.
	if want := "elcheck: after 30s: 15/100 configurations (15.0%), ETA 2m50s; 3,000 states (100/s), depth 0, heap 120 MB\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestProgressFormats(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{commas(0), "0"}, {commas(999), "999"}, {commas(1000), "1,000"}, {commas(87178291200), "87,178,291,200"}, {commas(-1234567), "-1,234,567"},
		{percent(0, 10), "0.0%"}, {percent(1, 3), "33.3%"}, {percent(10, 10), "100.0%"}, {percent(1, 85698439706880000), "1.2e-15%"}, {percent(1, 0), "?%"},
		{duration(0), "0s"}, {duration(59.4), "59s"}, {duration(185), "3m05s"}, {duration(5*3600 + 12*60), "5h12m"},
		{duration(12 * 86400), "12 days"}, {duration(310 * 365.25 * 86400), "310 years"}, {duration(2.3e9 * 365.25 * 86400), "2.3e+09 years"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// A large sweep says its size up front, on stderr; -progress off a
// terminal never writes control codes.
func TestEstimate(t *testing.T) {
	code, out, stderr := elcheck("verify", "-algo=dkr", "-n=8", "-max-states=10", "-progress")
	if code != exitIncomplete || !strings.HasPrefix(stderr, "elcheck: 1,285,200 configurations to check; -ids, -initiators or -shard=i/k check fewer") {
		t.Errorf("exit %d, stderr %q:\n%s", code, stderr, out)
	}
	code, _, stderr = elcheck("bounds", "-algo=cr", "-n=3..16", "-max-states=10", "-progress", "-force")
	if code != exitIncomplete || !strings.HasPrefix(stderr, "elcheck: 88,661,122,839,166,808 configurations to check; a smaller -n, -ids or -initiators check fewer") {
		t.Errorf("bounds: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = elcheck("verify", "-algo=dkr", "-n=4", "-progress")
	if code != exitVerified || strings.ContainsAny(stderr, "\r\033") || strings.Contains(stderr, "configurations to check") {
		t.Errorf("small sweep: exit %d, stderr %q", code, stderr)
	}
}

// A sweep no run finishes is refused before its search starts, with the
// flags that make it smaller; -force starts it all the same (TestEstimate).
// (-max-states=10 ends the runs that the refusal lets through.)
func TestSweepTooLarge(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // the error line, or "" for a run that starts
	}{
		{"verify", []string{"verify", "-algo=dkr", "-n=16", "-max-states=10"}, "elcheck: 85,698,439,706,880,000 configurations to check, more than a run can finish (at most 1,000,000,000,000): -ids, -initiators or -shard=i/k check fewer, or -force starts it anyway\n"},
		{"verify n=13", []string{"verify", "-algo=dkr", "-n=13", "-max-states=10"}, "elcheck: 3,923,502,105,600 configurations to check, more than a run can finish"},
		{"bounds", []string{"bounds", "-algo=cr", "-n=16", "-max-states=10"}, "elcheck: 85,698,439,706,880,000 configurations to check, more than a run can finish (at most 1,000,000,000,000): a smaller -n, -ids or -initiators check fewer, or -force starts it anyway\n"},
		{"bounds range", []string{"bounds", "-algo=cr", "-n=3..13", "-max-states=10"}, "configurations to check, more than a run can finish"},
		{"a shard of n=13", []string{"verify", "-algo=dkr", "-n=13", "-shard=0/4", "-max-states=10"}, ""},
		{"verify forced", []string{"verify", "-algo=dkr", "-n=16", "-max-states=10", "-force"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want != "" {
				expectUsageError(t, tt.args, tt.want)
				return
			}
			if code, out, stderr := elcheck(tt.args...); code != exitIncomplete {
				t.Errorf("exit %d, want %d:\n%s%s", code, exitIncomplete, out, stderr)
			}
		})
	}
}

// Once a violation is known, the line says so, and the ETA follows the
// rate of the depth-limited searches since, not the whole run's.
func TestProgressViolationKnown(t *testing.T) {
	var b bytes.Buffer
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgressReporter(&b, true, false, clk.now, heap120MB)
	found := func(done int, states int64) explore.Progress {
		pr := at(done, 1000, states)
		pr.Violated, pr.Steps = "validity", 10
		return pr
	}
	steps := []progressStep{
		{0, at(0, 1000, 0), ""},
		// 100 configurations in 100 s, then the violation.
		{100 * time.Second, found(100, 1_000_000), "elcheck: after 1m40s: 100/1,000 configurations (10.0%), ETA 15m00s; 1,000,000 states (10,000/s), depth 40, heap 120 MB; validity violated, 10 steps: looking for a shorter one up to depth 9\n"},
		// 400 more in 10 s: 40 a second, 500 left: 12.5 s.
		{10 * time.Second, found(500, 1_100_000), "elcheck: after 1m50s: 500/1,000 configurations (50.0%), ETA 13s; 1,100,000 states (10,000/s), depth 40, heap 120 MB; validity violated, 10 steps: looking for a shorter one up to depth 9\n"},
	}
	playProgress(t, p, clk, &b, steps)
}
