/* join_pvm.c - pvm_joingroup's instance numbers follow virtual time, also
 * when the members run on several real hosts.  The master spawns N children
 * (pvmd places them on the virtual machine's hosts in turn); child i first
 * sleeps i * 40 ms of real time past the layer (so that in real time the
 * children join in the order 0, 1, ...), then computes (N - i) ms of
 * modelled time (vl_compute), joins group "vljoin" and sends the master its
 * instance number.  Under virtual order the child that computed
 * least joins first: child i gets instance N - 1 - i.  The master prints
 * "child I inst K" per child, in the order of I.
 *
 *   join_pvm [N]     (N from 1 to 32, default 4)
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"

#define TAG_INST 31
#define TAG_DONE 32

static void child(int i, int n)
{
	struct timespec ts = { 0, (long)i * 40000000L };
	int parent = pvm_parent(), inst;

	syscall(SYS_nanosleep, &ts, NULL); /* real, past the layer */
	vl_compute((n - i) * 1e-3);
	inst = pvm_joingroup("vljoin");
	pvm_initsend(PvmDataDefault);
	pvm_pkint(&i, 1, 1);
	pvm_pkint(&inst, 1, 1);
	pvm_send(parent, TAG_INST);
	pvm_recv(parent, TAG_DONE); /* stay in the group until all have joined */
	pvm_lvgroup("vljoin");
}

int main(int argc, char **argv)
{
	int n = argc > 1 && strcmp(argv[1], "-child") ? atoi(argv[1]) : 4, tids[32], inst[32], i, k, ci;
	char self[4096], num[16], tot[16], *av[4];
	ssize_t len;

	if (argc > 3 && !strcmp(argv[1], "-child")) {
		pvm_mytid();
		child(atoi(argv[2]), atoi(argv[3]));
		pvm_exit();
		return 0;
	}
	if (n < 1 || n > 32 || pvm_mytid() < 0)
		return 2;
	len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0)
		return 1;
	self[len] = 0;
	snprintf(tot, sizeof tot, "%d", n);
	for (i = 0; i < n; i++) {
		snprintf(num, sizeof num, "%d", i);
		av[0] = "-child";
		av[1] = num;
		av[2] = tot;
		av[3] = NULL;
		if (pvm_spawn(self, av, PvmTaskDefault, "", 1, &tids[i]) != 1) {
			fprintf(stderr, "join_pvm: spawn failed\n");
			pvm_exit();
			return 1;
		}
	}
	for (k = 0; k < n; k++) {
		pvm_recv(-1, TAG_INST);
		pvm_upkint(&ci, 1, 1);
		if (ci < 0 || ci >= n)
			return 1;
		pvm_upkint(&inst[ci], 1, 1);
	}
	for (i = 0; i < n; i++) {
		printf("child %d inst %d\n", i, inst[i]);
		pvm_initsend(PvmDataDefault);
		pvm_send(tids[i], TAG_DONE);
	}
	pvm_exit();
	return 0;
}
