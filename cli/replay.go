package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/urfave/cli/v2"
)

var replayCommand = &cli.Command{
	Name:  "replay",
	Usage: "re-execute a trace written by verify -trace-out and confirm or refute its violation",
	UsageText: "elcheck replay FILE [-against=NAME]\n\n" +
		"FILE = - reads the trace from standard input: elcheck replay - < trace.json\n" +
		"exit 1: CONFIRMED, the violation occurs again\n" +
		"exit 5: NOT REPRODUCED, the violation does not occur: the trace runs without it, or stops fitting part way (a step no longer enabled), the protocol not behaving as when the trace was recorded (impure?)\n" +
		"exit 3: NOT RE-CHECKED, the property relates several executions (uniformity, comparison-only found by re-exploring, step-purity with no step): run elcheck verify again\n" +
		"exit 0: REPLAYED, an execution with the most messages, within the bound (bounds -worst-out)\n" +
		"exit 2: the file is malformed, or of another protocol or configuration (its first step is not enabled)\n" +
		"-against=NAME replays it on the protocol NAME too and marks the first step where the two differ",
	Flags:           []cli.Flag{againstFlag},
	Action:          replayAction,
	OnUsageError:    usageError,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

func replayAction(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) == 0 {
		return usagef("replay takes one trace file: elcheck replay FILE [-against=NAME]")
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	against := fs.String(againstFlag.Name, c.String(againstFlag.Name), "")
	if err := trailingFlags(fs, args, "elcheck replay FILE [-against=NAME]"); err != nil {
		return err
	}
	set := c.IsSet(againstFlag.Name)
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == againstFlag.Name })
	if set && strings.TrimSpace(*against) == "" {
		return usagef("-against= is empty: give a protocol, one of %s", strings.Join(envOf(c).machineNames(), ", "))
	}
	f, err := readTrace(c, args[0])
	if err != nil {
		return usagef("%v%s", err, helpHint(c, args[0]))
	}
	m, ok := envOf(c).lookup(f.Algo)
	if !ok {
		return usagef("the trace is of %q, which this elcheck does not know (see elcheck list)", f.Algo)
	}
	ref, err := parseAgainst(envOf(c), *against, m)
	if err != nil {
		return err
	}
	o, err := counterexamples.Replay(f, m)
	var div *counterexamples.Diverged
	switch {
	case errors.As(err, &div) && len(div.Partial.Steps) > 0:
		// Its first steps ran: the protocol, not the file, changed.
		div.Partial.WriteText(c.App.Writer)
		fmt.Fprintf(c.App.Writer, "NOT REPRODUCED: %v: the protocol does not behave as when the trace was recorded (impure?)\n", err)
		return cli.Exit("", exitNotReproduced)
	case err != nil:
		return usagef("the trace does not fit %s: %v", f.Algo, err)
	}
	if err := markAgainst(o.Trace, ref); err != nil {
		return err
	}
	w := c.App.Writer
	o.Trace.WriteText(w)
	if o.Confirmed {
		fmt.Fprintf(w, "CONFIRMED: %s: %s\n", f.Property, o.Why)
		return cli.Exit("", exitViolated)
	}
	if o.Within {
		fmt.Fprintf(w, "REPLAYED: %s: the most messages elcheck bounds found, not a violation\n", o.Why)
		return nil
	}
	if o.Unchecked {
		fmt.Fprintf(w, "NOT RE-CHECKED: %s\n", o.Why)
		return cli.Exit("", exitIncomplete)
	}
	fmt.Fprintf(w, "NOT REPRODUCED: %s\n", o.Why)
	return cli.Exit("", exitNotReproduced)
}

// readTrace reads the trace file arg names (replay's and chart's
// argument), or standard input if arg is "-".
func readTrace(c *cli.Context, arg string) (*counterexamples.File, error) {
	if arg != "-" {
		return counterexamples.ReadFile(arg)
	}
	b, err := io.ReadAll(c.App.Reader)
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %v", err)
	}
	return counterexamples.ParseFile(b, "standard input")
}

// helpHint points a user who wrote "elcheck replay help" (a file that does
// not exist) to the help.
func helpHint(c *cli.Context, arg string) string {
	if _, err := os.Stat(arg); (arg == "help" || arg == "h") && errors.Is(err, fs.ErrNotExist) {
		return "; for help use elcheck help " + c.Command.Name
	}
	return ""
}
