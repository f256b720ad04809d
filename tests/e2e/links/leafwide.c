/* leafwide.c - a member of a collective whose exit depends on more than 64
 * others goes on once those are in, before the members it does not depend
 * on (test_links; links/leafgo.c with a wide communicator).  P ranks: ranks
 * 0 .. P-3 run MPI_Bcast of 8 bytes from rank 0 on their communicator (a
 * pipeline in the VMConfig: rank i receives from rank i - 1); the early
 * member E = P-4 depends on ranks 0 .. P-5 and sends 8 bytes to rank P-2 as
 * it leaves; the late member X = P-3 first receives a message rank P-1
 * sends after 1 ms of computation and 300 ms of sleep; before that, rank P-1
 * sends 8 bytes to rank P-2, whose two receives name MPI_ANY_SOURCE.
 * Prints "R SOURCE NS" at the end of each of rank P-2's receives and
 * "T RANK end NS". */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>
#include <vlayer.h>

int main(int argc, char **argv)
{
	int rank, p, i;
	double x = 0;
	MPI_Comm c;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	MPI_Comm_split(MPI_COMM_WORLD, rank < p - 2 ? 0 : 1, rank, &c);
	if (rank < p - 2) {
		if (rank == 0)
			x = 42;
		if (rank == p - 3)
			MPI_Recv(&x, 1, MPI_DOUBLE, p - 1, 9, MPI_COMM_WORLD, &st);
		MPI_Bcast(&x, 1, MPI_DOUBLE, 0, c);
		if (x != 42)
			printf("BAD bcast: rank %d got %g\n", rank, x);
		if (rank == p - 4)
			MPI_Send(&x, 1, MPI_DOUBLE, p - 2, 5, MPI_COMM_WORLD);
	} else if (rank == p - 2) {
		for (i = 0; i < 2; i++) {
			MPI_Recv(&x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
			printf("R %d %lld\n", st.MPI_SOURCE, (long long)vl_time_ns());
		}
	} else {
		vl_compute(1e-3);
		MPI_Send(&x, 1, MPI_DOUBLE, p - 2, 5, MPI_COMM_WORLD);
		usleep(300000);
		MPI_Send(&x, 1, MPI_DOUBLE, p - 3, 9, MPI_COMM_WORLD);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	MPI_Comm_free(&c);
	MPI_Finalize();
	return 0;
}
