/*
 * Dolev-Klawe-Rodeh at elcheck's granularity: one atomic Promela step per
 * elcheck step. dkr.pml is the lecture notes' sequential program, where
 * every receive and every send is a SPIN transition of its own; this model is
 * protocols/dkr.go's Step function, event by event, each event (a wake-up,
 * or the delivery of the oldest message of the process's channel, with the
 * sends it causes) one atomic sequence, and the local state normalised as
 * DKRState is (a passive process forgets c, acn is reset after a round).
 * SPIN's unreduced state graph of this model is elcheck's, plus the init
 * process's states around it, so the two state counts can be compared one
 * for one; and SPIN's states/s on it is the throughput figure to put next
 * to elcheck's (docs/spin.md).
 *
 * Same configuration, ids and checks as dkr.pml (spin -DN=7 -a
 * dkr_steps.pml; INITS, MINWIN), except for the end: a decided process
 * absorbs anything it gets (elcheck's Step does), and at the end
 * (timeout: nothing is enabled) init asserts that every process decided
 * and that there is one leader. Channels are empty then: every process
 * always accepts the head of its channel.
 */

#ifndef N
#define N 5
#endif
#ifndef INITS
#define INITS ((1 << N) - 1)
#endif
#ifndef MINWIN
#define MINWIN 1
#endif
#ifndef L
#define L (2 * N)
#endif

mtype = { one, two, small };
chan q[N] = [L] of { mtype, byte };

byte nr_leaders = 0;
byte nr_decided = 0;

/* the phases of protocols/dkr.go */
#define SLEEP	0
#define ACT1	1	/* active, sent (one, c): receive (one, q) */
#define ACT2	2	/* active, sent (two, acn): receive (two, q) */
#define ACTS	3	/* active, sent (small, acn): receive (small, q) */
#define PAS1	4	/* passive: receive (one, q), send it */
#define PASM	5	/* passive: receive m, send it (two or small) */
#define DONE	6

#define decide(w)	win = w; \
		phase = DONE; \
		assert(win == MINWIN); \
		if :: p == win -> nr_leaders++ :: else fi; \
		assert(nr_leaders <= 1); \
		nr_decided++

proctype dkr(chan inp, out; byte p; bit initiator)
{
	byte c = p, acn = 0, win = 0, r;
	byte phase = SLEEP;
	bit pending = initiator;	/* the wake-up is still to happen */
	mtype m;

	xr inp;
	xs out;

end:	do
	:: atomic { pending -> pending = 0; phase = ACT1; out!one(c) }
	:: atomic { !pending && nempty(inp) -> inp?m(r);
		if
		:: m == one && (phase == SLEEP || phase == PAS1) ->
			phase = PASM; c = 0; out!one(r)
		:: m != one && phase == PASM ->
			out!m(r);
			if
			:: m == small -> decide(r)
			:: else -> phase = PAS1
			fi
		:: m == one && phase == ACT1 ->
			acn = r;
			if
			:: acn == c -> phase = ACTS; out!small(acn)
			:: else -> phase = ACT2; out!two(acn)
			fi
		:: m == two && phase == ACT2 ->
			if
			:: acn < c && acn < r -> c = acn; acn = 0; phase = ACT1; out!one(c)
			:: else -> c = 0; acn = 0; phase = PAS1
			fi
		:: m == small && phase == ACTS ->
			c = 0; acn = 0; decide(r)
		:: else -> skip	/* a stray message is absorbed */
		fi;
		m = 0; r = 0	/* scratch: not part of the state */
	}
	od
}

init {
	byte i;
	atomic {
		i = 0;
		do
		:: i < N ->
			run dkr(q[i], q[(i + 1) % N], N - ((N + 2 - i) % N), (INITS >> i) & 1);
			i++
		:: else -> break
		od;
		i = 0
	}
	timeout -> assert(nr_decided == N && nr_leaders == 1)
}
