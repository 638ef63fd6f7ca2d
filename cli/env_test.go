package cli

import (
	"strings"
	"sync"
	"testing"
)

// Runs share no state: two at once, each with its own protocols, see only
// their own.
func TestRunsAtOnce(t *testing.T) {
	mine, plain := userEnv(t), newEnv(nil)
	var wg sync.WaitGroup
	var codes [4]int
	var outs [4]string
	for i, r := range []struct {
		e    *env
		args []string
	}{
		{mine, []string{"verify", "-algo=my-cr", "-n=3"}},
		{plain, []string{"verify", "-algo=my-cr", "-n=3"}},
		{mine, []string{"list", "-correct"}},
		{plain, []string{"list", "-correct"}},
	} {
		wg.Go(func() {
			var stderr string
			codes[i], outs[i], stderr = r.e.elcheck(r.args...)
			outs[i] += stderr
		})
	}
	wg.Wait()
	if codes[0] != exitVerified || !strings.HasSuffix(outs[0], "VERIFIED\n") {
		t.Errorf("my-cr where it is known: exit %d:\n%s", codes[0], outs[0])
	}
	if codes[1] != exitUsage || !strings.Contains(outs[1], `unknown algorithm "my-cr"`) {
		t.Errorf("my-cr where it is not known: exit %d:\n%s", codes[1], outs[1])
	}
	if !strings.Contains(outs[2], "my-cr\n") || strings.Contains(outs[3], "my-cr") {
		t.Errorf("list -correct with and without my-cr:\n%s\nand\n%s", outs[2], outs[3])
	}
}
