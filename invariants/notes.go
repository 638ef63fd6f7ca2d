package invariants

import (
	"fmt"
	"slices"

	"github.com/elcheck/elcheck/spec"
)

// Figures are what a check found, and how it was set up, from which the
// report's note on each property is written (Property.Report). The
// engines fill them in; the words are here, beside the properties, so that
// adding a property adds its note in the same place.
type Figures struct {
	// N is the number of processes.
	N int
	// Complete: every configuration was searched and none violates a
	// property.
	Complete bool
	// InitiatorsFixed: one initiator set was given (-initiators), so
	// decentralization is not checked.
	InitiatorsFixed bool
	// UniformChecked is the number of states the engine's symmetry
	// self-check ran on, one in UniformEvery (0: the check was off).
	UniformChecked int64
	UniformEvery   int
	// PortBlind records that placements were taken up to automorphisms
	// that move ports, every distinct step checked against every
	// renumbering of its process's ports.
	PortBlind bool
	// Relabellings describes the comparison-only check's relabellings;
	// empty if the check did not run.
	Relabellings string
	// Bound is the declared message bound. BoundIgnored says the search
	// left it to its caller (elcheck bounds compares it itself).
	Bound        spec.Bound
	BoundIgnored bool
	// MaxMessages is the most messages of a complete execution; -1 if
	// there was none.
	MaxMessages int
	// Violated lists the properties some configuration violates, and
	// Reported is the violation reported (nil if none).
	Violated []string
	Reported *Violation
}

// notes writes the note of each property that has one from the figures,
// and says whether the run checked the property at all. A property not in
// the table is always checked and has no note.
var notes = map[string]func(f Figures) (note string, checked bool){
	Decentralization: func(f Figures) (string, bool) {
		switch {
		case f.InitiatorsFixed:
			return "initiators fixed by -initiators", false
		case f.Complete:
			return fmt.Sprintf("all %d non-empty initiator sets", 1<<uint(f.N)-1), true
		}
		return "", true
	},
	Uniformity: func(f Figures) (string, bool) {
		note := UniformityNote(f.UniformChecked, f.UniformEvery)
		if f.PortBlind {
			note += "; placements up to automorphisms that move ports, every distinct step and initial state checked to commute with every renumbering of its process's ports"
		}
		return note, true
	},
	ComparisonOnly: func(f Figures) (string, bool) {
		switch {
		case f.Relabellings == "":
			return "", false
		case f.Complete:
			return f.Relabellings, true
		}
		return "", true
	},
	MessageBound: func(f Figures) (string, bool) {
		switch {
		case f.BoundIgnored:
			return "left to the caller, which compares the figures with the bound itself", false
		case f.Bound.Max == nil:
			return "no bound declared", false
		case f.MaxMessages >= 0 && f.Bound.Of != nil:
			return fmt.Sprintf("max %d, bound %s on each network, at most %d", f.MaxMessages, f.Bound.Formula, f.Bound.Max(f.N)), true
		case f.MaxMessages >= 0:
			return fmt.Sprintf("max %d, bound %s = %d", f.MaxMessages, f.Bound.Formula, f.Bound.Max(f.N)), true
		}
		return "", true
	},
}

// Report returns the report's note on p given the figures of a check, and
// whether the check covered p (false: the report says "not checked"). A
// violated property's note is the reported counterexample's detail if it
// is of p, and says only that it was violated otherwise.
func (p Property) Report(f Figures) (note string, checked bool) {
	if slices.Contains(f.Violated, p.Name) {
		if f.Reported != nil && f.Reported.Property == p.Name {
			return f.Reported.Detail, true
		}
		return "violated in some configuration", true
	}
	if write, ok := notes[p.Name]; ok {
		return write(f)
	}
	return "", true
}

// UniformityNote is the report's note on uniformity. A protocol cannot
// break it: a process is given its id and its ports, never its position, so
// its behaviour is the same wherever it stands. What can break is the
// engine's own symmetry (the successor function must commute with the
// topology's automorphisms), which a sample of states checks; the note
// says on how many, one in every.
func UniformityNote(checked int64, every int) string {
	const why = "by construction: a process sees its id and its ports, never its position"
	switch {
	case every == 0:
		return why + "; the engine's symmetry self-check was off"
	case checked == 0:
		return why + "; the engine's symmetry self-check ran on no state"
	}
	return fmt.Sprintf("%s; the engine's symmetry self-check ran on %d states (every %dth)", why, checked, every)
}
