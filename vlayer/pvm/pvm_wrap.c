/* pvm_wrap.c - the PVM front end: translates PVM calls into engine operations.
 *
 * A message from a virtualised task travels as a wrapper message (encoding
 * PvmDataDefault, minfo wid = VL_WID) holding a small header with the
 * virtual times and the user's message packed whole with pvm_pkmesg.  The
 * receiver unpacks it with pvm_upkmesg, gives the inner buffer the outer
 * tag/source/context, and hands the program exactly the buffer it sent.
 * Messages without the marker (pvmd, the group server, untraced tasks) are
 * delivered as they are, at the receiver's current virtual time.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "pvm_wrap.h"

#define VL_WID 0x564c          /* marks a wrapper message (minfo wait id) */
#define VL_MAGIC 0x564c4159
#define VL_HDR_INTERNAL 1      /* the layer's own message (barrier time exchange) */
#define VL_TAG_BARRIER 0x7f564c01
#define HOST_RAW (-2)          /* registry: a task that is not virtualised (pvmgs) */
#define HOST_UNKNOWN (-3)      /* registry: virtualised, virtual host not known */
#define MAX_MCAST 4096

int vl_pvm_layer_present = 1;
static vlpvm_recvf_fn user_match;
static uint32_t spawn_count;

/* The real function: the next definition after this library (libpvm3 or
 * libgpvm3 linked to the program), else from the PVM libraries themselves
 * (a program run with LD_PRELOAD need not be linked to libgpvm3). */
void *vlpvm_sym(const char *name)
{
	static void *lib[2];
	static const char *const libname[2] = { "libpvm3.so.3", "libgpvm3.so.3" };
	void *p = dlsym(RTLD_NEXT, name);
	int i;

	for (i = 0; !p && i < 2; i++) {
		if (!lib[i])
			lib[i] = dlopen(libname[i], RTLD_NOW | RTLD_GLOBAL);
		if (lib[i])
			p = dlsym(lib[i], name);
	}
	if (!p)
		vli_error(3, "cannot find %s in the PVM libraries (link -lgpvm3 -lpvm3 after -lvlayer-pvm)",
			 name);
	return p;
}

/* At program start, before main: find the PVM functions and load the
 * VMConfig, so that a bad file stops the program before it does anything. */
__attribute__((constructor)) static void vlpvm_ctor(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	const char *base;

	vlpvm_resolve();
	exe[n > 0 ? n : 0] = 0;
	base = strrchr(exe, '/');
	base = base ? base + 1 : exe;
	if (!strcmp(base, "pvmgs") || !strcmp(base, "pvmd") || !strcmp(base, "pvmd3")) {
		vli_depth = 1; /* PVM's own programs (LD_PRELOAD inherited): pass through */
		return;
	}
	vli_load_config(&vli_t.cfg);
}

/* ---- start-up ---- */

static void export_var(const char *name)
{
	const char *old = getenv("PVM_EXPORT");
	char buf[2048];
	const char *p;
	size_t n = strlen(name);

	for (p = old; p && *p; p += strcspn(p, ":"), p += (*p == ':')) {
		if (!strncmp(p, name, n) && (p[n] == ':' || p[n] == 0))
			return;
	}
	snprintf(buf, sizeof buf, "%s%s%s", old && *old ? old : "", old && *old ? ":" : "", name);
	setenv("PVM_EXPORT", buf, 1);
}

static void make_absolute(const char *var)
{
	const char *v = getenv(var);
	char abs[PATH_MAX + 2], cwd[PATH_MAX];

	if (!v || !*v || v[0] == '/' || !getcwd(cwd, sizeof cwd))
		return;
	snprintf(abs, sizeof abs, "%.*s/%.*s", (int)(PATH_MAX / 2), cwd, (int)(PATH_MAX / 2), v);
	setenv(var, abs, 1);
}

/* Remove the traces of an earlier run (vl-*.trc) from the trace directory. */
static void clean_trace_dir(const char *dir)
{
	char path[VLCFG_PATH_MAX + 300];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > 7 && !strncmp(e->d_name, "vl-", 3) && !strcmp(e->d_name + n - 4, ".trc")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

/* This task's place in its spawn call: VLAYER_SPAWN = "H:START,H:START,...". */
static int spawn_slot(int me, int *host, int64_t *start)
{
	const char *s = getenv("VLAYER_SPAWN");
	int *sib = NULL, n, i, idx = -1;

	if (!s || !*s)
		return -1;
	n = vlpvm_real_pvm_siblings(&sib);
	for (i = 0; i < n; i++)
		if (sib[i] == me)
			idx = i;
	if (idx < 0)
		return -1;
	for (i = 0; i < idx && s; i++) {
		s = strchr(s, ',');
		if (s)
			s++;
	}
	if (!s || sscanf(s, "%d:%lld", host, (long long *)start) != 2)
		return -1;
	/* every sibling's virtual host is in the list too */
	s = getenv("VLAYER_SPAWN");
	for (i = 0; i < n && s; i++) {
		int h;
		if (sscanf(s, "%d:", &h) == 1)
			vli_reg_set(sib[i], h);
		s = strchr(s, ',');
		if (s)
			s++;
	}
	return 0;
}

/* Publish this task's virtual host in PVM's mailbox, for tasks that learn
 * our tid some other way (a message, a group). */
static void publish_host(int me, int host)
{
	char name[32];
	int b = vlpvm_real_pvm_mkbuf(PvmDataDefault), old = vlpvm_real_pvm_setsbuf(b);

	snprintf(name, sizeof name, "vlayer.%x", (unsigned)me);
	vlpvm_real_pvm_pkint(&host, 1, 1);
	vlpvm_real_pvm_setsbuf(old);
	vlpvm_real_pvm_putinfo(name, b, PvmMboxDefault);
	vlpvm_real_pvm_freebuf(b);
}

static int lookup_host(int tid)
{
	char name[32];
	int old = vlpvm_real_pvm_setrbuf(0), b, h = -1;

	snprintf(name, sizeof name, "vlayer.%x", (unsigned)tid);
	b = vlpvm_real_pvm_recvinfo(name, 0, PvmMboxDefault);
	if (b > 0) {
		if (vlpvm_real_pvm_upkint(&h, 1, 1) < 0)
			h = -1;
		vlpvm_real_pvm_freebuf(b);
	}
	vlpvm_real_pvm_setrbuf(old);
	return h;
}

static char progname[256];

static void read_progname(void)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	if (f) {
		size_t n = fread(progname, 1, sizeof progname - 1, f);
		progname[n] = 0;
		fclose(f);
	}
}

static void init_task(void)
{
	int me, ptid, host = 0, phost;
	int64_t start = 0;
	const char *dir, *ph;

	me = vlpvm_real_pvm_mytid();
	if (me < 0)
		return;
	ptid = vlpvm_real_pvm_parent();
	read_progname();
	if (ptid < 0 || spawn_slot(me, &host, &start) < 0) {
		/* the first task of a run: place it on the first host, start at 0 */
		ptid = ptid < 0 ? -1 : ptid;
		host = 0;
		start = 0;
		make_absolute("VMCONFIG");
		if (!getenv("VLAYER_EPOCH") || ptid < 0) {
			char ep[32];
			snprintf(ep, sizeof ep, "%lld", (long long)(vli_real_ns() / 1000000000 * 1000000000));
			setenv("VLAYER_EPOCH", ep, 1);
		}
		if (!getenv("VLAYER_TRACE_DIR")) {
			setenv("VLAYER_TRACE_DIR",
			       vli_t.cfg.trace_dir[0] ? vli_t.cfg.trace_dir : "vltrace", 1);
		}
		make_absolute("VLAYER_TRACE_DIR");
		if (ptid < 0)
			clean_trace_dir(getenv("VLAYER_TRACE_DIR"));
	}
	if (host < 0 || host >= vli_t.cfg.nhosts)
		host = 0;
	ph = getenv("VLAYER_PHOST");
	phost = ph ? atoi(ph) : -1;
	if (ptid >= 0 && phost >= 0)
		vli_reg_set(ptid, phost);
	vli_reg_set(me, host);
	vli_t.proc = 0;
	{
		int h, p = 0;
		for (h = 0; h < host; h++)
			p += vli_t.cfg.hosts[h].procs;
		vli_t.proc = p;
	}
	dir = getenv("VLAYER_TRACE_DIR");
	(void)dir;
	vli_init(me, ptid, host, start, progname);
	publish_host(me, host);
	export_var("VLAYER_SPAWN");
	export_var("VLAYER_TRACE_DIR");
	export_var("VLAYER_PHOST");
	export_var("VLAYER_EPOCH");
	if (getenv("VMCONFIG"))
		export_var("VMCONFIG");
	if (getenv("LD_PRELOAD"))
		export_var("LD_PRELOAD");
}

void vlpvm_enter(void)
{
	if (!vli_t.ready && !vli_t.ended) {
		vli_depth++;
		init_task();
		vli_depth--;
	}
	vli_enter();
}

void vlpvm_leave(void)
{
	vli_leave();
}

/* ---- who is who ---- */

/* Virtual host of task tid (-1 unknown, HOST_RAW if not virtualised). */
static int is_group_server(const char *a_out)
{
	const char *a = strrchr(a_out, '/');
	return !strcmp(a ? a + 1 : a_out, "pvmgs");
}

/* Virtual host of tid from what is known without asking pvmd for the task
 * list: the registry, then PVM's mailbox.  Returns -2 (HOST_RAW), -1 (known to
 * be unknown), a host index, or -4 if pvmd's task list must decide. */
static int host_known(int tid)
{
	int h = vli_reg_get(tid);

	if (h == HOST_UNKNOWN)
		return -1;
	if (h != -1)
		return h;
	if (tid & 0x80000000)
		return HOST_RAW; /* a pvmd */
	h = lookup_host(tid);
	if (h >= 0 && h < vli_t.cfg.nhosts) {
		vli_reg_set(tid, h);
		return h;
	}
	return -4;
}

/* Remember what pvmd's task list says of a task with no published host. */
static int host_from_taskinfo(int tid, const char *a_out)
{
	int h = is_group_server(a_out) ? HOST_RAW : HOST_UNKNOWN;

	vli_reg_set(tid, h); /* ask pvmd once only */
	return h == HOST_RAW ? HOST_RAW : -1;
}

/* Virtual host of task tid (-1 unknown, HOST_RAW if not virtualised). */
static int host_of(int tid)
{
	int h = host_known(tid), n = 0;
	struct pvmtaskinfo *ti;

	if (h != -4)
		return h;
	if (vlpvm_real_pvm_tasks(tid, &n, &ti) >= 0 && n == 1)
		return host_from_taskinfo(tid, ti[0].ti_a_out);
	vli_reg_set(tid, HOST_UNKNOWN);
	return -1;
}

/* ---- sending ---- */

struct dest {
	int tid;
	uint32_t seq;
	int64_t t0, t1, arrival;
};

static void pk64(int64_t v)
{
	int w[2] = { (int)(uint32_t)((uint64_t)v >> 32), (int)(uint32_t)v };
	vlpvm_real_pvm_pkint(w, 2, 1);
}

static int64_t upk64(void)
{
	int w[2] = { 0, 0 };
	vlpvm_real_pvm_upkint(w, 2, 1);
	return (int64_t)(((uint64_t)(uint32_t)w[0] << 32) | (uint32_t)w[1]);
}

/* Build the wrapper around buffer ubuf for the n destinations and make it the
 * send buffer.  Returns the wrapper's id, the user's buffer stays intact. */
static int wrap(int ubuf, const struct dest *d, int n, int flags)
{
	int w = vlpvm_real_pvm_mkbuf(PvmDataDefault), hdr[4], i;
	struct pvmminfo mi;

	vlpvm_real_pvm_setsbuf(w);
	hdr[0] = VL_MAGIC;
	hdr[1] = flags;
	hdr[2] = vli_t.host;
	hdr[3] = n;
	vlpvm_real_pvm_pkint(hdr, 4, 1);
	for (i = 0; i < n; i++) {
		int v[2] = { d[i].tid, (int)d[i].seq };
		vlpvm_real_pvm_pkint(v, 2, 1);
		pk64(d[i].arrival);
	}
	if (ubuf > 0)
		vlpvm_real_pvm_pkmesg(ubuf);
	vlpvm_real_pvm_getminfo(w, &mi);
	mi.wid = VL_WID;
	vlpvm_real_pvm_setminfo(w, &mi);
	return w;
}

static int64_t sbuf_bytes(int ubuf)
{
	int len = 0;
	if (ubuf > 0)
		vlpvm_real_pvm_bufinfo(ubuf, &len, NULL, NULL);
	return len;
}

/* Time the sends to tids[0..n) (a multicast if n > 1) and fill d. */
static void time_sends(const int *tids, int n, int tag, int64_t bytes, struct dest *d)
{
	double f = 1.0;
	int i;

	if (n > 1) {
		int h0 = host_of(tids[0]);
		f = vli_contention(vli_link(&vli_t.cfg, vli_t.host, h0), n);
	}
	for (i = 0; i < n; i++) {
		int h = host_of(tids[i]);
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
	}
}

/* Send the current send buffer to n tasks, virtualised. */
static int vsend(const int *tids, int n, int tag, int flags)
{
	struct dest dst[64], *d = dst;
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
		if (host_of(tids[i]) == HOST_RAW)
			rt[nr++] = tids[i];
		else
			vt[nv++] = tids[i];
	}
	cc = 0;
	if (nr > 0)
		cc = nr == 1 ? vlpvm_real_pvm_send(rt[0], tag) : vlpvm_real_pvm_mcast(rt, nr, tag);
	if (nv > 0 && cc >= 0) {
		time_sends(vt, nv, tag, bytes, d);
		w = wrap(ubuf, d, nv, flags);
		cc = nv == 1 ? vlpvm_real_pvm_send(vt[0], tag) : vlpvm_real_pvm_mcast(vt, nv, tag);
		vlpvm_real_pvm_setsbuf(ubuf);
		vlpvm_real_pvm_freebuf(w);
	}
	free(vt);
	if (d != dst)
		free(d);
	return cc < 0 ? cc : 0;
}

/* ---- receiving: real PVM -> virtual mailbox ---- */

/* Take the message that is the active receive buffer into the mailbox. */
static void take(int b)
{
	struct pvmminfo mi;
	vli_msg m;
	int hdr[4] = { 0, 0, 0, 0 }, i, len = 0;

	memset(&m, 0, sizeof m);
	vlpvm_real_pvm_getminfo(b, &mi);
	m.src = mi.src;
	m.tag = mi.tag;
	m.ctx = mi.ctx;
	m.src_host = -1;
	m.arrival = INT64_MIN;
	m.synthetic = 1;
	m.buf = b;
	if (mi.wid == VL_WID && vlpvm_real_pvm_upkint(hdr, 4, 1) >= 0 && hdr[0] == VL_MAGIC) {
		for (i = 0; i < hdr[3]; i++) {
			int v[2];
			int64_t arr;
			vlpvm_real_pvm_upkint(v, 2, 1);
			arr = upk64();
			if (v[0] == vli_t.id) {
				m.seq = (uint32_t)v[1];
				m.arrival = arr;
				m.synthetic = 0;
			}
		}
		m.internal = hdr[1] & VL_HDR_INTERNAL;
		m.src_host = hdr[2];
		vli_reg_set(m.src, hdr[2]);
		m.buf = vlpvm_real_pvm_upkmesg();
		if (m.buf > 0) {
			struct pvmminfo im;
			vlpvm_real_pvm_getminfo(m.buf, &im);
			im.tag = mi.tag;
			im.src = mi.src;
			im.ctx = mi.ctx;
			im.wid = 0;
			vlpvm_real_pvm_setminfo(m.buf, &im);
		} else {
			m.buf = vlpvm_real_pvm_mkbuf(PvmDataDefault); /* empty user message */
		}
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

static int vrecv(int tid, int tag, int internal)
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
	vli_comm(recv_cost(tid == -1 ? -1 : host_of(tid)));
	vli_trace_msg(VL_EV_PROBE, tid, tag, 0, 0, t0, vli_t.now, 0, 0, 0);
}

int vlpvm_recv(int tid, int tag)
{
	return vrecv(tid, tag, 0);
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
	vli_comm(recv_cost(tid == -1 ? -1 : host_of(tid)));
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
		return vrecv(tid, tag, 0);
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

int vlpvm_send(int tid, int tag)
{
	return vsend(&tid, 1, tag, 0);
}

int vlpvm_mcast(int *tids, int ntask, int tag)
{
	int v[MAX_MCAST], n = 0, i;
	if (ntask > MAX_MCAST)
		return vlpvm_real_pvm_mcast(tids, ntask, tag);
	for (i = 0; i < ntask; i++)
		if (tids[i] != vli_t.id)
			v[n++] = tids[i]; /* PVM's mcast never sends to the caller */
	if (n == 0)
		return 0;
	return vsend(v, n, tag, 0);
}

/* pack/unpack len items of a PVM data type */
static int pk_typed(void *buf, int len, int type, int unpack)
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

static int type_size(int type)
{
	static const int sz[] = { 1, 2, 4, 4, 8, 8, 16, 8, 2, 4, 8 };
	return (type >= 0 && type <= 10) ? sz[type] : 1;
}

int vlpvm_psend(int tid, int tag, void *buf, int len, int datatype)
{
	int b = vlpvm_real_pvm_mkbuf(PvmDataRaw), old = vlpvm_real_pvm_setsbuf(b), cc;

	cc = pk_typed(buf, len, datatype, 0);
	if (cc >= 0)
		cc = vsend(&tid, 1, tag, 0);
	vlpvm_real_pvm_setsbuf(old);
	vlpvm_real_pvm_freebuf(b);
	return cc;
}

int vlpvm_precv(int tid, int tag, void *buf, int len, int datatype, int *rtid, int *rtag, int *rlen)
{
	int b = vrecv(tid, tag, 0), bytes = 0, stag = 0, src = 0, n, cc;

	if (b < 0)
		return b;
	vlpvm_real_pvm_bufinfo(b, &bytes, &stag, &src);
	n = bytes / type_size(datatype);
	if (n > len)
		n = len;
	cc = pk_typed(buf, n, datatype, 1);
	if (rtid)
		*rtid = src;
	if (rtag)
		*rtag = stag;
	if (rlen)
		*rlen = n;
	return cc < 0 ? cc : 0;
}

/* ---- tasks ---- */

static int pick_host(int k)
{
	const vlcfg_config *c = &vli_t.cfg;
	int total = 0, h, slot;

	if (c->placement == VLCFG_PLACE_ROUNDROBIN)
		return (vli_t.host + k) % c->nhosts;
	for (h = 0; h < c->nhosts; h++)
		total += c->hosts[h].procs;
	slot = (vli_t.proc + k) % total;
	for (h = 0; h < c->nhosts; h++) {
		if (slot < c->hosts[h].procs)
			return h;
		slot -= c->hosts[h].procs;
	}
	return 0;
}

int vlpvm_spawn(char *task, char **argv, int flag, char *where, int ntask, int *tids)
{
	const char *base = task ? strrchr(task, '/') : NULL;
	int vh = -1, *hosts, i, cc;
	int64_t t0 = vli_t.now, delay = 0;
	char *env, *rwhere = where, num[32];
	size_t envlen;

	base = base ? base + 1 : task;
	if (!task || ntask < 1 || !strcmp(base, "pvmgs")) {
		cc = vlpvm_real_pvm_spawn(task, argv, flag, where, ntask, tids);
		for (i = 0; i < cc; i++)
			vli_reg_set(tids[i], HOST_RAW);
		return cc;
	}
	if ((flag & PvmTaskHost) && where)
		vh = vlcfg_host_index(&vli_t.cfg, where);
	if (vh >= 0) {
		rwhere = vli_t.cfg.hosts[vh].real[0] ? vli_t.cfg.hosts[vh].real : NULL;
		if (!rwhere)
			flag &= ~PvmTaskHost;
	}
	hosts = malloc((size_t)ntask * sizeof *hosts);
	envlen = (size_t)ntask * 48 + 16;
	env = malloc(envlen);
	if (!hosts || !env) {
		free(hosts);
		free(env);
		return PvmNoMem;
	}
	env[0] = 0;
	for (i = 0; i < ntask; i++) {
		hosts[i] = vh >= 0 ? vh : pick_host((int)++spawn_count);
		if (vli_init_delay(&vli_t.cfg, hosts[i]) > delay)
			delay = vli_init_delay(&vli_t.cfg, hosts[i]);
		snprintf(env + strlen(env), envlen - strlen(env), "%s%d:%lld", i ? "," : "", hosts[i],
			 (long long)(t0 + vli_init_delay(&vli_t.cfg, hosts[i])));
	}
	setenv("VLAYER_SPAWN", env, 1);
	snprintf(num, sizeof num, "%d", vli_t.host);
	setenv("VLAYER_PHOST", num, 1);
	cc = vlpvm_real_pvm_spawn(task, argv, flag, rwhere, ntask, tids);
	vli_comm(delay);
	for (i = 0; i < ntask && i < (cc > 0 ? ntask : 0); i++) {
		if (tids[i] < 0)
			continue;
		vli_reg_set(tids[i], hosts[i]);
		/* the call's interval goes to the first record; the others are
		 * instants at its end, so the records of a task stay sequential */
		vli_trace_msg(VL_EV_SPAWN, tids[i], hosts[i], 0, 0, i ? vli_t.now : t0, vli_t.now,
			      t0 + vli_init_delay(&vli_t.cfg, hosts[i]), 0, 0);
	}
	free(hosts);
	free(env);
	return cc;
}

int vlpvm_mytid(void)
{
	return vlpvm_real_pvm_mytid();
}

int vlpvm_exit(void)
{
	vli_finish();
	return vlpvm_real_pvm_exit();
}

int vlpvm_kill(int tid)
{
	vli_comm(vli_send_time(&vli_t.cfg, vli_t.host, host_of(tid), 0));
	return vlpvm_real_pvm_kill(tid);
}

/* Virtual hosts appear with made-up pvmd ids: host field = index + 1. */
static int vhost_tid(int h)
{
	return (int)(0x80000000u | ((unsigned)(h + 1) << 18));
}

int vlpvm_config(int *nhost, int *narch, struct pvmhostinfo **hostp)
{
	static struct pvmhostinfo *hi;
	static int nhi;
	struct pvmhostinfo *real;
	int rn = 0, ra = 0, cc, h;

	cc = vlpvm_real_pvm_config(&rn, &ra, &real);
	if (cc < 0)
		return cc;
	if (nhi != vli_t.cfg.nhosts) {
		free(hi);
		hi = calloc((size_t)vli_t.cfg.nhosts, sizeof *hi);
		nhi = hi ? vli_t.cfg.nhosts : 0;
	}
	for (h = 0; h < nhi; h++) {
		const vlcfg_host *vh = &vli_t.cfg.hosts[h];
		hi[h].hi_tid = vhost_tid(h);
		hi[h].hi_name = (char *)vh->name;
		hi[h].hi_arch = rn > 0 ? real[0].hi_arch : (char *)"VIRTUAL";
		hi[h].hi_speed = vh->factor > 0 ? (int)(1000.0 / vh->factor + 0.5) : 1000;
		hi[h].hi_dsig = rn > 0 ? real[0].hi_dsig : 0;
	}
	if (nhost)
		*nhost = nhi;
	if (narch)
		*narch = 1;
	if (hostp)
		*hostp = hi;
	return 0;
}

int vlpvm_tidtohost(int tid)
{
	int h = host_of(tid);
	return h >= 0 ? vhost_tid(h) : vlpvm_real_pvm_tidtohost(tid);
}

int vlpvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	int cc, i, n = 0, h;
	struct pvmtaskinfo *ti = NULL;

	if (where & 0x80000000 && ((where >> 18) & 0xfff) >= 1 &&
	    ((where >> 18) & 0xfff) <= (unsigned)vli_t.cfg.nhosts && (where & 0x3ffff) == 0)
		where = 0; /* a virtual host: list all, filtered below */
	cc = vlpvm_real_pvm_tasks(where, &n, &ti);
	if (cc < 0)
		return cc;
	for (i = 0; i < n; i++) {
		/* not host_of(): asking pvmd again would free the list being read */
		h = host_known(ti[i].ti_tid);
		if (h == -4)
			h = host_from_taskinfo(ti[i].ti_tid, ti[i].ti_a_out);
		if (h >= 0)
			ti[i].ti_host = vhost_tid(h);
	}
	if (ntask)
		*ntask = n;
	if (taskp)
		*taskp = ti;
	return cc;
}

/* ---- groups ---- */

static int group_tids(const char *group, int count, int *tids, int max)
{
	int n = 0, inst, t, misses = 0;

	for (inst = 0; n < count && n < max && misses < 64; inst++) {
		t = vlpvm_real_pvm_gettid((char *)group, inst);
		if (t > 0) {
			tids[n++] = t;
			misses = 0;
		} else {
			misses++;
		}
	}
	return n;
}

/* The layer's own message carrying times t[0..nt) to tids[0..n). */
static void send_times_internal(const int *tids, int n, const int64_t *t, int nt)
{
	int b = vlpvm_real_pvm_mkbuf(PvmDataDefault), w, i;

	vlpvm_real_pvm_setsbuf(b);
	for (i = 0; i < nt; i++)
		pk64(t[i]);
	w = wrap(b, NULL, 0, VL_HDR_INTERNAL);
	if (n == 1)
		vlpvm_real_pvm_send(tids[0], VL_TAG_BARRIER);
	else
		vlpvm_real_pvm_mcast((int *)tids, n, VL_TAG_BARRIER);
	vlpvm_real_pvm_freebuf(w);
	vlpvm_real_pvm_freebuf(b);
}

/* Receive the layer's message of nt times from tid into t. */
static void recv_times_internal(int from, int64_t *t, int nt)
{
	int b = vrecv(from, VL_TAG_BARRIER, 1), i;

	for (i = 0; i < nt; i++)
		t[i] = upk64();
	vlpvm_real_pvm_freebuf(b);
}

/* barrier: the real one synchronises; then the member with the lowest
 * instance gathers every member's entry time and sends all of them back, and
 * each member runs the engine's simulation of the [collectives] barrier
 * algorithm over the members in instance order (as an MPI_Barrier is timed)
 * and leaves at the time it gives it. */
int vlpvm_barrier(char *group, int count)
{
	int tids[MAX_MCAST], host[MAX_MCAST], n, i, me = 0, cc, sbuf, rbuf;
	int64_t t0 = vli_t.now, entry[MAX_MCAST];
	vlcoll_out out[MAX_MCAST];
	vlcoll_in in;

	cc = vlpvm_real_pvm_barrier(group, count);
	if (cc < 0)
		return cc;
	if (count < 0)
		count = vlpvm_real_pvm_gsize(group);
	n = group_tids(group, count, tids, MAX_MCAST);
	for (i = 0; i < n; i++) {
		host[i] = host_of(tids[i]);
		if (tids[i] == vli_t.id)
			me = i;
	}
	entry[me] = t0;
	sbuf = vlpvm_real_pvm_setsbuf(0);
	rbuf = vlpvm_real_pvm_setrbuf(0);
	if (n > 1 && me == 0) {
		for (i = 1; i < n; i++)
			recv_times_internal(tids[i], &entry[i], 1);
		send_times_internal(tids + 1, n - 1, entry, n);
	} else if (n > 1) {
		send_times_internal(tids, 1, &t0, 1);
		recv_times_internal(tids[0], entry, n);
	}
	vlpvm_real_pvm_setsbuf(sbuf);
	vlpvm_real_pvm_setrbuf(rbuf);
	in.kind = VL_KIND_BARRIER;
	in.alg = vli_t.cfg.mpi.coll_alg[VL_KIND_BARRIER];
	in.p = n;
	in.root = 0;
	in.host = host;
	in.entry = entry;
	in.bytes = NULL;
	if (n > 1 && vlcoll_sim(&vli_t.cfg, &in, out) == 0) {
		vli_wait_until(vli_t.now + out[me].wait);
		vli_comm(out[me].comm);
	}
	vli_trace_msg(VL_EV_COLL, n > 0 ? tids[0] : -1, VL_COLL_BARRIER, 0, 0, t0, vli_t.now,
		      n > 1 ? out[me].wait : 0, n, 0);
	return cc;
}

/* The other group operations run libgpvm3's own algorithm; the messages it
 * sends and receives inside them go through this layer and are timed and
 * traced one by one, so the operation itself needs no record of its own. */
#define GROUP_OP(name, kind, call) \
	{                          \
		return call;       \
	}

int vlpvm_bcast(char *group, int tag)
GROUP_OP(bcast, VL_COLL_BCAST, vlpvm_real_pvm_bcast(group, tag))

int vlpvm_reduce(vlpvm_reduce_fn func, void *data, int count, int datatype, int msgtag, char *group,
		 int root)
GROUP_OP(reduce, VL_COLL_REDUCE, vlpvm_real_pvm_reduce(func, data, count, datatype, msgtag, group, root))

int vlpvm_gather(void *result, void *data, int count, int datatype, int msgtag, char *group,
		 int root)
GROUP_OP(gather, VL_COLL_GATHER, vlpvm_real_pvm_gather(result, data, count, datatype, msgtag, group, root))

int vlpvm_scatter(void *result, void *data, int count, int datatype, int msgtag, char *group,
		  int root)
GROUP_OP(scatter, VL_COLL_SCATTER, vlpvm_real_pvm_scatter(result, data, count, datatype, msgtag, group, root))

int vlpvm_joingroup(char *group)
GROUP_OP(joingroup, VL_COLL_JOIN, vlpvm_real_pvm_joingroup(group))

int vlpvm_lvgroup(char *group)
GROUP_OP(lvgroup, VL_COLL_LEAVE, vlpvm_real_pvm_lvgroup(group))
