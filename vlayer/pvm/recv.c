/* recv.c - receiving in the PVM front end: real PVM -> the engine's virtual
 * mailbox.  Every message PVM has for this task is taken off its wrapper
 * (wire.c) into the mailbox with its virtual arrival time; a receive call
 * then picks the first matching message that has arrived by its virtual
 * deadline (pvm_recv: any time, pvm_nrecv/pvm_probe: now, pvm_trecv: now +
 * timeout), the clock waits for it and pays the receive delay, and it becomes
 * PVM's active receive buffer.  Messages without a header (pvmd, the group
 * server, untraced tasks) arrive at the receiver's current virtual time.
 * pvm_recvf's match function decides for the program's receives.
 */
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

static vlpvm_recvf_fn user_match;

/* Take the message that is the active receive buffer into the mailbox. */
static void take(int b)
{
	struct pvmminfo mi;
	struct vlpvm_hdr h;
	vli_msg m;
	int len = 0;

	memset(&m, 0, sizeof m);
	vlpvm_real_pvm_getminfo(b, &mi);
	m.src = mi.src;
	m.tag = mi.tag;
	m.ctx = mi.ctx;
	m.src_host = -1;
	m.arrival = INT64_MIN;
	m.synthetic = 1;
	m.buf = b;
	if (vlpvm_unwrap_hdr(&mi, &h)) {
		if (h.mine) {
			m.seq = h.seq;
			m.arrival = h.arrival;
			m.synthetic = 0;
		}
		m.internal = h.internal;
		m.src_host = h.src_host;
		vli_reg_set(m.src, h.src_host);
		m.buf = vlpvm_unwrap_msg(&mi);
		vlpvm_real_pvm_setrbuf(0);
		vlpvm_real_pvm_freebuf(b);
	} else {
		vlpvm_real_pvm_setrbuf(0);
	}
	vlpvm_real_pvm_bufinfo(m.buf, &len, NULL, NULL);
	m.bytes = len;
	vli_mbox_add(&m);
}

/* Move every message that is already there into the mailbox. */
static void pull_all(void)
{
	int b;
	while ((b = vlpvm_real_pvm_nrecv(-1, -1)) > 0)
		take(b);
}

/* Block (up to tmo, or forever if NULL) for one more message. 1 = got one. */
static int pull_one(struct timeval *tmo)
{
	int b = tmo ? vlpvm_real_pvm_trecv(-1, -1, tmo) : vlpvm_real_pvm_recv(-1, -1);
	if (b > 0) {
		take(b);
		return 1;
	}
	return b;
}

struct pattern {
	int tid, tag, ctx;
	int internal;
};

static int match(const vli_msg *m, void *arg)
{
	const struct pattern *p = arg;

	if (m->internal != p->internal || m->ctx != p->ctx)
		return 0;
	if (!p->internal && user_match)
		return user_match(m->buf, p->tid, p->tag);
	return (p->tid == -1 || p->tid == m->src) && (p->tag == -1 || p->tag == m->tag);
}

static void set_pattern(struct pattern *p, int tid, int tag, int internal)
{
	p->tid = tid;
	p->tag = tag;
	p->ctx = vlpvm_real_pvm_getcontext();
	p->internal = internal;
}

/* Receive cost of a call whose pattern names tid (or a wildcard). */
static int64_t recv_cost(int src_host)
{
	return vli_recv_time(&vli_t.cfg, src_host >= 0 ? src_host : vli_t.host, vli_t.host);
}

/* Hand message i to the program: the clock waits for its arrival and pays the
 * receive delay; it becomes the active receive buffer.  Returns its id. */
static int deliver(int i, int64_t t0, int old_rbuf)
{
	vli_msg m;

	vli_mbox_remove(i, &m);
	if (m.synthetic)
		m.arrival = vli_t.now;
	if (m.internal)
		vli_wait_until(m.arrival);
	else
		vli_msg_received(m.src, m.src_host, m.tag, m.seq, m.bytes, t0, m.arrival,
				 m.synthetic ? VL_TF_SYNTH : 0, 0);
	if (old_rbuf > 0 && old_rbuf != m.buf)
		vlpvm_real_pvm_freebuf(old_rbuf);
	vlpvm_real_pvm_setrbuf(m.buf);
	return m.buf;
}

int vlpvm_vrecv(int tid, int tag, int internal)
{
	struct pattern p;
	int64_t t0 = vli_t.now;
	int old = vlpvm_real_pvm_setrbuf(0), i, cc;

	set_pattern(&p, tid, tag, internal);
	while ((i = vli_mbox_find(match, &p, INT64_MAX)) < 0) {
		cc = pull_one(NULL);
		if (cc < 0) {
			vlpvm_real_pvm_setrbuf(old);
			return cc;
		}
	}
	return deliver(i, t0, old);
}

/* A receive attempt that found nothing visible: costs the receive delay. */
static void no_message(int tid, int tag, int64_t t0, int64_t wait_to)
{
	vli_wait_until(wait_to);
	vli_comm(recv_cost(tid == -1 ? -1 : vlpvm_host_of(tid)));
	vli_trace_msg(VL_EV_PROBE, tid, tag, 0, 0, t0, vli_t.now, 0, 0, 0);
}

int vlpvm_recv(int tid, int tag)
{
	return vlpvm_vrecv(tid, tag, 0);
}

int vlpvm_nrecv(int tid, int tag)
{
	struct pattern p;
	int64_t t0 = vli_t.now;
	int old = vlpvm_real_pvm_setrbuf(0), i;

	pull_all();
	set_pattern(&p, tid, tag, 0);
	i = vli_mbox_find(match, &p, vli_t.now);
	if (i >= 0)
		return deliver(i, t0, old);
	vlpvm_real_pvm_setrbuf(old);
	no_message(tid, tag, t0, t0);
	return 0;
}

int vlpvm_probe(int tid, int tag)
{
	struct pattern p;
	int64_t t0 = vli_t.now;
	int old = vlpvm_real_pvm_setrbuf(0), i;
	vli_msg *m;

	pull_all();
	vlpvm_real_pvm_setrbuf(old);
	set_pattern(&p, tid, tag, 0);
	i = vli_mbox_find(match, &p, vli_t.now);
	vli_comm(recv_cost(tid == -1 ? -1 : vlpvm_host_of(tid)));
	if (i < 0) {
		vli_trace_msg(VL_EV_PROBE, tid, tag, 0, 0, t0, vli_t.now, 0, 0, 0);
		return 0;
	}
	m = vli_mbox_at(i);
	return m->buf;
}

int vlpvm_trecv(int tid, int tag, struct timeval *tmout)
{
	struct pattern p;
	int64_t t0 = vli_t.now, deadline, real_end, left;
	int old, i, cc;
	struct timeval tv;

	if (!tmout)
		return vlpvm_vrecv(tid, tag, 0);
	deadline = t0 + (int64_t)tmout->tv_sec * 1000000000 + (int64_t)tmout->tv_usec * 1000;
	/* really wait at most the timeout, and at least 100 ms, for messages in flight */
	left = deadline - t0;
	if (left < 100000000)
		left = 100000000;
	real_end = vli_mono_ns() + left;
	old = vlpvm_real_pvm_setrbuf(0);
	set_pattern(&p, tid, tag, 0);
	pull_all();
	while ((i = vli_mbox_find(match, &p, deadline)) < 0) {
		left = real_end - vli_mono_ns();
		if (left <= 0)
			break;
		tv.tv_sec = left / 1000000000;
		tv.tv_usec = (left % 1000000000) / 1000;
		cc = pull_one(&tv);
		if (cc < 0) {
			vlpvm_real_pvm_setrbuf(old);
			return cc;
		}
	}
	if (i >= 0)
		return deliver(i, t0, old);
	vlpvm_real_pvm_setrbuf(old);
	no_message(tid, tag, t0, deadline);
	return 0;
}

vlpvm_recvf_ret vlpvm_recvf(vlpvm_recvf_fn fn)
{
	vlpvm_recvf_fn old = user_match;
	user_match = fn;
	return (vlpvm_recvf_ret)(void *)old;
}

/* Bytes of one item of PVM data type type (PVM_STR ...), 1 if unknown. */
static int type_size(int type)
{
	static const int sz[] = { 1, 2, 4, 4, 8, 8, 16, 8, 2, 4, 8 };
	return (type >= 0 && type <= 10) ? sz[type] : 1;
}

int vlpvm_precv(int tid, int tag, void *buf, int len, int datatype, int *rtid, int *rtag, int *rlen)
{
	int b = vlpvm_vrecv(tid, tag, 0), bytes = 0, stag = 0, src = 0, n, cc;

	if (b < 0)
		return b;
	vlpvm_real_pvm_bufinfo(b, &bytes, &stag, &src);
	n = bytes / type_size(datatype);
	if (n > len)
		n = len;
	cc = vlpvm_pk_typed(buf, n, datatype, 1);
	if (rtid)
		*rtid = src;
	if (rtag)
		*rtag = stag;
	if (rlen)
		*rlen = n;
	return cc < 0 ? cc : 0;
}
