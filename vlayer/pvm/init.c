/* init.c - a task's life in the PVM front end: at load time find the real
 * PVM functions and read the VMConfig; on the first virtualised call join
 * the engine (this task's virtual host and start time from its spawn call,
 * or host 0 - $VLAYER_HOST if set - at time 0 for a task started from the
 * shell; the first task of a run also sets up the environment its children
 * inherit); vlpvm_enter/vlpvm_leave around every
 * call; pvm_mytid and pvm_exit.
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

int vl_pvm_layer_present = 1;
int vlpvm_base_ctx;

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

	vlpvm_resolve(vlpvm_sym);
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

/* What identifies this task's virtual machine: its pvmd's address, as the
 * pvmd writes it into PVM_TMP/pvmd.UID ("" if unknown). */
static void pvmd_id(char *buf, size_t size)
{
	char path[PATH_MAX];
	const char *tmp = getenv("PVM_TMP");
	FILE *f;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/pvmd.%u", tmp && *tmp ? tmp : "/tmp", (unsigned)getuid());
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

/* This task's place in its spawn call: VLAYER_SPAWN = "H:START:SLOT,..."
 * (SLOT: its slot on the board, -1 if none). */
static int spawn_slot(int me, int *host, int64_t *start, int *slot)
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
	if (!s || sscanf(s, "%d:%lld:%d", host, (long long *)start, slot) < 2)
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

/* The virtual host of a task started from the shell: $VLAYER_HOST, a host
 * name of the VMConfig (programs whose tasks are all started by hand, such as
 * NetPIPE-PVM's two ends, choose each one's host so), else the first host. */
static int shell_host(void)
{
	const char *name = getenv("VLAYER_HOST");
	char valid[256];
	size_t at = 0;
	int h;

	if (!name || !*name)
		return 0;
	h = vlcfg_host_index(&vli_t.cfg, name);
	if (h >= 0)
		return h;
	valid[0] = 0;
	for (h = 0; h < vli_t.cfg.nhosts; h++) {
		const char *n = vli_t.cfg.hosts[h].name;
		if (at + strlen(n) + 8 > sizeof valid) {
			snprintf(valid + at, sizeof valid - at, ", ...");
			break;
		}
		at += (size_t)snprintf(valid + at, sizeof valid - at, "%s%s", h ? ", " : "", n);
	}
	vli_error(2, "VLAYER_HOST=%s: the VMConfig has no host of that name (hosts: %s)", name,
		  valid);
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

/* pvm_exit, pvm_kill or a crash of a task that has not joined the board. */
static int probe_task(int tid)
{
	int cc = vlpvm_real_pvm_pstat(tid), n = 0;
	struct pvmtaskinfo *ti;
	char path[64], line[4096];
	FILE *f;
	int found = 0;

	if (cc == PvmNoTask)
		return VLI_PROBE_DEAD;
	if (vlpvm_real_pvm_tasks(tid, &n, &ti) < 0 || n != 1 || ti[0].ti_pid <= 0)
		return VLI_PROBE_WAIT;
	/* a program that does not use vlayer: no libvlayer-pvm in its mappings
	 * (a program linked with the static library is taken for one that does not) */
	snprintf(path, sizeof path, "/proc/%d/maps", ti[0].ti_pid);
	f = fopen(path, "r");
	if (!f)
		return VLI_PROBE_WAIT;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, "libvlayer-pvm") != NULL;
	fclose(f);
	return found ? VLI_PROBE_WAIT : VLI_PROBE_OUTSIDE;
}

/* Join the run's board (ordering = virtual): the first task of a run makes
 * it in the trace directory; the others find it through VLAYER_BOARD.  If the
 * virtual machine has several real hosts, the first task also starts the
 * run's board server, and tasks on another real host than the board's
 * (VLAYER_BOARD_HOST) join through it (VLAYER_BOARD_ADDR). */
static void join_board(int create, int slot)
{
	char path[VLCFG_PATH_MAX + 32], host[64] = "";
	const char *b = getenv("VLAYER_BOARD"), *addr = getenv("VLAYER_BOARD_ADDR"),
		   *bhost = getenv("VLAYER_BOARD_HOST");
	int nhost = 0, narch = 0;
	struct pvmhostinfo *hi;
	/* VLAYER_BOARD_REMOTE=1 (for tests): every task but the first goes
	 * through the board server, as if on another real host */
	const char *force = getenv("VLAYER_BOARD_REMOTE");
	int remote = force && *force == '1';

	if (vli_t.cfg.ordering_real)
		return;
	gethostname(host, sizeof host - 1);
	if (!create && addr && *addr && bhost && (remote || strcmp(bhost, host) != 0) &&
	    vli_order_connect(addr, slot, "t%x") == 0)
		return;
	if (create || !b || !*b) {
		snprintf(path, sizeof path, "%s/.vlayer-board", getenv("VLAYER_TRACE_DIR"));
		setenv("VLAYER_BOARD", path, 1);
		b = path;
	}
	if (!create && access(b, F_OK) != 0)
		create = 1;
	vli_order_start(b, create, slot, "t%x", probe_task);
	vli_order_set_key(-1, vlpvm_base_ctx);
	unsetenv("VLAYER_BOARD_ADDR");
	if (create && vli_order_on() &&
	    (remote || (vlpvm_real_pvm_config(&nhost, &narch, &hi) >= 0 && nhost > 1))) {
		char a[1024];
		if (vli_order_serve(a, sizeof a) == 0) {
			setenv("VLAYER_BOARD_ADDR", a, 1);
			setenv("VLAYER_BOARD_HOST", host, 1);
		}
	} else if (addr && *addr && !create) {
		setenv("VLAYER_BOARD_ADDR", addr, 1); /* a task of the board's host */
	}
}

static void init_task(void)
{
	int me, ptid, host = 0, phost, slot = -1, create = 0;
	int64_t start = 0;
	const char *dir, *ph;

	me = vlpvm_real_pvm_mytid();
	if (me < 0)
		return;
	ptid = vlpvm_real_pvm_parent();
	read_progname();
	if (ptid < 0 || spawn_slot(me, &host, &start, &slot) < 0) {
		/* the first task of a run, or one started from the shell that joins
		 * it: on the first host (or $VLAYER_HOST), start at 0 */
		host = ptid < 0 ? shell_host() : 0;
		ptid = ptid < 0 ? -1 : ptid;
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
		/* the run's first task claims the trace directory (engine: tracedir.c);
		 * another task started from the shell under the same pvmd joins */
		if (ptid < 0) {
			char err[VLCFG_PATH_MAX * 2 + 256], run[1024];

			pvmd_id(run, sizeof run);
			create = vli_tracedir_claim(getenv("VLAYER_TRACE_DIR"), (long)getpid(), run, err,
						    sizeof err);
			if (create < 0)
				vli_error(2, "%s", err);
			create = !create; /* 1: a new run, 0: joined one */
			if (create)
				unsetenv("VLAYER_BOARD");
		}
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
	vlpvm_base_ctx = vlpvm_real_pvm_getcontext();
	join_board(create, slot);
	vlpvm_publish_host(me, host);
	export_var("VLAYER_SPAWN");
	export_var("VLAYER_TRACE_DIR");
	export_var("VLAYER_PHOST");
	export_var("VLAYER_EPOCH");
	if (getenv("VLAYER_BOARD"))
		export_var("VLAYER_BOARD");
	if (getenv("VLAYER_BOARD_ADDR")) {
		export_var("VLAYER_BOARD_ADDR");
		export_var("VLAYER_BOARD_HOST");
	}
	if (getenv("VMCONFIG"))
		export_var("VMCONFIG");
	if (getenv("LD_PRELOAD"))
		export_var("LD_PRELOAD");
}

void vlpvm_enter(void)
{
	if (!vli_t.ready && !vli_t.ended) {
		vli_first_call(); /* the program's computation before this call */
		vli_cpugate_install();
		vli_depth++;
		init_task();
		vli_depth--;
		vli_init_done(); /* the layer's start-up is not the program's */
	}
	vli_enter();
}

void vlpvm_leave(void)
{
	vli_leave();
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
