// Package protocols holds elcheck's leader-election algorithms, each written
// as a pure spec.Protocol that reads like the pseudo-code it follows (the
// source each follows is in docs/references.md), with its deliberately buggy
// variants beside it.
//
// Every protocol and variant is registered under its Info().Name; the CLI
// and the tests find them through All, Lookup and Names.
package protocols

import (
	"slices"
	"strings"

	"github.com/elcheck/elcheck/spec"
)

// machines builds the registry. It is rebuilt on each call so that callers
// can never change what another caller sees.
func machines() []spec.Machine {
	ms := []spec.Machine{
		spec.Erase(LeLann{variant: lelannCorrect}),
		spec.Erase(LeLann{variant: lelannFlip}),
		spec.Erase(LeLannList{}),
		spec.Erase(LeLannList{bag: true}),
		spec.Erase(CR{variant: crCorrect}),
		spec.Erase(CR{variant: crFlip}),
		spec.Erase(CR{variant: crNoSelected}),
		spec.Erase(CRMin{variant: crMinCorrect}),
		spec.Erase(CRMin{variant: crMinNoAbsorb}),
		spec.Erase(DKR{variant: dkrCorrect}),
		spec.Erase(DKR{variant: dkrNoSecond}),
		spec.Erase(Peterson{variant: petersonCorrect}),
		spec.Erase(Peterson{variant: petersonNoRelay}),
		spec.Erase(Peterson{variant: petersonNoCheck}),
	}
	slices.SortFunc(ms, func(a, b spec.Machine) int {
		return strings.Compare(a.Info().Name, b.Info().Name)
	})
	return ms
}

// All returns every registered protocol and variant, sorted by name.
func All() []spec.Machine { return machines() }

// Lookup returns the named protocol.
func Lookup(name string) (spec.Machine, bool) {
	for _, m := range machines() {
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
