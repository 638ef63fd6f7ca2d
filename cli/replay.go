package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/urfave/cli/v2"
)

var replayCommand = &cli.Command{
	Name:            "replay",
	Usage:           "re-execute a trace written by verify -trace-out and confirm or refute its violation",
	UsageText:       "elcheck replay FILE\n\nexit 1: the violation occurs again; exit 0: the trace runs but the violation does not occur; exit 2: the file does not fit the protocol",
	Action:          replayAction,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

func replayAction(c *cli.Context) error {
	if c.Args().Len() != 1 {
		return usagef("replay takes one trace file: elcheck replay FILE")
	}
	f, err := counterexamples.ReadFile(c.Args().First())
	if err != nil {
		return usagef("%v%s", err, helpHint(c, c.Args().First()))
	}
	m, ok := lookupMachine(f.Algo)
	if !ok {
		return usagef("the trace is of %q, which this elcheck does not know (see elcheck list)", f.Algo)
	}
	o, err := counterexamples.Replay(f, m)
	if err != nil {
		return usagef("the trace does not fit %s: %v", f.Algo, err)
	}
	w := c.App.Writer
	o.Trace.WriteText(w)
	if o.Confirmed {
		fmt.Fprintf(w, "CONFIRMED: %s: %s\n", f.Property, o.Why)
		return cli.Exit("", exitViolated)
	}
	fmt.Fprintf(w, "NOT REPRODUCED: %s\n", o.Why)
	return nil
}

// helpHint points a user who wrote "elcheck replay help" (a file that does
// not exist) to the help.
func helpHint(c *cli.Context, arg string) string {
	if _, err := os.Stat(arg); (arg == "help" || arg == "h") && errors.Is(err, fs.ErrNotExist) {
		return "; for help use elcheck help " + c.Command.Name
	}
	return ""
}
