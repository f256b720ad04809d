/* sched.c - building the schedule of one collective (sched.h): the lists of
 * sends and receives the algorithm files (alg/) append to, rank by rank.
 */
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

void *vlcoll_alloc(size_t n, size_t size)
{
	void *q = calloc(n ? n : 1, size ? size : 1);

	if (!q)
		vli_error(3, "out of memory timing a collective (%zu x %zu bytes)", n, size);
	return q;
}

void vlcoll_sched_init(vlcoll_sched *s, int p)
{
	s->p = p;
	s->bad = 0;
	s->rank = vlcoll_alloc((size_t)p, sizeof(*s->rank));
}

void vlcoll_sched_free(vlcoll_sched *s)
{
	int r;

	for (r = 0; r < s->p; r++)
		free(s->rank[r].op);
	free(s->rank);
	s->rank = NULL;
}

static void vlcoll_push(vlcoll_sched *s, int r, int peer, int send, int64_t bytes)
{
	vlcoll_ops *l;
	vlcoll_op *op;

	if (r < 0 || r >= s->p || peer < 0 || peer >= s->p) {
		s->bad = 1;
		return;
	}
	l = &s->rank[r];
	if (l->n == l->cap) {
		int ncap = l->cap ? 2 * l->cap : 8;
		vlcoll_op *nop = realloc(l->op, (size_t)ncap * sizeof(*nop));

		if (!nop)
			vli_error(3, "out of memory timing a collective (%d operations)", l->n);
		l->op = nop;
		l->cap = ncap;
	}
	op = &l->op[l->n++];
	op->peer = peer;
	op->send = send ? 1 : 0;
	op->match = 0;
	op->v = bytes;
}

void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	vlcoll_push(s, r, peer, 1, bytes);
}

void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	vlcoll_push(s, r, peer, 0, bytes);
}

int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi)
{
	int64_t sum = 0;
	int v;

	for (v = lo; v < hi; v++)
		sum += blk[vlcoll_abs(v, root, p)];
	return sum;
}

