/* gate_order.c - one task of the CPU gate's order test (test_cpugate.sh):
 *
 *   gate_order NOW_US SPIN_MS LABEL
 *
 * joins the gate of $VLAYER_TRACE_DIR (cpus = 1) as a task at virtual time
 * NOW_US, takes the processor (waiting for it), appends "LABEL" to its
 * standard output (O_APPEND: one line per task, in the order they got it),
 * computes SPIN_MS ms of CPU and gives the processor back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/engine.h"

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	volatile double x = 1.0;
	double end;
	char line[64];
	int n;

	if (argc != 4) {
		fprintf(stderr, "usage: gate_order NOW_US SPIN_MS LABEL\n");
		return 2;
	}
	vlcfg_default(&vli_t.cfg);
	vli_t.cfg.cpus = 1;
	vli_t.id = atoi(argv[3]);
	vli_t.now = atoll(argv[1]) * 1000;
	vli_main_thread = 1;
	vli_cpugate_take();
	n = snprintf(line, sizeof line, "%s\n", argv[3]);
	if (write(1, line, (size_t)n) != n)
		return 1;
	end = cpu_s() + atof(argv[2]) / 1e3;
	while (cpu_s() < end)
		x = x * 1.0000001 + 1e-9;
	vli_cpugate_end();
	return 0;
}
