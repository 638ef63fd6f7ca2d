package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Without -memory, a search that outgrows the machine would be killed by
// the system (Linux's OOM killer) and leave nothing: no verdict, no
// figures, no exit code of elcheck's. The guard stops it first, as
// Ctrl-C does, and the report says INCOMPLETE and why (exit 3).

// guardShare is the part of the memory available at the start that the
// process may hold before the guard stops the search: the rest is for the
// report, the counterexample and the system.
const guardShare = 0.9

// guardEvery is how often the guard looks; reading the runtime's metrics
// takes a microsecond and stops nothing.
const guardEvery = 50 * time.Millisecond

// Near the limit the collector, which keeps the heap under it
// (debug.SetMemoryLimit), runs almost without pause and the search
// crawls (measured: 24,000 states/s against 89,000, at 16 GiB of 24, and
// 20 s to answer Ctrl-C). The guard stops a search whose memory is within
// guardNear of the limit while the collector took more than guardGC of
// the CPU time over the last guardWindow.
const (
	guardNear   = 0.9
	guardGC     = 0.3
	guardWindow = time.Second
)

// outOfMemory is the cause of a search the guard stopped.
type outOfMemory struct{ held, live, limit uint64 }

func (e outOfMemory) Error() string {
	return fmt.Sprintf("out of memory: the process held %s (live data %s) of the %s it may take, 90 %% of what the system had available; -memory=SIZE searches on disk instead",
		sizeText(e.held), sizeText(e.live), sizeText(e.limit))
}

// sizeText renders a number of bytes for a person, in MiB or GiB.
func sizeText(b uint64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
}

// guardMemory returns ctx, cancelled with outOfMemory as its cause once
// the memory the Go runtime holds passes guardShare of what is available
// (available returns the bytes this process may use, as the system sees
// it at the start, or 0 if it cannot tell, for no guard),
// or comes near it while the collector takes the CPU, and the function
// that stops the guard. It sets the collector's soft limit there, so that
// garbage is collected before it counts: with GOGC=400 (Run) the heap may
// otherwise hold four times the live data.
func guardMemory(ctx context.Context, available func() uint64) (context.Context, func()) {
	avail := available()
	if avail == 0 {
		return ctx, func() {}
	}
	limit := uint64(float64(avail) * guardShare)
	prev := debug.SetMemoryLimit(int64(min(limit, 1<<62)))
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(guardEvery)
		defer tick.Stop()
		// The collector's and all CPU time at each of the last ticks.
		var gc, all [int(guardWindow / guardEvery)]float64
		for k := 0; ; k++ {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			m := readMemory()
			i := k % len(gc)
			share := 0.0
			if k >= len(gc) && m.all > all[i] {
				share = (m.gc - gc[i]) / (m.all - all[i])
			}
			gc[i], all[i] = m.gc, m.all
			if m.held > limit || float64(m.held) > guardNear*float64(limit) && share > guardGC {
				cancel(outOfMemory{m.held, m.live, limit})
				return
			}
		}
	}()
	return ctx, func() { close(done); cancel(nil); debug.SetMemoryLimit(prev) }
}

// memory is what the guard reads of the runtime: the memory held (mapped
// and not given back: the resident memory, or an upper bound of it), the
// heap's live data at the end of the last collection, and the CPU time
// of the collector and of the whole process (the runtime's estimates).
type memory struct {
	held, live uint64
	gc, all    float64
}

func readMemory() memory {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
		{Name: "/gc/heap/live:bytes"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/total:cpu-seconds"}}
	metrics.Read(s)
	return memory{held: s[0].Value.Uint64() - s[1].Value.Uint64(), live: s[2].Value.Uint64(), gc: s[3].Value.Float64(), all: s[4].Value.Float64()}
}

// heldMemory is readMemory's held.
func heldMemory() uint64 { return readMemory().held }
