package configs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

func TestSpaceCount(t *testing.T) {
	tests := []struct {
		space Space
		want  int
	}{
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 1)}, 1},
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 3)}, 2 * 7},
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 5)}, 24 * 31},
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 7)}, 720 * 127}, // 91,440: one SPIN run each
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 5), IDs: []spec.ID{1, 2, 3, 4, 5}}, 31},
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 5), Initiators: 3}, 24},
		{Space{Topologies: spec.MustTopologies(spec.UniRing, 5), IDs: []spec.ID{1, 2, 3, 4, 5}, Initiators: 3}, 1},
	}
	for _, tt := range tests {
		got := 0
		seen := map[string]bool{}
		for cfg := range tt.space.Configs() {
			got++
			key := spec.Config{IDs: cfg.IDs, Initiators: cfg.Initiators}.String()
			if seen[key] {
				t.Errorf("%+v: configuration %s enumerated twice", tt.space, key)
			}
			seen[key] = true
			if cfg.Initiators == 0 || cfg.IDs[0] != 1 && tt.space.IDs == nil {
				t.Errorf("%+v: bad configuration %s", tt.space, key)
			}
		}
		if got != tt.want || tt.space.Count() != tt.want {
			t.Errorf("%+v: enumerated %d, Count %d, want %d", tt.space, got, tt.space.Count(), tt.want)
		}
	}
}

// The shards of a space are disjoint, cover it, and keep the enumeration
// index of every configuration.
func TestShardsPartitionTheSpace(t *testing.T) {
	whole := Space{Topologies: spec.MustTopologies(spec.UniRing, 4)}
	var all []int
	for k := range whole.Indexed() {
		all = append(all, k)
	}
	for _, shards := range []int{1, 2, 3, 7, 200} {
		seen := make([]int, len(all))
		for i := range shards {
			sp := whole
			sp.Shard, sp.Shards = i, shards
			count := 0
			for k := range sp.Indexed() {
				seen[k]++
				count++
			}
			if count != sp.Count() {
				t.Errorf("shard %d/%d: enumerated %d, Count %d", i, shards, count, sp.Count())
			}
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: configuration %d seen %d times", shards, k, c)
			}
		}
	}
}

// links is the network of two-way links ls (spec.NewNetwork), known to
// be right.
func links(n int, ls [][2]int) spec.Topology {
	t, err := spec.NewNetwork(spec.Graph, n, ls)
	if err != nil {
		panic(err)
	}
	return t
}

// twice is two disjoint copies of t (not connected: no NewNetwork).
func twice(t spec.Topology) spec.Topology {
	d := spec.Topology{N: 2 * t.N, Ports: append(slices.Clone(t.Ports), t.Ports...), Edges: slices.Clone(t.Edges)}
	for _, e := range t.Edges {
		e.From.Node += t.N
		e.To.Node += t.N
		d.Edges = append(d.Edges, e)
	}
	return d
}

// allPerms returns every permutation of 1..n as ids, in lexicographic
// order.
func allPerms(n int) [][]spec.ID {
	ids := make([]spec.ID, n)
	for i := range ids {
		ids[i] = spec.ID(i + 1)
	}
	var out [][]spec.ID
	for {
		out = append(out, slices.Clone(ids))
		if !NextPermutation(ids) {
			return out
		}
	}
}

// bruteSymmetries finds, among all n! process bijections, those that keep
// port counts and map every channel (i,p)->(j,q) to a channel
// (σi,p)->(σj,q): the port-preserving automorphisms, independently of
// spec's search.
func bruteSymmetries(t spec.Topology) [][]int {
	chans := map[spec.Edge]bool{}
	for _, e := range t.Edges {
		chans[e] = true
	}
	var out [][]int
	for _, p := range allPerms(t.N) {
		sigma := make([]int, t.N)
		ok := true
		for i, x := range p {
			sigma[i] = int(x) - 1
			ok = ok && t.Ports[i] == t.Ports[sigma[i]]
		}
		for _, e := range t.Edges {
			ok = ok && chans[spec.Edge{From: spec.Endpoint{Node: sigma[e.From.Node], Port: e.From.Port}, To: spec.Endpoint{Node: sigma[e.To.Node], Port: e.To.Port}}]
		}
		if ok {
			out = append(out, sigma)
		}
	}
	return out
}

// The placements enumerated are one per orbit of the brute-force
// automorphism group, each the least of its orbit, in lexicographic
// order; Count agrees; and without reduction every placement comes.
func TestPlacementsUpToAutomorphisms(t *testing.T) {
	type tc struct {
		name string
		top  spec.Topology
		want int // orbits, worked out by hand
	}
	var tests []tc
	for n := 1; n <= 6; n++ {
		f := 1
		for k := 2; k < n; k++ {
			f *= k
		}
		tests = append(tests, tc{fmt.Sprintf("uniring-%d", n), spec.NewUniRing(n), f})
	}
	tests = append(tests,
		tc{"path-4", links(4, [][2]int{{0, 1}, {1, 2}, {2, 3}}), 24},                    // ports number the middle's links: no symmetry keeps them
		tc{"star-3", links(4, [][2]int{{0, 1}, {0, 2}, {0, 3}}), 24},                    // the centre's ports tell its leaves apart
		tc{"triangle-tail", links(4, [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 3}}), 24},     // as for the star
		tc{"symmetric-path-3", links(3, [][2]int{{1, 0}, {1, 2}}), 6},                   // 0 and 2 on the middle's ports 0 and 1: still asymmetric
		tc{"two-way-ring-5", spec.NewBiRing(5), 24},                                     // rotations only: a reflection swaps ports
		tc{"two-triangles", twice(links(3, [][2]int{{0, 1}, {1, 2}, {2, 0}})), 720 / 2}, // swapping them keeps ports; rotating one does not
	)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			group := bruteSymmetries(tt.top)
			canon := func(ids []spec.ID) string {
				best := slices.Clone(ids)
				for _, s := range group {
					img := make([]spec.ID, len(ids))
					for i, x := range ids {
						img[s[i]] = x
					}
					if slices.Compare(img, best) < 0 {
						best = img
					}
				}
				return fmt.Sprint(best)
			}
			orbits := map[string]bool{}
			for _, p := range allPerms(tt.top.N) {
				orbits[canon(p)] = true
			}
			sp := Space{Topologies: []spec.Topology{tt.top}, Initiators: 1}
			var got [][]spec.ID
			for cfg := range sp.Configs() {
				got = append(got, cfg.IDs)
			}
			if len(got) != len(orbits) || len(got) != tt.want || sp.Count() != tt.want {
				t.Errorf("%d placements enumerated, Count %d, %d orbits by brute force, %d by hand", len(got), sp.Count(), len(orbits), tt.want)
			}
			for k, ids := range got {
				if canon(ids) != fmt.Sprint(ids) {
					t.Errorf("%v is not the least of its orbit (%s)", ids, canon(ids))
				}
				if k > 0 && slices.Compare(got[k-1], ids) >= 0 {
					t.Errorf("%v after %v: not in lexicographic order", ids, got[k-1])
				}
			}
			sp.AllPlacements = true
			if c := sp.Count(); c != len(allPerms(tt.top.N)) {
				t.Errorf("AllPlacements: Count %d", c)
			}
			sp.AllPlacements, sp.IDs = false, allPerms(tt.top.N)[len(allPerms(tt.top.N))-1]
			if c := sp.Count(); c != 1 {
				t.Errorf("fixed ids: Count %d", c)
			}
		})
	}
}

// The ring's placements are exactly the sequence elcheck has always
// enumerated (id 1 at position 0, the rest in lexicographic order), with
// the same indices: golden counterexamples and shard merging rely on it.
func TestRingPlacementsUnchanged(t *testing.T) {
	for n := 1; n <= 7; n++ {
		ids := make([]spec.ID, n)
		for i := range ids {
			ids[i] = spec.ID(i + 1)
		}
		var want []string
		for {
			for init := spec.Set(1); init <= spec.All(n); init++ {
				want = append(want, fmt.Sprint(ids, init))
			}
			if !NextPermutation(ids[1:]) {
				break
			}
		}
		sp, err := NewSpace(spec.UniRing, n)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for k, cfg := range sp.Indexed() {
			if k != len(got) {
				t.Fatalf("n=%d: index %d at position %d", n, k, len(got))
			}
			got = append(got, fmt.Sprint(cfg.IDs, cfg.Initiators))
		}
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: %d configurations, want %d, or another order", n, len(got), len(want))
		}
	}
}

// A space of several instances numbers its configurations over instance,
// placement, initiator set, and its shards still partition it.
func TestSpaceOfSeveralTopologies(t *testing.T) {
	sp := Space{Topologies: []spec.Topology{spec.NewUniRing(4), links(4, [][2]int{{0, 1}, {1, 2}, {2, 3}})}}
	want := 6*15 + 24*15
	if c := sp.Count(); c != want {
		t.Fatalf("Count %d, want %d", c, want)
	}
	k := 0
	for i, cfg := range sp.Indexed() {
		if i != k {
			t.Fatalf("index %d at position %d", i, k)
		}
		if wantRing := k < 6*15; (cfg.Topology.Kind == spec.UniRing && len(cfg.Topology.Edges) == 4) != wantRing {
			t.Fatalf("configuration %d on the wrong topology", k)
		}
		k++
	}
	for _, shards := range []int{2, 7} {
		seen := 0
		for i := range shards {
			part := sp
			part.Shard, part.Shards = i, shards
			n := 0
			for range part.Indexed() {
				n++
			}
			if n != part.Count() {
				t.Errorf("shard %d/%d: %d enumerated, Count %d", i, shards, n, part.Count())
			}
			seen += n
		}
		if seen != want {
			t.Errorf("%d shards cover %d configurations", shards, seen)
		}
	}
}

func TestNewSpaceErrors(t *testing.T) {
	for _, tt := range []struct {
		k spec.TopologyKind
		n int
	}{{spec.UniRing, 0}, {spec.UniRing, 65}, {spec.TopologyKind(9), 4}, {spec.Graph, 7}, {spec.Tree, 9}, {spec.Complete, 8}} {
		if _, err := NewSpace(tt.k, tt.n); err == nil {
			t.Errorf("NewSpace(%v, %d): no error", tt.k, tt.n)
		}
	}
}

// AnyPorts covers every orientation of a two-way ring: 2^n (n-1)!/2
// placements over its instances for n >= 3, each instance's placements
// up to its own group; it refuses a ring whose processes have one port.
func TestAnyPorts(t *testing.T) {
	for n := 1; n <= 6; n++ {
		sp, err := NewSpace(spec.BiRing, n)
		if err != nil {
			t.Fatal(err)
		}
		sp.Initiators = 1
		fixed := sp.Count()
		if err := sp.AnyPorts(); err != nil {
			t.Fatal(err)
		}
		got, seen := 0, map[string]bool{}
		for cfg := range sp.Configs() {
			got++
			key := fmt.Sprint(cfg.Topology.Edges, cfg.IDs)
			if seen[key] {
				t.Errorf("n=%d: %s twice", n, cfg)
			}
			seen[key] = true
		}
		f := 1
		for k := 2; k < n; k++ {
			f *= k
		}
		if got != sp.Count() || fixed != f || (n >= 3 && got != (1<<n)*f/2) {
			t.Errorf("n=%d: %d configurations, Count %d, %d with port 0 clockwise", n, got, sp.Count(), fixed)
		}
	}
	sp, _ := NewSpace(spec.UniRing, 4)
	if err := sp.AnyPorts(); err == nil || !strings.Contains(err.Error(), "one port") {
		t.Errorf("one-way ring: %v", err)
	}
}

// Over every network of a family and every numbering of its ports, the
// placements are one per class of (network, numbering, placement) triples
// up to isomorphism. Ids are distinct, so naming each process by its id
// gives a triple's class a unique labelled, numbered network: the classes
// are the labelled numbered networks, counted by brute force over every
// labelled network (each has the product of its degrees' factorials
// numberings). The configurations enumerated name distinct ones.
func TestNetworkPlacementsAgainstBruteForce(t *testing.T) {
	tests := []struct {
		kind spec.TopologyKind
		maxN int
	}{{spec.Tree, 5}, {spec.Graph, 4}, {spec.Complete, 4}}
	for _, tt := range tests {
		for n := 1; n <= tt.maxN; n++ {
			sp, err := NewSpace(tt.kind, n)
			if err != nil {
				t.Fatal(err)
			}
			sp.Initiators = 1
			if err := sp.AnyPorts(); err != nil && n > 2 { // to 2, one port each: nothing to vary
				t.Fatal(err)
			}
			named := map[string]bool{}
			for cfg := range sp.Configs() {
				var es []string
				for _, e := range cfg.Topology.Edges {
					es = append(es, fmt.Sprintf("%d:%d>%d:%d", cfg.IDs[e.From.Node], e.From.Port, cfg.IDs[e.To.Node], e.To.Port))
				}
				slices.Sort(es)
				key := strings.Join(es, " ")
				if named[key] {
					t.Errorf("%v of %d: %s twice", tt.kind, n, cfg)
				}
				named[key] = true
			}
			if want := labelledNumbered(tt.kind, n); len(named) != want || sp.Count() != want {
				t.Errorf("%v of %d: %d configurations, Count %d, %d labelled numbered networks", tt.kind, n, len(named), sp.Count(), want)
			}
		}
	}
}

// labelledNumbered counts the labelled networks of family kind on n
// processes, each times its numberings: every subset of the n(n-1)/2
// links, kept if connected (and a tree, or complete, for those families).
func labelledNumbered(kind spec.TopologyKind, n int) int {
	var pairs [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, [2]int{a, b})
		}
	}
	total := 0
	for mask := 0; mask < 1<<len(pairs); mask++ {
		deg := make([]int, n)
		reach := uint(1)
		m := 0
		for k, p := range pairs {
			if mask&(1<<k) != 0 {
				deg[p[0]]++
				deg[p[1]]++
				m++
			}
		}
		for range n { // grow the set reached from 0, one link at a time
			for k, p := range pairs {
				if mask&(1<<k) != 0 && (reach>>p[0]|reach>>p[1])&1 != 0 {
					reach |= 1<<p[0] | 1<<p[1]
				}
			}
		}
		if reach != 1<<n-1 || kind == spec.Tree && m != n-1 || kind == spec.Complete && m != len(pairs) {
			continue
		}
		ways := 1
		for _, d := range deg {
			for f := 2; f <= d; f++ {
				ways *= f
			}
		}
		total += ways
	}
	return total
}
