/* fit_bsp.c - the BSP fits of one link kind in `vlcalib fit`: g and L of
 * T(h) = g h + L (003 section 3) per pattern and processor count, per pattern,
 * the paper's average over the patterns (eq. 11) and the mean of the
 * patterns', and the barrier's time. */
#include "vlcalib.h"

#include <stdio.h>

void vlcal_fit_bsp(const vlcal_input *in, int link)
{
	int *pat = vlcal_xmalloc(sizeof(int) * (size_t)(in->raw.n + 1)), np = 0, npat = 0;
	double *h = vlcal_xmalloc(sizeof(double) * (size_t)(in->raw.n + 1));
	double *t = vlcal_xmalloc(sizeof(double) * (size_t)(in->raw.n + 1)), gs = 0, ls = 0;
	const vlcal_raw_row *first = NULL;
	vlcal_bsp b;
	int rc;

	for (int x = VLCAL_X_BSP; x < VLCAL_X_BSP + 5; x++) {
		vlcal_series s = vlcal_series_get(in, link, x, 0);
		char m[40];

		if (!s.m) {
			vlcal_series_free(&s);
			continue;
		}
		if (!first)
			first = s.first;
		for (int i = 0; i < s.m;) {
			int j = i;
			vlcal_series one = s;

			while (j < s.m && s.procs[j] == s.procs[i])
				j++;
			one.m = j - i;
			one.h += i;
			one.t += i;
			rc = vlcal_bsp_fit(one.h, one.t, one.m, &b);
			if (rc) {
				one.first = s.first;
				vlcal_fit_fail(&one, link, vlcal_raw_xname[x], rc);
			}
			snprintf(m, sizeof m, "%s(p=%d)", vlcal_raw_xname[x], s.procs[i]);
			vlcal_put_bsp_line(link, m, &b);
			i = j;
		}
		rc = vlcal_bsp_fit(s.h, s.t, s.m, &b);
		if (rc)
			vlcal_fit_fail(&s, link, vlcal_raw_xname[x], rc);
		vlcal_put_bsp_line(link, vlcal_raw_xname[x], &b);
		gs += b.g;
		ls += b.L;
		npat++;
		for (int i = 0; i < s.m; i++) {
			pat[np] = x;
			h[np] = s.h[i];
			t[np++] = s.t[i];
		}
		vlcal_series_free(&s);
	}
	if (npat) {
		vlcal_series all = {np, NULL, t, h, NULL, first, in};

		rc = vlcal_bsp_overall(pat, h, t, np, &b);
		if (rc)
			vlcal_fit_fail(&all, link, "bsp average (eq. 11)", rc);
		vlcal_put_bsp_line(link, "bsp(eq.11)", &b);
		vlcal_put(link, "bsp(mean)", "g", gs / npat, "ns/B");
		vlcal_put(link, "bsp(mean)", "L", ls / npat / 1e3, "us");
	}
	{
		vlcal_series s = vlcal_series_get(in, link, VLCAL_X_BARRIER, 0);

		for (int i = 0; i < s.m;) {
			int j = i;
			double sum = 0;
			char m[40];

			while (j < s.m && s.procs[j] == s.procs[i])
				sum += s.t[j++];
			snprintf(m, sizeof m, "bsp_barrier(p=%d)", s.procs[i]);
			vlcal_put(link, m, "L_min", sum / (j - i) / 1e3, "us");
			i = j;
		}
		vlcal_series_free(&s);
	}
	vlcal_xfree(pat);
	vlcal_xfree(h);
	vlcal_xfree(t);
}
