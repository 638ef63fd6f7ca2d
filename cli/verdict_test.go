package cli

import (
	"strings"
	"testing"

	"github.com/elcheck/elcheck/bounds"
	"github.com/elcheck/elcheck/invariants"
	"github.com/urfave/cli/v2"
)

// Every outcome has its text and its exit code, for verify and merge (an
// invariants.Verdict) and for bounds (a bounds.Verdict): the code comes from
// the typed outcome, never from the text.
func TestVerdictExitCodes(t *testing.T) {
	ok := invariants.Verdict{Outcome: invariants.Verified}
	tests := []struct {
		v    interface{ String() string }
		o    invariants.Outcome
		text string
		code int
	}{
		{ok, invariants.Verified, "VERIFIED", exitVerified},
		{invariants.Verdict{Outcome: invariants.Violated, Property: invariants.Validity}, invariants.Violated, "VIOLATED: validity", exitViolated},
		{invariants.Verdict{Outcome: invariants.Incomplete, Reason: "time limit reached after 1 of 6 configurations"}, invariants.Incomplete,
			"INCOMPLETE: time limit reached after 1 of 6 configurations", exitIncomplete},
		{invariants.Verdict{Outcome: invariants.Internal, Reason: "internal error after 0 of 6 configurations"}, invariants.Internal,
			"INCOMPLETE: internal error after 0 of 6 configurations", exitInternal},
		{bounds.Verdict{Verdict: ok, Declared: true}, invariants.Verified, "WITHIN BOUND", exitVerified},
		{bounds.Verdict{Verdict: ok}, invariants.Verified, "NO BOUND DECLARED", exitVerified},
		{bounds.Verdict{Verdict: invariants.Verdict{Outcome: invariants.Violated, Property: invariants.MessageBound, Reason: "the declared bound n at n=3"}, Declared: true},
			invariants.Violated, "EXCEEDED: the declared bound n at n=3", exitViolated},
		{bounds.Verdict{Verdict: invariants.Verdict{Outcome: invariants.Violated, Property: invariants.StepPurity}, Declared: true},
			invariants.Violated, "VIOLATED: step-purity", exitViolated},
		{bounds.Verdict{Verdict: invariants.Verdict{Outcome: invariants.Incomplete, Reason: "n=4: state limit of 130 reached"}, Declared: true},
			invariants.Incomplete, "INCOMPLETE: n=4: state limit of 130 reached", exitIncomplete},
	}
	for _, tt := range tests {
		if got := tt.v.String(); got != tt.text {
			t.Errorf("%+v: text %q, want %q", tt.v, got, tt.text)
		}
		if got := exitCode(tt.o); got != tt.code {
			t.Errorf("%s: exit code %d, want %d", tt.text, got, tt.code)
		}
		err := verdictExit(tt.o)
		switch e, isExit := err.(cli.ExitCoder); {
		case tt.code == exitVerified && err != nil:
			t.Errorf("%s: %v, want no error", tt.text, err)
		case tt.code != exitVerified && (!isExit || e.ExitCode() != tt.code || e.Error() != ""):
			t.Errorf("%s: %v, want exit %d without a message", tt.text, err, tt.code)
		}
	}
}

// The property notes, written now by invariants' table from explore's
// figures, read as they did when explore wrote them (these blocks are the
// output of the build before the move; one worker, so that where the state
// limit stops does not depend on the machine).
func TestPropertyNotes(t *testing.T) {
	const why = "by construction: a process sees its id and its ports, never its position; the engine's symmetry self-check ran on "
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"verify", "-algo=dkr", "-n=3"}, exitVerified, `properties
  at-most-one-leader   holds
  agreement            holds
  termination          holds
  exactly-one-leader   holds
  validity             holds
  decentralization     holds  (all 7 non-empty initiator sets)
  uniformity           holds  (` + why + `14 states (every 17th))
  comparison-only      holds  (every distinct step and initial state checked to commute with 2 order-preserving relabellings of the ids it reads (top: the largest id made 2147483647, the others' parity and residue mod 3 changed; random: seed 1: increasing ids drawn from the whole range))
  message-bound        holds  (max 12, bound 2N⌊log N⌋ + 2N = 12)
VERIFIED
`},
		{[]string{"verify", "-algo=dkr", "-n=3", "-initiators=0", "-skip-comparison-only"}, exitVerified, `properties
  at-most-one-leader   holds
  agreement            holds
  termination          holds
  exactly-one-leader   holds
  validity             holds
  decentralization     not checked  (initiators fixed by -initiators)
  uniformity           holds  (` + why + `2 states (every 17th))
  comparison-only      not checked
  message-bound        holds  (max 6, bound 2N⌊log N⌋ + 2N = 12)
VERIFIED
`},
		{[]string{"verify", "-algo=dkr-nosecond", "-n=4", "-max-states=100", "-workers=1"}, exitIncomplete, `properties
  at-most-one-leader   unknown
  agreement            unknown
  termination          unknown
  exactly-one-leader   unknown
  validity             unknown
  decentralization     unknown
  uniformity           unknown  (` + why + `11 states (every 17th))
  comparison-only      unknown
  message-bound        unknown  (max 16, bound 2N⌊log N⌋ + 2N = 24)
INCOMPLETE: state limit of 100 reached after 6 of 90 configurations
`},
	}
	for _, tt := range tests {
		code, out, stderr := elcheck(tt.args...)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s", tt.args, code, tt.code, stderr)
		}
		if _, got, _ := strings.Cut(out, "\nproperties\n"); "properties\n"+got != tt.want {
			t.Errorf("%v: the properties read\n%s\nwant\n%s", tt.args, "properties\n"+got, tt.want)
		}
	}
}
