/* yield.c - the layer's own looks at MPI do not give the processor away.
 *
 * Open MPI yields the processor (sched_yield) in every progress call that
 * finds nothing to do when a host has more ranks than processors
 * (mpi_yield_when_idle, set by mpirun when it oversubscribes).  The layer
 * looks at MPI several times in a call that does not wait - it takes in
 * message headers (MPI_Iprobe) and the status of the receives it follows
 * (MPI_Request_get_status) - and a program that polls (MPI_Testany in a loop,
 * as hpcc's RandomAccess) makes as many polls as its virtual time says, so
 * each yield there was real time lost: about 60 % of hpcc's processor time
 * under vlrun went into sched_yield.  Around those looks the yield is off;
 * where the layer waits for real it yields itself (vlmpi_spin,
 * vlmpi_order_sleep), and the program's own calls to MPI keep Open MPI's
 * setting.  With another MPI (no opal_progress_set_yield_when_idle) nothing
 * changes.  Virtual time does not depend on it.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <string.h>
#include "vlayer/mpi/mpi_internal.h"

static bool (*set_yield)(bool);
static int looked_up;

int vlmpi_quiet_begin(void)
{
	if (!looked_up) {
		void *f = dlsym(RTLD_DEFAULT, "opal_progress_set_yield_when_idle");
		looked_up = 1;
		memcpy(&set_yield, &f, sizeof f); /* (an object pointer to a function's) */
	}
	return set_yield ? (int)set_yield(false) : 0;
}

void vlmpi_quiet_end(int was)
{
	if (set_yield && was)
		set_yield(true);
}
