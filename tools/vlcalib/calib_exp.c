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

/* rank 0 sends the data message to its k = nparts - 1 partners at once;
 * contention: until its send calls return; share_fanout: until the last
 * partner has said (an empty message) that it is in */
int64_t vlcal_sample_contention(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0, t1;
	int i;

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
	return (r->exp == VL_CALIB_SHARE_FANOUT ? vlcal_now_ns() : t1) - t0;
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

/* ---- the sharing experiments (calib_common.h: ops->share) ----
 * Every time is rank 0's clock, from before its first message until it knows
 * that the last data message is in; what that adds to the flows' own time
 * (an empty start or reply message, the calls' costs) does not grow with the
 * size, so the size's slope is the flows' alone. */

static void go_send(vlcal_calib *c, int to)
{
	c->ops->send_i64(c->be, to, VLCAL_TAG_GO, NULL, 0);
}

static void go_recv(vlcal_calib *c)
{
	c->ops->recv_i64(c->be, 0, VLCAL_TAG_GO, NULL, 0);
}

/* rank 0 starts its partner (an empty message), then both send each other
 * the data message at once; until rank 0's send and receive are complete
 * (the partner's message, the later one, is then in) */
int64_t vlcal_sample_share_exchange(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;
	int zero = 0;

	if (c->w->rank != 0) {
		go_recv(c);
		c->ops->exchange(c->be, &zero, 1, &zero, 1);
		return 0;
	}
	t0 = vlcal_now_ns();
	go_send(c, r->partner);
	c->ops->exchange(c->be, &r->partner, 1, &r->partner, 1);
	return vlcal_now_ns() - t0;
}

/* rank 0 starts its k partners, which send it the data message at once;
 * until it has received all k */
int64_t vlcal_sample_share_fanin(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;
	int i;

	(void)r;
	if (c->w->rank != 0) {
		go_recv(c);
		c->ops->send(c->be, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	for (i = 1; i < c->nparts; i++)
		go_send(c, c->parts[i]);
	c->ops->exchange(c->be, NULL, 0, c->parts + 1, c->nparts - 1);
	return vlcal_now_ns() - t0;
}

/* rank 0 sends the data message to its k partners at once, the first
 * partner notes when it has its message (A: the send start, B: that receive's
 * return, combined by collect() as a one-way time).  Fair sharing gives the k
 * messages the link together (the first is in after k m / B), FIFO one after
 * the other (m / B): what tells the two apart.  (Timed on the partner: under
 * PVM rank 0's own library takes in the partner's reply only once it has
 * written out all k messages, which looks fair on any network.) */
int64_t vlcal_sample_share_first(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t;
	int i;

	if (c->w->rank != 0) {
		c->ops->recv(c->be, 0);
		t = vlcal_now_ns();
		ack_send(c, 0);
		return c->w->rank == r->partner ? t : 0;
	}
	t = vlcal_now_ns();
	c->ops->sendeach(c->be, c->parts + 1, c->nparts - 1);
	for (i = 1; i < c->nparts; i++)
		ack_recv(c, c->parts[i]);
	return t;
}

/* rank 0 starts its p - 1 partners; each of the p sends the data message to
 * every other one and receives theirs, all at once; until rank 0 has its
 * own p - 1 messages and every partner has said that it has its */
int64_t vlcal_sample_share_alltoall(vlcal_calib *c, const vlcal_row *r)
{
	int64_t t0;
	int i, n = 0;

	(void)r;
	for (i = 0; i < c->nparts; i++)
		if (c->parts[i] != c->w->rank)
			c->dst[n++] = c->parts[i];
	if (c->w->rank != 0) {
		go_recv(c);
		c->ops->exchange(c->be, c->dst, n, c->dst, n);
		ack_send(c, 0);
		return 0;
	}
	t0 = vlcal_now_ns();
	for (i = 1; i < c->nparts; i++)
		go_send(c, c->parts[i]);
	c->ops->exchange(c->be, c->dst, n, c->dst, n);
	for (i = 1; i < c->nparts; i++)
		ack_recv(c, c->parts[i]);
	return vlcal_now_ns() - t0;
}
