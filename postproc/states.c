/* states.c - the per-task states shared by timeline.c and otf2.c (states.h). */
#include "states.h"

#include <stdio.h>

void vlpost_st_init(vlpost_st_task *k, const vlpost_st_ops *ops)
{
	k->ops = ops;
	k->cur = VLS_NONE;
}

/* Before an event at t: the deferred Computing begins if it is due before t. */
static void vlpost_st_flush(vlpost_st_task *k, int64_t t)
{
	if (!k->defer || t <= k->defer_t)
		return;
	k->defer = 0;
	if (k->cur != VLS_COMP) {
		k->ops->change(k, k->defer_t, VLS_COMP);
		k->cur = VLS_COMP;
	}
}

vlpost_st_ev *vlpost_st_push(vlpost_st_task *k, int kind, int64_t t)
{
	vlpost_st_flush(k, t);
	return k->ops->push(k, kind, t);
}

void vlpost_st_state(vlpost_st_task *k, int64_t t, int s)
{
	if (k->defer && t == k->defer_t)
		k->defer = 0;  /* the Computing would last 0 ns */
	vlpost_st_flush(k, t);
	if (s == k->cur)
		return;
	k->ops->change(k, t, s);
	k->cur = s;
}

void vlpost_st_seg(vlpost_st_task *k, int64_t a, int64_t b, int s)
{
	if (b > a)
		vlpost_st_state(k, a, s);
	else
		vlpost_st_flush(k, a); /* an empty segment still ends the Computing before it */
}

void vlpost_st_done_at(vlpost_st_task *k, int64_t t)
{
	if (k->cur == VLS_COMP)
		return;
	k->defer = 1;
	k->defer_t = t;
}

void vlpost_st_end_at(vlpost_st_task *k, int64_t t)
{
	if (k->defer && k->defer_t >= t)
		k->defer = 0;
}

static void vlpost_st_send(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	int64_t a, b, w = 0;
	vlpost_st_ev *e;
	if (!vlpost_mg_send_span(&k->m, r, &a, &b)) {
		/* a blocking rendezvous send waits at the end of its call */
		w = r->flags & VL_TF_NB ? 0 : r->u.v.t4;
		vlpost_st_seg(k, r->u.v.t0, r->u.v.t1 - w, VLS_COMM);
	}
	e = vlpost_st_push(k, k->ops->ev_send, a);
	e->m.seq = r->seq;
	e->m.rec = k->m.f->nrec - 1;
	e->bytes = r->u.v.bytes;
	e->m.tag = r->tag;
	e->m.peer = vlpost_mg_find(m, &k->m, r->peer);
	e->req = r->flags & VL_TF_NB ? (uint32_t)r->u.v.t4 : 0;
	vlpost_st_seg(k, r->u.v.t1 - w, r->u.v.t1, VLS_WAIT);
	vlpost_st_done_at(k, r->u.v.t1);
}

/* Waiting is [arrival - wait, arrival] when that lies in [t0, t1] (the receiver
 * waits until the message arrives), else the first wait ns of the call. */
static int vlpost_st_recv(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	int64_t t0 = r->u.v.t0, t1 = r->u.v.t1, w = r->u.v.t2, w1 = r->u.v.t3, w0;
	int src;
	vlpost_st_ev *e;
	if (vlpost_mg_recv_src(m, &k->m, r, &src) < 0)
		return -1;
	w0 = w1 - w;
	if (w <= 0 || w0 < t0 || w1 > t1) {
		w0 = t0;
		w1 = t0 + w;
	}
	vlpost_st_seg(k, t0, w0, VLS_COMM);
	vlpost_st_seg(k, w0, w1, VLS_WAIT);
	vlpost_st_seg(k, w1, t1, VLS_COMM);
	if (src >= 0) {
		e = vlpost_st_push(k, k->ops->ev_recv, t1);
		e->m.seq = r->seq;
		e->m.rec = k->m.f->nrec - 1;
		e->m.peer = src;
		e->bytes = r->u.v.bytes;
		e->m.tag = r->tag;
		e->req = r->flags & VL_TF_NB ? (uint32_t)r->u.v.t4 : 0;
	}
	vlpost_st_done_at(k, t1);
	return 0;
}

/* A call that waits first (t2 ns), then communicates: a group operation, a
 * blocking probe that found its message, the wait for a nonblocking send. */
static void vlpost_st_wait_first(vlpost_st_task *k, const vl_trec *r)
{
	int64_t t0 = r->u.v.t0, t1 = r->u.v.t1, w = r->u.v.t2;
	vlpost_st_seg(k, t0, t0 + w, VLS_WAIT);
	vlpost_st_seg(k, t0 + w, t1, VLS_COMM);
}

/* A group operation: the converter's events around [t0, t1]; waiting first. */
static void vlpost_st_coll(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	k->ops->coll_begin(m, k, r);
	vlpost_st_wait_first(k, r);
	k->ops->coll_end(m, k, r);
	vlpost_st_done_at(k, r->u.v.t1);
}

/* A mark (its text, or "mark N") or a parameter (its text). */
static void vlpost_st_text(vlpost_st_task *k, const vl_trec *r, int kind, int param)
{
	vlpost_st_ev *e = vlpost_st_push(k, kind, r->u.m.t0);
	e->val = (uint8_t)param;
	if (!param && !r->u.m.text[0])
		snprintf(e->text, sizeof e->text, "mark %d", (int)r->peer);
	else
		snprintf(e->text, sizeof e->text, "%s", r->u.m.text);
}

int vlpost_st_map(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	switch (r->type) {
	case VL_EV_SEND:
		vlpost_st_send(m, k, r);
		return 0;
	case VL_EV_RECV:
		return vlpost_st_recv(m, k, r);
	case VL_EV_MARK:
		vlpost_st_text(k, r, k->ops->ev_mark, 0);
		return 0;
	case VL_EV_PARAM:
		if (k->ops->ev_param >= 0)
			vlpost_st_text(k, r, k->ops->ev_param, 1);
		return 0;
	case VL_EV_PROBE:
	case VL_EV_WAIT:
		if (r->type == VL_EV_WAIT || (r->flags & VL_TF_FOUND))
			vlpost_st_wait_first(k, r);
		else
			vlpost_st_seg(k, r->u.v.t0, r->u.v.t1, VLS_COMM);
		if (r->type == VL_EV_WAIT && k->ops->ev_wait >= 0)
			vlpost_st_push(k, k->ops->ev_wait, r->u.v.t1)->req = (uint32_t)r->u.v.t4;
		vlpost_st_done_at(k, r->u.v.t1);
		return 0;
	case VL_EV_SLEEP:
		vlpost_st_seg(k, r->u.v.t0, r->u.v.t1, VLS_WAIT);
		vlpost_st_done_at(k, r->u.v.t1);
		return 0;
	case VL_EV_SPAWN:
	case VL_EV_IRECV:
		vlpost_st_seg(k, r->u.v.t0, r->u.v.t1, VLS_COMM);
		if (r->type == VL_EV_IRECV && k->ops->ev_irecv >= 0)
			vlpost_st_push(k, k->ops->ev_irecv, r->u.v.t1)->req = (uint32_t)r->u.v.t4;
		vlpost_st_done_at(k, r->u.v.t1);
		return 0;
	case VL_EV_COLL:
		vlpost_st_coll(m, k, r);
		return 0;
	default:
		return 0;
	}
}
