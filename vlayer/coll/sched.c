/* sched.c - building the schedule of one collective (sched.h): the lists of
 * sends and receives the algorithm files (alg/) append to, rank by rank, and
 * the actions (start, wait) that run them.
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
	s->keep = 0;
	s->rank = vlcoll_alloc((size_t)p, sizeof(*s->rank));
}

void vlcoll_sched_free(vlcoll_sched *s)
{
	int r;

	for (r = 0; r < s->p; r++) {
		free(s->rank[r].op);
		free(s->rank[r].act);
	}
	free(s->rank);
	s->rank = NULL;
}

/* Grow *a (n used, *cap allocated, elements of size) to hold one more. */
static void *vlcoll_grow(void *a, int n, int *cap, size_t size)
{
	int ncap;
	void *q;

	if (n < *cap)
		return a;
	ncap = *cap ? 2 * *cap : 8;
	q = realloc(a, (size_t)ncap * size);
	if (!q)
		vli_error(3, "out of memory timing a collective (%d operations)", n);
	*cap = ncap;
	return q;
}

static void vlcoll_act(vlcoll_ops *l, int32_t a)
{
	l->act = vlcoll_grow(l->act, l->nact, &l->capact, sizeof(*l->act));
	l->act[l->nact++] = a;
}

/* Start one operation on rank r; its handle, or -1. */
static int vlcoll_start(vlcoll_sched *s, int r, int peer, int send, int64_t bytes)
{
	vlcoll_ops *l;
	vlcoll_op *op;

	if (r < 0 || r >= s->p || peer < 0 || peer >= s->p) {
		s->bad = 1;
		return -1;
	}
	l = &s->rank[r];
	l->op = vlcoll_grow(l->op, l->n, &l->cap, sizeof(*l->op));
	op = &l->op[l->n];
	op->peer = peer;
	op->send = send ? 1 : 0;
	op->waited = 0;
	op->none = 0;
	op->match = 0;
	op->bytes = bytes;
	op->t = 0;
	vlcoll_act(l, VLCOLL_START | l->n);
	return l->n++;
}

int vlcoll_isend(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	return vlcoll_start(s, r, peer, 1, bytes);
}

int vlcoll_irecv(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	return vlcoll_start(s, r, peer, 0, bytes);
}

void vlcoll_wait(vlcoll_sched *s, int r, int h)
{
	vlcoll_ops *l;

	if (r < 0 || r >= s->p || h < 0 || h >= s->rank[r].n || s->rank[r].op[h].waited) {
		s->bad = 1;
		return;
	}
	l = &s->rank[r];
	l->op[h].waited = 1;
	vlcoll_act(l, h);
	while (l->nowait < l->n && l->op[l->nowait].waited)
		l->nowait++;
}

void vlcoll_waitall(vlcoll_sched *s, int r)
{
	int i;

	if (r < 0 || r >= s->p)
		return;
	for (i = s->rank[r].nowait; i < s->rank[r].n; i++)
		if (!s->rank[r].op[i].waited)
			vlcoll_wait(s, r, i);
}

void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	int h = vlcoll_isend(s, r, peer, bytes);

	if (h >= 0)
		vlcoll_wait(s, r, h);
}

void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes)
{
	int h = vlcoll_irecv(s, r, peer, bytes);

	if (h >= 0)
		vlcoll_wait(s, r, h);
}

void vlcoll_maybe_transfer(vlcoll_sched *s, int from, int to, int64_t bytes)
{
	if (bytes == 0 && !s->keep)
		return;
	vlcoll_send(s, from, to, bytes);
	vlcoll_recv(s, to, from, bytes);
	if (bytes == 0 && !s->bad) {
		s->rank[from].op[s->rank[from].n - 1].none = 1;
		s->rank[to].op[s->rank[to].n - 1].none = 1;
	}
}

void vlcoll_sendrecv(vlcoll_sched *s, int r, int to, int64_t sbytes, int from, int64_t rbytes)
{
	int hr = vlcoll_irecv(s, r, from, rbytes), hs = vlcoll_isend(s, r, to, sbytes);

	if (hr >= 0)
		vlcoll_wait(s, r, hr);
	if (hs >= 0)
		vlcoll_wait(s, r, hs);
}

void vlcoll_sendrecv_ompi(vlcoll_sched *s, int r, int to, int64_t sbytes, int from,
			  int64_t rbytes)
{
	int hr = vlcoll_irecv(s, r, from, rbytes);

	vlcoll_send(s, r, to, sbytes);
	if (hr >= 0)
		vlcoll_wait(s, r, hr);
}

int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi)
{
	int64_t sum = 0;
	int v;

	for (v = lo; v < hi; v++)
		sum += blk[vlcoll_abs(v, root, p)];
	return sum;
}

