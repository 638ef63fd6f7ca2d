package explore

// plan is how one configuration is searched: which store holds its
// states, whether workers share its expansion, and whether edges are
// recorded from the start. plan decides it, in one place; the table in
// docs/architecture.md says why each choice is made. (Check decides the
// rest: how many workers a searcher gets, and search again with state
// caching when the memory budget runs out: searchOnce.)
type plan struct {
	// collapsed: the collapsed store (collapse.go), else byte encodings.
	collapsed bool
	// parallel: x.par workers share each level (levels.go for collapsed
	// states, parallel.go for byte encodings).
	parallel bool
	// edges: record the graph's edges from the start. Without them the
	// search keeps going while the graph is layered, and starts again
	// with them at the first edge that is not (run).
	edges bool
	// tags: the visited set is the tag set (tagset.go), for a search
	// that records no edges on fingerprints. It gives states no index to
	// replay a trace by, so a violation is found again without it (run).
	tags bool
}

// tagMin is the number of states from which a configuration counts as
// large for the tag set (planFor).
const tagMin = 1 << 16

// planFor decides how sy's configuration is searched.
func (x *searcher) planFor(sy *System) plan {
	bfs := x.opts.Search == BFS
	if x.collapsible(sy) {
		// The fastest on one core, and so faster than two workers sharing
		// the byte store; layered graphs (most) need no edges. Workers
		// share the levels (levels.go) of an unreduced search on
		// fingerprints: the reduction's proviso and the exact set's
		// numbering read the visited set in the sequential order.
		// Costs are weights on edges, recorded from the start; the
		// workers' phases carry neither costs nor clocks.
		costs := len(x.opts.Costs) > 0
		// The tag set saves memory on a large search and costs some 6 %
		// of the time on a sweep's small ones (BenchmarkCheck at n = 6):
		// a searcher's first configuration is searched on it, the next
		// ones if the one before was large.
		large := x.lastStates == 0 || x.lastStates >= tagMin || x.opts.tags > 0
		return plan{collapsed: true, parallel: x.par > 1 && !x.reduce && x.depthLimit == noLimit && !x.opts.Exact && !costs && !sy.Clocks, edges: costs,
			tags: !costs && !x.opts.Exact && large && x.opts.tags >= 0}
	}
	// Workers share a level's expansion where the byte store's successors
	// need nothing but the parent: no reduction (its cycle proviso reads
	// the visited set), no costs, no clocks.
	par := x.par > 1 && bfs && !x.reduce && x.depthLimit == noLimit && len(x.opts.Costs) == 0 && !sy.Clocks
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
