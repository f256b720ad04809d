/* send.c - sending in the PVM front end: pvm_send, pvm_mcast and pvm_psend.
 * The engine times the message to each destination (a multicast shares the
 * link: contention); the user's send buffer then goes out inside a wrapper
 * (wire.c) that carries every destination's sequence number and virtual
 * arrival time.  Destinations that are not virtualised (VLPVM_HOST_RAW: the
 * group server, pvmds) get the user's buffer as it is.  A buffer packed
 * in place is read at the send, as libpvm does, and timed by its data bytes.
 * pvm_psend sends the items as bytes, as libpvm does.
 */
#include <math.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

/* Bytes packed in buffer ubuf (0 if there is none). */
static int64_t sbuf_bytes(int ubuf)
{
	int len = 0;
	if (ubuf > 0)
		vlpvm_real_pvm_bufinfo(ubuf, &len, NULL, NULL);
	return len;
}

/* What the wrapper carries for destination tid, timed as st; announced to
 * it under virtual order. */
static void dest_of(struct vlpvm_dest *d, int tid, const vli_sent *st)
{
	d->tid = tid;
	d->seq = st->seq;
	d->t0 = st->t0;
	d->t1 = st->t1;
	d->arrival = st->arrival;
	d->announced = vli_order_announce_in(tid, st->arrival, vlpvm_side_for(tid));
}

/* A multicast on a [topology] whose messages are not flows of the run (ordering
 * = real: order_flows.c): the sends one after the other, each paying
 * its send time (no contention factor: the links decide), and the messages
 * between hosts sharing the links (vli_net_mcast). */
static void shared_sends(const int *tids, int n, int tag, int64_t bytes, struct vlpvm_dest *d)
{
	int64_t *dep = malloc((size_t)n * 2 * sizeof *dep), t = vli_t.now;
	int *h = malloc((size_t)n * sizeof *h), i;

	if (!dep || !h)
		vli_error(3, "out of memory timing a multicast to %d tasks", n);
	for (i = 0; i < n; i++) {
		h[i] = vlpvm_host_of(tids[i]);
		t += vli_send_time(&vli_t.cfg, vli_t.host, h[i], bytes);
		dep[i] = t;
	}
	vli_net_mcast(&vli_t.cfg, vli_t.host, h, n, bytes, dep, dep + n);
	for (i = 0; i < n; i++) {
		vli_sent st;

		vli_msg_sent_arriving(tids[i], h[i], tag, bytes,
				      vli_send_time(&vli_t.cfg, vli_t.host, h[i], bytes), vli_t.now,
				      n, dep[n + i], &st);
		dest_of(&d[i], tids[i], &st);
	}
	free(dep);
	free(h);
}

/* Time the sends to tids[0..n) (a multicast if n > 1) and fill d. */
static void time_sends(const int *tids, int n, int tag, int64_t bytes, struct vlpvm_dest *d)
{
	double f = 1.0;
	int i;

	if (n > 1 && vli_net_on(&vli_t.cfg) && !vli_flows_online()) {
		shared_sends(tids, n, tag, bytes, d);
		return;
	}
	/* (online flows: a multicast's messages share the links with every
	 * other message, one after the other as they leave) */
	if (n > 1 && !vli_net_on(&vli_t.cfg)) {
		int h0 = vlpvm_host_of(tids[0]);
		f = vli_contention(vli_link(&vli_t.cfg, vli_t.host, h0), n);
	}
	for (i = 0; i < n; i++) {
		int h = vlpvm_host_of(tids[i]);
		int64_t s = vli_send_time(&vli_t.cfg, vli_t.host, h, bytes);
		vli_sent st;

		if (n > 1)
			s = (int64_t)llround((double)s * f);
		vli_msg_sent_flow(tids[i], h, tag, bytes, s, vli_t.now, n, 0, VLI_FLOW_TRY, &st);
		dest_of(&d[i], tids[i], &st);
	}
}

/* Send the current send buffer to n tasks, virtualised (flags: the wrapper's
 * header flags).  Returns 0 or the PVM error. */
static int vsend(const int *tids, int n, int tag, int flags)
{
	struct vlpvm_dest dst[64], *d = dst;
	int ubuf = vlpvm_real_pvm_getsbuf(), mb = ubuf, w, cc, i, nv = 0;
	int *vt = NULL, *rt = NULL, nr = 0;

	if (ubuf <= 0)
		return n == 1 ? vlpvm_real_pvm_send(tids[0], tag) : vlpvm_real_pvm_mcast((int *)tids, n, tag);
	if (n > 64 && !(d = malloc((size_t)n * sizeof *d)))
		return PvmNoMem;
	vt = malloc((size_t)n * 2 * sizeof *vt);
	if (!vt) {
		if (d != dst)
			free(d);
		return PvmNoMem;
	}
	rt = vt + n;
	for (i = 0; i < n; i++) {
		if (vlpvm_host_of(tids[i]) == VLPVM_HOST_RAW)
			rt[nr++] = tids[i];
		else
			vt[nv++] = tids[i];
	}
	cc = 0;
	if (nr > 0)
		cc = nr == 1 ? vlpvm_real_pvm_send(rt[0], tag) : vlpvm_real_pvm_mcast(rt, nr, tag);
	if (nv > 0 && cc >= 0)
		cc = mb = vlpvm_inplace_copy(ubuf); /* in-place data are read now */
	if (nv > 0 && cc >= 0) {
		time_sends(vt, nv, tag, sbuf_bytes(mb), d);
		w = vlpvm_wrap(mb, d, nv, flags);
		cc = nv == 1 ? vlpvm_real_pvm_send(vt[0], tag) : vlpvm_real_pvm_mcast(vt, nv, tag);
		vlpvm_real_pvm_setsbuf(ubuf);
		vlpvm_real_pvm_freebuf(w);
		if (mb != ubuf)
			vlpvm_real_pvm_freebuf(mb);
	}
	free(vt);
	if (d != dst)
		free(d);
	return cc < 0 ? cc : 0;
}

int vlpvm_send(int tid, int tag)
{
	return vsend(&tid, 1, tag, 0);
}

int vlpvm_mcast(int *tids, int ntask, int tag)
{
	int v[VLPVM_MAX_MCAST], n = 0, i;
	if (ntask > VLPVM_MAX_MCAST)
		return vlpvm_real_pvm_mcast(tids, ntask, tag);
	for (i = 0; i < ntask; i++)
		if (tids[i] != vli_t.id)
			v[n++] = tids[i]; /* PVM's mcast never sends to the caller */
	if (n == 0)
		return 0;
	return vsend(v, n, tag, 0);
}

int vlpvm_type_size(int type)
{
	switch (type) {
	case PVM_BYTE:
		return 1;
	case PVM_SHORT:
	case PVM_USHORT:
		return (int)sizeof(short);
	case PVM_INT:
	case PVM_UINT:
		return (int)sizeof(int);
	case PVM_LONG:
	case PVM_ULONG:
		return (int)sizeof(long);
	case PVM_FLOAT:
		return (int)sizeof(float);
	case PVM_CPLX:
		return 2 * (int)sizeof(float);
	case PVM_DOUBLE:
		return (int)sizeof(double);
	case PVM_DCPLX:
		return 2 * (int)sizeof(double);
	default: /* PVM_STR: not implemented by libpvm; others: bad parameter */
		return 0;
	}
}

/* As libpvm's pvm_psend: the len items go out as bytes, read now. */
int vlpvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	int size = vlpvm_type_size(datatype), b, old, cc;

	if (size == 0) /* refused, with libpvm's own message, before anything is sent */
		return vlpvm_real_pvm_psend(tid, tag, buf, len, datatype);
	b = vlpvm_real_pvm_mkbuf(PvmDataRaw);
	old = vlpvm_real_pvm_setsbuf(b);
	cc = vlpvm_real_pvm_pkbyte(buf, len * size, 1);
	if (cc >= 0)
		cc = vsend(&tid, 1, tag, 0);
	vlpvm_real_pvm_setsbuf(old);
	vlpvm_real_pvm_freebuf(b);
	return cc;
}
