package spec

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// MaxNetworkN returns, for a family of two-way-link networks, the most
// processes NewTopologies enumerates (0 for another family). Trees and graphs are enumerated up to
// isomorphism by brute force over the n! relabellings (trees: 23 on 8
// processes, 47 on 9; connected graphs: 112 on 6, 853 on 7, each with
// every id placement and initiator set to check): tree 8 takes 0.2 s,
// graph 6 0.1 s. The complete graph's automorphisms are listed one by one
// (Topology.Automorphisms), n! of them: K_7's 5,040 take 0.5 s and 180 MiB
// of allocation, K_8's 40,320 6 s and 2.7 GiB, too much. A larger network
// is checked given by its links (NewNetwork, the CLI's -graph).
func MaxNetworkN(k TopologyKind) int {
	switch k {
	case Tree:
		return 8
	case Complete:
		return 7
	case Graph:
		return 6
	}
	return 0
}

// NewNetwork returns the network of n processes with the given two-way
// links ({a, b}: processes at positions a and b, 0-based) as an instance
// of family kind (Tree, Graph or Complete). Each link is a channel each
// way; process i's port p leads to its p-th neighbour in increasing
// position (and receives from it on the same port). The channels are
// listed link by link in the order given, a->b then b->a for link {a, b}.
//
// It fails, naming the problem, for a link to a process out of 0..n-1, a
// self-loop, a link given twice, a network that is not connected, or one
// not of the family (a tree has n-1 links, a complete graph every one).
// Symmetries are computed (Generators of PortPreserving); Label lists the
// links for a tree or graph ("links 0-1,1-2"), which names the instance.
func NewNetwork(kind TopologyKind, n int, links [][2]int) (Topology, error) {
	switch {
	case !kind.Linked():
		return Topology{}, fmt.Errorf("a %v is not given by its links", kind)
	case n < 1 || n > maxNodes:
		return Topology{}, fmt.Errorf("a network has 1 to %d processes, not %d", maxNodes, n)
	}
	nbrs := make([][]int, n)
	seen := map[[2]int]bool{}
	for _, l := range links {
		a, b := l[0], l[1]
		switch {
		case a < 0 || a >= n || b < 0 || b >= n:
			return Topology{}, fmt.Errorf("link %d-%d: the processes are 0 to %d", a, b, n-1)
		case a == b:
			return Topology{}, fmt.Errorf("link %d-%d is a self-loop", a, b)
		case seen[[2]int{min(a, b), max(a, b)}]:
			return Topology{}, fmt.Errorf("link %d-%d is given twice", a, b)
		}
		seen[[2]int{min(a, b), max(a, b)}] = true
		nbrs[a], nbrs[b] = append(nbrs[a], b), append(nbrs[b], a)
	}
	if far := unreached(nbrs); len(far) > 0 {
		return Topology{}, fmt.Errorf("the network is not connected: no path from process 0 to %s", joinInts(far))
	}
	switch m := len(links); {
	case kind == Tree && m != n-1:
		return Topology{}, fmt.Errorf("not a tree: %d links on %d processes (a tree has %d, no cycle)", m, n, n-1)
	case kind == Complete && m != n*(n-1)/2:
		return Topology{}, fmt.Errorf("not a complete graph: %d links on %d processes (K_%d has %d)", m, n, n, n*(n-1)/2)
	}
	t := Topology{Kind: kind, N: n, Ports: make([]int, n)}
	for i := range nbrs {
		slices.Sort(nbrs[i])
		t.Ports[i] = len(nbrs[i])
	}
	port := func(at, to int) Port { p, _ := slices.BinarySearch(nbrs[at], to); return Port(p) }
	var names []string
	for _, l := range links {
		a, b := Endpoint{l[0], port(l[0], l[1])}, Endpoint{l[1], port(l[1], l[0])}
		t.Edges = append(t.Edges, Edge{From: a, To: b}, Edge{From: b, To: a})
		names = append(names, fmt.Sprintf("%d-%d", l[0], l[1]))
	}
	if kind != Complete && n > 1 {
		t.Label = "links " + strings.Join(names, ",")
	}
	if err := t.Validate(); err != nil {
		return Topology{}, err
	}
	t.Symmetries = Generators(t.PortPreserving())
	return t, nil
}

// unreached returns the processes no path of links leads to from 0.
func unreached(nbrs [][]int) []int {
	seen := make([]bool, len(nbrs))
	seen[0] = true
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range nbrs[i] {
			if !seen[j] {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	var far []int
	for i, s := range seen {
		if !s {
			far = append(far, i)
		}
	}
	return far
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// networks returns the instances of a family of two-way-link networks
// (NewTopologies). Every connected graph on n processes comes from one on
// n-1 by adding a process linked to some of them (remove a process whose
// removal leaves the rest connected: a leaf of a spanning tree), and every
// tree from a tree by adding a leaf; so each size is grown from the one
// before and kept in canonical form (canonicalCode), one per class.
//
// The order, which configuration indices follow: by number of links,
// then by canonical code, greatest first. The trees on n processes are
// thus the connected graphs with the fewest links, in the same order and
// with the same channels.
func networks(k TopologyKind, n int) ([]Topology, error) {
	if limit := MaxNetworkN(k); n > limit {
		return nil, fmt.Errorf("every %v on %d processes is more than elcheck enumerates (at most %d): check one network given by its links (-graph)", k, n, limit)
	}
	if k == Complete {
		var links [][2]int
		for a := range n {
			for b := a + 1; b < n; b++ {
				links = append(links, [2]int{a, b})
			}
		}
		t, err := NewNetwork(Complete, n, links)
		return []Topology{t}, err
	}
	codes := []uint64{0} // the one network of 1 process
	for m := 2; m <= n; m++ {
		seen := map[uint64]bool{}
		var next []uint64
		for _, c := range codes {
			links := codeLinks(m-1, c)
			for s := uint64(1); s < 1<<(m-1); s++ {
				if k == Tree && bits.OnesCount64(s) != 1 {
					continue
				}
				grown := slices.Clone(links)
				for a := range m - 1 {
					if s&(1<<a) != 0 {
						grown = append(grown, [2]int{a, m - 1})
					}
				}
				if cc := canonicalCode(m, grown); !seen[cc] {
					seen[cc] = true
					next = append(next, cc)
				}
			}
		}
		codes = next
	}
	slices.SortFunc(codes, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(bits.OnesCount64(a), bits.OnesCount64(b)), cmp.Compare(b, a))
	})
	ts := make([]Topology, len(codes))
	for i, c := range codes {
		t, err := NewNetwork(k, n, codeLinks(n, c))
		if err != nil {
			return nil, err
		}
		ts[i] = t
	}
	return ts, nil
}

// pairBit is the bit of link {a, b} (a < b) in a code of n processes: the
// pairs in lexicographic order, {0, 1} the most significant.
func pairBit(n, a, b int) uint64 {
	idx := a*n - a*(a+1)/2 + b - a - 1
	return 1 << (n*(n-1)/2 - 1 - idx)
}

// codeLinks lists the links of a code, in lexicographic order.
func codeLinks(n int, code uint64) [][2]int {
	var links [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			if code&pairBit(n, a, b) != 0 {
				links = append(links, [2]int{a, b})
			}
		}
	}
	return links
}

// canonicalCode is the greatest code of the network over every
// relabelling of its processes: two networks are isomorphic exactly when
// their canonical codes are equal. n! relabellings, each costing one step
// per link: brute force, fine to 8 processes.
func canonicalCode(n int, links [][2]int) uint64 {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	var best uint64
	for {
		var c uint64
		for _, l := range links {
			a, b := perm[l[0]], perm[l[1]]
			c |= pairBit(n, min(a, b), max(a, b))
		}
		best = max(best, c)
		if !nextPerm(perm) {
			return best
		}
	}
}

// Diameter returns the largest distance between two processes, in
// channels: the D of a tree election's time bound, 3D + 1.
func (t Topology) Diameter() int {
	adj := make([][]int, t.N)
	for _, e := range t.Edges {
		adj[e.From.Node] = append(adj[e.From.Node], e.To.Node)
	}
	d := 0
	for s := range t.N {
		dist := make([]int, t.N)
		for i := range dist {
			dist[i] = -1
		}
		dist[s] = 0
		for queue := []int{s}; len(queue) > 0; queue = queue[1:] {
			v := queue[0]
			for _, w := range adj[v] {
				if dist[w] < 0 {
					dist[w] = dist[v] + 1
					d = max(d, dist[w])
					queue = append(queue, w)
				}
			}
		}
	}
	return d
}
