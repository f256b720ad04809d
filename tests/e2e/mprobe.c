/* mprobe.c - matched probes under the layer (test_mpi.sh).  Rank 1 sends
 * 1 KiB with tag 1, computes 1 ms (vl_compute), sends 1 KiB with tag 2.
 * Rank 0 receives the first with a blocking probe and the second by polling,
 * either with matched probes (MODE matched: MPI_Mprobe + MPI_Mrecv, then
 * MPI_Improbe + MPI_Imrecv + MPI_Wait) or plain ones (MODE plain: MPI_Probe +
 * MPI_Recv, MPI_Iprobe + MPI_Irecv + MPI_Wait), and prints its virtual times
 * and the number of polls: both modes must give the same.  Computation is
 * ignored (mpi.ini), so every time has a closed form. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "vlayer.h"

int main(int argc, char **argv)
{
	static char buf[1024];
	int rank, matched = argc > 1 && !strcmp(argv[1], "matched"), flag = 0, polls = 0;
	long long t1, t2;
	MPI_Status st;
	MPI_Request rq;
	MPI_Message m;
	volatile unsigned long spin;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 1) {
		MPI_Send(buf, 1024, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
		vl_compute(0.001);
		MPI_Send(buf, 1024, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
	} else if (rank == 0) {
		if (matched) {
			MPI_Mprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st);
			MPI_Mrecv(buf, 1024, MPI_BYTE, &m, &st);
		} else {
			MPI_Probe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			MPI_Recv(buf, 1024, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
		}
		t1 = vl_time_ns();
		/* let the second message arrive for real (computation is ignored:
		 * this costs no virtual time), so that only virtual time decides */
		for (spin = 0; spin < 300000000UL; spin++)
			;
		while (!flag) {
			polls++;
			if (matched)
				MPI_Improbe(1, 2, MPI_COMM_WORLD, &flag, &m, &st);
			else
				MPI_Iprobe(1, 2, MPI_COMM_WORLD, &flag, &st);
		}
		if (matched)
			MPI_Imrecv(buf, 1024, MPI_BYTE, &m, &rq);
		else
			MPI_Irecv(buf, 1024, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &rq);
		MPI_Wait(&rq, &st);
		t2 = vl_time_ns();
		printf("first %lld ns, polls %d, second %lld ns, tag %d\n", t1, polls, t2, st.MPI_TAG);
	}
	MPI_Finalize();
	return 0;
}
