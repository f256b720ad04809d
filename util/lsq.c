/* lsq.c - see lsq.h */
#include "lsq.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int vlu_lsq(const double *a, const double *b, const double *w, int m, int n, double *x,
	    double *sse)
{
	double *q, *r, norm0 = 0;
	int rc = -1;

	if (n < 1 || n > VLU_LSQ_MAXN || m < n)
		return -1;
	/* Q holds the weighted system [sqrt(w) A | sqrt(w) b], reduced in place */
	q = malloc(sizeof(double) * (size_t)m * (size_t)(n + 1));
	r = malloc(sizeof(double) * (size_t)m);
	if (!q || !r)
		goto out;
	for (int i = 0; i < m; i++) {
		double s = w ? sqrt(w[i] > 0 ? w[i] : 0) : 1;

		for (int j = 0; j < n; j++)
			q[i * (n + 1) + j] = s * a[i * n + j];
		q[i * (n + 1) + n] = s * b[i];
	}
	for (int j = 0; j < n; j++) {
		double cn = 0;

		for (int i = 0; i < m; i++)
			cn += q[i * (n + 1) + j] * q[i * (n + 1) + j];
		if (sqrt(cn) > norm0)
			norm0 = sqrt(cn);
	}
	if (norm0 == 0)
		goto out;
	for (int k = 0; k < n; k++) {
		double alpha = 0, vnorm2, d;

		for (int i = k; i < m; i++)
			alpha += q[i * (n + 1) + k] * q[i * (n + 1) + k];
		alpha = sqrt(alpha);
		if (alpha <= 1e-12 * norm0)
			goto out; /* dependent column */
		if (q[k * (n + 1) + k] > 0)
			alpha = -alpha;
		for (int i = k; i < m; i++)
			r[i] = q[i * (n + 1) + k];
		r[k] -= alpha;
		vnorm2 = 0;
		for (int i = k; i < m; i++)
			vnorm2 += r[i] * r[i];
		for (int j = k; j <= n; j++) {
			d = 0;
			for (int i = k; i < m; i++)
				d += r[i] * q[i * (n + 1) + j];
			d = vnorm2 > 0 ? 2 * d / vnorm2 : 0;
			for (int i = k; i < m; i++)
				q[i * (n + 1) + j] -= d * r[i];
		}
	}
	for (int k = n - 1; k >= 0; k--) {
		double s = q[k * (n + 1) + n];

		for (int j = k + 1; j < n; j++)
			s -= q[k * (n + 1) + j] * x[j];
		x[k] = s / q[k * (n + 1) + k];
	}
	if (sse) {
		*sse = 0;
		for (int i = n; i < m; i++)
			*sse += q[i * (n + 1) + n] * q[i * (n + 1) + n];
	}
	rc = 0;
out:
	free(q);
	free(r);
	return rc;
}

int vlu_line(const double *x, const double *y, const double *w, int m, double *c0, double *c1,
	     double *sse)
{
	double *a, c[2];
	int rc;

	if (m < 2)
		return -1;
	a = malloc(sizeof(double) * 2 * (size_t)m);
	if (!a)
		return -1;
	for (int i = 0; i < m; i++) {
		a[2 * i] = 1;
		a[2 * i + 1] = x[i];
	}
	rc = vlu_lsq(a, y, w, m, 2, c, sse);
	free(a);
	if (!rc) {
		*c0 = c[0];
		*c1 = c[1];
	}
	return rc;
}
