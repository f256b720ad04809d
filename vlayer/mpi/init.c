/* init.c - start, end and time of an MPI task: MPI_Init and
 * MPI_Init_thread read the VMConfig, start MPI, set up the layer's private
 * communicators and known communicators and join the engine (computation
 * before MPI_Init counts); MPI_Finalize flushes the trace, and so does
 * MPI_Abort (the aborting rank's trace ends with END); MPI_Wtime and
 * MPI_Wtick give virtual time.  Fortran's MPI_INIT, MPI_INIT_THREAD and
 * MPI_FINALIZE are defined here too (they start and end the layer).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

extern char *program_invocation_name;

/* referred to by programs built with mpiV.h */
int vl_mpi_layer_present = 1;

/* Whether two ranks of the world share a virtual host (vli_la_intra). */
static int hosts_shared(void)
{
	int n = vli_t.cfg.nhosts, r, h, shared = 0;
	char *seen = n > 0 ? calloc((size_t)n, 1) : NULL;

	if (!seen)
		return 1;
	for (r = 0; r < vlmpi_world_size && !shared; r++) {
		h = vlcfg_rank_host(&vli_t.cfg, r);
		if (h < 0 || h >= n || seen[h])
			shared = 1;
		else
			seen[h] = 1;
	}
	free(seen);
	return shared;
}

static void layer_init(void)
{
	int host;

	PMPI_Comm_rank(MPI_COMM_WORLD, &vlmpi_world_rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &vlmpi_world_size);
	vlmpi_header_init();
	vlmpi_comm_init();
	host = vlcfg_rank_host(&vli_t.cfg, vlmpi_world_rank);
	/* computation before MPI_Init counts (from the program's start: see
	 * load_config), the time inside it does not */
	vli_init(vlmpi_world_rank, -1, host, 0, program_invocation_name);
	vli_la_intra = hosts_shared();
	/* the layer's own MPI calls here (Open MPI reads the clock inside
	 * them) are not the program's */
	vli_depth++;
	vlmpi_order_init();
	vli_depth--;
	vli_leave(); /* the program computes from here */
}

static void load_config(void)
{
	vli_first_call();
	vli_cpugate_install();
	vli_load_config(&vli_t.cfg); /* a bad VMConfig ends here, status 2 */
}

int vlmpi_Init(int *argc, char ***argv)
{
	int rc;

	load_config();
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS)
		layer_init();
	return rc;
}

int vlmpi_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc;

	load_config();
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		layer_init();
	return rc;
}

/* Open MPI waits in MPI_Finalize (and for a send's completion) by spinning;
 * on a machine with fewer cores than ranks the ranks that are done took the
 * processor from those still working (the ray tracer on a bus took 3 to 25 s
 * of real time, 2026-11-27).  So the layer waits for its copies to go and
 * for every rank to reach MPI_Finalize itself, napping. */
static void nap_until(MPI_Request *r)
{
	int flag = 0, spins = 0;
	struct timespec ms = { 0, 1000000 };

	for (;;) {
		vlmpi_copies_progress(0);
		if (PMPI_Test(r, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || flag)
			return;
		if (++spins < 16)
			sched_yield();
		else
			nanosleep(&ms, NULL);
	}
}

int vlmpi_Finalize(void)
{
	MPI_Request r, *b;

	vlmpi_order_end();
	/* (off the board first: the others may need this rank's bound to get
	 * to the collectives it left at once) */
	while ((b = vlmpi_coll_behind()) != NULL)
		nap_until(b);
	if (vlmpi_world_size > 1 && PMPI_Ibarrier(MPI_COMM_WORLD, &r) == MPI_SUCCESS)
		nap_until(&r);
	vlmpi_copies_progress(1);
	vli_trace_flush();
	vlmpi_detached_end(); /* (their answers come on the headers' communicator) */
	vlmpi_header_end();
	return PMPI_Finalize();
}

double vlmpi_Wtime(void)
{
	return (double)vli_t.now / 1e9;
}

double vlmpi_Wtick(void)
{
	return 1e-9;
}

/* Fortran: MPI_INIT, MPI_INIT_THREAD and MPI_FINALIZE start and end the layer too. */
static void vlmpi_f_init(MPI_Fint *ierr)
{
	*ierr = vlmpi_Init(NULL, NULL);
}
static void vlmpi_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr)
{
	int p = 0;
	*ierr = vlmpi_Init_thread(NULL, NULL, (int)*required, &p);
	*provided = p;
}
static void vlmpi_f_finalize(MPI_Fint *ierr)
{
	*ierr = MPI_Finalize();
}
#define VLMPI_F_ALIAS(proto, target, lc, uc, ompi)                                          \
	void lc proto __attribute__((alias(#target)));                                  \
	void lc##_ proto __attribute__((alias(#target)));                               \
	void lc##__ proto __attribute__((alias(#target)));                              \
	void uc proto __attribute__((alias(#target)));                                  \
	void ompi proto __attribute__((alias(#target)));
VLMPI_F_ALIAS((MPI_Fint * ierr), vlmpi_f_init, mpi_init, MPI_INIT, ompi_init_f)
VLMPI_F_ALIAS((MPI_Fint * r, MPI_Fint *p, MPI_Fint *ierr), vlmpi_f_init_thread, mpi_init_thread,
	  MPI_INIT_THREAD, ompi_init_thread_f)
VLMPI_F_ALIAS((MPI_Fint * ierr), vlmpi_f_finalize, mpi_finalize, MPI_FINALIZE, ompi_finalize_f)

/* The rank that aborts ends its trace (END at this virtual time) before MPI
 * takes the job down; the others are killed (SIGTERM: the engine's handler
 * ends theirs too). */
int vlmpi_Abort(MPI_Comm comm, int errorcode)
{
	vli_finish();
	return PMPI_Abort(comm, errorcode);
}
