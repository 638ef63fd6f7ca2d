package cli

import (
	"os"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// env is what one run of the command line works with beside its arguments
// and writers: the protocols it knows and the effects that tests replace
// (a rebuild or a write that fails, a small memory, a server to stop).
// Each run has its own, so that runs share nothing and Run is re-entrant.
type env struct {
	// extra are the protocols Run was given beside the built-ins; the
	// registry's house rules (a source in docs/references.md, the Breaks
	// list, no KnowsN) are for the built-ins and are not asked of these.
	extra []spec.Machine
	// lookup finds a protocol by name: known, unless a test adds
	// protocols of its own (or a panic).
	lookup func(name string) (spec.Machine, bool)
	// rebuild re-executes a violation's trace: counterexamples.Rebuild.
	rebuild func(spec.Machine, *explore.Violation) (*counterexamples.Trace, error)
	// writeFile writes an output file (os.WriteFile), writeTrace a trace
	// for elcheck replay (Trace.WriteFile).
	writeFile  func(name string, data []byte, perm os.FileMode) error
	writeTrace func(t *counterexamples.Trace, name string) error
	// available returns the bytes the process may use, or 0 if it cannot
	// tell, for no memory guard (availableMemory).
	available func() uint64
	// listening, if set, is told the address serve's page is on and the
	// function that stops it.
	listening func(addr string, stop func())
}

// newEnv returns a run's env knowing the protocols extra beside the
// built-ins, its effects the real ones.
func newEnv(extra []spec.Machine) *env {
	e := &env{extra: extra, rebuild: counterexamples.Rebuild, writeFile: os.WriteFile,
		writeTrace: (*counterexamples.Trace).WriteFile, available: availableMemory}
	e.lookup = e.known
	return e
}

// envKey is the env's key in the application's Metadata.
const envKey = "elcheck.env"

// envOf returns the env of the run c belongs to.
func envOf(c *cli.Context) *env { return c.App.Metadata[envKey].(*env) }
