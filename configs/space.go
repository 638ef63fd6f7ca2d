// Package configs enumerates the configurations a check covers: topology
// instances, id placements up to each instance's automorphisms, initiator
// sets and shards of the whole; and the order-preserving relabellings of
// a configuration's ids that the comparison-only check explores.
package configs

import (
	"cmp"
	"fmt"
	"iter"
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Space is a set of configurations: topology instances with the same
// number of processes, a channel semantics, and either fixed ids and
// initiators or all of them. Configurations are numbered over instance,
// then id placement, then initiator set: a family with several instances
// (every tree on n nodes) is one space, its indices running across them.
type Space struct {
	// Topologies are the networks, in enumeration order; NewSpace fills
	// it with a family's instances.
	Topologies []spec.Topology
	Channels   spec.Channels
	// Capacity bounds every channel (spec.Config.Capacity); 0 is unbounded.
	Capacity int
	// IDs fixes the id placement; nil means every placement of 1..n up to
	// each topology's port-preserving automorphisms (spec.Topology.
	// PortPreserving): for a ring, up to rotation, (n-1)! of them.
	IDs []spec.ID
	// AllPlacements turns off symmetry reduction: with IDs nil, every
	// placement is enumerated, n! of them per topology.
	AllPlacements bool
	// PortBlind takes placements up to each topology's whole automorphism
	// group, ports moving, rather than its port-preserving automorphisms:
	// for a protocol that declares spec.Info.PortBlind, which the explorer
	// checks step by step.
	PortBlind bool
	// Initiators fixes the initiator set; 0 means every non-empty subset.
	Initiators spec.Set
	// Shard and Shards select a part of the space: the configurations whose
	// index in enumeration order is Shard modulo Shards. Shards 0 or 1
	// means the whole space. The parts of 0..Shards-1 are disjoint and
	// cover the space, and interleaving keeps them balanced.
	Shard, Shards int
	// AnyNumbering records that AnyPorts widened Topologies to every
	// numbering of their ports (reports say so; merge redoes it).
	AnyNumbering bool
}

// NewSpace returns the space of every configuration of family k with n
// processes (every placement up to symmetry, every initiator set), or the
// error for an unknown family or a size out of range.
func NewSpace(k spec.TopologyKind, n int) (Space, error) {
	ts, err := spec.NewTopologies(k, n)
	if err != nil {
		return Space{}, err
	}
	return Space{Topologies: ts}, nil
}

// AnyPorts widens the space to every numbering of each topology's ports,
// up to its automorphisms (spec.Topology.Numberings): on a two-way ring,
// every assignment of "port 0 leads clockwise or counter-clockwise" to the
// processes (an unoriented ring) rather than port 0 leading clockwise
// everywhere. Call it once, before reading the space; it fails when a
// topology has too many numberings, or none to vary (every process has at
// most one port), which a user asking for it should hear of.
func (sp *Space) AnyPorts() error {
	if sp.AnyNumbering {
		return nil
	}
	var all []spec.Topology
	varies := false
	for _, t := range sp.Topologies {
		ts, err := t.Numberings()
		if err != nil {
			return err
		}
		all = append(all, ts...)
		for _, k := range t.Ports {
			varies = varies || k > 1
		}
	}
	if !varies && len(sp.Topologies) > 0 {
		return fmt.Errorf("every process of a %v has one port: there is no numbering to vary", sp.Topologies[0].Kind)
	}
	sp.Topologies, sp.AnyNumbering = all, true
	return nil
}

// N is the number of processes of every topology of the space.
func (sp Space) N() int {
	if len(sp.Topologies) == 0 {
		return 0
	}
	return sp.Topologies[0].N
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

// total is the number of configurations in the whole space. A group G of
// port-preserving automorphisms acts on the n! placements of distinct ids
// (σ moves the id at i to σ(i)) freely: a placement σ fixes has
// ids[i] = ids[σ(i)] for all i, so σ(i) = i, and since σ keeps ports it is
// the identity. Every orbit then has |G| placements, and there are n!/|G|
// orbits, each enumerated once (placements).
func (sp Space) total() int {
	n := sp.N()
	per := 1
	if sp.Initiators == 0 {
		per = 1<<uint(n) - 1
	}
	c := 0
	for _, t := range sp.Topologies {
		p := 1
		if sp.IDs == nil {
			for k := 2; k <= n; k++ {
				p *= k
			}
			if !sp.AllPlacements {
				p /= len(sp.group(t))
			}
		}
		c += p * per
	}
	return c
}

// Configs enumerates the configurations of the shard in a fixed order:
// topologies in order, placements in lexicographic order, then initiator
// sets as increasing bit masks.
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
	return func(yield func(int, spec.Config) bool) {
		k := -1
		for _, top := range sp.Topologies {
			for ids := range sp.placements(top) {
				lo, hi := spec.Set(1), spec.All(top.N)
				if sp.Initiators != 0 {
					lo, hi = sp.Initiators, sp.Initiators
				}
				for init := lo; init <= hi; init++ {
					k++
					if !sp.inShard(k) {
						continue
					}
					if !yield(k, spec.Config{Topology: top, IDs: ids, Initiators: init, Channels: sp.Channels, Capacity: sp.Capacity}) {
						return
					}
				}
			}
		}
	}
}

// placements enumerates the id placements of top: the fixed one, or the
// permutations of 1..n in lexicographic order, keeping (unless
// AllPlacements) the least of each orbit under top's port-preserving
// automorphisms. For a ring those are the placements with id 1 at
// position 0, in the order elcheck has always used: configuration indices,
// golden counterexamples and shard merging depend on it.
func (sp Space) placements(top spec.Topology) iter.Seq[[]spec.ID] {
	return func(yield func([]spec.ID) bool) {
		if sp.IDs != nil {
			yield(sp.IDs)
			return
		}
		// inv[g][j] is the position that automorphism g moves to j.
		var inv [][]int
		if !sp.AllPlacements {
			for _, node := range sp.group(top) {
				if slices.IsSorted(node) {
					continue // the identity
				}
				in := make([]int, top.N)
				for i, to := range node {
					in[to] = i
				}
				inv = append(inv, in)
			}
		}
		ids := make([]spec.ID, top.N)
		for i := range ids {
			ids[i] = spec.ID(i + 1)
		}
		for {
			if leastInOrbit(ids, inv) && !yield(slices.Clone(ids)) {
				return
			}
			if !NextPermutation(ids) {
				return
			}
		}
	}
}

// MovesPorts reports whether some placements stand for others in which
// processes number their ports otherwise: PortBlind, with placements
// enumerated up to symmetry and channels unbounded. (With a capacity, the
// order of a step's sends across ports is observable: a send into a full
// channel holds the ones after it.) The explorer then checks that the
// steps are blind to port numbering.
func (sp Space) MovesPorts() bool {
	return sp.PortBlind && sp.IDs == nil && !sp.AllPlacements && sp.Capacity == 0
}

// group returns how the automorphisms under which placements of top are
// interchangeable move its processes, one node map each: its
// port-preserving automorphisms, or with PortBlind its whole group (whose
// elements that move the processes alike, on a network with parallel
// channels, count once), unless channels are bounded (MovesPorts) or a
// process has more than MaxBlindPorts ports, too many renumberings for
// the explorer to check.
func (sp Space) group(top spec.Topology) [][]int {
	var g [][]int
	if !sp.PortBlind || sp.Capacity > 0 || slices.Max(append([]int{0}, top.Ports...)) > MaxBlindPorts {
		for _, p := range top.PortPreserving() {
			g = append(g, p.Node)
		}
		return g
	}
	for _, p := range top.Automorphisms() {
		if !slices.ContainsFunc(g, func(node []int) bool { return slices.Equal(node, p.Node) }) {
			g = append(g, p.Node)
		}
	}
	return g
}

// MaxBlindPorts bounds the ports of every process of a network whose
// placements PortBlind takes up to its whole group: the explorer checks
// each step against every renumbering of its process's ports, 6! = 720.
const MaxBlindPorts = 6

// leastInOrbit reports whether ids is lexicographically no greater than
// its image under each automorphism, given by inverse (the image has
// ids[inv[j]] at position j).
func leastInOrbit(ids []spec.ID, inverses [][]int) bool {
	for _, inv := range inverses {
		for j, i := range inv {
			if ids[i] != ids[j] {
				if ids[i] < ids[j] {
					return false
				}
				break
			}
		}
	}
	return true
}

// NextPermutation advances a to its next lexicographic permutation and
// reports whether there was one.
func NextPermutation[T cmp.Ordered](a []T) bool {
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
