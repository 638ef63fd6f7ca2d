/*
 * Dolev-Klawe-Rodeh leader election on a unidirectional ring, as elcheck
 * models it (protocols/dkr.go, algorithm "dkr"): the pseudo-code of the
 * lecture notes "Election algorithms", "Dolev-Klawe-Rodeh algorithm (DKR)",
 * slides 6-8 (docs/references.md#notes-election, #dkr82). Rounds of
 * (one, c) and (two, acn) messages between active processes; the smallest
 * initiator's id survives; (small, id) tells everyone the winner; the
 * process whose own id equals win is the leader (it may be passive: ids
 * move downstream).
 *
 * Structure and instrumentation follow SPIN's own DKR example
 * (Examples/leader0.pml in the SPIN distribution: one process per ring
 * position, chan q[N] = [2N] of { mtype, byte }, xr/xs channel assertions,
 * nr_leaders), but the process text is the lecture notes' sequential
 * program, not leader0's event loop, and the minimum wins (leader0 finds
 * the maximum).
 *
 * Configuration (one, fixed):
 *   - N processes:  spin -DN=7 -a dkr.pml  (default 5, at most 16);
 *   - the process at position i (0..N-1) receives on q[i] and sends on
 *     q[(i+1)%N], as in elcheck (process i sends to process i+1 mod n);
 *   - the id at position i is N - ((N+2-i) % N): leader0's placement
 *     ((N+I-proc)%N+1 with I=3, proc=i+1) mirrored by id -> N+1-id, so that
 *     this min-finding model sees the same relative order as leader0's
 *     max-finding one.  N=5: 3,4,5,1,2.  N=7: 5,6,7,1,2,3,4.  Min id 1;
 *   - initiators: the bit mask INITS (default: every position); MINWIN is
 *     the id that must win (default 1, right when position 3 initiates).
 *
 * Checked (the safety half of what elcheck checks on this configuration):
 *   - at-most-one-leader: assert(nr_leaders <= 1) when a process decides;
 *   - validity and agreement: every process's win is MINWIN;
 *   - exactly-one-leader: the last process to decide asserts nr_leaders == 1;
 *   - clean termination: a decided process that receives anything fails an
 *     assertion, so every end state has empty channels, and SPIN's
 *     invalid-end-state check reports any process blocked before deciding;
 *   - only with -DMSGBOUND: the message bound 2N*floor(log2 N) + 2N
 *     (elcheck's dkrBound), with a global message counter. Off by default:
 *     the counter is a global variable written by every send, which defeats
 *     most of the partial-order reduction (n=5: 117 states become 1,200;
 *     unreduced it adds only 4, the count being a function of the state).
 * Not checked: elcheck's no-cycle half of termination (SPIN would need
 * progress labels and pan -l), uniformity, comparison-only.
 *
 * Buffers hold 2N messages (-DL=... to change). A send to a full channel
 * would block and hide behaviours, but none fills: at N=7 the state count is
 * the same with L=3 as with L=14 (with L=2 it drops).
 *
 * -DNOSECOND gives elcheck's buggy variant dkr-nosecond (the elimination test
 * forgets acn < q); see dkr_nosecond.pml. dkr_steps.pml is the same protocol
 * at elcheck's granularity, one atomic step per elcheck step.
 */

#ifndef N
#define N 5
#endif
#ifndef INITS
#define INITS ((1 << N) - 1)	/* every position initiates */
#endif
#ifndef MINWIN
#define MINWIN 1		/* the smallest initiator's id */
#endif
#ifndef L
#define L (2 * N)	/* buffer size, as leader0.pml: >= 2N; -DL=... to change */
#endif

mtype = { one, two, small };
chan q[N] = [L] of { mtype, byte };

byte nr_leaders = 0;	/* processes in the leader state */
byte nr_decided = 0;	/* processes that have set win */

#ifdef MSGBOUND
byte nr_msgs = 0;	/* messages sent so far */
byte bound;		/* 2N*floor(log2 N) + 2N, set by init */
#define send(k, v)	atomic { out!k(v); nr_msgs++; assert(nr_msgs <= bound) }
#else
#define send(k, v)	out!k(v)
#endif

proctype dkr(chan inp, out; byte p; bit initiator)
{
	byte c = p;	/* c_p: current identity of p */
	byte acn = 0;	/* acn_p: anticlockwise active neighbour's id (0 = undef) */
	byte win = 0;	/* win_p: id of the winner (0 = undef) */
	byte r;		/* the pseudo-code's q (q is the channel array here) */
	mtype m;
	bit is_active = initiator;	/* if p is initiator then active else passive */

	xr inp;
	xs out;

	do
	:: win != 0 -> break		/* while win_p = undef */
	:: else ->
		if
		:: is_active ->
			send(one, c);
			inp?one(acn);		/* receive (one, q); acn_p := q */
			if
			:: acn == c ->		/* acn_p is the minimum */
				send(small, acn);
				inp?small(r);
				win = r		/* the slide's "c_i := acn_p": see protocols/dkr.go */
			:: else ->		/* acn_p is current id of neighbour */
				send(two, acn);
				inp?two(r);
				if
#ifdef NOSECOND
				:: acn < c -> c = acn		/* the bug: r is ignored */
#else
				:: acn < c && acn < r -> c = acn
#endif
				:: else -> is_active = 0
				fi
			fi
		:: else ->			/* passive */
			inp?one(r); send(one, r);
			inp?m(r); send(m, r);	/* m is either (two, q) or (small, q) */
			if
			:: m == small -> win = r
			:: else
			fi
		fi
	od;
	/* if p = win_p then state_p := leader else state_p := lost */
	atomic {
		assert(win == MINWIN);
		if
		:: p == win -> nr_leaders++
		:: else
		fi;
		assert(nr_leaders <= 1);
		nr_decided++;
		assert(nr_decided < N || nr_leaders == 1)
	};
	/* A decided process receives nothing more. A message left in its channel
	 * would be taken here and fail, so every end state has empty channels;
	 * blocking here is a valid end state. (init cannot test len(q[i])
	 * itself: xr/xs reserve the channels to the ring processes, and pan's
	 * partial-order reduction rejects the polling at run time.) */
end:	inp?m(r);
	assert(false)
}

init {
	byte i;
#ifdef MSGBOUND
	byte k = N, lg = 0;
	do
	:: k > 1 -> k = k / 2; lg++
	:: else -> break
	od;
	bound = 2 * N * lg + 2 * N;
#endif
	atomic {
		i = 0;
		do
		:: i < N ->
			run dkr(q[i], q[(i + 1) % N], N - ((N + 2 - i) % N), (INITS >> i) & 1);
			i++
		:: else -> break
		od
	}
}
