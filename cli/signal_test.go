//go:build unix

package cli

import (
	"context"
	"os"
	"syscall"
	"testing"
)

// A hangup (a terminal closed, an ssh connection lost) stops a search as
// Ctrl-C and SIGTERM do, so that the run still prints what it found. A
// signal searchContext does not catch kills the test binary instead.
func TestStopSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		ctx, stop := searchContext(context.Background(), 0, nil)
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		<-ctx.Done()
		stop()
		if got, want := context.Cause(ctx).Error(), sig.String()+" signal received"; got != want {
			t.Errorf("%v: the search stopped for %q, want %q", sig, got, want)
		}
	}
}
