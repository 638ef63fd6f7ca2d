package cli

import (
	"flag"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"
)

// urfave/cli v2's own help is a subcommand that it adds to every command
// unless HideHelpCommand is set: "elcheck verify -algo=dkr -n=3 help" then
// runs the help subcommand, prints help and exits 0, and the run the user
// meant never happens. So every command sets HideHelpCommand (a stray
// "help" is an unexpected argument, a usage error), the application has a
// help command of its own, and -h stays urfave's flag.

var helpCommand = &cli.Command{
	Name:            "help",
	Usage:           "show the commands, or the flags of one command",
	UsageText:       "elcheck help [COMMAND]",
	Action:          helpAction,
	HideHelpCommand: true,
}

func helpAction(c *cli.Context) error {
	switch c.Args().Len() {
	case 0:
		return cli.ShowAppHelp(c)
	case 1:
		name := c.Args().First()
		if c.App.Command(name) == nil {
			return usagef("no command %q: the commands are %s", name, commandList(c.App))
		}
		return cli.ShowCommandHelp(c, name)
	}
	return usagef("help takes one command, e.g. elcheck help verify")
}

var versionCommand = &cli.Command{
	Name:            "version",
	Usage:           "print elcheck's version (as elcheck --version)",
	UsageText:       "elcheck version",
	HideHelpCommand: true,
	Action: func(c *cli.Context) error {
		if err := checkArgs(c); err != nil {
			return err
		}
		cli.ShowVersion(c)
		return nil
	},
}

// version is the main module's version from the build information: a
// release's tag (go install ...@v1.2.3), the pseudo-version the go command
// stamps from the repository, or "(devel)" with the revision when it knows
// one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown: no build information)"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " " + rev
		if modified == "true" {
			v += " (modified)"
		}
	}
	return v
}

// commandList names the commands for messages: "list, verify, ... or help".
func commandList(app *cli.App) string {
	var names []string
	for _, c := range app.Commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// noCommand is the application's action: elcheck without a command prints
// the help on stderr and exits 2, as go does, so that a script whose
// command expanded to nothing fails rather than passes.
func noCommand(c *cli.Context) error {
	cli.HelpPrinter(c.App.ErrWriter, cli.AppHelpTemplate, c.App)
	return usagef("no command: use %s", commandList(c.App))
}

// commandNotFound is reached by "elcheck CMD -h WORD" (urfave/cli takes
// WORD for a help topic): it shows CMD's help rather than exit 3, the code
// of an incomplete run.
func commandNotFound(c *cli.Context, _ string) {
	if c.Command != nil && c.App.Command(c.Command.Name) == c.Command {
		cli.ShowSubcommandHelp(c)
		return
	}
	cli.ShowAppHelp(c)
}

func init() {
	cli.FlagStringer = flagHelp
	// urfave/cli adds -h and --version, package variables of its own, to
	// every application, and parsing a command line writes into each flag
	// it applies: they apply a copy, so that runs at once share nothing.
	for _, f := range []*cli.Flag{&cli.HelpFlag, &cli.VersionFlag} {
		if b, ok := (*f).(*cli.BoolFlag); ok {
			*f = copyOnApply{b}
		}
	}
}

// copyOnApply is a flag that every application shares (-h, --version).
type copyOnApply struct{ *cli.BoolFlag }

// Apply adds a copy of the flag to set.
func (f copyOnApply) Apply(set *flag.FlagSet) error {
	cp := *f.BoolFlag
	return cp.Apply(set)
}

// flagHelp renders a flag in help as the rest of elcheck writes it,
// -name=VALUE (urfave/cli's default is "--name value"), and without the
// "(default: 0)" or "(default: false)" urfave/cli adds from a flag's zero
// value: a flag's usage says its default itself when it has one worth
// saying, so each is said once and required flags say "required".
func flagHelp(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	placeholder, usage := unquoteUsage(df.GetUsage())
	if placeholder == "" {
		placeholder = "VALUE"
	}
	var names []string
	for _, n := range df.Names() {
		s := "-" + n
		if df.TakesValue() {
			s += "=" + placeholder
		}
		names = append(names, s)
	}
	return strings.Join(names, ", ") + "\t" + usage
}

// unquoteUsage takes the first `word` of a usage as the flag's
// placeholder, as urfave/cli does: "write it to `FILE`" shows -x=FILE.
func unquoteUsage(usage string) (placeholder, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name := usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+1+j+1:]
}
