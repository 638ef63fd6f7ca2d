package cli

import (
	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/spec"
	"github.com/urfave/cli/v2"
)

// againstFlag is verify's and replay's: the reference protocol a
// counterexample is replayed on, to find the first step where it parts
// ways (counterexamples.Against).
var againstFlag = &cli.StringFlag{Name: "against", Usage: "replay the counterexample on the reference protocol `NAME` as well (same configuration, same events) and mark the first step where the two differ"}

// parseAgainst looks up -against's protocol for a trace of m: nil when
// name is "", a usage error when no protocol has that name or when it
// runs on another topology than m, so that it fails before any search.
func parseAgainst(e *env, name string, m spec.Machine) (spec.Machine, error) {
	if name == "" {
		return nil, nil
	}
	ref, ok := e.lookup(name)
	if !ok {
		return nil, e.unknownMachine("-against="+name+": ", name)
	}
	if ri, mi := ref.Info(), m.Info(); ri.Topology != mi.Topology {
		return nil, usagef("-against=%s: %s runs on a %s, but %s on a %s", name, name, ri.Topology, mi.Name, mi.Topology)
	}
	return ref, nil
}

// markAgainst replays t on ref, if both are set, and marks in t the first
// step where they differ; the renderings then show it.
func markAgainst(t *counterexamples.Trace, ref spec.Machine) error {
	if t == nil || ref == nil {
		return nil
	}
	d, err := counterexamples.Against(t, ref)
	if err != nil {
		return usagef("-against=%s: %s", ref.Info().Name, oneLine(err))
	}
	t.Differs = &d
	return nil
}
