package invariants

import (
	"fmt"

	"github.com/elcheck/elcheck/spec"
)

// The clauses of the state properties (All). Each says why a state breaks
// it, in the words reports print, or "" when it holds; it allocates only
// then, as the search runs them on its hot path.

// twoLeaders: at most one leader.
func (c *Checker) twoLeaders(s State) string {
	first := -1
	for i, d := range s.Decisions {
		if d.Status != spec.Elected {
			continue
		}
		if first >= 0 {
			return fmt.Sprintf("processes %s and %s are both leaders", c.name(first), c.name(i))
		}
		first = i
	}
	return ""
}

// wrongLeader: a leader is the expected one.
func (c *Checker) wrongLeader(s State) string {
	for i, d := range s.Decisions {
		if d.Status == spec.Elected && !c.valid(c.Config.IDs[i]) {
			return fmt.Sprintf("%s is leader but the winner must be %s (%s)", c.name(i), c.must(), c.Info.Winner)
		}
	}
	return ""
}

// disagree: the processes that know a leader know the same id.
func (c *Checker) disagree(s State) string {
	known, who := spec.None, -1
	for i, d := range s.Decisions {
		if d.Leader == spec.None {
			continue
		}
		if known != spec.None && d.Leader != known {
			return fmt.Sprintf("%s knows leader %d but %s knows leader %d", c.name(who), known, c.name(i), d.Leader)
		}
		known, who = d.Leader, i
	}
	return ""
}

// wrongKnown: the leader id the processes know is the expected one. It
// assumes they agree (disagree, of lower rank), so it reads the last that
// knows one.
func (c *Checker) wrongKnown(s State) string {
	for i := len(s.Decisions) - 1; i >= 0; i-- {
		if l := s.Decisions[i].Leader; l != spec.None {
			if c.valid(l) {
				return ""
			}
			return fmt.Sprintf("%s knows leader %d but the winner must be %s (%s)", c.name(i), l, c.must(), c.Info.Winner)
		}
	}
	return ""
}

// unclean: at the end every process has decided and, unless the protocol
// may leave messages behind, no message is left.
func (c *Checker) unclean(s State) string {
	for i, d := range s.Decisions {
		if d.Status == spec.Undecided {
			return fmt.Sprintf("no event is enabled but %s has not decided", c.name(i))
		}
	}
	if s.InFlight > 0 && !c.Info.Leftovers {
		return fmt.Sprintf("every process has decided but %d message(s) are left in the channels", s.InFlight)
	}
	return ""
}

// noLeader: the run ends with a leader (two are twoLeaders').
func (c *Checker) noLeader(s State) string {
	if leader(s) < 0 {
		return "the run ended with no leader"
	}
	return ""
}

// unlearned: at the end every process knows the leader, where the
// protocol says all learn it (allLearn).
func (c *Checker) unlearned(s State) string {
	l := leader(s)
	if l < 0 {
		return "" // noLeader's
	}
	want := c.Config.IDs[l]
	for i, d := range s.Decisions {
		if d.Leader != want {
			return fmt.Sprintf("the run ended and %s does not know the leader is %d", c.name(i), want)
		}
	}
	return ""
}

// allLearn: the protocol says every process learns the leader's id.
func allLearn(c *Checker) bool { return c.Info.AllLearn }

// leader returns the last process in the leader state, or -1.
func leader(s State) int {
	for i := len(s.Decisions) - 1; i >= 0; i-- {
		if s.Decisions[i].Status == spec.Elected {
			return i
		}
	}
	return -1
}

// valid reports whether id may win (spec.Winner.Valid).
func (c *Checker) valid(id spec.ID) bool {
	if c.Expected != spec.None {
		return id == c.Expected
	}
	return c.Info.Winner.Valid(id, c.Config.IDs, c.Config.Initiators)
}

// must says which id must win: the expected one, or "an initiator's id".
func (c *Checker) must() string {
	if c.Expected != spec.None {
		return fmt.Sprint(c.Expected)
	}
	return "an initiator's id"
}

func (c *Checker) name(i int) string { return fmt.Sprintf("p%d (id %d)", i, c.Config.IDs[i]) }
