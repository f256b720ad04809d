/* vltracedir - claim or release a trace directory for a run that is started
 * by a script (vlrun for MPI), with the engine's lock (vlayer/core/tracedir.c):
 *   vltracedir claim DIR PID     lock DIR for process PID, remove old traces;
 *                                exit 3 (and why on stderr) if a live run has it
 *   vltracedir release DIR PID   remove the lock if PID holds it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"
#include "util/diag.h"

int main(int argc, char **argv)
{
	char err[2 * VLCFG_PATH_MAX + 256], *end;
	long pid;

	vlu_progname("vltracedir");
	if (argc != 4 || (strcmp(argv[1], "claim") && strcmp(argv[1], "release")))
		return vlu_err(2, "usage: vltracedir claim|release DIR PID");
	pid = strtol(argv[3], &end, 10);
	if (*end || pid <= 0)
		return vlu_err(2, "bad PID %s", argv[3]);
	if (!strcmp(argv[1], "release")) {
		vli_tracedir_unlock(argv[2], pid);
		return 0;
	}
	if (vli_tracedir_claim(argv[2], pid, NULL, err, sizeof err) < 0)
		return vlu_err(3, "%s", err);
	return 0;
}
