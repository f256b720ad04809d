/* message.c - what one message does to the clocks of its sender and of its
 * receiver.  Both front ends (PVM and MPI) time every message through these
 * functions; the costs themselves come from model.c.
 */
#include "vli.h"
#include <string.h>

static void trace(int type, unsigned flags, int peer, int tag, uint32_t seq, int64_t bytes,
		  int64_t t0, int64_t t1, int64_t t2, int64_t t3, int64_t t4)
{
	vl_trec r;

	memset(&r, 0, sizeof r);
	r.type = (uint16_t)type;
	r.flags = (uint16_t)flags;
	r.tag = tag;
	r.peer = peer;
	r.seq = seq;
	r.u.v.bytes = bytes;
	r.u.v.t0 = t0;
	r.u.v.t1 = t1;
	r.u.v.t2 = t2;
	r.u.v.t3 = t3;
	r.u.v.t4 = t4;
	vli_trace_put(&r);
}

/* Waits until t, returns the time waited. */
static int64_t wait_until(int64_t t)
{
	int64_t before = vli_t.now;

	vli_wait_until(t);
	return vli_t.now - before;
}

uint32_t vli_req_next(void)
{
	static uint32_t n;

	return ++n;
}

void vli_msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		  int64_t depart, int k, uint32_t req, vli_sent *s)
{
	int64_t waited;
	unsigned flags = (k > 1 ? VL_TF_MCAST : 0) | (req ? VL_TF_NB : 0);

	s->seq = ++vli_t.seq;
	s->t0 = t0;
	vli_comm(send_ns);
	waited = wait_until(depart);
	s->t1 = vli_t.now;
	s->arrival = s->t1 + vli_trans_time(&vli_t.cfg, vli_t.host, dst_host, bytes);
	trace(VL_EV_SEND, flags, peer, tag, s->seq, bytes, s->t0, s->t1, s->arrival, k,
	      req ? (int64_t)req : waited);
}

int64_t vli_msg_received(int peer, int src_host, int tag, uint32_t seq, int64_t bytes, int64_t t0,
			 int64_t arrival, unsigned flags, uint32_t req)
{
	int64_t waited = wait_until(arrival);

	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	trace(VL_EV_RECV, flags | (req ? VL_TF_NB : 0), peer, tag, seq, bytes, t0, vli_t.now, waited,
	      arrival, req);
	return waited;
}

void vli_msg_posted(int peer, int tag, uint32_t req, int64_t t0)
{
	trace(VL_EV_IRECV, 0, peer, tag, 0, 0, t0, vli_t.now, 0, 0, req);
}

void vli_msg_completed(int peer, int tag, uint32_t seq, int64_t bytes, uint32_t req, int64_t t0,
		       int64_t depart)
{
	int64_t waited = wait_until(depart);

	trace(VL_EV_WAIT, 0, peer, tag, seq, bytes, t0, vli_t.now, waited, 0, req);
}

void vli_msg_probed(int peer, int src_host, int tag, int64_t t0, int64_t arrival)
{
	int64_t waited = wait_until(arrival);

	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	trace(VL_EV_PROBE, VL_TF_FOUND, peer, tag, 0, 0, t0, vli_t.now, waited, 0, 0);
}
