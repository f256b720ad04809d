/* recv.c - receiving in the PVM front end: real PVM -> the engine's virtual
 * mailbox.  Every message PVM has for this task is taken off its wrapper
 * (wire.c) into the mailbox with its virtual arrival time; a receive call
 * then picks the first matching message that has arrived by its virtual
 * deadline (pvm_recv: any time, pvm_nrecv/pvm_probe: now, pvm_trecv: now +
 * timeout), the clock waits for it and pays the receive delay, and it becomes
 * PVM's active receive buffer.  Messages without a header (pvmd, the group
 * server, untraced tasks) arrive at the receiver's current virtual time.
 * pvm_recvf's match function decides for the program's receives.  A wrapper
 * whose user message cannot be decoded stops the task with a message naming
 * the receiver, the source and the tag, instead of handing the program an
 * empty or garbled buffer.
 *
 * Under ordering = virtual (the engine's order.c) the choice is taken in
 * virtual time instead: a receive takes the matching message with the least
 * virtual arrival (ties: sender tid, then its sequence number; one sender's
 * messages keep their order) once no task can still send one that arrives
 * earlier; a poll (pvm_nrecv, pvm_probe, pvm_trecv's timeout) finds nothing
 * exactly when no matching message arrives by its virtual time.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

static vlpvm_recvf_fn user_match;
/* something outside the virtual world may send to this task (pvm_notify was
 * called, or a message without virtual time came): a wait is never taken
 * for a deadlock */
static int outside_senders;

/* Exit notices (pvm_notify(PvmTaskExit)): pvmd's message that task tid
 * ended, without virtual time.  Under virtual order it would count as there
 * at the receiver's clock and overtake what the ended task sent just before
 * (tablix2 took a kernel for dead before reading its result).  Natively it
 * comes after the task's messages, so it is given a virtual arrival: the
 * task's end time on the board, and after every message of that task in
 * the mailbox (time_notices). */
#define MAX_EXIT_TAGS 32
static int exit_tag[MAX_EXIT_TAGS], n_exit_tags;
static struct notice { int buf, tid; } *notice;
static int n_notices, cap_notices;

/* pvm_notify: pvmd will send this task messages of its own. */
int vlpvm_notify(int what, int msgtag, int cnt, int *tids)
{
	int i;

	outside_senders = 1;
	if ((what & 0xff) == PvmTaskExit && !(what & PvmNotifyCancel)) {
		for (i = 0; i < n_exit_tags && exit_tag[i] != msgtag; i++)
			;
		if (i == n_exit_tags && n_exit_tags < MAX_EXIT_TAGS)
			exit_tag[n_exit_tags++] = msgtag;
	}
	return vlpvm_real_pvm_notify(what, msgtag, cnt, tids);
}

/* If message b (info mi, not wrapped) is an exit notice: a copy of it that
 * the program can still unpack (the ended task's tid read out of it, which
 * is noted), b freed; otherwise b. */
static int note_exit_notice(int b, const struct pvmminfo *mi)
{
	struct pvmminfo nm;
	int i, x = 0, nb, os;

	if (!vli_order_on() || !(mi->src & (int)0x80000000u) || (mi->src & 0x3ffff))
		return b; /* not from a pvmd */
	for (i = 0; i < n_exit_tags && exit_tag[i] != mi->tag; i++)
		;
	if (i == n_exit_tags || vlpvm_real_pvm_upkint(&x, 1, 1) < 0)
		return b;
	if (n_notices == cap_notices) {
		int c = cap_notices ? 2 * cap_notices : 16;
		struct notice *n = realloc(notice, (size_t)c * sizeof *n);
		if (!n)
			return b; /* (untimed, as before) */
		notice = n;
		cap_notices = c;
	}
	nb = vlpvm_real_pvm_mkbuf(PvmDataDefault);
	os = vlpvm_real_pvm_setsbuf(nb);
	vlpvm_real_pvm_pkint(&x, 1, 1);
	vlpvm_real_pvm_setsbuf(os);
	vlpvm_real_pvm_getminfo(nb, &nm);
	nm.tag = mi->tag;
	nm.src = mi->src;
	nm.ctx = mi->ctx;
	nm.wid = 0;
	vlpvm_real_pvm_setminfo(nb, &nm);
	vlpvm_real_pvm_freebuf(b);
	notice[n_notices].buf = nb;
	notice[n_notices].tid = x;
	n_notices++;
	return nb;
}

/* Give the exit notices in the mailbox their virtual arrival: the ended
 * task's end time, and 1 ns after the latest of its messages there (all of
 * them are, once this task is not behind). */
static void time_notices(void)
{
	int k, i, n = vli_mbox_count();

	for (k = 0; k < n_notices; k++) {
		int64_t a = vli_order_clock_of(notice[k].tid);
		vli_msg *m = NULL;

		for (i = 0; i < n; i++) {
			vli_msg *q = vli_mbox_at(i);
			if (q->buf == notice[k].buf)
				m = q;
			else if (q->src == notice[k].tid && !q->synthetic && q->arrival >= a)
				a = q->arrival + 1;
		}
		if (m && a >= 0) {
			m->arrival = a;
			m->synthetic = 0;
		}
	}
}

/* A notice handed to the program is no longer one; 1 if buf was one. */
static int forget_notice(int buf)
{
	int k;

	for (k = 0; k < n_notices; k++)
		if (notice[k].buf == buf) {
			notice[k] = notice[--n_notices];
			return 1;
		}
	return 0;
}


/* A message this task cannot hand to the program as it was sent: the task
 * stops, naming it (the program would get garbage or nothing). */
static void undecodable(const struct pvmminfo *mi, const char *why)
{
	vli_error(2, "t%x cannot decode the message from t%x (tag %d, context %d): %s",
		  (unsigned)vli_t.id, (unsigned)mi->src, mi->tag, mi->ctx, why);
}

static void pull_all(void);
static int pull_one(struct timeval *tmo);

/* How a receive waits for its message's final arrival on shared links:
 * taking in what comes meanwhile. */
static void flow_sleep(vli_order_wait *w)
{
	struct timeval tv = { 0, 20000 };

	pull_all();
	if (vli_order_behind())
		pull_one(&tv);
	else
		vli_order_sleep(w, VLI_SLEEP_ROOT);
}

/* Take the message that is the active receive buffer into the mailbox. */
static void take(int b)
{
	struct pvmminfo mi;
	struct vlpvm_hdr h;
	vli_msg m;
	int len = 0, wrapped;
	const char *why;

	memset(&m, 0, sizeof m);
	vlpvm_real_pvm_getminfo(b, &mi);
	m.src = mi.src;
	m.tag = mi.tag;
	m.ctx = mi.ctx;
	m.src_host = -1;
	m.arrival = INT64_MIN;
	m.synthetic = 1;
	m.buf = b;
	if ((wrapped = vlpvm_unwrap_hdr(&mi, &h)) < 0)
		undecodable(&mi, "its vlayer header is damaged");
	if (wrapped) {
		if (h.mine) {
			m.seq = h.seq;
			m.arrival = h.arrival;
			m.synthetic = 0;
			/* maybe a flow on shared links: its arrival an estimate,
			 * whose final value a receive waits for (flow_sleep) */
			m.flow = h.src_host != vli_t.host && vli_flows_online();
			if (m.flow)
				vli_flow_set_sleeper(flow_sleep);
			if (h.announced)
				vli_order_received_in(vlpvm_class_of(m.ctx, vlpvm_base_ctx));
		}
		m.internal = h.internal;
		m.src_host = h.src_host;
		vli_reg_set(m.src, h.src_host);
		m.buf = vlpvm_unwrap_msg(&mi, &why);
		if (m.buf < 0)
			undecodable(&mi, why);
		vlpvm_real_pvm_setrbuf(0);
		vlpvm_real_pvm_freebuf(b);
	} else {
		m.buf = note_exit_notice(b, &mi);
		vlpvm_real_pvm_setrbuf(0);
		outside_senders = 1;
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

void vlpvm_take_in(void)
{
	pull_all();
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

/* Virtual order applies in every context: in the task's first one, and in
 * others (libgpvm3's reduce, gather, scatter and bcast receive the members'
 * data in the group context; a program's pvm_newcontext), whose messages
 * the board counts apart (the side class, order.c): a task waiting in its
 * first context is never held behind by a message it can only take in
 * another.  Only a receive in another context that names a task outside the
 * virtual world (libgpvm3's exchanges with the group server) takes what
 * comes, in real order (other_context_recv). */
static int side_ctx(const struct pattern *p)
{
	return vlpvm_class_of(p->ctx, vlpvm_base_ctx);
}

static int vorder(const struct pattern *p)
{
	if (!vli_order_on())
		return 0;
	return !side_ctx(p) || p->tid == -1 || vlpvm_host_of(p->tid) != VLPVM_HOST_RAW;
}

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
	int untimed;

	vli_mbox_remove(i, &m);
	/* an exit notice waits for its arrival, but no task sent it */
	untimed = m.synthetic || (n_notices && forget_notice(m.buf));
	if (m.synthetic)
		m.arrival = vli_t.now;
	if (m.internal)
		vli_wait_until(m.arrival);
	else
		vli_msg_received(m.src, m.src_host, m.tag, m.seq, m.bytes, t0, m.arrival,
				 untimed ? VL_TF_SYNTH : 0, 0);
	if (old_rbuf > 0 && old_rbuf != m.buf)
		vlpvm_real_pvm_freebuf(old_rbuf);
	vlpvm_real_pvm_setrbuf(m.buf);
	return m.buf;
}

/* ---- virtual order ---- */

/* Take in what has really arrived, and wait for real for the messages that
 * were announced to this task (in the class side: a receive can take only
 * messages of its own context) but are still on their way.  0 or a PVM
 * error. */
static int catch_up(int side)
{
	struct timeval tv;
	int64_t since = 0;
	int cc;

	pull_all();
	while (vli_order_behind_in(side)) {
		tv.tv_sec = 0;
		tv.tv_usec = 20000;
		cc = pull_one(&tv);
		if (cc < 0)
			return cc;
		if (!since)
			since = vli_mono_ns();
		else if (vli_mono_ns() - since > 10000000000LL) {
			vli_warn("messages announced to this task have not arrived for 10 s");
			since = vli_mono_ns();
		}
	}
	return 0;
}

/* The messages whose arrival is an estimate (flows on shared links) take
 * their latest (final, or estimated) arrival. */
static void refresh_flows(void)
{
	int i, n = vli_mbox_count(), r;
	int64_t a;

	for (i = 0; i < n; i++) {
		vli_msg *m = vli_mbox_at(i);

		if (!m->flow)
			continue;
		r = vli_flow_arrival(m->src, m->seq, &a);
		if (r)
			m->arrival = a;
		m->flow = r == 2;
	}
}

/* The message the pattern takes first and the virtual time tau by which it
 * is there (vli_mbox_first / vli_mbox_ranked); -1 if none. */
static int vfind(struct pattern *p, int64_t *tau)
{
	refresh_flows();
	if (!p->internal && user_match)
		return vli_mbox_ranked(match, p, vli_t.now, tau);
	return vli_mbox_first(match, p, vli_t.now, tau);
}

enum { V_RECV, V_POLL, V_UNTIL };

/* The message a receive takes in virtual order: mode V_RECV waits for one,
 * V_POLL takes only one there by the caller's clock, V_UNTIL one there by
 * deadline.  Returns its mailbox index, -1 if there is none by then, or a
 * PVM error (< -1 is not used by the mailbox: PVM errors are < 0, returned
 * in *err). */
static int vpick(struct pattern *p, int mode, int64_t deadline, const char *call, int *err)
{
	vli_order_wait w;
	int waiting = 0, i, how, sleep_how, choice, side = side_ctx(p), skip;
	int64_t tau = 0, lb, limit = mode == V_RECV ? VLI_ORDER_NONE
				  : mode == V_POLL ? vli_t.now : deadline;
	uint32_t epoch;

	*err = 0;
	/* one sender, one order: a receive from a given task has no choice */
	choice = p->internal || user_match || p->tid == -1 || mode != V_RECV;
	for (;;) {
		if (waiting)
			vli_order_snap(&w);
		if (!choice && (i = vfind(p, &tau)) >= 0)
			break; /* already here: nothing else to take in first */
		if ((*err = catch_up(side)) < 0) {
			i = -1;
			break;
		}
		if (n_notices)
			time_notices();
		epoch = vli_flow_epoch();
		i = vfind(p, &tau);
		if (i >= 0 && !choice)
			break;
		if (i >= 0 && tau > limit)
			i = -1;
		/* estimated arrivals compared: only while none changed; the
		 * candidate's sender sends nothing that is taken before it (its
		 * messages keep their order; a pvm_recvf function may not) */
		skip = i >= 0 && (p->internal || !user_match) && !vli_mbox_at(i)->synthetic
			       ? vli_mbox_at(i)->src : -1;
		if (vli_order_safe_in_but(i >= 0 ? tau : limit, side, skip) &&
		    vli_flow_epoch() == epoch)
			break;
		if (!waiting) {
			vli_order_wait_begin(&w, "%s(tid=t%x, tag=%d)", call, (unsigned)p->tid, p->tag);
			vli_order_snap(&w);
			waiting = 1;
		}
		how = mode == V_POLL ? VLI_WAIT_POLL : outside_senders ? VLI_WAIT_EXTERN : VLI_WAIT_MSG;
		how |= VLI_WAIT_CLASS(side);
		lb = i >= 0 ? tau : limit;
		vli_order_block(lb, how);
		if (i < 0 && limit == VLI_ORDER_NONE) {
			/* only a new message can help: wait for one for real */
			struct timeval tv = { 0, 50000 };
			int cc = pull_one(&tv);
			if (cc < 0) {
				*err = cc;
				break;
			}
			sleep_how = cc > 0 ? 0 : VLI_SLEEP_CHECK;
		} else {
			if (vli_order_safe_in_but(lb, side, skip))
				continue;
			sleep_how = VLI_SLEEP_ROOT;
		}
		if (sleep_how)
			vli_order_sleep(&w, sleep_how);
	}
	if (waiting)
		vli_order_wait_end(&w);
	return *err < 0 ? -1 : i;
}

/* A receive in another context than the task's first that names a task
 * outside the virtual world (libgpvm3's exchanges with the group server)
 * takes what comes, in real order, but under virtual order it says that it
 * waits, keeping its clock as its bound (the server's answer is untimed: it
 * arrives at the task's clock), counted in the side class.  Returns the
 * mailbox index of the message; *err a PVM error (< 0) or 0. */
static int other_context_recv(struct pattern *p, int *err)
{
	vli_order_wait w;
	struct timeval tv;
	int i, waiting = 0, cc;

	*err = 0;
	while ((i = vli_mbox_find(match, p, INT64_MAX)) < 0) {
		if (!waiting) {
			vli_order_wait_begin(&w, "a receive in context %d (tid=t%x, tag=%d)", p->ctx,
					     (unsigned)p->tid, p->tag);
			waiting = 1;
		}
		vli_order_snap(&w);
		vli_order_block(vli_t.now, VLI_WAIT_EXTERN | VLI_WAIT_CLASS(side_ctx(p)));
		tv.tv_sec = 0;
		tv.tv_usec = 50000;
		cc = pull_one(&tv);
		if (cc < 0) {
			*err = cc;
			break;
		}
		if (cc == 0)
			vli_order_sleep(&w, VLI_SLEEP_CHECK);
	}
	if (waiting)
		vli_order_wait_end(&w);
	return i;
}

int vlpvm_vrecv(int tid, int tag, int internal)
{
	struct pattern p;
	int64_t t0 = vli_t.now;
	int old = vlpvm_real_pvm_setrbuf(0), i, cc;

	set_pattern(&p, tid, tag, internal);
	if (vorder(&p)) {
		i = vpick(&p, V_RECV, 0, internal ? "(layer)" : "pvm_recv", &cc);
		if (cc < 0) {
			vlpvm_real_pvm_setrbuf(old);
			return cc;
		}
		return deliver(i, t0, old);
	}
	if (!vli_order_on()) {
		while ((i = vli_mbox_find(match, &p, INT64_MAX)) < 0) {
			cc = pull_one(NULL);
			if (cc < 0) {
				vlpvm_real_pvm_setrbuf(old);
				return cc;
			}
		}
		return deliver(i, t0, old);
	}
	i = other_context_recv(&p, &cc);
	if (cc < 0) {
		vlpvm_real_pvm_setrbuf(old);
		return cc;
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

	set_pattern(&p, tid, tag, 0);
	if (vorder(&p)) {
		int cc;
		i = vpick(&p, V_POLL, 0, "pvm_nrecv", &cc);
		if (cc < 0) {
			vlpvm_real_pvm_setrbuf(old);
			return cc;
		}
	} else {
		pull_all();
		i = vli_mbox_find(match, &p, vli_t.now);
	}
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

	set_pattern(&p, tid, tag, 0);
	if (vorder(&p)) {
		int cc;
		i = vpick(&p, V_POLL, 0, "pvm_probe", &cc);
		vlpvm_real_pvm_setrbuf(old);
		if (cc < 0)
			return cc;
	} else {
		pull_all();
		vlpvm_real_pvm_setrbuf(old);
		i = vli_mbox_find(match, &p, vli_t.now);
	}
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
	if (vorder(&p)) {
		i = vpick(&p, V_UNTIL, deadline, "pvm_trecv", &cc);
		if (cc < 0) {
			vlpvm_real_pvm_setrbuf(old);
			return cc;
		}
	} else {
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

/* As libpvm's pvm_precv: up to len items' bytes of the message into buf;
 * *rlen gets the message's length in bytes; the receive buffer is kept. */
int vlpvm_precv(int tid, int tag, void *buf, int len, int datatype, int *rtid, int *rtag, int *rlen)
{
	int size = vlpvm_type_size(datatype), rbf, b, bytes = 0, stag = 0, src = 0;

	if (size == 0) /* refused, with libpvm's own message, before anything is received */
		return vlpvm_real_pvm_precv(tid, tag, buf, len, datatype, rtid, rtag, rlen);
	len *= size;
	rbf = vlpvm_real_pvm_setrbuf(0);
	b = vlpvm_vrecv(tid, tag, 0);
	if (b > 0) {
		vlpvm_real_pvm_bufinfo(b, &bytes, &stag, &src);
		if (rlen)
			*rlen = bytes;
		if (bytes < len)
			len = bytes;
		if (rtag)
			*rtag = stag;
		if (rtid)
			*rtid = src;
		vlpvm_real_pvm_upkbyte(buf, len, 1);
		vlpvm_real_pvm_freebuf(b);
		b = 0;
	}
	vlpvm_real_pvm_setrbuf(rbf);
	return b;
}
