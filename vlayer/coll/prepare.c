/* prepare.c - what both runners of a schedule (run.c: the sweep; run_links.c:
 * on shared links) do first (sched.h): match every send to its receive (the
 * k-th send from i to j with the k-th receive of j from i, in the order they
 * are started), check the schedule, set the ranks' clocks to their entries;
 * and start one operation (a send pays S, a receive is posted).
 */
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

/* ---- matching: the k-th send from i to j with the k-th receive of j from i ---- */

/* Give every send the index of its receive and the reverse; mark all pending.
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
			if (sd->bytes != rv->bytes)
				goto out;
			sd->match = (uint32_t)i;
			rv->match = (uint32_t)idx[k];
			sd->t = VLCOLL_PENDING;
			rv->t = VLCOLL_PENDING;
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

/* Start operation op of rank r: a send pays S, a receive is posted. */
void vlcoll_begin(const vlcfg_config *c, const int *host, int r, vlcoll_op *op, vlcoll_out *o)
{
	if (op->send) {
		int64_t d = vli_send_time(c, host[r], host[op->peer], op->bytes);

		o->exit += d;
		o->comm += d;
		o->nmsgs++;
	}
	op->t = o->exit;
}

int vlcoll_prepare(vlcoll_sched *s, const int64_t *entry, vlcoll_out *out)
{
	int p = s->p, r;

	if (s->bad || vlcoll_match(s) < 0)
		return -1;
	for (r = 0; r < p; r++) {
		int i;

		for (i = s->rank[r].nowait; i < s->rank[r].n; i++)
			if (!s->rank[r].op[i].waited)
				return -1; /* started, never waited for */
	}
	for (r = 0; r < p; r++) {
		out[r].exit = entry[r];
		out[r].comm = 0;
		out[r].wait = 0;
		out[r].nmsgs = 0;
	}
	return 0;
}

