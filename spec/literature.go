package spec

import (
	"errors"
	"math/big"
)

// Relation is how a measured figure should relate to a published formula.
type Relation string

// The relations.
const (
	Equal  Relation = "="
	AtMost Relation = "≤"
)

// Formula is a figure the literature gives for a protocol (Info.Literature):
// the measured Stat ("min", "mean" or "max") of Measure (a message kind's
// name, or one of elcheck bounds' measures: "messages", "bits", "dyadic
// bits", "time") should relate to Text's value as Rel says. Source names
// the source and the passage, starting with the source's anchor in
// docs/references.md, which the bounds tables and plots show as its tag:
// `slides-leader, "Best case": ...` is tagged [slides-leader].
type Formula struct {
	Measure string
	Stat    string
	Rel     Relation
	Text    string
	Source  string
	// Value is the formula's value at n as a + b·log₂ n, so that formulas
	// with a logarithm are compared exactly too; Poly makes one without.
	Value func(n int) (a, b *big.Rat)
	// Of, if set, is the formula's value on one network, for a formula in
	// more than n (a tree's diameter D, a graph's edges E): a maximum
	// (Stat "max", Rel AtMost) is then checked on every configuration
	// against its own network's value, and Value is the largest over the
	// family's networks on n, for the tables.
	Of func(t *Topology) int64
}

func (f Formula) validate() error {
	switch {
	case f.Measure == "" || f.Text == "" || f.Source == "" || f.Value == nil:
		return errors.New("a formula without its Measure, Text, Source or Value")
	case f.Stat != "min" && f.Stat != "mean" && f.Stat != "max":
		return errors.New("formula " + f.Text + ": Stat " + f.Stat + " is not min, mean or max")
	case f.Rel != Equal && f.Rel != AtMost:
		return errors.New("formula " + f.Text + ": Rel " + string(f.Rel) + " is not = or ≤")
	case f.Of != nil && (f.Stat != "max" || f.Rel != AtMost):
		return errors.New("formula " + f.Text + ": a formula per network (Of) bounds a maximum: Stat max, Rel ≤")
	}
	return nil
}

// Poly makes a Formula's Value without a logarithm from its value at n.
func Poly(f func(n int64) *big.Rat) func(n int) (a, b *big.Rat) {
	return func(n int) (a, b *big.Rat) { return f(int64(n)), new(big.Rat) }
}

// Harmonic returns H_n = 1 + 1/2 + ... + 1/n, which average cases have.
func Harmonic(n int64) *big.Rat {
	h := new(big.Rat)
	for k := int64(1); k <= n; k++ {
		h.Add(h, big.NewRat(1, k))
	}
	return h
}
