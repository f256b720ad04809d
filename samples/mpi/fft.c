/* fft.c - the parallel radix-2 FFT of the BSPWB/MPM paper (Roda, Rodriguez,
 * Morales, Almeida, "Predicting the execution time of message passing models",
 * Concurrency: Pract. Exper. 11(9), 1999, section 4.1 and its figure 7;
 * ../../shared/reference/003-bspwb-mpm-models.txt).
 *
 * usage: mpirun -np P fft [-n N]
 *   -n N   transform length, a power of two (default 65536 complex numbers)
 * The algorithm runs on p = the largest power of two <= min(P, N) ranks; the
 * others take no part.  Every rank holds a copy of the input A (generated from
 * the index).  Rank NAME takes the subsequence A[s + p k], k = 0 .. N/p - 1,
 * s = NAME with its log2(p) bits reversed (the odd-even division tree of the
 * decimation in time), and transforms it sequentially (recursive radix-2).
 * Then the combination: for i = 0 .. log2(p) - 1 the ranks whose lower i bits
 * are 0 are active; an active rank with bit i set sends its transform (the odd
 * part, N 2^i / p complex numbers) to NAME - 2^i, which combines it with its own
 * (the even part) into one of twice the length.  Rank 0 ends with C = DFT(A).
 *
 * Rank 0 prints one line, e.g.
 *   fft: n=65536 p=4 used=4 time=0.004567890 s checksum=1.234567890123e+09 check=ok
 * time = MPI_Wtime from after a barrier to rank 0 holding C (virtual under
 * vlayer); checksum = sum over k of |C[k]|^2 ((k mod 7) + 1); check = C equals
 * the sequential recursive FFT of A to 1e-9 relative and 16 of its elements
 * equal the direct sum C[k] = sum_j A[j] w^(jk) to 1e-6 relative (not timed).
 * The parallel combination does the same arithmetic as the sequential
 * recursion, so C and the checksum are the same for every P.
 *
 * Model (003, formulas 15-17; D, F, R: the division, sequential-DFT and
 * combination constants, g and L the BSPWB gap and latency, h in complex
 * numbers of 16 bytes), with p ranks and log p M-steps plus a last one:
 *   M-step 1:   w = D N/p + F (N/p) log(N/p), h = N/p (ranks NAME, NAME xor 1)
 *   M-step s = 2 .. log p:  w = R N 2^(s-2)/p (combination i = s - 2),
 *               h = N 2^(s-1)/p (communication i = s - 1)
 *   M-step log p + 1 (rank 0 only): w = R N/2, no communication
 *   T_s = T_(s-1) + w_s + g h_s + L
 * messages = p - 1 (each rank but 0 sends once, rank NAME at i = its lowest set
 * bit); bytes = 16 (N/2) log2 p in all.
 * Virtual time with computation ignored, each rank on its own host (one-way
 * time S + T(b) + R) and every message eager:
 *   sum over i = 0 .. log2(p) - 1 of (S + T(16 N 2^i / p) + R).
 */
#include <complex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: mpirun -np P fft [-n N]\n"
	           "The parallel radix-2 FFT of the BSPWB paper on N complex numbers (a power of\n"
	           "two, default 65536): p = the largest power of two <= P ranks each transform\n"
	           "N/p elements, then log2(p) combination steps towards rank 0.  Rank 0 prints\n"
	           "the time (MPI_Wtime), a checksum and whether C equals a sequential FFT.\n");
}

/* 0 ok, 1 --help, 2 bad usage */
static int parse(int argc, char **argv, int rank, long *n)
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
			if (*end || v < 1 || v > (1L << 26) || (v & (v - 1)))
				goto bad;
			*n = v;
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	if (!rank)
		fprintf(stderr, "fft: bad argument '%s' (see --help; N is a power of two)\n",
		        argv[i]);
	return 2;
}

/* the input: a deterministic pseudo-random sequence in [-1, 1) + i [-1, 1) */
static double complex a_of(long k)
{
	unsigned long x = (unsigned long)k * 2654435761UL + 12345UL;
	x ^= x >> 13;
	x *= 0x5bd1e995UL;
	x ^= x >> 15;
	return ((double)(x & 0xffff) / 32768.0 - 1.0) +
	       I * ((double)((x >> 16) & 0xffff) / 32768.0 - 1.0);
}

/* x[k] = e[k] + w^k o[k], x[k + m] = e[k] - w^k o[k], w = exp(-2 pi i / 2m) */
static void combine(double complex *x, const double complex *e, const double complex *o, long m)
{
	long k;
	for (k = 0; k < m; k++) {
		double ang = -M_PI * (double)k / (double)m;
		double complex t = (cos(ang) + I * sin(ang)) * o[k];
		double complex ek = e[k];
		x[k] = ek + t;
		x[k + m] = ek - t;
	}
}

/* out[0..n) = DFT of in[0], in[s], in[2s] ...; tmp has n elements */
static void fft_rec(double complex *out, const double complex *in, long n, long s,
                    double complex *tmp)
{
	if (n == 1) {
		out[0] = in[0];
		return;
	}
	fft_rec(tmp, in, n / 2, 2 * s, out);
	fft_rec(tmp + n / 2, in + s, n / 2, 2 * s, out);
	combine(out, tmp, tmp + n / 2, n / 2);
}

static int bitrev(int v, int bits)
{
	int r = 0, b;
	for (b = 0; b < bits; b++)
		r |= ((v >> b) & 1) << (bits - 1 - b);
	return r;
}

/* the parallel FFT on ranks 0 .. p-1 (lg = log2 p); rank 0 gets C in c
 * (N elements; on the others a work area of N elements) */
static void fft_par(double complex *c, const double complex *a, long n, int rank, int lg)
{
	long m = n >> lg, i;
	double complex *tmp = malloc(sizeof(double complex) * (size_t)n);
	double complex *odd = malloc(sizeof(double complex) * (size_t)n);
	int bit;

	fft_rec(c, a + bitrev(rank, lg), m, 1L << lg, tmp);
	for (bit = 0; bit < lg; bit++, m *= 2) {
		if (rank & (1 << bit)) {
			MPI_Send(c, (int)(2 * m), MPI_DOUBLE, rank - (1 << bit), bit,
			         MPI_COMM_WORLD);
			break;
		}
		MPI_Recv(odd, (int)(2 * m), MPI_DOUBLE, rank + (1 << bit), bit, MPI_COMM_WORLD,
		         MPI_STATUS_IGNORE);
		for (i = 0; i < m; i++)
			tmp[i] = c[i];
		combine(c, tmp, odd, m);
	}
	free(tmp);
	free(odd);
}

/* 0 when c is the DFT of a (see the head comment) */
static int check(const double complex *c, const double complex *a, long n)
{
	double complex *ref = malloc(sizeof(double complex) * (size_t)n);
	double complex *tmp = malloc(sizeof(double complex) * (size_t)n);
	double err = 0, norm = 0;
	long k, j, t;
	int bad;

	fft_rec(ref, a, n, 1, tmp);
	for (k = 0; k < n; k++) {
		err = fmax(err, cabs(c[k] - ref[k]));
		norm = fmax(norm, cabs(ref[k]));
	}
	bad = err > 1e-9 * norm;
	for (t = 0; t < 16; t++) {
		long double complex s = 0;
		k = (t * 7919 + t * t) % n;
		for (j = 0; j < n; j++) {
			long double ang = -2.0L * 3.14159265358979323846264338327950288L *
			                  (long double)((j * k) % n) / n;
			s += a[j] * (cosl(ang) + I * sinl(ang));
		}
		if (cabsl(s - c[k]) > 1e-6L * norm)
			bad = 1;
	}
	if (bad)
		fprintf(stderr, "fft: max error %g against the sequential FFT (norm %g)\n", err,
		        norm);
	free(ref);
	free(tmp);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, np, lg = 0, rc, bad = 0;
	long n = 65536, k;
	double complex *a, *c;
	double t0, t, sum = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	rc = parse(argc, argv, rank, &n);
	if (rc) {
		MPI_Finalize();
		return rc == 1 ? 0 : 2;
	}
	while ((2 << lg) <= np && (2L << lg) <= n)
		lg++;
	a = malloc(sizeof(double complex) * (size_t)n);
	c = malloc(sizeof(double complex) * (size_t)n);
	for (k = 0; k < n; k++)
		a[k] = a_of(k);
	MPI_Barrier(MPI_COMM_WORLD);
	t0 = MPI_Wtime();
	if (rank < (1 << lg))
		fft_par(c, a, n, rank, lg);
	t = MPI_Wtime() - t0;
	if (rank == 0) {
		for (k = 0; k < n; k++)
			sum += (creal(c[k]) * creal(c[k]) + cimag(c[k]) * cimag(c[k])) *
			       (double)(k % 7 + 1);
		bad = check(c, a, n);
		printf("fft: n=%ld p=%d used=%d time=%.9f s checksum=%.12e check=%s\n", n, np,
		       1 << lg, t, sum, bad ? "FAILED" : "ok");
	}
	free(a);
	free(c);
	MPI_Finalize();
	return bad;
}
