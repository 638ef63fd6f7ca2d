package bounds

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Relation is how a measured figure should relate to a formula.
type Relation string

// The relations.
const (
	Equal  Relation = "="
	AtMost Relation = "≤"
)

// Formula is a figure the literature gives for a protocol: Measure (a
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
}

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

// Literature is the table of the published formulas, by protocol name.
// Only what the sources state: the lecture notes "Election algorithms"
// (notes-election) give orders of magnitude for LeLann and Chang-Roberts
// (min form) and 2N log N + N for DKR; the lecture slides "Leader Election
// Algorithms" (slides-leader) give Chang-Roberts's best, worst and average
// cases and have every one of LeLann's n messages passed to every node.
var Literature = map[string][]Formula{
	"cr": {
		{Measure: "probe", Stat: "min", Rel: Equal, Text: "2n-1", Source: `slides-leader, "Best case": ids increasing along the ring, (n-1) + n message passes`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(2*n-1, 1) })},
		{Measure: "probe", Stat: "mean", Rel: Equal, Text: "n·H_n", Source: `slides-leader, "Average case (consider all n! rings)": n(1 + 1/2 + ... + 1/n) message passes`,
			value: poly(func(n int64) *big.Rat { return new(big.Rat).Mul(big.NewRat(n, 1), harmonic(n)) })},
		{Measure: "probe", Stat: "max", Rel: Equal, Text: "n(n+1)/2", Source: `slides-leader, "Worst case": ids decreasing along the ring, message i passed i times`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(n*(n+1), 2) })},
	},
	"lelann": {
		{Measure: "tok", Stat: "mean", Rel: Equal, Text: "N^2", Source: `notes-election, "LeLann's algorithm": each initiator's token goes round the ring; all N initiate`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
		{Measure: "tok", Stat: "max", Rel: AtMost, Text: "N^2", Source: `notes-election, "LeLann's algorithm": at most N tokens of N hops, O(N^2)`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
	},
	"lelann-list": {
		{Measure: "elect", Stat: "min", Rel: Equal, Text: "n^2", Source: `slides-leader, "Simple algorithm": each of the n nodes sends a message which is passed to all other nodes (and back to it)`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
		{Measure: "elect", Stat: "max", Rel: Equal, Text: "n^2", Source: `slides-leader, as above`,
			value: poly(func(n int64) *big.Rat { return big.NewRat(n*n, 1) })},
	},
	"dkr": {
		{Measure: Messages, Stat: "max", Rel: AtMost, Text: "2N log N + N", Source: `notes-election, "DKR message complexity estimate": at most log N rounds of 2N messages, then N informing of the result`,
			value: func(n int) (a, b *big.Rat) { return big.NewRat(int64(n), 1), big.NewRat(2*int64(n), 1) }},
	},
}

// poly makes a formula without a logarithm.
func poly(f func(n int64) *big.Rat) func(int) (a, b *big.Rat) {
	return func(n int) (a, b *big.Rat) { return f(int64(n)), new(big.Rat) }
}

// harmonic returns H_n = 1 + 1/2 + ... + 1/n.
func harmonic(n int64) *big.Rat {
	h := new(big.Rat)
	for k := int64(1); k <= n; k++ {
		h.Add(h, big.NewRat(1, k))
	}
	return h
}

// checkLiterature sets row's figures against the formulas for algo.
func checkLiterature(algo string, row *Row) []LitCheck {
	var out []LitCheck
	for _, f := range Literature[algo] {
		lc := LitCheck{Formula: f, Value: f.ValueString(row.N)}
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
