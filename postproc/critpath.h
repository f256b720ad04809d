/* critpath.h - the critical path of a vlpost_report (stats.h), for stats.c,
 * which owns the report and feeds it the records: critpath.c keeps what the
 * path needs of each record (per task, in rep->tk) and, at the end, walks the
 * path backward from the task that ends last into rep->cp.  It also keeps the
 * index from task ids to processors (rep->tids) that the walk and the matrix
 * use.  The printers read only rep->cp. */
#ifndef VLPOST_CRITPATH_H
#define VLPOST_CRITPATH_H

#include <stdint.h>
#include "stats.h"

/* rep->tids and rep->tk for the rep->n (> 0) tasks of st (their tids).
 * Returns 0, or -1 (out of memory; vlpost_cp_free is still safe). */
int vlpost_cp_init(vlpost_report *rep, const vlpost_tstats *st);

/* Processor of task tid in rep, or -1 (no such task, or no index). */
int vlpost_cp_proc(const vlpost_report *rep, int32_t tid);

/* Keep what the critical path needs of record r of processor proc: SEND,
 * RECV and SPAWN (dependencies), and the records that take time (COMPUTE,
 * PROBE, COLL, WAIT, IRECV, SLEEP; only if t1 > t0).  Returns 0, or -1 (out
 * of memory). */
int vlpost_cp_keep(vlpost_report *rep, int proc, const vl_trec *r);

/* Walk rep->cp from the task of st that ends last back to the start, through
 * the messages a receive waited for and the spawns; st are the finished
 * summaries (vlpost_stats_done).  Returns 0, or -1 (out of memory). */
int vlpost_cp_compute(vlpost_report *rep, const vlpost_tstats *st);

/* Free what vlpost_cp_init, vlpost_cp_keep and vlpost_cp_compute allocated
 * (rep->tk, rep->tids, rep->cp.procs; the pointers are left dangling). */
void vlpost_cp_free(vlpost_report *rep);

#endif
