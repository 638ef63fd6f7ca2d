package bounds_test

import (
	"context"
	"testing"
	"time"

	"github.com/elcheck/elcheck/bounds"
)

func TestZProf(t *testing.T) {
	m := lookup(t, "tree")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	row := bounds.Measure(ctx, m, space(m, 7, 0), bounds.DefaultCheck())
	t.Logf("%d states %d configs", row.States, row.Measured)
}
