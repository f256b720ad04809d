/* semantics.c - exercises the virtual-time semantics of the PVM layer; run
 * under tests/e2e/semantics.ini by test_semantics.sh, which checks every
 * printed time against its closed form.  Prints "key value" lines. */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"

#define T_START 10
#define T_MC 11
#define T_REPORT 12
#define T_BIG 2
#define T_TRIGGER 3
#define T_NEVER 4
#define T_LATE 5
#define T_PS 6
#define T_GO 7

static long long now(void)
{
	return (long long)vl_time_ns();
}

static void send_ll(int to, int tag, long long a, long long b)
{
	pvm_initsend(PvmDataDefault);
	pvm_pklong((long *)&a, 1, 1);
	pvm_pklong((long *)&b, 1, 1);
	pvm_send(to, tag);
}

static void recv_ll(int from, int tag, long long *a, long long *b)
{
	pvm_recv(from, tag);
	pvm_upklong((long *)a, 1, 1);
	pvm_upklong((long *)b, 1, 1);
}

/* a pvm_recvf matching function that takes tag 52 only */
static int only52(int bufid, int tid, int tag)
{
	int len, t, src;
	(void)tid;
	(void)tag;
	pvm_bufinfo(bufid, &len, &t, &src);
	return t == 52;
}

static void child(const char *role)
{
	int parent = pvm_parent(), polls = 0, b;
	long long t, t2;
	static char big[1 << 20];

	if (!strcmp(role, "e")) {
		/* placement with no host: report where the rule put me */
		pvm_initsend(PvmDataDefault);
		pvm_pkstr((char *)vl_host_name());
		pvm_send(parent, T_REPORT);
		return;
	}
	if (!strcmp(role, "d")) {
		/* a task learns another's tid from a message and sends to it: the
		 * layer finds its virtual host (a, same as d: intra) in PVM's mailbox */
		int other;
		pvm_recv(parent, T_START);
		pvm_upkint(&other, 1, 1);
		t = now();
		pvm_initsend(PvmDataRaw);
		pvm_send(other, 98);
		send_ll(parent, T_REPORT, now() - t, 0);
		return;
	}
	send_ll(parent, T_START, now(), 0);
	if (!strcmp(role, "a")) {
		/* nrecv: the big message is really there (it was sent before the
		 * trigger) but becomes visible only at its virtual arrival */
		pvm_recv(parent, T_TRIGGER);
		t = now();
		while ((b = pvm_nrecv(parent, T_BIG)) == 0)
			polls++;
		pvm_upkbyte(big, sizeof big, 1);
		send_ll(parent, T_REPORT, t, now());
		send_ll(parent, T_REPORT, polls, 0);
		/* trecv: nothing comes, the virtual timeout of 100 us expires */
		t = now();
		b = pvm_trecv(parent, T_NEVER, &(struct timeval){ 0, 100 });
		send_ll(parent, T_REPORT, t, b == 0 ? now() : -1);
		/* trecv: the message arrives virtually before the deadline */
		t = now();
		b = pvm_trecv(parent, T_LATE, &(struct timeval){ 10, 0 });
		send_ll(parent, T_REPORT, t, b > 0 ? now() : -1);
		/* a message whose buffer the master inspects (bufinfo, getminfo, probe) */
		{
			int iv[3] = { 1, 2, 3 };
			double dv = 2.5;
			pvm_initsend(PvmDataDefault);
			pvm_pkint(iv, 3, 1);
			pvm_pkdouble(&dv, 1, 1);
			pvm_pkstr("vlayer");
			pvm_send(parent, 77);
		}
		/* psend of 10 ints */
		{
			int v[10], i;
			for (i = 0; i < 10; i++)
				v[i] = i * i;
			pvm_psend(parent, T_PS, v, 10, PVM_INT);
		}
	} else {
		/* b and c: receive the multicast */
		pvm_recv(parent, T_MC);
		t2 = now();
		send_ll(parent, T_REPORT, t2, 0);
		if (!strcmp(role, "c")) {
			/* two messages for the master's pvm_recvf test */
			pvm_initsend(PvmDataDefault);
			pvm_send(parent, 51);
			pvm_initsend(PvmDataDefault);
			pvm_send(parent, 52);
		}
	}
	/* all: a barrier of 4 */
	pvm_joingroup("g");
	pvm_recv(parent, T_GO);
	t = now();
	pvm_barrier("g", 4);
	send_ll(parent, T_REPORT, t, now());
	send_ll(parent, T_REPORT, pvm_getinst("g", pvm_mytid()), 0);
	pvm_lvgroup("g");
	if (!strcmp(role, "a"))
		pvm_recv(parent, T_GO); /* stay alive for d */
}

int main(int argc, char **argv)
{
	int tid[3], i, n, nhost, narch;
	long long t, a, b;
	char self[4096], *names[] = { "a", "b", "c" };
	struct pvmhostinfo *hi;
	static char big[1 << 20];
	ssize_t len;

	if (argc > 1) {
		pvm_mytid();
		child(argv[1]);
		pvm_exit();
		return 0;
	}
	len = readlink("/proc/self/exe", self, sizeof self - 1);
	self[len] = 0;
	pvm_mytid();
	for (i = 0; i < 3; i++) {
		char *av[] = { names[i], NULL };
		if (pvm_spawn(self, av, PvmTaskHost, names[i], 1, &tid[i]) != 1)
			return 1;
		printf("after_spawn_%s %lld\n", names[i], now());
	}
	for (i = 0; i < 3; i++) {
		recv_ll(tid[i], T_START, &a, &b);
		printf("start_%s %lld\n", names[i], a);
		printf("after_start_msg_%s %lld\n", names[i], now());
	}
	/* multicast to b and c: two destinations, contention factor 1.5 */
	printf("before_mcast %lld\n", now());
	pvm_initsend(PvmDataDefault);
	pvm_mcast(tid + 1, 2, T_MC);
	printf("after_mcast %lld\n", now());
	for (i = 1; i < 3; i++) {
		recv_ll(tid[i], T_REPORT, &a, &b);
		printf("mcast_recv_%s %lld\n", names[i], a);
	}
	/* pvm_recvf: a matching function picks the second message first */
	{
		int (*old)(int, int, int) = (int (*)(int, int, int))(void *)pvm_recvf(only52);
		int t1, t2, l, src;
		pvm_bufinfo(pvm_recv(-1, -1), &l, &t1, &src);
		pvm_recvf(old);
		pvm_bufinfo(pvm_recv(tid[2], -1), &l, &t2, &src);
		printf("recvf_order %d %d\n", t1, t2);
	}
	/* nrecv polling in a */
	printf("before_big %lld\n", now());
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(big, sizeof big, 1);
	pvm_send(tid[0], T_BIG);
	pvm_initsend(PvmDataRaw);
	pvm_send(tid[0], T_TRIGGER);
	recv_ll(tid[0], T_REPORT, &a, &b);
	printf("poll_begin %lld\npoll_end %lld\n", a, b);
	recv_ll(tid[0], T_REPORT, &a, &b);
	printf("polls %lld\n", a);
	recv_ll(tid[0], T_REPORT, &a, &b);
	printf("trecv_timeout_begin %lld\ntrecv_timeout_end %lld\n", a, b);
	printf("before_late %lld\n", now());
	pvm_initsend(PvmDataRaw);
	pvm_send(tid[0], T_LATE);
	recv_ll(tid[0], T_REPORT, &a, &b);
	printf("trecv_ok_begin %lld\ntrecv_ok_end %lld\n", a, b);
	{
		/* the same buffer built here: its length is what native PVM reports */
		int iv[3] = { 1, 2, 3 }, jv[3], native_len, len, tag, src, bid, probes = 0;
		double dv = 2.5, ev;
		char str[16];
		struct pvmminfo mi;

		pvm_initsend(PvmDataDefault);
		pvm_pkint(iv, 3, 1);
		pvm_pkdouble(&dv, 1, 1);
		pvm_pkstr("vlayer");
		pvm_bufinfo(pvm_getsbuf(), &native_len, NULL, NULL);
		while ((bid = pvm_probe(tid[0], 77)) == 0)
			probes++;
		pvm_bufinfo(bid, &len, &tag, &src);
		printf("probe_bufinfo %d %d %d\n", len == native_len, tag, src == tid[0]);
		bid = pvm_recv(-1, -1);
		pvm_bufinfo(bid, &len, &tag, &src);
		pvm_getminfo(bid, &mi);
		printf("bufinfo %d %d %d\n", len == native_len, tag, src == tid[0]);
		printf("getminfo %d %d %d %d\n", mi.len == native_len, mi.tag, mi.src == tid[0],
		       mi.ctx == pvm_getcontext());
		pvm_upkint(jv, 3, 1);
		pvm_upkdouble(&ev, 1, 1);
		pvm_upkstr(str);
		printf("unpacked %d %d %d %g %s\n", jv[0], jv[1], jv[2], ev, str);
	}
	{
		int v[10], rt, rtag, rlen, ok = 1;
		pvm_precv(tid[0], T_PS, v, 10, PVM_INT, &rt, &rtag, &rlen);
		for (i = 0; i < 10; i++)
			ok &= v[i] == i * i;
		printf("precv_ok %d\nprecv_len %d\nprecv_from_a %d\n", ok, rlen, rt == tid[0]);
	}
	/* the virtual machine */
	pvm_config(&nhost, &narch, &hi);
	printf("config_hosts %d", nhost);
	for (i = 0; i < nhost; i++)
		printf(" %s", hi[i].hi_name);
	printf("\n");
	/* placement with no host (fill): slots 1, 2, 3, 0 of a:2 b:1 c:1 */
	{
		char *av[] = { "e", NULL }, h[64];
		int e[4], j;
		pvm_spawn(self, av, PvmTaskDefault, "", 4, e);
		printf("placement");
		for (j = 0; j < 4; j++) {
			pvm_recv(e[j], T_REPORT);
			pvm_upkstr(h);
			printf(" %s", h);
		}
		printf("\n");
	}
	/* pvm_tasks and pvm_tidtohost report the virtual hosts (index + 1 in the host field) */
	{
		struct pvmtaskinfo *ti;
		int nt, j;
		printf("tasks_vhosts");
		pvm_tasks(0, &nt, &ti);
		for (i = 0; i < 3; i++)
			for (j = 0; j < nt; j++)
				if (ti[j].ti_tid == tid[i])
					printf(" %d", (ti[j].ti_host >> 18) & 0xfff);
		printf("\ntidtohost_b %d\n", (pvm_tidtohost(tid[1]) >> 18) & 0xfff);
		/* pvm_tasks(b's host id): b's tasks only (is b there, how many not on b) */
		{
			int host_b = pvm_tidtohost(tid[1]), b_in = 0, others = 0;
			pvm_tasks(host_b, &nt, &ti);
			for (j = 0; j < nt; j++) {
				if (ti[j].ti_tid == tid[1])
					b_in = 1;
				if (ti[j].ti_host != host_b)
					others++;
			}
			printf("tasks_on_b %d %d\n", b_in, others);
		}
	}
	/* modelled computation and a parameter change */
	t = now();
	vl_compute(0.25);
	printf("compute_quarter %lld\n", now() - t);
	vl_set_param("network inter", "send_delay", "50us");
	t = now();
	pvm_initsend(PvmDataRaw);
	pvm_send(tid[1], 99); /* b never receives it; a send costs the sender only */
	printf("send_after_setparam %lld\n", now() - t);
	/* virtual wall clock: gettimeofday - VLAYER_EPOCH == virtual time */
	{
		struct timeval tv;
		struct timespec ts;
		long long ep;
		gettimeofday(&tv, NULL);
		t = now();
		ep = atoll(getenv("VLAYER_EPOCH") ? getenv("VLAYER_EPOCH") : "0");
		printf("gettimeofday_us_minus_virtual %lld\n",
		       (tv.tv_sec * 1000000LL + tv.tv_usec) - (ep / 1000 + t / 1000));
		printf("time_minus_virtual %lld\n",
		       (long long)time(NULL) - (ep / 1000000000 + now() / 1000000000));
		clock_gettime(CLOCK_MONOTONIC, &ts);
		printf("monotonic_minus_virtual %lld\n", ts.tv_sec * 1000000000LL + ts.tv_nsec - now());
	}
	/* barrier of the 4 tasks */
	pvm_joingroup("g");
	for (i = 0; i < 3; i++) {
		pvm_initsend(PvmDataRaw);
		pvm_send(tid[i], T_GO);
	}
	t = now();
	printf("barrier_in_master %lld\n", t);
	pvm_barrier("g", 4);
	printf("barrier_out_master %lld\n", now());
	printf("barrier_inst_master %d\n", pvm_getinst("g", pvm_mytid()));
	for (i = 0; i < 3; i++) {
		recv_ll(tid[i], T_REPORT, &a, &b);
		printf("barrier_in_%s %lld\nbarrier_out_%s %lld\n", names[i], a, names[i], b);
		recv_ll(tid[i], T_REPORT, &a, &b);
		printf("barrier_inst_%s %lld\n", names[i], a);
	}
	n = pvm_lvgroup("g");
	(void)n;
	{
		char *av[] = { "d", NULL };
		int d;
		pvm_spawn(self, av, PvmTaskHost, "a", 1, &d);
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&tid[0], 1, 1);
		pvm_send(d, T_START);
		recv_ll(d, T_REPORT, &a, &b);
		printf("send_to_learned_tid %lld\n", a);
		pvm_initsend(PvmDataRaw);
		pvm_send(tid[0], T_GO);
	}
	pvm_exit();
	return 0;
}
