// Command crvariant is elcheck's command line knowing the crvariant
// protocols too: crvariant verify -algo=crv -n=5, crvariant list...
package main

import (
	"os"

	"example.com/crvariant"
	"github.com/elcheck/elcheck/cli"
)

func main() { os.Exit(cli.Run(os.Args, crvariant.Variants()...)) }
