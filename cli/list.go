package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
)

var listCommand = &cli.Command{
	Name:      "list",
	Usage:     "list the protocols and their variants",
	UsageText: "elcheck list [-correct]",
	Flags: []cli.Flag{
		// For scripts: make bounds-doc takes the protocols to measure
		// from here, so that a new protocol is measured without editing
		// the Makefile.
		&cli.BoolFlag{Name: "correct", Usage: "print only the names of the correct protocols (not the buggy variants), one a line"},
	},
	Action:          listAction,
	HideHelpCommand: true, // a stray "help" argument is an error, not help (help.go)
}

func listAction(c *cli.Context) error {
	if err := checkArgs(c); err != nil {
		return err
	}
	out, e := c.App.Writer, envOf(c)
	if c.Bool("correct") {
		for _, m := range e.correctMachines() {
			fmt.Fprintln(out, m.Info().Name)
		}
		return nil
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTOPOLOGY\tWINNER\tALL LEARN\tCHANNELS\tBREAKS")
	for _, m := range e.allMachines() {
		in := m.Info()
		breaks := "-"
		if in.Breaks != "" {
			breaks = in.Breaks
		}
		var fams []string // the families it runs on (-topology)
		for _, k := range in.Topology.Families() {
			fams = append(fams, k.String())
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s\t%s\n", in.Name, strings.Join(fams, ", "), in.Winner, in.AllLearn, in.Channels, breaks)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	// Sources and bounds are long: one block per protocol reads better
	// than a table too wide for a terminal.
	fmt.Fprintln(out, "\nSources and declared message bounds:")
	for _, m := range e.allMachines() {
		if in := m.Info(); in.Bug == "" {
			bound := "none declared"
			if in.Bound.Max != nil {
				bound = in.Bound.Formula
			}
			source := in.Source
			if source == "" {
				// A caller's protocol (cli.Run) need not name one.
				source = "no source given"
			}
			fmt.Fprintf(out, "  %s: %s\n      %s; bound %s\n", in.Name, in.Title, source, bound)
		}
	}
	fmt.Fprintln(out, "\nBuggy variants (the mistake each makes):")
	for _, m := range e.allMachines() {
		if in := m.Info(); in.Bug != "" {
			fmt.Fprintf(out, "  %s: %s\n", in.Name, in.Bug)
		}
	}
	return nil
}
