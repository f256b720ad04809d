/* order_mpi.c - small MPI programs for the virtual-order tests.
 *
 *   order_mpi poll [-p]   rank 1 sleeps 200 ms of real time (past the layer),
 *                         computes 1 ms (vl_compute) and sends one int to rank
 *                         0, which polls with MPI_Iprobe(MPI_ANY_SOURCE) (-p:
 *                         MPI_Improbe) from the start; rank 0 prints how many
 *                         polls found nothing, its time, the value.
 *   order_mpi sender FILE rank 1 computes 1 ms (vl_compute), sends one int to
 *                         rank 0, then waits for real (without calling MPI)
 *                         until FILE exists (at most 10 s), and sends again;
 *                         rank 0 takes both with MPI_Recv(MPI_ANY_SOURCE) and
 *                         makes FILE after the first.  Prints the sources, the
 *                         times and whether rank 1 saw FILE: it does only if
 *                         the choice did not wait for the candidate's sender.
 *   order_mpi tagpost     rank 1 posts MPI_Irecv(MPI_ANY_SOURCE, tag 7) and
 *                         MPI_Irecv(0, tag 6) at its start, then waits in
 *                         MPI_Recv(0, tag 8); only then does it receive rank
 *                         0's 100000 B of tag 9.  Rank 0 sends those with
 *                         MPI_Isend, computes 10 ms and tests it (no receive
 *                         posted can take it: not complete), then sends tags
 *                         8, 6 and 7 and waits.  Prints the test's flag and
 *                         time.
 *   order_mpi answer      rank 0 sends 100000 B (a rendezvous) to rank 1 with
 *                         MPI_Isend, computes 10 ms (vl_compute) and tests
 *                         it: prints the flag and its time.  Rank 1 posted
 *                         MPI_Irecv(MPI_ANY_SOURCE) for it at its start, then
 *                         waits in MPI_Recv for rank 2, which sleeps 300 ms
 *                         of real time and computes 1 s (vl_compute) first:
 *                         in the model the data left at once and are in
 *                         long before the test, although rank 1 answers
 *                         only 300 ms (real) later.
 *   order_mpi deadlock    ranks 0 and 1 each wait in MPI_Recv(MPI_ANY_SOURCE)
 *                         for a message nobody sends.
 *   order_mpi named       rank 2 sleeps 200 ms of real time, then sends to rank
 *                         0; rank 1 sends to rank 0 at once; rank 0 receives
 *                         from rank 2 by name, then from any source: prints
 *                         the sources and times (the named receive does not
 *                         change what the wildcard gets).
 *   order_mpi persist     ranks 1 and 2 send as in named; rank 0 makes one
 *                         persistent MPI_Recv_init(MPI_ANY_SOURCE), starts and
 *                         cancels it, then starts and waits for it twice:
 *                         prints whether the first was cancelled, and the
 *                         sources and times of the two messages.
 *   order_mpi live FILE   (measured computation) rank 1 sends to rank 0 at
 *                         once; rank 2 computes for real until FILE exists
 *                         (at most 10 s of real time), then sends; rank 0
 *                         takes both with MPI_Recv(MPI_ANY_SOURCE) and makes
 *                         FILE after the first.  Prints the first source and
 *                         whether rank 2 saw FILE: it does only if rank 0 could
 *                         choose while rank 2 still computed (live bounds).
 *   order_mpi subcomm FILE ranks 0 and 1 form a communicator (MPI_Comm_split);
 *                         rank 1 computes 1 ms (vl_compute) and sends on it;
 *                         rank 0 takes it with MPI_Recv(MPI_ANY_SOURCE) there
 *                         and makes FILE; rank 2, outside, spins for real
 *                         until FILE exists (at most 10 s) without calling
 *                         MPI.  Prints the source and whether rank 2 saw FILE:
 *                         it does only if the choice waited for the
 *                         communicator's members alone.
 *   order_mpi collopen COLL WHO [R]  rank R (default 0) posts MPI_Irecv of
 *                         100000 B (a rendezvous) from WHO (any:
 *                         MPI_ANY_SOURCE, named: rank R+1), then waits in the
 *                         blocking collective COLL (barrier, allreduce or
 *                         bcast: root R), then in MPI_Wait; rank R+1 computes
 *                         1 ms (vl_compute), sends it with MPI_Send, then
 *                         enters COLL; the others only enter COLL.  Rank R
 *                         prints the source and its time.
 *                         Rank R+1 cannot enter COLL before its send is taken:
 *                         the wildcard must be chosen while rank 0 waits in
 *                         COLL (the run hung before 2026-11-27).
 *   order_mpi unsafe      ranks 0 and 1 each send 100000 B (a rendezvous) to the
 *                         other with MPI_Send before receiving: a program that
 *                         relies on MPI buffering them (it hung before
 *                         2026-11-27; now a deadlock report, status 4).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer.h"

static double real_s(void)
{
	struct timespec ts;
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts); /* real, past the layer */
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void real_sleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	syscall(SYS_nanosleep, &ts, NULL); /* real time, not virtual */
}

int main(int argc, char **argv)
{
	int rank, x = 42, polls = 0, flag = 0;
	const char *mode = argc > 1 ? argv[1] : "poll";
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(mode, "poll")) {
		int improbe = argc > 2 && !strcmp(argv[2], "-p");
		if (rank == 1) {
			real_sleep(200);
			vl_compute(1e-3);
			MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		} else if (rank == 0) {
			MPI_Message m;
			for (;;) {
				if (improbe)
					MPI_Improbe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &m, &st);
				else
					MPI_Iprobe(MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &flag, &st);
				if (flag)
					break;
				polls++;
			}
			x = 0;
			if (improbe)
				MPI_Mrecv(&x, 1, MPI_INT, &m, &st);
			else
				MPI_Recv(&x, 1, MPI_INT, st.MPI_SOURCE, 5, MPI_COMM_WORLD, &st);
			printf("polls %d\nend %lld\nvalue %d\n", polls, (long long)vl_time_ns(), x);
		}
	} else if (!strcmp(mode, "collopen") && argc > 3) {
		static char big[100000];
		int any = !strcmp(argv[3], "any"), np, me = argc > 4 ? atoi(argv[4]) : 0, him;
		double a = 1, b;
		MPI_Request r;

		MPI_Comm_size(MPI_COMM_WORLD, &np);
		him = (me + 1) % np;
		if (rank == me)
			MPI_Irecv(big, sizeof big, MPI_CHAR, any ? MPI_ANY_SOURCE : him, 3, MPI_COMM_WORLD, &r);
		if (rank == him) {
			vl_compute(1e-3);
			MPI_Send(big, sizeof big, MPI_CHAR, me, 3, MPI_COMM_WORLD);
		}
		if (!strcmp(argv[2], "barrier"))
			MPI_Barrier(MPI_COMM_WORLD);
		else if (!strcmp(argv[2], "allreduce"))
			MPI_Allreduce(&a, &b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		else
			MPI_Bcast(&a, 1, MPI_DOUBLE, me, MPI_COMM_WORLD);
		if (rank == me) {
			MPI_Wait(&r, &st);
			printf("got %d at %lld\n", st.MPI_SOURCE, (long long)vl_time_ns());
		}
	} else if (!strcmp(mode, "unsafe") && rank < 2) {
		static char big[100000];

		MPI_Send(big, sizeof big, MPI_CHAR, 1 - rank, 3, MPI_COMM_WORLD);
		MPI_Recv(big, sizeof big, MPI_CHAR, 1 - rank, 3, MPI_COMM_WORLD, &st);
	} else if (!strcmp(mode, "live") && argc > 2) {
		if (rank == 1) {
			MPI_Send(&rank, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
		} else if (rank == 2) {
			volatile unsigned long k = 0;
			double t0 = real_s();
			int saw = 0;
			while (!(saw = access(argv[2], F_OK) == 0) && real_s() - t0 < 10.0)
				for (unsigned long j = 0; j < 100000; j++)
					k += j;
			printf("saw %d\n", saw);
			MPI_Send(&rank, 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
		} else if (rank == 0) {
			FILE *f;
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
			printf("first %d\n", x);
			fflush(stdout);
			if ((f = fopen(argv[2], "w")))
				fclose(f);
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
			printf("second %d\n", x);
		}
	} else if (!strcmp(mode, "subcomm") && argc > 2) {
		MPI_Comm sub;

		MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : 1, rank, &sub);
		if (rank == 1) {
			vl_compute(1e-3);
			MPI_Send(&rank, 1, MPI_INT, 0, 12, sub);
		} else if (rank == 0) {
			FILE *f;
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 12, sub, &st);
			printf("from %d\n", x);
			fflush(stdout);
			if ((f = fopen(argv[2], "w")))
				fclose(f);
		} else if (rank == 2) {
			double t0 = real_s();
			int saw = 0;
			while (!(saw = access(argv[2], F_OK) == 0) && real_s() - t0 < 10.0)
				real_sleep(1);
			printf("saw %d\n", saw);
		}
		MPI_Comm_free(&sub);
	} else if (!strcmp(mode, "sender") && argc > 2) {
		if (rank == 1) {
			double t0;
			int saw;
			vl_compute(1e-3);
			MPI_Send(&rank, 1, MPI_INT, 0, 13, MPI_COMM_WORLD);
			t0 = real_s();
			while (!(saw = access(argv[2], F_OK) == 0) && real_s() - t0 < 10.0)
				real_sleep(1);
			printf("saw %d\n", saw);
			fflush(stdout);
			MPI_Send(&rank, 1, MPI_INT, 0, 13, MPI_COMM_WORLD);
		} else if (rank == 0) {
			FILE *f;
			int i;
			for (i = 0; i < 2; i++) {
				MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, &st);
				printf("got %d at %lld\n", st.MPI_SOURCE, (long long)vl_time_ns());
				fflush(stdout);
				if (i == 0 && (f = fopen(argv[2], "w")))
					fclose(f);
			}
		}
	} else if (!strcmp(mode, "tagpost")) {
		static char big[100000];
		MPI_Request r, r6, r7;
		int y = 0;
		if (rank == 0) {
			MPI_Isend(big, (int)sizeof big, MPI_CHAR, 1, 9, MPI_COMM_WORLD, &r);
			vl_compute(1e-2);
			MPI_Test(&r, &flag, &st);
			printf("test %d at %lld\n", flag, (long long)vl_time_ns());
			fflush(stdout);
			MPI_Send(&x, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);
			MPI_Send(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
			MPI_Send(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
			if (!flag)
				MPI_Wait(&r, &st);
		} else if (rank == 1) {
			MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r7);
			MPI_Irecv(&y, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r6);
			MPI_Recv(&x, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &st);
			MPI_Recv(big, (int)sizeof big, MPI_CHAR, 0, 9, MPI_COMM_WORLD, &st);
			MPI_Wait(&r6, &st);
			MPI_Wait(&r7, &st);
		}
	} else if (!strcmp(mode, "answer")) {
		static char big[100000];
		MPI_Request r;
		if (rank == 0) {
			MPI_Isend(big, (int)sizeof big, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &r);
			vl_compute(1e-2);
			MPI_Test(&r, &flag, &st);
			printf("test %d at %lld\n", flag, (long long)vl_time_ns());
			if (!flag)
				MPI_Wait(&r, &st);
		} else if (rank == 1) {
			MPI_Irecv(big, (int)sizeof big, MPI_CHAR, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
				  &r);
			MPI_Recv(&x, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &st);
			MPI_Wait(&r, &st);
		} else if (rank == 2) {
			real_sleep(300);
			vl_compute(1.0);
			MPI_Send(&rank, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
		}
	} else if (!strcmp(mode, "deadlock")) {
		if (rank < 2)
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
	} else if (!strcmp(mode, "named") || !strcmp(mode, "persist")) {
		if (rank == 2) {
			real_sleep(200);
			MPI_Send(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
		} else if (rank == 1) {
			vl_compute(1e-3);
			MPI_Send(&rank, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
		} else if (rank == 0 && !strcmp(mode, "persist")) {
			MPI_Request r;
			int c = 0, i;
			MPI_Recv_init(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &r);
			MPI_Start(&r);
			MPI_Cancel(&r);
			MPI_Wait(&r, &st);
			MPI_Test_cancelled(&st, &c);
			printf("cancelled %d\n", c);
			for (i = 0; i < 2; i++) {
				MPI_Start(&r);
				MPI_Wait(&r, &st);
				printf("got %d from %d at %lld\n", x, st.MPI_SOURCE,
				       (long long)vl_time_ns());
			}
			MPI_Request_free(&r);
			printf("freed %d\n", r == MPI_REQUEST_NULL);
		} else if (rank == 0) {
			MPI_Recv(&x, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &st);
			printf("named %d at %lld\n", x, (long long)vl_time_ns());
			MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &st);
			printf("any %d at %lld\n", x, (long long)vl_time_ns());
		}
	}
	fflush(stdout);
	MPI_Finalize();
	return 0;
}
