package explore

import (
	"testing"

	"github.com/elcheck/elcheck/spec"
)

func TestEnvMemo(t *testing.T) {
	var e envMemo[uint32] // the zero value is empty
	a, b, c := spec.Env{ID: 1, Ports: 1}, spec.Env{ID: 2, Ports: 1}, spec.Env{ID: 1, Ports: 2}
	if _, ok := e.get(0, a); ok {
		t.Fatal("an empty memo knows an environment")
	}
	e.put(0, a, 10)
	e.put(3, b, 20)
	for _, tt := range []struct {
		p    int
		env  spec.Env
		want uint32
		ok   bool
	}{
		{0, a, 10, true}, // the position's last entry
		{3, b, 20, true}, // a position beyond the others
		{5, a, 10, true}, // met at another position: from the map
		{0, b, 20, true}, // another environment at a position: from the map
		{0, c, 0, false}, // never put: the same id, other ports
		{2, spec.Env{}, 0, false},
	} {
		if got, ok := e.get(tt.p, tt.env); got != tt.want || ok != tt.ok {
			t.Errorf("get(%d, %+v) = %d, %v; want %d, %v", tt.p, tt.env, got, ok, tt.want, tt.ok)
		}
	}
	// A get from the map makes the entry the position's last: position 0
	// now holds b, and still finds a in the map.
	if got, ok := e.get(0, a); got != 10 || !ok {
		t.Errorf("get(0, a) after get(0, b) = %d, %v", got, ok)
	}
	e.put(0, a, 11) // a new value replaces both the map's and the position's
	if got, _ := e.get(0, a); got != 11 {
		t.Errorf("get(0, a) after put 11 = %d", got)
	}
	if got, _ := e.get(7, a); got != 11 {
		t.Errorf("get(7, a) after put 11 = %d", got)
	}
}
