/* stats.h - per-task summary of a trace set (vlpost stats, and after vlpost trf).
 *
 * The computation is in stats.c (the summaries, the size histogram, the
 * sender x receiver matrix) and critpath.c (the critical path, critpath.h);
 * reading a trace set into them in scan.c (through the merge, merge.h);
 * vlpost_stats_print and vlpost_report_print are in stats_print.c, one printer
 * per format in stats_text.c, stats_csv.c and stats_json.c (stats_print.h). */
#ifndef VLPOST_STATS_H
#define VLPOST_STATS_H

#include <stdint.h>
#include <stdio.h>
#include "tracereader.h"

typedef struct vlpost_tstats {
	/* accumulated from the records (first: the fields every record touches) */
	int64_t last, rcomm, rwait;
	uint64_t nsent, bsent;     /* messages / user bytes sent */
	uint64_t nrecv, brecv;     /* messages / user bytes received */
	int64_t mc_t0, mc_t1;      /* interval of the last multicast SEND */
	int mc_on;
	int has_end;               /* components come from the END record */
	int64_t start, end;        /* ns; end = END time, or the last time seen */
	int64_t comp, comm, wait;  /* ns; from END, or estimated from the records */
	int64_t real_ns;           /* from END, measured computation: the real duration */
	int64_t steal_ms;          /* ... the machine's CPU steal meanwhile */
	uint32_t preempted;        /* ... involuntary context switches */
	int proc;                  /* processor number (index in the vlpost_tset) */
	int32_t tid;
	int32_t ptid;              /* parent's tid, or -1 */
	int32_t host;
	char host_name[64];
	char program[128];
} vlpost_tstats;

/* Start the summary of processor proc, whose header is h. */
void vlpost_stats_init(vlpost_tstats *s, int proc, const vl_thdr *h);

/* Account one validated record. */
void vlpost_stats_add(vlpost_tstats *s, const vl_trec *r);

/* After the last record: without END, end = the last time seen and the components
 * are estimated (communication and waiting from the records, computation = rest). */
void vlpost_stats_done(vlpost_tstats *s);

/* Read every task of set to its end and summarise it into st[0..set->n-1], through
 * the checks of the converters (scan.c: vlpost_scan with VLPOST_SCAN_INCOMPLETE).
 * Truncated files and missing END records are tolerated (warning on warn, if not
 * NULL); any other error returns -1 with the message in err. */
int vlpost_stats_collect(vlpost_tset *set, vlpost_tstats *st, FILE *warn, char *err, size_t errlen);

/* Print the table (or CSV: header row + one row per task).  The text form ends
 * with a totals row, "predicted elapsed time: X.XXXXXX s" and, if a task had no
 * END record, a footnote for the '*' marks.  Returns 0, or -1 on a write error. */
int vlpost_stats_print(FILE *out, const vlpost_tstats *st, int n, int csv);

/* Predicted elapsed time in ns: latest end minus earliest start. */
int64_t vlpost_stats_elapsed(const vlpost_tstats *st, int n);

/* ---- the full report: LS-DYNA inputs, size histogram, matrix, critical path ----
 *
 * Per task, the inputs of the LS-DYNA alpha/beta method (Lin, "A correlation study
 * between MPP LS-DYNA performance and various interconnection networks") are the
 * number of messages M and the average message size s: vlpost_tstats.nsent and
 * bsent / nsent (point-to-point SEND records; group operations are not counted). */

#define VLPOST_HIST_N 64 /* buckets 0 (0 bytes), 1 (1), 2 (2-3), ..., 63 (2^62 and more) */

/* Histogram bucket of a message of bytes bytes: 0 for 0, else floor(log2(bytes)) + 1,
 * so bucket k >= 1 holds [2^(k-1), 2^k - 1]. */
int vlpost_hist_bucket(uint64_t bytes);

/* Smallest and largest size of bucket k (0 <= k < VLPOST_HIST_N). */
uint64_t vlpost_hist_lo(int k);
uint64_t vlpost_hist_hi(int k);

/* One (sender, receiver) pair of the who-sends-to-whom matrix. */
typedef struct vlpost_pair {
	int from, to;       /* processors; to = -1: a task without trace */
	int32_t to_tid;
	uint64_t n, bytes;  /* messages, user bytes */
} vlpost_pair;

/* The critical path: see docs/vlpost.md, "Critical path". */
typedef struct vlpost_critpath {
	int64_t start, end;         /* ns; length = end - start = comp + comm + wait */
	int64_t comp, comm, wait;   /* ns on the path */
	uint64_t messages, spawns;  /* dependency edges taken */
	int end_proc;               /* -1: no task */
	int *procs;                 /* the tasks passed through, from start to end */
	int nprocs;
	int cut;                    /* 1: the walk stopped at an inconsistent trace */
} vlpost_critpath;

typedef struct vlpost_crec vlpost_crec; /* a record kept for the critical path */

typedef struct vlpost_report {
	int n;
	uint64_t hist_n[VLPOST_HIST_N], hist_bytes[VLPOST_HIST_N];
	vlpost_pair *pairs;            /* after vlpost_report_finish: sorted by (from, to, to_tid) */
	size_t npairs, pcap;        /* before: an open-addressing table of pcap slots */
	struct vlpost_tidx *tids;      /* (tid, proc) sorted by tid (critpath.c) */
	struct vlpost_ctask *tk;       /* per task: the kept records (critpath.c) */
	vlpost_critpath cp;
} vlpost_report;

/* Prepare a report for the n tasks of st (vlpost_stats_init must have been called on
 * them).  Returns 0, or -1 (out of memory; vlpost_report_free is still safe). */
int vlpost_report_init(vlpost_report *rep, const vlpost_tstats *st, int n);

/* Account one validated record of processor proc.  Returns 0, or -1 (out of memory). */
int vlpost_report_add(vlpost_report *rep, int proc, const vl_trec *r);

/* After every record: sort the matrix and compute the critical path from the
 * finished summaries st (vlpost_stats_done).  Returns 0, or -1 (out of memory). */
int vlpost_report_finish(vlpost_report *rep, const vlpost_tstats *st);

/* vlpost_stats_collect plus the report (initialised and finished here; scan.c). */
int vlpost_report_collect(vlpost_tset *set, vlpost_tstats *st, vlpost_report *rep, FILE *warn, char *err,
		       size_t errlen);

void vlpost_report_free(vlpost_report *rep);

enum vlpost_fmt { VLP_FMT_TEXT, VLP_FMT_CSV, VLP_FMT_JSON };
#define VLPOST_REP_MATRIX 2u  /* text: the matrix also for more than VLPOST_MATRIX_AUTO tasks */
#define VLPOST_REP_BRIEF 4u   /* only the per-task table (JSON: tasks, totals, elapsed time) */
#define VLPOST_MATRIX_AUTO 16

/* Print st and rep (rep is not used, and may be NULL, with VLPOST_REP_BRIEF).
 * TEXT: the table of vlpost_stats_print, then the per-task message table, the
 * histogram, the matrix (up to VLPOST_MATRIX_AUTO tasks, or with VLPOST_REP_MATRIX)
 * and the critical path.  CSV: sections separated by an empty line, each a
 * header row and its rows: the tasks (the columns of vlpost_stats_print plus
 * comm_comp_ratio, commwait_total_ratio, avg_bytes_sent), the totals (with the
 * LS-DYNA means and the predicted elapsed time), the histogram, the matrix and
 * the critical path.  JSON: one object (tasks, totals, histogram, matrix,
 * critical_path, predicted_elapsed_s).  Returns 0, or -1 on a write error. */
int vlpost_report_print(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		     enum vlpost_fmt fmt, unsigned flags);

/* Format ns as seconds with 6 decimals, rounded to the nearest microsecond
 * ("0.000015"); buf needs 32 bytes.  Returns the length. */
int vlpost_fmt_sec(char *buf, int64_t ns);

#endif
