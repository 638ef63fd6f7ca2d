package bounds_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/protocols"
)

// BenchmarkMeasure measures what executions cost over every configuration
// of a size, with costs and causal clocks (elcheck bounds): the profile to
// read when bounds is slow (go test -bench Measure -cpuprofile ...).
func BenchmarkMeasure(b *testing.B) {
	for _, tc := range []struct {
		algo string
		n    int
	}{{"tree", 5}, {"cr", 6}} {
		b.Run(fmt.Sprintf("%s/n=%d", tc.algo, tc.n), func(b *testing.B) {
			m, ok := protocols.Lookup(tc.algo)
			if !ok {
				b.Fatalf("no protocol %s", tc.algo)
			}
			for b.Loop() {
				row := bounds.Measure(context.Background(), m, space(m, tc.n, 0), bounds.DefaultCheck())
				if row.Incomplete != "" {
					b.Fatal(row.Incomplete)
				}
			}
		})
	}
}
