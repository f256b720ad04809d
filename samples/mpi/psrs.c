/* psrs.c - Parallel Sorting by Regular Sampling (Li et al., Parallel Computing
 * 19, 1993) as the BSPWB/MPM paper writes it with MPI collectives (Roda et al.,
 * Concurrency: Pract. Exper. 11(9), 1999, section 4.2 and its figure 8;
 * ../../shared/reference/003-bspwb-mpm-models.txt).
 *
 * usage: mpirun -np P psrs [-n N] [-c coll|p2p]
 *   -n N     number of integers to sort (default 262144)
 *   -c MODE  coll (default): each M-step's communication is the paper's MPI
 *            collective (Scatterv, Gather, Bcast, Alltoall, Alltoallv, Gather,
 *            Gatherv); p2p: the same patterns as point-to-point messages (the
 *            root sends or receives in rank order; in the all-to-all steps each
 *            rank posts MPI_Isend to every other rank, then receives from each),
 *            so every h-relation is visible as messages in the trace.
 * Rank 0 generates A (pseudo-random 31-bit integers) and the 7 M-steps follow:
 *   1 rank 0 scatters A in blocks of N/P
 *   2 each rank sorts its block (qsort) and takes P regular samples (at
 *     positions k n_local / P); rank 0 gathers the P^2 samples
 *   3 rank 0 sorts the samples, picks the P - 1 pivots (samples k P + P/2 - 1
 *     counted from 0, k = 1 .. P-1, as Li et al.) and broadcasts them
 *   4 each rank cuts its block at the pivots (binary search) and the P x P
 *     fragment sizes are exchanged all-to-all
 *   5 the fragments are exchanged all-to-all (fragment j goes to rank j)
 *   6 each rank merges its P sorted fragments; rank 0 gathers the sizes
 *   7 rank 0 gathers the sorted pieces into A.
 * Rank 0 prints one line, e.g.
 *   psrs: n=262144 p=4 mode=coll time=0.034567890 s checksum=1234567890123 check=ok
 * time = MPI_Wtime from after a barrier to A sorted at rank 0 (virtual under
 * vlayer); checksum = sum over i of A[i] (i mod 1000 + 1) mod 2^64 of the sorted
 * array, the same for every P; check = A equals qsort of the input (not timed).
 *
 * Model (003, formulas 19-25; B .. J computational constants, g and L the BSPWB
 * gap and latency, h in integers; n = N/P):
 *   M1: w = 0,                         h = (P-1) n        (scatter)
 *   M2: w = B n log n + C P,           h = P (P-1)        (gather samples)
 *   M3: w = D P^2 + E (P-1),           h = (P-1)(P-1)     (bcast pivots)
 *   M4: w = F (P-1) log n,             h = 2 (P-1)        (alltoall sizes)
 *   M5: w = H (P-1),                   h = 2 (P-1) n/P    (alltoallv data, expected)
 *   M6: w = I n,                       h = P-1            (gather sizes)
 *   M7: w = J (P-1),                   h = (P-1) n        (gatherv)
 *   T_s = T_(s-1) + w_s + g h_s + L (BSPWB, formula 5)
 * -c p2p: messages = (P-1) (2P + 5): P-1 in each of M1, M2, M3, M6, M7 and
 * P (P-1) in each of M4, M5 (empty fragments are sent too).  -c coll: no
 * point-to-point messages; 8 collective operations per rank (a barrier and
 * one per M-step).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: mpirun -np P psrs [-n N] [-c coll|p2p]\n"
	        "Parallel Sorting by Regular Sampling of N integers (default 262144) in the\n"
	        "7 M-steps of the BSPWB paper, with MPI collectives (coll, default) or the same\n"
	        "patterns as point-to-point messages (p2p).  Rank 0 prints the time\n"
	        "(MPI_Wtime), a checksum and whether the result equals a sequential sort.\n");
}

/* 0 ok, 1 --help, 2 bad usage */
static int parse(int argc, char **argv, int rank, long *n, int *p2p)
{
	int i;
	char *end;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if (!rank)
				usage(stdout);
			return 1;
		}
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > (1L << 28))
				goto bad;
			*n = v;
		} else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "coll") && strcmp(argv[i], "p2p"))
				goto bad;
			*p2p = !strcmp(argv[i], "p2p");
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	if (!rank)
		fprintf(stderr, "psrs: bad argument '%s' (see --help)\n", argv[i]);
	return 2;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* ---- the communication of each pattern, as a collective or as messages ---- */
static int np, rank, p2p;
#define TAG 7

/* root 0 sends blocks (counts, displs) of buf; each gets its own into out */
static void scatterv(const int *buf, const int *counts, const int *displs, int *out, int cnt)
{
	int r;
	if (!p2p) {
		MPI_Scatterv(buf, counts, displs, MPI_INT, out, cnt, MPI_INT, 0, MPI_COMM_WORLD);
		return;
	}
	if (rank) {
		MPI_Recv(out, cnt, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return;
	}
	memcpy(out, buf, sizeof(int) * (size_t)cnt);
	for (r = 1; r < np; r++)
		MPI_Send(buf + displs[r], counts[r], MPI_INT, r, TAG, MPI_COMM_WORLD);
}

/* root 0 receives cnt_r ints of each rank r at displs[r] (counts only at root) */
static void gatherv(const int *in, int cnt, int *buf, const int *counts, const int *displs)
{
	int r;
	if (!p2p) {
		MPI_Gatherv(in, cnt, MPI_INT, buf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
		return;
	}
	if (rank) {
		MPI_Send(in, cnt, MPI_INT, 0, TAG, MPI_COMM_WORLD);
		return;
	}
	memcpy(buf + displs[0], in, sizeof(int) * (size_t)cnt);
	for (r = 1; r < np; r++)
		MPI_Recv(buf + displs[r], counts[r], MPI_INT, r, TAG, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
}

/* the same count from every rank (MPI_Gather) */
static void gather(const int *in, int cnt, int *buf)
{
	int *counts, *displs, r;
	if (!p2p) {
		MPI_Gather(in, cnt, MPI_INT, buf, cnt, MPI_INT, 0, MPI_COMM_WORLD);
		return;
	}
	counts = malloc(sizeof(int) * (size_t)np);
	displs = malloc(sizeof(int) * (size_t)np);
	for (r = 0; r < np; r++) {
		counts[r] = cnt;
		displs[r] = r * cnt;
	}
	gatherv(in, cnt, buf, counts, displs);
	free(counts);
	free(displs);
}

static void bcast(int *buf, int cnt)
{
	int r;
	if (!p2p) {
		MPI_Bcast(buf, cnt, MPI_INT, 0, MPI_COMM_WORLD);
		return;
	}
	if (rank) {
		MPI_Recv(buf, cnt, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		return;
	}
	for (r = 1; r < np; r++)
		MPI_Send(buf, cnt, MPI_INT, r, TAG, MPI_COMM_WORLD);
}

/* personalised all-to-all: block r of out (sc[r] ints at sd[r]) goes to rank r,
 * whose block from this rank lands at rd[rank] in its in (rc[rank] ints) */
static void alltoallv(const int *out, const int *sc, const int *sd, int *in, const int *rc,
                      const int *rd)
{
	MPI_Request *req;
	int k, r;
	if (!p2p) {
		MPI_Alltoallv(out, sc, sd, MPI_INT, in, rc, rd, MPI_INT, MPI_COMM_WORLD);
		return;
	}
	req = malloc(sizeof(MPI_Request) * (size_t)np);
	for (k = 1; k < np; k++) {
		r = (rank + k) % np;
		MPI_Isend(out + sd[r], sc[r], MPI_INT, r, TAG, MPI_COMM_WORLD, &req[k - 1]);
	}
	memcpy(in + rd[rank], out + sd[rank], sizeof(int) * (size_t)sc[rank]);
	for (k = 1; k < np; k++) {
		r = (rank - k + np) % np;
		MPI_Recv(in + rd[r], rc[r], MPI_INT, r, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Waitall(np - 1, req, MPI_STATUSES_IGNORE);
	free(req);
}

/* one int to and from every rank (MPI_Alltoall) */
static void alltoall1(const int *out, int *in)
{
	int *ones, *idx, r;
	if (!p2p) {
		MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
		return;
	}
	ones = malloc(sizeof(int) * (size_t)np);
	idx = malloc(sizeof(int) * (size_t)np);
	for (r = 0; r < np; r++) {
		ones[r] = 1;
		idx[r] = r;
	}
	alltoallv(out, ones, idx, in, ones, idx);
	free(ones);
	free(idx);
}

/* ---- the local steps ---- */

/* number of elements of the sorted x[0..n) that are <= v */
static int upper(const int *x, int n, int v)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (x[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* merge the np sorted runs (counts, displs) of in into out */
static void merge_runs(const int *in, const int *counts, const int *displs, int *out, int total)
{
	int *pos = calloc((size_t)np, sizeof(int)), k, r, best;
	for (k = 0; k < total; k++) {
		best = -1;
		for (r = 0; r < np; r++)
			if (pos[r] < counts[r] &&
			    (best < 0 || in[displs[r] + pos[r]] < in[displs[best] + pos[best]]))
				best = r;
		out[k] = in[displs[best] + pos[best]++];
	}
	free(pos);
}

static void prefix(const int *counts, int *displs)
{
	int r;
	displs[0] = 0;
	for (r = 1; r < np; r++)
		displs[r] = displs[r - 1] + counts[r - 1];
}

/* PSRS of a (n ints, significant at rank 0 only): sorted into a at rank 0 */
static void psrs(int *a, long n)
{
	int *cnt = malloc(sizeof(int) * (size_t)np), *dsp = malloc(sizeof(int) * (size_t)np);
	int *scnt = malloc(sizeof(int) * (size_t)np), *sdsp = malloc(sizeof(int) * (size_t)np);
	int *rcnt = malloc(sizeof(int) * (size_t)np), *rdsp = malloc(sizeof(int) * (size_t)np);
	int *sample = malloc(sizeof(int) * (size_t)np), *samples = NULL;
	int *piv = malloc(sizeof(int) * (size_t)np), *blk, *frag, *mine, nl, total, r;

	for (r = 0; r < np; r++)
		cnt[r] = (int)(n * (r + 1) / np - n * r / np);
	prefix(cnt, dsp);
	nl = cnt[rank];
	blk = malloc(sizeof(int) * (size_t)(nl + 1));
	/* M1 */
	scatterv(a, cnt, dsp, blk, nl);
	/* M2 */
	qsort(blk, (size_t)nl, sizeof(int), cmp_int);
	for (r = 0; r < np; r++)
		sample[r] = nl ? blk[(long)r * nl / np] : 0;
	if (!rank)
		samples = malloc(sizeof(int) * (size_t)np * (size_t)np);
	gather(sample, np, samples);
	/* M3 */
	if (!rank) {
		qsort(samples, (size_t)np * (size_t)np, sizeof(int), cmp_int);
		for (r = 1; r < np; r++)
			piv[r - 1] = samples[r * np + np / 2 - 1];
	}
	bcast(piv, np - 1);
	/* M4 */
	for (r = 0; r < np; r++)
		sdsp[r] = r ? upper(blk, nl, piv[r - 1]) : 0;
	for (r = 0; r < np; r++)
		scnt[r] = (r + 1 < np ? sdsp[r + 1] : nl) - sdsp[r];
	alltoall1(scnt, rcnt);
	/* M5 */
	prefix(rcnt, rdsp);
	total = rdsp[np - 1] + rcnt[np - 1];
	frag = malloc(sizeof(int) * (size_t)(total + 1));
	mine = malloc(sizeof(int) * (size_t)(total + 1));
	alltoallv(blk, scnt, sdsp, frag, rcnt, rdsp);
	/* M6 */
	merge_runs(frag, rcnt, rdsp, mine, total);
	gather(&total, 1, cnt);
	/* M7 */
	if (!rank)
		prefix(cnt, dsp);
	gatherv(mine, total, a, cnt, dsp);
	free(cnt), free(dsp), free(scnt), free(sdsp), free(rcnt), free(rdsp);
	free(sample), free(samples), free(piv), free(blk), free(frag), free(mine);
}

int main(int argc, char **argv)
{
	int rc, bad = 0, *a = NULL, *ref = NULL;
	long n = 262144, i;
	uint64_t sum = 0, x = 88172645463325252ULL;
	double t0, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rc = parse(argc, argv, rank, &n, &p2p);
	if (rc) {
		MPI_Finalize();
		return rc == 1 ? 0 : 2;
	}
	if (!rank) {
		a = malloc(sizeof(int) * (size_t)n);
		ref = malloc(sizeof(int) * (size_t)n);
		for (i = 0; i < n; i++) { /* xorshift64 */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			a[i] = ref[i] = (int)(x >> 33);
		}
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	psrs(a, n);
	t = MPI_Wtime() - t0;
	if (!rank) {
		qsort(ref, (size_t)n, sizeof(int), cmp_int);
		for (i = 0; i < n; i++) {
			bad += a[i] != ref[i];
			sum += (uint64_t)a[i] * (uint64_t)(i % 1000 + 1);
		}
		printf("psrs: n=%ld p=%d mode=%s time=%.9f s checksum=%llu check=%s\n", n, np,
		       p2p ? "p2p" : "coll", t, (unsigned long long)sum, bad ? "FAILED" : "ok");
		if (bad)
			fprintf(stderr, "psrs: %d elements differ from a sequential sort\n", bad);
	}
	free(a);
	free(ref);
	MPI_Finalize();
	return bad ? 1 : 0;
}
