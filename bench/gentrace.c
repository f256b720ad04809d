/* gentrace.c - for bench/post.sh: write a synthetic trace set, or run a
 * command and report its wall time and peak memory.
 *   gentrace gen DIR TASKS RECORDS   TASKS task traces with about RECORDS
 *                                    records in all: a ring in which every task
 *                                    computes, sends to its right neighbour and
 *                                    receives from its left one, over and over
 *   gentrace run CMD [ARGS...]       run CMD; print "wall_s maxrss_kib" */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vltrace.h"

static void put(FILE *f, int type, int peer, int tag, uint32_t seq, int64_t bytes, int64_t t0,
		int64_t t1, int64_t t2, int64_t t3)
{
	vl_trec r = vl_trec_make(type, 0, peer, tag, seq, bytes, t0, t1, t2, t3, 0);

	fwrite(&r, sizeof r, 1, f);
}

static int gen(const char *dir, int tasks, long records)
{
	long rounds = records / (2L * tasks), k;
	int i;
	/* every round lasts 10 us: 4 computing, 1 sending, 2 on the wire, 3 receiving */
	const int64_t step = 10000;

	if (tasks < 2 || rounds < 1) {
		fprintf(stderr, "gentrace: need >= 2 tasks and enough records\n");
		return 2;
	}
	mkdir(dir, 0777);
	for (i = 0; i < tasks; i++) {
		char path[4096];
		vl_thdr h;
		FILE *f;
		int right = (i + 1) % tasks, left = (i + tasks - 1) % tasks;

		snprintf(path, sizeof path, "%s/vl-%08x.trc", dir, (unsigned)i);
		f = fopen(path, "wb");
		if (!f) {
			fprintf(stderr, "gentrace: %s: %s\n", path, strerror(errno));
			return 1;
		}
		memset(&h, 0, sizeof h);
		memcpy(h.magic, VL_TRACE_MAGIC, 8);
		h.version = VL_TRACE_VERSION;
		h.hdr_size = sizeof h;
		h.rec_size = sizeof(vl_trec);
		h.tid = i;
		h.ptid = -1;
		h.host = i / 2;
		snprintf(h.host_name, sizeof h.host_name, "node%d", i / 2 + 1);
		snprintf(h.program, sizeof h.program, "synthetic");
		fwrite(&h, sizeof h, 1, f);
		put(f, VL_EV_START, -1, 0, 0, 0, 0, 0, 0, 0);
		for (k = 0; k < rounds; k++) {
			int64_t t = k * step;
			put(f, VL_EV_SEND, right, 1, (uint32_t)(k + 1), 1024, t + 4000, t + 5000,
			    t + 7000, 1);
			put(f, VL_EV_RECV, left, 1, (uint32_t)(k + 1), 1024, t + 5000, t + 10000, 2000,
			    t + 7000);
		}
		put(f, VL_EV_END, -1, 0, 0, rounds * 4000, rounds * step, rounds * step,
		    rounds * 4000, rounds * 2000);
		if (fclose(f) != 0) {
			fprintf(stderr, "gentrace: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	printf("%ld\n", (long)tasks * (2 * rounds + 2));
	return 0;
}

static int run(char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int st;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f %ld\n", (double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
	       ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "gen"))
		return gen(argv[2], atoi(argv[3]), atol(argv[4]));
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argv + 2);
	fprintf(stderr, "usage: gentrace gen DIR TASKS RECORDS | gentrace run CMD [ARGS...]\n");
	return 2;
}
