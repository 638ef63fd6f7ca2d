/*
 * Chang-Roberts leader election on a unidirectional ring, as elcheck models
 * it (protocols/cr.go, algorithm "cr"): the lecture slides "Leader Election
 * Algorithms", "Improved algorithm" (Chang and Roberts 1979), steps 1-3
 * with PROBE and SELECTED (docs/references.md#slides-leader, #cr79); the
 * maximum id wins, and a sleeping process joins on its first probe.
 *
 * Same harness as dkr.pml (SPIN's leader0.pml style: chan q[N] = [2N] of
 * { mtype, byte }, xr/xs, nr_leaders):
 *   - N processes:  spin -DN=7 -a cr.pml  (default 5, at most 16);
 *   - the process at position i receives on q[i], sends on q[(i+1)%N];
 *   - the id at position i is (N+2-i) % N + 1, leader0's own placement
 *     ((N+I-proc)%N+1 with I=3, proc=i+1): N=5: 3,2,1,5,4. Ids decrease
 *     along the ring but for one step, which is close to Chang-Roberts's
 *     worst case (probe k travels k hops or so);
 *   - initiators: the bit mask INITS (default every position). The max id N
 *     always wins, initiator or not.
 *
 * Checked: at-most-one-leader (nr_leaders <= 1), validity and agreement
 * (every process's leader is N), exactly-one-leader (asserted by the last
 * process to decide), clean termination (a process that has finished
 * receives nothing more; SPIN's end-state check catches a blocked process);
 * with -DMSGBOUND, the bound n(n+1)/2 + n (elcheck's crBound).
 */

#ifndef N
#define N 5
#endif
#ifndef INITS
#define INITS ((1 << N) - 1)
#endif
#ifndef L
#define L (2 * N)	/* buffer size, as leader0.pml: >= 2N; -DL=... to change */
#endif

mtype = { probe, selected };
chan q[N] = [L] of { mtype, byte };

byte nr_leaders = 0;
byte nr_decided = 0;

#ifdef MSGBOUND
byte nr_msgs = 0;
#define send(k, v)	atomic { out!k(v); nr_msgs++; assert(nr_msgs <= N * (N + 1) / 2 + N) }
#else
#define send(k, v)	out!k(v)
#endif

#define decide(x)	atomic { \
		assert(leader == N); \
		if :: x -> nr_leaders++ :: else fi; \
		assert(nr_leaders <= 1); \
		nr_decided++; \
		assert(nr_decided < N || nr_leaders == 1) }

proctype cr(chan inp, out; byte i; bit initiator)
{
	bit participate = 0;
	byte leader = 0;	/* 0 = unknown */
	byte k;
	mtype m;

	xr inp;
	xs out;

	/* 1. When a process wakes up: send PROBE(i); participate := true */
	if
	:: initiator -> send(probe, i); participate = 1
	:: else
	fi;
	do
	:: inp?probe(k) ->
		/* 2. if participate = false execute step 1 first */
		if
		:: !participate -> send(probe, i); participate = 1
		:: else
		fi;
		if
		:: i > k -> skip		/* discard the probe */
		:: i < k -> send(probe, k)	/* forward it */
		:: i == k ->			/* declare i the leader */
			leader = i;
			decide(true);
			send(selected, i)
		fi
	:: inp?selected(k) ->
		/* 3. if x != i: leader := x; forward, else discard */
		if
		:: k != i ->
			leader = k;
			decide(false);
			send(selected, k)
		:: else
		fi;
		break
	od;
	/* Finished: nothing more may arrive (see dkr.pml). */
end:	inp?m(k);
	assert(false)
}

init {
	byte i;
	atomic {
		i = 0;
		do
		:: i < N ->
			run cr(q[i], q[(i + 1) % N], (N + 2 - i) % N + 1, (INITS >> i) & 1);
			i++
		:: else -> break
		od
	}
}
