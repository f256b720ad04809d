/* lsq.h - small dense linear least squares, shared by vlcalib and vlmodel. */
#ifndef VLU_LSQ_H
#define VLU_LSQ_H

#define VLU_LSQ_MAXN 8

/* Solves min sum_i w_i (sum_j A[i*n+j] x_j - b_i)^2 for X (N unknowns, 1 <= N <=
 * VLU_LSQ_MAXN, M rows) by Householder QR.  W may be NULL (all weights 1);
 * weights must be >= 0.  Returns 0, or -1 when the problem is singular (fewer
 * rows with weight > 0 than unknowns, or columns linearly dependent within a
 * relative tolerance of 1e-12).  *SSE (may be NULL) gets the weighted residual
 * sum of squares.  A and B are not modified. */
int vlu_lsq(const double *a, const double *b, const double *w, int m, int n, double *x,
	    double *sse);

/* Straight line y = c0 + c1 x through M points (weights W or NULL): a
 * convenience form of vlu_lsq.  Returns 0 or -1 (singular: all x equal, or
 * fewer than 2 points). */
int vlu_line(const double *x, const double *y, const double *w, int m, double *c0, double *c1,
	     double *sse);
#endif
