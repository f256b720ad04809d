/* header.c - the timing header protocol (see mpi_internal.h): the header
 * that precedes every timed message on the private header communicator, the
 * stash of headers that arrived before their message was received, the
 * virtual arrival and departure a header gives, and the receiver's answer to
 * a rendezvous on the private answer communicator.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

#define ACK_TAG(seq) ((int)((seq) & 0x3fffffff))

static MPI_Comm hdr_comm = MPI_COMM_NULL, ack_comm = MPI_COMM_NULL;

/* headers that arrived before their message was received, per source */
typedef struct stash {
	vlmpi_hdr *h;
	int n, cap;
} stash;
static stash *stashes;

void vlmpi_header_init(void)
{
	PMPI_Comm_dup(MPI_COMM_WORLD, &hdr_comm);
	PMPI_Comm_dup(MPI_COMM_WORLD, &ack_comm);
	stashes = calloc((size_t)vlmpi_world_size, sizeof(*stashes));
	if (!stashes)
		vli_error(1, "out of memory");
}

void vlmpi_header_end(void)
{
	int i;

	if (hdr_comm != MPI_COMM_NULL)
		PMPI_Comm_free(&hdr_comm);
	if (ack_comm != MPI_COMM_NULL)
		PMPI_Comm_free(&ack_comm);
	for (i = 0; stashes && i < vlmpi_world_size; i++)
		free(stashes[i].h);
	free(stashes);
	stashes = NULL;
}

static void stash_push(int src, const vlmpi_hdr *h)
{
	stash *s = &stashes[src];

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->h = realloc(s->h, sizeof(vlmpi_hdr) * (size_t)s->cap);
		if (!s->h)
			vli_error(1, "out of memory");
	}
	s->h[s->n++] = *h;
}

static void stash_drop(int src, int i)
{
	stash *s = &stashes[src];

	memmove(&s->h[i], &s->h[i + 1], sizeof(vlmpi_hdr) * (size_t)(s->n - i - 1));
	s->n--;
}

uint64_t vlmpi_headers_in;

/* A header that has really arrived from world rank src: counted if it was
 * announced; a cancellation drops the header it cancels, anything else is
 * returned (1) for the caller to stash or use. */
static int header_in(int src, const vlmpi_hdr *h)
{
	stash *s = &stashes[src];
	int i;

	vlmpi_headers_in++;
	if (h->flags & VLMPI_HDR_ANN)
		vli_order_received();
	if (!(h->flags & VLMPI_HDR_CANCEL))
		return 1;
	for (i = 0; i < s->n; i++)
		if (s->h[i].seq == h->seq) {
			stash_drop(src, i);
			break;
		}
	return 0;
}

void vlmpi_header_drain(void)
{
	MPI_Status st;
	vlmpi_hdr h;
	int flag, was = vlmpi_quiet_begin();

	for (;;) {
		flag = 0;
		PMPI_Iprobe(MPI_ANY_SOURCE, 0, hdr_comm, &flag, &st);
		if (!flag)
			break;
		PMPI_Recv(&h, sizeof h, MPI_BYTE, st.MPI_SOURCE, 0, hdr_comm, MPI_STATUS_IGNORE);
		if (header_in(st.MPI_SOURCE, &h))
			stash_push(st.MPI_SOURCE, &h);
	}
	vlmpi_quiet_end(was);
}

int vlmpi_header_first(int src, uint64_t cid, int tag, vlmpi_hdr *out)
{
	stash *s = &stashes[src];
	int i;

	for (i = 0; i < s->n; i++)
		if (s->h[i].cid == cid && (tag == MPI_ANY_TAG || s->h[i].tag == tag)) {
			*out = s->h[i];
			return 1;
		}
	return 0;
}

/* The header of the next message from world rank src on communicator cid
 * with tag; removed from the stream unless peek. */
void vlmpi_header_get(int src, uint64_t cid, int tag, vlmpi_hdr *out, int peek)
{
	stash *s = &stashes[src];
	vlmpi_hdr h;
	int i;

	for (i = 0; i < s->n; i++)
		if (s->h[i].cid == cid && s->h[i].tag == tag) {
			*out = s->h[i];
			if (!peek)
				stash_drop(src, i);
			return;
		}
	for (;;) {
		PMPI_Recv(&h, sizeof h, MPI_BYTE, src, 0, hdr_comm, MPI_STATUS_IGNORE);
		if (!header_in(src, &h))
			continue;
		if (h.cid == cid && h.tag == tag) {
			*out = h;
			if (peek)
				stash_push(src, &h);
			return;
		}
		stash_push(src, &h);
	}
}

/* Header of a message this task sends now; the clock is not touched. */
void vlmpi_header_make(vlmpi_hdr *h, vlmpi_comm *v, int dest, int tag, int64_t bytes, int rdv)
{
	int dh = v->host[dest];
	int64_t arr;

	h->cid = v->id;
	h->tag = tag;
	h->seq = vli_t.seq + 1; /* the number vli_msg_sent will give it */
	h->bytes = bytes;
	h->t_call = vli_t.now;
	h->send_ns = vli_send_time(&vli_t.cfg, vli_t.host, dh, bytes);
	h->trans_ns = vli_trans_time(&vli_t.cfg, vli_t.host, dh, bytes);
	h->flags = rdv ? VLMPI_HDR_RDV : 0;
	h->src_host = vli_t.host;
	h->src = vlmpi_world_rank;
	h->pad = 0;
	arr = h->t_call + h->send_ns + h->trans_ns;
	/* a message between hosts on a [topology] shares the links with the
	 * run's other messages: an eager one's flow is known before the header
	 * goes; a rendezvous' is pending until its receive is posted */
	if (!rdv && vli_flow_send(v->world[dest], dh, bytes, h->t_call + h->send_ns, h->seq, &arr))
		h->flags |= VLMPI_HDR_FLOW;
	if (rdv && vli_flow_pend(v->world[dest], dh, bytes, h->t_call + h->send_ns, h->seq, tag,
				 v->id))
		h->flags |= VLMPI_HDR_FLOW;
	/* virtual order: the receiver learns of the message before this task's
	 * bound can pass the send */
	if (vli_order_announce(v->world[dest], arr))
		h->flags |= VLMPI_HDR_ANN;
	PMPI_Send(h, sizeof *h, MPI_BYTE, v->world[dest], 0, hdr_comm);
}

void vlmpi_header_cancel(const vlmpi_hdr *hs, int dest)
{
	vlmpi_hdr h = *hs;

	h.flags = (h.flags | VLMPI_HDR_CANCEL) & ~VLMPI_HDR_ANN;
	PMPI_Send(&h, sizeof h, MPI_BYTE, dest, 0, hdr_comm);
}

/* Departure = end of the send call; a rendezvous leaves no earlier than the
 * receive was posted. */
int vlmpi_arrival_final(const vlmpi_hdr *h, int64_t t_post, int64_t *a, int committed)
{
	int r;

	if ((h->flags & VLMPI_HDR_FLOW) && (r = vli_flow_arrival_in(h->src, h->seq, a, committed)))
		return r == 1;
	*a = vlmpi_arrival_of(h, t_post);
	return 1;
}

int64_t vlmpi_arrival_of(const vlmpi_hdr *h, int64_t t_post)
{
	int64_t go = h->t_call + h->send_ns, a;

	if ((h->flags & VLMPI_HDR_FLOW) && vli_flow_arrival(h->src, h->seq, &a))
		return a; /* final, or its estimate */
	if ((h->flags & VLMPI_HDR_RDV) && t_post > go)
		go = t_post;
	return go + h->trans_ns;
}

int64_t vlmpi_envelope_of(const vlmpi_hdr *h)
{
	if (!(h->flags & VLMPI_HDR_RDV))
		return vlmpi_arrival_of(h, 0); /* the data come with the envelope */
	return h->t_call + h->send_ns + vli_trans_time(&vli_t.cfg, h->src_host, vli_t.host, 0);
}

int64_t vlmpi_rdv_departure(const vlmpi_hdr *h, int64_t ack)
{
	return h->t_call + h->send_ns > ack ? h->t_call + h->send_ns : ack;
}

int64_t vlmpi_rdv_done(const vlmpi_hdr *h, int64_t ack)
{
	return vlmpi_rdv_departure(h, ack) + h->trans_ns;
}

int64_t vlmpi_rdv_least_end(const vlmpi_hdr *h, int dst_host)
{
	int64_t t = h->flags & VLMPI_HDR_FLOW
			    ? vli_net_alone_ns(&vli_t.cfg, h->src_host, dst_host, h->bytes)
			    : h->trans_ns;

	return h->t_call + h->send_ns + t;
}

int vlmpi_rdv_end(const vlmpi_hdr *h, int dst, int64_t ack, int64_t *end, int committed)
{
	int r;

	if ((h->flags & VLMPI_HDR_FLOW) && (r = vli_flow_sent_arrival_in(dst, h->seq, end, committed)))
		return r == 1;
	*end = vlmpi_rdv_done(h, ack);
	return 1;
}

int64_t vlmpi_rdv_end_wait(const vlmpi_hdr *h, int dst, int64_t ack)
{
	int64_t cf = vlmpi_rdv_done(h, ack);

	return (h->flags & VLMPI_HDR_FLOW) ? vli_flow_settle_sent(dst, h->seq, cf) : cf;
}

/* VLAYER_TEST_ACK_PAUSE=US (for tests): a receiver pauses US microseconds of
 * real time before it counts its answer to a rendezvous and again before it
 * resolves the message's flow, so that the others look at the board in
 * between.  (The system call itself: the layer's nanosleep would count it as
 * the program's sleep.) */
static void test_pause(void)
{
	static int us = -1;
	struct timespec ts;

	if (us < 0) {
		const char *e = getenv("VLAYER_TEST_ACK_PAUSE");
		us = e && atoi(e) > 0 ? atoi(e) : 0;
	}
	if (!us)
		return;
	ts.tv_sec = us / 1000000;
	ts.tv_nsec = (long)(us % 1000000) * 1000;
	while (syscall(SYS_nanosleep, &ts, &ts) < 0 && errno == EINTR)
		;
}

void vlmpi_ack_send(int src, const vlmpi_hdr *h, int64_t t_post)
{
	if (h->flags & VLMPI_HDR_RDV) {
		/* the sender no longer waits on this task: counted first, so that
		 * no task ever sees it waiting on this one once its message is
		 * resolved.  (Counted after: two ranks sending to each other, both
		 * resolved and neither counted, looked like a cycle of waits - ranks
		 * that could not go on - so a third rank took its arrival for final
		 * without them, and their next messages came late: LAMMPS through
		 * the board server, about 1 run in 200; on one host too, with the
		 * receiver paused between the two steps.) */
		test_pause();
		vli_order_release(src);
		test_pause();
		/* its data leave now on the shared links, before the sender learns it */
		if (h->flags & VLMPI_HDR_FLOW)
			vli_flow_resolve(src, h->seq, vlmpi_rdv_departure(h, t_post));
		PMPI_Send(&t_post, 1, MPI_INT64_T, src, ACK_TAG(h->seq), ack_comm);
		vli_order_poke(src); /* it may nap until the answer is there */
	}
}

int vlmpi_ack_irecv(int64_t *t, int dest, const vlmpi_hdr *h, MPI_Request *r)
{
	return PMPI_Irecv(t, 1, MPI_INT64_T, dest, ACK_TAG(h->seq), ack_comm, r);
}

/* ---- candidates (virtual order) ---- */

int vlmpi_best_final, vlmpi_best_rdv;

int vlmpi_header_best(vlmpi_comm *v, int source, int tag, int64_t t_post, int64_t *tau, int *htag)
{
	int fin;
	int s, lo = source == MPI_ANY_SOURCE ? 0 : source;
	int hi = source == MPI_ANY_SOURCE ? v->size : source + 1, b = -1;
	uint32_t bseq = 0;
	vlmpi_hdr h;
	int64_t a;

	for (s = lo; s < hi; s++) {
		/* a source's candidate: its first matching header (MPI's order) */
		if (!vlmpi_header_first(v->world[s], v->id, tag, &h))
			continue;
		/* matched when its envelope arrives: a rendezvous's goes ahead of
		 * its data, which leave only when the receive is posted */
		if (h.flags & VLMPI_HDR_RDV) {
			a = vlmpi_envelope_of(&h);
			fin = 1;
		} else {
			fin = vlmpi_arrival_final(&h, t_post, &a, 0);
		}
		if (b < 0 || a < *tau ||
		    (a == *tau && (v->world[s] < v->world[b] ||
				   (v->world[s] == v->world[b] && h.seq < bseq)))) {
			b = s;
			*tau = a;
			*htag = h.tag;
			bseq = h.seq;
			vlmpi_best_final = fin;
			vlmpi_best_rdv = (h.flags & VLMPI_HDR_RDV) != 0;
		}
	}
	return b;
}

int64_t vlmpi_pending_arrival(vlmpi_comm *v, int source, int tag, int64_t t_post)
{
	int64_t tau = VLI_ORDER_NONE;
	int htag, b;
	vlmpi_hdr h;

	if (!vlmpi_vorder || source == MPI_PROC_NULL)
		return VLI_ORDER_NONE;
	vlmpi_header_drain();
	b = vlmpi_header_best(v, source, tag, t_post, &tau, &htag);
	if (b < 0 || !vlmpi_header_first(v->world[b], v->id, htag, &h))
		return VLI_ORDER_NONE;
	return vlmpi_arrival_of(&h, t_post); /* (its data, once matched) */
}
