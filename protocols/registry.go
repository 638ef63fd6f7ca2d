// Package protocols holds elcheck's leader-election algorithms, each written
// as a pure spec.Protocol that reads like the pseudo-code it follows (the
// source each follows is in docs/references.md), with its deliberately buggy
// variants beside it.
//
// Every protocol and variant is registered under its Info().Name by the
// file that defines it, with a package-level
//
//	var _ = register[CRState](CR{variant: crCorrect}, CR{variant: crFlip}, CR{variant: crNoSelected})
//
// so that adding a protocol is adding a file; the CLI, the Makefile (through
// `elcheck list -correct`) and the tests find them through All, Lookup and
// Names.
package protocols

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/spec"
)

// registry is every registered machine, in the order the package's
// variable initialisers ran (file order). It is written only by register,
// during package initialisation, before anything can read it, and never
// after: so it is not hidden state of any step, and no step reads it.
var registry []spec.Machine

// register adds protocols (a protocol and its variants) to the registry. It returns a value only so that
// a file can call it from a package-level declaration. It panics (and the
// package then fails to initialise, in every test and command) on a
// protocol without an encoding (spec.Erase), on an Info that does not
// validate, and on a name registered twice.
//
// S is written out at the call, register[CRState](...): Go cannot infer it
// from a protocol whose methods it has not type-checked yet, which depends
// on the order of declarations.
func register[S spec.Local](ps ...spec.Protocol[S]) struct{} {
	for _, p := range ps {
		m := spec.Erase(p)
		info := m.Info()
		if err := info.Validate(); err != nil {
			panic("protocols: " + err.Error())
		}
		if slices.ContainsFunc(registry, func(o spec.Machine) bool { return o.Info().Name == info.Name }) {
			panic(fmt.Sprintf("protocols: %q is registered twice", info.Name))
		}
		registry = append(registry, m)
	}
	return struct{}{}
}

// machines returns the registry sorted by name, in a fresh slice so that
// callers can never change what another caller sees (the machines
// themselves are immutable values).
func machines() []spec.Machine {
	ms := slices.Clone(registry)
	slices.SortFunc(ms, func(a, b spec.Machine) int {
		return strings.Compare(a.Info().Name, b.Info().Name)
	})
	return ms
}

// All returns every registered protocol and variant, sorted by name.
func All() []spec.Machine { return machines() }

// Correct returns the registered protocols that are not buggy variants
// (Info.Bug empty), sorted by name.
func Correct() []spec.Machine {
	return slices.DeleteFunc(machines(), func(m spec.Machine) bool { return m.Info().Bug != "" })
}

// Lookup returns the named protocol.
func Lookup(name string) (spec.Machine, bool) {
	for _, m := range registry {
		if m.Info().Name == name {
			return m, true
		}
	}
	return nil, false
}

// Names returns the sorted names.
func Names() []string {
	ms := machines()
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Info().Name
	}
	return names
}
