/* mcast.c - a PVM multicast on shared links (tests/e2e/test_links.sh): the
 * parent spawns one child on each of the hosts named on its command line,
 * multicasts BYTES bytes to them, and prints, for each child, the virtual
 * time at which its pvm_recv returned ("arrival HOST NS") and its own time
 * after the multicast ("after_mcast NS").  Usage: mcast BYTES HOST... */
#include <pvm3V.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define T_DATA 1
#define T_BACK 2

int main(int argc, char **argv)
{
	int parent = pvm_parent(), n, i, tid[16];
	long long t;
	char *buf;

	if (parent > 0) { /* a child: receive, report when */
		pvm_recv(parent, T_DATA);
		t = (long long)vl_time_ns();
		pvm_initsend(PvmDataDefault);
		pvm_pklong((long *)&t, 1, 1);
		pvm_send(parent, T_BACK);
		pvm_exit();
		return 0;
	}
	if (argc < 3 || argc - 2 > 16) {
		fprintf(stderr, "usage: mcast BYTES HOST...\n");
		pvm_exit();
		return 2;
	}
	n = atoi(argv[1]);
	for (i = 2; i < argc; i++)
		if (pvm_spawn(argv[0], NULL, PvmTaskHost, argv[i], 1, &tid[i - 2]) != 1) {
			fprintf(stderr, "mcast: spawn on %s failed\n", argv[i]);
			pvm_exit();
			return 1;
		}
	buf = calloc((size_t)n + 1, 1);
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(buf, n, 1);
	printf("before_mcast %lld\n", (long long)vl_time_ns());
	pvm_mcast(tid, argc - 2, T_DATA);
	printf("after_mcast %lld\n", (long long)vl_time_ns());
	for (i = 2; i < argc; i++) {
		pvm_recv(tid[i - 2], T_BACK);
		pvm_upklong((long *)&t, 1, 1);
		printf("arrival %s %lld\n", argv[i], t);
	}
	free(buf);
	pvm_exit();
	return 0;
}
