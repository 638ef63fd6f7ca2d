package protocols

import (
	"slices"
	"strconv"
	"strings"

	"github.com/elcheck/elcheck/spec"
)

// next is the only port of a process on a unidirectional ring: it sends to
// its successor (Next_p in the lecture notes "Election algorithms", "right
// neighbour" in the lecture slides "Leader Election Algorithms") and receives
// from its predecessor on it.
const next spec.Port = 0

// minID returns the smallest identity of a non-empty list.
func minID(ids []spec.ID) spec.ID { return slices.Min(ids) }

// maxID returns the largest identity of a non-empty list.
func maxID(ids []spec.ID) spec.ID { return slices.Max(ids) }

// withID returns ids ∪ {id} as a new slice: states are values, so the input
// is never appended to in place.
func withID(ids []spec.ID, id spec.ID) []spec.ID {
	if slices.Contains(ids, id) {
		return ids
	}
	out := make([]spec.ID, 0, len(ids)+1)
	out = append(out, ids...)
	return append(out, id)
}

// formatIDs renders a set of identities in ascending order: "{1,3,4}".
func formatIDs(ids []spec.ID) string {
	s := slices.Clone(ids)
	slices.Sort(s)
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(id)))
	}
	b.WriteByte('}')
	return b.String()
}

// log2Floor returns ⌊log₂ n⌋ for n ≥ 1 (0 for n ≤ 1). Bounds use it on n,
// never on identities.
func log2Floor(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}

// cmpSym is how a compares with b, as a step's note shows it: "<", "=" or
// ">". Notes show the values a rule compared (spec.Outbox.Note).
func cmpSym(a, b spec.ID) string {
	switch {
	case a < b:
		return "<"
	case a > b:
		return ">"
	}
	return "="
}

// log2Ceil returns ⌈log₂ n⌉ for n ≥ 1 (0 for n ≤ 1). Bounds use it on n,
// never on identities.
func log2Ceil(n int) int {
	if n <= 1 {
		return 0
	}
	return log2Floor(n-1) + 1
}
