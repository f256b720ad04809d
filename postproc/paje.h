/* paje.h - Pajé output (pj_dump, ViTE) and the `vlpost paje` command.
 * The event -> Pajé mapping is documented in docs/vlpost.md. */
#ifndef VLPOST_PAJE_H
#define VLPOST_PAJE_H

#include <stdio.h>
#include "stats.h"
#include "tracereader.h"

typedef struct vlpost_paje_opt {
	int partial;  /* tolerate incomplete traces, missing senders and tachyons */
	FILE *warn;   /* where warnings go (NULL: nowhere) */
} vlpost_paje_opt;

/* Convert set (freshly opened, or rewound) to a Pajé trace on out: the header,
 * the containers (root -> virtual hosts -> tasks), then one streaming k-way merge
 * over the tasks sorted by (virtual time in ns, processor, emission order).
 * st[0..set->n-1] receives the per-task summary.  Fails (-1, message in err) on
 * an invalid or incomplete trace, a receive from a task without trace, a
 * receive whose send is missing or ends before its send begins, unless
 * opt->partial (then the message gets no link); also on a write error. */
int vlpost_paje_write(vlpost_tset *set, FILE *out, const vlpost_paje_opt *opt, vlpost_tstats *st,
		   char *err, size_t errlen);

/* `vlpost paje [-o FILE.paje] [--partial] TRACEDIR`: argv[0] is "paje".
 * Returns the exit status (0, or 2 for bad usage or bad input). */
int vlpost_paje_main(int argc, char **argv);

/* The --help text of `vlpost paje`. */
extern const char vlpost_paje_usage[];

#endif
