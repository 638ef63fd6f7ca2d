package explore

import "sync/atomic"

// checkedSteps are the distinct steps whose first-use checks passed on one
// of a check's searchers: the purity check's firstUseRuns, the
// comparison-only check and the ports check. Each searcher interns steps
// in tables of its own (stepMemo, collapser), so without it every worker
// checked every step it met anew: at n = 6 the two workers of a sweep
// each met the same 470 distinct steps, and these checks were most of the
// time their first configurations took. A step found here is checked by
// its later uses only, as purityDue says for a step met before.
//
// It is a direct-mapped table of step fingerprints (System.stepPrint),
// bounded and without locks: a step whose entry another overwrote is only
// checked again. Two different steps share a fingerprint with probability
// 2^-64 per pair, which would skip one's first-use checks, not change what
// the search finds of a pure protocol.
type checkedSteps struct{ slots []atomic.Uint64 }

// checkedSlots is checkedSteps' size (64 KiB): a DKR sweep meets 470
// distinct steps at n = 6, 1,400 at n = 8.
const checkedSlots = 1 << 13

// newCheckedSteps returns an empty table, mapped in: one worker reading a
// page still mapped to the zero page while the other writes it would
// cost a fault and a TLB flush (populate.go).
func newCheckedSteps() *checkedSteps {
	cs := &checkedSteps{slots: make([]atomic.Uint64, checkedSlots)}
	populate(cs.slots)
	return cs
}

// has reports whether the step of fingerprint h passed its checks.
func (cs *checkedSteps) has(h uint64) bool {
	return cs.slots[h>>32&(checkedSlots-1)].Load() == h|1 // 0 marks an empty slot
}

// add records that the step of fingerprint h passed its checks.
func (cs *checkedSteps) add(h uint64) {
	cs.slots[h>>32&(checkedSlots-1)].Store(h | 1)
}
