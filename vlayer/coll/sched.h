/* sched.h - the schedule of one collective, internal to vlayer/coll/: for
 * every rank, the ordered list of sends and receives the algorithm makes, and
 * when it starts and waits for each.  The algorithm files (alg/) append to it
 * (sched.c); run.c matches sends to receives (FIFO per pair of ranks, in the
 * order they are started) and runs it on the model.
 *
 * A rank runs a list of actions: start an operation (a send pays S, a receive
 * is posted) or wait for one.  A blocking send or receive (vlcoll_send,
 * vlcoll_recv: MPI_Send, MPI_Recv) is a start and its wait; nonblocking ones
 * (vlcoll_isend, vlcoll_irecv: MPI_Isend, MPI_Irecv) are started at once and
 * waited for by vlcoll_wait (MPI_Wait) or vlcoll_waitall (MPI_Waitall: every
 * one not yet waited for, in the order they were started); vlcoll_sendrecv is
 * MPI_Sendrecv (Irecv, Isend, Waitall).  The semantics are in coll.h.
 */
#ifndef VLCOLL_SCHED_H
#define VLCOLL_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include "vlayer/coll/coll.h"

typedef struct vlcoll_op {
	int32_t peer;
	uint32_t send : 1;
	uint32_t waited : 1; /* building: a wait for it has been appended */
	uint32_t none : 1;   /* a message the algorithm leaves out (a zero block:
	                        vlcoll_maybe_transfer): its actions do nothing */
	uint32_t match : 29; /* index of the matching operation in peer's list */
	int64_t bytes;       /* (an opened gatherv's while not known, vlcoll_job_block:
	                        VLCOLL_UNKNOWN, or VLCOLL_MAYBE_NONE if it may yet
	                        be left out) */
	int64_t t;           /* once running: a send's departure-ready time (the end of
	                        its send time), a receive's post time; unknown before */
} vlcoll_op;

#define VLCOLL_UNKNOWN (-1)
#define VLCOLL_MAYBE_NONE (-2)

/* An action: start (VLCOLL_START | index) or wait for (index) an operation. */
#define VLCOLL_START INT32_MIN

typedef struct vlcoll_ops {
	vlcoll_op *op;        /* in the order they are started */
	int n, cap;
	int32_t *act;         /* the actions, in order */
	int nact, capact;
	int nowait;           /* building: operations before this one have all been waited for */
} vlcoll_ops;

typedef struct vlcoll_sched {
	int p;
	int bad;            /* an operation named a rank out of range */
	int keep;           /* a message left out for a zero block is kept, marked
	                       none (an opened gatherv: its operations are
	                       numbered alike whatever blocks are known) */
	vlcoll_ops *rank; /* p lists */
} vlcoll_sched;

/* calloc that stops the program (vli_error) when memory is exhausted. */
void *vlcoll_alloc(size_t n, size_t size);

void vlcoll_sched_init(vlcoll_sched *s, int p);
void vlcoll_sched_free(vlcoll_sched *s);
/* Append to rank r's list a blocking send of bytes to peer / receive from peer. */
void vlcoll_send(vlcoll_sched *s, int r, int peer, int64_t bytes);
void vlcoll_recv(vlcoll_sched *s, int r, int peer, int64_t bytes);
/* Start a nonblocking send / receive on rank r; returns its handle for
 * vlcoll_wait (-1 if r or peer is out of range: s->bad is set). */
int vlcoll_isend(vlcoll_sched *s, int r, int peer, int64_t bytes);
int vlcoll_irecv(vlcoll_sched *s, int r, int peer, int64_t bytes);
/* Rank r waits for the operation h (a handle of rank r, not waited for yet). */
void vlcoll_wait(vlcoll_sched *s, int r, int h);
/* Rank r waits for all it has started and not waited for, in start order. */
void vlcoll_waitall(vlcoll_sched *s, int r);
/* A message of bytes from `from` to `to` that the algorithm leaves out if
 * bytes is 0 (Open MPI's linear gatherv skips a zero block): with s->keep
 * the blocking send and receive are there all the same, marked none. */
void vlcoll_maybe_transfer(vlcoll_sched *s, int from, int to, int64_t bytes);
/* MPI_Sendrecv: Irecv from `from`, Isend to `to`, Waitall. */
void vlcoll_sendrecv(vlcoll_sched *s, int r, int to, int64_t sbytes, int from, int64_t rbytes);
/* Open MPI's internal sendrecv (ompi_coll_base_sendrecv): Irecv, a blocking
 * send, Wait. */
void vlcoll_sendrecv_ompi(vlcoll_sched *s, int r, int to, int64_t sbytes, int from,
			  int64_t rbytes);

/* Run s on the model c (semantics of coll.h; a message of c->mpi.eager_limit
 * bytes or more is a rendezvous) and fill out (p entries).
 * Returns 0, or -1 if the schedule is broken: a receive without its send (or
 * the reverse), sizes that differ between a send and its receive, a rank out
 * of range, or a schedule that cannot complete (as two blocking rendezvous
 * sends to each other).  s is consumed (times are written into it) but must
 * still be freed. */
int vlcoll_run(const vlcfg_config *c, vlcoll_sched *s, const int *host, const int64_t *entry,
		 vlcoll_out *out);
/* The same on a VMConfig with a [topology] (run_links.c): the messages
 * between hosts are flows that share the links (links.c), so the ranks are
 * run in the order of their virtual times with the flows, not swept. */
int vlcoll_run_links(const vlcfg_config *c, vlcoll_sched *s, const int *host,
		     const int64_t *entry, vlcoll_out *out);
/* The same with the flows in the run's table net (run_links.c): start
 * (NULL if s is broken), run until every rank waits for an arrival not final
 * yet (vlcoll_links_resume: 1 done, 0 waits - *lb the least estimate of those
 * arrivals -, -1 the schedule cannot complete), free.  s and out must live
 * until freed. */
typedef struct vlcoll_lrun vlcoll_lrun;
vlcoll_lrun *vlcoll_links_start(const vlcfg_config *c, vlcoll_sched *s, const int *host,
				const int64_t *entry, vlcoll_out *out, const vlcoll_net *net);
int vlcoll_links_resume(vlcoll_lrun *L, int64_t *lb);
/* Opened before every rank is in: entry[r] VLCOLL_PENDING for a rank not
 * in yet, which acts once entered (vlcoll_links_enter, at t); messages
 * leave when the schedule says (not after the last entry).  A resume that
 * waits for ranks not in alone gives *lb INT64_MAX.  vlcoll_links_blocker:
 * what rank r waits for in the end (following the ranks it waits on): 1 a
 * message on the links, *est its arrival's last estimate; 2 rank *who, not
 * in yet; 0 nothing (done, or it can act). */
vlcoll_lrun *vlcoll_links_open(const vlcfg_config *c, vlcoll_sched *s, const int *host,
			       const int64_t *entry, vlcoll_out *out, const vlcoll_net *net);
void vlcoll_links_enter(vlcoll_lrun *L, int r, int64_t t);
int vlcoll_links_blocker(const vlcoll_lrun *L, int r, int *who, int64_t *est);
int vlcoll_links_rank_done(const vlcoll_lrun *L, int r);
int vlcoll_links_taken(const vlcoll_lrun *L, uint32_t k);
void vlcoll_links_free(vlcoll_lrun *L);

/* For both runners (prepare.c): a time not known yet (a send not started, a
 * receive not posted); match sends to receives, check that every started
 * operation is waited for and set out to the entries (0, or -1 if s is
 * broken); start operation op of rank r (a send pays S, a receive is
 * posted: op->t). */
/* (VLCOLL_PENDING: coll.h) */
int vlcoll_prepare(vlcoll_sched *s, const int64_t *entry, vlcoll_out *out);
void vlcoll_begin(const vlcfg_config *c, const int *host, int r, vlcoll_op *op, vlcoll_out *o);

/* Rooted algorithms work on relative ranks v = (r - root + p) % p. */
static inline int vlcoll_abs(int v, int root, int p)
{
	return (v + root) % p;
}

/* Sum of blk[r] over the ranks whose relative rank is in [lo, hi). */
int64_t vlcoll_sum(const int64_t *blk, int root, int p, int lo, int hi);

#endif
