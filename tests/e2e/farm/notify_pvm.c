/* notify_pvm.c - an exit notice (pvm_notify(PvmTaskExit)) comes after what
 * the ended task sent before it ended, under virtual order as natively.
 * The parent spawns itself as a worker and asks for its exit notice (tag 99);
 * the worker says hello (tag 1), sleeps 100 ms (virtual time too), sends its
 * result (tag 2) and ends.  The parent, after the hello, burns 0.5 s of CPU
 * (free in the model: compute = ignore), by which time both the result and
 * the notice have really arrived; it then takes two messages with
 * pvm_recv(-1, -1) and prints their tags, the tid in the notice (whether it
 * is the worker's) and the virtual time it took each at, in us. */
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <pvm3.h>

static long long now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL); /* virtual under the layer */
	return tv.tv_sec * 1000000LL + tv.tv_usec;
}

int main(int argc, char **argv)
{
	int w, b, tag, src, i, x;
	char *args[] = { "w", NULL };
	long long t0;
	struct timespec c0, c;

	(void)pvm_mytid();
	if (argc > 1 && strcmp(argv[1], "w") == 0) {
		int p = pvm_parent();
		pvm_initsend(PvmDataDefault);
		pvm_send(p, 1);
		usleep(100000);
		pvm_initsend(PvmDataDefault);
		pvm_send(p, 2);
		pvm_exit();
		return 0;
	}
	t0 = now_us();
	if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &w) != 1)
		return 1;
	pvm_notify(PvmTaskExit, 99, 1, &w);
	pvm_recv(w, 1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	do
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c);
	while ((c.tv_sec - c0.tv_sec) * 1000000000L + c.tv_nsec - c0.tv_nsec < 500000000L);
	for (i = 0; i < 2; i++) {
		b = pvm_recv(-1, -1);
		pvm_bufinfo(b, NULL, &tag, &src);
		printf("message %d: tag %d", i + 1, tag);
		if (tag == 99) {
			x = 0;
			pvm_upkint(&x, 1, 1);
			printf(" tid %s", x == w ? "worker" : "other");
		}
		printf(" at %lld\n", now_us() - t0);
	}
	pvm_exit();
	return 0;
}
