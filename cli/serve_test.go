package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/elcheck/elcheck/web"
)

func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"huge n", []string{"serve", "-algo=cr", "-n=12"}, fmt.Sprintf("-n=12 is out of range: the page runs 1 to %d processes", web.MaxN)},
		{"no n", []string{"serve", "-algo=cr"}, "missing -n"},
		{"no algo", []string{"serve", "-n=3"}, "missing -algo"},
		{"bad ids", []string{"serve", "-algo=cr", "-n=3", "-ids=1,2"}, "-ids=1,2 has 2 ids but -n=3"},
		{"bad address", []string{"serve", "-algo=cr", "-n=3", "-addr=nowhere:x"}, "-addr=nowhere:x"},
		{"argument", []string{"serve", "-algo=cr", "-n=3", "now"}, `unexpected argument "now"`},
	} {
		t.Run(tc.name, func(t *testing.T) { expectUsageError(t, tc.args, tc.want) })
	}
}

// startServe runs `elcheck serve args -addr=127.0.0.1:0` and returns the
// page's address; the test's cleanup stops it and expects exit 0.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	addrs := make(chan string, 1)
	var stop func()
	e := newEnv(nil)
	e.listening = func(addr string, s func()) { stop = s; addrs <- addr }
	done := make(chan int, 1)
	var stderr string
	go func() {
		var code int
		code, _, stderr = e.elcheck(append(append([]string{"serve"}, args...), "-addr=127.0.0.1:0")...)
		done <- code
	}()
	var addr string
	select {
	case addr = <-addrs:
	case code := <-done:
		t.Fatalf("elcheck serve %v: exit %d before serving: %s", args, code, stderr)
	}
	t.Cleanup(func() {
		stop()
		if code := <-done; code != exitVerified {
			t.Errorf("elcheck serve %v: exit %d: %s", args, code, stderr)
		}
	})
	return addr
}

// TestServe serves the page and its API from the command line.
func TestServe(t *testing.T) {
	addr := startServe(t, "-algo=cr-flip", "-n=4", "-initiators=0")
	r, err := http.Get(addr + "api/info")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var info web.Info
	if err := json.NewDecoder(r.Body).Decode(&info); err != nil || info.Algo != "cr-flip" || info.N != 4 || !strings.Contains(info.Space, "initiators [0]") {
		t.Errorf("info %+v, %v", info, err)
	}
}

// TestServeValidatesAsVerify: the page's API refuses a configuration
// elcheck verify refuses, with the same words after the parameter's name
// (-ids and ids=, -initiators and init=), and exit 2 is status 400.
func TestServeValidatesAsVerify(t *testing.T) {
	addr := startServe(t, "-algo=cr", "-n=3")
	for _, tc := range []struct{ flag, param, value string }{
		{"ids", "ids", "1,1,2"},
		{"ids", "ids", "0,2,3"},
		{"ids", "ids", "-1,2,3"},
		{"ids", "ids", "2147483648,2,3"},
		{"ids", "ids", "99999999999999999999,2,3"},
		{"ids", "ids", "1,x,3"},
		{"initiators", "init", "5"},
		{"initiators", "init", "0,-1"},
		{"initiators", "init", "0,0"},
		{"initiators", "init", "0,x"},
		{"initiators", "init", "99999999999999999999"},
	} {
		code, _, stderr := elcheck("verify", "-algo=cr", "-n=3", "-"+tc.flag+"="+tc.value)
		cliSays, ok := strings.CutPrefix(strings.TrimSpace(stderr), "elcheck: -"+tc.flag+"=")
		if code != exitUsage || !ok {
			t.Fatalf("verify -%s=%s: exit %d, %q", tc.flag, tc.value, code, stderr)
		}
		r, err := http.Get(addr + "api/state?" + tc.param + "=" + tc.value)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		err = json.NewDecoder(r.Body).Decode(&e)
		r.Body.Close()
		apiSays, ok := strings.CutPrefix(e.Error, tc.param+"=")
		if err != nil || r.StatusCode != http.StatusBadRequest || !ok || apiSays != cliSays {
			t.Errorf("%s=%s: the API answers %d %q (%v); verify -%s says %q", tc.param, tc.value, r.StatusCode, e.Error, err, tc.flag, cliSays)
		}
	}
}

// browser starts a headless Chromium for the test, or skips the test when
// none is installed; under CI=true (.ci/run, which installs it) a missing
// Chromium fails.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, and CI=true requires the browser tests: make test installs it (apt-get install chromium)")
		}
		t.Skip("chromium is not installed: skipping the browser tests (apt-get install chromium, or make test with CI=true)")
	}
	// Not t.TempDir: Chromium's helper processes may still write into its
	// profile as the browser stops, and t.TempDir fails a test whose
	// directory it cannot remove. Removing it is best effort.
	profile, err := os.MkdirTemp("", "elcheck-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(profile) })
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(profile), chromedp.WindowSize(1300, 1000),
	}
	// A hang guard only: every wait below is for a condition, never a time.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	// This chromedp does not know every event of a newer Chromium (an
	// address space "Loopback"): it logs those and goes on; so do we, quietly.
	logf := func(format string, args ...any) {
		if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "could not unmarshal event") {
			t.Log(msg)
		}
	}
	ctx, cancelTab := chromedp.NewContext(ctx, chromedp.WithErrorf(logf))
	t.Cleanup(cancelTab)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// page drives the explorer page in a browser.
type page struct {
	t   *testing.T
	ctx context.Context
}

// do runs actions (a click, an upload, a navigation) and waits until the
// page has loaded a state after them: body's data-loads counts the states
// loaded, data-busy says whether one is on its way.
func (p page) do(actions ...chromedp.Action) {
	p.t.Helper()
	loads := eval[int](p, `Number(document.body.dataset.loads || 0)`)
	p.run(actions...)
	p.waitLoads(loads)
}

// open loads url, a new document, and waits for its first state.
func (p page) open(url string) {
	p.t.Helper()
	p.run(chromedp.Navigate(url))
	p.waitLoads(0)
}

// waitLoads waits until the page has loaded more than loads states and is
// not loading another. No timeout of its own: browser's context is the
// hang guard.
func (p page) waitLoads(loads int) {
	p.t.Helper()
	var ok bool
	p.run(chromedp.Poll(fmt.Sprintf(`document.body.dataset.busy === "no" && Number(document.body.dataset.loads || 0) > %d`, loads), &ok,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
}

func (p page) run(actions ...chromedp.Action) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// eval returns a JavaScript expression's value.
func eval[T any](p page, expr string) T {
	p.t.Helper()
	var v T
	p.run(chromedp.Evaluate(expr, &v))
	return v
}

// state is what the page shows of the current state: the network drawn,
// the properties, the events enabled.
func (p page) state() string {
	p.t.Helper()
	return eval[string](p, `["network", "props", "events"].map((id) => document.getElementById(id).textContent).join("\n")`)
}

func (p page) position() (at, steps int) {
	p.t.Helper()
	return eval[int](p, `Number(document.body.dataset.at)`), eval[int](p, `Number(document.body.dataset.steps)`)
}

// cliCounterexample runs elcheck verify and returns the violated
// property, the counterexample's length and the trace file it wrote.
func cliCounterexample(t *testing.T, args ...string) (property string, steps int, file string) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "trace.json")
	code, stdout, stderr := elcheck(append(append([]string{"verify"}, args...), "-trace-out="+file)...)
	m := regexp.MustCompile(`(?m)^counterexample \((\d+) steps`).FindStringSubmatch(stdout)
	v := regexp.MustCompile(`(?m)^VIOLATED: (\S+)$`).FindStringSubmatch(stdout)
	if code != exitViolated || m == nil || v == nil {
		t.Fatalf("elcheck verify %v: exit %d, %s%s", args, code, stdout, stderr)
	}
	steps, _ = strconv.Atoi(m[1])
	return v[1], steps, file
}

// TestBrowser drives the page elcheck serve serves in a real browser
// (exercise).
func TestBrowser(t *testing.T) {
	ctx := browser(t)
	addr := startServe(t, "-algo=cr-flip", "-n=4")
	exercise(page{t, ctx}, addr+"?")
}

// TestBrowserEndOfCounterexample: at the end of hs-oneway n=3's shortest
// counterexample (p2 undecided, nothing enabled) the page shows the
// property elcheck verify prints as violated, and exactly-one-leader,
// which the checker did not reach after it, not as holding (issue 35).
func TestBrowserEndOfCounterexample(t *testing.T) {
	ctx := browser(t)
	p := page{t, ctx}
	property, steps, _ := cliCounterexample(t, "-algo=hs-oneway", "-n=3")
	p.open(startServe(t, "-algo=hs-oneway", "-n=3") + "?")
	p.do(chromedp.Click("#jump-cex", chromedp.ByID))
	p.do(chromedp.Click("#end", chromedp.ByID))
	if at, n := p.position(); at != steps || n != steps {
		t.Fatalf("at the end: step %d of %d, want %d (the CLI's counterexample)", at, n, steps)
	}
	row := func(name string) string {
		return eval[string](p, fmt.Sprintf(`document.querySelector('#props tr[data-prop=%q]').textContent`, name))
	}
	status := func(name string) string {
		return eval[string](p, fmt.Sprintf(`document.querySelector('#props tr[data-prop=%q]').dataset.status`, name))
	}
	if got := status(property); got != "violated" {
		t.Errorf("%s is %q (%s), want violated (as elcheck verify prints)", property, got, row(property))
	}
	if got := status("exactly-one-leader"); got != "unknown" || strings.Contains(row("exactly-one-leader"), "holds") {
		t.Errorf("exactly-one-leader is %q (%s), want unknown: the checker stopped at %s", got, row("exactly-one-leader"), property)
	}
}

// TestBrowserWasm: the same for the WebAssembly build (make web), served
// as plain files.
func TestBrowserWasm(t *testing.T) {
	ctx := browser(t)
	p := page{t, ctx}
	exercise(p, wasmSite(t)+"?algo=cr-flip&n=4&")
	if got := eval[string](p, `document.getElementById("wasm-bar").textContent`); !strings.Contains(got, "small n only (1 to 6)") {
		t.Errorf("the WebAssembly page says %q", got)
	}
}

// wasmSite builds the WebAssembly page as make web does and serves the
// folder as plain files; it returns the page's address.
func wasmSite(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.Command("sh", "cmd/elcheck-wasm/build.sh", dir)
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the WebAssembly page: %v\n%s", err, out)
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(ts.Close)
	return ts.URL + "/index.html"
}

// exercise opens the page for cr-flip n=4 at base (an address ending in
// ? or &), jumps to the counterexample, steps to its end and finds the
// violation the CLI prints; steps back and forward through the same
// states; loads the trace file the CLI wrote; and shows a bad request's
// error.
func exercise(p page, base string) {
	t := p.t
	t.Helper()
	property, steps, file := cliCounterexample(t, "-algo=cr-flip", "-n=4")
	p.open(base)
	if got := eval[string](p, `document.getElementById("algo").textContent`); got != "cr-flip (n=4)" {
		t.Errorf("the page is for %q", got)
	}

	p.do(chromedp.Click("#jump-cex", chromedp.ByID))
	if at, n := p.position(); at != 0 || n != steps {
		t.Fatalf("after the jump: step %d of %d, want 0 of %d (the CLI's counterexample)", at, n, steps)
	}
	states := []string{p.state()}
	for k := 1; k <= steps; k++ {
		p.do(chromedp.Click("#forward", chromedp.ByID))
		states = append(states, p.state())
	}
	if at, _ := p.position(); at != steps || !eval[bool](p, `document.getElementById("forward").disabled`) {
		t.Errorf("at the end: step %d, forward still enabled", at)
	}
	status := fmt.Sprintf(`document.querySelector('#props tr[data-prop=%q]').dataset.status`, property)
	if got := eval[string](p, status); got != "violated" {
		t.Errorf("at the end, %s is %q, want violated (as elcheck verify prints)", property, got)
	}
	violated := eval[[]string](p, `[...document.querySelectorAll('#props tr[data-status="violated"]')].map((r) => r.dataset.prop)`)
	if len(violated) != 1 || violated[0] != property {
		t.Errorf("violated in the page: %v, elcheck verify: %s", violated, property)
	}
	if got := eval[int](p, `document.querySelectorAll("#chart svg").length`); got != 1 {
		t.Errorf("%d charts", got)
	}

	// Back to the start and forward again: the same states.
	for k := steps - 1; k >= 0; k-- {
		p.do(chromedp.Click("#back", chromedp.ByID))
		if got := p.state(); got != states[k] {
			t.Fatalf("back at step %d:\n%s\nwas\n%s", k, got, states[k])
		}
	}
	for k := 1; k <= 3; k++ {
		p.do(chromedp.Click("#forward", chromedp.ByID))
		if got := p.state(); got != states[k] {
			t.Fatalf("forward again at step %d:\n%s\nwas\n%s", k, got, states[k])
		}
	}
	// Choosing the event the path takes next is a step forward along it.
	p.do(chromedp.Click(`#events button.next`, chromedp.ByQuery))
	if at, n := p.position(); at != 4 || n != steps || p.state() != states[4] {
		t.Errorf("choosing the next event: step %d of %d", at, n)
	}

	// The trace file elcheck verify wrote: the same execution.
	p.open(base + "upload")
	p.do(chromedp.SetUploadFiles("#trace-file", []string{file}, chromedp.ByID))
	if at, n := p.position(); at != 0 || n != steps || p.state() != states[0] {
		t.Fatalf("the uploaded trace: step %d of %d", at, n)
	}
	p.do(chromedp.Click("#end", chromedp.ByID))
	if got := eval[string](p, status); got != "violated" || p.state() != states[steps] {
		t.Errorf("at the end of the uploaded trace, %s is %q", property, got)
	}

	// The bounds: every n from 1 to 4 measured, in a table and a plot.
	if got := eval[string](p, `document.getElementById("measure").textContent`); got != "measure messages for n = 1..4" {
		t.Errorf("the bounds button says %q", got)
	}
	p.run(chromedp.Click("#measure", chromedp.ByID))
	var ok bool
	p.run(chromedp.Poll(`document.getElementById("bounds-box").dataset.complete !== undefined`, &ok,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	rows := eval[[]string](p, `[...document.querySelectorAll("#bounds-table tbody tr")].map((r) => r.dataset.n)`)
	if !slices.Equal(rows, []string{"1", "2", "3", "4"}) || eval[string](p, `document.getElementById("bounds-box").dataset.complete`) != "yes" ||
		eval[int](p, `document.querySelectorAll("#bounds-plot svg").length`) != 1 {
		t.Errorf("the bounds table has rows for n = %v", rows)
	}

	// A bad request: the error, in words, on the page.
	p.open(base + "bad#ids=1,1,2,3&path=&at=0")
	if got := eval[string](p, `document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); !strings.Contains(got, "id 1 is repeated") {
		t.Errorf("the error shown: %q", got)
	}
}

// TestScreenshots writes the README's screenshots of the page (cr-flip and
// cr at n=6, and the WebAssembly build) to $ELCHECK_SCREENSHOTS (make web-screenshots: docs/web/);
// without it the test skips.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("ELCHECK_SCREENSHOTS")
	if dir == "" {
		t.Skip("ELCHECK_SCREENSHOTS is not set: no screenshots to write (make web-screenshots)")
	}
	ctx := browser(t)
	p := page{t, ctx}
	shot := func(name string) {
		t.Helper()
		var b []byte
		p.run(chromedp.FullScreenshot(&b, 100))
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	addr := startServe(t, "-algo=cr-flip", "-n=6")
	p.open(addr)
	p.do(chromedp.Click(`#events button[data-index="0"]`, chromedp.ByQuery))
	p.do(chromedp.Click(`#events button[data-index="1"]`, chromedp.ByQuery))
	shot("stepping.png")
	p.do(chromedp.Click("#jump-cex", chromedp.ByID))
	_, steps := p.position()
	for range steps / 2 {
		p.do(chromedp.Click("#forward", chromedp.ByID))
	}
	shot("counterexample-midway.png")
	p.do(chromedp.Click("#end", chromedp.ByID))
	shot("counterexample-end.png")

	addr = startServe(t, "-algo=cr", "-n=6")
	p.open(addr)
	p.do(chromedp.Click("#jump-worst", chromedp.ByID))
	p.do(chromedp.Click("#end", chromedp.ByID))
	shot("most-messages.png")
	p.run(chromedp.Click("#measure", chromedp.ByID))
	var measured bool
	p.run(chromedp.Poll(`document.getElementById("bounds-box").dataset.complete !== undefined`, &measured,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	p.run(chromedp.ScrollIntoView("#bounds-box", chromedp.ByID))
	shot("bounds.png")

	p.open(wasmSite(t) + "?algo=cr-flip&n=6")
	p.do(chromedp.Click("#jump-cex", chromedp.ByID))
	p.do(chromedp.Click("#end", chromedp.ByID))
	shot("wasm.png")
}
