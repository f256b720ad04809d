/* run.c - running a schedule on the delay model (vlcoll_run, sched.h): every
 * send is matched to its receive (the k-th send from i to j with the k-th
 * receive of j from i), then the ranks are swept in order, each running its
 * operations until it reaches a receive whose message has not been sent yet,
 * until all are done.  Costs come from the engine's model (model.c) only; the
 * message semantics are those stated in coll.h.
 */
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

/* ---- matching: the k-th send from i to j with the k-th receive of j from i ---- */

/* A receive whose message has not been sent yet. */
#define VLCOLL_PENDING INT64_MIN

/* Give every send the index of its receive and mark the receives pending.
 * The sends addressed to each rank are gathered in rank-then-list order, so
 * those from one sender are contiguous and in FIFO order. */
static int vlcoll_match(vlcoll_sched *s)
{
	int p = s->p, r, q, i, rc = -1;
	size_t nsends = 0, k, none = (size_t)-1;
	size_t *off = vlcoll_alloc((size_t)p + 1, sizeof(*off));
	size_t *fill = vlcoll_alloc((size_t)p, sizeof(*fill));
	size_t *cur = vlcoll_alloc((size_t)p, sizeof(*cur));
	int *src, *idx;

	for (r = 0; r < p; r++)
		for (i = 0; i < s->rank[r].n; i++)
			if (s->rank[r].op[i].send) {
				off[s->rank[r].op[i].peer + 1]++;
				nsends++;
			}
	for (q = 0; q < p; q++)
		off[q + 1] += off[q];
	src = vlcoll_alloc(nsends, sizeof(*src));
	idx = vlcoll_alloc(nsends, sizeof(*idx));
	for (r = 0; r < p; r++)
		for (i = 0; i < s->rank[r].n; i++)
			if (s->rank[r].op[i].send) {
				q = s->rank[r].op[i].peer;
				k = off[q] + fill[q]++;
				src[k] = r;
				idx[k] = i;
			}
	for (r = 0; r < p; r++)
		cur[r] = none;
	for (q = 0; q < p; q++) {
		vlcoll_ops *l = &s->rank[q];

		/* cur[r]: the next unmatched send from r to q */
		for (k = off[q + 1]; k-- > off[q];)
			cur[src[k]] = k;
		for (i = 0; i < l->n; i++) {
			vlcoll_op *rv = &l->op[i], *sd;

			if (rv->send)
				continue;
			r = rv->peer;
			k = cur[r];
			if (k == none || k >= off[q + 1] || src[k] != r)
				goto out; /* a receive without its send */
			sd = &s->rank[r].op[idx[k]];
			if (sd->v != rv->v)
				goto out;
			sd->match = (uint32_t)i;
			rv->v = VLCOLL_PENDING;
			cur[r]++;
		}
		for (k = off[q]; k < off[q + 1]; k++) {
			r = src[k];
			if (cur[r] != none && cur[r] < off[q + 1] && src[cur[r]] == r)
				goto out; /* a send without its receive */
			cur[r] = none;
		}
	}
	rc = 0;
out:
	free(off);
	free(fill);
	free(cur);
	free(src);
	free(idx);
	return rc;
}

/* ---- running ---- */

/* Run rank r's operations until a receive must wait for a send not yet made;
 * returns the number run. */
static int vlcoll_step(const vlcfg_config *c, vlcoll_sched *s, const int *host, int r, int *pc,
		    vlcoll_out *o)
{
	vlcoll_ops *l = &s->rank[r];
	int done = 0;

	for (; pc[r] < l->n; pc[r]++, done++) {
		const vlcoll_op *op = &l->op[pc[r]];
		int h = host[r], hp = host[op->peer];
		int64_t d, w;

		if (op->send) {
			d = vli_send_time(c, h, hp, op->v);
			o->exit += d;
			o->comm += d;
			o->nmsgs++;
			/* the arrival, in the matching receive */
			s->rank[op->peer].op[op->match].v =
				o->exit + vli_trans_time(c, h, hp, op->v);
			continue;
		}
		if (op->v == VLCOLL_PENDING)
			break;
		w = op->v > o->exit ? op->v - o->exit : 0;
		d = vli_recv_time(c, hp, h);
		o->exit += w + d;
		o->wait += w;
		o->comm += d;
	}
	return done;
}

int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out)
{
	int p = s->p, r, left, progress, *pc;

	if (s->bad || vlcoll_match(s) < 0)
		return -1;
	for (r = 0; r < p; r++) {
		out[r].exit = entry[r];
		out[r].comm = 0;
		out[r].wait = 0;
		out[r].nmsgs = 0;
	}
	pc = vlcoll_alloc((size_t)p, sizeof(*pc));
	do {
		left = progress = 0;
		for (r = 0; r < p; r++) {
			if (vlcoll_step(c, s, host, r, pc, &out[r]))
				progress = 1;
			left += pc[r] < s->rank[r].n;
		}
	} while (left && progress);
	free(pc);
	return left ? -1 : 0;
}

