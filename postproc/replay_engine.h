/* replay_engine.h - the what-if replay engine of `vlpost replay` (docs/replay.md).
 *
 * Re-times the records of a recorded run on another VMConfig: the gaps between
 * a task's records (its computation) are scaled by the new host factor over the
 * old one, every message, receive, probe, spawn and timed collective is costed
 * again with the engine's own model (vlayer/core/model.c) and collective
 * simulation (vlayer/coll/), under the rules of the online layer (message.c,
 * the PVM and MPI front ends).  Receives keep the recorded matching (sender,
 * sequence number).  Replaying a run on its own VMConfig reproduces every
 * record.
 *
 * Tasks are processed in batches, round robin, each until it needs something
 * another task has not produced yet (a message, a rendezvous receive's post
 * time, the entries of a collective, its start time); memory is bounded by the
 * number of tasks plus the messages and collectives in flight.
 */
#ifndef VLPOST_REPLAY_ENGINE_H
#define VLPOST_REPLAY_ENGINE_H

#include <stdint.h>
#include "vltrace.h"
#include "vlayer/core/vmconfig.h"

/* One task's records, read in order. */
typedef struct vlpost_rpl_src {
	vl_thdr hdr;
	/* next record: 1, 0 at the normal end, -1 on an error (errmsg says which) */
	int (*next)(void *ctx, vl_trec *r);
	/* the k-th record after the last one next returned, not consumed: 1 or 0 */
	int (*peek)(void *ctx, uint64_t k, vl_trec *r);
	const char *(*errmsg)(void *ctx);
	void *ctx;
} vlpost_rpl_src;

/* What makes a replay an approximation (bits of vlpost_rpl_result.approx). */
enum {
	VLPOST_RPL_POLL = 1u << 0,     /* unsuccessful polls (nrecv, probe, trecv timeout, test) */
	VLPOST_RPL_WILDCARD = 1u << 1, /* nonblocking wildcard receives */
	VLPOST_RPL_ORDER = 1u << 2,    /* a receive took a message that now arrives later than
					  one taken after it from another sender */
	VLPOST_RPL_SLEEP = 1u << 3,    /* sleeps (a polling loop may sleep a different number
					  of times) */
	VLPOST_RPL_PARAM = 1u << 4,    /* vl_set_param changes (not applied) */
	VLPOST_RPL_NBCOLL = 1u << 5,   /* nonblocking collectives (entry placed approximately) */
	VLPOST_RPL_SUBCOMM = 1u << 6,  /* collectives on communicators other than the world and
					  PVM barriers (kept as recorded, shifted) */
	VLPOST_RPL_NOTRACE = 1u << 7,  /* messages with tasks that left no trace, untimed ones */
	VLPOST_RPL_FLOPS = 1u << 8,    /* vl_compute records kept while host flops differ */
	VLPOST_RPL_OVERLAP = 1u << 9,  /* a record beginning inside an earlier call */
	VLPOST_RPL_MCASTNET = 1u << 10, /* multicasts on a [topology]: each message alone */
	VLPOST_RPL_FLOWS = 1u << 11,   /* more messages in flight on shared links than the
					  table holds: the others at their contention-free time */
	VLPOST_RPL_LATE = 1u << 12,    /* a message on shared links came after the flows it
					  shares them with had been run on without it */
	VLPOST_RPL_NMSGS = 13
};

/* A line that says what an approximation bit means. */
const char *vlpost_rpl_approx_text(unsigned bit);

typedef struct vlpost_rpl_result {
	unsigned approx;       /* VLPOST_RPL_* seen */
	uint64_t events;       /* records replayed */
	uint64_t differ;       /* replayed records whose times differ from the recorded ones */
	int64_t gap_ns;        /* time between records that the model did not cost
				  (computation, unrecorded calls), old run */
} vlpost_rpl_result;

/* Called for every replayed record of task (index into src), in each task's
 * order; h is the task's header with the replayed start time. */
typedef int (*vlpost_rpl_emit)(void *ctx, int task, const vl_thdr *h, const vl_trec *r);

/* Replay the n tasks of src, recorded on old, on nw.  Task hosts keep their
 * index (mapped by name if nw has fewer hosts).  Returns 0, or -1 with a
 * one-line message in err (bad input: a host that does not exist, a receive
 * whose send is not in the traces, a stalled replay, a read error, emit
 * returning < 0). */
int vlpost_rpl_run(const vlcfg_config *old, const vlcfg_config *nw, int n, vlpost_rpl_src *src,
		   vlpost_rpl_emit emit, void *ctx, vlpost_rpl_result *res, char *err,
		   size_t errlen);

#endif
