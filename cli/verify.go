package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	ec "github.com/elcheck/elcheck" // named apart from the tests' elcheck helper
	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// maxN is the largest ring elcheck accepts: initiator sets are 64-bit
// masks, and past 16 even one configuration is out of reach.
const maxN = 16

// maxShards bounds k in -shard=i/k, so that merge can account for every
// shard.
const maxShards = 1 << 20

// Flag usages say their defaults themselves (help.go's flagHelp adds
// none), and name the flag's value with a `PLACEHOLDER`.
var (
	algoFlag       = &cli.StringFlag{Name: "algo", Usage: "the protocol or variant `NAME` to check (required; see elcheck list)"}
	nFlag          = &cli.IntFlag{Name: "n", Usage: fmt.Sprintf("the number `N` of processes, 1 to %d (required)", maxN)}
	idsFlag        = &cli.StringFlag{Name: "ids", Usage: fmt.Sprintf("fix the id placement: the `IDS` at positions 0..n-1, e.g. 3,1,2,5,4, each %d to %d (default: every placement up to rotation)", spec.MinID, spec.MaxID)}
	initiatorsFlag = &cli.StringFlag{Name: "initiators", Usage: "fix the initiators: `POSITIONS` 0..n-1, e.g. 0,2,3, or all (default: every non-empty set)"}
	orientFlag     = &cli.StringFlag{Name: "orientation", Value: "consistent", Usage: "`WHICH` port numberings: consistent (on a two-way ring, port 0 leads clockwise at every process; on a network, each process numbers its ports in the order of its neighbours' positions) or any (every numbering of every process's ports, up to the network's automorphisms: on a two-way ring, an unoriented ring) (default: consistent)"}
	channelsFlag   = &cli.StringFlag{Name: "channels", Usage: "channel semantics `KIND`, fifo or bag (default: the protocol's)"}
	capacityFlag   = &cli.IntFlag{Name: "capacity", Usage: "bound every channel to `K` messages: a send into a full channel blocks the sender until the receiver reads, and a terminal state with a blocked sender is a deadlock (default: the protocol's; 0: unbounded)"}
	exactFlag      = &cli.BoolFlag{Name: "exact", Usage: "store whole states instead of 64-bit fingerprints"}
	searchFlag     = &cli.StringFlag{Name: "search", Value: "bfs", Usage: "the search `ORDER`, bfs (shortest counterexamples) or dfs (default: bfs)"}
	maxStatesFlag  = &cli.Int64Flag{Name: "max-states", Usage: "stop INCOMPLETE after `N` distinct states (default, or 0: no limit)"}
	timeoutFlag    = &cli.DurationFlag{Name: "timeout", Usage: "stop INCOMPLETE after `DURATION`, e.g. 30s or 2h (default, or 0: no limit)"}
	formatFlag     = &cli.StringFlag{Name: "format", Value: "text", Usage: "the report's `FORMAT`, text or json (default: text)"}
	traceOutFlag   = &cli.StringFlag{Name: "trace-out", Usage: "write the counterexample, if any, to `FILE` (JSON) for elcheck replay; the path is checked first, and a run without one removes an old FILE"}
	reduceFlag     = &cli.StringFlag{Name: "reduce", Value: "all", Usage: "the `REDUCTIONS`: none, por (partial-order), sym (placements up to rotation) or all (default: all)"}
	memoryFlag     = &cli.StringFlag{Name: "memory", Usage: "stay within `SIZE` of memory for the searches, e.g. 512M or 2G (K, M, G, T or KiB, MiB, GiB, TiB: powers of 1024, as in -Xmx and GOMEMLIMIT; KB, MB, GB, TB: powers of 1000); " +
		"a configuration that outgrows it is searched again with its visited set (and, if its graph is not layered, its edges) on disk, with the same results (default: no bound)"}
	workersFlag   = &cli.IntFlag{Name: "workers", Usage: "`N` configurations searched at once, or workers sharing one configuration's search when there are fewer configurations (unless it is reduced, or -exact on collapsed states); results do not depend on it (default, or 0: one per CPU)"}
	noCompareFlag = &cli.BoolFlag{Name: "skip-comparison-only", Usage: "do not check that steps only compare ids (comparison-only is then not checked)"}
	shardFlag     = &cli.StringFlag{Name: "shard", Usage: "check only part `I/K` of the configurations, e.g. 2/8 (0-based; combine the -format=json reports with elcheck merge); exit 0 then says only that this part verified, and the last line says so: shard I of K: VERIFIED on its ... configurations (EMPTY if none falls in it)"}
	firstFlag     = &cli.BoolFlag{Name: "first", Usage: "stop at the first configuration with a violation, with the trace found there (not necessarily the shortest): is there a bug? (default: go on, each configuration no deeper than a shorter counterexample could be)"}
	progressFlag  = &cli.BoolFlag{Name: "progress", Usage: "report progress on stderr even when it is not a terminal: a plain line every 10 s (on a terminal, a line rewritten twice a second, always)"}
)

var verifyCommand = &cli.Command{
	Name:      "verify",
	Usage:     "explore every execution of every configuration and check every property",
	UsageText: "elcheck verify -algo=dkr -n=5 [-topology=NAME|-graph=LINKS] [-ids=...] [-initiators=...] [-orientation=any] [-channels=bag] [-shard=i/k] [-format=json] [-trace-out=FILE] [-chart=FILE.svg] [-against=NAME]",
	Flags: []cli.Flag{algoFlag, nFlag, topologyFlag, graphFlag, idsFlag, initiatorsFlag, orientFlag, channelsFlag, capacityFlag, exactFlag, searchFlag,
		maxStatesFlag, timeoutFlag, formatFlag, traceOutFlag, chartFlag, againstFlag, noCompareFlag, shardFlag, reduceFlag, workersFlag, memoryFlag, firstFlag, progressFlag, forceFlag},
	Action:          verifyAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

// job is a parsed verify command line.
type job struct {
	machine  spec.Machine
	space    configs.Space
	opts     explore.Options
	format   string
	traceOut string
	timeout  time.Duration
	against  spec.Machine // -against's reference protocol, or nil
	graph    string       // -graph, the one network given, or ""
}

func parseJob(c *cli.Context) (*job, error) {
	m, err := parseMachine(c)
	if err != nil {
		return nil, err
	}
	n := c.Int(nFlag.Name)
	_, gn, err := parseGraph(c)
	switch {
	case err != nil:
		return nil, err
	case !c.IsSet(nFlag.Name) && gn > 0:
		n = gn // the network given names its processes
	case !c.IsSet(nFlag.Name):
		return nil, usagef("missing -n: the number of processes, 1 to %d", maxN)
	}
	if n < 1 || n > maxN {
		return nil, usagef("-n=%d is out of range: n must be between 1 and %d", n, maxN)
	}
	j := &job{machine: m, format: keyword(c, formatFlag.Name), traceOut: c.String(traceOutFlag.Name), timeout: c.Duration(timeoutFlag.Name), graph: c.String(graphFlag.Name)}
	if j.space, err = parseSpace(c, m.Info(), n); err != nil {
		return nil, err
	}
	if j.against, err = parseAgainst(envOf(c), c.String(againstFlag.Name), m); err != nil {
		return nil, err
	}
	if s := c.String(shardFlag.Name); s != "" {
		i, k, err := parseShard(s)
		if err != nil {
			return nil, err
		}
		j.space.Shard, j.space.Shards = i, k
	}
	switch j.format {
	case "text", "json":
	default:
		return nil, usagef("-format=%s: use text or json", j.format)
	}
	j.opts = explore.DefaultOptions()
	j.opts.ComparisonOnly = !c.Bool(noCompareFlag.Name)
	if err := parseSearchOptions(c, &j.opts, &j.space); err != nil {
		return nil, err
	}
	if s := c.String(memoryFlag.Name); s != "" {
		b, err := parseSize(s)
		var out sizeOutOfRange
		switch {
		case errors.As(err, &out):
			return nil, usagef("-memory=%s: %v", s, err)
		case err != nil:
			return nil, usagef("-memory=%s: %v; write a size like 512M or 2G (powers of 1024), or 512MB (powers of 1000)", s, err)
		}
		j.opts.Memory = b
		// Let the collector work harder rather than let garbage push the
		// process past the budget (GOGC=400 in main would otherwise allow
		// four times the live heap). The searches keep their data to half
		// the budget (explore.Options.Memory), which leaves the collector
		// room to work in.
		debug.SetMemoryLimit(b)
	}
	switch s := keyword(c, searchFlag.Name); s {
	case "bfs":
	case "dfs":
		j.opts.Search = explore.DFS
	default:
		return nil, usagef("-search=%s: use bfs or dfs", s)
	}
	// Last, once the command line is known to be right: a usage error
	// above must not depend on the file system.
	if err := verifyChartKind(c.String(chartFlag.Name)); err != nil {
		return nil, err
	}
	if err := checkOutputs([2]string{"trace-out", j.traceOut}, [2]string{"chart", c.String(chartFlag.Name)}); err != nil {
		return nil, err
	}
	return j, nil
}

// parseMachine reads -algo, and refuses positional arguments. verify and
// bounds share it.
func parseMachine(c *cli.Context) (spec.Machine, error) {
	if err := checkArgs(c); err != nil {
		return nil, err
	}
	if err := checkEmpty(c); err != nil {
		return nil, err
	}
	e := envOf(c)
	name := c.String(algoFlag.Name)
	if name == "" {
		return nil, usagef("missing -algo: one of %s", strings.Join(e.machineNames(), ", "))
	}
	m, ok := e.lookup(name)
	if !ok {
		return nil, e.unknownMachine("", name)
	}
	return m, nil
}

// checkArgs refuses positional arguments, for the commands that take none.
// A stray "help" or "h" gets there as an argument, not as urfave/cli's help
// subcommand: the commands set HideHelpCommand, so that
// "elcheck verify -algo=dkr -n=3 help" is an error rather than a run that
// prints help and exits 0.
func checkArgs(c *cli.Context) error {
	if c.Args().Len() == 0 {
		return nil
	}
	name := c.Command.Name
	if len(c.Command.VisibleFlags()) <= 1 { // -h only
		return usagef("unexpected argument %q: elcheck %s takes no arguments; for help use elcheck help %s", c.Args().First(), name, name)
	}
	return usagef("unexpected argument %q: flags come as -name=value; for help use elcheck help %s", c.Args().First(), name)
}

// emptyHints says what to write instead of an empty value, for the flags
// where "leave it out" needs saying what leaving it out means.
var emptyHints = map[string]string{
	"ids":        "give one id per position, e.g. -ids=3,1,2, or leave -ids out for every placement",
	"initiators": "give positions, e.g. -initiators=0,2, or all, or leave -initiators out for every non-empty set",
	"n":          "give a ring size like 5 or a range like 3..7",
	"trace-out":  "name a file, or leave the flag out",
	"chart":      "name an .svg, .mmd or .md file, or leave the flag out",
	"worst-out":  "name a file, or leave the flag out",
	"plot":       "name an SVG file, or leave the flag out",
	"memory":     "give a size like 512M, or leave -memory out for no bound",
	"shard":      "give i/k, e.g. -shard=0/8, or leave -shard out to check every configuration",
	"topology":   "give a family like tree or graph, or leave -topology out for the protocol's own",
	"graph":      "give links like 0-1,1-2, or leave -graph out for every network of the family",
}

// checkEmpty refuses a string flag given explicitly with an empty value,
// as -ids=$IDS gives when IDS is unset: taken as "not given", it would
// check another, larger space than the one asked for.
func checkEmpty(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		sf, ok := f.(*cli.StringFlag)
		if !ok || !c.IsSet(sf.Name) || strings.TrimSpace(c.String(sf.Name)) != "" {
			continue
		}
		hint, ok := emptyHints[sf.Name]
		if sf.Name == algoFlag.Name || sf.Name == againstFlag.Name {
			// Not in emptyHints: the names are known only once Run has
			// added the caller's protocols.
			hint, ok = "give a protocol, one of "+strings.Join(envOf(c).machineNames(), ", "), true
		}
		if !ok {
			hint = "give a value, or leave the flag out"
		}
		return usagef("-%s=%s is empty: %s", sf.Name, c.String(sf.Name), hint)
	}
	return nil
}

// parseSpace builds the space of n processes on the protocol's topology,
// or the family -topology names, or the one network -graph gives (an
// unknown topology is a usage error) and reads -channels, -ids and
// -initiators into it: the configurations to explore. verify and bounds
// share it.
// maxCapacity bounds -capacity: beyond a few messages a bound changes
// little but the state count.
const maxCapacity = 64

func parseSpace(c *cli.Context, info spec.Info, n int) (configs.Space, error) {
	kind, err := parseFamily(c, info)
	if err != nil {
		return configs.Space{}, err
	}
	links, _, err := parseGraph(c)
	if err != nil {
		return configs.Space{}, err
	}
	space, err := familySpace(info.Name, kind, n, links, c.String(graphFlag.Name))
	if err != nil {
		return space, err
	}
	space.Channels, space.PortBlind = info.Channels, info.PortBlind
	switch o := keyword(c, orientFlag.Name); o {
	case "consistent":
	case "any":
		if err := space.AnyPorts(); err != nil {
			return space, usagef("-orientation=any: %v", err)
		}
	default:
		return space, usagef("-orientation=%s: use consistent or any", o)
	}
	if s := keyword(c, channelsFlag.Name); s != "" {
		ch, err := spec.ParseChannels(s)
		if err != nil {
			return space, usagef("-channels=%s: use fifo or bag", s)
		}
		space.Channels = ch
	}
	space.Capacity = info.Capacity
	if c.IsSet(capacityFlag.Name) {
		k := c.Int(capacityFlag.Name)
		if k < 0 || k > maxCapacity {
			return space, usagef("-capacity=%d is out of range: use 1..%d messages per channel, or 0 for unbounded channels", k, maxCapacity)
		}
		space.Capacity = k
	}
	if c.IsSet(idsFlag.Name) {
		s := c.String(idsFlag.Name)
		ids, err := configs.ParseIDs("-"+idsFlag.Name, s)
		if err != nil {
			return space, usagef("%v", err)
		}
		if len(ids) != n {
			return space, usagef("-ids=%s has %d ids but -n=%d: give one id per position", s, len(ids), n)
		}
		space.IDs = ids
	}
	if c.IsSet(initiatorsFlag.Name) {
		init, err := configs.ParseInitiators("-"+initiatorsFlag.Name, c.String(initiatorsFlag.Name), n)
		if err != nil {
			return space, usagef("%v", err)
		}
		space.Initiators = init
	}
	return space, nil
}

// parseSearchOptions reads -exact, -max-states, -reduce and -workers into
// opts and space. verify and bounds share it.
func parseSearchOptions(c *cli.Context, opts *explore.Options, space *configs.Space) error {
	opts.Exact = c.Bool(exactFlag.Name)
	opts.MaxStates = c.Int64(maxStatesFlag.Name)
	opts.First = c.Bool(firstFlag.Name)
	switch r := keyword(c, reduceFlag.Name); r {
	case "all":
	case "none":
		opts.POR, space.AllPlacements = false, true
	case "por":
		space.AllPlacements = true
	case "sym":
		opts.POR = false
	default:
		return usagef("-reduce=%s: use none, por, sym or all", r)
	}
	if w := c.Int(workersFlag.Name); w < 0 || w > 1024 {
		return usagef("-workers=%d: use 1 to 1024, or 0 (the default) for one per CPU", w)
	} else {
		opts.Workers = w
	}
	if opts.MaxStates < 0 {
		return usagef("-max-states=%d must not be negative: give a number of states, or 0 for no limit", opts.MaxStates)
	}
	if d := c.Duration(timeoutFlag.Name); d < 0 {
		return usagef("-timeout must not be negative (it is %s): give a duration such as 30s or 2h, or 0 for no limit", d)
	}
	return nil
}

// parseShard reads -shard=i/k: part i (0-based) of k.
func parseShard(s string) (i, k int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	k, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || k < 1 || i < 0 || i >= k {
		return 0, 0, usagef("-shard=%s: write i/k for part i of k, with 0 <= i < k, e.g. -shard=0/8 to -shard=7/8", s)
	}
	if k > maxShards {
		return 0, 0, usagef("-shard=%s: at most %d shards", s, maxShards)
	}
	return i, k, nil
}

// stopSignals end a run the way Ctrl-C does: the search stops and the
// report says what it found so far. SIGHUP is among them: a terminal
// closed, or an ssh connection lost, must not cost a long run its figures.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// searchContext is the context a search runs in, and the function that
// releases it: cancelled by a stop signal (Ctrl-C, SIGTERM, SIGHUP), after
// timeout if it is not 0, and by the memory guard if available, the
// memory the process may use, is not nil (guardMemory).
func searchContext(parent context.Context, timeout time.Duration, available func() uint64) (context.Context, func()) {
	ctx, stop := signal.NotifyContext(parent, stopSignals...)
	unguard := func() {}
	if available != nil {
		ctx, unguard = guardMemory(ctx, available)
	}
	cancel := context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, timeout)
	}
	return ctx, func() { cancel(); unguard(); stop() }
}

func verifyAction(c *cli.Context) error {
	j, err := parseJob(c)
	if err != nil {
		return err
	}
	if err := checkSweep(c, j.space.Count()); err != nil {
		return err
	}
	e := envOf(c)
	guard := e.available
	if j.opts.Memory != 0 {
		guard = nil // with -memory the search keeps to its own bound
	}
	ctx, stop := searchContext(c.Context, j.timeout, guard)
	defer stop()
	progress := newProgress(c, false)
	if progress != nil {
		j.opts.Progress = progress.report
	}
	// The counterexample is made sure of as elcheck.Verify does, and also
	// in a fresh process (confirmFresh).
	confirm := counterexamples.Confirmation{Rebuild: e.rebuild, Where: "in a fresh process",
		Elsewhere: func(t *counterexamples.Trace) (bool, string, error) { return confirmFresh(ctx, t) }}
	v, err := ec.Verify(ctx, j.machine, j.space.N(), ec.Space(j.space), ec.Explore(j.opts), ec.Confirm(confirm))
	progress.finish()
	if err != nil {
		return verifyError(c, err)
	}
	if err := markAgainst(v.Counterexample, j.against); err != nil {
		return err
	}
	rep := verifyReport(j, v.Result, v.Counterexample)
	saveCounterexample(c, rep, j.traceOut)
	return rep.exit()
}

// verifyError is the action's error for elcheck.Verify's: a fault of
// elcheck's own (exit 4), with the stack of a panic in the search under
// ELCHECK_DEBUG; or a protocol it cannot check, which the command line
// checked before and so is not expected (exit 2).
func verifyError(c *cli.Context, err error) error {
	var ie *ec.InternalError
	switch {
	case !errors.As(err, &ie):
		return usagef("%s", strings.TrimPrefix(err.Error(), "elcheck: "))
	case ie.Search:
		if os.Getenv("ELCHECK_DEBUG") != "" {
			fmt.Fprintln(c.App.ErrWriter, ie.Stack)
		}
		return internalf("during the search: %s", ie.What)
	}
	return internalf("%s", ie.What)
}

// sizeUnits are the units of -memory, by their upper-case spelling. The
// single letters are powers of 1024, as in Java's -Xmx and GOMEMLIMIT,
// because that is what people who write -memory=512M mean; KB, MB... are
// SI, KiB, MiB... binary.
var sizeUnits = map[string]float64{
	"": 1, "B": 1,
	"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40,
	"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40,
}

// sizeSyntax is a size: a decimal number and an optional unit.
var sizeSyntax = regexp.MustCompile(`^([0-9]+(?:\.[0-9]*)?|\.[0-9]+) *([A-Za-z]*)$`)

// Sizes elcheck accepts for -memory: less than 64 KiB is surely a missing
// unit (-memory=4096), and more than a PiB a typo.
const (
	minMemory = 64 << 10
	maxMemory = 1 << 50
)

// parseSize reads a byte count for -memory: a number with an optional
// unit (sizeUnits, in any case: 1g, 512k, 512MiB, 2GB).
func parseSize(s string) (int64, error) {
	m := sizeSyntax.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	mult, ok := sizeUnits[strings.ToUpper(m[2])]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q", m[2])
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	b := v * mult
	switch {
	case b < minMemory:
		msg := fmt.Sprintf("%s bytes is too little: the least is 64K (%s bytes)", commas(int64(b)), commas(minMemory))
		if m[2] == "" {
			msg += fmt.Sprintf("; is the unit missing, as in %sM?", m[1])
		}
		return 0, sizeOutOfRange(msg)
	case b > maxMemory:
		return 0, sizeOutOfRange("too much: the most is 1024T")
	}
	return int64(b), nil
}

// sizeOutOfRange is parseSize's error for a size it reads but does not
// accept: it says the limit, and needs no hint on how to write a size.
type sizeOutOfRange string

func (e sizeOutOfRange) Error() string { return string(e) }
