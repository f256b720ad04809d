/* timeline.h - a trace set as the Pajé and SVG outputs show it (paje.c, svg.c).
 *
 * Per task: its creation, its states (states.h: Computing, Communicating,
 * Waiting), its group operations (a Collective pushed and popped), its marks
 * and its end; and every message as a link from its send begin to its receive
 * end, matched by the merge (merge.h: (sender, seq), receiver and tag).
 * The events reach the caller's function in global order: by virtual time,
 * then processor, then the order in which the task emitted them.  Memory: the
 * merge's, plus the messages in flight (link started, receive end not seen). */
#ifndef VLPOST_TIMELINE_H
#define VLPOST_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "merge.h"
#include "stats.h"
#include "tracereader.h"

/* The kinds of events. */
enum {
	VLP_TL_CREATE,      /* the task begins (at its header's start time) */
	VLP_TL_DESTROY,     /* the task ends (at its summary's end; after its last LINK_END) */
	VLP_TL_STATE,       /* the task is in state val (VLS_COMP, VLS_COMM, VLS_WAIT) from t on */
	VLP_TL_PUSH,        /* a group operation begins: val indexes vlpost_tl_coll_name */
	VLP_TL_POP,         /* the group operation ends */
	VLP_TL_MARK,        /* a user mark: text */
	VLP_TL_LINK_START,  /* the send begin of message (sender, seq): bytes, tag */
	VLP_TL_LINK_END     /* the receive end of message (sender, seq) */
};

typedef struct vlpost_tl_ev {
	int kind;          /* VLP_TL_* */
	int proc;          /* the task (processor); links: LINK_START the sender, LINK_END the receiver */
	int64_t t;         /* ns */
	int val;           /* STATE: the state; PUSH: the collective */
	int sender;        /* links: the sender's processor */
	uint32_t seq;      /* links: the message's seq (numbered by its sender) */
	int64_t bytes;     /* LINK_START: user bytes */
	int32_t tag;       /* LINK_START */
	const char *text;  /* MARK: the label (or "mark N"), at most 23 bytes, as recorded */
} vlpost_tl_ev;

/* The collectives of VLP_TL_PUSH: "other", the PVM group operations (barrier ..
 * leave), then the MPI kinds of vltrace.h (allreduce .. exscan). */
#define VLPOST_TL_NCOLL 14
extern const char *const vlpost_tl_coll_name[VLPOST_TL_NCOLL];

/* Receives each event: 0, or -1 to stop (with a message in the err buffer
 * given to vlpost_tl_init). */
typedef int (*vlpost_tl_fn)(void *ctx, const vlpost_tl_ev *e);

typedef struct vlpost_tl {
	vlm m;                     /* m.set, m.st_base, m.err: as given to vlpost_tl_init */
	vlpost_tl_fn fn;
	void *ctx;
} vlpost_tl;

/* Set up tl over set (freshly opened, or rewound); st[0..set->n-1] receives
 * the per-task summary (complete once vlpost_tl_run has returned 0).  partial:
 * tolerate incomplete traces, receives without their send and tachyons (the
 * message then gets no link), with a warning on warn (NULL: none) instead of
 * an error.  Returns 0, or -1 with the message in err; call vlpost_tl_free in
 * both cases. */
int vlpost_tl_init(vlpost_tl *tl, vlpost_tset *set, int partial, FILE *warn, vlpost_tstats *st,
		   vlpost_tl_fn fn, void *ctx, char *err, size_t errlen);

/* Pass every event to fn, in order.  Fails (-1, message in err) on an invalid
 * or incomplete trace, a receive from a task without trace, a receive whose
 * send is missing or ends before its send begins (unless partial), and when
 * fn fails.  Returns 0 or -1. */
int vlpost_tl_run(vlpost_tl *tl);

void vlpost_tl_free(vlpost_tl *tl);

#endif
