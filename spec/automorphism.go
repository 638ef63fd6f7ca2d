package spec

import (
	"fmt"
	"slices"
)

// maxNodes is the most processes a topology may have: initiator and
// wake-up sets are 64-bit masks.
const maxNodes = 64

// Validate checks that t is a network the explorer can run: 1 to 64
// processes, a port count for each, channels between existing ports, and
// at most one channel out of and one into each port (a send names a port,
// and so does a delivery).
func (t Topology) Validate() error {
	if t.N < 1 || t.N > maxNodes {
		return fmt.Errorf("a topology has 1 to %d processes, not %d", maxNodes, t.N)
	}
	if len(t.Ports) != t.N {
		return fmt.Errorf("%d port counts for %d processes", len(t.Ports), t.N)
	}
	out, in := map[Endpoint]bool{}, map[Endpoint]bool{}
	for e, ed := range t.Edges {
		for _, end := range []Endpoint{ed.From, ed.To} {
			if end.Node < 0 || end.Node >= t.N || int(end.Port) >= t.Ports[end.Node] {
				return fmt.Errorf("channel %d: no port %d at process %d", e, end.Port, end.Node)
			}
		}
		if out[ed.From] || in[ed.To] {
			return fmt.Errorf("channel %d: a second channel out of %v or into %v", e, ed.From, ed.To)
		}
		out[ed.From], in[ed.To] = true, true
	}
	return nil
}

// Automorphisms returns every automorphism of the port-labelled network:
// a bijection σ of the processes with, for each process i, a bijection π_i
// of its ports onto the ports of σ(i) (so port counts are preserved), such
// that a channel (i,p)->(j,q) exists iff (σi, π_i(p))->(σj, π_j(q)) does.
// The identity comes first; the order is lexicographic by Node, then Port.
// A topology that does not Validate has none (nil).
//
// Ports may move: on a two-way ring a reflection swaps every process's two
// ports, and this group holds it (2n elements). But a process's behaviour
// may depend on its port numbers (send on port 0, "a message on port 1
// came from the left"), so a placement and its image under an automorphism
// that moves ports are not equivalent: the process at σ(i) holds the same
// id and local state as the one at i, yet receives on π_i(p) what the other
// received on p. The explorer therefore uses only PortPreserving, the
// subgroup where every π_i is the identity (each channel keeps its
// (from-port, to-port) pair); on the one-way ring, where every process has
// one port, the two groups are the same. Using reflections would need a
// protocol that declares itself indifferent to port numbers.
//
// The search maps one process, then follows channels: fixing σ and π_i on
// one port of i fixes the far end of its channels, so a connected network
// branches only where a process has several ports still unmapped. Rings of
// 16 take microseconds. The result lists every element, (n-1)! for a
// star and n! for the complete graph: measured, a star of 7 (720) takes
// 1 ms, K_6 (720) 20 ms, K_7 (5,040) 0.5 s and 180 MiB of allocation,
// K_8 (40,320) 6 s and 2.7 GiB, which is why NewTopologies stops the
// complete graphs at 7 (MaxNetworkN); larger groups would need
// generators and a canonical-form search instead.
func (t Topology) Automorphisms() []Perm {
	if t.Validate() != nil {
		return nil
	}
	a := newAutSearch(t)
	a.search()
	slices.SortFunc(a.found, comparePerms)
	return a.found
}

// PortPreserving returns the automorphisms that keep every port number
// (see Automorphisms): the group under which id placements are
// interchangeable, and which Symmetries generate. Distinct elements move
// the processes differently, since their ports are all fixed.
func (t Topology) PortPreserving() []Perm {
	var g []Perm
	for _, p := range t.Automorphisms() {
		if p.KeepsPorts() {
			g = append(g, p)
		}
	}
	return g
}

// KeepsPorts reports whether p maps every port to the same number.
func (p Perm) KeepsPorts() bool {
	for _, ports := range p.Port {
		for q, to := range ports {
			if Port(q) != to {
				return false
			}
		}
	}
	return true
}

// IsIdentity reports whether p moves no process and no port.
func (p Perm) IsIdentity() bool {
	for i, to := range p.Node {
		if to != i {
			return false
		}
	}
	return p.KeepsPorts()
}

// Compose returns p after q: process i goes to p.Node[q.Node[i]], its port
// x to p.Port[q.Node[i]][q.Port[i][x]].
func (p Perm) Compose(q Perm) Perm {
	r := Perm{Node: make([]int, len(q.Node)), Port: make([][]Port, len(q.Port))}
	for i, j := range q.Node {
		r.Node[i] = p.Node[j]
		r.Port[i] = make([]Port, len(q.Port[i]))
		for x, y := range q.Port[i] {
			r.Port[i][x] = p.Port[j][y]
		}
	}
	return r
}

// key identifies a Perm in maps.
func (p Perm) key() string {
	b := make([]byte, 0, 2*len(p.Node))
	for i, to := range p.Node {
		b = append(b, byte(to))
		for _, x := range p.Port[i] {
			b = append(b, byte(x))
		}
	}
	return string(b)
}

// Generators returns a small generating set of the group g (as
// Automorphisms or PortPreserving list it): greedily, each element not yet
// in the subgroup generated so far, in g's order. Each one added at least
// doubles that subgroup, so there are at most log2 |g| of them; for a ring
// the first, the rotation by one, generates everything. The identity is
// never a generator: the trivial group has none.
func Generators(g []Perm) []Perm {
	var gens []Perm
	have := map[string]bool{}
	for _, p := range g {
		if p.IsIdentity() || have[p.key()] {
			continue
		}
		gens = append(gens, p)
		have = closure(gens)
	}
	return gens
}

// closure returns the keys of the group gens generate (finite, so the
// closure under products is the group).
func closure(gens []Perm) map[string]bool {
	id := identity(gens[0])
	have := map[string]bool{id.key(): true}
	queue := []Perm{id}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, g := range gens {
			q := g.Compose(p)
			if k := q.key(); !have[k] {
				have[k] = true
				queue = append(queue, q)
			}
		}
	}
	return have
}

// identity returns the identity with the shape of p.
func identity(p Perm) Perm {
	id := Perm{Node: make([]int, len(p.Node)), Port: make([][]Port, len(p.Port))}
	for i := range p.Node {
		id.Node[i] = i
		id.Port[i] = make([]Port, len(p.Port[i]))
		for x := range id.Port[i] {
			id.Port[i][x] = Port(x)
		}
	}
	return id
}

// comparePerms orders automorphisms by Node, then Port, lexicographically.
func comparePerms(a, b Perm) int {
	if c := slices.Compare(a.Node, b.Node); c != 0 {
		return c
	}
	for i := range a.Port {
		if c := slices.Compare(a.Port[i], b.Port[i]); c != 0 {
			return c
		}
	}
	return 0
}

// autSearch is the backtracking search of Automorphisms.
type autSearch struct {
	t Topology
	// out[i][p] and in[i][p] are the far ends of the channel out of and
	// into port p of process i; Node -1 if there is none.
	out, in [][]Endpoint
	found   []Perm
}

func newAutSearch(t Topology) *autSearch {
	a := &autSearch{t: t, out: make([][]Endpoint, t.N), in: make([][]Endpoint, t.N)}
	for i := range t.N {
		a.out[i] = slices.Repeat([]Endpoint{{Node: -1}}, t.Ports[i])
		a.in[i] = slices.Repeat([]Endpoint{{Node: -1}}, t.Ports[i])
	}
	for _, ed := range t.Edges {
		a.out[ed.From.Node][ed.From.Port] = ed.To
		a.in[ed.To.Node][ed.To.Port] = ed.From
	}
	return a
}

// partial is a partial automorphism: node[i] and port[i][p] are -1 where
// not yet chosen; usedNode and usedPort mark the images taken.
type partial struct {
	node     []int
	port     [][]int
	usedNode []bool
	usedPort [][]bool
}

func (a *autSearch) search() {
	t := a.t
	m := &partial{node: slices.Repeat([]int{-1}, t.N), port: make([][]int, t.N), usedNode: make([]bool, t.N), usedPort: make([][]bool, t.N)}
	for i := range t.N {
		m.port[i] = slices.Repeat([]int{-1}, t.Ports[i])
		m.usedPort[i] = make([]bool, t.Ports[i])
	}
	a.extend(m)
}

func (m *partial) clone() *partial {
	c := &partial{node: slices.Clone(m.node), usedNode: slices.Clone(m.usedNode), port: make([][]int, len(m.port)), usedPort: make([][]bool, len(m.usedPort))}
	for i := range m.port {
		c.port[i] = slices.Clone(m.port[i])
		c.usedPort[i] = slices.Clone(m.usedPort[i])
	}
	return c
}

// extend branches on the first choice left: an unmapped port of a mapped
// process, else an unmapped process (a new connected component).
func (a *autSearch) extend(m *partial) {
	for i, to := range m.node {
		if to < 0 {
			continue
		}
		for p, b := range m.port[i] {
			if b >= 0 {
				continue
			}
			for b := range m.usedPort[to] {
				if m.usedPort[to][b] {
					continue
				}
				if c := m.clone(); a.mapPort(c, i, p, b) {
					a.extend(c)
				}
			}
			return
		}
	}
	for i, to := range m.node {
		if to >= 0 {
			continue
		}
		for j := range m.usedNode {
			if c := m.clone(); !m.usedNode[j] && a.mapNode(c, i, j) {
				a.extend(c)
			}
		}
		return
	}
	// Everything is mapped, and every port's channels were matched as it
	// was: an automorphism.
	p := Perm{Node: m.node, Port: make([][]Port, len(m.port))}
	for i, ports := range m.port {
		p.Port[i] = make([]Port, len(ports))
		for x, y := range ports {
			p.Port[i][x] = Port(y)
		}
	}
	a.found = append(a.found, p)
}

// mapNode sets σ(i) = j, reporting false if that contradicts m.
func (a *autSearch) mapNode(m *partial, i, j int) bool {
	switch {
	case m.node[i] == j:
		return true
	case m.node[i] >= 0 || m.usedNode[j] || a.t.Ports[i] != a.t.Ports[j]:
		return false
	}
	m.node[i], m.usedNode[j] = j, true
	return true
}

// mapPort sets π_i(p) = b (σ(i) being set) and follows the channels out of
// and into (i,p) to their far ends, which must map to the far ends of the
// channels of (σi, b): reporting false on a contradiction.
func (a *autSearch) mapPort(m *partial, i, p, b int) bool {
	type task struct{ i, p, b int }
	todo := []task{{i, p, b}}
	for len(todo) > 0 {
		k := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		to := m.node[k.i]
		switch {
		case m.port[k.i][k.p] == k.b:
			continue
		case m.port[k.i][k.p] >= 0 || m.usedPort[to][k.b]:
			return false
		}
		m.port[k.i][k.p], m.usedPort[to][k.b] = k.b, true
		for _, far := range [][][]Endpoint{a.out, a.in} {
			x, y := far[k.i][k.p], far[to][k.b]
			if (x.Node < 0) != (y.Node < 0) {
				return false
			}
			if x.Node < 0 {
				continue
			}
			if !a.mapNode(m, x.Node, y.Node) {
				return false
			}
			todo = append(todo, task{x.Node, int(x.Port), int(y.Port)})
		}
	}
	return true
}
