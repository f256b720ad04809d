/* leafgo.c - a member of a collective goes on once the members its exit
 * depends on are in, before the others (test_links).  6 ranks; ranks 0-3
 * run a collective on their communicator (root 0, binomial, 8 bytes): the
 * early member E (the bcast's or scatter's rank 1, which receives from the
 * root alone; the reduce's or gather's rank 2, which receives from rank 3
 * alone) sends 8 bytes to rank 4 as it leaves; the late member X (the
 * bcast's or scatter's rank 3, the reduce's or gather's rank 1) first
 * receives a message rank 5 sends at 300.5 ms (after a real sleep); rank 5
 * computes 500 us and sends 8 bytes to rank 4, whose two receives name
 * MPI_ANY_SOURCE.  Usage: leafgo bcast|reduce|gather|scatter [waitany|testany].
 * With waitany (testany) the collective is the nonblocking one, started at
 * 0: E then sends to rank 4 (MPI_Isend), receives the root's 8 bytes (sent
 * after 100 us of computation) and takes its two requests with MPI_Waitany
 * (an MPI_Testany loop): both are complete by then, so the collective
 * (index 0) comes first; the others wait for it with MPI_Wait.  Prints
 * "W INDEX NS" for each request E takes, "R SOURCE NS" at the end of each
 * of rank 4's receives and "T RANK end NS". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <vlayer.h>

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "bcast";
	int bcast = !strcmp(how, "bcast"), reduce = !strcmp(how, "reduce");
	int scatter = !strcmp(how, "scatter"), gather = !bcast && !reduce && !scatter;
	int rank, early = bcast || scatter ? 1 : 2, late = bcast || scatter ? 3 : 1, i, k, f;
	int nb = argc > 2, poll = nb && !strcmp(argv[2], "testany");
	double x, y[4] = { 0 }, z[4] = { 10, 11, 12, 13 }, w = 7;
	MPI_Request rq[2];
	MPI_Comm c;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 4 ? 0 : 1, rank, &c);
	x = rank == 0 && bcast ? 42 : rank + 1;
	if (rank < 4) {
		if (rank == late)
			MPI_Recv(y, 1, MPI_DOUBLE, 5, 9, MPI_COMM_WORLD, &st);
		if (nb && bcast)
			MPI_Ibcast(&x, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && reduce)
			MPI_Ireduce(&x, y, 1, MPI_DOUBLE, MPI_SUM, 0, c, &rq[0]);
		else if (nb && scatter)
			MPI_Iscatter(z, 1, MPI_DOUBLE, &x, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb)
			MPI_Igather(&x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (bcast)
			MPI_Bcast(&x, 1, MPI_DOUBLE, 0, c);
		else if (reduce)
			MPI_Reduce(&x, y, 1, MPI_DOUBLE, MPI_SUM, 0, c);
		else if (scatter)
			MPI_Scatter(z, 1, MPI_DOUBLE, &x, 1, MPI_DOUBLE, 0, c);
		else
			MPI_Gather(&x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, c);
		if (nb && rank == 0) {
			vl_compute(1e-4);
			MPI_Send(&w, 1, MPI_DOUBLE, early, 6, MPI_COMM_WORLD);
		}
		if (nb && rank == early) {
			MPI_Isend(&w, 1, MPI_DOUBLE, 4, 5, MPI_COMM_WORLD, &rq[1]);
			MPI_Recv(y, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &st);
			for (i = 0; i < 2; i++) {
				if (poll)
					do
						MPI_Testany(2, rq, &k, &f, &st);
					while (!f);
				else
					MPI_Waitany(2, rq, &k, &st);
				printf("W %d %lld\n", k, (long long)vl_time_ns());
			}
		} else if (nb) {
			MPI_Wait(&rq[0], &st);
		}
		if (rank == 0)
			z[1] = z[2] = z[3] = -1; /* (a root that left at once: its data are safe) */
		if (!nb && rank == early)
			MPI_Send(&x, 1, MPI_DOUBLE, 4, 5, MPI_COMM_WORLD);
		if (bcast && x != 42)
			printf("BAD bcast: rank %d got %g\n", rank, x);
		if (reduce && rank == 0 && y[0] != 10)
			printf("BAD reduce: %g\n", y[0]);
		if (scatter && x != 10 + rank)
			printf("BAD scatter: rank %d got %g\n", rank, x);
		if (gather && rank == 0 &&
		    (y[0] != 1 || y[1] != 2 || y[2] != 3 || y[3] != 4))
			printf("BAD gather: %g %g %g %g\n", y[0], y[1], y[2], y[3]);
	} else if (rank == 4) {
		for (i = 0; i < 2; i++) {
			MPI_Recv(&x, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
			printf("R %d %lld\n", st.MPI_SOURCE, (long long)vl_time_ns());
		}
	} else {
		vl_compute(5e-4);
		MPI_Send(&x, 1, MPI_DOUBLE, 4, 5, MPI_COMM_WORLD);
		usleep(300000);
		MPI_Send(&x, 1, MPI_DOUBLE, late, 9, MPI_COMM_WORLD);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	MPI_Comm_free(&c);
	MPI_Finalize();
	return 0;
}
