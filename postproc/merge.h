/* merge.h - the streaming k-way merge shared by the trace converters (trf.c,
 * otf2.c, and timeline.c for paje.c and svg.c) and by scan.c (stats, scaling):
 * each task turns its records into a few events of the converter's own type
 * (queued in the task, each beginning with a vlpost_mg_ev); a tournament
 * (loser) tree over the tasks, keyed by (time of the task's next event,
 * processor), yields them in global time order.  Also the checks of messages
 * (below), the split of multicast intervals, the error/warning reporting of the
 * converters, and their command line.  The per-task states of timeline.c and
 * otf2.c are in states.h.
 *
 * The merge is the one verdict on a trace set: every converter, `vlpost stats`
 * and `vlpost scaling` (scan.c) read through it, so they accept the same traces.
 * Besides each record (tracereader.h), it checks every message: a receive of a
 * traced task's message names a send of that task with its seq, sent to the
 * receiver with the receive's tag, received once, and ends at or after the
 * send begins; so that `vlpost check` accepts whatever `vlpost trf` writes. */
#ifndef VLPOST_MERGE_H
#define VLPOST_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "stats.h"
#include "tracereader.h"

enum { VLPOST_MG_BEGIN, VLPOST_MG_RECS, VLPOST_MG_FINAL, VLPOST_MG_DONE };

/* The head of every queued event. */
typedef struct vlpost_mg_ev {
	int64_t t;        /* ns */
	uint64_t rec;     /* record index (messages) */
	uint32_t seq;     /* messages: the message's seq */
	int32_t peer;     /* send begin: destination's processor; receive end: sender's */
	int32_t tag;      /* messages: the tag */
} vlpost_mg_ev;

/* The head of every converter's task. */
typedef struct vlpost_mg_task {
	vlpost_tfile *f;
	vlpost_tstats *st;
	char *q;          /* the converter's event queue */
	int proc, state;
	int qn, qi;
	int mc_split;     /* the current multicast shares one interval: split it */
	uint32_t sent;    /* seq of the last send begin emitted */
	int32_t ptid[2];  /* cache of the last two peers looked up: tid, processor */
	int pproc[2];
	int pnext;        /* the entry to replace next */
	uint32_t maxseq;  /* --partial: last seq in the usable part of the trace */
	uint32_t inflight; /* messages to this task sent and not yet received */
	int64_t mc_t0, mc_t1;
	uint32_t mc_n, mc_i;
} vlpost_mg_task;

typedef struct vlm vlm;

/* What a converter does; every callback gets the vlm it was given to. */
typedef struct vlpost_mg_ops {
	size_t task_size;  /* of the converter's task, which begins with a vlpost_mg_task */
	size_t queue_off;  /* offset of its event queue in it */
	size_t ev_size;    /* of its event, which begins with a vlpost_mg_ev */
	void (*init)(vlm *m, vlpost_mg_task *k);     /* once per task, before anything */
	void (*begin)(vlm *m, vlpost_mg_task *k);    /* queue the first events */
	/* queue the events of one record: 0, or -1 on error */
	int (*map)(vlm *m, vlpost_mg_task *k, const vl_trec *r);
	void (*end)(vlm *m, vlpost_mg_task *k);      /* queue the last events (stats done) */
} vlpost_mg_ops;

typedef struct vlpost_mg_pend {
	int64_t t;
	uint64_t rec;
	uint32_t seq;
	int32_t tag;
	int sender, receiver;
} vlpost_mg_pend;

/* A message in flight: its send begin emitted, its receive end not yet. */
typedef struct vlpost_mg_fly {
	uint64_t key;      /* (sender + 1) << 32 | seq; 0 empty, ~0 deleted */
	int receiver;
	int32_t tag;
} vlpost_mg_fly;

/* A key of the tournament tree: (time ^ sign bit) << 64 | processor, so that one
 * unsigned comparison orders by time, then processor; VLPOST_MG_KDONE: no more events. */
typedef unsigned __int128 vlpost_mg_key;
#define VLPOST_MG_KDONE (~(vlpost_mg_key)0)

struct vlm {
	vlpost_tset *set;
	const vlpost_mg_ops *ops;
	int partial;           /* tolerate incomplete traces (warnings instead of errors) */
	int incomplete;        /* tolerate only truncated files and tasks without END, and
	                          receives of what such a task sent after its last record */
	FILE *warn;            /* where warnings go (NULL: nowhere) */
	size_t msgmax;         /* the longest error message + 1 (at most 768) */
	vlpost_tstats *st_base;
	char *tk;              /* the tasks, tsz bytes each */
	size_t tsz, esz;       /* ops->task_size in whole cache lines, ops->ev_size */
	vlpost_mg_key *lt;           /* the loser tree: lt[0] the winner, lt[1..lk-1] the losers */
	int lk;                /* leaves: the smallest power of two >= the tasks */
	int last;              /* the task whose event was returned last, or -1 */
	int64_t last_t;        /* the time of that event */
	vlpost_mg_pend *pd;
	size_t npd, cpd;
	vlpost_mg_fly *fly;    /* the messages in flight: open addressing by (sender, seq) */
	size_t nfly, nused, cfly;  /* live entries, live + deleted, capacity (power of 2) */
	char *err;
	size_t errlen;
	/* the progress bar on stderr (VLPOST_PROGRESS; set up by vlpost_mg_init) */
	uint32_t pg_cd;        /* records until the next look at the clock */
	int pg_on, pg_line;    /* enabled; a bar is on the current line of stderr */
	uint64_t pg_done, pg_total;  /* records consumed (in steps of the countdown), in all */
	int64_t pg_t0, pg_last, pg_delay;  /* ns (monotonic): start, last drawn, delay */
};

/* Task i of m. */
static inline vlpost_mg_task *vlpost_mg_tk(const vlm *m, int i)
{
	return (vlpost_mg_task *)(m->tk + (size_t)i * m->tsz);
}

/* Set up m over set (fields set, ops, partial, incomplete, warn, msgmax, st_base,
 * err, errlen already filled in): the tasks, and with m->partial or
 * m->incomplete the scan of what each task really sent.  0, or -1 (message in
 * m->err). */
int vlpost_mg_init(vlm *m);

/* The next event in global order (sorted by time, processor, emission order),
 * its task in *k; NULL and *rc 0 when there are no more, NULL and *rc -1 on
 * error (message in m->err).  The event stays valid until the next call. */
vlpost_mg_ev *vlpost_mg_next(vlm *m, vlpost_mg_task **k, int *rc);

void vlpost_mg_free(vlm *m);

/* An error (-1), a warning, and an inconsistency: an error, or with m->partial a warning. */
__attribute__((format(printf, 2, 3))) int vlpost_mg_fail(vlm *m, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void vlpost_mg_warn(vlm *m, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) int vlpost_mg_bad(vlm *m, const char *fmt, ...);

/* Processor of task tid, or -1 (two-entry cache per task: peers repeat, and
 * often alternate between a left and a right neighbour). */
static inline int vlpost_mg_find(const vlm *m, vlpost_mg_task *k, int32_t tid)
{
	int j;
	if (tid == k->ptid[0])
		return k->pproc[0];
	if (tid == k->ptid[1])
		return k->pproc[1];
	j = k->pnext;
	k->pnext ^= 1;
	k->ptid[j] = tid;
	k->pproc[j] = vlpost_tset_find(m->set, tid);
	return k->pproc[j];
}

/* The span [*a, *b] of send record r (set to its [t0, t1]); a multicast that
 * shares one interval with the next sends is split among them.  1 if r
 * continues the multicast of the previous record. */
int vlpost_mg_send_span(vlpost_mg_task *k, const vl_trec *r, int64_t *a, int64_t *b);

/* Processor of the sender of received r in *src, or -1 if it has no send to
 * match (synthetic message, or --partial and the sender's trace lacks it).
 * 0, or -1 on error. */
int vlpost_mg_recv_src(vlm *m, vlpost_mg_task *k, const vl_trec *r, int *src);

/* A send begin of task k emitted (e->peer: the destination's processor, -1 for
 * a task without trace): settle the receives that waited for it, else keep it
 * in flight.  *matched: receiver + 1 if its receive ended at the same time; -1
 * if its receive ended before it (a tachyon, --partial); 0 if it is in flight
 * until its receive end or its receiver's end; -2 if it is never received
 * (the destination has no trace or has ended).  0, or -1 on error. */
int vlpost_mg_send_begin(vlm *m, vlpost_mg_task *k, const vlpost_mg_ev *e, int *matched);

/* A receive end of receiver emitted (e->peer: the sender): its message must be
 * in flight to receiver with the same tag, or be sent later at the same time
 * (it waits for that send begin).  1 if it ended a message in flight, 0 if it
 * waits (or, --partial, was tolerated), -1 on error. */
int vlpost_mg_recv_end(vlm *m, const vlpost_mg_ev *e, int receiver);

/* The messages in flight to receiver, which has ended: never received.  fn (if
 * not NULL) gets each (sender, seq) and returns 0, or -1 to stop with an
 * error; they are forgotten.  The merge calls it with fn NULL once a task's
 * last event is used.  0, or -1. */
int vlpost_mg_unreceived(vlm *m, int receiver, int (*fn)(vlm *m, void *ctx, int sender, uint32_t seq),
			 void *ctx);

/* The command of a converter writing one output (paje, otf2):
 * `vlpost NAME [-o OUT] [--partial] TRACEDIR`. */
typedef struct vlpost_mg_cmd {
	const char *name;    /* "paje": argv[0], and the prefix of its usage errors */
	const char *usage;   /* --help; its first line follows usage errors */
	const char *out_is;  /* what -o names: "file name", "directory name" */
	const char *suffix;  /* of the default OUT, TRACEDIR + suffix (".paje") */
	/* write set into out: the exit status */
	int (*to)(vlpost_tset *set, const char *out, int partial, vlpost_tstats *st);
} vlpost_mg_cmd;

/* Run command c: the exit status (0, or 2 for bad usage or bad input). */
int vlpost_mg_main(const vlpost_mg_cmd *c, int argc, char **argv);

#endif
