/* cannon.c - Cannon's algorithm: C = A B for N x N matrices on a q x q grid of
 * ranks (Kredel et al., ISC'13, the matrix multiplication kernel of the speed-up
 * model, ../../shared/reference/002-kredel-speedup-model.txt).
 *
 * usage: mpirun -np P cannon [-n N] [-a]
 *   -n N   matrix order (default 240; a multiple of q)
 *   -a     start from the plain block distribution and align (skew) with
 *          messages: row i of A shifted left by i, column j of B up by j.
 *          Without -a each rank generates its blocks already aligned (the
 *          paper's #x counts the shifts only).
 * q = floor(sqrt(P)); ranks q*q .. P-1 take no part (they only join the final
 * reductions).  Rank (i, j) = i q + j holds the (N/q) x (N/q) blocks
 * A(i, i+j mod q) and B(i+j mod q, j); q times it multiplies them into its
 * C(i, j) and, between two of these, shifts A one rank left and B one rank up
 * (two MPI_Sendrecv_replace): q - 1 shifts.
 *
 * A(i,k) = (7i + 3k) mod 11 - 5 and B(k,j) = (5k + 2j) mod 13 - 6 are small
 * integers, so C is exact in any order.  Rank 0 prints one line, e.g.
 *   cannon: n=240 p=4 grid=2x2 align=0 time=0.012345678 s checksum=123456789 check=ok
 * time = MPI_Wtime from after a barrier to the last multiplication of rank 0
 * (virtual under vlayer); checksum = sum over C of C(i,j) ((i n + j) mod 1000 + 1),
 * the same for every P; check = every rank's C block equals a sequential
 * product of the same block (not timed).  Exit status 1 when it does not.
 *
 * Model parameters (002, slide "Matrix Multiplication"; w = 8 bytes, q = sqrt P):
 *   #op = 2N^3 - N^2 (~ 2N^3)          operations
 *   #b  = 2N^2 w = 16 N^2 bytes        data involved (A and B)
 *   #x  = 2N^2 sqrt(P) (1 - 1/sqrt(P)) w = 2 N^2 (q - 1) w bytes communicated:
 *         q - 1 shifts, in each every rank sends two blocks of (N/q)^2 w bytes
 *   messages = 2P (q - 1) = 2q^2 (q - 1), each of 8 (N/q)^2 bytes
 *   with -a, the alignment adds 2q (q - 1) messages (rows i > 0 of A, columns
 *   j > 0 of B) and 2N^2 (q - 1)/q w bytes
 *   computation per rank o_k = #op / P: q block products of 2 (N/q)^3 flops.
 * Virtual time with computation ignored, each rank on its own host (one-way
 * time S + T(b) + R) and every message eager (below eager_limit), without -a:
 *   2 (q - 1) (S + T(8 (N/q)^2) + R)  (each shift: a Sendrecv_replace of A,
 *   then one of B, all ranks in step).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double a_of(int i, int k)
{
	return (double)((7 * i + 3 * k) % 11 - 5);
}
static double b_of(int k, int j)
{
	return (double)((5 * k + 2 * j) % 13 - 6);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -np P cannon [-n N] [-a]\n"
	           "Cannon's matrix multiplication of two N x N matrices (default N = 240) on a\n"
	           "q x q grid, q = floor(sqrt(P)), N a multiple of q; -a aligns the blocks with\n"
	           "messages instead of generating them aligned.  Rank 0 prints the time\n"
	           "(MPI_Wtime), a checksum of C and whether every block is right.\n");
}

/* 0 ok, 1 --help, 2 bad usage */
static int parse(int argc, char **argv, int rank, int *n, int *align)
{
	int i;
	char *end;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			if (!rank)
				usage(stdout);
			return 1;
		}
		if (!strcmp(argv[i], "-a")) {
			*align = 1;
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			long v = strtol(argv[++i], &end, 10);
			if (*end || v < 1 || v > 20000)
				goto bad;
			*n = (int)v;
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	if (!rank)
		fprintf(stderr, "cannon: bad argument '%s' (see --help)\n", argv[i]);
	return 2;
}

/* fill the m x m block (bi, bj) of the matrix given by f */
static void gen_block(double *x, int m, int bi, int bj, double (*f)(int, int))
{
	int r, c;
	for (r = 0; r < m; r++)
		for (c = 0; c < m; c++)
			x[r * m + c] = f(bi * m + r, bj * m + c);
}

/* c += a b for m x m blocks */
static void block_mul(double *c, const double *a, const double *b, int m)
{
	int i, j, k;
	for (i = 0; i < m; i++)
		for (k = 0; k < m; k++) {
			double aik = a[i * m + k];
			const double *bk = b + (size_t)k * m;
			double *ci = c + (size_t)i * m;
			for (j = 0; j < m; j++)
				ci[j] += aik * bk[j];
		}
}

/* shift x by d ranks along the grid row (dim 1) or column (dim 0), towards
 * lower indices: send to index - d, receive from index + d (mod q) */
static void shift(double *x, int m, int q, int i, int j, int dim, int d, MPI_Comm grid)
{
	int to, from;
	if (dim == 1) {
		to = i * q + (j - d + q) % q;
		from = i * q + (j + d) % q;
	} else {
		to = ((i - d + q) % q) * q + j;
		from = ((i + d) % q) * q + j;
	}
	MPI_Sendrecv_replace(x, m * m, MPI_DOUBLE, to, dim, from, dim, grid, MPI_STATUS_IGNORE);
}

/* Cannon on the q x q grid; c (m x m, zeroed) gets C(i, j) */
static void cannon(double *a, double *b, double *c, int m, int q, int i, int j, int align,
                   MPI_Comm grid)
{
	int s;
	if (align) {
		if (i % q)
			shift(a, m, q, i, j, 1, i, grid);
		if (j % q)
			shift(b, m, q, i, j, 0, j, grid);
	}
	for (s = 0; s < q; s++) {
		block_mul(c, a, b, m);
		if (s + 1 < q) {
			shift(a, m, q, i, j, 1, 1, grid);
			shift(b, m, q, i, j, 0, 1, grid);
		}
	}
}

/* compare c with the sequentially computed block C(i, j); adds this block's
 * weighted sum to *sum; returns the number of wrong elements */
static long verify(const double *c, int n, int m, int i, int j, int64_t *sum)
{
	long bad = 0;
	int r, col, k;
	for (r = 0; r < m; r++)
		for (col = 0; col < m; col++) {
			int gi = i * m + r, gj = j * m + col;
			double ref = 0;
			for (k = 0; k < n; k++)
				ref += a_of(gi, k) * b_of(k, gj);
			bad += c[r * m + col] != ref;
			*sum += (int64_t)c[r * m + col] * (((int64_t)gi * n + gj) % 1000 + 1);
		}
	return bad;
}

int main(int argc, char **argv)
{
	int rank, np, n = 240, align = 0, q, m, i = 0, j = 0, in_grid, rc;
	long bad = 0, allbad = 0;
	int64_t sum = 0, allsum = 0;
	double *a = NULL, *b = NULL, *c = NULL, t0, t = 0;
	MPI_Comm grid;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rc = parse(argc, argv, rank, &n, &align);
	for (q = 1; (q + 1) * (q + 1) <= np; q++)
		;
	if (!rc && n % q) {
		if (!rank)
			fprintf(stderr, "cannon: N = %d is not a multiple of the grid size %d\n", n,
			        q);
		rc = 2;
	}
	if (rc) {
		MPI_Finalize();
		return rc == 1 ? 0 : 2;
	}
	m = n / q;
	in_grid = rank < q * q;
	MPI_Comm_split(MPI_COMM_WORLD, in_grid ? 0 : MPI_UNDEFINED, rank, &grid);
	if (in_grid) {
		size_t sz = sizeof(double) * (size_t)m * (size_t)m;
		i = rank / q;
		j = rank % q;
		a = malloc(sz);
		b = malloc(sz);
		c = calloc(1, sz);
		gen_block(a, m, i, align ? j : (i + j) % q, a_of);
		gen_block(b, m, align ? i : (i + j) % q, j, b_of);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (in_grid)
		cannon(a, b, c, m, q, i, j, align, grid);
	t = MPI_Wtime() - t0;
	if (in_grid)
		bad = verify(c, n, m, i, j, &sum);
	MPI_Reduce(&bad, &allbad, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&sum, &allsum, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("cannon: n=%d p=%d grid=%dx%d align=%d time=%.9f s checksum=%lld check=%s\n",
		       n, np, q, q, align, t, (long long)allsum, allbad ? "FAILED" : "ok");
	if (rank == 0 && allbad)
		fprintf(stderr, "cannon: %ld elements of C wrong\n", allbad);
	if (in_grid)
		MPI_Comm_free(&grid);
	free(a);
	free(b);
	free(c);
	MPI_Finalize();
	return allbad ? 1 : 0;
}
