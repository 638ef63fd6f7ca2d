package explore

import (
	"iter"
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Space is a set of configurations: a topology size, a channel semantics,
// and either fixed ids and initiators or all of them.
type Space struct {
	N        int
	Topology spec.TopologyKind
	Channels spec.Channels
	// IDs fixes the id placement; nil means every placement of 1..n up to
	// rotation (id 1 at position 0): (n-1)! of them.
	IDs []spec.ID
	// AllPlacements turns off symmetry reduction: with IDs nil, every
	// placement is enumerated, n! of them, rotations included.
	AllPlacements bool
	// Initiators fixes the initiator set; 0 means every non-empty subset.
	Initiators spec.Set
	// Shard and Shards select a part of the space: the configurations whose
	// index in enumeration order is Shard modulo Shards. Shards 0 or 1
	// means the whole space. The parts of 0..Shards-1 are disjoint and
	// cover the space, and interleaving keeps them balanced.
	Shard, Shards int
}

// inShard reports whether the configuration with enumeration index k
// belongs to the space's shard.
func (sp Space) inShard(k int) bool { return sp.Shards <= 1 || k%sp.Shards == sp.Shard }

// Count returns the number of configurations in the space (in its shard).
func (sp Space) Count() int {
	c := sp.total()
	if sp.Shards > 1 {
		c = c/sp.Shards + btoi(sp.Shard < c%sp.Shards)
	}
	return c
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// total is the number of configurations in the whole space.
func (sp Space) total() int {
	c := 1
	if sp.IDs == nil {
		for k := 2; k < sp.N; k++ {
			c *= k
		}
		if sp.AllPlacements {
			c *= sp.N
		}
	}
	if sp.Initiators == 0 {
		c *= 1<<uint(sp.N) - 1
	}
	return c
}

// Configs enumerates the configurations of the shard in a fixed order:
// placements in lexicographic order, then initiator sets as increasing bit
// masks.
func (sp Space) Configs() iter.Seq[spec.Config] {
	return func(yield func(spec.Config) bool) {
		for _, cfg := range sp.Indexed() {
			if !yield(cfg) {
				return
			}
		}
	}
}

// Indexed enumerates the configurations of the shard with their index in
// the enumeration of the whole space, which orders counterexamples across
// shards.
func (sp Space) Indexed() iter.Seq2[int, spec.Config] {
	top, _ := spec.NewTopology(sp.Topology, sp.N)
	return func(yield func(int, spec.Config) bool) {
		k := -1
		placements := func(yield func([]spec.ID) bool) {
			if sp.IDs != nil {
				yield(sp.IDs)
				return
			}
			ids := make([]spec.ID, sp.N)
			for i := range ids {
				ids[i] = spec.ID(i + 1)
			}
			for {
				if !yield(slices.Clone(ids)) {
					return
				}
				free := ids[1:] // id 1 stays at position 0: one rotation of each
				if sp.AllPlacements {
					free = ids
				}
				if !nextPermutation(free) {
					return
				}
			}
		}
		for ids := range placements {
			lo, hi := spec.Set(1), spec.All(sp.N)
			if sp.Initiators != 0 {
				lo, hi = sp.Initiators, sp.Initiators
			}
			for init := lo; init <= hi; init++ {
				k++
				if !sp.inShard(k) {
					continue
				}
				if !yield(k, spec.Config{Topology: top, IDs: ids, Initiators: init, Channels: sp.Channels}) {
					return
				}
			}
		}
	}
}

// nextPermutation advances a to its next lexicographic permutation and
// reports whether there was one.
func nextPermutation(a []spec.ID) bool {
	i := len(a) - 2
	for i >= 0 && a[i] >= a[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(a) - 1
	for a[j] <= a[i] {
		j--
	}
	a[i], a[j] = a[j], a[i]
	slices.Reverse(a[i+1:])
	return true
}
