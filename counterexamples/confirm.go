package counterexamples

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
	"github.com/elcheck/elcheck/spec"
)

// Confirmation is how a search's counterexample is made sure of before it
// is reported: elcheck.Verify and `elcheck verify` both run Confirm, so
// that a protocol is named the same by both.
type Confirmation struct {
	// Rebuild re-executes a violation; nil is Rebuild (tests inject
	// failures).
	Rebuild func(spec.Machine, *explore.Violation) (*Trace, error)
	// Elsewhere, if set, replays the trace where nothing the search left
	// in the process survives (the command line: a fresh process), and
	// says whether its violation occurs again there and, if not, what the
	// replay said; an error means it could not be asked (nothing known).
	// where names the place in the finding ("in a fresh process").
	Elsewhere func(t *Trace) (ok bool, why string, err error)
	Where     string
}

// Confirm rebuilds the trace of res's violation (nil if there is none) and
// makes sure it is what it says. A trace that does not run again as the
// search recorded it, a comparison-only finding at a step that does not
// occur again on a fresh copy of its configuration (ids this process has
// not used), or a violation that does not occur again Elsewhere, shows a
// step that is not a function of its input: res's violation becomes that
// step-purity finding, and the property first reported goes back to
// unknown. Any other failure to rebuild is elcheck's own: the error says
// which counterexample did not replay.
//
// A counterexample without steps is a trace too (the configuration, its
// initial state, the property and detail), except for an Init that
// panicked, which has no initial state.
func (c Confirmation) Confirm(m spec.Machine, res *explore.Result) (*Trace, error) {
	v := res.Violation
	if v == nil || len(v.Trace) == 0 && v.LoopAt < 0 && v.Property == invariants.StepPanicked {
		return nil, nil
	}
	rebuild := c.Rebuild
	if rebuild == nil {
		rebuild = Rebuild
	}
	trace, err := rebuild(m, v)
	found := v.Property
	var div *Diverged
	switch {
	case errors.As(err, &div):
		trace = div.PurityFinding()
		v.Property, v.Detail, v.LoopAt = trace.Property, trace.Detail, -1
		v.Trace = v.Trace[:len(trace.Steps)]
	case err != nil:
		return nil, fmt.Errorf("the counterexample found (%s, configuration %s) does not replay: %v", v.Property, v.Config, err)
	default:
		if ok, why, where := onFreshIDs(m, trace); !ok {
			notReproduced(v, trace, where, why)
		} else if c.Elsewhere != nil {
			if ok, why, err := c.Elsewhere(trace); err == nil && !ok {
				notReproduced(v, trace, c.Where, why)
			}
		}
	}
	if v.Property != found {
		demote(res, found)
	}
	if !slices.Contains(res.Violated, v.Property) {
		res.Violated = append(res.Violated, v.Property)
		slices.Sort(res.Violated)
	}
	return trace, nil
}

// demote takes back a violation of found that came from an impure step:
// found is not known to fail.
func demote(res *explore.Result, found string) {
	res.Violated = slices.DeleteFunc(res.Violated, func(p string) bool { return p == found })
	for i, p := range res.Properties {
		if p.Name == found {
			res.Properties[i].Status = explore.Unknown
			res.Properties[i].Note = "its counterexample came from a step that is not a function of its input (step-purity)"
		}
	}
}

// notReproduced turns a counterexample that does not occur again where
// says into the step-purity finding it is.
func notReproduced(v *explore.Violation, t *Trace, where, why string) {
	detail := fmt.Sprintf("the %s counterexample the search found (%s) does not reproduce %s (%s): the protocol keeps state between steps outside its local state, such as a package-level cache or counter (elcheck vet finds them)",
		v.Property, v.Detail, where, why)
	v.Property, v.Detail, v.LoopAt = invariants.StepPurity, detail, -1
	t.Property, t.Detail, t.LoopAt = v.Property, v.Detail, -1
}

// freshShift is the unit of the shifts that move ids to ones the search
// has not used while keeping what arithmetic on ids could see:
// lcm(1..16)·2^6 keeps the order, the differences, the parity, every
// residue modulo 2 to 16 and the low 10 bits, and changes the magnitude
// only.
const freshShift = 720720 << 6

// shifts counts the fresh copies made in this process: each takes the
// next multiple of freshShift, so that a second check (of another call,
// with the same ids) does not meet ids the first one used.
var shifts atomic.Uint32

// onFreshIDs re-runs a comparison-only finding made at a step on a copy of
// its configuration with every id shifted by a multiple of freshShift, ids
// the search used nowhere, and checks its last step there as the search
// did. A protocol that only misuses ids gives the same finding there; a
// step that read a package-level cache filled by the search's other runs
// (its own relabelled runs among them) finds the cache empty for these
// ids, as in a fresh process, and commutes. It returns true where it has
// nothing to say: another property, no step, or ids too spread to shift.
func onFreshIDs(m spec.Machine, t *Trace) (ok bool, why, where string) {
	if t.Property != invariants.ComparisonOnly || len(t.Steps) == 0 {
		return true, "", ""
	}
	lo, hi := slices.Min(t.Config.IDs), slices.Max(t.Config.IDs)
	shift := spec.ID(freshShift) * spec.ID(1+shifts.Add(1)%40)
	for shift > freshShift && hi > spec.MaxID-shift {
		shift -= freshShift
	}
	switch {
	case hi <= spec.MaxID-shift:
	case lo > shift:
		shift = -shift
	default:
		return true, "", ""
	}
	move := func(id spec.ID) spec.ID {
		if id <= spec.None {
			return id
		}
		return id + shift
	}
	cfg := t.Config
	cfg.IDs = make([]spec.ID, len(t.Config.IDs))
	for i, id := range t.Config.IDs {
		cfg.IDs[i] = move(id)
	}
	v := &explore.Violation{Property: t.Property, Detail: t.Detail, Config: cfg, LoopAt: -1}
	for _, st := range t.Steps {
		a := st.Action
		a.Msg.ID = move(a.Msg.ID)
		v.Trace = append(v.Trace, a)
	}
	where = fmt.Sprintf("on a fresh copy of its configuration, ids %v (shifted by %d: the same order, differences, parity and residues, ids the search had not used)", cfg.IDs, shift)
	again, err := Rebuild(m, v)
	if err != nil {
		return false, "its trace does not run there: " + err.Error(), where
	}
	if o := judge(again); !o.Confirmed {
		return false, o.Why, where
	}
	return true, "", ""
}
