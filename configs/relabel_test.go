package configs

import (
	"fmt"
	"slices"
	"testing"

	"github.com/elcheck/elcheck/spec"
)

// Every relabelling keeps the order of the ids, keeps them distinct and in
// [MinID, MaxID], gives the same answer each time, and changes what it
// promises to change; at both ends of the range too.
func TestRelabellings(t *testing.T) {
	cases := [][]spec.ID{
		{1},
		{1, 2, 3},
		{3, 1, 2, 5, 4},
		{spec.MaxID, 1, spec.MaxID - 1},
		{spec.MaxID - 3, spec.MaxID - 2, spec.MaxID - 1, spec.MaxID},
		{46341, 2, 3},
		{16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1},
	}
	for _, rl := range Relabellings {
		for _, ids := range cases {
			t.Run(fmt.Sprintf("%s/%v", rl.Name, ids), func(t *testing.T) {
				got := rl.Relabel(ids, 1)
				if !slices.Equal(got, rl.Relabel(ids, 1)) {
					t.Fatalf("not deterministic")
				}
				for i := range ids {
					if got[i] < spec.MinID || got[i] > spec.MaxID {
						t.Errorf("id %d -> %d, outside the range", ids[i], got[i])
					}
					for j := range ids {
						if (ids[i] < ids[j]) != (got[i] < got[j]) || (ids[i] == ids[j]) != (got[i] == got[j]) {
							t.Errorf("order not kept: %v -> %v", ids, got)
						}
					}
				}
				if rl.Name != "top" {
					return
				}
				max := slices.Max(ids)
				for i, id := range ids {
					if id == max {
						if got[i] != spec.MaxID {
							t.Errorf("the largest id %d -> %d, want MaxID", id, got[i])
						}
						continue
					}
					if got[i]%2 == id%2 || got[i]%3 == id%3 {
						t.Errorf("%d -> %d keeps its parity or its residue mod 3", id, got[i])
					}
				}
			})
		}
	}
	// The random relabelling depends on the seed, and differs from the
	// identity and from an affine map on a typical placement.
	ids := []spec.ID{1, 2, 3, 4, 5}
	a, b := Relabellings[1].Relabel(ids, 1), Relabellings[1].Relabel(ids, 2)
	if slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 give the same relabelling %v", a)
	}
	if a[1]-a[0] == a[2]-a[1] && a[2]-a[1] == a[3]-a[2] {
		t.Errorf("random relabelling %v is affine", a)
	}
}
