package main

import (
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
