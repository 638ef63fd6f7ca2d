package spec_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// twoWayRing is the ring of n where process i's port 0 leads to i+1 and
// its port 1 to i-1: a reflection swaps the ports.
func twoWayRing(n int) spec.Topology {
	t := spec.Topology{N: n, Ports: slices.Repeat([]int{2}, n)}
	for i := range n {
		t.Edges = append(t.Edges, spec.Edge{From: spec.Endpoint{Node: i, Port: 0}, To: spec.Endpoint{Node: (i + 1) % n, Port: 1}},
			spec.Edge{From: spec.Endpoint{Node: (i + 1) % n, Port: 1}, To: spec.Endpoint{Node: i, Port: 0}})
	}
	return t
}

// networks are the test cases: the one-way rings and hand-made networks,
// with the orders of their groups worked out by hand.
func networks() []struct {
	name     string
	t        spec.Topology
	all, pp  int // |Automorphisms|, |PortPreserving|
	symCount int // how many generators Symmetries should have, for constructors' topologies; -1 to skip
} {
	type tc = struct {
		name     string
		t        spec.Topology
		all, pp  int
		symCount int
	}
	var out []tc
	for n := 1; n <= 6; n++ {
		out = append(out, tc{fmt.Sprintf("uniring-%d", n), spec.NewUniRing(n), n, n, min(n-1, 1)})
	}
	return append(out,
		tc{"path-4", mustNetwork(spec.Graph, 4, [][2]int{{0, 1}, {1, 2}, {2, 3}}), 2, 1, -1},
		tc{"star-3", mustNetwork(spec.Graph, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}}), 6, 1, -1},
		tc{"triangle-tail", mustNetwork(spec.Graph, 4, [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 3}}), 2, 1, -1},
		tc{"two-way-ring-5", twoWayRing(5), 10, 5, -1},
	)
}

// permutations returns every permutation of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for k := 0; k <= len(p); k++ {
			q := append(slices.Clone(p[:k]), n-1)
			out = append(out, append(q, p[k:]...))
		}
	}
	return out
}

// bruteAutomorphisms tries every process bijection and every bijection of
// each process's ports onto its image's, and keeps those that map the
// channel set onto itself.
func bruteAutomorphisms(t spec.Topology) map[string]spec.Perm {
	chans := map[spec.Edge]bool{}
	for _, e := range t.Edges {
		chans[e] = true
	}
	found := map[string]spec.Perm{}
	for _, node := range permutations(t.N) {
		ok := true
		for i, j := range node {
			ok = ok && t.Ports[i] == t.Ports[j]
		}
		if !ok {
			continue
		}
		// Every combination of per-process port bijections.
		var rec func(i int, ports [][]spec.Port)
		rec = func(i int, ports [][]spec.Port) {
			if i == t.N {
				p := spec.Perm{Node: slices.Clone(node), Port: slices.Clone(ports)}
				for _, e := range t.Edges {
					img := spec.Edge{From: spec.Endpoint{Node: node[e.From.Node], Port: ports[e.From.Node][e.From.Port]},
						To: spec.Endpoint{Node: node[e.To.Node], Port: ports[e.To.Node][e.To.Port]}}
					if !chans[img] {
						return
					}
				}
				found[fmt.Sprint(p)] = p
				return
			}
			for _, pp := range permutations(t.Ports[i]) {
				q := make([]spec.Port, len(pp))
				for x, y := range pp {
					q[x] = spec.Port(y)
				}
				rec(i+1, append(ports, q))
			}
		}
		rec(0, nil)
	}
	return found
}

// generated returns the group gens generate, by key.
func generated(n int, gens []spec.Perm, ports []int) map[string]bool {
	id := spec.Perm{Node: make([]int, n), Port: make([][]spec.Port, n)}
	for i := range n {
		id.Node[i] = i
		id.Port[i] = make([]spec.Port, ports[i])
		for x := range ports[i] {
			id.Port[i][x] = spec.Port(x)
		}
	}
	have := map[string]bool{fmt.Sprint(id): true}
	queue := []spec.Perm{id}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, g := range gens {
			q := g.Compose(p)
			if !have[fmt.Sprint(q)] {
				have[fmt.Sprint(q)] = true
				queue = append(queue, q)
			}
		}
	}
	return have
}

// The automorphisms found are exactly those of a brute-force search, the
// port-preserving ones are the brute-force ones that keep ports, and the
// generators the constructors derive generate the port-preserving group
// (for a ring, the whole group) without the identity.
func TestAutomorphisms(t *testing.T) {
	for _, tt := range networks() {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.t.Validate(); err != nil {
				t.Fatal(err)
			}
			want := bruteAutomorphisms(tt.t)
			got := tt.t.Automorphisms()
			if len(got) != tt.all || len(want) != tt.all {
				t.Errorf("%d automorphisms, brute force %d, by hand %d", len(got), len(want), tt.all)
			}
			seen := map[string]bool{}
			for _, p := range got {
				k := fmt.Sprint(p)
				if _, ok := want[k]; !ok || seen[k] {
					t.Errorf("%v: not an automorphism, or found twice", p)
				}
				seen[k] = true
			}
			if len(got) > 0 && !got[0].IsIdentity() {
				t.Errorf("the first automorphism %v is not the identity", got[0])
			}
			pp := tt.t.PortPreserving()
			wantPP := 0
			for _, p := range want {
				if p.KeepsPorts() {
					wantPP++
				}
			}
			if len(pp) != tt.pp || wantPP != tt.pp {
				t.Errorf("%d port-preserving automorphisms, brute force %d, by hand %d", len(pp), wantPP, tt.pp)
			}
			for name, g := range map[string][]spec.Perm{"all": got, "port-preserving": pp} {
				gens := spec.Generators(g)
				for _, p := range gens {
					if p.IsIdentity() {
						t.Errorf("%s: the identity is a generator", name)
					}
				}
				if span := generated(tt.t.N, gens, tt.t.Ports); len(span) != len(g) {
					t.Errorf("%s: %d generators span %d elements, want %d", name, len(gens), len(span), len(g))
				}
			}
			if tt.symCount >= 0 {
				if len(tt.t.Symmetries) != tt.symCount {
					t.Errorf("%d symmetries %v, want %d", len(tt.t.Symmetries), tt.t.Symmetries, tt.symCount)
				}
				if span := generated(tt.t.N, tt.t.Symmetries, tt.t.Ports); len(span) != tt.all {
					t.Errorf("Symmetries span %d elements, want the whole group, %d", len(span), tt.all)
				}
			}
		})
	}
}

// The ring's one symmetry is still the rotation by one, the map the
// uniformity self-check has always used.
func TestRingSymmetryIsTheRotation(t *testing.T) {
	for n := 2; n <= 16; n++ {
		s := spec.NewUniRing(n).Symmetries
		if len(s) != 1 {
			t.Fatalf("n=%d: %d symmetries", n, len(s))
		}
		for i, to := range s[0].Node {
			if to != (i+1)%n || !slices.Equal(s[0].Port[i], []spec.Port{0}) {
				t.Fatalf("n=%d: symmetry %v is not the rotation by one", n, s[0])
			}
		}
	}
}

func TestNewTopologiesErrors(t *testing.T) {
	tests := []struct {
		k    spec.TopologyKind
		n    int
		fail bool
	}{
		{spec.UniRing, 1, false},
		{spec.UniRing, 64, false},
		{spec.UniRing, 0, true},
		{spec.UniRing, 65, true},
		{spec.TopologyKind(7), 3, true},
	}
	for _, tt := range tests {
		ts, err := spec.NewTopologies(tt.k, tt.n)
		if (err != nil) != tt.fail {
			t.Errorf("NewTopologies(%v, %d): error %v, want failure %v", tt.k, tt.n, err, tt.fail)
		}
		if _, err1 := spec.NewTopology(tt.k, tt.n); (err1 != nil) != tt.fail {
			t.Errorf("NewTopology(%v, %d): error %v", tt.k, tt.n, err1)
		}
		if err == nil && (len(ts) != 1 || ts[0].N != tt.n) {
			t.Errorf("NewTopologies(%v, %d) = %d instances", tt.k, tt.n, len(ts))
		}
	}
}

func TestValidate(t *testing.T) {
	good := spec.NewUniRing(3)
	bad := []spec.Topology{
		{N: 0},
		{N: 2, Ports: []int{1}},
		{N: 2, Ports: []int{1, 1}, Edges: []spec.Edge{{From: spec.Endpoint{Node: 0, Port: 1}, To: spec.Endpoint{Node: 1}}}},
		{N: 2, Ports: []int{1, 1}, Edges: []spec.Edge{{From: spec.Endpoint{Node: 0}, To: spec.Endpoint{Node: 1}}, {From: spec.Endpoint{Node: 0}, To: spec.Endpoint{Node: 0}}}},
	}
	if err := good.Validate(); err != nil {
		t.Error(err)
	}
	for _, b := range bad {
		if b.Validate() == nil {
			t.Errorf("%+v: valid", b)
		}
	}
}

func TestParseTopologyKind(t *testing.T) {
	if k, err := spec.ParseTopologyKind(spec.UniRing.String()); err != nil || k != spec.UniRing {
		t.Errorf("ParseTopologyKind(%q) = %v, %v", spec.UniRing.String(), k, err)
	}
	if _, err := spec.ParseTopologyKind("torus"); err == nil {
		t.Error("torus parsed")
	}
}
