package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestPortBlindAgrees: for each protocol that declares its steps blind to
// port numbering, on every network of each family it runs on up to n = 3
// and, for a correct protocol, those of four links or fewer at n = 4 (the
// others take minutes over every placement),
// placements taken up to the network's whole automorphism group G give
// what every placement gives: the same verdict and message range, and,
// where every configuration verifies, |G| times fewer states (each
// placement stands for |G| isomorphic configurations).
func TestPortBlindAgrees(t *testing.T) {
	if raceOn {
		t.Skip("one worker: nothing for the race detector")
	}
	tested := 0
	for _, m := range protocols.All() {
		info := m.Info()
		if !info.PortBlind {
			continue
		}
		for _, kind := range info.Topology.Families() {
			for n := 1; n <= 4; n++ {
				for ti, top := range spec.MustTopologies(kind, n) {
					if n == 4 && (len(top.Edges) > 8 || info.Bug != "") {
						continue // buggy variants' violations take long to find in every configuration
					}
					t.Run(fmt.Sprintf("%s/%v/n=%d/%d", info.Name, kind, n, ti), func(t *testing.T) {
						opts := DefaultOptions()
						opts.POR, opts.Workers = false, 1
						all := Check(context.Background(), m, configs.Space{Topologies: []spec.Topology{top}, Channels: info.Channels, AllPlacements: true}, opts)
						blind := Check(context.Background(), m, configs.Space{Topologies: []spec.Topology{top}, Channels: info.Channels, PortBlind: true}, opts)
						group := len(top.Automorphisms())
						if blind.Configs*group != all.Configs {
							t.Fatalf("%d configurations up to a group of %d, %d in all", blind.Configs, group, all.Configs)
						}
						if got, want := blind.Verdict().Outcome, all.Verdict().Outcome; got != want {
							t.Fatalf("verdict %v up to the group, %v over every placement: %v", got, want, blind.Violation)
						}
						if diff := cmp.Diff(all.Violated, blind.Violated); diff != "" {
							t.Fatalf("properties violated differ (-every placement +up to the group):\n%s", diff)
						}
						if all.Violation == nil {
							if blind.States*int64(group) != all.States || blind.MinMessages != all.MinMessages || blind.MaxMessages != all.MaxMessages {
								t.Fatalf("up to the group: %d states (×%d), messages %d..%d; every placement: %d states, messages %d..%d",
									blind.States, group, blind.MinMessages, blind.MaxMessages, all.States, all.MinMessages, all.MaxMessages)
							}
						}
					})
					tested++
				}
			}
		}
	}
	if tested == 0 {
		t.Fatal("no protocol declares PortBlind: the test tests nothing")
	}
}

// fatherZero is echo with a bug that depends on port numbering: an
// initiator takes port 0 for its father. It declares its steps blind to
// port numbering, as echo does, and the check must say otherwise.
type fatherZero struct{ protocols.Echo }

func (fatherZero) Info() spec.Info {
	info := protocols.Echo{}.Info()
	info.Name, info.Bug, info.Breaks = "echo-fatherzero", "an initiator takes port 0 for its father", invariants.Uniformity
	return info
}

func (p fatherZero) Step(s protocols.EchoState, ev spec.Event, out *spec.Outbox) protocols.EchoState {
	s = p.Echo.Step(s, ev, out)
	if ev.Kind == spec.Wake {
		s.Father = 0
	}
	return s
}

// TestPortBlindCaught: a protocol that declares PortBlind but whose step
// depends on port numbering is reported as a uniformity violation, at the
// step, with its trace; one whose Init does is reported too.
func TestPortBlindCaught(t *testing.T) {
	m := spec.Erase[protocols.EchoState](fatherZero{})
	space, err := configs.NewSpace(spec.Graph, 3)
	if err != nil {
		t.Fatal(err)
	}
	space.Channels, space.PortBlind = spec.FIFO, true
	res := Check(context.Background(), m, space, DefaultOptions())
	v := res.Violation
	if v == nil || v.Property != invariants.Uniformity || len(v.Trace) != 1 || !strings.Contains(v.Detail, "does not commute with renumbering") {
		t.Fatalf("got %v, want a uniformity violation at the first step", v)
	}
	// Without the reduction nothing asks for the property.
	space.PortBlind = false
	if res := Check(context.Background(), m, space, DefaultOptions()); res.Violation != nil {
		t.Fatalf("without placements up to the whole group: %v", res.Violation)
	}

	// With bounded channels the order of sends across ports shows: no
	// placement stands for another with its ports renumbered.
	bounded := space
	bounded.Capacity = 1
	if bounded.MovesPorts() || bounded.Count() != func() int { s := bounded; s.PortBlind = false; return s.Count() }() {
		t.Fatal("with capacity 1 the placements are still taken up to automorphisms that move ports")
	}

	init := spec.Erase[protocols.EchoState](initFatherZero{})
	space.PortBlind = true
	res = Check(context.Background(), init, space, DefaultOptions())
	if v := res.Violation; v == nil || v.Property != invariants.Uniformity || !strings.Contains(v.Detail, "Init of p") {
		t.Fatalf("got %v, want Init's uniformity violation", v)
	}
}

// initFatherZero is echo whose Init takes port 0 for the father.
type initFatherZero struct{ protocols.Echo }

func (initFatherZero) Info() spec.Info {
	info := protocols.Echo{}.Info()
	info.Name = "echo-initfatherzero"
	return info
}

func (initFatherZero) Init(env spec.Env) protocols.EchoState {
	s := protocols.Echo{}.Init(env)
	s.Father = 0
	return s
}
