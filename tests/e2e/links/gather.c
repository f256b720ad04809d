/* gather.c - PVM messages of separate calls sharing a link (tests/e2e/
 * test_links.sh): the parent spawns one child on each host named on its
 * command line and sends each a small "go" message, one pvm_send after the
 * other; every child answers with BYTES bytes at once, so the answers share
 * the parent's link.  The parent takes them with a wildcard receive and
 * prints "arrival I HOST NS" (its clock after the I-th receive, from HOST).
 * Usage: gather BYTES HOST... */
#include <pvm3V.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>

#define T_GO 1
#define T_DATA 2

int main(int argc, char **argv)
{
	int parent = pvm_parent(), n, i, k, tid[16], bytes, from;
	char *buf;

	if (parent > 0) { /* a child: wait for the go, answer with the data */
		pvm_recv(parent, T_GO);
		pvm_upkint(&n, 1, 1);
		buf = calloc((size_t)n + 1, 1);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, n, 1);
		pvm_send(parent, T_DATA);
		free(buf);
		pvm_exit();
		return 0;
	}
	if (argc < 3 || argc - 2 > 16) {
		fprintf(stderr, "usage: gather BYTES HOST...\n");
		pvm_exit();
		return 2;
	}
	n = atoi(argv[1]);
	for (i = 2; i < argc; i++)
		if (pvm_spawn(argv[0], NULL, PvmTaskHost, argv[i], 1, &tid[i - 2]) != 1) {
			fprintf(stderr, "gather: spawn on %s failed\n", argv[i]);
			pvm_exit();
			return 1;
		}
	printf("before %lld\n", (long long)vl_time_ns());
	for (i = 2; i < argc; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&n, 1, 1);
		pvm_send(tid[i - 2], T_GO);
	}
	for (k = 1; k < argc - 1; k++) {
		pvm_recv(-1, T_DATA);
		pvm_bufinfo(pvm_getrbuf(), &bytes, NULL, &from);
		for (i = 0; i < argc - 2 && tid[i] != from; i++)
			;
		printf("arrival %d %s %lld\n", k, i < argc - 2 ? argv[i + 2] : "?",
		       (long long)vl_time_ns());
	}
	pvm_exit();
	return 0;
}
