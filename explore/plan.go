package explore

// attempt is one search of a configuration: the system searched (with
// clocks, without them, or with them while checking that the graph
// without them is layered), where its states are kept, and the plan of a
// search in memory. planFor gives a configuration's first attempt, and
// searcher.then the attempt that follows one, by how it ended: the
// ordered attempts one loop (searcher.search) runs.
type attempt struct {
	sy     *System // the system searched: without clocks if clocks is withoutClocks
	full   *System // the configuration's, with its clocks
	clocks clockMode
	where  storage
	p      plan
}

// clockMode is how an attempt treats causal clocks (Options.Time).
type clockMode uint8

const (
	asIs          clockMode = iota // the system as it is, with or without clocks
	plainChecked                   // with clocks, stopping if the graph without them is not layered
	withoutClocks                  // the system without its clocks, and without costs
)

// storage is where an attempt keeps its states.
type storage uint8

const (
	inMemory storage = iota // the visited set and the graph in memory (loop.go)
	onDisk                  // in sorted files (disk.go)
	inCache                 // a bounded state cache, depth-first (cache.go)
)

// planFor is the first attempt at sy's configuration: with causal clocks
// on collapsed states without a memory bound, the search with clocks that
// checks the graph without them is layered; with clocks otherwise, the
// search without them (searcher.then says what follows); else the system
// as it is.
func (x *searcher) planFor(sy *System) attempt {
	switch {
	case sy.Clocks && x.memLimit == 0 && x.collapsible(sy):
		return x.planIn(sy, plainChecked)
	case sy.Clocks:
		return x.planIn(sy, withoutClocks)
	}
	return x.planIn(sy, asIs)
}

// planIn is the attempt in memory at sy's configuration with clocks
// treated as mode says.
func (x *searcher) planIn(full *System, mode clockMode) attempt {
	sy, costs := full, len(x.opts.Costs) > 0
	if mode == withoutClocks {
		plain := *full
		plain.Clocks = false
		sy, costs = &plain, false
	}
	return attempt{sy: sy, full: full, clocks: mode, p: x.planOf(sy, costs)}
}

// plan is how one configuration is searched in memory: which store holds
// its states, whether workers share its expansion, and whether edges are
// recorded from the start. planOf decides it, in one place; the table in
// docs/architecture.md says why each choice is made. (Check decides how
// many workers a searcher gets.)
type plan struct {
	// collapsed: the collapsed store (collapse.go), else byte encodings.
	collapsed bool
	// parallel: x.par workers share each level (levels.go), on either
	// store.
	parallel bool
	// edges: record the graph's edges from the start. Without them the
	// search keeps going while the graph is layered, and starts again
	// with them at the first edge that is not (searcher.then).
	edges bool
	// tags: the visited set is the tag set (tagset.go), for a search
	// that records no edges on fingerprints. It gives states no index to
	// replay a trace by, so a violation is found again without it (searcher.then).
	tags bool
}

// tagMin is the number of states from which a configuration counts as
// large for the tag set (planOf).
const tagMin = 1 << 16

// planOf decides how sy's configuration is searched in memory, with
// costs on its edges or not.
func (x *searcher) planOf(sy *System, costs bool) plan {
	// Workers share the levels (levels.go) of an unreduced breadth-first
	// search: the reduction's proviso reads the visited set in the
	// sequential order. Costs are weights on edges, recorded from the
	// start; the workers' chunks carry neither costs nor clocks.
	par := x.par > 1 && x.opts.Search == BFS && !x.reduce && x.depthLimit == noLimit && !costs && !sy.Clocks
	if x.collapsible(sy) {
		// The fastest on one core, and so faster than two workers sharing
		// the byte store; layered graphs (most) need no edges. Its
		// workers look states up on fingerprints: the exact set's
		// numbering reads it in the sequential order.
		// The tag set saves memory on a large search and costs some 6 %
		// of the time on a sweep's small ones (BenchmarkCheck at n = 6):
		// a searcher's first configuration is searched on it, the next
		// ones if the one before was large.
		large := x.lastStates == 0 || x.lastStates >= tagMin || x.opts.tags > 0
		return plan{collapsed: true, parallel: par && !x.opts.Exact, edges: costs,
			tags: !costs && !x.opts.Exact && large && x.opts.tags >= 0}
	}
	return plan{parallel: par, edges: true}
}

// collapsible reports whether the configuration of sy can be searched
// with collapsed states: breadth-first, not forced onto another engine by
// a test, whose protocol does not choose, with channels unbounded, with at
// most 32 processes and with ports that fit a step's key.
func (x *searcher) collapsible(sy *System) bool {
	if x.opts.Search != BFS || x.keepStates ||
		sy.Info.Chooses || sy.Config.Capacity > 0 || // the vector's step table keys no choice, and no held sends
		x.opts.par > 0 || x.opts.bytes ||
		sy.N() > 32 { // the wake-up set is a vector's uint32
		return false
	}
	for _, p := range sy.Config.Topology.Ports {
		if p > 256 {
			return false
		}
	}
	return true
}
