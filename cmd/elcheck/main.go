// Command elcheck is a model checker for leader-election algorithms: it
// explores every interleaving of every configuration of a protocol and
// either proves its properties or prints the shortest execution that breaks
// one. It is package cli with the built-in protocols only; see cli.Run for
// a main of one's own that adds protocols.
package main

import (
	"os"

	"github.com/elcheck/elcheck/cli"
)

func main() { os.Exit(cli.Run(os.Args)) }
