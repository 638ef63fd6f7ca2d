// Package bounds measures what a protocol's executions cost: messages (in
// total and by kind), the bits of the identities they carry, and causal
// time, each as the least, the mean over id placements and the greatest
// over every execution of every configuration, and sets the figures against
// the bound the protocol declares and the formulas the literature gives
// (docs/references.md).
//
// The figures come from the exploration itself (explore.Options.Costs and
// Time: costs summed along the paths of each configuration's reachable
// graph, causal clocks carried in the states), never from sampled runs.
// docs/bounds.md defines every figure.
package bounds

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// The names of the measures that are not message kinds.
const (
	Messages = "messages"    // messages sent
	Bits     = "bits"        // bits of the ids carried, in binary
	Dyadic   = "dyadic bits" // bits of the ids carried, in Vitányi 1983's dyadic encoding
	Time     = "time"        // the longest causal chain of messages
)

// BinaryLen is the length of id in binary without leading zeros: 1 for 1,
// 2 for 2 and 3, 3 for 4 to 7.
func BinaryLen(id spec.ID) int64 {
	if id <= 0 {
		return 0
	}
	return int64(bits.Len(uint(id)))
}

// DyadicLen is the length of id in dyadic notation, the encoding of message
// signatures of Vitányi 1983 (docs/references.md#vitanyi83): digits 1 and 2
// with the binary weights 1, 2, 4... ("1, 2, 3, 4, 5, 6, ... are encoded as
// 1, 2, 11, 21, 12, 22, ...", least significant digit first). i has ⌊log₂(i+1)⌋ digits, each one of two
// values: one bit. 1 and 2 cost 1 bit, 3 to 6 cost 2, 7 to 14 cost 3.
func DyadicLen(id spec.ID) int64 {
	if id <= 0 {
		return 0
	}
	return int64(bits.Len(uint(id)+1) - 1)
}

// DyadicString writes id in dyadic notation as Vitányi 1983 does, least
// significant digit first: DyadicString(4) = "21".
func DyadicString(id spec.ID) string {
	var s []byte
	for i := int64(id); i > 0; {
		d := i % 2
		if d == 0 {
			d = 2
		}
		s = append(s, byte('0'+d))
		i = (i - d) / 2
	}
	return string(s)
}

// Costs returns the costs explore sums along executions for m: messages
// first (the worst execution explore reports is by it), then one per
// message kind, then the bits of the ids carried in binary and in dyadic.
// A message's kind tag and its non-id arguments (phases, hop counts) are
// not counted as bits: only its identity, if it carries one.
func Costs(info spec.Info) []explore.Cost {
	cs := []explore.Cost{{Name: Messages, Of: func(spec.Message) int64 { return 1 }}}
	for k, name := range info.Messages {
		kind := spec.Kind(k)
		cs = append(cs, explore.Cost{Name: name, Of: func(m spec.Message) int64 {
			if m.Kind == kind {
				return 1
			}
			return 0
		}})
	}
	cs = append(cs,
		explore.Cost{Name: Bits, Of: func(m spec.Message) int64 { return BinaryLen(m.ID) }},
		explore.Cost{Name: Dyadic, Of: func(m spec.Message) int64 { return DyadicLen(m.ID) }})
	return cs
}

// Stat is one measure over a set of configurations: the least and the
// greatest over every complete execution of every configuration, and the
// mean over id placements (see Row.Placements) of each placement's least
// (MeanMin) and greatest (MeanMax). The two means are equal when no
// placement's figure depends on the schedule; they are nil when no
// placement with every process initiating was measured.
type Stat struct {
	Name             string
	Kind             bool // a message kind
	Min, Max         int64
	MeanMin, MeanMax *big.Rat
	sumMin, sumMax   int64
}

// Mean returns the mean when it does not depend on the schedule (MeanMin =
// MeanMax), and nil otherwise or when there is none.
func (s *Stat) Mean() *big.Rat {
	if s.MeanMin == nil || s.MeanMin.Cmp(s.MeanMax) != 0 {
		return nil
	}
	return s.MeanMax
}

// Get returns the figure named by stat: "min", "max" or "mean".
func (s *Stat) Get(stat string) *big.Rat {
	switch stat {
	case "min":
		return new(big.Rat).SetInt64(s.Min)
	case "max":
		return new(big.Rat).SetInt64(s.Max)
	}
	return s.Mean()
}

// BoundCheck sets the most messages of any execution against the bound the
// protocol declares (spec.Info.Bound).
type BoundCheck struct {
	Formula string `json:"formula"`
	Bound   int64  `json:"bound"`
	Max     int64  `json:"max"` // the most messages measured; -1 if none was
	Status  Status `json:"status"`
}

// Status is a verdict on a bound.
type Status string

// The verdicts.
const (
	Within   Status = "within"
	Exceeded Status = "EXCEEDED"
	Unknown  Status = "unknown" // the run was cut short before the bound was established
)

// Row is what one ring size costs.
type Row struct {
	N int
	// Configs is the number of configurations in the space, Measured the
	// number whose executions were measured: every one, unless the run
	// was cut short or some configuration violates a property (Violated).
	Configs, Measured int
	// Placements is the number of measured configurations in which every
	// process initiates: the id placements the means are over.
	Placements int
	// Stats are messages, each message kind, bits, dyadic bits and time,
	// in that order.
	Stats []Stat
	// Bound is nil when the protocol declares none.
	Bound *BoundCheck
	// Literature sets the figures against the published formulas.
	Literature []LitCheck
	// Worst is an execution with the most messages: the first
	// configuration in enumeration order among those with the most.
	Worst *explore.Violation
	// Incomplete says why the run stopped before measuring every
	// configuration; empty if it did not.
	Incomplete string
	// Violated lists the properties other than the message bound that
	// some configuration violates; its figures are left out, and
	// Violation is the counterexample explore reports.
	Violated  []string
	Violation *explore.Violation
	// States is the number of distinct states explored.
	States int64
	// nets are the per-network formulas' checks, by the formula's index
	// in Literature(info) (zero for the others).
	nets []netCheck
}

// Stat returns the named measure, or nil.
func (r *Row) Stat(name string) *Stat {
	for i := range r.Stats {
		if r.Stats[i].Name == name {
			return &r.Stats[i]
		}
	}
	return nil
}

// DefaultCheck returns the explore options bounds uses: partial-order
// reduction (which changes no cost and no causal time) and the spaced
// purity check.
func DefaultCheck() explore.Options {
	return explore.Options{POR: true, PurityEvery: 2}
}

// Measure explores every configuration of space with m and returns the
// row of figures for space.N(). It sets opts.Costs, Time, EveryConfig and OnConfig, and
// turns off the comparison-only and uniformity checks, which re-explore or
// sample states and change no figure. The declared bound is checked here
// (opts.IgnoreBound), not by explore, so a configuration that exceeds it is
// measured like any other rather than reported as a violation; it is
// decided by the function explore uses, invariants.CheckBound.
func Measure(ctx context.Context, m spec.Machine, space configs.Space, opts explore.Options) *Row {
	info := m.Info()
	costs := Costs(info)
	n := space.N()
	row := &Row{N: n, Configs: space.Count()}
	for k, c := range costs {
		row.Stats = append(row.Stats, Stat{Name: c.Name, Kind: k >= 1 && k <= len(info.Messages)})
	}
	row.Stats = append(row.Stats, Stat{Name: Time})
	all := spec.All(n)
	first := true
	var worst int64
	opts.Costs, opts.Time = costs, true
	opts.ComparisonOnly, opts.UniformityEvery = false, 0
	opts.IgnoreBound = true
	// Every configuration without a violation is measured, also those
	// after one: a check that only looks for a shorter counterexample
	// would search them to a depth.
	opts.EveryConfig = true
	lits := Literature(info)
	row.nets = make([]netCheck, len(lits))
	// With a bound per network, each configuration is set against its own
	// network's; over is the first that exceeds it.
	var over *invariants.Violation
	opts.OnConfig = func(c explore.ConfigCosts) {
		row.Measured++
		if info.Bound.Of != nil && over == nil {
			over = invariants.CheckBound(info, &c.Config.Topology, int(c.Max[0]))
		}
		for i, f := range lits {
			if f.of == nil {
				continue
			}
			x := c.MaxTime
			if k := slices.IndexFunc(costs, func(c explore.Cost) bool { return c.Name == f.Measure }); k >= 0 {
				x = c.Max[k]
			}
			row.nets[i].add(x, f.of(&c.Config.Topology), c.Config)
		}
		placement := c.Config.Initiators == all
		if placement {
			row.Placements++
		}
		for k := range row.Stats {
			s := &row.Stats[k]
			lo, hi := c.MinTime, c.MaxTime
			if k < len(costs) {
				lo, hi = c.Min[k], c.Max[k]
			}
			if first {
				s.Min, s.Max = lo, hi
			} else {
				s.Min, s.Max = min(s.Min, lo), max(s.Max, hi)
			}
			if placement {
				s.sumMin += lo
				s.sumMax += hi
			}
		}
		if first || c.Max[0] > worst {
			worst = c.Max[0]
			row.Worst = &explore.Violation{Property: invariants.MessageBound, Config: c.Config, ConfigIndex: c.Index,
				Trace: c.Worst, LoopAt: -1}
		}
		first = false
	}
	res := explore.Check(ctx, m, space, opts)
	row.States = res.States
	row.Incomplete = res.Incomplete
	if res.Violation != nil {
		row.Violated, row.Violation = res.Violated, res.Violation
	}
	// A mean is over every placement or none: a run cut short, or one
	// that left out violating configurations, has none.
	for k := range row.Stats {
		s := &row.Stats[k]
		if row.Placements > 0 && row.Measured == row.Configs {
			s.MeanMin = big.NewRat(s.sumMin, int64(row.Placements))
			s.MeanMax = big.NewRat(s.sumMax, int64(row.Placements))
		}
	}
	if row.Measured == 0 || row.Worst.Trace == nil {
		// A run cut short may end on a configuration whose execution was
		// not built (explore.ConfigCosts.Worst): none is reported.
		row.Worst = nil
	}
	var exceeded *invariants.Violation
	if row.Measured > 0 && info.Bound.Of != nil {
		exceeded = over
	} else if row.Measured > 0 {
		top := spec.Topology{N: n}
		exceeded = invariants.CheckBound(info, &top, int(row.Stats[0].Max))
	}
	if b := info.Bound; b.Max != nil {
		bc := &BoundCheck{Formula: b.Formula, Bound: int64(b.Max(n)), Max: -1, Status: Unknown}
		if row.Measured > 0 {
			bc.Max = row.Stats[0].Max
		}
		switch {
		case exceeded != nil:
			bc.Status = Exceeded
		case row.Incomplete == "" && row.Measured > 0 && len(row.Violated) == 0:
			bc.Status = Within
		}
		row.Bound = bc
	}
	if row.Worst != nil {
		most := row.Stats[0].Max
		switch b := row.Bound; {
		case exceeded != nil:
			row.Worst.Detail = exceeded.Detail
		case b != nil && b.Status == Within:
			row.Worst.Detail = fmt.Sprintf("an execution sends %d messages, within the declared bound %s = %d", most, b.Formula, b.Bound)
		default:
			row.Worst.Detail = fmt.Sprintf("an execution sends %d messages, the most of any execution on a ring of %d", most, n)
		}
	}
	// The published figures are over every placement: one fixed by -ids
	// is not set against them.
	if space.IDs == nil {
		row.Literature = checkLiterature(info, row)
	}
	return row
}

// Table is a protocol's figures over a range of ring sizes, one Row per n.
type Table struct {
	Info spec.Info
	// Space describes the configurations of every row, e.g. "every id
	// placement up to rotation, every non-empty initiator set".
	Space string
	// Placements says what the means are over, e.g. "the id placements up
	// to rotation with every process initiating".
	Placements string
	Channels   spec.Channels
	Rows       []*Row
	// Incomplete says why the run stopped early; empty if it did not.
	Incomplete string
}

// Run measures m on each space in turn (one per ring size, in increasing
// n) and stops at the first that is cut short. opts.MaxStates, if set,
// bounds the states of the whole run.
func Run(ctx context.Context, m spec.Machine, spaces []configs.Space, opts explore.Options) *Table {
	t := &Table{Info: m.Info()}
	if len(spaces) > 0 {
		if len(spaces[0].Topologies) > 0 {
			// The family measured: the protocol's own, or another it runs
			// on (elcheck bounds -topology).
			t.Info.Topology = spaces[0].Topologies[0].Kind
		}
		t.Channels = spaces[0].Channels
		t.Space, t.Placements = describe(spaces[0])
	}
	budget := opts.MaxStates
	for _, sp := range spaces {
		if err := ctx.Err(); err != nil {
			t.Incomplete = fmt.Sprintf("interrupted before n=%d", sp.N())
			if errors.Is(err, context.DeadlineExceeded) {
				t.Incomplete = fmt.Sprintf("time limit reached before n=%d", sp.N())
			}
			break
		}
		row := Measure(ctx, m, sp, opts)
		t.Rows = append(t.Rows, row)
		if row.Incomplete != "" {
			t.Incomplete = fmt.Sprintf("n=%d: %s", row.N, row.Incomplete)
			break
		}
		if budget > 0 {
			if opts.MaxStates = budget - t.States(); opts.MaxStates <= 0 {
				t.Incomplete = fmt.Sprintf("state limit of %d reached after n=%d", budget, row.N)
				break
			}
		}
	}
	return t
}

// States is the number of states explored for every row.
func (t *Table) States() int64 {
	var s int64
	for _, r := range t.Rows {
		s += r.States
	}
	return s
}

// describe says what configurations sp holds and what its means are over.
func describe(sp configs.Space) (space, placements string) {
	switch {
	case sp.IDs != nil:
		space = fmt.Sprintf("ids %v", sp.IDs)
		placements = "the one placement given, with every process initiating"
	case sp.AllPlacements:
		space = "every id placement"
		placements = "the n! id placements with every process initiating"
	case len(sp.Topologies) > 0 && sp.Topologies[0].Kind.Linked():
		space = "every network of the family and every id placement up to its symmetries"
		placements = "every network and its id placements up to its symmetries, with every process initiating"
	default:
		space = "every id placement up to rotation"
		placements = "the (n-1)! id placements up to rotation with every process initiating (rotating a placement changes no figure, so this is the mean over all n! placements)"
	}
	if sp.Initiators != 0 {
		if sp.Initiators == spec.All(sp.N()) {
			space += ", every process initiating"
		} else {
			space += fmt.Sprintf(", initiators %v", sp.Initiators.Members())
			placements = "no placement: not every process initiates"
		}
	} else {
		space += ", every non-empty initiator set"
	}
	return space, placements
}

// Exceeded returns the rows whose measured maximum exceeds the declared
// bound.
func (t *Table) Exceeded() []*Row {
	var out []*Row
	for _, r := range t.Rows {
		if r.Bound != nil && r.Bound.Status == Exceeded {
			out = append(out, r)
		}
	}
	return out
}

// Violated returns the first row in which a property other than the
// message bound fails, or nil.
func (t *Table) Violated() *Row {
	for _, r := range t.Rows {
		if len(r.Violated) > 0 {
			return r
		}
	}
	return nil
}

// Verdict is the verdict of a bounds report: an outcome as verify's, with
// the bounds report's words for it.
type Verdict struct {
	// Outcome is Verified (within the declared bound, or no bound
	// declared), Violated (Property is invariants.MessageBound when the
	// bound is exceeded, and Reason then says where), or Incomplete.
	invariants.Verdict
	// Declared says the protocol declares a bound.
	Declared bool
}

// String is the last line of the report: "EXCEEDED: ...", "VIOLATED: p",
// "INCOMPLETE: why", "WITHIN BOUND" or "NO BOUND DECLARED".
func (v Verdict) String() string {
	switch {
	case v.Outcome == invariants.Violated && v.Property == invariants.MessageBound:
		return "EXCEEDED: " + v.Reason
	case v.Outcome == invariants.Verified && v.Declared:
		return "WITHIN BOUND"
	case v.Outcome == invariants.Verified:
		return "NO BOUND DECLARED"
	}
	return v.Verdict.String()
}

// Verdict returns the table's verdict. An exceeded bound comes first: it
// is the finding the command is for, and it stands even if a larger ring
// then broke another property or was cut short.
func (t *Table) Verdict() Verdict {
	v := Verdict{Declared: t.Info.Bound.Max != nil}
	if ex := t.Exceeded(); len(ex) > 0 {
		ns := ""
		for k, r := range ex {
			if k > 0 {
				ns += ", "
			}
			ns += fmt.Sprint(r.N)
		}
		v.Verdict = invariants.Verdict{Outcome: invariants.Violated, Property: invariants.MessageBound,
			Reason: fmt.Sprintf("the declared bound %s at n=%s", t.Info.Bound.Formula, ns)}
		return v
	}
	if r := t.Violated(); r != nil {
		v.Verdict = invariants.Verdict{Outcome: invariants.Violated, Property: r.Violation.Property}
		return v
	}
	if t.Incomplete != "" {
		v.Verdict = invariants.Verdict{Outcome: invariants.Incomplete, Reason: t.Incomplete}
	}
	return v
}

// Worst returns the execution -worst-out writes: if the bound is exceeded,
// an execution that exceeds it on the smallest ring where it does (the
// smallest counterexample); otherwise one with the most messages of all
// rows (the smallest n, then the first configuration in enumeration order,
// among equals). Nil if nothing was measured.
func (t *Table) Worst() *Row {
	if ex := t.Exceeded(); len(ex) > 0 {
		return ex[0]
	}
	var best *Row
	for _, r := range t.Rows {
		if r.Worst != nil && (best == nil || r.Stats[0].Max > best.Stats[0].Max) {
			best = r
		}
	}
	return best
}
