/* pdbench.c - the CLUE ScaLAPACK experiments (AURORA TR2000-05, chapter 4):
 * a distributed matrix multiply (PBLAS pdgemm), Cholesky factorization
 * (pdpotrf) and LU factorization (pdgetrf) of an n x n matrix, block-cyclic
 * with nb x nb blocks on a P x Q process grid, timed with MPI_Wtime (virtual
 * time under vlayer) and verified.
 *
 * usage: mpirun -np P*Q pdbench gemm|potrf|getrf N NB PxQ
 * Rank 0 prints one line:  ROUTINE N NB PxQ TIME_S RESIDUAL OK|FAILED
 * and the exit status is 1 when the check fails (2 for a usage error).
 *
 * The matrices are generated in place: each rank fills its local blocks from
 * the global indices with a hash, so every grid and block size factors the
 * same matrix.  For potrf the matrix is symmetric with n on the diagonal and
 * off-diagonal entries in [-0.5, 0.5): strictly diagonally dominant, hence
 * positive definite.  For getrf it is a general random matrix (the partial
 * pivoting is exercised).
 *
 * Verification (not timed):
 *   gemm:  C = A B; for a known vector x, C x is compared with A (B x)
 *          (three pdgemv calls); RESIDUAL = ||C x - A (B x)||_inf /
 *          (||A||_inf ||B||_inf ||x||_inf n eps).
 *   potrf: b = A x for a known x, then pdpotrs with the factor solves A x~ = b;
 *   getrf: the same with pdgetrs and the pivots;
 *          RESIDUAL = ||A x~ - b||_inf / (||A||_inf ||x~||_inf n eps),
 *          the normwise backward error of the whole factor-and-solve.
 * The check passes when RESIDUAL < 16 (as HPL's).
 *
 * BLAS threads: OpenBLAS would start one thread per core, whose CPU time the
 * layer (which measures the calling thread's CPU time) does not see, and which
 * oversubscribe the machine.  Unless OPENBLAS_NUM_THREADS is set, the program
 * asks OpenBLAS for one thread per process (the model: one processor each).
 *
 * Debian's ScaLAPACK has no C header: the prototypes are declared here.  The
 * Fortran routines get the hidden lengths of their CHARACTER arguments.
 */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* BLACS (C interface) */
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void Cblacs_exit(int notdone);
/* ScaLAPACK tools */
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
	       const int *icsrc, const int *ictxt, const int *lld, int *info);
/* PBLAS */
void pdgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
	     const double *alpha, const double *a, const int *ia, const int *ja, const int *desca,
	     const double *b, const int *ib, const int *jb, const int *descb, const double *beta,
	     double *c, const int *ic, const int *jc, const int *descc, size_t, size_t);
void pdgemv_(const char *trans, const int *m, const int *n, const double *alpha, const double *a,
	     const int *ia, const int *ja, const int *desca, const double *x, const int *ix,
	     const int *jx, const int *descx, const int *incx, const double *beta, double *y,
	     const int *iy, const int *jy, const int *descy, const int *incy, size_t);
/* ScaLAPACK */
void pdpotrf_(const char *uplo, const int *n, double *a, const int *ia, const int *ja,
	      const int *desca, int *info, size_t);
void pdpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *ia,
	      const int *ja, const int *desca, double *b, const int *ib, const int *jb,
	      const int *descb, int *info, size_t);
void pdgetrf_(const int *m, const int *n, double *a, const int *ia, const int *ja, const int *desca,
	      int *ipiv, int *info);
void pdgetrs_(const char *trans, const int *n, const int *nrhs, const double *a, const int *ia,
	      const int *ja, const int *desca, const int *ipiv, double *b, const int *ib,
	      const int *jb, const int *descb, int *info, size_t);
double pdlange_(const char *norm, const int *m, const int *n, const double *a, const int *ia,
		const int *ja, const int *desca, double *work, size_t);
/* OpenBLAS, if that is the BLAS */
void openblas_set_num_threads(int n) __attribute__((weak));

static const int i0 = 0, i1 = 1;
static const double d1 = 1.0, d0 = 0.0, dm1 = -1.0;

/* the grid and the local shape of an n x n matrix (and of an n-vector, held
 * as an n x 1 matrix in process column 0) */
static int n, nb, nprow, npcol, myrow, mycol, ctxt, mloc, nloc, lld;

static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* a value in [-0.5, 0.5) from a seed and global indices */
static double urand(uint64_t seed, int64_t i, int64_t j)
{
	return (double)(mix64(seed * 0x100000001b3ull ^ mix64((uint64_t)(i * n + j))) >> 11) * 0x1p-53 -
	       0.5;
}

/* global index (0-based) of local index l, block-cyclic over np processes, this one p */
static int64_t glob(int l, int p, int np)
{
	return ((int64_t)(l / nb) * np + p) * nb + l % nb;
}

enum kind { GENERAL, SPD };

static void fill(double *a, uint64_t seed, enum kind k)
{
	int li, lj;

	for (lj = 0; lj < nloc; lj++) {
		int64_t gj = glob(lj, mycol, npcol);
		for (li = 0; li < mloc; li++) {
			int64_t gi = glob(li, myrow, nprow);
			double v;
			if (k == SPD) {
				v = gi <= gj ? urand(seed, gi, gj) : urand(seed, gj, gi);
				if (gi == gj)
					v += n;
			} else {
				v = urand(seed, gi, gj);
			}
			a[(size_t)lj * (size_t)lld + (size_t)li] = v;
		}
	}
}

/* the known vector: x_i = 1 + (i mod 7) / 8 */
static void fill_vec(double *x)
{
	int li;

	if (mycol != 0)
		return;
	for (li = 0; li < mloc; li++)
		x[li] = 1.0 + (double)(glob(li, myrow, nprow) % 7) / 8.0;
}

static double *alloc(size_t count)
{
	double *p = calloc(count ? count : 1, sizeof(double));

	if (!p) {
		fprintf(stderr, "pdbench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	return p;
}

static double norm_inf(const double *a, int cols, const int *desc, double *work)
{
	return pdlange_("I", &n, &cols, a, &i1, &i1, desc, work, 1);
}

static void usage(int rank)
{
	if (rank == 0)
		fprintf(stderr, "usage: mpirun -np P*Q pdbench gemm|potrf|getrf N NB PxQ\n");
}

int main(int argc, char **argv)
{
	int rank, np, info = 0, dinfo, vlld, failed = 0;
	int desc[9], vdesc[9];
	const char *routine;
	double *a, *b = NULL, *c = NULL, *x, *y, *z, *work;
	double t0, t, tmax, resid = 0.0, eps = DBL_EPSILON;
	size_t msize, vsize;
	int *ipiv = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &np);
	if (argc != 5 || (strcmp(argv[1], "gemm") && strcmp(argv[1], "potrf") && strcmp(argv[1], "getrf")) ||
	    sscanf(argv[4], "%dx%d", &nprow, &npcol) != 2 || (n = atoi(argv[2])) < 1 ||
	    (nb = atoi(argv[3])) < 1 || nprow < 1 || npcol < 1) {
		usage(rank);
		MPI_Finalize();
		return 2;
	}
	routine = argv[1];
	if (nprow * npcol != np) {
		if (rank == 0)
			fprintf(stderr, "pdbench: grid %dx%d needs %d processes, not %d\n", nprow, npcol,
				nprow * npcol, np);
		MPI_Finalize();
		return 2;
	}
	if (openblas_set_num_threads && !getenv("OPENBLAS_NUM_THREADS"))
		openblas_set_num_threads(1);

	Cblacs_get(-1, 0, &ctxt);
	Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
	Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
	mloc = numroc_(&n, &nb, &myrow, &i0, &nprow);
	nloc = numroc_(&n, &nb, &mycol, &i0, &npcol);
	lld = mloc > 1 ? mloc : 1;
	descinit_(desc, &n, &n, &nb, &nb, &i0, &i0, &ctxt, &lld, &dinfo);
	vlld = lld;
	descinit_(vdesc, &n, &i1, &nb, &nb, &i0, &i0, &ctxt, &vlld, &dinfo);
	msize = (size_t)lld * (size_t)nloc;
	vsize = (size_t)lld;
	a = alloc(msize);
	x = alloc(vsize);
	y = alloc(vsize);
	z = alloc(vsize);
	work = alloc((size_t)mloc + (size_t)nloc + 2 * (size_t)nb);

	if (!strcmp(routine, "gemm")) {
		b = alloc(msize);
		c = alloc(msize);
		fill(a, 1, GENERAL);
		fill(b, 2, GENERAL);
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		pdgemm_("N", "N", &n, &n, &n, &d1, a, &i1, &i1, desc, b, &i1, &i1, desc, &d0, c, &i1, &i1,
			desc, 1, 1);
		t = MPI_Wtime() - t0;
		/* y = C x, z = B x, y -= A z */
		fill_vec(x);
		pdgemv_("N", &n, &n, &d1, c, &i1, &i1, desc, x, &i1, &i1, vdesc, &i1, &d0, y, &i1, &i1, vdesc,
			&i1, 1);
		pdgemv_("N", &n, &n, &d1, b, &i1, &i1, desc, x, &i1, &i1, vdesc, &i1, &d0, z, &i1, &i1, vdesc,
			&i1, 1);
		pdgemv_("N", &n, &n, &dm1, a, &i1, &i1, desc, z, &i1, &i1, vdesc, &i1, &d1, y, &i1, &i1, vdesc,
			&i1, 1);
		resid = norm_inf(y, 1, vdesc, work) /
			(norm_inf(a, n, desc, work) * norm_inf(b, n, desc, work) * norm_inf(x, 1, vdesc, work) *
			 n * eps);
	} else {
		int potrf = !strcmp(routine, "potrf");
		b = alloc(msize); /* the factor; a keeps the matrix */
		fill(a, 3, potrf ? SPD : GENERAL);
		memcpy(b, a, msize * sizeof(double));
		if (!potrf)
			ipiv = calloc((size_t)mloc + (size_t)nb, sizeof(int));
		MPI_Barrier(MPI_COMM_WORLD);
		t0 = MPI_Wtime();
		if (potrf)
			pdpotrf_("L", &n, b, &i1, &i1, desc, &info, 1);
		else
			pdgetrf_(&n, &n, b, &i1, &i1, desc, ipiv, &info);
		t = MPI_Wtime() - t0;
		if (info == 0) {
			/* y = b = A x; z = x~ solves A x~ = b; y = A x~ - b */
			fill_vec(x);
			pdgemv_("N", &n, &n, &d1, a, &i1, &i1, desc, x, &i1, &i1, vdesc, &i1, &d0, y, &i1, &i1,
				vdesc, &i1, 1);
			memcpy(z, y, vsize * sizeof(double));
			if (potrf)
				pdpotrs_("L", &n, &i1, b, &i1, &i1, desc, z, &i1, &i1, vdesc, &info, 1);
			else
				pdgetrs_("N", &n, &i1, b, &i1, &i1, desc, ipiv, z, &i1, &i1, vdesc, &info, 1);
			pdgemv_("N", &n, &n, &d1, a, &i1, &i1, desc, z, &i1, &i1, vdesc, &i1, &dm1, y, &i1, &i1,
				vdesc, &i1, 1);
			resid = norm_inf(y, 1, vdesc, work) /
				(norm_inf(a, n, desc, work) * norm_inf(z, 1, vdesc, work) * n * eps);
		}
	}
	MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	failed = info != 0 || !(resid < 16.0);
	if (rank == 0) {
		if (info != 0)
			fprintf(stderr, "pdbench: %s: info = %d\n", routine, info);
		printf("%s %d %d %dx%d %.6f %.3e %s\n", routine, n, nb, nprow, npcol, tmax, resid,
		       failed ? "FAILED" : "OK");
		fflush(stdout);
	}
	free(a);
	free(b);
	free(c);
	free(x);
	free(y);
	free(z);
	free(work);
	free(ipiv);
	Cblacs_gridexit(ctxt);
	Cblacs_exit(1);
	MPI_Finalize();
	return failed;
}
