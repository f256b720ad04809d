/* send.c - sending in the PVM front end: pvm_send, pvm_mcast and pvm_psend.
 * The engine times the message to each destination (a multicast shares the
 * link: contention); the user's send buffer then goes out inside a wrapper
 * (wire.c) that carries every destination's sequence number and virtual
 * arrival time.  Destinations that are not virtualised (VLPVM_HOST_RAW: the
 * group server, pvmds) get the user's buffer as it is.
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

/* Time the sends to tids[0..n) (a multicast if n > 1) and fill d. */
static void time_sends(const int *tids, int n, int tag, int64_t bytes, struct vlpvm_dest *d)
{
	double f = 1.0;
	int i;

	if (n > 1) {
		int h0 = vlpvm_host_of(tids[0]);
		f = vli_contention(vli_link(&vli_t.cfg, vli_t.host, h0), n);
	}
	for (i = 0; i < n; i++) {
		int h = vlpvm_host_of(tids[i]);
		int64_t s = vli_send_time(&vli_t.cfg, vli_t.host, h, bytes);
		vli_sent st;

		if (n > 1)
			s = (int64_t)llround((double)s * f);
		vli_msg_sent(tids[i], h, tag, bytes, s, vli_t.now, 0, n, 0, &st);
		d[i].tid = tids[i];
		d[i].seq = st.seq;
		d[i].t0 = st.t0;
		d[i].t1 = st.t1;
		d[i].arrival = st.arrival;
		d[i].announced = vli_order_announce(tids[i], st.arrival);
	}
}

/* Send the current send buffer to n tasks, virtualised (flags: the wrapper's
 * header flags).  Returns 0 or the PVM error. */
static int vsend(const int *tids, int n, int tag, int flags)
{
	struct vlpvm_dest dst[64], *d = dst;
	int ubuf = vlpvm_real_pvm_getsbuf(), w, cc, i, nv = 0;
	int64_t bytes = sbuf_bytes(ubuf);
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
	if (nv > 0 && cc >= 0) {
		time_sends(vt, nv, tag, bytes, d);
		w = vlpvm_wrap(ubuf, d, nv, flags);
		cc = nv == 1 ? vlpvm_real_pvm_send(vt[0], tag) : vlpvm_real_pvm_mcast(vt, nv, tag);
		vlpvm_real_pvm_setsbuf(ubuf);
		vlpvm_real_pvm_freebuf(w);
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

/* pack/unpack len items of a PVM data type */
int vlpvm_pk_typed(void *buf, int len, int type, int unpack)
{
	switch (type) {
	case PVM_STR:
	case PVM_BYTE:
		return unpack ? vlpvm_real_pvm_upkbyte(buf, len, 1) : vlpvm_real_pvm_pkbyte(buf, len, 1);
	case PVM_SHORT:
	case PVM_USHORT:
		return unpack ? vlpvm_real_pvm_upkshort(buf, len, 1) : vlpvm_real_pvm_pkshort(buf, len, 1);
	case PVM_INT:
	case PVM_UINT:
		return unpack ? vlpvm_real_pvm_upkint(buf, len, 1) : vlpvm_real_pvm_pkint(buf, len, 1);
	case PVM_LONG:
	case PVM_ULONG:
		return unpack ? vlpvm_real_pvm_upklong(buf, len, 1) : vlpvm_real_pvm_pklong(buf, len, 1);
	case PVM_FLOAT:
		return unpack ? vlpvm_real_pvm_upkfloat(buf, len, 1) : vlpvm_real_pvm_pkfloat(buf, len, 1);
	case PVM_CPLX:
		return unpack ? vlpvm_real_pvm_upkcplx(buf, len, 1) : vlpvm_real_pvm_pkcplx(buf, len, 1);
	case PVM_DOUBLE:
		return unpack ? vlpvm_real_pvm_upkdouble(buf, len, 1) : vlpvm_real_pvm_pkdouble(buf, len, 1);
	case PVM_DCPLX:
		return unpack ? vlpvm_real_pvm_upkdcplx(buf, len, 1) : vlpvm_real_pvm_pkdcplx(buf, len, 1);
	default:
		return PvmBadParam;
	}
}

int vlpvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	int b = vlpvm_real_pvm_mkbuf(PvmDataRaw), old = vlpvm_real_pvm_setsbuf(b), cc;

	cc = vlpvm_pk_typed(buf, len, datatype, 0);
	if (cc >= 0)
		cc = vsend(&tid, 1, tag, 0);
	vlpvm_real_pvm_setsbuf(old);
	vlpvm_real_pvm_freebuf(b);
	return cc;
}
