package invariants

// Outcome is what a check established, as a value: the CLI derives its
// exit code from it and reports print it through Verdict.String, so that
// no caller has to read a verdict back out of its text.
type Outcome uint8

// The outcomes of a check.
const (
	// Verified: every property checked holds over the whole space.
	Verified Outcome = iota
	// Violated: some configuration breaks a property (Verdict.Property).
	Violated
	// Incomplete: the search stopped early (Verdict.Reason) and found
	// nothing; nothing is claimed.
	Incomplete
	// Internal: a fault of elcheck itself stopped the check; no verdict
	// on the protocol is given.
	Internal
)

// String names the outcome in lower case, for messages.
func (o Outcome) String() string {
	return [...]string{"verified", "violated", "incomplete", "internal error"}[o]
}

// Verdict is the overall verdict of a check.
type Verdict struct {
	Outcome Outcome
	// Property is the property reported violated (Outcome Violated).
	Property string
	// Reason says why the search stopped early (Outcome Incomplete or
	// Internal).
	Reason string
}

// String is the report's last line: "VERIFIED", "VIOLATED: p" or
// "INCOMPLETE: why". An internal error reads as the incomplete search it
// also is ("INCOMPLETE: internal error after ..."), the text reports have
// always carried; what sets it apart is its Outcome, hence its exit code.
func (v Verdict) String() string {
	switch v.Outcome {
	case Violated:
		return "VIOLATED: " + v.Property
	case Incomplete, Internal:
		return "INCOMPLETE: " + v.Reason
	}
	return "VERIFIED"
}

// outcomeNames are the outcomes as the JSON reports spell them
// (docs/json.md): stable words for scripts, unlike the verdict's text.
var outcomeNames = [...]string{Verified: "verified", Violated: "violated", Incomplete: "incomplete", Internal: "internal"}

// JSONVerdict is a verdict as the JSON reports of verify, merge and bounds
// carry it, beside the text line, so that no script has to read the
// verdict out of its text.
type JSONVerdict struct {
	// Outcome is "verified", "violated", "incomplete" or "internal".
	Outcome string `json:"outcome"`
	// Property is the property reported violated (outcome violated).
	Property string `json:"property,omitempty"`
	// Reason says why the search stopped early (outcome incomplete or
	// internal), or, for an exceeded message bound, where.
	Reason string `json:"reason,omitempty"`
}

// JSON is the verdict as the JSON reports carry it.
func (v Verdict) JSON() JSONVerdict {
	return JSONVerdict{Outcome: outcomeNames[v.Outcome], Property: v.Property, Reason: v.Reason}
}
