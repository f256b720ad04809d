/* mpi_crash.c - rank 1 sends to rank 0 and then crashes (MODE crash: SIGSEGV)
 * or calls MPI_Abort (MODE abort): its trace must hold the send, not just a
 * header (test_crash.sh).  Rank 0 receives, then waits to be taken down. */
#include <mpi.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 42;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		if (argc > 1 && !strcmp(argv[1], "abort"))
			MPI_Abort(MPI_COMM_WORLD, 7);
		raise(SIGSEGV);
	} else if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		sleep(30); /* mpirun ends the job first */
	}
	MPI_Finalize();
	return 0;
}
