/* message.c - what one message does to the clocks of its sender and of its
 * receiver.  Both front ends (PVM and MPI) time every message through these
 * functions; the costs themselves come from model.c.
 */
#include <math.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"

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

static void msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		     int64_t depart, int k, uint32_t req, vli_sent *s, int sync, int64_t arrival,
		     int flow)
{
	int64_t waited, est;
	unsigned flags = (k > 1 ? VL_TF_MCAST : 0) | (req ? VL_TF_NB : 0);

	s->seq = ++vli_t.seq;
	s->t0 = t0;
	vli_comm(send_ns);
	waited = wait_until(depart);
	s->arrival = arrival >= 0 ? arrival
				  : vli_t.now + vli_trans_time(&vli_t.cfg, vli_t.host, dst_host, bytes);
	s->shared = flow == VLI_FLOW_HAVE ||
		    (flow == VLI_FLOW_TRY &&
		     vli_flow_send(peer, dst_host, bytes, vli_t.now, s->seq, &est));
	if (sync) /* the call returns when the data are in */
		waited += wait_until(s->arrival);
	s->t1 = vli_t.now;
	/* a shared message's trace shows its arrival on free links (a lower
	 * bound, the same in every run); the receive shows the final one */
	vli_trace_msg4(VL_EV_SEND, peer, tag, s->seq, bytes, s->t0, s->t1, s->arrival, k,
		       req ? (int64_t)req : waited, flags | (s->shared ? VL_TF_SHARED : 0));
	if (s->shared && flow == VLI_FLOW_TRY)
		s->arrival = est;
}

void vli_msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		  int64_t depart, int k, uint32_t req, vli_sent *s)
{
	msg_sent(peer, dst_host, tag, bytes, send_ns, t0, depart, k, req, s, 0, -1, VLI_FLOW_NONE);
}

void vli_msg_sent_flow(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
		       int64_t t0, int k, uint32_t req, int flow, vli_sent *s)
{
	msg_sent(peer, dst_host, tag, bytes, send_ns, t0, 0, k, req, s, 0, -1, flow);
}

void vli_msg_sent_arriving(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
			   int64_t t0, int k, int64_t arrival, vli_sent *s)
{
	msg_sent(peer, dst_host, tag, bytes, send_ns, t0, 0, k, 0, s, 0, arrival, VLI_FLOW_NONE);
}

void vli_msg_sent_sync(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
		       int64_t t0, int64_t depart, int64_t arrival, vli_sent *s)
{
	msg_sent(peer, dst_host, tag, bytes, send_ns, t0, depart, 1, 0, s, 1, arrival,
		 VLI_FLOW_NONE);
}

int64_t vli_msg_received(int peer, int src_host, int tag, uint32_t seq, int64_t bytes, int64_t t0,
			 int64_t arrival, unsigned flags, uint32_t req)
{
	int64_t waited;

	arrival = vli_flow_settle(peer, seq, arrival, 0); /* its final arrival on shared links */
	waited = wait_until(arrival);

	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	vli_trace_msg4(VL_EV_RECV, peer, tag, seq, bytes, t0, vli_t.now, waited, arrival, req,
		       flags | (req ? VL_TF_NB : 0));
	return waited;
}

void vli_msg_posted(int peer, int tag, uint32_t req, int64_t t0, unsigned flags)
{
	vli_trace_msg4(VL_EV_IRECV, peer, tag, 0, 0, t0, vli_t.now, 0, 0, req, flags);
}

void vli_msg_completed(int peer, int tag, uint32_t seq, int64_t bytes, uint32_t req, int64_t t0,
		       int64_t depart)
{
	int64_t waited = wait_until(depart);

	vli_trace_msg4(VL_EV_WAIT, peer, tag, seq, bytes, t0, vli_t.now, waited, 0, req, 0);
}

void vli_msg_probed(int peer, int src_host, int tag, uint32_t seq, int64_t t0, int64_t arrival)
{
	int64_t waited;

	arrival = vli_flow_settle(peer, seq, arrival, 1);
	waited = wait_until(arrival);

	vli_comm(vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host));
	vli_trace_msg4(VL_EV_PROBE, peer, tag, 0, 0, t0, vli_t.now, waited, 0, 0, VL_TF_FOUND);
}

void vli_net_mcast(const vlcfg_config *c, int src, const int *dst, int n, int64_t bytes,
		   const int64_t *depart, int64_t *arr)
{
	vli_flows f;
	int i, *id = calloc((size_t)n, sizeof *id);

	if (!id)
		vli_error(3, "out of memory timing a multicast to %d tasks", n);
	vli_flows_init(&f, c);
	for (i = 0; i < n; i++) {
		id[i] = -1;
		if (dst[i] == src || dst[i] < 0 || src < 0)
			arr[i] = depart[i] + vli_trans_time(c, src, dst[i], bytes);
		else
			id[i] = vli_flows_add(&f, src, dst[i], bytes, depart[i]);
	}
	vli_flows_advance(&f, INFINITY);
	for (i = 0; i < n; i++)
		if (id[i] >= 0 && !vli_flows_end(&f, id[i], &arr[i]))
			arr[i] = depart[i] + vli_trans_time(c, src, dst[i], bytes); /* not reached */
	vli_flows_free(&f);
	free(id);
}
