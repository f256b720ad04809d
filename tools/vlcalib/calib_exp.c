/* calib_exp.c - the experiments: one sample of each, as every participant
 * runs it (what is timed where: calib_common.h and vlcalib-run --help). */
#include "calib_impl.h"

static void ack_send(vlcal_calib *c, int to)
{
	c->ops->send_i64(c->be, to, VLCAL_TAG_ACK, NULL, 0);
}

static void ack_recv(vlcal_calib *c, int from)
{
	c->ops->recv_i64(c->be, from, VLCAL_TAG_ACK, NULL, 0);
}

int64_t vlcal_sample_rtt(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		c->ops->send(c->be, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	c->ops->recv(c->be, r->partner);
	return vlcal_now_ns() - t0;
}

/* A: the send start; B: the receive return (combined by collect()) */
int64_t vlcal_sample_oneway(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		t = vlcal_now_ns();
		ack_send(c, 0);
		return t;
	}
	t = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	ack_recv(c, r->partner);
	return t;
}

int64_t vlcal_sample_send(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0, t1;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->send(c->be, r->partner);
	t1 = vlcal_now_ns();
	ack_recv(c, r->partner);
	return t1 - t0;
}

int64_t vlcal_sample_recv(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0, t1;

	if (c->w->rank == 0) {
		c->ops->send(c->be, r->partner);
		ack_recv(c, r->partner);
		return 0;
	}
	c->ops->probe(c->be, 0);
	t0 = vlcal_now_ns();
	c->ops->recv(c->be, 0);
	t1 = vlcal_now_ns();
	ack_send(c, 0);
	return t1 - t0;
}

int64_t vlcal_sample_gap(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;
	int i;

	if (c->w->rank != 0) {
		for (i = 0; i < r->count; i++)
			c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	for (i = 0; i < r->count; i++)
		c->ops->send(c->be, r->partner);
	ack_recv(c, r->partner);
	return vlcal_now_ns() - t0;
}

int64_t vlcal_sample_pack(vlcal_calib *c, const vlcal_row *r)
{
	return c->ops->pack(c->be, r->bytes);
}

int64_t vlcal_sample_contention(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0, t1;
	int i;

	(void)r;
	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	c->ops->multisend(c->be, c->parts + 1, c->nparts - 1);
	t1 = vlcal_now_ns();
	for (i = 1; i < c->nparts; i++)
		ack_recv(c, c->parts[i]);
	return t1 - t0;
}

int64_t vlcal_sample_bsp(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;

	c->ops->barrier(c->be, r->p);
	t0 = vlcal_now_ns();
	if (r->exp == VL_CALIB_BSP_BARRIER)
		c->ops->barrier(c->be, r->p);
	else {
		c->ops->exchange(c->be, c->dst, r->nd, c->src, r->ns);
		c->ops->barrier(c->be, r->p);
	}
	return vlcal_now_ns() - t0;
}
