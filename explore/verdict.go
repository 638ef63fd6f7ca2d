package explore

import (
	"slices"
	"time"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Violation is a property that failed, with the configuration and the
// actions that lead from its initial state to the failure.
type Violation struct {
	Property string
	Detail   string
	Config   spec.Config
	// ConfigIndex is the configuration's index in the enumeration of the
	// whole space (see Space.Indexed).
	ConfigIndex int
	Trace       []Action
	// LoopAt is, for a termination violation, the number of steps after
	// which the trace's last state was first reached: steps LoopAt+1 to the
	// end form a cycle. -1 otherwise.
	LoopAt int
}

// Status is the verdict on one property.
type Status string

// The verdicts on a property.
const (
	Holds      Status = "holds"
	Violated   Status = "violated"
	Unknown    Status = "unknown"     // the search stopped before it was established
	NotChecked Status = "not checked" // the run was not set up to check it
)

// PropertyResult is one property's verdict with a short note.
type PropertyResult struct {
	Name   string
	Status Status
	Note   string
}

// Result is the outcome of a check over a space of configurations.
type Result struct {
	Algo        string
	N           int
	Channels    spec.Channels
	Configs     int // in the space
	ConfigsDone int // explored completely
	States      int64
	Transitions int64
	Terminals   int64
	MaxDepth    int
	// FinalDigest is an order-independent digest of the set of terminal
	// states of every configuration: equal digests mean, up to a 2^-64
	// chance, equal sets. Reduced and unreduced searches must agree on it.
	FinalDigest uint64
	// MinMessages and MaxMessages are over complete executions of every
	// configuration explored completely; -1 if there was none.
	MinMessages, MaxMessages int
	Elapsed                  time.Duration
	Exact                    bool
	// Collision is the estimated probability that two distinct states of
	// one configuration shared a fingerprint, so that one went unexplored.
	Collision  float64
	Properties []PropertyResult
	// UniformChecked is the number of states on which the engine's
	// symmetry self-check ran (invariants.UniformityNote).
	UniformChecked int64
	// Cached counts the configurations searched with state caching
	// (Options.Memory): their states are visits, and may include repeats.
	Cached int
	// Disk counts the configurations searched with their visited sets and
	// frontiers on disk (Options.Memory): counts and traces as in memory.
	Disk int
	// Violation is the counterexample reported: the shortest (BFS), the
	// first in enumeration order among equals.
	Violation *Violation
	// Violated lists every property some configuration violated, sorted.
	Violated []string
	// Incomplete says why the search stopped early; empty if it did not.
	Incomplete string
	// Internal, if not empty, is a fault of elcheck itself that stopped the
	// check (with a stack), to be reported as such, never as a verdict.
	Internal string
	// CutShort: some configuration's search stopped at a violation found
	// during it, leaving its other properties undecided (Properties). A
	// message-bound violation is found after the whole graph is searched,
	// and cuts nothing short.
	CutShort bool
	// DepthCut counts the configurations searched only to a depth limit
	// after a violation was known, for a shorter counterexample (sweep.go):
	// beyond CutDepth, the deepest such limit, they were not searched.
	DepthCut int
	CutDepth int
	// First: the check stopped at the first configuration with a
	// violation (Options.First, or depth-first search); the later ones
	// were not searched.
	First bool
}

// Verdict returns the overall verdict; its String is the report's last
// line. An internal error comes first: it puts everything else in doubt. A
// violation found is reported even if the search was then cut short, since
// it is a fact; Verified needs a complete search.
func (r *Result) Verdict() invariants.Verdict {
	switch {
	case r.Internal != "":
		return invariants.Verdict{Outcome: invariants.Internal, Reason: r.Incomplete}
	case r.Violation != nil:
		return invariants.Verdict{Outcome: invariants.Violated, Property: r.Violation.Property}
	case r.Incomplete != "":
		return invariants.Verdict{Outcome: invariants.Incomplete, Reason: r.Incomplete}
	}
	return invariants.Verdict{Outcome: invariants.Verified}
}

// better reports whether violation a is to be reported rather than b.
func better(a *Violation, b *Violation) bool {
	return b == nil || Precedes(len(a.Trace), a.ConfigIndex, len(b.Trace), b.ConfigIndex)
}

// Precedes is the order in which counterexamples are preferred, given
// their trace lengths and configuration indices: shorter traces first, then
// earlier configurations; a violation without a trace (comparison-only)
// after any with one. `elcheck merge` applies the same rule across shards.
func Precedes(lenA, configA, lenB, configB int) bool {
	if (lenA == 0) != (lenB == 0) {
		return lenA != 0
	}
	if lenA != lenB {
		return lenA < lenB
	}
	return configA < configB
}

// overBound decides the declared message bound on a configuration whose
// executions send at most maxMsg messages (invariants.CheckBound), unless
// the caller measures it itself (Options.IgnoreBound).
func (x *searcher) overBound(maxMsg int) *invariants.Violation {
	if x.opts.IgnoreBound {
		return nil
	}
	return invariants.CheckBound(x.sy.Info, &x.sy.Config.Topology, maxMsg)
}

// Checks lists the properties a check of space reports, in order: every
// one but deadlock, which only bounded channels can reach (no send blocks
// on an unbounded channel). elcheck merge holds shards' reports to it.
func Checks(space configs.Space) []invariants.Property {
	return slices.DeleteFunc(slices.Clone(invariants.All), func(p invariants.Property) bool { return !p.Listed(space.Capacity) })
}

// properties gives each property its status and note: the figures come
// from the check, the notes from the table in package invariants.
func properties(res *Result, info spec.Info, space configs.Space, opts Options, uniformChecked int64, perStep bool) []PropertyResult {
	complete := res.Incomplete == "" && res.Violation == nil
	fig := invariants.Figures{N: space.N(), Complete: complete, InitiatorsFixed: space.Initiators != 0,
		UniformChecked: uniformChecked, UniformEvery: opts.UniformityEvery,
		PortBlind: space.MovesPorts(),
		Bound:     info.Bound, BoundIgnored: opts.IgnoreBound, MaxMessages: res.MaxMessages,
		Violated: res.Violated}
	if opts.ComparisonOnly {
		fig.Relabellings = configs.RelabellingNote(opts.ComparisonSeed, perStep)
	}
	if v := res.Violation; v != nil {
		fig.Reported = &invariants.Violation{Property: v.Property, Detail: v.Detail}
	}
	// A message-bound violation is found after its configuration's whole
	// graph was searched and analysed: if it is the only kind, every
	// configuration decided every other property, but for the checks run
	// after a search without a violation (comparison-only, and the ports'
	// renumberings of uniformity).
	whole := res.Incomplete == "" && !res.CutShort && res.ConfigsDone == res.Configs
	var out []PropertyResult
	for _, p := range Checks(space) {
		pr := PropertyResult{Name: p.Name, Status: Unknown}
		f := fig
		f.Complete = complete || whole && p.Name != invariants.ComparisonOnly && p.Name != invariants.Uniformity
		var checked bool
		pr.Note, checked = p.Report(f)
		switch {
		case slices.Contains(res.Violated, p.Name):
			pr.Status = Violated
		case !checked:
			pr.Status = NotChecked
		case f.Complete:
			pr.Status = Holds
		}
		out = append(out, pr)
	}
	return out
}
