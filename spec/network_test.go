package spec_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// mustNetwork is spec.NewNetwork for links known to be right: it panics
// on an error.
func mustNetwork(kind spec.TopologyKind, n int, links [][2]int) spec.Topology {
	top, err := spec.NewNetwork(kind, n, links)
	if err != nil {
		panic(err)
	}
	return top
}

// linksOf reads a two-way network's links back from its channels: every
// other channel, a->b of link {a, b}.
func linksOf(t spec.Topology) [][2]int {
	var ls [][2]int
	for k := 0; k < len(t.Edges); k += 2 {
		ls = append(ls, [2]int{t.Edges[k].From.Node, t.Edges[k].To.Node})
	}
	return ls
}

// The families' sizes are the OEIS numbers (A000055 trees, A001349
// connected graphs), each instance of its family and size; past the
// limit NewTopologies says so.
func TestNetworkCounts(t *testing.T) {
	tests := []struct {
		kind spec.TopologyKind
		want []int // for n = 1, 2, ...
	}{
		{spec.Tree, []int{1, 1, 1, 2, 3, 6, 11, 23}},
		{spec.Graph, []int{1, 1, 2, 6, 21, 112}},
		{spec.Complete, []int{1, 1, 1, 1, 1, 1, 1}},
	}
	for _, tt := range tests {
		if len(tt.want) != spec.MaxNetworkN(tt.kind) {
			t.Errorf("%v: counts to %d, limit %d", tt.kind, len(tt.want), spec.MaxNetworkN(tt.kind))
		}
		for n := 1; n <= len(tt.want)+1; n++ {
			ts, err := spec.NewTopologies(tt.kind, n)
			if n > len(tt.want) {
				if err == nil || !strings.Contains(err.Error(), "more than elcheck enumerates") {
					t.Errorf("%v of %d: error %v", tt.kind, n, err)
				}
				continue
			}
			if err != nil || len(ts) != tt.want[n-1] {
				t.Errorf("%v of %d: %d instances, want %d (%v)", tt.kind, n, len(ts), tt.want[n-1], err)
			}
			for _, top := range ts {
				if top.Kind != tt.kind || top.N != n || top.Validate() != nil || len(top.Edges) == 0 && n > 1 {
					t.Errorf("%v of %d: bad instance %+v", tt.kind, n, top)
				}
				if tt.kind == spec.Complete && len(top.Edges) != n*(n-1) {
					t.Errorf("K_%d has %d channels", n, len(top.Edges))
				}
			}
		}
	}
}

// adjacencyForm is a labelled graph's form up to isomorphism, written
// independently of spec: the least n×n adjacency matrix, as a bit mask
// row by row, over every relabelling perms lists (all of 0..n-1's).
func adjacencyForm(perms [][]int, links [][2]int) uint64 {
	best, n := ^uint64(0), len(perms[0])
	for _, p := range perms {
		var m uint64
		for _, l := range links {
			a, b := p[l[0]], p[l[1]]
			m |= 1<<(a*n+b) | 1<<(b*n+a)
		}
		best = min(best, m)
	}
	return best
}

// connected reports whether the links join all n processes, by union-find.
func connected(n int, links [][2]int) bool {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	parts := n
	for _, l := range links {
		if a, b := find(l[0]), find(l[1]); a != b {
			parent[a] = b
			parts--
		}
	}
	return parts == 1
}

// The connected graphs are those of a brute force: every labelled graph
// on n processes, kept if connected, identified up to isomorphism by
// adjacencyForm. The instances are pairwise non-isomorphic and cover
// every class; the trees are the graphs with n-1 links, in the same order.
func TestGraphsAgainstBruteForce(t *testing.T) {
	for n := 1; n <= spec.MaxNetworkN(spec.Graph); n++ {
		var pairs [][2]int
		for a := range n {
			for b := a + 1; b < n; b++ {
				pairs = append(pairs, [2]int{a, b})
			}
		}
		classes, perms := map[uint64]bool{}, permutations(n)
		for mask := 0; mask < 1<<len(pairs); mask++ {
			var ls [][2]int
			for k, p := range pairs {
				if mask&(1<<k) != 0 {
					ls = append(ls, p)
				}
			}
			if connected(n, ls) {
				classes[adjacencyForm(perms, ls)] = true
			}
		}
		graphs := spec.MustTopologies(spec.Graph, n)
		seen := map[uint64]bool{}
		var trees []spec.Topology
		for _, g := range graphs {
			f := adjacencyForm(perms, linksOf(g))
			if seen[f] || !classes[f] {
				t.Errorf("graph of %d (%s): a repeat, or not connected", n, g.Label)
			}
			seen[f] = true
			if len(linksOf(g)) == n-1 {
				trees = append(trees, g)
			}
		}
		if len(graphs) != len(classes) {
			t.Errorf("n=%d: %d graphs, %d by brute force", n, len(graphs), len(classes))
		}
		for k, tr := range spec.MustTopologies(spec.Tree, n) {
			if k >= len(trees) || !slices.Equal(tr.Edges, trees[k].Edges) || tr.Label != trees[k].Label {
				t.Errorf("n=%d: tree %d (%s) is not the graph with n-1 links in its place", n, k, tr.Label)
			}
		}
	}
}

// treeForm is a tree's form up to isomorphism, independently of spec:
// the least AHU string of the tree rooted at each of its processes.
func treeForm(n int, links [][2]int) string {
	nbrs := make([][]int, n)
	for _, l := range links {
		nbrs[l[0]], nbrs[l[1]] = append(nbrs[l[0]], l[1]), append(nbrs[l[1]], l[0])
	}
	var ahu func(at, from int) string
	ahu = func(at, from int) string {
		var kids []string
		for _, c := range nbrs[at] {
			if c != from {
				kids = append(kids, ahu(c, at))
			}
		}
		slices.Sort(kids)
		return "(" + strings.Join(kids, "") + ")"
	}
	best := ""
	for r := range n {
		if s := ahu(r, -1); best == "" || s < best {
			best = s
		}
	}
	return best
}

// The trees are those of a brute force: every labelled tree on n
// processes, decoded from its Prüfer sequence (n^(n-2) of them), up to
// isomorphism by treeForm.
func TestTreesAgainstBruteForce(t *testing.T) {
	for n := 1; n <= spec.MaxNetworkN(spec.Tree); n++ {
		classes := map[string]bool{}
		seq := make([]int, max(n-2, 0))
		for {
			classes[treeForm(n, pruferTree(n, seq))] = true
			k := len(seq) - 1
			for k >= 0 && seq[k] == n-1 {
				seq[k] = 0
				k--
			}
			if k < 0 {
				break
			}
			seq[k]++
		}
		trees := spec.MustTopologies(spec.Tree, n)
		seen := map[string]bool{}
		for _, tr := range trees {
			ls := linksOf(tr)
			f := treeForm(n, ls)
			if seen[f] || !classes[f] || len(ls) != n-1 || !connected(n, ls) {
				t.Errorf("tree of %d (%s): a repeat, or not a tree", n, tr.Label)
			}
			seen[f] = true
		}
		if len(trees) != len(classes) {
			t.Errorf("n=%d: %d trees, %d by brute force", n, len(trees), len(classes))
		}
	}
}

// pruferTree decodes a Prüfer sequence into the links of a labelled tree.
func pruferTree(n int, seq []int) [][2]int {
	if n == 1 {
		return nil
	}
	degree := slices.Repeat([]int{1}, n)
	for _, x := range seq {
		degree[x]++
	}
	var ls [][2]int
	for _, x := range seq {
		leaf := slices.Index(degree, 1)
		ls = append(ls, [2]int{leaf, x})
		degree[leaf]--
		degree[x]--
	}
	var last []int
	for i, d := range degree {
		if d == 1 {
			last = append(last, i)
		}
	}
	return append(ls, [2]int{last[0], last[1]})
}

// A network's ports are numbered by neighbour position, its channels
// listed link by link as given.
func TestNewNetworkPorts(t *testing.T) {
	top := mustNetwork(spec.Graph, 4, [][2]int{{2, 0}, {0, 1}, {3, 0}, {1, 2}})
	ep := func(n, p int) spec.Endpoint { return spec.Endpoint{Node: n, Port: spec.Port(p)} }
	want := []spec.Edge{
		{From: ep(2, 0), To: ep(0, 1)}, {From: ep(0, 1), To: ep(2, 0)},
		{From: ep(0, 0), To: ep(1, 0)}, {From: ep(1, 0), To: ep(0, 0)},
		{From: ep(3, 0), To: ep(0, 2)}, {From: ep(0, 2), To: ep(3, 0)},
		{From: ep(1, 1), To: ep(2, 1)}, {From: ep(2, 1), To: ep(1, 1)},
	}
	if !slices.Equal(top.Edges, want) || !slices.Equal(top.Ports, []int{3, 2, 2, 1}) || top.Label != "links 2-0,0-1,3-0,1-2" {
		t.Errorf("channels %v, ports %v, label %q", top.Edges, top.Ports, top.Label)
	}
}

func TestNewNetworkErrors(t *testing.T) {
	tests := []struct {
		kind  spec.TopologyKind
		n     int
		links [][2]int
		want  string
	}{
		{spec.Graph, 3, [][2]int{{0, 1}, {1, 3}}, "the processes are 0 to 2"},
		{spec.Graph, 3, [][2]int{{0, 1}, {-1, 2}}, "the processes are 0 to 2"},
		{spec.Graph, 3, [][2]int{{0, 1}, {1, 1}, {1, 2}}, "self-loop"},
		{spec.Graph, 3, [][2]int{{0, 1}, {1, 2}, {1, 0}}, "link 1-0 is given twice"},
		{spec.Graph, 4, [][2]int{{0, 1}, {2, 3}}, "not connected: no path from process 0 to 2, 3"},
		{spec.Graph, 2, nil, "not connected"},
		{spec.Tree, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}, "not a tree"},
		{spec.Complete, 3, [][2]int{{0, 1}, {1, 2}}, "not a complete graph"},
		{spec.BiRing, 3, [][2]int{{0, 1}, {1, 2}, {2, 0}}, "not given by its links"},
		{spec.Graph, 0, nil, "1 to 64 processes"},
	}
	for _, tt := range tests {
		_, err := spec.NewNetwork(tt.kind, tt.n, tt.links)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewNetwork(%v, %d, %v): error %v, want %q", tt.kind, tt.n, tt.links, err, tt.want)
		}
	}
}

// The ring of n, as a network of links, is the two-way ring up to the
// numbering of its ports: one of its numberings has NewBiRing's channels
// (in another order), and it is one of the connected graphs.
func TestRingIsAGraph(t *testing.T) {
	for n := 3; n <= 6; n++ {
		var ls [][2]int
		for i := range n {
			ls = append(ls, [2]int{i, (i + 1) % n})
		}
		ring := mustNetwork(spec.Graph, n, ls)
		want := spec.NewBiRing(n).Edges
		found := false
		for _, num := range allNumberings(ring) {
			found = found || sameElements(ring.Renumber(num).Edges, want)
		}
		if !found {
			t.Errorf("n=%d: no numbering of the ring of links is the two-way ring", n)
		}
		perms := permutations(n)
		form, graphs := adjacencyForm(perms, ls), 0
		for _, g := range spec.MustTopologies(spec.Graph, n) {
			if adjacencyForm(perms, linksOf(g)) == form {
				graphs++
			}
		}
		if graphs != 1 {
			t.Errorf("n=%d: the ring is %d of the connected graphs", n, graphs)
		}
	}
}

// sameElements reports whether a and b hold the same distinct channels.
func sameElements(a, b []spec.Edge) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(e spec.Edge) bool { return !slices.Contains(b, e) })
}

func TestKindNames(t *testing.T) {
	for _, name := range spec.KindNames() {
		k, err := spec.ParseTopologyKind(name)
		if err != nil || k.Name() != name {
			t.Errorf("%s: %v, %v", name, k, err)
		}
		if k2, err := spec.ParseTopologyKind(k.String()); err != nil || k2 != k {
			t.Errorf("%s: %v, %v", k, k2, err)
		}
	}
	if got := fmt.Sprint(spec.KindNames()); got != "[uniring biring tree graph complete]" {
		t.Errorf("KindNames %s", got)
	}
}

func TestDiameter(t *testing.T) {
	network := func(k spec.TopologyKind, n int, links [][2]int) spec.Topology {
		top, err := spec.NewNetwork(k, n, links)
		if err != nil {
			t.Fatal(err)
		}
		return top
	}
	tests := []struct {
		top  spec.Topology
		want int
	}{
		{spec.NewUniRing(1), 0},
		{spec.NewUniRing(5), 4}, // one way round
		{spec.NewBiRing(5), 2},
		{network(spec.Tree, 4, [][2]int{{0, 1}, {1, 2}, {2, 3}}), 3},
		{network(spec.Tree, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}}), 2},
		{network(spec.Complete, 4, [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}), 1},
	}
	for _, tt := range tests {
		if got := tt.top.Diameter(); got != tt.want {
			t.Errorf("%v %s: diameter %d, want %d", tt.top.Kind, tt.top.Label, got, tt.want)
		}
	}
}
