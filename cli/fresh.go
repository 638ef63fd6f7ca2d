package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/elcheck/elcheck/counterexamples"
	"github.com/elcheck/elcheck/explore"
	"github.com/elcheck/elcheck/invariants"
)

// freshEnv marks a process that elcheck started to replay a counterexample
// (tests read it to give the child the same protocols as the parent).
const freshEnv = "ELCHECK_FRESH_REPLAY"

// confirmFresh replays the counterexample t in a new elcheck process, where
// nothing the protocol keeps between steps outside its state (a
// package-level cache, a counter) survives from the search. The search
// checks its own trace step by step, but in the same process such state is
// as the search left it, so a trace can run there and nowhere else. It
// reports whether the violation occurs again, and what the replay said;
// err says why it could not be asked (then nothing is known).
func confirmFresh(ctx context.Context, t *counterexamples.Trace) (ok bool, why string, err error) {
	switch {
	case t.Property == invariants.StepPurity, t.Property == invariants.StepPanicked, t.Property == invariants.Uniformity,
		t.Property == invariants.ComparisonOnly && len(t.Steps) == 0:
		// The first two are about single steps and are re-checked by the
		// replay itself; the others relate several executions. A
		// comparison-only finding at a step is asked again: a step that
		// reads a package-level cache filled earlier in this process can
		// differ from its relabelled run here and not in a fresh process.
		return true, "", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return false, "", err
	}
	dir, err := os.MkdirTemp("", "elcheck-fresh-")
	if err != nil {
		return false, "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "trace.json")
	if err := t.WriteFile(file); err != nil {
		return false, "", err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "replay", file)
	cmd.Env = append(os.Environ(), freshEnv+"=1")
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == exitViolated:
		return true, "", nil
	case err == nil:
		// replay prints the trace, then "NOT REPRODUCED: why".
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return false, strings.TrimPrefix(lines[len(lines)-1], "NOT REPRODUCED: "), nil
	case exit != nil && exit.ExitCode() == exitUsage && strings.Contains(string(exit.Stderr), "does not fit"):
		// A step the trace takes is not even enabled there.
		msg := strings.TrimSpace(string(exit.Stderr))
		return false, strings.TrimPrefix(msg, "elcheck: "), nil
	case exit != nil:
		return false, "", fmt.Errorf("the replay exited %d: %s", exit.ExitCode(), strings.TrimSpace(string(exit.Stderr)))
	}
	return false, "", err
}

// notReproduced turns a counterexample that does not occur again in a
// fresh process into the step-purity finding it is.
func notReproduced(v *explore.Violation, t *counterexamples.Trace, why string) {
	detail := fmt.Sprintf("the %s counterexample the search found (%s) does not reproduce in a fresh process (elcheck replay: %s): the protocol keeps state between steps outside its local state, such as a package-level cache or counter (elcheck vet finds them)",
		v.Property, v.Detail, why)
	v.Property, v.Detail, v.LoopAt = invariants.StepPurity, detail, -1
	t.Property, t.Detail, t.LoopAt = v.Property, v.Detail, -1
}
