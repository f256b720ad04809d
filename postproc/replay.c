/* replay.c - vlpost replay (issue 13): not yet written. */
#include <stdio.h>

#include "cli.h"
#include "replay.h"

int vlpost_replay_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vlpost: replay: not yet available\n");
	return VLPOST_EXIT_BAD;
}
