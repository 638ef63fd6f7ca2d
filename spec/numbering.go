package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// maxNumberings caps Numberings: the product of the processes' port-count
// factorials it walks (a two-way ring of 16 has 65536).
const maxNumberings = 1 << 16

// Renumber returns t with process i's port p renamed num[i][p] (num[i] a
// permutation of i's ports), its channels in the same order, its
// symmetries recomputed, and a Label saying what moved (after t's own, a
// network's links). An identity num
// returns t as it was.
func (t Topology) Renumber(num [][]Port) Topology {
	r := Topology{Kind: t.Kind, N: t.N, Ports: t.Ports, Edges: make([]Edge, len(t.Edges))}
	for e, ed := range t.Edges {
		r.Edges[e] = Edge{
			From: Endpoint{ed.From.Node, num[ed.From.Node][ed.From.Port]},
			To:   Endpoint{ed.To.Node, num[ed.To.Node][ed.To.Port]},
		}
	}
	r.Symmetries = Generators(r.PortPreserving())
	r.Label = numberingLabel(num)
	if t.Label != "" && r.Label != "" {
		r.Label = t.Label + "; " + r.Label
	} else if t.Label != "" {
		r.Label = t.Label
	}
	return r
}

// Numberings returns t under every numbering of its processes' ports, up
// to t's automorphisms, t's own numbering first: on a two-way ring, every
// assignment of "port 0 leads clockwise" or "counter-clockwise" to each
// process (an unoriented ring), one of each class of assignments that a
// rotation or reflection maps onto each other.
//
// Two numberings λ, λ' of t are the same network when some automorphism
// (σ, π) of t, ports moving, carries one onto the other: λ'(σi) = λ(i)∘π_i⁻¹.
// Each class keeps its lexicographically least numbering, comparing the
// processes' permutations in order. The group of each instance is then
// the stabiliser of its numbering (its PortPreserving), so the id
// placements of all instances together are those of t up to its whole
// group: for a two-way ring of n >= 3, 2^n · (n-1)!/2 configurations of
// numbering and ids.
//
// It fails when t has more than 65536 numberings to walk.
func (t Topology) Numberings() ([]Topology, error) {
	total := 1.0 // a float: K_16's would overflow an int
	for _, k := range t.Ports {
		for f := 2; f <= k; f++ {
			total *= float64(f)
		}
	}
	if total > maxNumberings {
		// A process with k ports has k! numberings: the complete graph of
		// 5 has (4!)^5, a tree at most (n-1)! (a star).
		name := fmt.Sprintf("the %v of %d", t.Kind, t.N)
		if t.Label != "" {
			name += " (" + t.Label + ")"
		}
		return nil, fmt.Errorf("%s has %.0f port numberings (the product of k! over its processes, k ports each), more than the %d elcheck enumerates", name, total, maxNumberings)
	}
	group := t.Automorphisms()
	num := make([][]Port, t.N)
	for i, k := range t.Ports {
		num[i] = make([]Port, k)
		for p := range num[i] {
			num[i][p] = Port(p)
		}
	}
	img := make([][]Port, t.N)
	for i, k := range t.Ports {
		img[i] = make([]Port, k)
	}
	var out []Topology
	for {
		if leastNumbering(num, img, group) {
			out = append(out, t.Renumber(num))
		}
		if !nextNumbering(num) {
			return out, nil
		}
	}
}

// leastNumbering reports whether num is no greater than its image under
// each automorphism in group, img being scratch of num's shape.
func leastNumbering(num, img [][]Port, group []Perm) bool {
	for _, g := range group {
		for i, to := range g.Node {
			for p, q := range g.Port[i] {
				img[to][q] = num[i][p]
			}
		}
		for i := range num {
			if c := slices.Compare(img[i], num[i]); c != 0 {
				if c < 0 {
					return false
				}
				break
			}
		}
	}
	return true
}

// nextNumbering steps num to the next numbering: the last process's
// permutation first, as the digits of a number, each in lexicographic
// order; false after the last.
func nextNumbering(num [][]Port) bool {
	for i := len(num) - 1; i >= 0; i-- {
		if nextPerm(num[i]) {
			return true
		}
		slices.Sort(num[i]) // wrap this digit, carry to the one before
	}
	return false
}

// nextPerm is the next permutation in lexicographic order, false (and p
// unchanged) after the last.
func nextPerm[T cmp.Ordered](p []T) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// numberingLabel describes num for a person: "" for the identity, "ports
// swapped at p1, p3" when only two-port processes moved, else each moved
// process's numbering.
func numberingLabel(num [][]Port) string {
	var swapped, other []string
	for i, perm := range num {
		if slices.IsSorted(perm) {
			continue
		}
		if len(perm) == 2 {
			swapped = append(swapped, fmt.Sprintf("p%d", i))
		}
		other = append(other, fmt.Sprintf("p%d %v", i, perm))
	}
	switch {
	case len(other) == 0:
		return ""
	case len(swapped) == len(other):
		return "ports swapped at " + strings.Join(swapped, ", ")
	}
	return "ports renumbered: " + strings.Join(other, ", ")
}
