package cli

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/elcheck/elcheck/explore"
	"github.com/urfave/cli/v2"
)

// largeSweep is the number of configurations past which elcheck says up
// front how many there are: a sweep that size takes minutes at the least,
// and the largest (-n=16: about 8.6e16) never finish.
const largeSweep = 1_000_000

// Progress reports: on a terminal, one line rewritten twice a second;
// elsewhere (a CI log, a file), with -progress, a plain line every 10 s,
// the first after 10 s, so that short runs print none.
const (
	terminalEvery = 500 * time.Millisecond
	plainEvery    = 10 * time.Second
)

// maxSweep is the most configurations one run starts on without -force.
// Past it no run finishes: at 10,000 configurations a second on each of
// 100 cores (small rings go that fast; dkr -n=7 does 11,000 a second on
// two, and larger rings go slower), 10^12 take 11 days. dkr -n=12 has
// 1.6e11 configurations, -n=13 3.9e12, -n=16 8.6e16.
const maxSweep = 1_000_000_000_000

// forceFlag is verify's and bounds': start a sweep past maxSweep anyway.
var forceFlag = &cli.BoolFlag{Name: "force", Usage: fmt.Sprintf("start a sweep of more than %s configurations, which no run finishes (default: refused)", commas(maxSweep))}

// checkSweep refuses a sweep of more than maxSweep configurations, unless
// -force, before its search starts; and says the size of one past
// largeSweep, on stderr.
func checkSweep(c *cli.Context, configs int) error {
	fewer := "a smaller -n, -ids or -initiators check fewer"
	if slices.ContainsFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), shardFlag.Name) }) {
		fewer = "-ids, -initiators or -shard=i/k check fewer"
	}
	if configs > maxSweep && !c.Bool(forceFlag.Name) {
		return usagef("%s configurations to check, more than a run can finish (at most %s): %s, or -force starts it anyway", commas(int64(configs)), commas(maxSweep), fewer)
	}
	if configs > largeSweep {
		fmt.Fprintf(c.App.ErrWriter, "elcheck: %s configurations to check; %s, and progress reports give an ETA (-progress when stderr is not a terminal)\n", commas(int64(configs)), fewer)
	}
	return nil
}

// progressReporter prints explore's progress reports. Its clock and heap
// reading are fields so that tests can drive it without waiting.
type progressReporter struct {
	w     io.Writer
	plain bool // lines, no control codes, every plainEvery
	showN bool // say the ring size (bounds over several sizes)
	now   func() time.Time
	heap  func() uint64 // bytes in use

	begin   time.Time // of the run
	start   time.Time // of the current search: rates and ETA are of it
	last    time.Time // of the last report
	total   int       // configurations of the current search
	n       int       // and its size
	printed bool      // a terminal line is on screen
	// found: when a violation was first reported, and the configurations
	// done then: the ETA after it follows the depth-limited searches'
	// rate, not the whole space's.
	found     time.Time
	foundDone int
}

// newProgress returns the progress reporter for c's command line: a
// terminal's if stderr is one, a plain one with -progress, nil otherwise.
func newProgress(c *cli.Context, showN bool) *progressReporter {
	w := c.App.ErrWriter
	terminal := isTerminal(w)
	if !terminal && !c.Bool(progressFlag.Name) {
		return nil
	}
	return newProgressReporter(w, !terminal, showN, time.Now, func() uint64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	})
}

func newProgressReporter(w io.Writer, plain, showN bool, now func() time.Time, heap func() uint64) *progressReporter {
	p := &progressReporter{w: w, plain: plain, showN: showN, now: now, heap: heap, total: -1}
	p.begin = now()
	p.start = p.begin
	if plain {
		p.last = p.begin // the first line after plainEvery
	}
	return p
}

// report is explore.Options.Progress.
func (p *progressReporter) report(pr explore.Progress) {
	now := p.now()
	if pr.ConfigsTotal != p.total || pr.Config.Topology.N != p.n {
		// A new search: bounds' next ring. (Not a smaller state count:
		// workers report concurrently, each its own configuration's
		// states on top of the same total, so counts arrive out of order.)
		if p.total >= 0 { // the first search started with the run
			p.start = now
		}
		p.found = time.Time{}
		p.total, p.n = pr.ConfigsTotal, pr.Config.Topology.N
	}
	every := terminalEvery
	if p.plain {
		every = plainEvery
	}
	if now.Sub(p.last) < every {
		return
	}
	p.last = now
	if p.plain {
		fmt.Fprintf(p.w, "elcheck: after %s: %s\n", duration(now.Sub(p.begin).Seconds()), p.line(pr, now))
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+p.line(pr, now))
	p.printed = true
}

// line is a report's text: configurations done, their share and the time
// left (at the rate of configurations done so far in this search), states
// and depth.
func (p *progressReporter) line(pr explore.Progress, now time.Time) string {
	secs := now.Sub(p.start).Seconds()
	if pr.Violated != "" && p.found.IsZero() {
		p.found, p.foundDone = now, pr.ConfigsDone
	}
	from, done := p.start, pr.ConfigsDone
	if !p.found.IsZero() && now.Sub(p.found) >= time.Second {
		from, done = p.found, pr.ConfigsDone-p.foundDone
	}
	eta := "ETA unknown"
	if since := now.Sub(from).Seconds(); done > 0 && since > 0 {
		eta = "ETA " + duration(float64(pr.ConfigsTotal-pr.ConfigsDone)/(float64(done)/since))
	}
	n := ""
	if p.showN {
		n = fmt.Sprintf("n=%d: ", pr.Config.Topology.N)
	}
	rate := int64(0)
	if secs > 0 {
		rate = int64(float64(pr.States) / secs)
	}
	found := ""
	if pr.Violated != "" {
		found = fmt.Sprintf("; %s violated, %d steps: looking for a shorter one up to depth %d", pr.Violated, pr.Steps, pr.Steps-1)
	}
	return fmt.Sprintf("%s%s/%s configurations (%s), %s; %s states (%s/s), depth %d, heap %d MB%s",
		n, commas(int64(pr.ConfigsDone)), commas(int64(pr.ConfigsTotal)), percent(pr.ConfigsDone, pr.ConfigsTotal), eta,
		commas(pr.States), commas(rate), pr.Depth, p.heap()>>20, found)
}

// finish clears a terminal's progress line.
func (p *progressReporter) finish() {
	if p != nil && p.printed {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// percent is done/total as a percentage, with the digits a tiny share of
// a huge sweep needs to show that it moves.
func percent(done, total int) string {
	if total <= 0 {
		return "?%"
	}
	v := 100 * float64(done) / float64(total)
	if v == 0 || v >= 0.1 {
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'g', 2, 64) + "%"
}

// duration renders seconds for a person: 42s, 3m05s, 5h12m, 12 days,
// 310 years, 2.3e+09 years.
func duration(secs float64) string {
	const day, year = 86400, 365.25 * 86400
	switch s := math.Round(secs); {
	case math.IsInf(secs, 0) || math.IsNaN(secs):
		return "forever"
	case s < 60:
		return fmt.Sprintf("%.0fs", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", int(s)/60, int(s)%60)
	case s < 2*day:
		return fmt.Sprintf("%dh%02dm", int(s)/3600, int(s)%3600/60)
	case s < 2*year:
		return fmt.Sprintf("%.0f days", s/day)
	case s < 1e4*year:
		return fmt.Sprintf("%.0f years", s/year)
	}
	return fmt.Sprintf("%.1e years", secs/year)
}

// commas writes n with thousands separators: 87,178,291,200.
func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}
