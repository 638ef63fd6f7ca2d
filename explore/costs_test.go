package explore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/elcheck/elcheck/configs"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/protocols"
	"github.com/elcheck/elcheck/spec"
)

// Costs and causal time per configuration: a message count equals the
// explorer's own, costs by kind add up to it, and partial-order reduction
// changes none of them (costs are sums over events, and causal time
// depends only on the happens-before order, which commuting independent
// steps keeps).
func TestConfigCosts(t *testing.T) {
	for _, name := range []string{"lelann", "cr", "dkr", "peterson", "lelann-list"} {
		m, _ := protocols.Lookup(name)
		info := m.Info()
		costs := []explore.Cost{{Name: "messages", Of: func(spec.Message) int64 { return 1 }}}
		for k, kind := range info.Messages {
			costs = append(costs, explore.Cost{Name: kind, Of: func(m spec.Message) int64 {
				if int(m.Kind) == k {
					return 1
				}
				return 0
			}})
		}
		for n := 1; n <= 4; n++ {
			t.Run(fmt.Sprintf("%s/n=%d", name, n), func(t *testing.T) {
				run := func(por bool) []explore.ConfigCosts {
					var got []explore.ConfigCosts
					opts := explore.Options{POR: por, Costs: costs, Time: true, OnConfig: func(c explore.ConfigCosts) { got = append(got, c) }}
					res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(info.Topology, n), Channels: info.Channels}, opts)
					if res.Verdict().Outcome != invariants.Verified || len(got) != res.Configs {
						t.Fatalf("%s, %d configurations reported of %d", res.Verdict(), len(got), res.Configs)
					}
					return got
				}
				full, reduced := run(false), run(true)
				var worst *explore.ConfigCosts // the first of the most messages
				for i, c := range full {
					if worst == nil || c.Max[0] > worst.Max[0] {
						worst = &full[i]
					}
					r := reduced[i]
					if fmt.Sprint(c.Min, c.Max, c.MinTime, c.MaxTime, c.Index) != fmt.Sprint(r.Min, r.Max, r.MinTime, r.MaxTime, r.Index) {
						t.Errorf("%s: unreduced %v %v time %d..%d, reduced %v %v time %d..%d", c.Config, c.Min, c.Max, c.MinTime, c.MaxTime, r.Min, r.Max, r.MinTime, r.MaxTime)
					}
					var sumMin, sumMax int64
					for k := 1; k < len(costs); k++ {
						sumMin += c.Min[k]
						sumMax += c.Max[k]
					}
					if sumMin > c.Min[0] || sumMax < c.Max[0] {
						t.Errorf("%s: kinds add up to %d..%d, messages %d..%d", c.Config, sumMin, sumMax, c.Min[0], c.Max[0])
					}
					if c.MinTime < 1 || c.MaxTime > c.Max[0] || c.MinTime > c.MaxTime {
						t.Errorf("%s: time %d..%d with %d..%d messages", c.Config, c.MinTime, c.MaxTime, c.Min[0], c.Max[0])
					}
					if c.Worst != nil && int64(len(c.Worst)) < c.Max[0] {
						t.Errorf("%s: the worst execution has %d steps for %d messages", c.Config, len(c.Worst), c.Max[0])
					}
				}
				if worst == nil || worst.Worst == nil {
					t.Errorf("the first configuration of the most messages has no worst execution")
				}
			})
		}
	}
}

// LeLann with all processes initiating: every token goes round, n^2
// messages, and the last token to return has travelled n hops after the
// last wake-up... at least n and at most 2n-1 hops of causal time.
func TestLeLannTime(t *testing.T) {
	m, _ := protocols.Lookup("lelann")
	for n := 2; n <= 5; n++ {
		var got []explore.ConfigCosts
		opts := explore.Options{POR: true, Time: true, Costs: []explore.Cost{{Name: "messages", Of: func(spec.Message) int64 { return 1 }}},
			OnConfig: func(c explore.ConfigCosts) { got = append(got, c) }}
		res := explore.Check(context.Background(), m, configs.Space{Topologies: spec.MustTopologies(spec.UniRing, n), Initiators: spec.All(n)}, opts)
		// Every configuration must reach the callback: a test of what it
		// received passes vacuously if it receives nothing.
		if res.Verdict().Outcome != invariants.Verified || len(got) != res.Configs || res.Configs == 0 {
			t.Fatalf("n=%d: %s, %d configurations reported of %d", n, res.Verdict(), len(got), res.Configs)
		}
		for _, c := range got {
			if c.Min[0] != int64(n*n) || c.Max[0] != int64(n*n) || c.MinTime < int64(n) || c.MaxTime > int64(2*n-1) {
				t.Errorf("n=%d %s: messages %d..%d, time %d..%d", n, c.Config, c.Min[0], c.Max[0], c.MinTime, c.MaxTime)
			}
		}
	}
}
