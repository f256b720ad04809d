/* scalarprod.c - the scalar product (u, v) = sum_k u_k v_k of two vectors of
 * length N, block-distributed over the ranks (Kredel et al., "A simple Concept
 * for the Performance Analysis of Cluster-Computing", ISC'13: the first kernel
 * of the speed-up model, ../../shared/reference/002-kredel-speedup-model.txt).
 *
 * usage: mpirun -np P scalarprod [-n N] [-r tree|reduce|allreduce] [-i ITERS] [-f]
 *   -n N      vector length (default 1000000)
 *   -r ALG    how the P partial sums are combined (default tree):
 *             tree      a binomial tree of point-to-point messages to rank 0:
 *                       in round k (mask = 2^k) rank r with bit k set sends its
 *                       sum to r - 2^k and leaves; P - 1 messages of 8 bytes
 *             reduce    MPI_Reduce to rank 0 ([collectives] reduce times it)
 *             allreduce MPI_Allreduce ([collectives] allreduce times it)
 *   -i ITERS  compute the product ITERS times (default 1)
 *   -f        under vlayer only: each rank also charges its 2 (N/P) operations
 *             at its host's flops rate (vl_compute_flops: the modelled
 *             machine's l_peak, vienna.ini 2.5e8 Flop/s); with compute = ignore
 *             the computation is then exactly #op / (P l_peak), which the
 *             speed-up model assumes (natively: a usage error)
 *
 * Each rank generates its block of u and v from the global index (no data are
 * distributed): u_k = k mod 9 + 1, v_k = k mod 11 - 4.  Every product and every
 * partial sum is an integer below 2^53, so the result is exact for any P and
 * any order of summation.  Rank 0 prints one line, e.g.
 *   scalarprod: n=1000000 p=4 alg=tree iters=1 time=0.000123456 s result=4999991 check=ok
 * time = MPI_Wtime from after a barrier to rank 0 holding the result (virtual
 * time under vlayer); check = the result equals a sequential loop over all N
 * (not timed).  Exit status 1 when it does not, 2 for a usage error.
 *
 * Model parameters (002, slide "Scalar-Product of two Vectors"; w = 8 bytes):
 *   #op = 2N - 1 (~ 2N)         arithmetic operations, per product
 *   #b  = 2N w = 16N bytes      data involved (u and v)
 *   #x  = P w  = 8P bytes       data communicated (the paper's count: one word
 *                               per PU); the tree sends P - 1 messages of w
 *                               bytes: messages = ITERS (P - 1), bytes sent =
 *                               8 ITERS (P - 1) (reduce/allreduce: collective
 *                               operations, no point-to-point messages)
 *   homogeneous distribution: o_k = #op / P, d_k = #b / P; the paper's speed-up
 *   S = (1 + x) / (1 + x / P), x = (#op / #b) (#b / #x) b_c / l_peak, which is
 *   3N / (64P) for its l_peak = 8 GFlop/s, b_c = 1.5 GB/s.
 * Virtual time with computation ignored (compute = ignore) and every rank on its
 * own host (one-way time S + T(b) + R: send, transmission, receive), P a power of
 * two and ITERS = 1: log2(P) (S + T(8) + R) for tree, and for reduce and
 * allreduce with their default algorithms (binomial, recursive doubling).  With
 * ITERS > 1 the products overlap (a leaf of the tree starts the next one at once).
 * With -f on such a machine (every rank on its own host, hosts of FLOPS Flop/s),
 * N divisible by P: 2N/(P FLOPS) + log2(P) (S + T(8) + R) for tree, which is the
 * speed-up model's t(p) = #op/(p l_peak) + #x/b_c plus its missing latency term
 * log2(p) t0 (`vlmodel speedup --t0`), but for #x/b_c (8 log2(P), not 8P, bytes).
 *
 * The time printed is that of the product alone; the generation of the vectors
 * and rank 0's sequential check are not in it (they are in a trace's elapsed
 * time, so S = T(1)/T(P) of the traces is not the kernel's speed-up).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vlayer's, when the program runs under the layer (linked with vlcc, or the
 * native binary under vlrun); NULL natively */
int vl_compute_flops(double flops) __attribute__((weak));

enum { ALG_TREE, ALG_REDUCE, ALG_ALLREDUCE };
static const char *const alg_names[] = {"tree", "reduce", "allreduce"};

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -np P scalarprod [-n N] [-r tree|reduce|allreduce] [-i ITERS] [-f]\n"
	           "The scalar product of two vectors of length N (default 1000000), block-\n"
	           "distributed; the partial sums combined by a binomial tree of sends (tree),\n"
	           "MPI_Reduce or MPI_Allreduce; ITERS times (default 1).  Rank 0 prints the\n"
	           "time (MPI_Wtime), the result and whether it equals a sequential loop.\n"
	           "-f (under vlayer only): charge each rank's operations at its host's flops.\n");
}

/* parse the options; 0 ok, 1 --help, 2 bad usage (message on rank 0) */
static int parse(int argc, char **argv, int rank, long *n, int *alg, int *iters, int *flops)
{
	int i, a;
	char *end;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if (!rank)
				usage(stdout);
			return 1;
		}
		if (!strcmp(argv[i], "-f")) {
			if (!vl_compute_flops) {
				if (!rank)
					fprintf(stderr, "scalarprod: -f needs vlayer (vlcc, vlrun)\n");
				return 2;
			}
			*flops = 1;
			continue;
		}
		if (i + 1 >= argc ||
		    (strcmp(argv[i], "-n") && strcmp(argv[i], "-r") && strcmp(argv[i], "-i")))
			goto bad;
		if (!strcmp(argv[i], "-r")) {
			for (a = 0; a < 3 && strcmp(argv[i + 1], alg_names[a]); a++)
				;
			if (a == 3)
				goto bad;
			*alg = a;
		} else {
			long v = strtol(argv[i + 1], &end, 10);
			if (*end || v < 1 || (argv[i][1] == 'i' && v > 1000000))
				goto bad;
			if (argv[i][1] == 'n')
				*n = v;
			else
				*iters = (int)v;
		}
		i++;
	}
	return 0;
bad:
	if (!rank)
		fprintf(stderr, "scalarprod: bad argument '%s' (see --help)\n", argv[i]);
	return 2;
}

static double u_of(long k)
{
	return (double)(k % 9 + 1);
}
static double v_of(long k)
{
	return (double)(k % 11 - 4);
}

/* the partial sums of all ranks at rank 0 over a binomial tree of sends */
static double tree_sum(double s, int rank, int np)
{
	int mask;
	double o;
	for (mask = 1; mask < np; mask <<= 1) {
		if (rank & mask) {
			MPI_Send(&s, 1, MPI_DOUBLE, rank - mask, 1, MPI_COMM_WORLD);
			break;
		}
		if (rank + mask < np) {
			MPI_Recv(&o, 1, MPI_DOUBLE, rank + mask, 1, MPI_COMM_WORLD,
			         MPI_STATUS_IGNORE);
			s += o;
		}
	}
	return s;
}

int main(int argc, char **argv)
{
	int rank, np, alg = ALG_TREE, iters = 1, it, rc, bad = 0, flops = 0;
	long n = 1000000, lo, hi, k;
	double *u, *v, s, sum = 0, ref = 0, t0, t;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rc = parse(argc, argv, rank, &n, &alg, &iters, &flops);
	if (rc) {
		MPI_Finalize();
		return rc == 1 ? 0 : 2;
	}
	lo = n * rank / np;
	hi = n * (rank + 1) / np;
	u = malloc(sizeof(double) * (size_t)(hi - lo + 1));
	v = malloc(sizeof(double) * (size_t)(hi - lo + 1));
	for (k = lo; k < hi; k++) {
		u[k - lo] = u_of(k);
		v[k - lo] = v_of(k);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	for (it = 0; it < iters; it++) {
		s = 0;
		for (k = 0; k < hi - lo; k++)
			s += u[k] * v[k];
		if (flops && vl_compute_flops(2.0 * (double)(hi - lo)) < 0) {
			fprintf(stderr, "scalarprod: rank %d: -f: the host has no flops rate\n", rank);
			MPI_Abort(MPI_COMM_WORLD, 2);
		}
		if (alg == ALG_TREE)
			sum = tree_sum(s, rank, np);
		else if (alg == ALG_REDUCE)
			MPI_Reduce(&s, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		else
			MPI_Allreduce(&s, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	t = MPI_Wtime() - t0;
	if (rank == 0) {
		for (k = 0; k < n; k++)
			ref += u_of(k) * v_of(k);
		bad = sum != ref;
		printf("scalarprod: n=%ld p=%d alg=%s iters=%d time=%.9f s result=%.0f check=%s\n",
		       n, np, alg_names[alg], iters, t, sum, bad ? "FAILED" : "ok");
		if (bad)
			fprintf(stderr, "scalarprod: result %.0f, sequential %.0f\n", sum, ref);
	}
	free(u);
	free(v);
	MPI_Finalize();
	return bad;
}
