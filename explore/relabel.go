package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// A relabelling is an order-preserving map of a configuration's ids to
// other ids in [spec.MinID, spec.MaxID]. The comparison-only check explores
// a configuration again under each and compares what it finds: a protocol
// that only compares ids cannot tell the two apart. Each relabelling is
// chosen to change what arithmetic on ids could see; none is affine, since
// a shift or a scaling keeps differences or ratios.
type relabelling struct {
	name, what string
	// of maps the ids, sorted ascending and distinct, to their new ids.
	of func(sorted []spec.ID, seed uint64) []spec.ID
}

// relabellings are the comparison-only check's relabellings, in the order
// they are tried.
var relabellings = []relabelling{
	{"top", "the largest id made 2147483647, the others' parity and residue mod 3 changed", topResidues},
	{"random", "increasing ids drawn from the whole range", randomIDs},
}

// topResidues gives the largest id spec.MaxID, and each other id the
// largest value below the next one's whose parity and residue mod 3 both
// differ from the old id's: at most six tries each, so the ids stay within
// the range's top 6n values.
func topResidues(sorted []spec.ID, _ uint64) []spec.ID {
	n := len(sorted)
	out := make([]spec.ID, n)
	out[n-1] = spec.MaxID
	for k := n - 2; k >= 0; k-- {
		a, b := int64(sorted[k]), int64(out[k+1])-1
		for b%2 == a%2 || b%3 == a%3 {
			b--
		}
		out[k] = spec.ID(b)
	}
	return out
}

// randomIDs draws len(sorted) distinct ids from the whole range with a
// generator seeded by seed and the ids themselves (so each configuration
// gets its own draw, the same on every run), and sorts them.
func randomIDs(sorted []spec.ID, seed uint64) []spec.ID {
	h := mix(seed ^ 0x9e3779b97f4a7c15)
	for _, id := range sorted {
		h = mix(h ^ uint64(id))
	}
	out := make([]spec.ID, 0, len(sorted))
	for len(out) < len(sorted) {
		h = mix(h + 0x9e3779b97f4a7c15)
		id := spec.MinID + spec.ID(h%uint64(spec.MaxID-spec.MinID+1))
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// relabel returns ids with each id replaced by its image under r.
func (r relabelling) relabel(ids []spec.ID, seed uint64) []spec.ID {
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	image := r.of(sorted, seed)
	out := make([]spec.ID, len(ids))
	for i, id := range ids {
		k, _ := slices.BinarySearch(sorted, id)
		out[i] = image[k]
	}
	return out
}

// RelabellingNote describes the comparison-only check's relabellings, for
// reports.
func RelabellingNote(seed uint64) string {
	var parts []string
	for _, r := range relabellings {
		what := r.what
		if r.name == "random" {
			what = fmt.Sprintf("seed %d: %s", seed, what)
		}
		parts = append(parts, fmt.Sprintf("%s: %s", r.name, what))
	}
	return fmt.Sprintf("every configuration re-explored under %d order-preserving relabellings of its ids (%s)",
		len(relabellings), strings.Join(parts, "; "))
}

// outcome of a configuration's search, as comparison-only compares it.
type figures struct {
	states, transitions, terminals int64
	minMsg, maxMsg                 int
	elected                        spec.Set
	violation                      string
}

func figuresOf(c configResult, visits bool) figures {
	f := figures{c.states, c.transitions, c.terminals, c.minMsg, c.maxMsg, c.elected, ""}
	if c.violation != nil {
		f.violation = c.violation.Property
	}
	if visits { // state caching: the counts are visits and depend on the cache
		f.states, f.transitions, f.terminals = 0, 0, 0
	}
	return f
}

// String renders the figures for a person: "15 states, 14 transitions, 1
// final state, 12 to 12 messages, winners p2, no violation".
func (f figures) String() string {
	var b strings.Builder
	if f.states > 0 {
		fmt.Fprintf(&b, "%d states, %d transitions, %d final states, ", f.states, f.transitions, f.terminals)
	}
	if f.maxMsg >= 0 {
		fmt.Fprintf(&b, "%d to %d messages, ", f.minMsg, f.maxMsg)
	}
	var ws []string
	for _, p := range f.elected.Members() {
		ws = append(ws, fmt.Sprintf("p%d", p))
	}
	if len(ws) == 0 {
		ws = []string{"none"}
	}
	fmt.Fprintf(&b, "winners %s, ", strings.Join(ws, " "))
	if f.violation == "" {
		b.WriteString("no violation")
	} else {
		b.WriteString("violates " + f.violation)
	}
	return b.String()
}

// compareRelabelled explores cfg again under each relabelling and
// compares what it finds with r, what cfg's own search found. A protocol
// that only compares ids must reach as many states by as many transitions,
// with the same processes winning and the same message counts. A step that
// breaks the protocol contract in a relabelled search (it panics, or is
// not a function of its input) is reported as what it is, with its trace.
func (x *searcher) compareRelabelled(m spec.Machine, cfg spec.Config, r configResult) (*Violation, error) {
	saved := x.opts.UniformityEvery
	x.opts.UniformityEvery = 0
	defer func() { x.opts.UniformityEvery = saved }()
	for _, rl := range relabellings {
		rc := cfg
		rc.IDs = rl.relabel(cfg.IDs, x.opts.ComparisonSeed)
		q := x.search(x.system(m, rc))
		if q.stopped != nil {
			return nil, q.stopped
		}
		if v := q.violation; v != nil && (v.Property == invariants.StepPurity || v.Property == invariants.StepPanicked) {
			v.Detail += fmt.Sprintf(" (met while exploring the configuration with ids %v relabelled as %v)", cfg.IDs, rc.IDs)
			return v, nil
		}
		visits := r.cached || q.cached
		if a, b := figuresOf(r, visits), figuresOf(q, visits); a != b {
			return &Violation{Property: invariants.ComparisonOnly, Config: cfg, LoopAt: -1,
				Detail: fmt.Sprintf("relabelling the ids %v as %v (%s: the same order, %s) changes the behaviour: with %v, %s; with %v, %s",
					cfg.IDs, rc.IDs, rl.name, rl.what, cfg.IDs, a, rc.IDs, b)}, nil
		}
	}
	return nil, nil
}
