package spec

import (
	"fmt"
	"math/bits"
	"strings"
)

// TopologyKind names a topology family.
type TopologyKind uint8

const (
	// UniRing is a unidirectional ring: process i sends on port 0 to
	// process i+1 mod n, which receives it on its port 0.
	UniRing TopologyKind = iota
	// BiRing is a two-way ring: process i has port 0 toward i+1 mod n
	// and port 1 toward i-1 mod n (an oriented ring: port 0 leads
	// clockwise everywhere), with a channel each way between neighbours.
	// Topology.Numberings gives the unoriented rings.
	BiRing
	// Tree is every tree on n processes, up to isomorphism; Graph every
	// connected graph, Complete the complete graph: networks of two-way
	// links (NewNetwork), each link a channel each way, ports numbered at
	// each process in the order of its neighbours' positions.
	Tree
	// Graph is every connected graph on n processes, up to isomorphism
	// (the trees and the rings among them).
	Graph
	// Complete is the complete graph K_n: one instance.
	Complete

	lastKind = Complete
)

// String returns the family's name.
func (k TopologyKind) String() string {
	switch k {
	case UniRing:
		return "unidirectional ring"
	case BiRing:
		return "bidirectional ring"
	case Tree:
		return "tree"
	case Graph:
		return "connected graph"
	case Complete:
		return "complete graph"
	}
	return fmt.Sprintf("topology(%d)", uint8(k))
}

// Name returns the family's short name, as the CLI's -topology takes it:
// uniring, biring, tree, graph or complete.
func (k TopologyKind) Name() string {
	switch k {
	case UniRing:
		return "uniring"
	case BiRing:
		return "biring"
	case Graph:
		return "graph"
	case Complete:
		return "complete"
	}
	return k.String()
}

// Endpoint is one end of a channel: a process (by its position, which only
// the explorer sees) and one of its ports.
type Endpoint struct {
	Node int
	Port Port
}

// Edge is a directed channel.
type Edge struct {
	From, To Endpoint
}

// Perm is a topology automorphism: Node[i] is where process i goes, and
// Port[i][p] is where its port p goes (a port of process Node[i]).
// Rotations of a ring keep ports; reflections of a two-way ring swap them
// (see Topology.Automorphisms for which the explorer may use).
type Perm struct {
	Node []int
	Port [][]Port
}

// Topology is a concrete network of n processes: one instance of a
// family. A space of configurations may hold several instances (every
// tree on n nodes, say), each with its own automorphisms.
type Topology struct {
	Kind TopologyKind
	N    int
	// Edges lists the channels in a fixed order; the explorer indexes
	// channels by position in this slice.
	Edges []Edge
	// Ports[i] is the number of ports of process i.
	Ports []int
	// Symmetries generate the automorphisms the properties may rely on
	// (uniformity): Generators of PortPreserving, computed by the
	// constructors, never assumed (for a ring, the rotation by one). The
	// uniformity self-check tries each, so few is cheap.
	Symmetries []Perm
	// Label tells a person how this instance differs from its family's
	// first, "" for that one: "ports swapped at p1, p3" for a two-way ring
	// renumbered by Numberings.
	Label string
}

// NewUniRing returns the unidirectional ring of n processes (1 to 64; it
// panics otherwise: NewTopology returns the error).
func NewUniRing(n int) Topology {
	t := Topology{Kind: UniRing, N: n, Ports: make([]int, n)}
	for i := range n {
		t.Ports[i] = 1
		t.Edges = append(t.Edges, Edge{From: Endpoint{i, 0}, To: Endpoint{(i + 1) % n, 0}})
	}
	if err := t.Validate(); err != nil {
		panic(err)
	}
	t.Symmetries = Generators(t.PortPreserving())
	return t
}

// NewBiRing returns the oriented two-way ring of n processes (1 to 64; it
// panics otherwise: NewTopology returns the error). Process i's port 0
// leads to i+1 and its port 1 to i-1; the channels are listed as, for each
// i, the one out of port 0, then the one out of port 1. A ring of 2 has two
// channels each way between its processes, one per side; a ring of 1 sends
// to itself, out of either port into the other.
func NewBiRing(n int) Topology {
	t := Topology{Kind: BiRing, N: n, Ports: make([]int, n)}
	for i := range n {
		t.Ports[i] = 2
		t.Edges = append(t.Edges,
			Edge{From: Endpoint{i, 0}, To: Endpoint{(i + 1) % n, 1}},
			Edge{From: Endpoint{i, 1}, To: Endpoint{(i + n - 1) % n, 0}})
	}
	if err := t.Validate(); err != nil {
		panic(err)
	}
	t.Symmetries = Generators(t.PortPreserving())
	return t
}

// NewTopologies returns the instances of family k with n processes, in a
// fixed order (a space enumerates them in it): one for a ring or a
// complete graph; for trees and connected graphs, one per isomorphism
// class in the order of Networks. An unknown family, or a size out of
// range or beyond what elcheck enumerates (MaxNetworkN), is an error.
func NewTopologies(k TopologyKind, n int) ([]Topology, error) {
	if n < 1 || n > maxNodes {
		return nil, fmt.Errorf("a %v has 1 to %d processes, not %d", k, maxNodes, n)
	}
	switch k {
	case UniRing:
		return []Topology{NewUniRing(n)}, nil
	case BiRing:
		return []Topology{NewBiRing(n)}, nil
	case Tree, Graph, Complete:
		return networks(k, n)
	}
	return nil, fmt.Errorf("unknown topology %v", k)
}

// MustTopologies is NewTopologies for arguments known to be right (tests,
// constants): it panics on an error.
func MustTopologies(k TopologyKind, n int) []Topology {
	ts, err := NewTopologies(k, n)
	if err != nil {
		panic(err)
	}
	return ts
}

// NewTopology returns the topology of a family with one instance per size
// (a ring), or an error: for an unknown family, a size out of range, or a
// family with several instances.
func NewTopology(k TopologyKind, n int) (Topology, error) {
	ts, err := NewTopologies(k, n)
	if err != nil {
		return Topology{}, err
	}
	if len(ts) != 1 {
		return Topology{}, fmt.Errorf("%v has %d instances with %d processes, not one", k, len(ts), n)
	}
	return ts[0], nil
}

// ParseTopologyKind reads a family's name as TopologyKind.String writes
// it ("bidirectional ring", in reports and trace files) or its short Name
// ("biring").
func ParseTopologyKind(s string) (TopologyKind, error) {
	for k := UniRing; k <= lastKind; k++ {
		if k.String() == s || k.Name() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("unknown topology %q: use %s", s, strings.Join(KindNames(), ", "))
}

// Families returns the families a protocol declared on k runs on: k
// first, then, for Graph, the families every network of which is a
// connected graph (Tree, Complete): a protocol that assumes only a
// connected network of two-way links runs on every one. (The rings are
// among the connected graphs, and elcheck covers them there; BiRing's
// rings of 1 and 2 are not simple graphs.)
func (k TopologyKind) Families() []TopologyKind {
	if k == Graph {
		return []TopologyKind{Graph, Tree, Complete}
	}
	return []TopologyKind{k}
}

// Linked reports whether k's networks are given by their links
// (NewNetwork): Tree, Graph, Complete.
func (k TopologyKind) Linked() bool { return k == Tree || k == Graph || k == Complete }

// KindNames lists every family's short Name, in TopologyKind order.
func KindNames() []string {
	var names []string
	for k := UniRing; k <= lastKind; k++ {
		names = append(names, k.Name())
	}
	return names
}

// Channels is a channel semantics.
type Channels uint8

const (
	// FIFO channels deliver in the order of sending.
	FIFO Channels = iota
	// Bag channels deliver their contents in any order.
	Bag
)

// String returns "fifo" or "bag".
func (c Channels) String() string {
	if c == Bag {
		return "bag"
	}
	return "fifo"
}

// ParseChannels reads "fifo" or "bag".
func ParseChannels(s string) (Channels, error) {
	switch strings.ToLower(s) {
	case "fifo":
		return FIFO, nil
	case "bag":
		return Bag, nil
	}
	return 0, fmt.Errorf("unknown channel semantics %q: use fifo or bag", s)
}

// Set is a set of process positions (at most 64).
type Set uint64

// Has reports whether position i is in the set.
func (s Set) Has(i int) bool { return s&(1<<uint(i)) != 0 }

// With returns the set with i added.
func (s Set) With(i int) Set { return s | 1<<uint(i) }

// Len returns the number of members.
func (s Set) Len() int { return bits.OnesCount64(uint64(s)) }

// All returns the set {0, ..., n-1}.
func All(n int) Set { return Set(1<<uint(n) - 1) }

// Members lists the positions in ascending order.
func (s Set) Members() []int {
	var m []int
	for i := 0; s>>uint(i) != 0; i++ {
		if s.Has(i) {
			m = append(m, i)
		}
	}
	return m
}

// Config is one configuration of a protocol: the topology, the identity at
// each position, the initiators and the channel semantics.
type Config struct {
	Topology   Topology
	IDs        []ID
	Initiators Set
	Channels   Channels
	// Capacity bounds every channel to that many messages; 0 is
	// unbounded. A process whose send finds its channel full blocks, its
	// remaining sends held in order, until the receiver makes room
	// (as Afek-Gafni's implementation in the notes on its algorithm B;
	// docs/semantics.md).
	Capacity int
}

// String renders the configuration on one line.
func (c Config) String() string {
	label := ""
	if c.Topology.Label != "" {
		label = " (" + c.Topology.Label + ")"
	}
	capacity := ""
	if c.Capacity > 0 {
		capacity = fmt.Sprintf(" of capacity %d", c.Capacity)
	}
	return fmt.Sprintf("%s of %d%s, ids %v (by position), initiators %v, %s channels%s",
		c.Topology.Kind, c.Topology.N, label, c.IDs, c.Initiators.Members(), c.Channels, capacity)
}
