/* pingpong.c - PVM ping-pong over message sizes (a vlayer sample; plain PVM).
 *
 *   pingpong [-r REPS] [-h HOST] SIZE...
 * spawns one copy of itself (on HOST if given: a virtual host name under
 * vlayer, a real one natively), sends SIZE bytes there and back REPS times
 * for each SIZE, and prints the mean round-trip time measured with
 * clock_gettime(CLOCK_MONOTONIC) - which is the virtual clock under vlayer.
 */
#include <pvm3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TAG_PING 1
#define TAG_PONG 2

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void child(void)
{
	int parent = pvm_parent(), size, reps, s, r;
	char *buf;

	pvm_recv(parent, 0);
	pvm_upkint(&reps, 1, 1);
	while (pvm_recv(parent, 0) > 0) {
		pvm_upkint(&size, 1, 1);
		if (size < 0)
			break;
		buf = malloc(size ? size : 1);
		for (r = 0; r < reps; r++) {
			pvm_recv(parent, TAG_PING);
			pvm_upkbyte(buf, size, 1);
			pvm_initsend(PvmDataRaw);
			pvm_pkbyte(buf, size, 1);
			pvm_send(parent, TAG_PONG);
		}
		free(buf);
	}
	s = 0;
	(void)s;
}

int main(int argc, char **argv)
{
	int reps = 100, opt, tid, i, r, size, end = -1;
	char *host = NULL, self[4096], *cargv[] = { "-child", NULL };
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "-child")) {
		pvm_mytid();
		child();
		pvm_exit();
		return 0;
	}
	while ((opt = getopt(argc, argv, "r:h:")) != -1) {
		if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 'h')
			host = optarg;
		else {
			fprintf(stderr, "usage: pingpong [-r REPS] [-h HOST] SIZE...\n");
			return 2;
		}
	}
	if (optind >= argc || reps < 1) {
		fprintf(stderr, "usage: pingpong [-r REPS] [-h HOST] SIZE...\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n < 0 || pvm_mytid() < 0)
		return 1;
	self[n] = 0;
	if (pvm_spawn(self, cargv, host ? PvmTaskHost : PvmTaskDefault, host, 1, &tid) != 1) {
		fprintf(stderr, "pingpong: cannot spawn %s: %d\n", self, tid);
		pvm_exit();
		return 1;
	}
	pvm_initsend(PvmDataRaw);
	pvm_pkint(&reps, 1, 1);
	pvm_send(tid, 0);
	for (i = optind; i < argc; i++) {
		char *buf;
		long long t0, t1;

		size = atoi(argv[i]);
		buf = calloc(size ? size : 1, 1);
		pvm_initsend(PvmDataRaw);
		pvm_pkint(&size, 1, 1);
		pvm_send(tid, 0);
		t0 = now_ns();
		for (r = 0; r < reps; r++) {
			pvm_initsend(PvmDataRaw);
			pvm_pkbyte(buf, size, 1);
			pvm_send(tid, TAG_PING);
			pvm_recv(tid, TAG_PONG);
			pvm_upkbyte(buf, size, 1);
		}
		t1 = now_ns();
		printf("size %d reps %d round_trip_ns %lld total_ns %lld\n", size, reps, (t1 - t0) / reps,
		       t1 - t0);
		free(buf);
	}
	pvm_initsend(PvmDataRaw);
	pvm_pkint(&end, 1, 1);
	pvm_send(tid, 0);
	pvm_exit();
	return 0;
}
