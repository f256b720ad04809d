/* run.c - running a schedule on the delay model (vlcoll_run, sched.h): every
 * send is matched to its receive (prepare.c), then the ranks are
 * swept in order, each running its actions until it reaches a wait that needs
 * a time its peer has not reached yet (a receive whose message has not been
 * sent, a rendezvous send whose receive has not been posted), until all are
 * done.  Costs come from the engine's model
 * (model.c) only; the message semantics are those stated in coll.h.
 */
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

/* ---- running ---- */

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

/* With a [topology] the messages share links: run_links.c runs it. */
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
