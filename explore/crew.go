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
	jobs []chan func(w int)
	done atomic.Int32
	want int32 // how many were launched
	// woken has a token once the last launched is done, for a wait that
	// stopped spinning.
	woken    chan struct{}
	mu       sync.Mutex
	panicked []any
}

// start starts the crew's n goroutines.
func (cr *crew) start(n int) {
	cr.jobs = make([]chan func(w int), n)
	if cr.woken == nil { // made once: a stopped crew's last may still signal
		cr.woken = make(chan struct{}, 1)
	}
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
	want := cr.want // set before the job was sent; the next launch may change it
	defer func() {
		if p := recover(); p != nil {
			cr.mu.Lock()
			cr.panicked = append(cr.panicked, p)
			cr.mu.Unlock()
		}
		if cr.done.Add(1) == want {
			select {
			case cr.woken <- struct{}{}:
			default: // a token is there already
			}
		}
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
	select {
	case <-cr.woken: // the last jobs'
	default:
	}
	cr.done.Store(0)
	cr.want = int32(k - 1)
	for w := range k - 1 {
		cr.jobs[w] <- f
	}
}

// wait spins a little too, then parks: on a machine busy with other
// work, a waiter spinning on the core its crew needs held them up (a
// tenth of the time of two workers).
func (cr *crew) wait() {
	for spin := 0; cr.done.Load() != cr.want; spin++ {
		if spin < 2000 {
			runtime.Gosched()
		} else {
			<-cr.woken // a token left by an earlier job only loops again
		}
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
