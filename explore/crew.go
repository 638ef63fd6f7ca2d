package explore

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// crew is n goroutines that run a job with the searcher between a
// segment's phases. They wait for the next one spinning a little first:
// phases are a fraction of a millisecond apart, and waking a parked
// thread takes tens of microseconds.
type crew struct {
	jobs     []chan func(w int)
	done     atomic.Int32
	want     int32 // how many were launched
	mu       sync.Mutex
	panicked []any
}

// start starts the crew's n goroutines.
func (cr *crew) start(n int) {
	cr.jobs = make([]chan func(w int), n)
	for w := range n {
		ch := make(chan func(w int), 1)
		cr.jobs[w] = ch
		go func() {
			for {
				var job func(int)
				for spin := 0; job == nil; spin++ {
					if spin < 2000 {
						select {
						case job = <-ch:
						default:
							runtime.Gosched()
							continue
						}
					} else {
						job = <-ch
					}
					if job == nil { // closed
						return
					}
				}
				cr.do(job, w)
			}
		}()
	}
}

// do runs job(w), keeping a panic for wait to raise on the searcher's
// goroutine, where it becomes the configuration's internal error.
func (cr *crew) do(job func(int), w int) {
	defer func() {
		if p := recover(); p != nil {
			cr.mu.Lock()
			cr.panicked = append(cr.panicked, p)
			cr.mu.Unlock()
		}
		cr.done.Add(1)
	}()
	job(w)
}

// run runs f(0), ..., f(k-1) at once, f(k-1) on the calling goroutine, and
// returns when all have.
func (cr *crew) run(k int, f func(w int)) {
	cr.launch(k, f)
	defer cr.wait() // even if f panics: the others must be done before the crew is used again
	f(k - 1)
}

// launch starts f(0), ..., f(k-2) on the crew; wait waits for them.
func (cr *crew) launch(k int, f func(w int)) {
	cr.done.Store(0)
	cr.want = int32(k - 1)
	for w := range k - 1 {
		cr.jobs[w] <- f
	}
}

func (cr *crew) wait() {
	for cr.done.Load() != cr.want {
		runtime.Gosched()
	}
	if len(cr.panicked) > 0 {
		p := cr.panicked[0]
		cr.panicked = nil
		panic(p)
	}
}

// stop ends the crew's goroutines.
func (cr *crew) stop() {
	for _, ch := range cr.jobs {
		close(ch)
	}
	cr.jobs = nil
}
