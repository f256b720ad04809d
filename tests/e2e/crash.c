/* crash.c - a child that sends one message and then crashes (SIGSEGV), and
 * one that is killed with pvm_kill while it waits: both must leave readable
 * traces (test_crash.sh).  Plain PVM. */
#include <pvm3.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char self[4096];
	char *crash[] = { "crash", NULL }, *wait[] = { "wait", NULL };
	int c, w, x = 42;
	ssize_t n;

	pvm_mytid();
	if (argc > 1 && !strcmp(argv[1], "crash")) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint(&x, 1, 1);
		pvm_send(pvm_parent(), 1);
		{
			/* 200 ms of real time (past the layer) before the crash:
			 * pvmd, the task's parent, may take its exit before it has
			 * read the message from the task's socket (once in four
			 * suite runs the parent waited for it until the timeout) */
			struct timespec ts = { 0, 200000000 };
			syscall(SYS_nanosleep, &ts, NULL);
		}
		raise(SIGSEGV);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "wait")) {
		pvm_initsend(PvmDataDefault);
		pvm_send(pvm_parent(), 2);
		pvm_recv(pvm_parent(), 3); /* never comes: it is killed */
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	self[n > 0 ? n : 0] = 0;
	pvm_spawn(self, crash, PvmTaskDefault, "", 1, &c);
	pvm_spawn(self, wait, PvmTaskDefault, "", 1, &w);
	pvm_recv(c, 1);
	pvm_upkint(&x, 1, 1);
	pvm_recv(w, 2);
	printf("got %d\n", x);
	printf("kill %d\n", pvm_kill(w));
	sleep(1);
	pvm_exit();
	return 0;
}
