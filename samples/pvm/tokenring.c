/* tokenring.c - a token passed around a ring of PVM tasks (a vlayer sample).
 *
 *   tokenring [-n TASKS] [-r ROUNDS] [-b BYTES]
 * Task 0 spawns TASKS-1 copies of itself, tells each its neighbour, and the
 * token (BYTES bytes) goes round the ring ROUNDS times.  Prints the time per
 * round from gettimeofday() (virtual time under vlayer).
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define TAG_SETUP 21
#define TAG_TOKEN 22

static void pass(int to, char *buf, int bytes, int hops)
{
	pvm_initsend(PvmDataRaw);
	pvm_pkint(&hops, 1, 1);
	pvm_pkbyte(buf, bytes, 1);
	pvm_send(to, TAG_TOKEN);
}

int main(int argc, char **argv)
{
	int n = 4, rounds = 10, bytes = 64, opt, tids[64], i, next, hops, r;
	char self[4096], *cargv[] = { "-member", NULL }, *buf;
	struct timeval t0, t1;
	ssize_t len;

	if (argc > 1 && !strcmp(argv[1], "-member")) {
		pvm_mytid();
		pvm_recv(pvm_parent(), TAG_SETUP);
		pvm_upkint(&next, 1, 1);
		pvm_upkint(&bytes, 1, 1);
		buf = calloc(bytes ? bytes : 1, 1);
		do {
			pvm_recv(-1, TAG_TOKEN);
			pvm_upkint(&hops, 1, 1);
			pvm_upkbyte(buf, bytes, 1);
			pass(next, buf, bytes, hops - 1);
		} while (hops > n - 1);
		free(buf);
		pvm_exit();
		return 0;
	}
	while ((opt = getopt(argc, argv, "n:r:b:")) != -1) {
		if (opt == 'n')
			n = atoi(optarg);
		else if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'b')
			bytes = atoi(optarg);
		else {
			fprintf(stderr, "usage: tokenring [-n TASKS] [-r ROUNDS] [-b BYTES]\n");
			return 2;
		}
	}
	if (n < 2 || n > 64 || rounds < 1 || bytes < 0) {
		fprintf(stderr, "tokenring: 2 <= TASKS <= 64, ROUNDS >= 1, BYTES >= 0\n");
		return 2;
	}
	len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len < 0 || (tids[0] = pvm_mytid()) < 0)
		return 1;
	self[len] = 0;
	if (pvm_spawn(self, cargv, PvmTaskDefault, "", n - 1, tids + 1) != n - 1) {
		fprintf(stderr, "tokenring: cannot spawn %d tasks\n", n - 1);
		pvm_exit();
		return 1;
	}
	for (i = 1; i < n; i++) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&tids[(i + 1) % n], 1, 1);
		pvm_pkint(&bytes, 1, 1);
		pvm_send(tids[i], TAG_SETUP);
	}
	buf = calloc(bytes ? bytes : 1, 1);
	gettimeofday(&t0, NULL);
	/* the token makes rounds * n hops; each member stops after its last pass */
	pass(tids[1], buf, bytes, rounds * n - 1);
	for (r = 0; r < rounds; r++) {
		pvm_recv(-1, TAG_TOKEN);
		pvm_upkint(&hops, 1, 1);
		pvm_upkbyte(buf, bytes, 1);
		if (hops > 0)
			pass(tids[1], buf, bytes, hops - 1);
	}
	gettimeofday(&t1, NULL);
	printf("tasks %d rounds %d bytes %d\n", n, rounds, bytes);
	printf("time per round %.6f s\n",
	       ((t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) * 1e-6) / rounds);
	free(buf);
	pvm_exit();
	return 0;
}
