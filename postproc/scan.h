/* scan.h - the merge without an output (merge.h): the verdict on a trace set and
 * its per-task summaries for the commands that write no trace (vlpost stats,
 * vlpost scaling, and vlpost_stats_collect / vlpost_report_collect of stats.h).
 * Only the send begins and receive ends go through the tournament tree, so a
 * trace set passes here exactly when it passes `vlpost trf` (with
 * VLPOST_SCAN_INCOMPLETE, also when it is only incomplete). */
#ifndef VLPOST_SCAN_H
#define VLPOST_SCAN_H

#include <stddef.h>
#include <stdio.h>
#include "stats.h"
#include "tracereader.h"

/* Tolerate truncated files and tasks without END record (a warning each), and
 * receives of messages such a task sent after its last usable record. */
#define VLPOST_SCAN_INCOMPLETE 1u

/* Read every record of set (freshly opened, or rewound) with the checks of the
 * converters: st[0..set->n-1] receives the summaries and, if rep is not NULL,
 * rep the report (initialised and finished here; free it with
 * vlpost_report_free in every case).  Warnings go to warn (NULL: nowhere).
 * Returns 0, or -1 with the message in err. */
int vlpost_scan(vlpost_tset *set, unsigned flags, FILE *warn, vlpost_tstats *st, vlpost_report *rep,
		char *err, size_t errlen);

#endif
