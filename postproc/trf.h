/* trf.h - PICL 2.0 (.trf) output for ParaGraph, and its checker.
 * The event -> PICL mapping is documented in docs/vlpost.md. */
#ifndef VLPOST_TRF_H
#define VLPOST_TRF_H

#include <stdint.h>
#include <stdio.h>
#include "stats.h"
#include "tracereader.h"

typedef struct vlpost_trf_opt {
	int partial;  /* tolerate incomplete traces, missing senders and tachyons */
	FILE *warn;   /* where --partial reports what it tolerated (NULL: nowhere) */
} vlpost_trf_opt;

/* Convert set (freshly opened, or rewound) to PICL 2.0 on out: one streaming
 * k-way merge over the tasks, sorted by (virtual time in ns, processor, emission
 * order).  st[0..set->n-1] receives the per-task summary.  Fails (-1, message in
 * err) on an invalid or incomplete trace, a receive from a task without trace, a
 * receive whose send is missing, or a receive that ends before its send begins,
 * unless opt->partial; also on a write error. */
int vlpost_trf_write(vlpost_tset *set, FILE *out, const vlpost_trf_opt *opt, vlpost_tstats *st,
		  char *err, size_t errlen);

/* Result of vlpost_trf_check. */
typedef struct vlpost_check_res {
	uint64_t records;  /* lines */
	int procs;         /* processors seen */
	uint64_t line;     /* line of the first error (0: none) */
} vlpost_check_res;

/* Validate a .trf stream (rules in docs/vlpost.md).  Returns 0 if valid, 1 if
 * not (res->line and err tell the first error), -1 on a read error. */
int vlpost_trf_check(FILE *in, vlpost_check_res *res, char *err, size_t errlen);

#endif
