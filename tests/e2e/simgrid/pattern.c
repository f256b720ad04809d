/* pattern.c - message patterns whose times on a shared network have closed
 * forms (tests/e2e/test_simgrid.sh replays them on the VMConfig's
 * [topology] with SimGrid).  Usage: pattern MODE BYTES [DST]
 *   fanout:   rank 0 starts a send to every other rank at once (Isend, Waitall)
 *   exchange: ranks 2i and 2i+1 send to each other at once
 *   pairs:    rank 2i sends to rank 2i+1
 *   route:    rank 0 sends to rank DST
 *   fanin:    every other rank sends to rank 0 at once; rank 0 takes them
 *             with MPI_ANY_SOURCE
 *   waitany:  the same, rank 0 taking each with MPI_Irecv(MPI_ANY_SOURCE) and
 *             MPI_Waitany
 *   ring:     every rank sends to the next and receives from the previous
 *             (MPI_Sendrecv)
 *   gather:   every other rank sends to rank 0 at once (MPI_Send); rank 0 posts
 *             a receive from each by name (MPI_Irecv, MPI_Waitall)
 *   stream:   rank 0 sends 3 messages to rank 1 (MPI_Send), which receives them
 *             one after the other by name (MPI_Recv)
 *   fire:     the same with MPI_Isend and MPI_Request_free
 *   testall:  rank 0 starts a send to rank 1 (MPI_Isend), computes 2 ms
 *             (vl_compute), waits 0.3 s in real time (rank 1 has the data
 *             and waits for the next message by then), tests the send with
 *             MPI_Testall until it is done, then sends rank 1 4 bytes; rank
 *             1 receives both by name
 *   cross:    rank 0 sends to rank 1, which first waits for a message from
 *             rank 2 (MPI_Irecv, MPI_Wait) and only then receives rank 0's;
 *             rank 2 sends to rank 3, then to rank 1
 *   collp2p:  rank 0 starts a send to rank 1 (MPI_Isend), rank 1 posts its
 *             receive (MPI_Irecv); then both broadcast from rank 0
 *             (MPI_Bcast on MPI_COMM_WORLD) and wait for the send and receive
 *   twobcast: ranks 2i and 2i+1 form a communicator (MPI_Comm_split) and
 *             broadcast from 2i in it, all pairs at once
 *   icollp2p: collp2p with MPI_Ibcast, one MPI_Waitall for all requests
 *   iwaitany: the same, the requests taken one by one with MPI_Waitany
 *   itest:    the same, each rank testing its MPI_Ibcast (MPI_Test) every
 *             100 us of vl_compute until it is done, then MPI_Waitall
 *   itwobcast: twobcast with MPI_Ibcast and MPI_Wait
 *   ilate:    rank 0 starts a broadcast (MPI_Ibcast), computes 1 ms
 *             (vl_compute), sends to rank 1 (MPI_Send), then waits for the
 *             broadcast; rank 1 computes 0.5 ms, starts the broadcast,
 *             receives rank 0's message, then waits for the broadcast;
 *             rank DST first spins 0.2 s of real time (so that the other
 *             gets ahead of it in real time)
 *   wildrdv:  rank 1 sends to rank 0 (MPI_Send), which takes it with
 *             MPI_Recv(MPI_ANY_SOURCE); at the same time rank 2 sends to rank 3
 *             (MPI_Send, MPI_Recv by name)
 *   iwildrdv: the same, rank 0 taking it with MPI_Irecv(MPI_ANY_SOURCE) and
 *             MPI_Wait
 *   iwildhold: rank 0 posts MPI_Irecv(MPI_ANY_SOURCE, tag 1), then receives
 *             rank 2's message (tag 2) by name with MPI_Recv, then waits for
 *             the first; rank 1 sends it tag 1 at the same time (MPI_Send)
 *   twopairs: DST rounds in which ranks 0 and 2 exchange BYTES, ranks 1 and 3
 *             BYTES / 2 (as LAMMPS's halo exchanges: MPI_Irecv from the
 *             partner, MPI_Send to it, MPI_Wait), so that a pair's next
 *             messages leave while the other's are on the links
 *   cyclewild: ranks 1 and 3 exchange BYTES (Irecv, Send, Wait), then rank 1
 *             sends rank 0 4 bytes; rank 2 computes 0.1 s (vl_compute) and
 *             sends rank 0 4 bytes; rank 0 takes both with
 *             MPI_Recv(MPI_ANY_SOURCE) and prints "W 0 first SRC"
 * Each rank prints "T RANK end NS" (its virtual time at the end). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vlayer.h>
#include "../spin_real.h"

int main(int argc, char **argv)
{
	int rank, np, n, i, nr = 0, dst;
	const char *mode;
	char *b, *c;
	MPI_Request *rq;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc < 3) {
		if (rank == 0)
			fprintf(stderr, "usage: pattern fanout|exchange|pairs|route|fanin|waitany|ring|gather|stream|fire|cross|testall|collp2p|twobcast|icollp2p|iwaitany|itest|itwobcast|ilate|wildrdv|iwildrdv|iwildhold|twopairs|cyclewild BYTES [DST]\n");
		MPI_Finalize();
		return 2;
	}
	mode = argv[1];
	n = atoi(argv[2]);
	dst = argc > 3 ? atoi(argv[3]) : 1;
	b = calloc((size_t)n + 1, 1);
	c = calloc((size_t)n + 1, 1);
	rq = calloc((size_t)np * 2, sizeof *rq);
	if (!strcmp(mode, "fanout")) {
		if (rank == 0) {
			for (i = 1; i < np; i++)
				MPI_Isend(b, n, MPI_BYTE, i, 1, MPI_COMM_WORLD, &rq[nr++]);
			MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
		} else {
			MPI_Recv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "exchange")) {
		int peer = rank ^ 1;

		if (peer < np) {
			MPI_Irecv(c, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &rq[nr++]);
			MPI_Isend(b, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &rq[nr++]);
			MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
		}
	} else if (!strcmp(mode, "pairs")) {
		if (rank % 2 == 0 && rank + 1 < np)
			MPI_Send(b, n, MPI_BYTE, rank + 1, 1, MPI_COMM_WORLD);
		else if (rank % 2 == 1)
			MPI_Recv(c, n, MPI_BYTE, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (!strcmp(mode, "fanin")) {
		if (rank == 0)
			for (i = 1; i < np; i++)
				MPI_Recv(c, n, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
		else
			MPI_Send(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
	} else if (!strcmp(mode, "wildrdv")) {
		if (rank == 0)
			MPI_Recv(c, n, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else if (rank == 1)
			MPI_Send(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		else if (rank == 2)
			MPI_Send(b, n, MPI_BYTE, 3, 1, MPI_COMM_WORLD);
		else if (rank == 3)
			MPI_Recv(c, n, MPI_BYTE, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (!strcmp(mode, "iwildrdv") || !strcmp(mode, "iwildhold")) {
		int hold = mode[5] == 'h';
		if (rank == 0) {
			MPI_Irecv(c, n, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &rq[0]);
			if (hold)
				MPI_Recv(b, n, MPI_BYTE, 2, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Send(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		} else if (rank == 2) {
			MPI_Send(b, n, MPI_BYTE, hold ? 0 : 3, hold ? 2 : 1, MPI_COMM_WORLD);
		} else if (rank == 3 && !hold) {
			MPI_Recv(c, n, MPI_BYTE, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "waitany")) {
		if (rank == 0) {
			for (i = 1; i < np; i++) {
				int k;
				MPI_Irecv(c, n, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &rq[0]);
				MPI_Waitany(1, rq, &k, MPI_STATUS_IGNORE);
			}
		} else {
			MPI_Send(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		}
	} else if (!strcmp(mode, "gather")) {
		if (rank == 0) {
			c = realloc(c, (size_t)n * (size_t)np + 1);
			for (i = 1; i < np; i++)
				MPI_Irecv(c + (size_t)n * (size_t)i, n, MPI_BYTE, i, 1, MPI_COMM_WORLD,
					  &rq[nr++]);
			MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
		} else {
			MPI_Send(b, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		}
	} else if (!strcmp(mode, "stream") || !strcmp(mode, "fire")) {
		for (i = 0; i < 3; i++) {
			if (rank == 0 && mode[0] == 's') {
				MPI_Send(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
			} else if (rank == 0) {
				MPI_Request r;
				MPI_Isend(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r);
				MPI_Request_free(&r);
			} else if (rank == 1) {
				MPI_Recv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			}
		}
	} else if (!strcmp(mode, "testall")) {
		if (rank == 0) {
			int f = 0;
			MPI_Isend(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq[0]);
			vl_compute(0.002);
			spin_real(0.3);
			while (!f)
				MPI_Testall(1, rq, &f, MPI_STATUSES_IGNORE);
			MPI_Send(b, 4, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Recv(c, 4, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "cross") && np >= 4) {
		if (rank == 0) {
			MPI_Send(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Irecv(c, n, MPI_BYTE, 2, 2, MPI_COMM_WORLD, &rq[0]);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
			MPI_Recv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 2) {
			MPI_Send(b, n, MPI_BYTE, 3, 3, MPI_COMM_WORLD);
			MPI_Send(b, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
		} else if (rank == 3) {
			MPI_Recv(c, n, MPI_BYTE, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "collp2p")) {
		if (rank == 0)
			MPI_Isend(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq[nr++]);
		else if (rank == 1)
			MPI_Irecv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq[nr++]);
		MPI_Bcast(rank == 0 ? b : c, n, MPI_BYTE, 0, MPI_COMM_WORLD);
		MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
	} else if (!strcmp(mode, "icollp2p") || !strcmp(mode, "iwaitany") ||
		   !strcmp(mode, "itest")) {
		char *d = calloc((size_t)n + 1, 1);
		int flag = 0, k;

		if (rank == 0)
			MPI_Isend(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &rq[nr++]);
		else if (rank == 1)
			MPI_Irecv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &rq[nr++]);
		MPI_Ibcast(rank == 0 ? b : d, n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq[nr++]);
		if (!strcmp(mode, "iwaitany")) {
			for (i = 0; i < nr; i++)
				MPI_Waitany(nr, rq, &k, MPI_STATUS_IGNORE);
		} else {
			while (!strcmp(mode, "itest") && !flag) {
				vl_compute(0.0001);
				MPI_Test(&rq[nr - 1], &flag, MPI_STATUS_IGNORE);
			}
			MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
		}
		free(d);
	} else if (!strcmp(mode, "ilate") && np == 2) {
		if (rank == dst)
			spin_real(0.2);
		vl_compute(rank == 0 ? 0 : 0.0005);
		MPI_Ibcast(rank == 0 ? b : c, n, MPI_BYTE, 0, MPI_COMM_WORLD, &rq[0]);
		if (rank == 0) {
			vl_compute(0.001);
			MPI_Send(b, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
		} else {
			char *d = calloc((size_t)n + 1, 1);

			MPI_Recv(d, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			free(d);
		}
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
	} else if (!strcmp(mode, "itwobcast")) {
		MPI_Comm pair;

		MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
		MPI_Ibcast(rank % 2 ? c : b, n, MPI_BYTE, 0, pair, &rq[0]);
		MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		MPI_Comm_free(&pair);
	} else if (!strcmp(mode, "twobcast")) {
		MPI_Comm pair;

		MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &pair);
		MPI_Bcast(rank % 2 ? c : b, n, MPI_BYTE, 0, pair);
		MPI_Comm_free(&pair);
	} else if (!strcmp(mode, "twopairs") && np == 4) {
		int peer = rank ^ 2, m = rank % 2 ? n / 2 : n;

		for (i = 0; i < dst; i++) {
			MPI_Irecv(c, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &rq[0]);
			MPI_Send(b, m, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
		}
	} else if (!strcmp(mode, "cyclewild") && np == 4) {
		if (rank == 0) {
			MPI_Status st;

			MPI_Recv(c, 4, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
			printf("W 0 first %d\n", st.MPI_SOURCE);
			MPI_Recv(c, 4, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
		} else if (rank == 2) {
			vl_compute(0.1);
			MPI_Send(b, 4, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		} else {
			MPI_Irecv(c, n, MPI_BYTE, rank ^ 2, 2, MPI_COMM_WORLD, &rq[0]);
			MPI_Send(b, n, MPI_BYTE, rank ^ 2, 2, MPI_COMM_WORLD);
			MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
			if (rank == 1)
				MPI_Send(b, 4, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		}
	} else if (!strcmp(mode, "ring")) {
		MPI_Sendrecv(b, n, MPI_BYTE, (rank + 1) % np, 1, c, n, MPI_BYTE, (rank + np - 1) % np,
			     1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (!strcmp(mode, "route")) {
		if (rank == 0 && dst > 0 && dst < np)
			MPI_Send(b, n, MPI_BYTE, dst, 1, MPI_COMM_WORLD);
		else if (rank == dst)
			MPI_Recv(c, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	printf("T %d end %lld\n", rank, (long long)vl_time_ns());
	free(b);
	free(c);
	free(rq);
	MPI_Finalize();
	return 0;
}
