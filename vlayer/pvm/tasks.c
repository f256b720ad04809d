/* tasks.c - who is who and the task calls of the PVM front end.  Every tid
 * gets a virtual host: from the engine's registry, from PVM's mailbox (each
 * task publishes its own at start-up) or, once, from pvmd's task list
 * (VLPVM_HOST_RAW for the group server and pvmds, which are not
 * virtualised).  pvm_spawn places the new tasks on virtual hosts (the
 * VMConfig's placement) and passes them their host and start time;
 * pvm_config, pvm_tasks and pvm_tidtohost show the virtual hosts, each with
 * a made-up pvmd tid; pvm_kill costs one message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "vlayer/pvm/pvm_internal.h"

#define HOST_UNKNOWN (-3)      /* registry: virtualised, virtual host not known */

static uint32_t spawn_count; /* tasks this task has placed so far */

/* ---- who is who ---- */

void vlpvm_publish_host(int me, int host)
{
	char name[32];
	int b = vlpvm_real_pvm_mkbuf(PvmDataDefault), old = vlpvm_real_pvm_setsbuf(b);

	snprintf(name, sizeof name, "vlayer.%x", (unsigned)me);
	vlpvm_real_pvm_pkint(&host, 1, 1);
	vlpvm_real_pvm_setsbuf(old);
	vlpvm_real_pvm_putinfo(name, b, PvmMboxDefault);
	vlpvm_real_pvm_freebuf(b);
}

/* The virtual host tid published, or -1. */
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

/* Is a_out the group server (pvmgs), which is never virtualised? */
static int is_group_server(const char *a_out)
{
	const char *a = strrchr(a_out, '/');
	return !strcmp(a ? a + 1 : a_out, "pvmgs");
}

/* Virtual host of tid from what is known without asking pvmd for the task
 * list: the registry, then PVM's mailbox.  Returns -2 (VLPVM_HOST_RAW), -1
 * (known to be unknown), a host index, or -4 if pvmd's task list must decide. */
static int host_known(int tid)
{
	int h = vli_reg_get(tid);

	if (h == HOST_UNKNOWN)
		return -1;
	if (h != -1)
		return h;
	if (tid & 0x80000000)
		return VLPVM_HOST_RAW; /* a pvmd */
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
	int h = is_group_server(a_out) ? VLPVM_HOST_RAW : HOST_UNKNOWN;

	vli_reg_set(tid, h); /* ask pvmd once only */
	return h == VLPVM_HOST_RAW ? VLPVM_HOST_RAW : -1;
}

/* Virtual host of task tid (-1 unknown, VLPVM_HOST_RAW if not virtualised). */
int vlpvm_host_of(int tid)
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
	int vh = -1, *hosts, *slots, i, cc;
	int64_t t0 = vli_t.now, delay = 0;
	char *env, *rwhere = where, num[32];
	size_t envlen;

	base = base ? base + 1 : task;
	if (!task || ntask < 1 || !strcmp(base, "pvmgs")) {
		cc = vlpvm_real_pvm_spawn(task, argv, flag, where, ntask, tids);
		for (i = 0; i < cc; i++)
			vli_reg_set(tids[i], VLPVM_HOST_RAW);
		return cc;
	}
	if ((flag & PvmTaskHost) && where)
		vh = vlcfg_host_index(&vli_t.cfg, where);
	if (vh >= 0) {
		rwhere = vli_t.cfg.hosts[vh].real[0] ? vli_t.cfg.hosts[vh].real : NULL;
		if (!rwhere)
			flag &= ~PvmTaskHost;
	}
	hosts = malloc((size_t)ntask * 2 * sizeof *hosts);
	envlen = (size_t)ntask * 64 + 16;
	env = malloc(envlen);
	if (!hosts || !env) {
		free(hosts);
		free(env);
		return PvmNoMem;
	}
	slots = hosts + ntask;
	env[0] = 0;
	for (i = 0; i < ntask; i++) {
		hosts[i] = vh >= 0 ? vh : pick_host((int)++spawn_count);
		if (vli_init_delay(&vli_t.cfg, hosts[i]) > delay)
			delay = vli_init_delay(&vli_t.cfg, hosts[i]);
		/* virtual order: the new task holds the others back from its start on */
		slots[i] = vli_order_reserve(t0 + vli_init_delay(&vli_t.cfg, hosts[i]), hosts[i]);
		if (slots[i] >= 0) /* its first context: this one (PVM's inheritance) */
			vli_order_set_key(slots[i], vlpvm_real_pvm_getcontext());
		snprintf(env + strlen(env), envlen - strlen(env), "%s%d:%lld:%d", i ? "," : "",
			 hosts[i], (long long)(t0 + vli_init_delay(&vli_t.cfg, hosts[i])), slots[i]);
	}
	setenv("VLAYER_SPAWN", env, 1);
	snprintf(num, sizeof num, "%d", vli_t.host);
	setenv("VLAYER_PHOST", num, 1);
	cc = vlpvm_real_pvm_spawn(task, argv, flag, rwhere, ntask, tids);
	vli_comm(delay);
	for (i = 0; i < ntask; i++) {
		if (cc <= 0 || tids[i] < 0) {
			vli_order_gone(slots[i], 0); /* never started */
			continue;
		}
		vli_order_bind(slots[i], tids[i]);
		if (vlpvm_real_pvm_tidtohost(tids[i]) != vlpvm_real_pvm_tidtohost(vli_t.id) &&
		    !getenv("VLAYER_BOARD_ADDR")) {
			static int warned;
			vli_order_gone(slots[i], 1);
			if (!warned++)
				vli_warn("ordering = virtual: task t%x runs on another real host, and "
					 "the virtual machine had one host when the run began (no board "
					 "server); choices that involve it follow real arrival",
					 (unsigned)tids[i]);
		}
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

int vlpvm_kill(int tid)
{
	int cc;

	vli_comm(vli_send_time(&vli_t.cfg, vli_t.host, vlpvm_host_of(tid), 0));
	cc = vlpvm_real_pvm_kill(tid);
	if (cc >= 0)
		vli_order_forget(tid); /* it sends nothing more */
	return cc;
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
	int h = vlpvm_host_of(tid);
	return h >= 0 ? vhost_tid(h) : vlpvm_real_pvm_tidtohost(tid);
}

int vlpvm_tasks(int where, int *ntask, struct pvmtaskinfo **taskp)
{
	int cc, i, n = 0, h, k = 0, want = -1;
	struct pvmtaskinfo *ti = NULL;

	if (where & 0x80000000 && ((where >> 18) & 0xfff) >= 1 &&
	    ((where >> 18) & 0xfff) <= (unsigned)vli_t.cfg.nhosts && (where & 0x3ffff) == 0) {
		want = (int)((where >> 18) & 0xfff) - 1;
		where = 0; /* a virtual host: list all, filtered below */
	}
	cc = vlpvm_real_pvm_tasks(where, &n, &ti);
	if (cc < 0)
		return cc;
	for (i = 0; i < n; i++) {
		/* not vlpvm_host_of(): asking pvmd again would free the list being read */
		h = host_known(ti[i].ti_tid);
		if (h == -4)
			h = host_from_taskinfo(ti[i].ti_tid, ti[i].ti_a_out);
		if (h >= 0)
			ti[i].ti_host = vhost_tid(h);
		/* pvm_tasks(a virtual host): its tasks only (the list is libpvm's
		 * own array: kept in place) */
		if (want < 0 || h == want)
			ti[k++] = ti[i];
	}
	n = k;
	if (ntask)
		*ntask = n;
	if (taskp)
		*taskp = ti;
	return cc;
}
