/* simgrid.h - vlpost simgrid. */
#ifndef VLPOST_SIMGRID_H
#define VLPOST_SIMGRID_H

/* vlpost simgrid ARGS (argv[0] = "simgrid"); returns the exit status. */
int vlpost_simgrid_main(int argc, char **argv);

#endif
