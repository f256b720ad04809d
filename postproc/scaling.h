/* scaling.h - `vlpost scaling`: speed-up and efficiency over several runs of one
 * program, as a table and a gnuplot plot.  The rules are in docs/vlpost.md. */
#ifndef VLPOST_SCALING_H
#define VLPOST_SCALING_H

#include <stdint.h>
#include <stdio.h>

/* One run: a trace directory summarised like `vlpost stats` does. */
typedef struct vlpost_run {
	char *label;               /* LABEL of LABEL=DIR, else DIR without trailing '/' */
	char *curve;               /* label up to its last '/' ("" if it has none) */
	const char *dir;
	int order;                 /* position on the command line, from 0 */
	int curve_idx;             /* curves numbered in order of first appearance */
	int tasks;
	int64_t elapsed_us;        /* predicted elapsed time, rounded to the microsecond */
	int64_t comp, comm, wait;  /* ns, sums over the tasks of their END components */
} vlpost_run;

/* Parse RUN (DIR, or LABEL=DIR when RUN is not itself a directory) into r
 * (label, curve, dir, order).  Returns 0, or -1 (out of memory, or an empty LABEL
 * or DIR; message in err). */
int vlpost_run_parse(vlpost_run *r, const char *arg, int order, char *err, size_t errlen);

/* Read the traces of r->dir into r's counts.  Fails (-1, message naming the
 * directory in err) if the directory cannot be read, holds no trace, a trace is
 * invalid, or a task has no END record. */
int vlpost_run_load(vlpost_run *r, char *err, size_t errlen);

/* Speed-up S = T(base) / T(run) and efficiency E = S * tasks(base) / tasks(run),
 * from the elapsed times in microseconds.  Return 0, or -1 if T(run) is 0
 * (undefined). */
int vlpost_run_speedup(const vlpost_run *r, const vlpost_run *base, double *s, double *e);

/* Print the runs (sorted by tasks) as a table, or CSV (header row + one row per
 * run).  Returns 0, or -1 on a write error. */
int vlpost_scaling_print(FILE *out, const vlpost_run *runs, int n, const vlpost_run *base, int csv);

/* `vlpost scaling [-o PREFIX] [--base RUN] [--csv] RUN...`: argv[0] is
 * "scaling".  Returns the exit status (0, or 2 for bad usage or bad input). */
int vlpost_scaling_main(int argc, char **argv);

/* The --help text of `vlpost scaling`. */
extern const char vlpost_scaling_usage[];

#endif
