/* message.c - what one message does to the clocks of its sender and of its
 * receiver.  Both front ends (PVM and MPI) time every message through these
 * two functions; the costs themselves come from model.c.
 */
#include "vli.h"

void vli_msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		  int64_t depart, int k, vli_sent *s)
{
	s->seq = ++vli_t.seq;
	s->t0 = t0;
	vli_comm(send_ns);
	vli_wait_until(depart);
	s->t1 = vli_t.now;
	s->arrival = s->t1 + vli_trans_time(&vli_t.cfg, vli_t.host, dst_host, bytes);
	vli_trace_msg(VL_EV_SEND, peer, tag, s->seq, bytes, s->t0, s->t1, s->arrival, k,
		      k > 1 ? VL_TF_MCAST : 0);
}

int64_t vli_msg_received(int peer, int src_host, int tag, uint32_t seq, int64_t bytes, int64_t t0,
			 int64_t arrival, unsigned flags)
{
	int64_t before = vli_t.now;

	vli_wait_until(arrival);
	before = vli_t.now - before;
	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	vli_trace_msg(VL_EV_RECV, peer, tag, seq, bytes, t0, vli_t.now, before, arrival, flags);
	return before;
}
