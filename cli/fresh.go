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
		t.Property == invariants.ComparisonOnly && len(t.Steps) == 0, len(t.Steps) == 0 && t.LoopAt < 0:
		// The first two are about single steps and are re-checked by the
		// replay itself; the others relate several executions, or run no
		// step, which leaves nothing for hidden state to change. A
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
	case exit != nil && exit.ExitCode() == exitNotReproduced:
		// replay prints the trace, then "NOT REPRODUCED: why".
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return false, "elcheck replay: " + strings.TrimPrefix(lines[len(lines)-1], "NOT REPRODUCED: "), nil
	case exit != nil:
		return false, "", fmt.Errorf("the replay exited %d: %s", exit.ExitCode(), strings.TrimSpace(string(exit.Stderr)))
	}
	return false, "", err
}
