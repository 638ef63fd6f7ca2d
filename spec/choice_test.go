package spec_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/elcheck/elcheck/spec"
)

// branches enumerates a step's choices the way the explorer does: run,
// then NextChoice, until it says there are no more.
func branches(step func(out *spec.Outbox) string) []string {
	var out spec.Outbox
	var got []string
	c, more := spec.Choice(0), true
	for more {
		out.Reset()
		out.SetChoice(c)
		r := step(&out)
		got = append(got, out.Taken().String()+"="+r)
		c, more = out.NextChoice()
	}
	return got
}

func TestChooseEnumeratesEveryBranch(t *testing.T) {
	tests := []struct {
		name string
		step func(out *spec.Outbox) string
		want []string
	}{
		{"no choice", func(*spec.Outbox) string { return "x" }, []string{"=x"}},
		{"one of three", func(out *spec.Outbox) string { return string(rune('a' + out.Choose(3))) }, []string{"0=a", "1=b", "2=c"}},
		{"choose(1) does not branch", func(out *spec.Outbox) string { return string(rune('a' + out.Choose(1))) }, []string{"0=a"}},
		{"two in a row", func(out *spec.Outbox) string {
			return string(rune('a'+out.Choose(2))) + string(rune('a'+out.Choose(2)))
		}, []string{"0.0=aa", "0.1=ab", "1.0=ba", "1.1=bb"}},
		{"a later arity depends on an earlier choice", func(out *spec.Outbox) string {
			if out.Choose(2) == 0 {
				return "a"
			}
			return string(rune('a' + out.Choose(3)))
		}, []string{"0=a", "1.0=a", "1.1=b", "1.2=c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, branches(tt.step)); diff != "" {
				t.Errorf("branches (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChoiceLimits(t *testing.T) {
	for _, n := range []int{0, -1, spec.MaxAlternatives + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Choose(%d) did not panic", n)
				}
			}()
			var out spec.Outbox
			out.Choose(n)
		}()
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("%d choices in a step did not panic", spec.MaxChoices+1)
			}
		}()
		var out spec.Outbox
		for range spec.MaxChoices + 1 {
			out.Choose(2)
		}
	}()
	if c, ok := spec.PackChoice([]int{3, 0, 7}); !ok || c.String() != "3.0.7" {
		t.Errorf("PackChoice(3,0,7) = %v %v, want 3.0.7", c, ok)
	}
	if _, ok := spec.PackChoice([]int{0, 0, 0, 0, 0}); ok {
		t.Error("PackChoice of 5 alternatives succeeded")
	}
}
