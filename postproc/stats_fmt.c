/* stats_fmt.c - what the three printers of the stats report share: cells,
 * ratios, sums over the tasks (stats_print.h). */
#include "stats_print.h"

#include <inttypes.h>
#include <string.h>

void vlpost_rp_us(char *b, int64_t ns, int star)
{
	uint64_t a = ns < 0 ? 0 : (uint64_t)ns;
	snprintf(b, VLPOST_CELL, "%" PRIu64 ".%03" PRIu64 "%s", a / 1000, a % 1000, star ? "*" : "");
}

/* num / den with prec decimals, or none (den == 0). */
static void fmt_ratio(char *b, uint64_t num, uint64_t den, int prec, const char *none)
{
	if (!den)
		snprintf(b, VLPOST_CELL, "%s", none);
	else
		snprintf(b, VLPOST_CELL, "%.*f", prec, (double)num / (double)den);
}

static uint64_t nn(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

void vlpost_rp_derive(vlpost_rp_derived *d, const vlpost_tstats *s, int prec, const char *none)
{
	fmt_ratio(d->comm_comp, nn(s->comm), nn(s->comp), prec, none);
	fmt_ratio(d->busy_total, nn(s->comm) + nn(s->wait), nn(s->end - s->start), prec, none);
	fmt_ratio(d->avg, s->bsent, s->nsent, prec == 4 ? 2 : prec, none);
}

void vlpost_rp_sum(vlpost_tstats *t, const vlpost_tstats *st, int n)
{
	memset(t, 0, sizeof *t);
	t->has_end = 1;
	for (int i = 0; i < n; i++) {
		t->comp += st[i].comp;
		t->comm += st[i].comm;
		t->wait += st[i].wait;
		t->end += st[i].end - st[i].start;
		t->nsent += st[i].nsent;
		t->bsent += st[i].bsent;
		t->nrecv += st[i].nrecv;
		t->brecv += st[i].brecv;
		t->has_end &= st[i].has_end;
	}
}

void vlpost_rp_lsdyna(const vlpost_tstats *st, int n, double *m, double *s, int *nsend)
{
	double sm = 0, ss = 0;
	*nsend = 0;
	for (int i = 0; i < n; i++) {
		sm += (double)st[i].nsent;
		if (st[i].nsent) {
			ss += (double)st[i].bsent / (double)st[i].nsent;
			(*nsend)++;
		}
	}
	*m = n ? sm / n : 0;
	*s = *nsend ? ss / *nsend : 0;
}

int vlpost_rp_hist_top(const vlpost_report *rep)
{
	int top = -1;
	for (int k = 0; k < VLPOST_HIST_N; k++)
		if (rep->hist_n[k])
			top = k;
	return top;
}

int vlpost_rp_max_comm(const vlpost_tstats *st, int n)
{
	int mx = -1;
	for (int i = 0; i < n; i++)
		if (mx < 0 || st[i].comm > st[mx].comm)
			mx = i;
	return mx;
}
