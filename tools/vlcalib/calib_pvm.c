/* calib_pvm.c - vlcalib measurements under real PVM (built natively, not
 * through the layer): calib_pvm [-np P] [--hosts H1,H2,...] [options] -o RAW.csv
 * The master (task 0) spawns P-1 copies of itself (worker i on host
 * H[i mod n], else on the master's host), sends them the task list and then
 * all run the plan of calib_*.c; only the communication is here.  Tasks
 * whose pvmd is the same are `intra`, others `inter`.
 * Exit status 3: no pvmd is running.
 */
#include "calib_common.h"
#include "util/diag.h"

#include <errno.h>
#include <pvm3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_TASKS  256
#define TAG_EXITED 199 /* pvm_notify: a worker has exited */

typedef struct pvm_be {
	int rank, size;
	int tids[MAX_TASKS];
	int node[MAX_TASKS];
	char *data;
	size_t cap, bytes;
	int databuf, emptybuf;
	int enc;
} pvm_be;

typedef struct pvm_args {
	int np, worker, direct, enc;
	char hosts[1024];
} pvm_args;

static const char usage[] =
    "usage: calib_pvm [-np P] [--hosts H1,H2,...] [options] -o RAW.csv\n"
    "Measures PVM point-to-point times (rtt oneway send pack recv gap), the send\n"
    "phase to k = 1..P-1 receivers (pvm_mcast: contention) and the five BSP\n"
    "patterns, and writes the vlcalib raw file (see vlcalib-run --help); with\n"
    "--only share (one task per host, --route direct): how messages at once share\n"
    "the links, as calib_mpi measures it (share_fanout by pvm_mcast, share_first by\n"
    "one pvm_send after the other).  Needs a\n"
    "running pvmd (exit status 3 if there is none).  The master spawns P-1 copies\n"
    "of itself by absolute path (the same path must exist on every host).\n"
    "Options:\n"
    "  -np P              tasks (default 2; 2..256)\n"
    "  --hosts LIST       worker i runs on host LIST[i mod n] (default: the master's\n"
    "                     host); e.g. --hosts a,b with -np 4: tasks on a b a b\n"
    "  --encoding E       default (XDR), raw or inplace: pvm_initsend's encoding\n"
    "  --route R          default (through the pvmds) or direct (task to task)\n";

static pvm_be *the_be; /* for leave() */

/* vlu_die's last act (a fatal error): the master takes its workers down with it */
static void leave(void)
{
	int i;

	for (i = 1; the_be && the_be->rank == 0 && i < the_be->size; i++)
		pvm_kill(the_be->tids[i]);
	pvm_exit();
}

/* a blocking receive that notices a partner that died */
static void precv(pvm_be *b, int rank, int tag)
{
	struct timeval tv = {2, 0};
	int bufid;

	for (;;) {
		bufid = pvm_trecv(b->tids[rank], tag, &tv);
		if (bufid > 0)
			return;
		if (bufid < 0)
			vlu_die(1, "pvm_trecv failed (pvm error %d)", bufid);
		if (pvm_pstat(b->tids[rank]) != PvmOk) {
			vlu_err(1, "task %d (t%x) has exited", rank, b->tids[rank]);
			vlu_die(1, "giving up (pvm error 0)");
		}
	}
}

static void use_sbuf(int buf)
{
	if (pvm_getsbuf() != buf)
		pvm_setsbuf(buf);
}

static void p_set_size(void *v, size_t bytes)
{
	pvm_be *b = v;

	if (bytes > b->cap) {
		b->data = vlu_xrealloc(b->data, bytes);
		memset(b->data, 0x5a, bytes);
		b->cap = bytes;
	}
	b->bytes = bytes;
	if (b->databuf > 0) {
		if (pvm_getsbuf() == b->databuf)
			pvm_setsbuf(0);
		pvm_freebuf(b->databuf);
	}
	b->databuf = pvm_mkbuf(b->enc);
	if (b->databuf < 0)
		vlu_die(1, "pvm_mkbuf failed (pvm error %d)", b->databuf);
	pvm_setsbuf(b->databuf);
	if (bytes)
		pvm_pkbyte(b->data, (int)bytes, 1);
}

static void p_send(void *v, int dst)
{
	pvm_be *b = v;
	int rc;

	use_sbuf(b->databuf);
	if ((rc = pvm_send(b->tids[dst], VLCAL_TAG_DATA)) < 0)
		vlu_die(1, "pvm_send failed (pvm error %d)", rc);
}

static void p_recv(void *v, int src)
{
	precv(v, src, VLCAL_TAG_DATA);
}

static void p_probe(void *v, int src)
{
	pvm_be *b = v;
	int rc;

	while ((rc = pvm_probe(b->tids[src], VLCAL_TAG_DATA)) == 0)
		;
	if (rc < 0)
		vlu_die(1, "pvm_probe failed (pvm error %d)", rc);
}

/* (called in a sleeping loop by tasks waiting for their turn: every few
 * seconds it makes sure that src is still there) */
static int p_iprobe(void *v, int src, int tag)
{
	static int calls;
	pvm_be *b = v;

	if (pvm_probe(b->tids[src], tag) > 0)
		return 1;
	if (++calls % 4000 == 0 && pvm_pstat(b->tids[src]) != PvmOk) {
		vlu_err(1, "task %d (t%x) has exited", src, b->tids[src]);
		vlu_die(1, "giving up (pvm error 0)");
	}
	return 0;
}

static void p_multisend(void *v, const int *dst, int k)
{
	pvm_be *b = v;
	int tids[MAX_TASKS], i, rc;

	for (i = 0; i < k; i++)
		tids[i] = b->tids[dst[i]];
	use_sbuf(b->databuf);
	if ((rc = pvm_mcast(tids, k, VLCAL_TAG_DATA)) < 0)
		vlu_die(1, "pvm_mcast failed (pvm error %d)", rc);
}

static void p_exchange(void *v, const int *dst, int nd, const int *src, int ns)
{
	int i;

	for (i = 0; i < nd; i++)
		p_send(v, dst[i]);
	for (i = 0; i < ns; i++)
		p_recv(v, src[i]);
}

/* 64-bit integers as pairs of 32-bit words (any encoding, any host) */
static void p_send_i64(void *v, int dst, int tag, const int64_t *x, int n)
{
	pvm_be *b = v;
	int buf = b->emptybuf, i, rc;

	if (n > 0) {
		buf = pvm_mkbuf(PvmDataDefault);
		pvm_setsbuf(buf);
		for (i = 0; i < n; i++) {
			unsigned w[2] = {(unsigned)((uint64_t)x[i] >> 32),
			                 (unsigned)((uint64_t)x[i] & 0xffffffffu)};

			pvm_pkuint(w, 2, 1);
		}
	}
	use_sbuf(buf);
	if ((rc = pvm_send(b->tids[dst], tag)) < 0)
		vlu_die(1, "pvm_send failed (pvm error %d)", rc);
	if (n > 0) {
		pvm_setsbuf(0);
		pvm_freebuf(buf);
	}
}

static void p_recv_i64(void *v, int src, int tag, int64_t *x, int n)
{
	int i;

	precv(v, src, tag);
	for (i = 0; i < n; i++) {
		unsigned w[2];

		if (pvm_upkuint(w, 2, 1) < 0)
			vlu_die(1, "short control message (pvm error 0)");
		x[i] = (int64_t)(((uint64_t)w[0] << 32) | w[1]);
	}
}

static void p_sendeach(void *v, const int *dst, int k)
{
	int i;

	for (i = 0; i < k; i++)
		p_send(v, dst[i]);
}

static void p_barrier(void *v, int p)
{
	pvm_be *b = v;
	int r;

	if (b->rank != 0) {
		p_send_i64(v, 0, VLCAL_TAG_BARRIER, NULL, 0);
		p_recv_i64(v, 0, VLCAL_TAG_BARRIER, NULL, 0);
		return;
	}
	for (r = 1; r < p; r++)
		p_recv_i64(v, r, VLCAL_TAG_BARRIER, NULL, 0);
	use_sbuf(b->emptybuf);
	pvm_mcast(b->tids + 1, p - 1, VLCAL_TAG_BARRIER);
}

static int64_t p_pack(void *v, size_t bytes)
{
	pvm_be *b = v;
	int old = pvm_setsbuf(0), mine;
	int64_t t0, t1;

	t0 = vlcal_now_ns();
	pvm_initsend(b->enc);
	if (bytes)
		pvm_pkbyte(b->data, (int)bytes, 1);
	t1 = vlcal_now_ns();
	mine = pvm_setsbuf(old);
	pvm_freebuf(mine);
	return t1 - t0;
}

static const vlcal_ops pvm_ops = {
    .library = "pvm",
    .set_size = p_set_size,
    .send = p_send,
    .recv = p_recv,
    .probe = p_probe,
    .multisend = p_multisend,
    .sendeach = p_sendeach,
    .exchange = p_exchange,
    .send_i64 = p_send_i64,
    .recv_i64 = p_recv_i64,
    .iprobe = p_iprobe,
    .barrier = p_barrier,
    .pack = p_pack,
    .share = 1,
};

/* the PVM-only options (vlcal_parse's `extra`) */
static int extra_opt(const char *a, const char *next, void *ctx)
{
	pvm_args *pa = ctx;
	char *end;

	if (!strcmp(a, "--worker")) {
		pa->worker = 1;
		return 1;
	}
	if (strcmp(a, "-np") && strcmp(a, "--np") && strcmp(a, "--hosts") &&
	    strcmp(a, "--encoding") && strcmp(a, "--route"))
		return 0;
	if (!next)
		return vlu_err(-1, "%s needs a value (see --help)", a);
	if (!strcmp(a, "--hosts")) {
		if (!*next || strlen(next) >= sizeof pa->hosts)
			return vlu_err(-1, "--hosts %s: expected host names, comma-separated",
			               next);
		strcpy(pa->hosts, next);
	} else if (!strcmp(a, "--encoding")) {
		pa->enc = !strcmp(next, "default")   ? PvmDataDefault
		          : !strcmp(next, "raw")     ? PvmDataRaw
		          : !strcmp(next, "inplace") ? PvmDataInPlace
		                                     : -1;
		if (pa->enc < 0)
			return vlu_err(-1, "--encoding %s: expected default, raw or inplace", next);
	} else if (!strcmp(a, "--route")) {
		if (strcmp(next, "default") && strcmp(next, "direct"))
			return vlu_err(-1, "--route %s: expected default or direct", next);
		pa->direct = !strcmp(next, "direct");
	} else {
		long n = strtol(next, &end, 10);

		if (end == next || *end || n < 2 || n > MAX_TASKS)
			return vlu_err(-1, "%s %s: expected 2..%d tasks", a, next, MAX_TASKS);
		pa->np = (int)n;
	}
	return 2;
}

/* the name of the host whose pvmd is dtid ("?" if unknown) */
static const char *host_name(int dtid)
{
	struct pvmhostinfo *hi;
	int nh, na, i;

	if (pvm_config(&nh, &na, &hi) < 0)
		return "?";
	for (i = 0; i < nh; i++)
		if (hi[i].hi_tid == dtid)
			return hi[i].hi_name;
	return "?";
}

/* spawn P-1 workers; returns 0 or prints why not */
static int spawn_workers(pvm_be *b, const pvm_args *pa, int argc, char **argv)
{
	char self[4096], hosts[1024], *list[MAX_TASKS], *save = NULL, *tok, **wargv;
	int nh = 0, i, rc;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n < 0)
		return vlu_err(1, "/proc/self/exe: %s", strerror(errno));
	self[n] = 0;
	strcpy(hosts, pa->hosts);
	for (tok = strtok_r(hosts, ",", &save); tok && nh < MAX_TASKS;
	     tok = strtok_r(NULL, ",", &save))
		list[nh++] = tok;
	wargv = vlu_xmalloc((argc + 1) * sizeof *wargv);
	wargv[0] = "--worker";
	for (i = 1; i < argc; i++)
		wargv[i] = argv[i];
	wargv[argc] = NULL;
	for (i = 1; i < b->size; i++) {
		char where[256];

		snprintf(where, sizeof where, "%s",
		         nh ? list[i % nh] : host_name(pvm_tidtohost(b->tids[0])));
		rc = pvm_spawn(self, wargv, PvmTaskHost, where, 1, &b->tids[i]);
		if (rc != 1) {
			vlu_err(1, "cannot spawn %s on host %s (pvm error %d)", self, where,
			        rc == 0 ? b->tids[i] : rc);
			while (--i >= 1)
				pvm_kill(b->tids[i]);
			free(wargv);
			return 1;
		}
	}
	free(wargv);
	return 0;
}

/* the master tells every worker its rank, the task list and the nodes */
static void send_setup(pvm_be *b)
{
	int i;

	for (i = 1; i < b->size; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&b->size, 1, 1);
		pvm_pkint(&i, 1, 1);
		pvm_pkint(b->tids, b->size, 1);
		pvm_pkint(b->node, b->size, 1);
		pvm_send(b->tids[i], VLCAL_TAG_CTRL);
	}
}

static int recv_setup(pvm_be *b)
{
	int parent = pvm_parent();

	if (parent < 0 || pvm_recv(parent, VLCAL_TAG_CTRL) < 0)
		return 1;
	pvm_upkint(&b->size, 1, 1);
	pvm_upkint(&b->rank, 1, 1);
	if (b->size < 2 || b->size > MAX_TASKS)
		return 1;
	pvm_upkint(b->tids, b->size, 1);
	pvm_upkint(b->node, b->size, 1);
	return 0;
}

static int master_setup(pvm_be *b, const vlcal_opts *o, const pvm_args *pa, int argc,
                        char **argv)
{
	int i;

	b->size = pa->np;
	b->rank = 0;
	b->tids[0] = pvm_mytid();
	pvm_setopt(PvmShowTids, 0);
	pvm_catchout(stderr);
	if (spawn_workers(b, pa, argc, argv))
		return 1;
	pvm_notify(PvmTaskExit, TAG_EXITED, b->size - 1, b->tids + 1);
	for (i = 0; i < b->size; i++)
		b->node[i] =
		    o->ranks_per_node > 0 ? i / o->ranks_per_node : pvm_tidtohost(b->tids[i]);
	send_setup(b);
	return 0;
}

/* the master waits until its workers have exited (killing them after a
 * failure) and their output has reached it, so that pvm_exit has nothing
 * left to wait for or complain about */
static void reap_workers(pvm_be *b, int rc)
{
	struct timeval tv = {5, 0}, drain = {0, 50000};
	int i;

	for (i = 1; i < b->size && rc != 0; i++)
		pvm_kill(b->tids[i]);
	for (i = 1; i < b->size; i++)
		if (pvm_trecv(-1, TAG_EXITED, &tv) <= 0)
			break;
	pvm_trecv(-1, TAG_EXITED, &drain);
}

int main(int argc, char **argv)
{
	pvm_args pa = {.np = 2, .enc = PvmDataDefault};
	vlcal_opts o;
	vlcal_world w = {0};
	pvm_be b = {0};
	char ver[128], *names[MAX_TASKS];
	int rc, i;

	vlu_progname("calib_pvm");
	if (argc > 1 && !strcmp(argv[1], "--check-options")) {
		argv[1] = argv[0];
		rc = vlcal_parse(&o, argc - 1, argv + 1, "calib_pvm", usage, extra_opt, &pa);
		return rc == 1 ? 0 : rc;
	}
	rc = vlcal_parse(&o, argc, argv, "calib_pvm", usage, extra_opt, &pa);
	if (rc)
		return rc == 1 ? 0 : rc;
	/* the sharing experiments only when --only names them (they want one
	 * task per host, and direct routes) */
	if (!o.only_given)
		for (i = VL_CALIB_SHARE_EXCHANGE; i <= VL_CALIB_SHARE_FIRST; i++)
			o.only &= ~(1u << i);
	if (pvm_mytid() < 0)
		return vlu_err(3, "no pvmd is running (start one: `pvm`, or let vlcalib-run pvm "
		                  "start a private one)");
	if (pa.direct)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	the_be = &b;
	vlu_atdie(leave);
	b.enc = pa.enc;
	b.emptybuf = pvm_mkbuf(PvmDataDefault);
	rc = pa.worker ? recv_setup(&b) : master_setup(&b, &o, &pa, argc, argv);
	if (rc) {
		pvm_exit();
		return 1;
	}
	w.rank = b.rank;
	w.size = b.size;
	w.node = b.node;
	snprintf(ver, sizeof ver, "PVM %s", pvm_version());
	w.library_version = ver;
	if (b.rank == 0) {
		for (i = 0; i < b.size; i++)
			names[i] = vlu_xstrdup(host_name(pvm_tidtohost(b.tids[i])));
		w.host = names;
	}
	rc = vlcal_run(&o, &pvm_ops, &b, &w);
	if (b.rank == 0)
		for (i = 0; i < b.size; i++)
			free(names[i]);
	free(b.data);
	if (b.rank == 0)
		reap_workers(&b, rc);
	pvm_exit();
	return rc;
}
