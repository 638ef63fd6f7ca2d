package counterexamples

import (
	"slices"
	"strings"
	"testing"

	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// A trace file's channels find the network it ran on: an instance of the
// family -topology chose, one of its numberings (-orientation=any), or a
// network given by -graph, with the symmetries and label the search had.
func TestFileFindsNetwork(t *testing.T) {
	given, err := spec.NewNetwork(spec.Graph, 5, [][2]int{{3, 4}, {0, 1}, {1, 2}, {2, 0}, {2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	var cases []spec.Topology
	for _, k := range []spec.TopologyKind{spec.Graph, spec.Tree, spec.Complete} {
		for _, top := range spec.MustTopologies(k, 4) {
			nums, err := top.Numberings()
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, nums...)
		}
	}
	cases = append(cases, given)
	flood := spec.Erase(fixtures.Flood{})
	for _, top := range cases {
		ids := make([]spec.ID, top.N)
		for i := range ids {
			ids[i] = spec.ID(i + 1)
		}
		f := &File{Version: FormatVersion, Algo: "fixture-flood", N: top.N, Topology: top.Kind.String(), Channels: "fifo", IDs: ids, Initiators: []int{0}, Edges: Edges(top)}
		cfg, err := f.Config(flood)
		if err != nil || !slices.Equal(cfg.Topology.Edges, top.Edges) || cfg.Topology.Label != top.Label || len(cfg.Topology.Symmetries) != len(top.Symmetries) {
			t.Errorf("%v (%s): found %q, %v", top.Kind, top.Label, cfg.Topology.Label, err)
		}
	}
	// Not a network of two-way links, not the protocol's family.
	f := &File{Version: FormatVersion, N: 3, Topology: spec.Graph.String(), Channels: "fifo", IDs: []spec.ID{1, 2, 3}, Edges: Edges(spec.NewUniRing(3))}
	if _, err := f.Config(flood); err == nil || !strings.Contains(err.Error(), "not followed by its way back") {
		t.Errorf("one-way ring as a graph: %v", err)
	}
	dkr, _ := protocols.Lookup("dkr")
	if _, err := f.Config(dkr); err == nil || !strings.Contains(err.Error(), "dkr runs on a unidirectional ring") {
		t.Errorf("a graph trace for dkr: %v", err)
	}
}
