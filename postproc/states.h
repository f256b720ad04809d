/* states.h - the per-task states shared by the converters built on the merge
 * (timeline.c, otf2.c): from each task's records, the intervals it spends
 * Computing, Communicating and Waiting (receives: waiting for the message;
 * group operations: waiting first), the split of multicast intervals, the send
 * begins and receive ends of the messages, marks and parameters.  Computing
 * after a record is deferred: it begins only if no other state begins at the
 * same time.  The converter gives its own event kinds and says how a state
 * change and a group operation's boundaries become its events. */
#ifndef VLPOST_STATES_H
#define VLPOST_STATES_H

#include <stdint.h>
#include "merge.h"

/* the states; VLS_NONE: none (before the first, after the last, in a group operation) */
enum { VLS_COMP, VLS_COMM, VLS_WAIT, VLS_NONE = -1 };

/* The head of the converters' events. */
typedef struct vlpost_st_ev {
	vlpost_mg_ev m;          /* peer: send begin's destination processor (-1: no trace); receive end's sender */
	int64_t bytes;
	uint32_t req;      /* sends and receive ends of nonblocking requests, ev_irecv, ev_wait */
	uint8_t kind, val; /* val: the converter's (state, collective, ...); marks 0, parameters 1 */
	char text[24];     /* marks and parameters */
} vlpost_st_ev;

typedef struct vlpost_st_task vlpost_st_task;

typedef struct vlpost_st_ops {
	int ev_send, ev_recv;    /* the converter's event kinds */
	int ev_mark, ev_param;   /* ev_param -1: parameters are left out */
	int ev_irecv, ev_wait;   /* a nonblocking receive posted (at its t1), a nonblocking
	                            send completed (at its t1); -1: left out */
	/* queue an event of kind at t, zeroed but for m.t and kind (no deferred Computing) */
	vlpost_st_ev *(*push)(vlpost_st_task *k, int kind, int64_t t);
	/* the state changes from k->cur to s at t (either may be VLS_NONE) */
	void (*change)(vlpost_st_task *k, int64_t t, int s);
	/* a group operation's first events at r->u.v.t0, and its last at t1 */
	void (*coll_begin)(vlm *m, vlpost_st_task *k, const vl_trec *r);
	void (*coll_end)(vlm *m, vlpost_st_task *k, const vl_trec *r);
} vlpost_st_ops;

/* The head of the converters' tasks (after it, their own fields). */
struct vlpost_st_task {
	vlpost_mg_task m;
	const vlpost_st_ops *ops;
	int cur;           /* the state the task is in, or VLS_NONE */
	int defer;         /* Computing is due at defer_t, unless a state begins then */
	int64_t defer_t;
};

/* Before anything: no state yet. */
void vlpost_st_init(vlpost_st_task *k, const vlpost_st_ops *ops);

/* Queue an event of kind at t, after the deferred Computing if due before t. */
vlpost_st_ev *vlpost_st_push(vlpost_st_task *k, int kind, int64_t t);

/* The task is in state s (VLS_NONE: none) from time t on. */
void vlpost_st_state(vlpost_st_task *k, int64_t t, int s);

/* State s during [a, b) (nothing if empty). */
void vlpost_st_seg(vlpost_st_task *k, int64_t a, int64_t b, int s);

/* After a record: computing from t on, unless the next state begins at t. */
void vlpost_st_done_at(vlpost_st_task *k, int64_t t);

/* The task ends at t: no Computing due at or after it. */
void vlpost_st_end_at(vlpost_st_task *k, int64_t t);

/* Queue the events of one record (none for START, END, COMPUTE): 0, or -1 on error. */
int vlpost_st_map(vlm *m, vlpost_st_task *k, const vl_trec *r);

#endif
