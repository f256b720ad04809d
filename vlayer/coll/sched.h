/* sched.h - the schedule of one collective, internal to vlayer/coll/: for
 * every rank, the ordered list of sends and receives the algorithm makes.  The
 * algorithm files (alg/) append to it (sched.c); run.c matches sends to
 * receives (FIFO per pair of ranks) and runs it on the model.
 */
#ifndef VLCOLL_SCHED_H
#define VLCOLL_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include "vlayer/coll/coll.h"

typedef struct vlcoll_op {
	int32_t peer;
	uint32_t send : 1;
	uint32_t match : 31; /* send: index of the matching receive in peer's list */
	int64_t v;           /* send: bytes; receive: bytes, then arrival once matched */
} vlcoll_op;

typedef struct vlcoll_ops {
	vlcoll_op *op;
	int n, cap;
} vlcoll_ops;

typedef struct vlcoll_sched {
	int p;
	int bad;            /* an operation named a rank out of range */
	vlcoll_ops *rank; /* p lists */
} vlcoll_sched;

/* calloc that stops the program (vli_error) when memory is exhausted. */
void *vlcoll_alloc(size_t n, size_t size);

void vlcoll_sched_init(vlcoll_sched *s, int p);
void vlcoll_sched_free(vlcoll_sched *s);
/* Append to rank r's list: send bytes to peer / receive bytes from peer. */
void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes);
void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes);

/* Run s on the model c (semantics of coll.h) and fill out (p entries).
 * Returns 0, or -1 if the schedule is broken: a receive without its send (or
 * the reverse), sizes that differ between a send and its receive, a rank out
 * of range, or a schedule that cannot complete.  s is consumed (receive sizes
 * are replaced by arrival times) but must still be freed. */
int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out);

/* Rooted algorithms work on relative ranks v = (r - root + p) % p. */
static inline int vlcoll_abs(int v, int root, int p)
{
	return (v + root) % p;
}

/* Sum of blk[r] over the ranks whose relative rank is in [lo, hi). */
int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi);

#endif
