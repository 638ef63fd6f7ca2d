package elcheck_test

import (
	"context"
	"fmt"

	"github.com/elcheck/elcheck"
	"github.com/elcheck/elcheck/protocols"
)

// Verifying a protocol: every placement of ids and every initiator set on
// rings of 4.
func ExampleVerify() {
	cr, _ := protocols.Lookup("cr")
	rep, err := elcheck.Verify(context.Background(), cr, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict)
	fmt.Println(rep.Configurations, "configurations,", rep.States, "states")
	fmt.Println("messages:", rep.MinMessages, "to", rep.MaxMessages)
	// Output:
	// VERIFIED
	// 90 configurations, 1392 states
	// messages: 11 to 14
}

// A buggy variant: the report holds the shortest counterexample,
// re-executed and rendered.
func ExampleVerify_violated() {
	flip, _ := protocols.Lookup("cr-flip")
	rep, err := elcheck.Verify(context.Background(), flip, 3, elcheck.IDs(1, 2, 3), elcheck.Initiators(0))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict)
	fmt.Println(len(rep.Counterexample.Steps), "steps")
	fmt.Print(rep.Text)
	// Output:
	// VIOLATED: validity
	// 7 steps
	// validity: p0 (id 1) is leader but the winner must be 3 (max of all ids)
	// configuration: cr-flip, unidirectional ring of 3, ids [1 2 3] (by position), initiators [0], fifo channels
	// initial state:
	//     p0 (id 1): sleep (initiator, not yet woken)
	//     p1 (id 2): sleep
	//     p2 (id 3): sleep
	// step 1: p0 (id 1) wakes up
	//     sleep -> participating
	//     sends probe(1) to p1
	//     in flight: p0->p1 [probe(1)]
	// step 2: p1 (id 2) receives probe(1) from p0
	//     sleep -> participating
	//     why: relay probe(1): 2 > 1
	//     sends probe(2) to p2, probe(1) to p2
	//     in flight: p1->p2 [probe(2) probe(1)]
	// step 3: p2 (id 3) receives probe(2) from p1
	//     sleep -> participating
	//     why: relay probe(2): 3 > 2
	//     sends probe(3) to p0, probe(2) to p0
	//     in flight: p1->p2 [probe(1)], p2->p0 [probe(3) probe(2)]
	// step 4: p2 (id 3) receives probe(1) from p1
	//     participating -> participating
	//     why: relay probe(1): 3 > 1
	//     sends probe(1) to p0
	//     in flight: p2->p0 [probe(3) probe(2) probe(1)]
	// step 5: p0 (id 1) receives probe(3) from p2
	//     participating -> participating
	//     why: discard probe(3): 1 < 3
	//     in flight: p2->p0 [probe(2) probe(1)]
	// step 6: p0 (id 1) receives probe(2) from p2
	//     participating -> participating
	//     why: discard probe(2): 1 < 2
	//     in flight: p2->p0 [probe(1)]
	// step 7: p0 (id 1) receives probe(1) from p2
	//     participating -> leader
	//     why: own probe(1) back: leader
	//     sends selected(1) to p1
	//     in flight: p0->p1 [selected(1)]
	// final state:
	//     p0 (id 1): leader
	//     p1 (id 2): participating
	//     p2 (id 3): participating
	//     in flight: p0->p1 [selected(1)]
}

// Bad arguments are errors, not verdicts.
func ExampleVerify_error() {
	cr, _ := protocols.Lookup("cr")
	_, err := elcheck.Verify(context.Background(), cr, 0)
	fmt.Println(err)
	_, err = elcheck.Verify(context.Background(), cr, 3, elcheck.IDs(1, 2))
	fmt.Println(err)
	// Output:
	// elcheck: cr on 0 processes: n must be between 1 and 16
	// elcheck: cr: 2 ids for 3 processes: give one id per position
}
