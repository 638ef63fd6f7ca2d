// Package explore is elcheck's engine: the global transition system of a
// configuration (System: initial state, enabled events, the step), the
// search of its reachable graph (breadth- or depth-first, with partial-order
// reduction, on byte encodings or collapsed vectors, in memory or on disk),
// the analyses of that graph (cycles, the fewest and most messages, costs),
// the self-checks (step purity, comparison-only use of ids, uniformity), and
// Check, which runs every configuration of a space on workers and merges
// their results in enumeration order into one Result with one verdict.
//
// Once a violation is known, Check searches each later configuration only
// as deep as a shorter counterexample could be (sweep.go); docs/semantics.md
// defines what is explored, and docs/architecture.md where each part lives.
package explore
