/* stats_print.h - the printers of the stats report behind vlpost_stats_print
 * and vlpost_report_print of stats.h (stats_print.c): one file per format,
 * stats_text.c, stats_csv.c and stats_json.c, and the helpers they share
 * (stats_fmt.c).  Internal to those files. */
#ifndef VLPOST_STATS_PRINT_H
#define VLPOST_STATS_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "stats.h"

#define VLPOST_CELL 48 /* bytes of one formatted cell */

/* ns as microseconds with 3 decimals, exact (negative: 0), then '*' if star;
 * b holds VLPOST_CELL bytes. */
void vlpost_rp_us(char *b, int64_t ns, int star);

/* The derived columns of one task (or of the totals of vlpost_rp_sum):
 * comm / comp, (comm + wait) / total, bytes sent / messages sent. */
typedef struct vlpost_rp_derived {
	char comm_comp[VLPOST_CELL], busy_total[VLPOST_CELL], avg[VLPOST_CELL];
} vlpost_rp_derived;

/* The ratios with prec decimals (avg: 2 if prec is 4), or none where the
 * denominator is 0. */
void vlpost_rp_derive(vlpost_rp_derived *d, const vlpost_tstats *s, int prec, const char *none);

/* Sums over st[0..n-1], as one vlpost_tstats: start 0, end = the sum of the
 * totals (end - start), has_end = every task has one; the rest zero. */
void vlpost_rp_sum(vlpost_tstats *t, const vlpost_tstats *st, int n);

/* The LS-DYNA method's approximation for a balanced job: *m = mean of the
 * tasks' message counts, *s = mean of their average message sizes over the
 * *nsend tasks that sent (0 without tasks, or without senders). */
void vlpost_rp_lsdyna(const vlpost_tstats *st, int n, double *m, double *s, int *nsend);

/* The highest non-empty histogram bucket of rep, or -1 (no messages). */
int vlpost_rp_hist_top(const vlpost_report *rep);

/* The task with the most communication time (the first of equals), or -1. */
int vlpost_rp_max_comm(const vlpost_tstats *st, int n);

/* ---- the formats (as described at vlpost_report_print) ----
 * Each returns 0, or -1 when out of memory; write errors are left in ferror(out). */

/* The table of vlpost_stats_print: header, one row per task, the totals row,
 * the predicted elapsed time and the footnote of the '*' marks (stats_text.c). */
int vlpost_rp_text_table(FILE *out, const vlpost_tstats *st, int n);
int vlpost_rp_text(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		   unsigned flags);

/* The CSV task rows (header row first), with the derived columns
 * (comm_comp_ratio, commwait_total_ratio, avg_bytes_sent) if derived (stats_csv.c). */
void vlpost_rp_csv_tasks(FILE *out, const vlpost_tstats *st, int n, int derived);
int vlpost_rp_csv(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		  unsigned flags);

int vlpost_rp_json(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		   unsigned flags);

#endif
