/* pass_pvm.c - the calls vlayer passes straight through to libpvm3 (pack,
 * buffer and info calls) while a task computes with measured CPU time.
 *
 * The master starts worker A and worker B, then takes two results with
 * pvm_recv(-1).  A computes 15 ms of CPU time, asks pvmd for its parent's
 * status 200 times (pvm_pstat: real waits for the daemon), packs 1 MiB
 * buffers for 60 ms of CPU time, computes 15 ms more and sends: its result
 * leaves about 30 ms of virtual time after the start (the pass-through calls
 * are not computation).  B adds 60 ms of modelled computation (vl_compute)
 * and sends.  Virtual order: A's result first.  A layer whose view of A's
 * clock from outside counted the packing (a live bound above the clock A
 * will have) takes B's first; one that took the real time of the pass-through
 * calls off A's computation shortens A's clock.
 *
 * Prints "first A|B second A|B" and A's own CPU time of its two computations
 * ("spin NS") and of the pass-through calls ("pass NS"), for the test to
 * compare with A's trace.
 *
 *   pass_pvm
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"
#include "spin.h"

#define TAG_GO 31
#define TAG_RESULT 32

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* computes until this thread has used ms of CPU time; returns the CPU time */
static long long compute_ms(int ms)
{
	long long t0 = cpu_ns(), t;

	while ((t = cpu_ns()) - t0 < ms * 1000000LL)
		spin(20000);
	return t - t0;
}

static void send_result(int to, char who, long long spin_ns, long long pass_ns)
{
	pvm_initsend(PvmDataDefault);
	pvm_pkbyte(&who, 1, 1);
	pvm_pklong((long *)&spin_ns, 1, 1);
	pvm_pklong((long *)&pass_ns, 1, 1);
	pvm_send(to, TAG_RESULT);
}

static void worker_a(int parent)
{
	static char buf[1 << 20];
	long long s, p0, p;
	int i;

	memset(buf, 7, sizeof buf);
	pvm_recv(parent, TAG_GO);
	s = compute_ms(15);
	p0 = cpu_ns();
	for (i = 0; i < 200; i++)
		pvm_pstat(parent);
	while (cpu_ns() - p0 < 60000000LL) {
		pvm_initsend(PvmDataDefault);
		pvm_pkbyte(buf, (int)sizeof buf, 1);
	}
	p = cpu_ns() - p0;
	s += compute_ms(15);
	send_result(parent, 'A', s, p);
}

static void worker_b(int parent)
{
	pvm_recv(parent, TAG_GO);
	vl_compute(0.060);
	send_result(parent, 'B', 0, 0);
}

int main(int argc, char **argv)
{
	char *aa[] = { "-a", NULL }, *ab[] = { "-b", NULL }, who[2];
	int t[2], i;
	long long spin_ns = 0, pass_ns = 0, s, p;

	if (pvm_mytid() < 0)
		return 1;
	if (argc > 1 && !strcmp(argv[1], "-a"))
		worker_a(pvm_parent());
	else if (argc > 1 && !strcmp(argv[1], "-b"))
		worker_b(pvm_parent());
	else {
		if (pvm_spawn(argv[0], aa, PvmTaskDefault, "", 1, &t[0]) != 1 ||
		    pvm_spawn(argv[0], ab, PvmTaskDefault, "", 1, &t[1]) != 1) {
			fprintf(stderr, "pass_pvm: spawn failed\n");
			pvm_exit();
			return 1;
		}
		for (i = 0; i < 2; i++) {
			pvm_initsend(PvmDataDefault);
			pvm_pkint(&i, 1, 1);
			pvm_send(t[i], TAG_GO);
		}
		for (i = 0; i < 2; i++) {
			pvm_recv(-1, TAG_RESULT);
			pvm_upkbyte(&who[i], 1, 1);
			pvm_upklong((long *)&s, 1, 1);
			pvm_upklong((long *)&p, 1, 1);
			if (who[i] == 'A') {
				spin_ns = s;
				pass_ns = p;
			}
		}
		printf("first %c second %c\n", who[0], who[1]);
		printf("spin %lld\npass %lld\n", spin_ns, pass_ns);
	}
	pvm_exit();
	return 0;
}
