package spec_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// allNumberings lists every numbering of t's ports, each process's
// permutations in lexicographic order, independently of spec's walk.
func allNumberings(t spec.Topology) [][][]spec.Port {
	out := [][][]spec.Port{nil}
	for _, k := range t.Ports {
		var next [][][]spec.Port
		for _, pre := range out {
			for _, p := range permsOf(k) {
				next = append(next, append(slices.Clone(pre), p))
			}
		}
		out = next
	}
	return out
}

// permsOf lists the permutations of 0..k-1 in lexicographic order.
func permsOf(k int) [][]spec.Port {
	if k == 0 {
		return [][]spec.Port{{}}
	}
	var out [][]spec.Port
	for _, rest := range permsOf(k - 1) {
		for at := 0; at <= len(rest); at++ {
			p := append(slices.Clone(rest[:at]), spec.Port(k-1))
			out = append(out, append(p, rest[at:]...))
		}
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

// canonical is a network's edge set, least over every relabelling of its
// processes with ports kept: two numbered networks are the same network
// exactly when their forms are equal.
func canonical(t spec.Topology) string {
	best := ""
	ids := make([]int, t.N)
	for i := range ids {
		ids[i] = i
	}
	for {
		var es []string
		for _, e := range t.Edges {
			es = append(es, fmt.Sprintf("%d:%d>%d:%d", ids[e.From.Node], e.From.Port, ids[e.To.Node], e.To.Port))
		}
		slices.Sort(es)
		if f := strings.Join(es, " "); best == "" || f < best {
			best = f
		}
		// next permutation of ids
		i := len(ids) - 2
		for i >= 0 && ids[i] >= ids[i+1] {
			i--
		}
		if i < 0 {
			return best
		}
		j := len(ids) - 1
		for ids[j] <= ids[i] {
			j--
		}
		ids[i], ids[j] = ids[j], ids[i]
		slices.Reverse(ids[i+1:])
	}
}

func factorial(n int) int {
	f := 1
	for k := 2; k <= n; k++ {
		f *= k
	}
	return f
}

// Numberings keeps one numbering per class of isomorphic numbered
// networks, found by brute force; the identity numbering first; and the
// placements of all instances add up to those of the network up to its
// whole group: 2^n (n-1)!/2 on a two-way ring of n >= 3.
func TestNumberingsUpToIsomorphism(t *testing.T) {
	type tc struct {
		name string
		top  spec.Topology
	}
	var tests []tc
	for n := 1; n <= 6; n++ {
		tests = append(tests, tc{fmt.Sprintf("biring-%d", n), spec.NewBiRing(n)}, tc{fmt.Sprintf("uniring-%d", n), spec.NewUniRing(n)})
	}
	star := spec.Topology{N: 4, Ports: []int{3, 1, 1, 1}}
	for leaf := 1; leaf <= 3; leaf++ {
		star.Edges = append(star.Edges,
			spec.Edge{From: spec.Endpoint{Node: 0, Port: spec.Port(leaf - 1)}, To: spec.Endpoint{Node: leaf}},
			spec.Edge{From: spec.Endpoint{Node: leaf}, To: spec.Endpoint{Node: 0, Port: spec.Port(leaf - 1)}})
	}
	tests = append(tests, tc{"star-3", star})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.top.Numberings()
			if err != nil {
				t.Fatal(err)
			}
			classes := map[string]bool{}
			all := allNumberings(tt.top)
			for _, num := range all {
				classes[canonical(tt.top.Renumber(num))] = true
			}
			seen := map[string]bool{}
			placements := 0
			for k, inst := range got {
				if err := inst.Validate(); err != nil {
					t.Fatalf("instance %d: %v", k, err)
				}
				c := canonical(inst)
				if seen[c] || !classes[c] {
					t.Errorf("instance %d (%s): a repeat, or not a numbering of the network", k, inst.Label)
				}
				seen[c] = true
				placements += factorial(inst.N) / len(inst.PortPreserving())
			}
			if len(got) != len(classes) {
				t.Errorf("%d instances, %d classes by brute force", len(got), len(classes))
			}
			if got[0].Label != "" || !slices.Equal(got[0].Edges, tt.top.Edges) {
				t.Errorf("the first instance is not the network itself: %q", got[0].Label)
			}
			if want := len(all) * factorial(tt.top.N) / len(tt.top.Automorphisms()); placements != want {
				t.Errorf("%d placements over the instances, want %d", placements, want)
			}
			if n := tt.top.N; tt.top.Kind == spec.BiRing && n >= 3 && placements != (1<<n)*factorial(n-1)/2 {
				t.Errorf("%d placements, want 2^n (n-1)!/2 = %d", placements, (1<<n)*factorial(n-1)/2)
			}
		})
	}
}

// The two-way ring's group is dihedral: rotations keep ports, and
// reflections swap every process's two.
func TestBiRingGroupIsDihedral(t *testing.T) {
	for n := 3; n <= 12; n++ {
		r := spec.NewBiRing(n)
		if all, pp := len(r.Automorphisms()), len(r.PortPreserving()); all != 2*n || pp != n {
			t.Errorf("n=%d: %d automorphisms, %d port-preserving; want %d and %d", n, all, pp, 2*n, n)
		}
	}
}

func TestNumberingLabelsAndLimits(t *testing.T) {
	ts, err := spec.NewBiRing(4).Numberings()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, x := range ts {
		labels = append(labels, x.Label)
	}
	// Worked out by hand: up to rotation and reflection (which swaps
	// every process), 0 to 4 swapped processes, 0000 ~ 1111, 0001 ~
	// 0111 (reflected), 0011, 0101.
	want := []string{"", "ports swapped at p3", "ports swapped at p2, p3", "ports swapped at p1, p3"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	// An alternating numbering looks the same in the mirror: its group,
	// which placements and the uniformity check use, holds reflections
	// (i -> c-i) beside the rotations by two.
	alt := ts[3]
	refl := 0
	for _, g := range alt.PortPreserving() {
		if (g.Node[0]-g.Node[1]+4)%4 == 1 {
			refl++
		}
	}
	if len(alt.PortPreserving()) != 4 || refl != 2 || len(alt.Symmetries) != 2 {
		t.Errorf("%s: %d automorphisms keep ports, %d of them reflections, %d generators; want 4, 2, 2", alt.Label, len(alt.PortPreserving()), refl, len(alt.Symmetries))
	}
	if _, err := spec.NewBiRing(17).Numberings(); err == nil || !strings.Contains(err.Error(), "more than the 65536") {
		t.Errorf("a ring of 17: %v", err)
	}
}
