package explore

import "github.com/elcheck/elcheck/spec"

// envMemo maps process environments to what is known of them (an initial
// local state's number, a check passed), with the entry last used at each
// process position in front of the map: a sweep's consecutive
// configurations, the initiator sets of one placement, give each position
// the same environment, and hashing an Env for the map took 2 % of the
// n = 8 sweep's time. The zero value is empty.
type envMemo[V any] struct {
	m    map[spec.Env]V
	last []envEntry[V]
}

type envEntry[V any] struct {
	env spec.Env
	v   V
	ok  bool
}

// get returns what is known of env, met at position p, and whether
// anything is.
func (e *envMemo[V]) get(p int, env spec.Env) (V, bool) {
	if p < len(e.last) && e.last[p].ok && e.last[p].env == env {
		return e.last[p].v, true
	}
	v, ok := e.m[env]
	if ok {
		e.remember(p, env, v)
	}
	return v, ok
}

// put records v for env, met at position p.
func (e *envMemo[V]) put(p int, env spec.Env, v V) {
	if e.m == nil {
		e.m = map[spec.Env]V{}
	}
	e.m[env] = v
	e.remember(p, env, v)
}

func (e *envMemo[V]) remember(p int, env spec.Env, v V) {
	for len(e.last) <= p {
		e.last = append(e.last, envEntry[V]{})
	}
	e.last[p] = envEntry[V]{env, v, true}
}
