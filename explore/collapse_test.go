package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/internal/fixtures"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// TestCollapsedSearchAgrees runs every protocol and buggy variant, every
// configuration for n <= 4 (5 without -short, FIFO only), on FIFO and bag
// channels, with and without partial-order reduction, with collapsed states and with byte
// encodings, and compares the whole results: counts, final-state digests,
// message range, verdicts and the counterexample, step for step.
func TestCollapsedSearchAgrees(t *testing.T) {
	if raceOn {
		t.Skip("one worker: nothing for the race detector")
	}
	maxN := 5
	if testing.Short() {
		maxN = 4
	}
	for _, m := range protocols.All() {
		for n := 1; n <= fixtures.MaxN(m.Info(), maxN); n++ {
			for _, tc := range []struct {
				ch  spec.Channels
				por bool
			}{{spec.FIFO, false}, {spec.FIFO, true}, {spec.Bag, false}, {spec.Bag, true}} {
				if tc.ch == spec.Bag && n == 5 {
					continue // as in TestParallelSearchAgrees: bags at n = 5 are slow
				}
				t.Run(fmt.Sprintf("%s/n=%d/%v/por=%v", m.Info().Name, n, tc.ch, tc.por), func(t *testing.T) {
					opts := DefaultOptions()
					opts.POR, opts.Workers = tc.por, 1
					got := engines(t, m, configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: tc.ch}, opts)
					if got.States == 0 {
						t.Fatal("nothing explored")
					}
				})
			}
		}
	}
}

// engines checks m on space with opts on both searches, collapsed and
// byte-encoded, fails t if the results differ in anything but the time,
// and returns the collapsed search's.
func engines(t *testing.T, m spec.Machine, space configs.Space, opts Options) *Result {
	t.Helper()
	got := Check(context.Background(), m, space, opts)
	opts.bytes = true
	want := Check(context.Background(), m, space, opts)
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("%s, n=%d, por=%v: results differ (-bytes +collapsed):\n%s", m.Info().Name, space.N(), opts.POR, diff)
	}
	return got
}

// TestCollapsedCostsAgree is TestCollapsedSearchAgrees for what elcheck
// bounds measures: costs on the edges and causal clocks in the states,
// with partial-order reduction as bounds runs it and without, n <= 3 (and
// one-way rings at n = 4 as bounds runs them, without -short). It compares
// the results and every configuration's costs, times and worst execution
// (one worker: which configurations build theirs depends on the order
// they finish in, ConfigCosts.Worst).
func TestCollapsedCostsAgree(t *testing.T) {
	if raceOn {
		t.Skip("one worker: nothing for the race detector")
	}
	maxN := 4
	if testing.Short() {
		maxN = 3
	}
	for _, m := range protocols.All() {
		info := m.Info()
		costs := []Cost{{Name: "messages", Of: func(spec.Message) int64 { return 1 }}}
		for k := range info.Messages {
			costs = append(costs, Cost{Name: info.Messages[k], Of: func(m spec.Message) int64 { return int64(m.Kind) / int64(k+1) }})
		}
		costs = append(costs, Cost{Name: "ids", Of: func(m spec.Message) int64 { return int64(m.ID) % 5 }})
		for n := 1; n <= fixtures.MaxN(info, maxN); n++ {
			for _, tc := range []struct {
				ch  spec.Channels
				por bool
			}{{spec.FIFO, true}, {spec.FIFO, false}, {spec.Bag, true}} {
				if n == 4 && (tc.ch != spec.FIFO || !tc.por || info.Topology != spec.UniRing) ||
					n == 3 && tc.ch == spec.Bag && info.Topology == spec.BiRing {
					continue // the byte store is slow here (hs on bags: minutes)
				}
				t.Run(fmt.Sprintf("%s/n=%d/%v/por=%v", info.Name, n, tc.ch, tc.por), func(t *testing.T) {
					space := configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: tc.ch}
					run := func(bytes bool) (*Result, []ConfigCosts) {
						var got []ConfigCosts
						opts := Options{POR: tc.por, Workers: 1, PurityEvery: 2, Costs: costs, Time: true, IgnoreBound: true, bytes: bytes,
							OnConfig: func(c ConfigCosts) { got = append(got, c) }}
						return Check(context.Background(), m, space, opts), got
					}
					res, got := run(false)
					wantRes, want := run(true)
					if diff := cmp.Diff(wantRes, res, cmpopts.IgnoreFields(Result{}, "Elapsed"), cmpopts.EquateEmpty()); diff != "" {
						t.Fatalf("results differ (-bytes +collapsed):\n%s", diff)
					}
					if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
						t.Fatalf("costs differ (-bytes +collapsed):\n%s", diff)
					}
					if res.States == 0 {
						t.Fatal("nothing explored")
					}
				})
			}
		}
	}
}

// TestCollapsedSearchIsUsed checks that the searches the comparison above
// relies on do run collapsed, and the ones it cannot serve do not.
func TestCollapsedSearchIsUsed(t *testing.T) {
	m, _ := protocols.Lookup("dkr")
	top, _ := spec.NewTopology(m.Info().Topology, 4)
	cfg := spec.Config{Topology: top, IDs: []spec.ID{3, 1, 4, 2}, Initiators: spec.All(4), Channels: spec.FIFO}
	for _, tc := range []struct {
		name string
		opts func(*Options)
		want bool
	}{
		{"unreduced FIFO", func(*Options) {}, true},
		{"reduced", func(o *Options) { o.POR = true }, true},
		{"exact", func(o *Options) { o.Exact = true }, true},
		{"time", func(o *Options) { o.Time = true }, true},
		{"costs", func(o *Options) { o.Costs = []Cost{{Name: "messages", Of: func(spec.Message) int64 { return 1 }}} }, true},
		{"dfs", func(o *Options) { o.Search = DFS }, false},
		{"bag", func(*Options) {}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			tc.opts(&opts)
			c := cfg
			if tc.name == "bag" {
				c.Channels = spec.Bag
			}
			budget := int64(1 << 40)
			x := newSearcher(context.Background(), opts, &budget)
			x.reduce = opts.POR
			r := x.search(x.system(m, c))
			// (DKR needs FIFO channels: on bags it may fail; that is fine here.)
			if collapsed := x.st == &x.cz; collapsed != tc.want || r.states == 0 || (r.violation != nil && tc.name != "bag") {
				t.Errorf("collapsed %v (want %v), %d states, violation %v", x.st == &x.cz, tc.want, r.states, r.violation)
			}
		})
	}
}

// circlingLeLann is LeLann plus a token that process 0 puts on the ring
// when it wakes and that every process passes on: the token circles
// forever, so the graph has a cycle (an edge back to an earlier depth),
// which the collapsed search meets without edges and must search again
// with them.
type circlingLeLann struct{ protocols.LeLann }

const token spec.Kind = 1

func (p circlingLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-circling"
	in.Messages = append(append([]string(nil), in.Messages...), "token")
	in.Bound = spec.Bound{}
	return in
}

func (p circlingLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	if ev.Kind == spec.Deliver && ev.Msg.Kind == token {
		out.Send(0, ev.Msg)
		return s
	}
	if ev.Kind == spec.Wake && s.ID == 1 {
		out.Send(0, spec.Message{Kind: token})
	}
	return p.LeLann.Step(s, ev, out)
}

// TestCollapsedSearchStartsAgain checks the search of a graph that is not
// layered: found without edges, searched again with them, and reported as
// the byte-encoded search reports it (the cycle, its trace).
func TestCollapsedSearchStartsAgain(t *testing.T) {
	m := spec.Erase[protocols.LeLannState](circlingLeLann{})
	for _, por := range []bool{false, true} {
		opts := DefaultOptions()
		// Off: "s.ID == 1" is arithmetic on ids, which the per-step check
		// reports at the wake-up, before the loop.
		opts.POR, opts.Workers, opts.ComparisonOnly = por, 1, false
		got := engines(t, m, configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, 3), Channels: spec.FIFO}, opts)
		if got.Violation == nil || got.Violation.Property != "termination" || got.Violation.LoopAt < 0 {
			t.Fatalf("por=%v: %s, want a termination violation with a loop", por, got.Verdict())
		}
	}
}

// TestVectorRoundTrip checks readVec against appendVec for vectors of
// one-byte and longer numbers in every position, around readVec's
// eight-at-a-time path.
func TestVectorRoundTrip(t *testing.T) {
	for length := 1; length <= 27; length++ {
		for big := -1; big < length; big++ { // the position of a long number, or none
			v := make([]uint32, length)
			for j := range v {
				v[j] = uint32(j*37) % 128
				if j == big {
					v[j] = 128 + uint32(j)<<20
				}
			}
			got := make([]uint32, length)
			readVec(appendVec(nil, v), got)
			if !slices.Equal(got, v) {
				t.Fatalf("length %d, long at %d: read %v, wrote %v", length, big, got, v)
			}
		}
	}
}

// TestCollapserStartsAfresh checks that the tables start again, with the
// empty channel as content 0, once they outgrow their limit or the shape
// of the states or the channels' order changes.
func TestCollapserStartsAfresh(t *testing.T) {
	var c collapser
	c.prepare(3, 3, false, false)
	c.internChan([]uint32{c.internMsg(spec.Message{Kind: 1, ID: 5})})
	if len(c.chanSeq) != 2 || len(c.msgs) != 1 {
		t.Fatalf("%d contents, %d messages before", len(c.chanSeq), len(c.msgs))
	}
	c.prepare(3, 3, false, false) // same shape, small: kept
	if len(c.chanSeq) != 2 {
		t.Fatal("the tables were dropped though small")
	}
	c.size = czLimit
	c.prepare(3, 3, false, false)
	if len(c.chanSeq) != 1 || len(c.msgs) != 0 || c.chanLen[0] != 0 || c.size >= czLimit {
		t.Fatalf("after the limit: %d contents, %d messages, size %d", len(c.chanSeq), len(c.msgs), c.size)
	}
	c.internMsg(spec.Message{Kind: 1})
	c.prepare(3, 3, true, false)
	if !c.bag || len(c.msgs) != 0 {
		t.Fatalf("after bags: bag %v, %d messages", c.bag, len(c.msgs))
	}
	c.internMsg(spec.Message{Kind: 1})
	c.prepare(4, 4, false, false)
	if c.n != 4 || len(c.msgs) != 0 || len(c.salt) != 1+2*4+4 { // room for clocks
		t.Fatalf("after a new shape: n %d, %d messages, %d salts", c.n, len(c.msgs), len(c.salt))
	}
	c.internMsg(spec.Message{Kind: 1})
	c.prepare(4, 4, false, true)
	if !c.clocked || len(c.msgs) != 0 || c.width() != 1+2*4+4 {
		t.Fatalf("after clocks: clocked %v, %d messages, width %d", c.clocked, len(c.msgs), c.width())
	}
}

// brittleLeLann is LeLann whose process with id 1 panics on receiving
// id 3: a step error in the middle of a state's successors.
type brittleLeLann struct{ protocols.LeLann }

func (p brittleLeLann) Info() spec.Info {
	in := p.LeLann.Info()
	in.Name = "lelann-brittle"
	return in
}

func (p brittleLeLann) Step(s protocols.LeLannState, ev spec.Event, out *spec.Outbox) protocols.LeLannState {
	if ev.Kind == spec.Deliver && ev.Msg.ID == 3 && s.ID == 1 {
		panic("brittle")
	}
	return p.LeLann.Step(s, ev, out)
}

// TestCollapsedStepErrorsAgree checks that a step that panics is reported
// by the collapsed search as by the byte-encoded one: the same violation
// after the same trace, although the collapsed search takes every
// successor's step before it stores any.
func TestCollapsedStepErrorsAgree(t *testing.T) {
	m := spec.Erase[protocols.LeLannState](brittleLeLann{})
	for n := 3; n <= 4; n++ {
		for _, por := range []bool{false, true} {
			// Unlimited too: after the first violation the sweep searches
			// the later configurations only to a depth, and the engines
			// must agree on the whole of each graph, past its failed steps
			// (a FIFO channel delivering its tail differs only there).
			for _, unlimited := range []bool{false, true} {
				opts := DefaultOptions()
				opts.POR, opts.Workers, opts.EveryConfig = por, 1, unlimited
				got := engines(t, m, configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, n), Channels: spec.FIFO}, opts)
				if got.Violation == nil || got.Violation.Property != "step-panicked" {
					t.Fatalf("n=%d por=%v unlimited=%v: %s, want step-panicked", n, por, unlimited, got.Verdict())
				}
			}
		}
	}
}

// TestExactCollapsedAgrees checks the exact visited set on collapsed
// vectors against the exact set on byte encodings (engines), with and
// without partial-order reduction (whose cycle proviso looks successors
// up by their keys), and against the fingerprint set: the same counts.
func TestExactCollapsedAgrees(t *testing.T) {
	if raceOn {
		t.Skip("one worker: nothing for the race detector")
	}
	type run struct {
		name string
		n    int
		ch   spec.Channels
	}
	runs := []run{{"dkr", 5, spec.FIFO}, {"cr", 4, spec.Bag}, {"lelann-list-bag", 4, spec.Bag}}
	for _, m := range protocols.All() {
		runs = append(runs, run{m.Info().Name, min(3, fixtures.MaxN(m.Info(), 3)), spec.FIFO})
	}
	for _, r := range runs {
		m, _ := protocols.Lookup(r.name)
		for _, por := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/n=%d/%v/por=%v", r.name, r.n, r.ch, por), func(t *testing.T) {
				space := configs.Space{Topologies: spec.MustTopologies(m.Info().Topology, r.n), Channels: r.ch}
				opts := DefaultOptions()
				opts.POR, opts.Workers, opts.Exact = por, 1, true
				got := engines(t, m, space, opts)
				opts.Exact = false
				lossy := Check(context.Background(), m, space, opts)
				if got.States != lossy.States || got.Transitions != lossy.Transitions || got.FinalDigest != lossy.FinalDigest {
					t.Errorf("exact: %d states, %d transitions; fingerprints: %d, %d", got.States, got.Transitions, lossy.States, lossy.Transitions)
				}
			})
		}
	}
}

// TestUniformSelfCheckFails gives the engine a false symmetry: a rotation
// of a two-way ring that also swaps each process's ports, which a
// protocol that tells its ports apart does not commute with. Both stores'
// uniformity self-checks must say so, with the same trace: the check
// compares fingerprints reached by two different computations, and a
// check that cannot fail would pass here.
func TestUniformSelfCheckFails(t *testing.T) {
	m, _ := protocols.Lookup("franklin")
	top := spec.MustTopologies(m.Info().Topology, 3)[0]
	swap := spec.Perm{Node: []int{1, 2, 0}, Port: make([][]spec.Port, 3)}
	for i := range swap.Port {
		swap.Port[i] = []spec.Port{1, 0}
	}
	top.Symmetries = []spec.Perm{swap}
	space := configs.Space{Topologies: []spec.Topology{top}, Channels: spec.FIFO, IDs: []spec.ID{1, 2, 3}, Initiators: 1}
	var first *Violation
	for _, bytes := range []bool{false, true} {
		opts := DefaultOptions()
		opts.POR, opts.Workers, opts.UniformityEvery, opts.bytes = false, 1, 1, bytes
		v := Check(context.Background(), m, space, opts).Violation
		if v == nil || v.Property != invariants.Uniformity || !strings.Contains(v.Detail, "does not commute with taking its successors") {
			t.Fatalf("bytes=%v: %+v, want a uniformity violation of the self-check", bytes, v)
		}
		if first == nil {
			first = v
		} else if fmt.Sprint(v.Trace) != fmt.Sprint(first.Trace) {
			t.Errorf("traces differ: bytes %v, collapsed %v", v.Trace, first.Trace)
		}
	}
	// The true symmetries pass.
	opts := DefaultOptions()
	opts.POR, opts.Workers, opts.UniformityEvery = false, 1, 1
	space.Topologies = spec.MustTopologies(m.Info().Topology, 3)[:1]
	if res := Check(context.Background(), m, space, opts); res.Verdict().Outcome != invariants.Verified {
		t.Fatalf("the ring's own symmetries: %s", res.Verdict())
	}
}

// TestPileBlocks pins a pile's blocks: the first of pileFirst values,
// each next one twice the last up to pileBlock, one as large as a value
// that needs it, and every copy returned intact after the blocks that
// followed it.
func TestPileBlocks(t *testing.T) {
	var p pile[uint32]
	var views [][]uint32
	for i := range 200_000 {
		views = append(views, p.add([]uint32{uint32(i), uint32(i) + 1}))
	}
	big := make([]uint32, 3*pileBlock)
	big[len(big)-1] = 7
	views = append(views, p.add(big))
	var caps []int
	for _, b := range p.blocks {
		caps = append(caps, cap(b))
	}
	want := []int{pileFirst, 2 * pileFirst, 4 * pileFirst, 8 * pileFirst, 16 * pileFirst, 32 * pileFirst, pileBlock, pileBlock, pileBlock, pileBlock, pileBlock, pileBlock, 3 * pileBlock}
	if !slices.Equal(caps, want) {
		t.Fatalf("blocks of %v values, want %v", caps, want)
	}
	for i, v := range views[:200_000] {
		if len(v) != 2 || v[0] != uint32(i) || v[1] != uint32(i)+1 {
			t.Fatalf("copy %d reads %v", i, v)
		}
	}
	if v := views[len(views)-1]; len(v) != len(big) || v[len(v)-1] != 7 {
		t.Fatalf("the large copy reads %d values ending in %d", len(v), v[len(v)-1])
	}
}
