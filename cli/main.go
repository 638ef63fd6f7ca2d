// Package cli is elcheck's command line, importable so that a user's own
// main can run it with protocols of their own beside the built-in ones:
//
//	func main() { os.Exit(cli.Run(os.Args, myproto.Variants()...)) }
//
// Every command, flag and output then works for those protocols as for the
// built-ins (cmd/elcheck is that main with none).
//
// Exit codes: 0 verified, 1 violation found, 2 usage error, 3 incomplete,
// 4 internal error (a bug in elcheck, not the user's mistake: a
// counterexample that does not replay, a panic in elcheck's own code).
package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// Exit codes.
const (
	exitVerified   = 0
	exitViolated   = 1
	exitUsage      = 2
	exitIncomplete = 3
	exitInternal   = 4
	// exitNotReproduced is replay's: the trace ran, or ran part way, and
	// its violation did not occur again.
	exitNotReproduced = 5
)

// exitCode is the exit code of a verdict's outcome.
func exitCode(o invariants.Outcome) int {
	switch o {
	case invariants.Violated:
		return exitViolated
	case invariants.Incomplete:
		return exitIncomplete
	case invariants.Internal:
		return exitInternal
	}
	return exitVerified
}

// verdictExit returns the exit code of outcome o as an action's error: nil
// for exit 0, the verdict itself being printed already.
func verdictExit(o invariants.Outcome) error {
	if code := exitCode(o); code != exitVerified {
		return cli.Exit("", code)
	}
	return nil
}

// Run executes the command line args (args[0] is the program's name, as in
// os.Args) on os.Stdout and os.Stderr and returns the exit code, for main to
// pass to os.Exit. extra are protocols of the caller's own, known to every
// command beside the built-in ones; a name taken by a built-in or given
// twice, or an Info that does not validate, is a usage error (exit 2).
//
// Run is meant as a process's entry point, called from main: it sets the
// garbage collector's target (unless GOGC is set), and -memory and the
// memory guard set the process's memory limit. Otherwise each call has its
// own state, so that calls may run at once. verify replays each counterexample in a fresh
// process by re-executing this binary with the replay command, so the same
// main, with the same extra, must answer it: a main that calls Run with
// its protocols does.
func Run(args []string, extra ...spec.Machine) int {
	if os.Getenv("GOGC") == "" {
		// The explorer allocates fast and keeps little: collecting at
		// four times the live heap instead of twice saves about a fifth
		// of a sweep's time (dkr n=7: 10.5 s -> 8.1 s) for a larger peak.
		debug.SetGCPercent(400)
	}
	if err := checkMachines(extra); err != nil {
		fmt.Fprintln(os.Stderr, "elcheck: "+err.Error())
		return exitUsage
	}
	return run(args, os.Stdout, os.Stderr, newEnv(slices.Clone(extra)))
}

// run executes the command line in e and returns the exit code; it never
// calls os.Exit, so tests can drive it, with an env of their own.
//
// A panic in elcheck's own code on this goroutine (a panic in a protocol's
// step is explore's to report, as a violation) becomes one line on stderr
// and exit 4, so that a script never reads a crash as a verdict or as a
// usage error; ELCHECK_DEBUG=1 adds the stack.
func run(args []string, stdout, stderr io.Writer, e *env) (code int) {
	defer func() {
		if p := recover(); p != nil {
			msg := strings.Join(strings.Fields(fmt.Sprint(p)), " ")
			fmt.Fprintf(stderr, "elcheck: internal error: %s; please report it\n", msg)
			if os.Getenv("ELCHECK_DEBUG") == "1" {
				stderr.Write(debug.Stack())
			}
			code = exitInternal
		}
	}()
	app := newApp(stdout, stderr, e)
	if len(args) > 1 {
		switch name := args[1]; {
		case name == "":
			fmt.Fprintf(stderr, "elcheck: the command is empty: use %s\n", commandList(app))
			return exitUsage
		case name[0] != '-' && app.Command(name) == nil:
			fmt.Fprintf(stderr, "elcheck: unknown command %q: use %s\n", name, commandList(app))
			return exitUsage
		}
	}
	err := app.Run(args)
	if err == nil {
		return exitVerified
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg := ec.Error(); msg != "" {
			fmt.Fprintln(stderr, "elcheck: "+msg)
		}
		return ec.ExitCode()
	}
	fmt.Fprintln(stderr, "elcheck: "+err.Error())
	return exitUsage
}

func newApp(stdout, stderr io.Writer, e *env) *cli.App {
	return &cli.App{
		Name:        "elcheck",
		Usage:       "model-check leader-election algorithms by exhaustion",
		UsageText:   "elcheck verify -algo=dkr -n=5\nelcheck bounds -algo=cr -n=3..7\nelcheck list\nelcheck replay trace.json\nelcheck chart trace.json -o trace.svg\nelcheck serve -algo=cr-flip -n=4\nelcheck merge shard-*.json\nelcheck vet ./protocols/...\nelcheck help verify",
		Description: "Exit codes: 0 verified, 1 violation found, 2 usage error, 3 incomplete, 4 internal error (a bug in elcheck).",
		Version:     version(),
		Writer:      stdout,
		ErrWriter:   stderr,
		Commands:    commands(listCommand, verifyCommand, boundsCommand, mergeCommand, replayCommand, chartCommand, serveCommand, vetCommand, helpCommand, versionCommand),
		Action:      noCommand,
		// urfave/cli adds -h to the application only when it adds its own
		// help command, which the application's help command replaces.
		Flags:    []cli.Flag{cli.HelpFlag},
		Metadata: map[string]any{envKey: e},
		// Errors come back to run, which prints one line and picks the code.
		ExitErrHandler:       func(*cli.Context, error) {},
		OnUsageError:         usageError,
		CommandNotFound:      commandNotFound,
		HideHelpCommand:      true,
		EnableBashCompletion: false,
	}
}

// commands copies the commands and their flags for one application:
// urfave/cli writes into them (the help name, the -h flag, each flag's
// default as it parses), and runs share nothing. A command without its own
// OnUsageError gets usageError: without one, urfave/cli answers an unknown
// flag with the whole help and exit 3.
func commands(cs ...*cli.Command) []*cli.Command {
	out := make([]*cli.Command, len(cs))
	for i, c := range cs {
		cp := *c
		cp.Flags = make([]cli.Flag, len(c.Flags))
		for k, f := range c.Flags {
			cp.Flags[k] = cloneFlag(f)
		}
		if cp.OnUsageError == nil {
			cp.OnUsageError = usageError
		}
		out[i] = &cp
	}
	return out
}

// cloneFlag copies a flag (a pointer to one of urfave/cli's flag structs).
func cloneFlag(f cli.Flag) cli.Flag {
	v := reflect.ValueOf(f).Elem()
	cp := reflect.New(v.Type())
	cp.Elem().Set(v)
	return cp.Interface().(cli.Flag)
}

func usageError(c *cli.Context, err error, _ bool) error {
	if msg, ok := badValue(c, err); ok {
		return cli.Exit(msg, exitUsage)
	}
	topic := ""
	if c != nil && c.Command != nil && c.App.Command(c.Command.Name) == c.Command {
		topic = " " + c.Command.Name
	}
	return cli.Exit(err.Error()+" (see elcheck help"+topic+")", exitUsage)
}

// flagValueError is the flag package's error for a value its type does
// not parse, which says "parse error" and nothing of why.
var flagValueError = regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): parse error$`)

// badValue rewrites the flag package's error for a value its type does
// not parse ("parse error") into one that names the fix: a duration
// (-timeout) that lacks its unit, or is not one; a number that is not
// written in digits (-n=x, -max-states=1e6).
func badValue(c *cli.Context, err error) (string, bool) {
	m := flagValueError.FindStringSubmatch(err.Error())
	if m == nil || c == nil || c.Command == nil {
		return "", false
	}
	value, name := m[1], m[2]
	i := slices.IndexFunc(c.Command.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) })
	if i < 0 {
		return "", false
	}
	switch c.Command.Flags[i].(type) {
	case *cli.DurationFlag:
		if v := strings.TrimSpace(value); v != "" {
			if _, err := time.ParseDuration(v + "s"); err == nil {
				return fmt.Sprintf("-%s=%s: missing unit, e.g. %ss or 5m", name, value, v), true
			}
		}
		return fmt.Sprintf("-%s=%s is not a duration: write a number and a unit, e.g. 30s, 5m or 2h", name, value), true
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		if f, err := strconv.ParseFloat(strings.TrimSpace(value), 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1e18 {
			return fmt.Sprintf("-%s=%s: write the whole number in digits, -%s=%d", name, value, name, int64(f)), true
		}
		return fmt.Sprintf("-%s=%s is not a whole number: write it in digits, e.g. -%s=5", name, value, name), true
	}
	return "", false
}

// keyword reads a flag whose values are a few fixed words, lower case, as
// the help writes them: the value's case and surrounding spaces do not
// matter (-search=DFS is -search=dfs).
func keyword(c *cli.Context, name string) string { return toKeyword(c.String(name)) }

func toKeyword(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func usagef(format string, args ...any) error {
	return cli.Exit(fmt.Sprintf(format, args...), exitUsage)
}

// internalf is an error of elcheck itself: exit 4, and a request to report
// it.
func internalf(format string, args ...any) error {
	return cli.Exit("internal error: "+fmt.Sprintf(format, args...)+"; please report it", exitInternal)
}
