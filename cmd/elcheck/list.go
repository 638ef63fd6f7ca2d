package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/elcheck/elcheck/protocols"
	"github.com/urfave/cli/v2"
)

var listCommand = &cli.Command{
	Name:   "list",
	Usage:  "list the protocols and their variants",
	Action: listAction,
}

func listAction(c *cli.Context) error {
	w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tTOPOLOGY\tWINNER\tALL LEARN\tCHANNELS\tBOUND\tSOURCE\tBREAKS")
	for _, m := range protocols.All() {
		in := m.Info()
		bound, breaks := "-", "-"
		if in.Bound.Max != nil {
			bound = in.Bound.Formula
		}
		if in.Breaks != "" {
			breaks = in.Breaks
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%v\t%s\t%s\t%s\t%s\n", in.Name, in.Topology, in.Winner, in.AllLearn, in.Channels, bound, in.Source, breaks)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(c.App.Writer, "\nBuggy variants (the mistake each makes):")
	for _, m := range protocols.All() {
		if in := m.Info(); in.Bug != "" {
			fmt.Fprintf(c.App.Writer, "  %s: %s\n", in.Name, in.Bug)
		}
	}
	return nil
}
