/* fit_table.c - the output of `vlcalib fit`: one row per parameter (link,
 * model, parameter, value, unit), printed as an aligned table or as CSV. */
#include "vlcalib.h"
#include "util/diag.h"
#include "util/outfile.h"

#include <math.h>
#include <string.h>

typedef struct prow {
	char link[8], model[40], param[24], value[40], unit[8];
} prow;

static prow *prows;
static int nprows, capprows, csv_out;

static void put_text(int link, const char *model, const char *param, const char *value,
                     const char *unit)
{
	prow *p;

	if (nprows == capprows) {
		capprows = capprows ? 2 * capprows : 64;
		prows = vlu_xrealloc(prows, sizeof(prow) * (size_t)capprows);
	}
	p = &prows[nprows++];
	snprintf(p->link, sizeof p->link, "%s", vlcal_raw_lname[link]);
	snprintf(p->model, sizeof p->model, "%s", model);
	snprintf(p->param, sizeof p->param, "%s", param);
	snprintf(p->value, sizeof p->value, "%s", value);
	snprintf(p->unit, sizeof p->unit, "%s", unit);
}

/* A value: 6 significant digits in the table, 10 in CSV; NaN is "-". */
void vlcal_put(int link, const char *model, const char *param, double v, const char *unit)
{
	char b[40];

	if (isnan(v))
		snprintf(b, sizeof b, "-");
	else
		snprintf(b, sizeof b, csv_out ? "%.10g" : "%.6g", v);
	put_text(link, model, param, b, unit);
}

/* A count or a size: all digits. */
void vlcal_put_int(int link, const char *model, const char *param, double v, const char *unit)
{
	char b[40];

	snprintf(b, sizeof b, "%.0f", v);
	put_text(link, model, param, b, unit);
}

/* A relative error or noise level FRAC, as a percentage with fixed decimals
 * (so that round-off far below them does not show). */
void vlcal_put_pct(int link, const char *model, const char *param, double frac)
{
	char b[40];

	snprintf(b, sizeof b, csv_out ? "%.6f" : "%.3f", 100 * frac);
	put_text(link, model, param, b, "%");
}

void vlcal_put_word(int link, const char *model, const char *param, const char *word)
{
	put_text(link, model, param, word, "");
}

static void put_pwl(int link, const char *model, const vlcal_pwl *f, int m, double rms, double mx,
                    const vlcal_linkfit *L, double pen, double sig)
{
	vlcal_put_int(link, model, "points", f->n, "");
	vlcal_put_int(link, model, "sizes", m, "");
	vlcal_put_pct(link, model, "rms_error", rms);
	vlcal_put_pct(link, model, "max_error", mx);
	vlcal_put(link, model, "penalty", pen, "");
	if (!L->fixed_pen)
		vlcal_put_pct(link, model, "noise", sig);
}

void vlcal_put_link(const vlcal_linkfit *L)
{
	char m[40];
	int k = L->link;

	put_pwl(k, "send_model", &L->sf, L->send.m, L->s_rms, L->s_max, L, L->pen_send,
	        L->sig_send);
	snprintf(m, sizeof m, "trans_model(%s)", L->total_src);
	put_pwl(k, m, &L->tf, L->total.m, L->t_rms, L->t_max, L, L->pen_trans, L->sig_trans);
	vlcal_put(k, "recv_delay", "R", L->has_recv ? L->recv_ns / 1e3 : NAN, "us");
	for (int i = 0; i < L->ncont; i++) {
		char p[24];

		snprintf(p, sizeof p, "k=%d", L->cont_k[i]);
		vlcal_put(k, "contention", p, L->cont_f[i], "x");
	}
	vlcal_put(k, "hockney", "t0", L->hock.t0 / 1e3, "us");
	vlcal_put(k, "hockney", "r_inf", L->hock.r_inf * 1e3, "MB/s");
	vlcal_put(k, "hockney", "n_half", L->hock.n_half, "B");
	vlcal_put_pct(k, "hockney", "rms_error", L->hock.rms_rel);
	vlcal_put(k, "loggp", "L", L->lg.L / 1e3, "us");
	vlcal_put(k, "loggp", "o_s", L->lg.o_s / 1e3, "us");
	vlcal_put(k, "loggp", "o_r", L->lg.o_r / 1e3, "us");
	vlcal_put(k, "loggp", "g", L->lg.g / 1e3, "us");
	vlcal_put(k, "loggp", "G", L->lg.G, "ns/B");
	vlcal_put(k, "a2a(004)", "MSGSETUP", L->msgsetup / 1e3, "us");
	vlcal_put(k, "a2a(004)", "ALCBW", L->alcbw * 1e3, "MB/s");
	vlcal_put_int(k, "a2a(004)", "n_small", L->ns_used, "B");
	vlcal_put_int(k, "a2a(004)", "n_large", L->nl_used, "B");
}

void vlcal_put_bsp_line(int link, const char *model, const vlcal_bsp *b)
{
	vlcal_put(link, model, "g", b->g, "ns/B");
	vlcal_put(link, model, "L", b->L / 1e3, "us");
	{
		char v[40];

		snprintf(v, sizeof v, csv_out ? "%.6f" : "%.3f", b->rms / 1e3);
		put_text(link, model, "rms_error", v, "us");
	}
}

void vlcal_print_table(FILE *f)
{
	int w[4] = {5, 5, 9, 5};

	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];
		int l[4] = {(int)strlen(p->link), (int)strlen(p->model), (int)strlen(p->param),
		            (int)strlen(p->value)};
		for (int j = 0; j < 4; j++)
			w[j] = l[j] > w[j] ? l[j] : w[j];
	}
	fprintf(f, "%-*s  %-*s  %-*s  %*s  %s\n", w[0], "link", w[1], "model", w[2], "parameter",
	        w[3], "value", "unit");
	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];

		fprintf(f, "%-*s  %-*s  %-*s  %*s  %s\n", w[0], p->link, w[1], p->model, w[2],
		        p->param, w[3], p->value, p->unit);
	}
}

void vlcal_print_csv(FILE *f)
{
	fprintf(f, "link,model,parameter,value,unit\n");
	for (int i = 0; i < nprows; i++) {
		const prow *p = &prows[i];

		vlu_csv_str(f, p->link);
		fputc(',', f);
		vlu_csv_str(f, p->model);
		fputc(',', f);
		vlu_csv_str(f, p->param);
		fputc(',', f);
		vlu_csv_str(f, p->value);
		fputc(',', f);
		vlu_csv_str(f, p->unit);
		fputc('\n', f);
	}
}

void vlcal_table_csv(int csv)
{
	csv_out = csv;
}
