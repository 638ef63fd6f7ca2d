package explore

import (
	"os"
	"testing"

	"github.com/elcheck/elcheck/explore/internal/gentransition"
)

// TestTransitionGenerated: ztransition.go is what go generate writes from
// transition.go, so the stores' specialisations are transition itself.
func TestTransitionGenerated(t *testing.T) {
	src, err := os.ReadFile("transition.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gentransition.Generate(src)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("ztransition.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatal("ztransition.go is stale: run go generate ./explore/")
	}
}
