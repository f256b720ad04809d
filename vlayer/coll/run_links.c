/* run_links.c - running a collective's schedule on a VMConfig with a
 * [topology] (vlcoll_run_links, sched.h): its messages between hosts are
 * flows that share the links (vlayer/core/links.c), so when one arrives
 * depends on every other message on the wire at the same time.  The message
 * semantics are run.c's (coll.h); only the transmission between hosts
 * differs.  A flow is added when its departure is known (an eager send: the
 * end of its send time; a rendezvous: the later of that and the receive's
 * post).  Two ways:
 *  - alone (vlcoll_run_links): the collective's flows share the links among
 *    themselves.  The ranks are run in the order of their virtual times,
 *    interleaved with the flows' events: a rank acts when its clock is not
 *    later than the next flow event; otherwise the flows advance to that
 *    event, so a flow is never added before the time the flows have reached.
 *  - with the program's other messages (vlcoll_links_start, a vlcoll_net):
 *    the flows go into the table of the run's flows (online
 *    vlayer/core/order_flows.c, or the replay's), which decides their
 *    arrivals together with every other message.  Started with every entry
 *    (vlcoll_links_start), no message leaves before the last rank has
 *    entered: online such a collective is known only then, and the tasks
 *    that wait in it for a member that has not entered are taken to start
 *    nothing before that member's bound (order.c, "bounds through waits"),
 *    so a message leaving earlier could overlap one taken as final already.
 *    Opened before every rank is in (vlcoll_links_open: a rank whose entry
 *    is VLCOLL_PENDING acts once vlcoll_links_enter gives it), every
 *    message leaves when its schedule says: the ranks in act as far as they
 *    can, and vlcoll_links_blocker tells what a rank waits for in the end
 *    (a message on the links, or a rank not in), so that its task can say
 *    how early it may act next.  An arrival is taken only
 *    once the table says it is final, so the order in which the ranks act
 *    does not matter.  Every rank runs until it waits for an arrival not
 *    final yet; then the run stops (vlcoll_links_resume returns 0) with the
 *    least estimate of those arrivals, before which none of the
 *    collective's ranks can start another message.  A rank that is done
 *    has its final exit (vlcoll_links_rank_done): its task goes on from
 *    there while the others' messages are still on the links (a bcast's
 *    root leaves before its messages are in).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/sched.h"

struct vlcoll_lrun {
	const vlcfg_config *c;
	vlcoll_sched *s;
	int *host;
	const vlcoll_net *net; /* the run's table of flows (NULL: alone, in fl) */
	vli_flows fl;
	size_t *base;   /* rank r's operations at base[r] .. in the arrays below */
	int *flow;      /* of a send: its flow (-1: none yet, or inside a host) */
	int64_t *arr;   /* of a send: its arrival, once known (VLCOLL_PENDING) */
	char *launched;
	int *wait_s, *wait_r; /* of a send: the rank waiting for its arrival as its
	                         sender (rendezvous) / receiver (-1: none) */
	size_t *pend;   /* sends whose flow has not arrived yet */
	size_t npend;
	/* the ranks that can act, a binary heap on (clock, rank) */
	int *heap, nheap;
	int *pc, left;  /* each rank's next action; ranks not done */
	int64_t t_all;  /* with a net: the last entry (no message leaves before
			   it); INT64_MIN when opened before every rank is in */
	char *out_of;   /* opened so: the ranks not in yet */
	int broken;     /* an operation needed a size not known yet (an opened
			   gatherv fed its blocks too late: vlcoll_job_block) */
	int64_t *est;   /* of a send on the links: its arrival's last estimate */
	vlcoll_out *out;
};
typedef struct vlcoll_lrun lrun;

static int before(const lrun *L, int a, int b)
{
	return L->out[a].exit < L->out[b].exit || (L->out[a].exit == L->out[b].exit && a < b);
}

static void heap_push(lrun *L, int r)
{
	int i = L->nheap++;

	while (i > 0 && before(L, r, L->heap[(i - 1) / 2])) {
		L->heap[i] = L->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	L->heap[i] = r;
}

static int heap_pop(lrun *L)
{
	int top = L->heap[0], last = L->heap[--L->nheap], i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= L->nheap)
			break;
		if (c + 1 < L->nheap && before(L, L->heap[c + 1], L->heap[c]))
			c++;
		if (!before(L, L->heap[c], last))
			break;
		L->heap[i] = L->heap[c];
		i = c;
	}
	if (L->nheap > 0)
		L->heap[i] = last;
	return top;
}

/* The arrival of send k is known: its waiters can act again. */
static void wake(lrun *L, size_t k)
{
	if (L->wait_s[k] >= 0)
		heap_push(L, L->wait_s[k]);
	if (L->wait_r[k] >= 0)
		heap_push(L, L->wait_r[k]);
	L->wait_s[k] = L->wait_r[k] = -1;
}

/* The message of send op (rank r, index i) leaves at t. */
static void launch(lrun *L, int r, int i, int64_t t)
{
	const vlcoll_op *op = &L->s->rank[r].op[i];
	size_t k = L->base[r] + (size_t)i;
	int hs = L->host[r], hd = L->host[op->peer];

	L->launched[k] = 1;
	if (hs != hd && L->net)
		L->flow[k] = L->net->add(L->net->ctx, (uint32_t)k, r, op->peer, hs, hd, op->bytes,
					 t > L->t_all ? t : L->t_all);
	else if (hs != hd)
		L->flow[k] = vli_flows_add(&L->fl, hs, hd, op->bytes, t);
	if (L->flow[k] >= 0) {
		L->pend[L->npend++] = k;
	} else {
		/* inside a host, or the run's table is full (contention-free) */
		L->arr[k] = t + vli_trans_time(L->c, hs, hd, op->bytes);
		wake(L, k);
	}
}

/* The arrival of the message of send (r, i), if known. */
static int arrival(lrun *L, int r, int i, int64_t *in)
{
	size_t k = L->base[r] + (size_t)i;

	if (!L->launched[k])
		return 0;
	if (L->flow[k] >= 0 && L->net)
		return 0; /* (vlcoll_links_resume takes it once final) */
	if (L->flow[k] >= 0)
		return vli_flows_end(&L->fl, L->flow[k], in);
	*in = L->arr[k];
	return 1;
}

/* Rank r runs its next action; returns 1 if it did, 0 if it must wait. */
static int act(lrun *L, int r, int *pc, vlcoll_out *o)
{
	vlcoll_ops *l = &L->s->rank[r];
	int32_t a = l->act[pc[r]];
	vlcoll_op *op = &l->op[a & INT32_MAX];
	vlcoll_op *m = &L->s->rank[op->peer].op[op->match];
	int rdv = op->bytes >= L->c->mpi.eager_limit;
	int sr = op->send ? r : op->peer, si = op->send ? (a & INT32_MAX) : (int)op->match;
	int64_t in, w;

	if (op->none) {
		pc[r]++;
		return 1; /* (a message the algorithm leaves out) */
	}
	/* (an opened gatherv's block not known yet: its sender and, where it
	 * leaves at the post, its receiver need it; a receive whose message
	 * may yet be left out needs it to be posted at all) */
	if (a < 0 && op->bytes < 0 &&
	    (op->send || m->t != VLCOLL_PENDING || op->bytes == VLCOLL_MAYBE_NONE)) {
		L->broken = 1;
		return 0;
	}
	if (a < 0) {
		vlcoll_begin(L->c, L->host, r, op, o);
		if (op->send && (!rdv || m->t != VLCOLL_PENDING))
			launch(L, r, si, rdv && m->t > op->t ? m->t : op->t);
		else if (!op->send && rdv && m->t != VLCOLL_PENDING)
			launch(L, op->peer, si, m->t > op->t ? m->t : op->t);
		pc[r]++;
		return 1;
	}
	if (op->send && !rdv) {
		pc[r]++;
		return 1; /* an eager send is complete when it has been paid */
	}
	if (!arrival(L, sr, si, &in)) {
		size_t k = L->base[sr] + (size_t)si;

		(op->send ? L->wait_s : L->wait_r)[k] = r;
		return 0;
	}
	w = in > o->exit ? in - o->exit : 0;
	o->exit += w;
	o->wait += w;
	if (!op->send) {
		int64_t d = vli_recv_time(L->c, L->host[op->peer], L->host[r]);

		o->exit += d;
		o->comm += d;
	}
	pc[r]++;
	return 1;
}

static void lrun_free(lrun *L)
{
	if (!L)
		return;
	if (!L->net)
		vli_flows_free(&L->fl);
	free(L->host);
	free(L->base);
	free(L->flow);
	free(L->arr);
	free(L->launched);
	free(L->wait_s);
	free(L->wait_r);
	free(L->pend);
	free(L->out_of);
	free(L->est);
	free(L->heap);
	free(L->pc);
	free(L);
}

static lrun *lrun_new(const vlcfg_config *c, vlcoll_sched *s, const int *host,
		      const int64_t *entry, vlcoll_out *out, const vlcoll_net *net, int open)
{
	int p = s->p, r;
	size_t n = 0, k;
	lrun *L;

	if (vlcoll_prepare(s, entry, out) < 0)
		return NULL;
	L = vlcoll_alloc(1, sizeof *L);
	L->c = c;
	L->s = s;
	L->net = net;
	L->host = vlcoll_alloc((size_t)p, sizeof(*L->host));
	memcpy(L->host, host, sizeof(*L->host) * (size_t)p);
	L->out = out;
	L->base = vlcoll_alloc((size_t)p, sizeof(*L->base));
	for (r = 0; r < p; r++) {
		L->base[r] = n;
		n += (size_t)s->rank[r].n;
	}
	L->flow = vlcoll_alloc(n, sizeof(*L->flow));
	L->arr = vlcoll_alloc(n, sizeof(*L->arr));
	L->launched = vlcoll_alloc(n, 1);
	L->wait_s = vlcoll_alloc(n, sizeof(*L->wait_s));
	L->wait_r = vlcoll_alloc(n, sizeof(*L->wait_r));
	L->pend = vlcoll_alloc(n, sizeof(*L->pend));
	L->est = vlcoll_alloc(n, sizeof(*L->est));
	L->out_of = vlcoll_alloc((size_t)p, 1);
	L->npend = 0;
	for (k = 0; k < n; k++)
		L->flow[k] = L->wait_s[k] = L->wait_r[k] = -1;
	L->heap = vlcoll_alloc((size_t)p, sizeof(*L->heap));
	L->nheap = 0;
	if (!net)
		vli_flows_init(&L->fl, c);
	L->pc = vlcoll_alloc((size_t)p, sizeof(*L->pc));
	L->left = 0;
	L->t_all = INT64_MIN;
	for (r = 0; r < p; r++)
		if (!open && entry[r] > L->t_all)
			L->t_all = entry[r];
	for (r = 0; r < p; r++) {
		L->out_of[r] = open && entry[r] == VLCOLL_PENDING;
		if (s->rank[r].nact > 0) {
			if (!L->out_of[r])
				heap_push(L, r);
			L->left++;
		}
	}
	return L;
}

/* Rank r (popped from the heap) acts; back into the heap unless it waits or
 * is done. */
static void act_once(lrun *L, int r)
{
	if (act(L, r, L->pc, &L->out[r])) {
		if (L->pc[r] < L->s->rank[r].nact)
			heap_push(L, r);
		else
			L->left--;
	}
}

int vlcoll_run_links(const vlcfg_config *c, vlcoll_sched *s, const int *host,
		     const int64_t *entry, vlcoll_out *out)
{
	lrun *L = lrun_new(c, s, host, entry, out, NULL, 0);
	size_t i, k;
	int rc;

	if (!L)
		return -1;
	/* the rank with the earliest clock acts if no flow event comes first;
	 * a rank that must wait leaves the heap until the arrival it waits for
	 * is known (wake) */
	while (L->left > 0) {
		double tf = vli_flows_next(&L->fl);

		if (L->nheap > 0 && (double)out[L->heap[0]].exit <= tf) {
			act_once(L, heap_pop(L));
			continue;
		}
		if (isinf(tf))
			break; /* every rank waits for what never comes */
		vli_flows_step(&L->fl);
		for (i = 0; i < L->npend;) {
			int64_t e;

			k = L->pend[i];
			if (vli_flows_end(&L->fl, L->flow[k], &e)) {
				wake(L, k);
				L->pend[i] = L->pend[--L->npend];
			} else {
				i++;
			}
		}
	}
	rc = L->left > 0 ? -1 : 0;
	lrun_free(L);
	return rc;
}

vlcoll_lrun *vlcoll_links_start(const vlcfg_config *c, vlcoll_sched *s, const int *host,
				const int64_t *entry, vlcoll_out *out, const vlcoll_net *net)
{
	return lrun_new(c, s, host, entry, out, net, 0);
}

vlcoll_lrun *vlcoll_links_open(const vlcfg_config *c, vlcoll_sched *s, const int *host,
			       const int64_t *entry, vlcoll_out *out, const vlcoll_net *net)
{
	return lrun_new(c, s, host, entry, out, net, 1);
}

void vlcoll_links_enter(vlcoll_lrun *L, int r, int64_t t)
{
	if (r < 0 || r >= L->s->p || !L->out_of[r])
		return;
	L->out_of[r] = 0;
	L->out[r].exit = t;
	if (L->s->rank[r].nact > 0)
		heap_push(L, r);
}

int vlcoll_links_blocker(const vlcoll_lrun *L, int r, int *who, int64_t *est)
{
	int hops;

	for (hops = 0; hops <= L->s->p; hops++) {
		const vlcoll_ops *l = &L->s->rank[r];
		const vlcoll_op *op;
		size_t k;
		int32_t a;

		if (L->out_of[r]) {
			*who = r;
			return 2;
		}
		if (L->pc[r] >= l->nact)
			return 0;
		a = l->act[L->pc[r]];
		if (a < 0)
			return 0; /* (it can act: not after vlcoll_links_resume) */
		op = &l->op[a];
		if (op->none)
			return 0;
		k = op->send ? L->base[r] + (size_t)a : L->base[op->peer] + (size_t)op->match;
		if (L->launched[k]) {
			if (L->flow[k] < 0)
				return 0;
			*est = L->est[k];
			return 1;
		}
		/* not on its way: its sender has not sent it, or (a rendezvous)
		 * its receiver has not posted it - what that rank waits for */
		r = op->peer;
	}
	return 0;
}

int vlcoll_links_resume(vlcoll_lrun *L, int64_t *lb)
{
	for (;;) {
		int64_t least = INT64_MAX, e;
		size_t i, k;
		int woke = 0;

		while (L->nheap > 0)
			act_once(L, heap_pop(L));
		if (L->broken)
			return -1;
		if (L->left == 0)
			return 1;
		/* every rank waits: take the arrivals that are final */
		for (i = 0; i < L->npend;) {
			k = L->pend[i];
			if (L->net->end(L->net->ctx, L->flow[k], (uint32_t)k, &e)) {
				L->arr[k] = e;
				L->flow[k] = -1;
				wake(L, k);
				L->pend[i] = L->pend[--L->npend];
				woke = 1;
			} else {
				L->est[k] = e;
				if (e < least)
					least = e;
				i++;
			}
		}
		if (woke)
			continue;
		if (L->npend == 0) {
			int r;

			for (r = 0; r < L->s->p; r++)
				if (L->out_of[r])
					break;
			if (r == L->s->p)
				return -1; /* every rank waits for what never comes */
		}
		*lb = least; /* (INT64_MAX: every rank waits for a rank not in) */
		return 0;
	}
}

int vlcoll_links_rank_done(const vlcoll_lrun *L, int r)
{
	return L->pc[r] >= L->s->rank[r].nact;
}

int vlcoll_links_taken(const vlcoll_lrun *L, uint32_t k)
{
	return L->launched[k] && L->flow[k] < 0;
}

void vlcoll_links_free(vlcoll_lrun *L)
{
	lrun_free(L);
}
