/* complete.c - completion: MPI_Wait and MPI_Test in all their forms (all,
 * any, some).  A request the layer follows is timed when it completes: a
 * receive at its virtual arrival, a rendezvous send when the data left, a
 * nonblocking collective at the exit its algorithm gives.  A test succeeds
 * only when the request is complete in virtual time too, and a test that
 * finds nothing costs the receive delay, so that polling loops advance the
 * clock.  MPI_Request_free and MPI_Cancel end a request without completion.
 */
#include <sched.h>
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

/* Stop following q (its collective and its pending answer dropped) and free
 * it; freed: by the program, a rendezvous send's answer not in yet is still
 * watched (vlmpi_req_detach). */
static void req_forget(vlmpi_req *q, int freed)
{
	if (q->kind == VLMPI_REQ_RECV && q->active && !q->hdr_ready)
		vlmpi_n_watch--;
	if (q->coll)
		vlmpi_coll_drop(q);
	vlmpi_deferred_forget(q);
	if (freed && q->kind == VLMPI_REQ_SEND && q->active && q->rdv && !q->ack_done &&
	    q->ack != MPI_REQUEST_NULL) {
		vlmpi_req_detach(q, q->vc->world[q->peer]);
		return;
	}
	if (q->ack != MPI_REQUEST_NULL) {
		PMPI_Cancel(&q->ack);
		PMPI_Request_free(&q->ack);
	}
	vlmpi_req_free(q);
}

/* The sender of rendezvous q will not read its flow's arrival (freed or
 * cancelled before its completion). */
static void flow_give_up(vlmpi_req *q, int cancelled)
{
	if (q->kind == VLMPI_REQ_SEND && q->active && q->rdv && (q->h.flags & VLMPI_HDR_FLOW) &&
	    !q->flow_read) {
		vli_flow_sent_forget(q->vc->world[q->peer], q->h.seq, cancelled);
		q->flow_read = 1;
	}
}

/* A request of the layer that completed for real with status st: time it.
 * t0 = begin of the completing call. */
static void complete(vlmpi_req *q, const MPI_Status *st, int64_t t0)
{
	if (q->kind == VLMPI_REQ_COLL) {
		vlmpi_coll_ready(q, 1);
		vlmpi_coll_leave(q->vc, q->coll, 0, t0);
		vlmpi_coll_free(q->coll);
		q->coll = NULL;
	} else if (q->kind == VLMPI_REQ_RECV) {
		if (!q->hdr_ready)
			vlmpi_recv_header(q, st);
		if (q->src_world >= 0)
			vli_msg_received(q->src_world, q->rh.src_host, q->rh.tag, q->rh.seq, q->rh.bytes,
					 t0, vlmpi_arrival_of(&q->rh, q->t_post), 0, q->num);
	} else {
		/* a send: its call was paid when it was made; a rendezvous completes
		 * when its data are in: they left when both the send and the receive
		 * were there, and took the transmission time */
		int64_t depart = 0;

		if (q->rdv) {
			if (!q->ack_done) {
				vlmpi_ack_wait(&q->ack, q->vc->world[q->peer], q->tag, q->h.bytes);
				q->ack_done = 1;
			}
			depart = vlmpi_rdv_end_wait(&q->h, q->vc->world[q->peer], q->ack_t);
			q->flow_read = 1;
		}
		vli_msg_completed(q->vc->world[q->peer], q->tag, q->h.seq, q->h.bytes, q->num, t0,
				  depart);
	}
	if (q->persistent) {
		q->active = 0;
		q->ack = MPI_REQUEST_NULL;
		if (q->kind == VLMPI_REQ_RECV)
			vlmpi_rdv_post_update();
	} else {
		q->ack = MPI_REQUEST_NULL;
		req_forget(q, 0);
	}
}

/* Virtual order: the task waits for followed request q (active): a receive
 * until its message arrives; a rendezvous send on its receiver; a collective
 * on the members that have not entered it. */
static void wait_begin(vlmpi_req *q, const char *call)
{
	if (!vlmpi_vorder)
		return;
	if (q->kind == VLMPI_REQ_RECV && q->hdr_ready)
		vlmpi_wait_begin(vli_t.now, 0, 0, "%s (a receive)", call);
	else if (q->kind == VLMPI_REQ_RECV)
		vlmpi_wait_req(q, "%s (a receive from %d, tag %d)", call, q->peer, q->tag);
	else if (q->kind == VLMPI_REQ_COLL)
		vlmpi_wait_begin(vli_t.now, VLMPI_ON_COLL(q->vc->id), vlmpi_coll_num(q->coll),
				 "%s (a collective)", call);
	else if (q->rdv && !q->ack_done)
		vlmpi_wait_begin(vlmpi_rdv_least_end(&q->h, q->vc->host[q->peer]),
				 VLI_ON_TASK(q->vc->world[q->peer]),
				 VLI_RDV_KEY(q->vc->id, q->tag),
				 "%s (a rendezvous send to rank %d, tag %d)", call,
				 q->vc->world[q->peer], q->tag);
	else if (q->rdv) /* answered: it waits for its data to be in */
		vlmpi_wait_begin(vli_t.now, 0, 0, "%s (a rendezvous send to rank %d, tag %d)",
				 call, q->vc->world[q->peer], q->tag);
	else
		vlmpi_wait_begin(vli_t.now, 0, 0, "%s (a send to rank %d, tag %d)", call,
				 q->vc->world[q->peer], q->tag);
}

int vlmpi_Wait(MPI_Request *req, MPI_Status *status)
{
	vlmpi_req *q = vlmpi_req_find(*req);
	MPI_Status st;
	int64_t t0 = vli_t.now;
	int rc;

	if (!q || !q->active) {
		rc = vlmpi_real_wait(req, status);
		return rc;
	}
	wait_begin(q, "MPI_Wait");
	rc = vlmpi_deferred_wait(q, req, &st);
	if (rc == MPI_SUCCESS)
		complete(q, &st, t0);
	vlmpi_wait_end();
	if (status != MPI_STATUS_IGNORE)
		*status = st;
	return rc;
}

int vlmpi_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
	int i, rc, err = MPI_SUCCESS;

	for (i = 0; i < count; i++) {
		rc = vlmpi_Wait(&reqs[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
									  : &statuses[i]);
		if (rc != MPI_SUCCESS)
			err = rc;
	}
	return err;
}

/* Whether request q (active) is complete in virtual time now; completes it
 * for real and in time if so (1).  0: not complete, the test costs R;
 * TEST_FREE: not complete for real only, the test costs nothing. */
#define TEST_FREE (-1)
static int test_one(MPI_Request *req, vlmpi_req *q, MPI_Status *st)
{
	int flag = 0;
	MPI_Status s;

	PMPI_Request_get_status(*req, &flag, &s);
	if (!flag)
		/* an eager send is complete in virtual time at the end of its call; only
		 * the real library has not finished it: not complete, but no cost, so
		 * that virtual time does not depend on real scheduling */
		return q->kind == VLMPI_REQ_SEND && !q->rdv ? TEST_FREE : 0;
	if (q->kind == VLMPI_REQ_COLL) {
		if (!vlmpi_coll_done_by(q, vli_t.now))
			return 0;
	} else if (q->kind == VLMPI_REQ_RECV) {
		vlmpi_recv_header(q, &s);
		if (q->src_world >= 0 && !vlmpi_arrived_by(&q->rh, q->t_post, vli_t.now))
			return 0; /* not arrived yet in virtual time */
	} else if (q->rdv) {
		if (!q->ack_done) {
			vlmpi_ack_test(&q->ack, &q->ack_done, q->vc->world[q->peer]);
			if (!q->ack_done)
				return 0;
		}
		if (!vlmpi_rdv_ended_by(&q->h, q->vc->world[q->peer], q->ack_t, vli_t.now))
			return 0;
	}
	PMPI_Wait(req, &s);
	complete(q, &s, vli_t.now);
	if (st != MPI_STATUS_IGNORE)
		*st = s;
	return 1;
}

/* ---- virtual order: which requests complete first ----
 * Under ordering = virtual, MPI_Test, Testany, Testall, Testsome, Waitany
 * and Waitsome do not report what MPI has completed for real but what has
 * completed in virtual time: each request's virtual completion (a receive:
 * its message's arrival, from the header; an eager send: its call; a
 * rendezvous send: its data's arrival, once the receiver answered; a collective:
 * its exit) once nothing that is not known yet can complete earlier; then the
 * chosen ones are completed for real. */

/* The virtual completion of followed request q (active, handle *r): 1 and *c
 * if known; 0 and a lower bound *c if not (VLI_ORDER_NONE for a receive whose
 * message has not been announced: vli_order_safe covers it).  committed:
 * this task starts nothing before q completes (vli_flow_arrival_in). */
static int vcompletion(vlmpi_req *q, MPI_Request *r, int64_t *c, int committed)
{
	MPI_Status s;
	vlmpi_hdr h;
	int f = 0;
	int64_t b, d;
	uint64_t n;

	if (q->kind == VLMPI_REQ_RECV) {
		if (vlmpi_deferred_cancelled(q)) {
			*c = vli_t.now;
			return 1;
		}
		if (!q->hdr_ready && q->deferred) {
			/* the layer's own choice: the earliest candidate (its safety:
			 * unknown_safe) */
			*c = vlmpi_pending_arrival(q->vc, MPI_ANY_SOURCE, q->tag, q->t_post);
			return *c != VLI_ORDER_NONE;
		}
		if (!q->hdr_ready && q->peer != MPI_ANY_SOURCE) {
			*c = VLI_ORDER_NONE;
			if (!vlmpi_header_first(q->vc->world[q->peer], q->vc->id, q->tag, &h))
				return 0;
			return vlmpi_arrival_final(&h, q->t_post, c, committed);
		}
		if (!q->hdr_ready) {
			/* posted for real with a wildcard source: MPI matches it */
			PMPI_Request_get_status(*r, &f, &s);
			if (!f) {
				*c = vlmpi_pending_arrival(q->vc, MPI_ANY_SOURCE, q->tag, q->t_post);
				return 0;
			}
			vlmpi_recv_header(q, &s);
		}
		if (q->src_world < 0) {
			*c = q->t_post;
			return 1;
		}
		/* a wildcard receive chosen early: an estimate counts, as its
		 * candidate's did before the choice (vchoose decides only once
		 * nothing can start on the links before the time it compares, and
		 * no estimate changed meanwhile: the estimate is final then) */
		return vlmpi_arrival_final(&q->rh, q->t_post, c, committed) || q->deferred;
	}
	if (q->kind == VLMPI_REQ_COLL) {
		if (vlmpi_coll_ready(q, 0)) {
			*c = vlmpi_coll_exit(q->coll);
			return 1;
		}
		*c = vlmpi_coll_lb(q->coll) > q->t_post ? vlmpi_coll_lb(q->coll) : q->t_post;
		return 0;
	}
	if (!q->rdv) {
		*c = q->t_post;
		return 1;
	}
	/* the earliest the receiver's post can be, before the look for its
	 * answer: it answers before it withdraws its post or its bound passes
	 * it (vli_order_released) */
	b = vli_order_post_lb(q->vc->world[q->peer], vlmpi_world_rank, q->tag, q->vc->id, &n);
	if (!q->ack_done)
		vlmpi_ack_test(&q->ack, &q->ack_done, q->vc->world[q->peer]);
	if (q->ack_done)
		return vlmpi_rdv_end(&q->h, q->vc->world[q->peer], q->ack_t, c, committed);
	/* the data leave when the receiver posts: not before its bound, unless
	 * an answer is on its way; they are in a transmission time later */
	d = q->h.t_call + q->h.send_ns;
	if (vli_order_unseen(n))
		b = d;
	*c = (b > d ? b : d);
	if (*c < VLI_ORDER_NONE - q->h.trans_ns)
		*c += q->h.trans_ns;
	return 0;
}

/* Whether no receive among reqs whose completion is not known (known[i] 0)
 * can complete by tau: its source (anyone, for a wildcard) sends nothing
 * that arrives by then. */
static int unknown_safe(int count, MPI_Request reqs[], const char *known, int64_t tau,
			int committed)
{
	int i;

	for (i = 0; i < count; i++) {
		vlmpi_req *q;
		if (reqs[i] == MPI_REQUEST_NULL || !(q = vlmpi_req_find(reqs[i])) || !q->active ||
		    q->kind != VLMPI_REQ_RECV || q->hdr_ready)
			continue;
		/* known: a named receive's message; a deferred wildcard's candidate
		 * still needs that nothing earlier comes */
		if (known[i] && !q->deferred)
			continue;
		if (q->peer == MPI_ANY_SOURCE ? !vlmpi_safe_any(q->vc, tau, committed)
					      : !vli_order_safe_from(q->vc->world[q->peer], tau))
			return 0;
	}
	return 1;
}

enum { VC_ANY, VC_SOME, VC_ALL };
enum { VC_INACTIVE = 2, VC_BY = 3 }; /* later[]: besides 0, and 1 (it ends after target) */

/* A wait that returns when the first completes (committed) posts nothing
 * before that: if the request with the least estimate on the shared links
 * (a receive's message, or a rendezvous sent) completes no later than any
 * other can, its estimate is weighed with this task's own receives still to
 * come left out, as a blocking wait's is (vli_flow_settle).  Else two ranks
 * in MPI_Waitsome for one rendezvous between them each took the other's
 * next receive as one that could start a message overlapping it, and
 * neither moved (rmix, 5 ranks on a bus). */
static void first_committed(int count, MPI_Request reqs[], char *known, int64_t *c,
			    const char *later, int64_t *kmin)
{
	int i, best = -1;
	vlmpi_req *q;

	for (i = 0; i < count; i++)
		if (later[i] != VC_INACTIVE && !known[i] && c[i] != VLI_ORDER_NONE &&
		    (best < 0 || c[i] < c[best]))
			best = i;
	if (best < 0 || !(q = vlmpi_req_find(reqs[best])) || q->kind == VLMPI_REQ_COLL ||
	    c[best] > *kmin)
		return;
	for (i = 0; i < count; i++)
		if (i != best && later[i] != VC_INACTIVE && c[i] < c[best])
			return; /* (known or not: another may complete first) */
	if (!unknown_safe(count, reqs, known, c[best], 1))
		return;
	known[best] = (char)vcompletion(q, &reqs[best], &c[best], 1);
	if (known[best] && c[best] < *kmin)
		*kmin = c[best];
}

/* vchoose at target (lower: a wait, whose target is the least completion
 * known): asks the nonblocking collectives not known whether they end by
 * target (vlmpi_coll_by).  Those that do (known[i] 1, later[i] VC_BY)
 * lower a wait's target to their exit if earlier, and all are asked again
 * there: what they tell holds if this task acts no earlier than their exit.
 * Those that end after it: later[i] 1.  Returns the target. */
static int64_t coll_by(int count, MPI_Request reqs[], char *known, int64_t *c, char *later,
		       int lower, int64_t target)
{
	int i, pass;
	int64_t least;

	for (pass = 0; pass < 2; pass++) {
		least = VLI_ORDER_NONE;
		for (i = 0; i < count; i++) {
			vlmpi_req *q;
			int r;

			if (later[i] == VC_BY)
				known[i] = 0, later[i] = 0;
			if (later[i] == VC_INACTIVE || known[i] || !(q = vlmpi_req_find(reqs[i])) ||
			    q->kind != VLMPI_REQ_COLL)
				continue;
			later[i] = 0;
			r = vlmpi_coll_by(q, target, &c[i]);
			if (r == 1 || r == 2) {
				known[i] = 1;
				later[i] = r == 2 ? VC_BY : 0;
				if (c[i] < least)
					least = c[i];
			} else if (r == 0) {
				later[i] = 1;
			}
		}
		if (!lower || least >= target || pass)
			break;
		target = least > vli_t.now ? least : vli_t.now;
	}
	return target;
}

/* The board's key of the one nonblocking collective among reqs whose
 * completion is not known (vlmpi_coll_wait_key): 1, else 0. */
static int alone_key(int count, MPI_Request reqs[], const char *known, uint64_t *on, uint64_t *n)
{
	int i;

	for (i = 0; i < count; i++) {
		vlmpi_req *q;
		if (reqs[i] == MPI_REQUEST_NULL || known[i] || !(q = vlmpi_req_find(reqs[i])) ||
		    !q->active || q->kind != VLMPI_REQ_COLL)
			continue;
		return vlmpi_coll_wait_key(q->coll, on, n);
	}
	return 0;
}

/* The requests of reqs that complete first in virtual time, marked in out[]:
 * VC_ANY the lowest index among those complete at the earliest time, VC_SOME
 * every one complete by then, VC_ALL every one complete by the caller's clock.
 * wait: wait until one completes (else only those complete by the caller's
 * clock count, as a test).  Returns how many (*nactive: the active ones), -1
 * if an active request is not followed by the layer (the caller does what MPI
 * does), -2 if none is active. */
static int vchoose(int count, MPI_Request reqs[], int wait, int how, char *out, int *nactive,
		   const char *call)
{
	int64_t *c = malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1)), kmin, ulb, ulb_dec,
		target, lb;
	char *known = malloc((size_t)(count > 0 ? count : 1));
	char *later = malloc((size_t)(count > 0 ? count : 1));
	int i, n = 0, active, waiting = 0, decided, ncoll;
	/* a wait returns when the first completes (Waitany, Waitsome): it posts
	 * no receive before then */
	int committed = wait && how != VC_ALL;
	uint32_t epoch;
	uint64_t on, on_n;
	vli_order_wait w;

	if (!c || !known || !later)
		vli_error(1, "out of memory");
	for (;;) {
		if (waiting)
			vli_order_snap(&w);
		vlmpi_progress();
		vlmpi_catch_up();
		vlmpi_deferred_advance(); /* (a wildcard receive chosen is known) */
		epoch = vli_flow_epoch();
		active = ncoll = 0;
		kmin = VLI_ORDER_NONE;
		for (i = 0; i < count; i++) {
			vlmpi_req *q;
			out[i] = known[i] = 0;
			later[i] = VC_INACTIVE;
			if (reqs[i] == MPI_REQUEST_NULL)
				continue;
			if (!(q = vlmpi_req_find(reqs[i]))) {
				n = -1;
				goto done;
			}
			if (!q->active)
				continue; /* an inactive persistent request */
			active++;
			later[i] = 0;
			known[i] = (char)vcompletion(q, &reqs[i], &c[i], 0);
			if (known[i] && c[i] < kmin)
				kmin = c[i];
			ncoll += !known[i] && q->kind == VLMPI_REQ_COLL;
		}
		if (!active) {
			n = -2;
			goto done;
		}
		if (committed)
			first_committed(count, reqs, known, c, later, &kmin);
		target = !wait || how == VC_ALL ? vli_t.now : kmin > vli_t.now ? kmin : vli_t.now;
		/* nonblocking collectives that can tell whether they end by target
		 * before every member they depend on is in (vlmpi_coll_by): those
		 * that do lower target (asked again at the new one, all of them:
		 * what they tell holds when this task acts no earlier than their
		 * exit); those that end after it do not hold the choice */
		if (ncoll)
			target = coll_by(count, reqs, known, c, later, wait && how != VC_ALL, target);
		ulb = ulb_dec = VLI_ORDER_NONE;
		for (i = 0; i < count; i++)
			if (later[i] != VC_INACTIVE && !known[i]) {
				if (c[i] < ulb)
					ulb = c[i];
				if (!later[i] && c[i] < ulb_dec)
					ulb_dec = c[i];
			}
		/* decided: nothing unknown completes by target - no message that is
		 * not announced yet arrives by then from the source of a receive that
		 * has none */
		decided = ulb_dec > target && unknown_safe(count, reqs, known, target, committed) &&
			  vli_flow_settled(target, committed) && vli_flow_epoch() == epoch;
		if (decided)
			break;
		if (!waiting) {
			vli_order_wait_begin(&w, "%s", call);
			vli_order_snap(&w);
			waiting = 1;
		}
		lb = ulb < target ? ulb : target;
		if (wait && active == 1 && ncoll == 1 && alone_key(count, reqs, known, &on, &on_n))
			vli_order_block_on(lb, VLI_WAIT_MSG, on, on_n);
		else
			vli_order_block(lb, wait ? VLI_WAIT_MSG : VLI_WAIT_POLL);
		if (lb == VLI_ORDER_NONE) {
			vlmpi_order_sleep(&w, VLI_SLEEP_KICK);
		} else {
			/* (only an estimate that changed meanwhile kept it from
			 * deciding: look again; flows not settled yet need the others'
			 * bounds, which they publish only for a watcher) */
			if (ulb > target && unknown_safe(count, reqs, known, lb, committed) &&
			    vli_flow_settled(target, committed))
				continue;
			vlmpi_order_sleep(&w, VLI_SLEEP_ROOT);
		}
	}
	for (i = 0; i < count; i++) {
		if (!known[i] || c[i] > target)
			continue;
		if (later[i] == VC_BY)
			vlmpi_coll_by_commit(vlmpi_req_find(reqs[i])); /* (it acts at target) */
		out[i] = 1;
		n++;
		if (how == VC_ANY)
			break;
	}
done:
	if (waiting)
		vli_order_wait_end(&w);
	if (nactive)
		*nactive = n >= 0 ? active : 0;
	free(c);
	free(known);
	free(later);
	return n;
}

/* vchoose for one request (VC_ANY): its index in *index. */
static int vchoose_one(int count, MPI_Request reqs[], int wait, int *index, const char *call)
{
	char *out = malloc((size_t)(count > 0 ? count : 1));
	int n, i;

	if (!out)
		vli_error(1, "out of memory");
	n = vchoose(count, reqs, wait, VC_ANY, out, NULL, call);
	for (i = 0; n == 1 && i < count && !out[i]; i++)
		;
	*index = i;
	free(out);
	return n;
}

/* Complete chosen request i for real and in time (the call began at t0). */
static void vfinish(MPI_Request reqs[], int i, MPI_Status *st, int64_t t0)
{
	vlmpi_req *q = vlmpi_req_find(reqs[i]);
	MPI_Status s;

	wait_begin(q, "MPI_Wait");
	vlmpi_deferred_wait(q, &reqs[i], &s);
	complete(q, &s, t0);
	vlmpi_wait_end();
	if (st != MPI_STATUS_IGNORE)
		*st = s;
}

/* Host of the peer a request names, -1 for a wildcard. */
static int req_host(const vlmpi_req *q)
{
	return q && q->peer >= 0 && q->peer < q->vc->size ? q->vc->host[q->peer] : -1;
}

int vlmpi_Test(MPI_Request *req, int *flag, MPI_Status *status)
{
	vlmpi_req *q = vlmpi_req_find(*req);
	int64_t t0 = vli_t.now;

	vlmpi_progress();
	if (!q || !q->active)
		return PMPI_Test(req, flag, status);
	if (vlmpi_vorder) {
		char out;
		*flag = vchoose(1, req, 0, VC_ANY, &out, NULL, "MPI_Test") == 1;
		if (*flag)
			vfinish(req, 0, status, t0);
		else
			vlmpi_poll_cost(t0, req_host(q));
		return MPI_SUCCESS;
	}
	int r = test_one(req, q, status);
	*flag = r == 1;
	if (r == 0)
		vlmpi_poll_cost(t0, req_host(q));
	return MPI_SUCCESS;
}

int vlmpi_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
	int i, f, all = 1, costly = 0;
	int64_t t0 = vli_t.now;

	vlmpi_progress();
	if (vlmpi_vorder) {
		char *out = malloc((size_t)(count > 0 ? count : 1));
		int n, nactive = 0;
		if (!out)
			vli_error(1, "out of memory");
		n = vchoose(count, reqs, 0, VC_ALL, out, &nactive, "MPI_Testall");
		free(out);
		if (n >= 0 && n < nactive) {
			*flag = 0;
			vlmpi_poll_cost(t0, -1);
			return MPI_SUCCESS;
		}
		if (n >= 0 || n == -2) {
			*flag = 1;
			return vlmpi_Waitall(count, reqs, statuses);
		}
	}
	/* all or nothing: first see whether every one is complete in virtual time;
	 * the call costs R unless the only ones missing are eager sends (see
	 * test_one) */
	for (i = 0; i < count; i++) {
		vlmpi_req *q = vlmpi_req_find(reqs[i]);
		MPI_Status s;
		f = 0;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		PMPI_Request_get_status(reqs[i], &f, &s);
		if (!f) {
			all = 0;
			if (!(q && q->active && q->kind == VLMPI_REQ_SEND && !q->rdv))
				costly = 1;
		} else if (q && q->active && q->kind == VLMPI_REQ_RECV) {
			vlmpi_recv_header(q, &s);
			if (q->src_world >= 0 && !vlmpi_arrived_by(&q->rh, q->t_post, vli_t.now))
				all = 0, costly = 1;
		} else if (q && q->active && q->kind == VLMPI_REQ_COLL) {
			if (!vlmpi_coll_done_by(q, vli_t.now))
				all = 0, costly = 1;
		} else if (q && q->active && q->rdv) {
			if (!q->ack_done)
				vlmpi_ack_test(&q->ack, &q->ack_done, q->vc->world[q->peer]);
			if (!q->ack_done ||
			    !vlmpi_rdv_ended_by(&q->h, q->vc->world[q->peer], q->ack_t, vli_t.now))
				all = 0, costly = 1;
		}
	}
	*flag = all;
	if (!all) {
		if (costly)
			vlmpi_poll_cost(t0, -1);
		return MPI_SUCCESS;
	}
	return vlmpi_Waitall(count, reqs, statuses);
}

int vlmpi_Testany(int count, MPI_Request reqs[], int *index, int *flag, MPI_Status *status)
{
	int i, active = 0, costly = 0, r;
	int64_t t0 = vli_t.now;

	vlmpi_progress();
	*index = MPI_UNDEFINED;
	if (vlmpi_vorder) {
		int n = vchoose_one(count, reqs, 0, &i, "MPI_Testany");
		if (n == 1) {
			*index = i;
			*flag = 1;
			vfinish(reqs, i, status, t0);
			return MPI_SUCCESS;
		}
		if (n == 0) {
			*flag = 0;
			vlmpi_poll_cost(t0, -1);
			return MPI_SUCCESS;
		}
		if (n == -2)
			return PMPI_Testany(count, reqs, index, flag, status);
	}
	for (i = 0; i < count; i++) {
		vlmpi_req *q;
		if (reqs[i] == MPI_REQUEST_NULL)
			continue;
		active = 1;
		q = vlmpi_req_find(reqs[i]);
		if (!q || !q->active) {
			int f = 0;
			PMPI_Test(&reqs[i], &f, status);
			r = f;
		} else {
			r = test_one(&reqs[i], q, status);
		}
		if (r == 1) {
			*index = i;
			*flag = 1;
			return MPI_SUCCESS;
		}
		if (r == 0)
			costly = 1;
	}
	if (!active) /* flag true, index undefined, empty status */
		return PMPI_Testany(count, reqs, index, flag, status);
	*flag = 0;
	if (costly)
		vlmpi_poll_cost(t0, -1);
	return MPI_SUCCESS;
}

int vlmpi_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
	int i, flag = 0, active = 0, spins = 0;
	int64_t t0 = vli_t.now;

	for (i = 0; i < count; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			active = 1;
	if (!active)
		return PMPI_Waitany(count, reqs, index, status);
	if (vlmpi_vorder) {
		int n = vchoose_one(count, reqs, 1, &i, "MPI_Waitany");
		if (n == 1) {
			*index = i;
			vfinish(reqs, i, status, t0);
			return MPI_SUCCESS;
		}
		if (n == -2)
			return PMPI_Waitany(count, reqs, index, status);
	}
	/* the first that completes for real; virtual time then waits for it */
	for (;;) {
		for (i = 0; i < count; i++) {
			MPI_Status s;
			if (reqs[i] == MPI_REQUEST_NULL)
				continue;
			flag = 0;
			PMPI_Request_get_status(reqs[i], &flag, &s);
			if (flag) {
				*index = i;
				vlmpi_req *q = vlmpi_req_find(reqs[i]);
				if (!q || !q->active)
					return PMPI_Wait(&reqs[i], status);
				PMPI_Wait(&reqs[i], &s);
				complete(q, &s, t0);
				if (status != MPI_STATUS_IGNORE)
					*status = s;
				return MPI_SUCCESS;
			}
		}
		vlmpi_progress();
		if (++spins > 64)
			sched_yield();
	}
}

static int some(int incount, MPI_Request reqs[], int *outcount, int indices[],
		MPI_Status statuses[], int wait)
{
	int i, n = 0, active = 0, spins = 0, costly = 0;
	int64_t t0 = vli_t.now;

	for (i = 0; i < incount; i++)
		if (reqs[i] != MPI_REQUEST_NULL)
			active = 1;
	if (!active) {
		*outcount = MPI_UNDEFINED;
		return MPI_SUCCESS;
	}
	if (vlmpi_vorder) {
		char *out = malloc((size_t)incount);
		if (!out)
			vli_error(1, "out of memory");
		n = vchoose(incount, reqs, wait, VC_SOME, out, NULL, wait ? "MPI_Waitsome" : "MPI_Testsome");
		if (n >= 0) {
			int k = 0;
			for (i = 0; i < incount; i++) {
				if (!out[i])
					continue;
				indices[k] = i;
				/* one record after the other: the first from the call's
				 * start, each next one from the end of the one before */
				vfinish(reqs, i, statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE
										  : &statuses[k],
					k ? vli_t.now : t0);
				k++;
			}
			free(out);
			if (!n && !wait)
				vlmpi_poll_cost(t0, -1);
			*outcount = n;
			return MPI_SUCCESS;
		}
		free(out);
		if (n == -2) {
			*outcount = MPI_UNDEFINED;
			return MPI_SUCCESS;
		}
	}
	for (;;) {
		vlmpi_progress();
		for (i = 0; i < incount; i++) {
			MPI_Status s;
			int flag = 0;
			vlmpi_req *q;
			if (reqs[i] == MPI_REQUEST_NULL)
				continue;
			q = vlmpi_req_find(reqs[i]);
			if (q && q->active) {
				if (wait) {
					PMPI_Request_get_status(reqs[i], &flag, &s);
					if (flag) {
						PMPI_Wait(&reqs[i], &s);
						complete(q, &s, n ? vli_t.now : t0);
					}
				} else {
					flag = test_one(&reqs[i], q, &s);
					if (flag == 0)
						costly = 1;
					flag = flag == 1;
				}
			} else {
				PMPI_Test(&reqs[i], &flag, &s);
				if (!flag)
					costly = 1;
			}
			if (flag) {
				indices[n] = i;
				if (statuses != MPI_STATUSES_IGNORE)
					statuses[n] = s;
				n++;
			}
		}
		if (n || !wait)
			break;
		if (++spins > 64)
			sched_yield();
	}
	if (!n && !wait && costly)
		vlmpi_poll_cost(t0, -1);
	*outcount = n;
	return MPI_SUCCESS;
}

int vlmpi_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		   MPI_Status statuses[])
{
	return some(incount, reqs, outcount, indices, statuses, 1);
}

int vlmpi_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
		   MPI_Status statuses[])
{
	return some(incount, reqs, outcount, indices, statuses, 0);
}

int vlmpi_Request_free(MPI_Request *req)
{
	vlmpi_req *q = vlmpi_req_find(*req);

	if (q) {
		vlmpi_deferred_drop(q);
		flow_give_up(q, 0);
		req_forget(q, 1);
	}
	return PMPI_Request_free(req);
}

int vlmpi_Cancel(MPI_Request *req)
{
	vlmpi_req *q = vlmpi_req_find(*req);

	if (q && q->deferred && q->persistent && q->active) {
		vlmpi_deferred_cancel(q); /* never started for real */
		return MPI_SUCCESS;
	}
	if (q && q->kind == VLMPI_REQ_SEND && q->active) {
		/* if the cancel succeeds the receiver must forget the header: say so */
		int rc = PMPI_Cancel(req);
		MPI_Status st;
		int flag = 0, c = 0;
		PMPI_Request_get_status(*req, &flag, &st);
		if (flag)
			PMPI_Test_cancelled(&st, &c);
		if (c) {
			vlmpi_header_cancel(&q->h, q->vc->world[q->peer]);
			flow_give_up(q, 1);
		}
		return rc;
	}
	return PMPI_Cancel(req);
}
