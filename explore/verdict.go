package explore

import (
	"fmt"
	"slices"
	"time"

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
	// symmetry self-check ran (UniformityNote).
	UniformChecked int64
	// Cached counts the configurations searched with state caching
	// (Options.Memory): their states are visits, and may include repeats.
	Cached int
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
}

// Verdict returns the report's last line: VERIFIED, VIOLATED: p or
// INCOMPLETE: why. A violation found is reported even if the search was
// then cut short, since it is a fact; VERIFIED needs a complete search.
func (r *Result) Verdict() string {
	switch {
	case r.Violation != nil:
		return "VIOLATED: " + r.Violation.Property
	case r.Incomplete != "":
		return "INCOMPLETE: " + r.Incomplete
	}
	return "VERIFIED"
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

// UniformityNote is the report's note on uniformity. A protocol cannot
// break it: a process is given its id and its ports, never its position, so
// its behaviour is the same wherever it stands. What can break is the
// engine's own symmetry (the successor function must commute with the
// topology's automorphisms), which a sample of states checks; the note
// says on how many, every being Options.UniformityEvery.
func UniformityNote(checked int64, every int) string {
	const why = "by construction: a process sees its id and its ports, never its position"
	switch {
	case every == 0:
		return why + "; the engine's symmetry self-check was off"
	case checked == 0:
		return why + "; the engine's symmetry self-check ran on no state"
	}
	return fmt.Sprintf("%s; the engine's symmetry self-check ran on %d states (every %dth)", why, checked, every)
}

func properties(res *Result, info spec.Info, space Space, opts Options, uniformChecked int64) []PropertyResult {
	complete := res.Incomplete == "" && res.Violation == nil
	var out []PropertyResult
	for _, p := range invariants.All {
		pr := PropertyResult{Name: p.Name, Status: Unknown}
		if complete {
			pr.Status = Holds
		}
		switch p.Name {
		case invariants.Decentralization:
			if space.Initiators != 0 {
				pr.Status, pr.Note = NotChecked, "initiators fixed by -initiators"
			} else if complete {
				pr.Note = fmt.Sprintf("all %d non-empty initiator sets", 1<<uint(space.N())-1)
			}
		case invariants.Uniformity:
			pr.Note = UniformityNote(uniformChecked, opts.UniformityEvery)
		case invariants.ComparisonOnly:
			if !opts.ComparisonOnly {
				pr.Status = NotChecked
			} else if complete {
				pr.Note = RelabellingNote(opts.ComparisonSeed)
			}
		case invariants.MessageBound:
			switch {
			case info.Bound.Max == nil:
				pr.Status, pr.Note = NotChecked, "no bound declared"
			case res.MaxMessages >= 0:
				pr.Note = fmt.Sprintf("max %d, bound %s = %d", res.MaxMessages, info.Bound.Formula, info.Bound.Max(space.N()))
			}
		}
		if slices.Contains(res.Violated, p.Name) {
			pr.Status, pr.Note = Violated, "violated in some configuration"
			if res.Violation.Property == p.Name {
				pr.Note = res.Violation.Detail
			}
		}
		out = append(out, pr)
	}
	return out
}
