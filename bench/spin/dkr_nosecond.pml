/*
 * elcheck's dkr-nosecond in Promela: dkr.pml whose elimination test keeps
 * acn whenever acn < c, forgetting acn < q. Still safe (one leader, the
 * right one, clean end), but rounds no longer halve the active processes,
 * so it sends more than 2N*floor(log2 N) + 2N messages: compile the message
 * bound in to see SPIN find it, as elcheck does:
 *
 *   spin -DN=5 -DMSGBOUND -a dkr_nosecond.pml && gcc -O2 -o pan pan.c && ./pan
 *   -> pan:1: assertion violated (nr_msgs<=bound)
 */
#define NOSECOND
#include "dkr.pml"
