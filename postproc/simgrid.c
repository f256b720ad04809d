/* simgrid.c - vlpost simgrid (issue 13): not yet written. */
#include <stdio.h>

#include "cli.h"
#include "simgrid.h"

int vlpost_simgrid_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "vlpost: simgrid: not yet available\n");
	return VLPOST_EXIT_BAD;
}
