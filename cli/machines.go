package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// checkMachines makes sure that the protocols given to Run, ms, each
// describe themselves usably and take no name already taken.
func checkMachines(ms []spec.Machine) error {
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
	return nil
}

// known finds a protocol by name among the built-ins and the caller's.
func (e *env) known(name string) (spec.Machine, bool) {
	for _, m := range e.extra {
		if m.Info().Name == name {
			return m, true
		}
	}
	return protocols.Lookup(name)
}

// allMachines returns the built-ins and the caller's protocols, sorted by
// name, as protocols.All does for the built-ins.
func (e *env) allMachines() []spec.Machine {
	ms := append(protocols.All(), e.extra...)
	slices.SortFunc(ms, func(a, b spec.Machine) int { return strings.Compare(a.Info().Name, b.Info().Name) })
	return ms
}

// correctMachines returns allMachines without the buggy variants.
func (e *env) correctMachines() []spec.Machine {
	return slices.DeleteFunc(e.allMachines(), func(m spec.Machine) bool { return m.Info().Bug != "" })
}

// machineNames returns the sorted names of allMachines.
func (e *env) machineNames() []string {
	var names []string
	for _, m := range e.allMachines() {
		names = append(names, m.Info().Name)
	}
	return names
}

// unknownMachine is the usage error for a protocol name no machine has,
// prefix naming where it was given: the names, and the one meant where
// the name differs from it only in case ("DKR").
func (e *env) unknownMachine(prefix, name string) error {
	names := e.machineNames()
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return usagef("%sunknown algorithm %q: names are in lower case; did you mean %s?", prefix, name, n)
		}
	}
	return usagef("%sunknown algorithm %q: use one of %s", prefix, name, strings.Join(names, ", "))
}
