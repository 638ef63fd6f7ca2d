package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// extraMachines are the protocols Run was given beside the built-ins. Run
// sets them once, before it parses the command line, and nothing writes
// them after; the registry's house rules (a source in docs/references.md,
// the Breaks list, no KnowsN) are for the built-ins and are not asked of
// these.
var extraMachines []spec.Machine

// addMachines makes ms known to the commands, after checking that each
// describes itself usably and takes no name already taken.
func addMachines(ms []spec.Machine) error {
	for i, m := range ms {
		if m == nil {
			return fmt.Errorf("protocol %d given to cli.Run is nil", i)
		}
		info := m.Info()
		if err := info.Validate(); err != nil {
			return fmt.Errorf("a protocol given to cli.Run: %v", err)
		}
		if _, ok := protocols.Lookup(info.Name); ok {
			return fmt.Errorf("a protocol given to cli.Run is named %q, as a built-in one is: rename it", info.Name)
		}
		if slices.ContainsFunc(ms[:i], func(o spec.Machine) bool { return o.Info().Name == info.Name }) {
			return fmt.Errorf("two protocols given to cli.Run are named %q", info.Name)
		}
	}
	extraMachines = slices.Clone(ms)
	return nil
}

// lookupKnown finds a protocol by name among the built-ins and the
// caller's.
func lookupKnown(name string) (spec.Machine, bool) {
	for _, m := range extraMachines {
		if m.Info().Name == name {
			return m, true
		}
	}
	return protocols.Lookup(name)
}

// allMachines returns the built-ins and the caller's protocols, sorted by
// name, as protocols.All does for the built-ins.
func allMachines() []spec.Machine {
	ms := append(protocols.All(), extraMachines...)
	slices.SortFunc(ms, func(a, b spec.Machine) int { return strings.Compare(a.Info().Name, b.Info().Name) })
	return ms
}

// correctMachines returns allMachines without the buggy variants.
func correctMachines() []spec.Machine {
	return slices.DeleteFunc(allMachines(), func(m spec.Machine) bool { return m.Info().Bug != "" })
}

// machineNames returns the sorted names of allMachines.
func machineNames() []string {
	var names []string
	for _, m := range allMachines() {
		names = append(names, m.Info().Name)
	}
	return names
}

// unknownMachine is the usage error for a protocol name no machine has,
// prefix naming where it was given: the names, and the one meant where
// the name differs from it only in case ("DKR").
func unknownMachine(prefix, name string) error {
	names := machineNames()
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return usagef("%sunknown algorithm %q: names are in lower case; did you mean %s?", prefix, name, n)
		}
	}
	return usagef("%sunknown algorithm %q: use one of %s", prefix, name, strings.Join(names, ", "))
}
