/* leafgo.c - a member of a collective goes on once the members its exit
 * depends on are in, before the others (test_links).  6 ranks; ranks 0-3
 * run a collective on their communicator (root 0, binomial, 8 bytes): the
 * early member E (the bcast's or scatter's rank 1, which receives from the
 * root alone; the reduce's or gather's rank 2, which receives from rank 3
 * alone) sends 8 bytes to rank 4 as it leaves; the late member X (the
 * bcast's or scatter's rank 3, the reduce's or gather's rank 1) first
 * receives a message rank 5 sends at 300.5 ms (after a real sleep); rank 5
 * computes 500 us and sends 8 bytes to rank 4, whose two receives name
 * MPI_ANY_SOURCE.  gatherv and scatterv: their v forms, blocks of 2, 3, 1
 * and 1 doubles (gatherv: at displacements 5, 2, 1 and 0) and 2, 1, 3 and 1
 * (scatterv: at 0, 2, 3 and 6), so that E's own messages are as above;
 * scan and exscan: the chain, E rank 1 (from rank 0 alone), X rank 3.
 * Usage: leafgo bcast|reduce|gather|scatter|gatherv|scatterv|scan|exscan
 * [waitany|testany].
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
	int scatter = !strcmp(how, "scatter"), gather = !strcmp(how, "gather");
	int gatherv = !strcmp(how, "gatherv"), scatterv = !strcmp(how, "scatterv");
	int scan = !strcmp(how, "scan"), exscan = !strcmp(how, "exscan");
	int down = bcast || scatter || scatterv || scan || exscan;
	int rank, early = down ? 1 : 2, late = down ? 3 : 1, i, k, f;
	int nb = argc > 2, poll = nb && !strcmp(argv[2], "testany");
	int gc[4] = { 2, 3, 1, 1 }, gd[4] = { 5, 2, 1, 0 }, sc[4] = { 2, 1, 3, 1 }, sd[4] = { 0, 2, 3, 6 };
	double x, y[8] = { 0 }, z[8] = { 10, 11, 12, 13, 14, 15, 16 }, w = 7, u, v[3];
	MPI_Request rq[2];
	MPI_Comm c;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank < 4 ? 0 : 1, rank, &c);
	x = rank == 0 && bcast ? 42 : rank + 1;
	for (i = 0; i < 3; i++)
		v[i] = 100 * (rank + 1) + i;
	if (rank < 4) {
		if (rank == late)
			MPI_Recv(y, 1, MPI_DOUBLE, 5, 9, MPI_COMM_WORLD, &st);
		if (nb && bcast)
			MPI_Ibcast(&x, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && reduce)
			MPI_Ireduce(&x, y, 1, MPI_DOUBLE, MPI_SUM, 0, c, &rq[0]);
		else if (nb && scatter)
			MPI_Iscatter(z, 1, MPI_DOUBLE, &x, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && gather)
			MPI_Igather(&x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && gatherv)
			MPI_Igatherv(v, gc[rank], MPI_DOUBLE, y, gc, gd, MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && scatterv)
			MPI_Iscatterv(z, sc, sd, MPI_DOUBLE, v, sc[rank], MPI_DOUBLE, 0, c, &rq[0]);
		else if (nb && scan)
			MPI_Iscan(&x, y, 1, MPI_DOUBLE, MPI_SUM, c, &rq[0]);
		else if (nb)
			MPI_Iexscan(&x, y, 1, MPI_DOUBLE, MPI_SUM, c, &rq[0]);
		else if (bcast)
			MPI_Bcast(&x, 1, MPI_DOUBLE, 0, c);
		else if (reduce)
			MPI_Reduce(&x, y, 1, MPI_DOUBLE, MPI_SUM, 0, c);
		else if (scatter)
			MPI_Scatter(z, 1, MPI_DOUBLE, &x, 1, MPI_DOUBLE, 0, c);
		else if (gather)
			MPI_Gather(&x, 1, MPI_DOUBLE, y, 1, MPI_DOUBLE, 0, c);
		else if (gatherv)
			MPI_Gatherv(v, gc[rank], MPI_DOUBLE, y, gc, gd, MPI_DOUBLE, 0, c);
		else if (scatterv)
			MPI_Scatterv(z, sc, sd, MPI_DOUBLE, v, sc[rank], MPI_DOUBLE, 0, c);
		else if (scan)
			MPI_Scan(&x, y, 1, MPI_DOUBLE, MPI_SUM, c);
		else
			MPI_Exscan(&x, y, 1, MPI_DOUBLE, MPI_SUM, c);
		if (nb && rank == 0) {
			vl_compute(1e-4);
			MPI_Send(&w, 1, MPI_DOUBLE, early, 6, MPI_COMM_WORLD);
		}
		if (nb && rank == early) {
			MPI_Isend(&w, 1, MPI_DOUBLE, 4, 5, MPI_COMM_WORLD, &rq[1]);
			MPI_Recv(&u, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, &st);
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
		if (rank == 0) /* (a root that left at once: its data are safe) */
			for (i = 1; i < 8; i++)
				z[i] = -1;
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
		if (gatherv && rank == 0)
			for (i = 0; i < 7; i++)
				if (y[i] != (double)(i == 0 ? 400 : i == 1 ? 300 : i < 5 ? 200 + i - 2 : 100 + i - 5))
					printf("BAD gatherv: y[%d] = %g\n", i, y[i]);
		if (scatterv)
			for (i = 0; i < sc[rank]; i++)
				if (v[i] != 10 + sd[rank] + i)
					printf("BAD scatterv: rank %d got %g\n", rank, v[i]);
		if (scan && y[0] != (rank + 1) * (rank + 2) / 2)
			printf("BAD scan: rank %d got %g\n", rank, y[0]);
		if (exscan && rank > 0 && y[0] != rank * (rank + 1) / 2)
			printf("BAD exscan: rank %d got %g\n", rank, y[0]);
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
