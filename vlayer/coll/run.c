/* run.c - running a schedule on the delay model (vlcoll_run, sched.h): every
 * send is matched to its receive (the k-th send from i to j with the k-th
 * receive of j from i, in the order they are started), then the ranks are
 * swept in order, each running its actions until it reaches a wait that needs
 * a time its peer has not reached yet (a receive whose message has not been
 * sent, a rendezvous send whose receive has not been posted), until all are
 * done.  Costs come from the engine's model
 * (model.c) only; the message semantics are those stated in coll.h.
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

/* ---- running ---- */

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

/* Complete operation op of rank r if its peer's time is known: 1, else 0. */
static int vlcoll_complete(const vlcfg_config *c, const vlcoll_sched *s, const int *host, int r,
			   const vlcoll_op *op, vlcoll_out *o)
{
	const vlcoll_op *m = &s->rank[op->peer].op[op->match];
	int rdv = op->bytes >= c->mpi.eager_limit;
	int hs = op->send ? host[r] : host[op->peer], hd = op->send ? host[op->peer] : host[r];
	int64_t ready = op->send ? op->t : m->t, post = op->send ? m->t : op->t, in, w;

	if (ready == VLCOLL_PENDING || (rdv && post == VLCOLL_PENDING))
		return 0;
	if (op->send && !rdv)
		return 1; /* an eager send is complete when it has been paid */
	in = (rdv && post > ready ? post : ready) + vli_trans_time(c, hs, hd, op->bytes);
	w = in > o->exit ? in - o->exit : 0;
	o->exit += w;
	o->wait += w;
	if (!op->send) {
		int64_t d = vli_recv_time(c, hs, hd);

		o->exit += d;
		o->comm += d;
	}
	return 1;
}

/* Run rank r's actions from pc[r] until a wait needs a time its peer has not
 * reached; returns the number run. */
static int vlcoll_step(const vlcfg_config *c, vlcoll_sched *s, const int *host, int r, int *pc,
		       vlcoll_out *o)
{
	vlcoll_ops *l = &s->rank[r];
	int done = 0;

	for (; pc[r] < l->nact; pc[r]++, done++) {
		int32_t a = l->act[pc[r]];

		if (a < 0)
			vlcoll_begin(c, host, r, &l->op[a & INT32_MAX], o);
		else if (!vlcoll_complete(c, s, host, r, &l->op[a], o))
			break;
	}
	return done;
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

int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out)
{
	int p = s->p, r, left, progress, *pc;

	if (vli_net_on(c))
		return vlcoll_run_links(c, s, host, entry, out);
	if (vlcoll_prepare(s, entry, out) < 0)
		return -1;
	pc = vlcoll_alloc((size_t)p, sizeof(*pc));
	do {
		left = progress = 0;
		for (r = 0; r < p; r++) {
			if (vlcoll_step(c, s, host, r, pc, &out[r]))
				progress = 1;
			left += pc[r] < s->rank[r].nact;
		}
	} while (left && progress);
	free(pc);
	return left ? -1 : 0;
}
