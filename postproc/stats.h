/* stats.h - per-task summary of a trace set (vlpost stats, and after vlpost trf). */
#ifndef VLP_STATS_H
#define VLP_STATS_H

#include <stdint.h>
#include <stdio.h>
#include "tracereader.h"

typedef struct vlp_tstats {
	int proc;                  /* processor number (index in the vl_tset) */
	int32_t tid;
	int32_t host;
	char host_name[64];
	char program[128];
	int64_t start, end;        /* ns; end = END time, or the last time seen */
	int64_t comp, comm, wait;  /* ns; from END, or estimated from the records */
	int has_end;               /* components come from the END record */
	uint64_t nsent, bsent;     /* messages / user bytes sent */
	uint64_t nrecv, brecv;     /* messages / user bytes received */
	/* accumulated from the records */
	int64_t last, rcomm, rwait;
	int64_t mc_t0, mc_t1;      /* interval of the last multicast SEND */
	int mc_on;
} vlp_tstats;

/* Start the summary of processor proc, whose header is h. */
void vlp_stats_init(vlp_tstats *s, int proc, const vl_thdr *h);

/* Account one validated record. */
void vlp_stats_add(vlp_tstats *s, const vl_trec *r);

/* After the last record: without END, end = the last time seen and the components
 * are estimated (communication and waiting from the records, computation = rest). */
void vlp_stats_done(vlp_tstats *s);

/* Read every task of set to its end and summarise it into st[0..set->n-1].
 * Truncated files and missing END records are tolerated (warning on warn, if not
 * NULL); any other error returns -1 with the message in err. */
int vlp_stats_collect(vl_tset *set, vlp_tstats *st, FILE *warn, char *err, size_t errlen);

/* Print the table (or CSV: header row + one row per task).  The text form ends
 * with a totals row, "predicted elapsed time: X.XXXXXX s" and, if a task had no
 * END record, a footnote for the '*' marks.  Returns 0, or -1 on a write error. */
int vlp_stats_print(FILE *out, const vlp_tstats *st, int n, int csv);

/* Predicted elapsed time in ns: latest end minus earliest start. */
int64_t vlp_stats_elapsed(const vlp_tstats *st, int n);

/* Format ns as seconds with 6 decimals, rounded to the nearest microsecond
 * ("0.000015"); buf needs 32 bytes.  Returns the length. */
int vlp_fmt_sec(char *buf, int64_t ns);

#endif
