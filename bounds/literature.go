package bounds

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/elcheck/elcheck/spec"
)

// Relation is how a measured figure should relate to a formula.
type Relation = spec.Relation

// The relations.
const (
	Equal  = spec.Equal
	AtMost = spec.AtMost
)

// Formula is a figure the literature gives for a protocol, a
// spec.Formula as bounds reports it (with its JSON names): Measure (a
// measure name: Messages, a message kind, Time...) and Stat ("min", "mean"
// or "max") should relate to Text's value as Rel says. Source names the
// source and the passage: it starts with the source's anchor in
// docs/references.md, which the tables and plots show as its tag:
// `slides-leader, "Best case": ...` is tagged [slides-leader].
type Formula struct {
	Measure string   `json:"measure"`
	Stat    string   `json:"stat"`
	Rel     Relation `json:"relation"`
	Text    string   `json:"formula"`
	Source  string   `json:"source"`
	// value is a(n) + b(n)·log₂ n, so that formulas with a logarithm are
	// compared exactly too.
	value func(n int) (a, b *big.Rat)
	// of is the value on one network (spec.Formula.Of), nil for a formula
	// in n alone.
	of func(t *spec.Topology) int64
}

// PerNetwork reports whether the formula is checked on each network
// (spec.Formula.Of) rather than on the row's figure.
func (f Formula) PerNetwork() bool { return f.of != nil }

// Value returns the formula's value at n as a + b·log₂ n.
func (f Formula) Value(n int) (a, b *big.Rat) { return f.value(n) }

// Float returns the formula's value at n, rounded.
func (f Formula) Float(n int) float64 {
	a, b := f.value(n)
	fa, _ := a.Float64()
	fb, _ := b.Float64()
	return fa + fb*math.Log2(float64(n))
}

// ValueString renders the value at n: exact when it is rational ("363/20"),
// else to two decimals ("≈ 20.58").
func (f Formula) ValueString(n int) string {
	a, b := f.value(n)
	if n > 0 && n&(n-1) == 0 { // log₂ n is an integer
		k := big.NewRat(int64(bits.Len(uint(n))-1), 1)
		return RatString(new(big.Rat).Add(a, k.Mul(k, b)))
	}
	if b.Sign() == 0 {
		return RatString(a)
	}
	return fmt.Sprintf("≈%.2f", f.Float(n))
}

// Compare returns the sign of x minus the formula's value at n, exactly.
func (f Formula) Compare(n int, x *big.Rat) int {
	a, b := f.value(n)
	d := new(big.Rat).Sub(x, a)
	if b.Sign() == 0 {
		return d.Sign()
	}
	// x - a - b·L has the sign of b times that of r - L, with r = (x-a)/b
	// and L = log₂ n; and for r = p/q (q > 0), r < L iff 2^p < n^q.
	r := d.Quo(d, b)
	p, q := r.Num(), r.Denom()
	var c int
	if p.Sign() < 0 {
		c = -1 // r < 0 <= log₂ n
	} else {
		lhs := new(big.Int).Lsh(big.NewInt(1), uint(p.Uint64()))
		rhs := new(big.Int).Exp(big.NewInt(int64(n)), q, nil)
		c = lhs.Cmp(rhs)
	}
	return c * b.Sign()
}

// LitCheck is a measured figure set against a formula. Measured is empty
// when there is no such figure (no mean without a placement where every
// process initiates, or a mean that depends on the schedule: then Holds
// is false).
type LitCheck struct {
	Formula
	Value    string `json:"value"`
	Measured string `json:"measured"`
	Holds    bool   `json:"holds"`
}

// Literature returns the published formulas a protocol declares
// (spec.Info.Literature), none for a buggy variant: the formulas are about
// the correct algorithm.
func Literature(info spec.Info) []Formula {
	if info.Bug != "" {
		return nil
	}
	fs := make([]Formula, len(info.Literature))
	for i, f := range info.Literature {
		fs[i] = Formula{Measure: f.Measure, Stat: f.Stat, Rel: f.Rel, Text: f.Text, Source: f.Source, value: f.Value, of: f.Of}
	}
	return fs
}

// checkLiterature sets row's figures against the formulas info declares.
func checkLiterature(info spec.Info, row *Row) []LitCheck {
	var out []LitCheck
	for i, f := range Literature(info) {
		lc := LitCheck{Formula: f, Value: f.ValueString(row.N)}
		if f.of != nil {
			if nc := row.nets[i]; row.Measured > 0 && row.Measured == row.Configs {
				lc.Measured, lc.Holds = nc.String(f), nc.exceeded == 0
			}
			out = append(out, lc)
			continue
		}
		s := row.Stat(f.Measure)
		var x *big.Rat
		// Only a complete row is set against the published formulas.
		if s != nil && row.Measured > 0 && row.Measured == row.Configs {
			x = s.Get(f.Stat)
			if f.Stat == "mean" && f.Rel == AtMost {
				x = s.MeanMax // the mean of the worst schedules
			}
		}
		if x != nil {
			lc.Measured = RatString(x)
			c := f.Compare(row.N, x)
			lc.Holds = c == 0 || (f.Rel == AtMost && c < 0)
		}
		out = append(out, lc)
	}
	return out
}

// RatString renders a rational exactly: "12", "363/20".
func RatString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	return r.String()
}

// netCheck is a per-network formula (spec.Formula.Of) checked on every
// configuration of a row: on how many its figure is within its network's
// value, on how many equal to it, and the first that exceeds it.
type netCheck struct {
	configs, tight, exceeded int
	most                     int64
	first                    string
}

// add checks one configuration's figure x against its network's value b.
func (nc *netCheck) add(x, b int64, cfg spec.Config) {
	nc.configs++
	nc.most = max(nc.most, x)
	switch {
	case x > b && nc.exceeded == 0:
		nc.first = fmt.Sprintf("%d > %d on %v %s", x, b, cfg.Topology.Kind, cfg.Topology.Label)
		fallthrough
	case x > b:
		nc.exceeded++
	case x == b:
		nc.tight++
	}
}

// String renders the check for the tables: "7, ≤ on all 540 (= on 0)", or
// "12, > on 3 of 540 (first: 12 > 10 on tree 0-1,1-2,2-3)".
func (nc netCheck) String(f Formula) string {
	if nc.exceeded > 0 {
		return fmt.Sprintf("%d, > on %d of %d (first: %s)", nc.most, nc.exceeded, nc.configs, nc.first)
	}
	return fmt.Sprintf("%d, ≤ on all %d (= on %d)", nc.most, nc.configs, nc.tight)
}
