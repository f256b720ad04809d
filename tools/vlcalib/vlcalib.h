/* vlcalib.h - the internals of `vlcalib fit` (vlcalib.c has the commands),
 * shared by its files:
 *
 *   fit_series.c    the input (every raw row), the rows of one experiment as
 *                   arrays (series), scratch memory, messages about a fit
 *   fit_vmconfig.c  VMConfig values in their shortest exact form, the fragment
 *   fit_table.c     the output table: parameter rows, as text or CSV
 *   fit_link.c      the fits of one link: send_model, recv_delay, trans_model,
 *                   contention, Hockney, LogGP, MSGSETUP/ALCBW
 *   fit_bsp.c       the BSP fits of one link
 *   fit_topo.c      the [topology]: the sharing fit (fit_share.c) of one link
 *
 * Each file uses only those above it in this list (and fit.c, fit_share.c,
 * calib_raw.c).
 * Errors end the program (vlu_die, status 2) with "FILE:LINE: ..." messages.
 */
#ifndef VLCAL_VLCALIB_H
#define VLCAL_VLCALIB_H

#include <stddef.h>
#include <stdio.h>

#include "calib_raw.h"
#include "fit.h"
#include "fit_share.h"
#include "vlayer/core/vmconfig.h"

#define VLCAL_EXIT_BAD 2   /* bad usage or bad input */
#define VLCAL_LINE_MAX 199 /* inih's line limit as Debian builds it */

/* ---- fit_series.c ---- */

/* what the fits read */
typedef struct vlcal_input {
	vlcal_raw raw;      /* every row of every file, merged */
	const char **files; /* file number -> path, for messages */
	double floor_ns;    /* --floor: times below count as this when weighting */
} vlcal_input;

/* Scratch memory: every block stays listed until vlcal_xfree, so that
 * whatever an error exit leaves behind is still reachable (LeakSanitizer stays
 * quiet about error exits).  vlcal_xmalloc never returns NULL. */
void *vlcal_xmalloc(size_t n);
void vlcal_xfree(void *p);

/* the rows of one experiment as arrays */
typedef struct vlcal_series {
	int m;
	double *n, *t, *h;
	int *procs;
	const vlcal_raw_row *first; /* for messages; NULL if m == 0 */
	const vlcal_input *in;
} vlcal_series;

/* The rows of (LINK, X), of PROCS tasks (0: any), sorted by procs and bytes;
 * free with vlcal_series_free. */
vlcal_series vlcal_series_get(const vlcal_input *in, int link, int x, int procs);
void vlcal_series_free(vlcal_series *s);

/* The first row of LINK (for messages about a whole link), NULL if none. */
const vlcal_raw_row *vlcal_link_first(const vlcal_input *in, int link);
/* Whether there is a row of (LINK, X). */
int vlcal_has_rows(const vlcal_input *in, int link, int x);

/* Dies with "FILE:LINE: WHAT (link L): the fit's error (M sizes)" (BSP: rows). */
__attribute__((noreturn)) void vlcal_fit_fail(const vlcal_series *s, int link, const char *what,
                                              int rc);

/* ---- the fits of one link (fit_link.c) ---- */

typedef struct vlcal_linkfit {
	const vlcal_input *in;
	int link;
	vlcal_series send, total, recv, gap;
	double pen_send, pen_trans, sig_send, sig_trans;
	int fixed_pen;
	vlcal_pwl sf, tf;
	vlcfg_pwl sm, tm;
	double s_rms, s_max, t_rms, t_max; /* relative errors of the rounded models */
	char sline[1024], tline[1024], cline[1024];
	int has_recv;
	long long recv_ns;
	const char *total_src;
	int ncont, cont_k[VLCAL_PWL_MAX];
	double cont_f[VLCAL_PWL_MAX];
	vlcal_hockney hock;
	int has_gap;
	vlcal_loggp lg;
	double msgsetup, alcbw, ns_used, nl_used;
	/* sends that lasted until their data were in (an MPI rendezvous): from
	 * rdv_from bytes on (0: none), the largest size below them rdv_below */
	double rdv_from, rdv_below;
	/* PVM: the sizes left out of the send model because their pvm_send
	 * waited for the link (drop_waits) */
	int pvm_waits;
} vlcal_linkfit;

/* Whether LINK has rows of the ping-pong family (rtt oneway send recv gap
 * contention): then it gets a VMConfig section. */
int vlcal_ping_family(const vlcal_input *in, int link);

/* The ping-pong fits of L->link (L->in, L->fixed_pen and L->pen_send set):
 * send_model, recv_delay, trans_model, contention, then the classic models. */
void vlcal_fit_link(vlcal_linkfit *L);

/* ---- fit_bsp.c ---- */

/* The BSP fits of LINK, into the table: per pattern and processor count, per
 * pattern, the paper's eq. 11, the mean; the barrier's L_min. */
void vlcal_fit_bsp(const vlcal_input *in, int link);

/* ---- the [topology] (fit_topo.c) ---- */

typedef struct vlcal_topofit {
	vlcal_share sh;       /* the sharing fit of link sh.link */
	int ok;               /* it worked: the fragment gets a [topology] */
	const char *lat_src;  /* where the latency comes from (for the fragment) */
	long long latency_ns; /* the latency written */
	char bw[48], bp[48];  /* bandwidth and backplane as VMConfig rates ("" no backplane) */
} vlcal_topofit;

/* The sharing fit of IN's share_* rows: those of link inter if it has any,
 * else intra's; its rows into the table.  The latency is link's trans_model
 * at 0 B when LF[link] is not NULL (the ping-pong fit: the topology's
 * latency replaces that transmission time, and the one-way rows measure it
 * best), else the experiments' common intercept.  T->ok = 0 without share_*
 * rows, or (after a warning: the experiment and why) if the fit failed. */
void vlcal_fit_topology(const vlcal_input *in, const vlcal_linkfit *const lf[2], vlcal_topofit *t);

/* ---- fit_vmconfig.c ---- */

/* NS as the shortest exact VMConfig time ("0ns", "1.5us", ...). */
void vlcal_fmt_time(char *out, size_t len, long long ns);
/* "KEY = SIZE:TIME, ..." (items joined by SEP) into LINE; its length. */
size_t vlcal_fmt_model(char *line, size_t len, const char *key, const vlcfg_pwl *m,
                       const char *sep);

/* what the VMConfig fragment says */
typedef struct vlcal_fragment {
	const vlcal_linkfit *lf[2]; /* per link kind, NULL: no section */
	const vlcal_topofit *topo;  /* NULL or !ok: no [topology] */
	int nfiles, use_min;
	const char *pen_text, *floor_text;
} vlcal_fragment;

/* The fragment (CTX: a vlcal_fragment) into F: a vlu_write_fn. */
int vlcal_write_fragment(FILE *f, void *ctx, char *err, size_t errlen);

/* ---- fit_table.c ---- */

/* Values as CSV (10 significant digits, 6 decimals of percentages) instead
 * of the table's (6, 3); set before the first row. */
void vlcal_table_csv(int csv);
/* A row: a value (NaN is "-"), a count or size (all digits), a relative
 * error or noise level as a percentage, a word. */
void vlcal_put(int link, const char *model, const char *param, double v, const char *unit);
void vlcal_put_int(int link, const char *model, const char *param, double v, const char *unit);
void vlcal_put_pct(int link, const char *model, const char *param, double frac);
void vlcal_put_word(int link, const char *model, const char *param, const char *word);
/* The rows of the ping-pong fits of one link. */
void vlcal_put_link(const vlcal_linkfit *L);
/* g, L and the rms error of a BSP fit. */
void vlcal_put_bsp_line(int link, const char *model, const vlcal_bsp *b);
/* Every row as an aligned table, or as CSV (link,model,parameter,value,unit). */
void vlcal_print_table(FILE *f);
void vlcal_print_csv(FILE *f);

#endif
