package configs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/elcheck/elcheck/internal/hash"
	"github.com/elcheck/elcheck/spec"
)

// A Relabelling is an order-preserving map of a configuration's ids to
// other ids in [spec.MinID, spec.MaxID]. The comparison-only check explores
// a configuration again under each and compares what it finds: a protocol
// that only compares ids cannot tell the two apart. Each relabelling is
// chosen to change what arithmetic on ids could see; none is affine, since
// a shift or a scaling keeps differences or ratios.
type Relabelling struct {
	// Name names it in reports ("top", "random"); What says what it does.
	Name, What string
	// of maps the ids, sorted ascending and distinct, to their new ids.
	of func(sorted []spec.ID, seed uint64) []spec.ID
}

// Relabellings are the comparison-only check's relabellings, in the order
// they are tried.
var Relabellings = []Relabelling{
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
	h := hash.Mix(seed ^ 0x9e3779b97f4a7c15)
	for _, id := range sorted {
		h = hash.Mix(h ^ uint64(id))
	}
	out := make([]spec.ID, 0, len(sorted))
	for len(out) < len(sorted) {
		h = hash.Mix(h + 0x9e3779b97f4a7c15)
		id := spec.MinID + spec.ID(h%uint64(spec.MaxID-spec.MinID+1))
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Relabel returns ids with each id replaced by its image under r; seed
// seeds the random one.
func (r Relabelling) Relabel(ids []spec.ID, seed uint64) []spec.ID {
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
// reports: applied to each distinct step's ids (perStep), or to each
// configuration's, explored again.
func RelabellingNote(seed uint64, perStep bool) string {
	var parts []string
	for _, r := range Relabellings {
		what := r.What
		if r.Name == "random" {
			what = fmt.Sprintf("seed %d: %s", seed, what)
		}
		parts = append(parts, fmt.Sprintf("%s: %s", r.Name, what))
	}
	if perStep {
		return fmt.Sprintf("every distinct step and initial state checked to commute with %d order-preserving relabellings of the ids it reads (%s)",
			len(Relabellings), strings.Join(parts, "; "))
	}
	return fmt.Sprintf("every configuration re-explored under %d order-preserving relabellings of its ids (%s)",
		len(Relabellings), strings.Join(parts, "; "))
}
