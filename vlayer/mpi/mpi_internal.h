/* mpi_internal.h - the MPI front end's internal declarations, shared by the
 * files of vlayer/mpi/ and the generated collectives (build/gen/mpi_coll_gen.c);
 * nothing outside vlayer/mpi/ includes it.  Every name here is vlmpi_ / VLMPI_.
 *
 * The front end translates MPI calls into engine operations (clock.c,
 * message.c, coll.c) through the PMPI profiling interface.  Virtual time
 * travels beside the user's messages: every timed message is preceded by a
 * small header on a private duplicate of MPI_COMM_WORLD (the header
 * communicator) carrying the communicator id, tag, sequence number, size,
 * virtual send time and the costs of the send.  The user's message itself is
 * sent untouched, with the user's datatype, so matching, wildcards, message
 * order, status fields and MPI_Get_count are exactly MPI's.  After a receive
 * completes, the receiver takes the first header from that source with the
 * same communicator id and tag: MPI's non-overtaking rule keeps the two
 * streams in the same order.
 *
 * Rendezvous (size >= [mpi] eager_limit, and every synchronous send): the
 * receiver answers the header with the virtual time its receive was posted, on
 * a second private communicator; the send starts at the later of the two.
 * While a task waits in the layer, receives it has posted are watched so that
 * their answers go out (otherwise two tasks that pre-post receives and then
 * send to each other would wait for each other's answer).
 *
 * Collectives run for real; their virtual time is simulated by the engine's
 * collectives (vlayer/coll) from the entry times of all members, exchanged
 * with one extra allgather.
 *
 * Which file defines what:
 *   init.c        MPI_Init, MPI_Finalize, MPI_Wtime (C and Fortran start and end)
 *   comm.c        the communicators the layer knows: ids, members, freeing
 *   newcomm.c     the calls that create communicators (collectives on the parent)
 *   header.c      the timing header protocol: headers, rendezvous answers
 *   request.c     the requests the layer follows; waiting while watching receives
 *   send.c        sends in the four modes, blocking and nonblocking
 *   recv.c        receives and probes
 *   sendrecv.c    MPI_Sendrecv, MPI_Sendrecv_replace
 *   persistent.c  persistent requests: the *_init calls, MPI_Start
 *   complete.c    MPI_Wait and MPI_Test in all their forms; MPI_Request_free,
 *                 MPI_Cancel
 *   coll.c        the timing of collectives, called by the generated collectives
 *   order.c       virtual order: joining the board, waiting, the choice of
 *                 wildcard receives and probes, eager sends by copy
 *   fortran.c     argument conversions of the generated Fortran entry points
 *                 (fortran.h)
 */
#ifndef VLMPI_INTERNAL_H
#define VLMPI_INTERNAL_H
#include <stdint.h>
#include <mpi.h>
#include "vlayer/core/engine.h"

/* The front end's implementations (vlmpi_NAME), one per line of mpi.protos. */
#include "mpi_wrap_gen.h"

/* ---- comm.c: communicators ---- */

/* A communicator the layer knows: MPI_COMM_WORLD, MPI_COMM_SELF, or an
 * intracommunicator made by a wrapped creation call. */
typedef struct vlmpi_comm {
	MPI_Comm comm;
	MPI_Comm pcomm;    /* virtual order: the layer's own duplicate (coll.c), or MPI_COMM_NULL */
	int busy, dead;    /* collectives still running on pcomm; freed by the program */
	uint64_t id;       /* the same on every member: from the parent's id and history */
	uint32_t ncreated; /* communicators created from this one so far */
	uint64_t ncoll;    /* collectives this task has entered on it so far */
	int size, rank;
	int *world;        /* world rank of each member */
	int *host;         /* virtual host of each member */
} vlmpi_comm;

/* This task's rank in MPI_COMM_WORLD and its size; set by MPI_Init (init.c). */
extern int vlmpi_world_rank, vlmpi_world_size;

/* Registers MPI_COMM_WORLD (id 1) and MPI_COMM_SELF (its first child); at
 * start-up, after vlmpi_world_rank and vlmpi_world_size are set. */
void vlmpi_comm_init(void);
/* The communicator c as the layer knows it; NULL if it does not. */
vlmpi_comm *vlmpi_comm_find(MPI_Comm c);
/* The same, by its id. */
vlmpi_comm *vlmpi_comm_by_id(uint64_t id);
/* Registers c, created collectively from parent (newcomm.c). */
void vlmpi_comm_created(MPI_Comm c, vlmpi_comm *parent);
/* The same, for a timed point-to-point call: NULL (the call passes untimed)
 * for a communicator the layer does not know, with a warning the first time. */
vlmpi_comm *vlmpi_comm_timed(MPI_Comm c);

/* ---- header.c: the timing header protocol ---- */

/* vlmpi_hdr.flags: the send waits for the receiver's answer (rendezvous) /
 * the send was cancelled, the receiver forgets its header. */
#define VLMPI_HDR_RDV    1
#define VLMPI_HDR_CANCEL 2
#define VLMPI_HDR_ANN    4 /* announced on the receiver's slot (virtual order) */
#define VLMPI_HDR_FLOW   8 /* a flow on the [topology]'s links (vli_flow_send) */

/* The header that precedes every timed message (sent as MPI_BYTE). */
typedef struct vlmpi_hdr {
	uint64_t cid;
	int32_t tag;
	uint32_t seq;
	int64_t bytes;
	int64_t t_call;   /* sender's virtual time at the call */
	int64_t send_ns;  /* time the sender spends sending */
	int64_t trans_ns; /* time on the wire */
	int32_t flags;
	int32_t src_host;
	int32_t src;      /* sender's world rank */
	int32_t pad;
} vlmpi_hdr;

/* Creates the header and answer communicators (collective over
 * MPI_COMM_WORLD) and the per-source header stashes; at start-up, after
 * vlmpi_world_size is set.  vlmpi_header_end frees them (MPI_Finalize). */
void vlmpi_header_init(void);
void vlmpi_header_end(void);
/* The header of the next message from world rank src on communicator cid
 * with tag, into *out; removed from the stream unless peek.  Blocks until it
 * is there. */
void vlmpi_header_get(int src, uint64_t cid, int tag, vlmpi_hdr *out, int peek);
/* Takes every header that has really arrived into the stashes (without
 * blocking). */
void vlmpi_header_drain(void);
/* the layer's own looks at MPI without Open MPI's yields (yield.c): begin
 * returns what end restores */
int vlmpi_quiet_begin(void);
void vlmpi_quiet_end(int was);
/* The first header stashed from world rank src on communicator cid whose tag
 * matches tag (MPI_ANY_TAG: any), into *out; 0 if there is none. */
int vlmpi_header_first(int src, uint64_t cid, int tag, vlmpi_hdr *out);
/* Virtual order: among the sources a receive (source: a rank of v or
 * MPI_ANY_SOURCE; tag or MPI_ANY_TAG) posted at t_post can take from (0: a
 * probe, the envelope), the one whose first matching header arrives first -
 * least (arrival, world rank, sequence); its arrival in *tau and tag in
 * *htag; -1 if no header matches. */
int vlmpi_header_best(vlmpi_comm *v, int source, int tag, int64_t t_post, int64_t *tau, int *htag);
/* Whether the arrival of the last vlmpi_header_best's choice is final. */
extern int vlmpi_best_final;
/* ... and whether it is a rendezvous */
extern int vlmpi_best_rdv;
/* how many headers this rank has taken in (a waiting rank republishes its
 * bound when one came in since it last did) */
extern uint64_t vlmpi_headers_in;
/* Fills *h for a message this task sends now to rank dest of v (rdv: a
 * rendezvous) and sends it; the clock is not touched. */
void vlmpi_header_make(vlmpi_hdr *h, vlmpi_comm *v, int dest, int tag, int64_t bytes, int rdv);
/* Tells world rank dest that the send of header *h was cancelled. */
void vlmpi_header_cancel(const vlmpi_hdr *h, int dest);
/* Virtual arrival of the message of header *h whose receive was posted at
 * t_post: departure at the end of the send call, for a rendezvous no earlier
 * than t_post. */
int64_t vlmpi_arrival_of(const vlmpi_hdr *h, int64_t t_post);
/* When the envelope of the message of *h arrives, which is when a wildcard
 * receive, a probe or a poll can match it: an eager message's with its data
 * (vlmpi_arrival_of at 0), a rendezvous's at the end of the send call plus
 * the link's latency (the time of 0 bytes), ahead of its data, as MPI
 * libraries send a request to send first. */
int64_t vlmpi_envelope_of(const vlmpi_hdr *h);
/* The same; 0 if it is an estimate (a flow on shared links not final yet:
 * the layer waits for its final arrival before the program sees it);
 * committed: as vli_flow_arrival_in. */
int vlmpi_arrival_final(const vlmpi_hdr *h, int64_t t_post, int64_t *a, int committed);
/* Whether the message of *h has arrived by virtual time t (a test, a poll),
 * waiting until that is decided if its arrival is not final. */
int vlmpi_arrived_by(const vlmpi_hdr *h, int64_t t_post, int64_t t);
/* Departure of a rendezvous whose receiver answered ack (its post time),
 * and its completion for the sender: when the data are in (departure +
 * transmission), as SimGrid's SMPI completes a rendezvous send. */
int64_t vlmpi_rdv_departure(const vlmpi_hdr *h, int64_t ack);
int64_t vlmpi_rdv_done(const vlmpi_hdr *h, int64_t ack);
/* The earliest a rendezvous with header h to a rank on dst_host can be in,
 * whenever its receive is posted: its send time's end plus the least time
 * its data can take (contention-free, or alone on its route of shared
 * links); its sender acts no earlier (the bound it waits with). */
int64_t vlmpi_rdv_least_end(const vlmpi_hdr *h, int dst_host);
/* The same on a [topology]'s shared links (a flow: vli_flow_pend), to world
 * rank dst: 1 and the final completion, or 0 and its estimate (committed:
 * as vli_flow_arrival_in);
 * vlmpi_rdv_end_wait waits until it is final; vlmpi_rdv_ended_by: whether
 * it has completed by t (a test), waiting until that is decided. */
int vlmpi_rdv_end(const vlmpi_hdr *h, int dst, int64_t ack, int64_t *end, int committed);
int64_t vlmpi_rdv_end_wait(const vlmpi_hdr *h, int dst, int64_t ack);
int vlmpi_rdv_ended_by(const vlmpi_hdr *h, int dst, int64_t ack, int64_t t);
/* Receiver's side: answers header *h from world rank src with the post time
 * t_post if it is a rendezvous (on shared links its data leave then);
 * nothing otherwise. */
void vlmpi_ack_send(int src, const vlmpi_hdr *h, int64_t t_post);
/* Publishes the least post time of this rank's receives a rendezvous on
 * shared links may still match (the posted receives with a named source
 * whose message is not in, and a blocking receive's, vlmpi_blocking_post). */
void vlmpi_rdv_post_update(void);
extern int64_t vlmpi_blocking_post;
extern int vlmpi_blocking_src; /* its source (world rank) */
extern int vlmpi_blocking_tag; /* its tag (-1 any) */
extern uint64_t vlmpi_blocking_comm; /* its communicator's id */
/* Sender's side: posts the receive of the answer to header *h from world
 * rank dest into *t; *r completes when it is there.  Returns PMPI_Irecv's. */
int vlmpi_ack_irecv(int64_t *t, int dest, const vlmpi_hdr *h, MPI_Request *r);

/* ---- order.c: virtual order ---- */

/* Whether no message of v that a wildcard receive has not seen can arrive by
 * tau: only v's members can send one (vli_order_safe_among). */
int vlmpi_safe_any(vlmpi_comm *v, int64_t tau, int committed);


struct vlmpi_req;

/* Whether this task keeps virtual order (ordering = virtual, one real host). */
extern int vlmpi_vorder;
/* Join the run's board (after vli_init; collective over MPI_COMM_WORLD) /
 * leave it (MPI_Finalize). */
void vlmpi_order_init(void);
void vlmpi_order_end(void);
/* request.c: the task waits for real from here to vlmpi_wait_end: lb is
 * when it will wake at the earliest (VLI_ORDER_NONE: when a message comes),
 * on/n what it waits on (vli_order_block_on).  Nested waits only update it.
 * Published on the board lazily (see request.c). */
void vlmpi_wait_begin(int64_t lb, uint64_t on, uint64_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same for a receive (source: a rank of v or MPI_ANY_SOURCE) posted at
 * t_post: it wakes at the arrival of its message (once announced). */
void vlmpi_wait_recv(vlmpi_comm *v, int source, int tag, int64_t t_post, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* The same for followed receive request q: once its header is in (the layer
 * took it while waiting), the bound is that message's arrival, not the next
 * header's from its source. */
struct vlmpi_req;
void vlmpi_wait_req(const struct vlmpi_req *q, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vlmpi_wait_end(void);
/* Whether the task is in such a wait (then it waits for real by polling,
 * calling vlmpi_wait_poll, which publishes the wait once someone needs it). */
int vlmpi_waiting(void);
void vlmpi_wait_poll(void);
/* Publishes the wait now (before a call that blocks in MPI without polling). */
void vlmpi_wait_now(void);
/* Raises the bound of the wait in progress to lb (no lower; published if
 * the wait is). */
void vlmpi_wait_raise(int64_t lb);
/* This rank watches the others' bounds until its wait ends (vli_order_watch:
 * a wildcard receive it could not choose yet, order.c). */
void vlmpi_wait_watch(void);
/* What a collective waits on: the communicator's id (top bit clear). */
#define VLMPI_ON_COLL(id) ((id) & ~VLI_ON_TASK(0) ? (id) & ~VLI_ON_TASK(0) : 1)
/* Takes in every header that has arrived, and waits for real for those
 * announced to this task but still on their way. */
void vlmpi_catch_up(void);
/* header.c: the virtual arrival of the message a receive (source: a rank of v or
 * MPI_ANY_SOURCE; tag or MPI_ANY_TAG) posted at t_post would take among the
 * headers there (the earliest envelope: vlmpi_envelope_of); VLI_ORDER_NONE if none. */
int64_t vlmpi_pending_arrival(vlmpi_comm *v, int source, int tag, int64_t t_post);
/* The message a receive or probe takes in virtual order: mode RECV (posted at
 * t_post: waits for one), PROBE (its envelope; waits for one), POLL (only one
 * there by the caller's clock).  Returns 1 and its source (a rank of v) and
 * tag, or 0 (POLL: none). */
enum { VLMPI_PICK_RECV, VLMPI_PICK_PROBE, VLMPI_PICK_POLL };
int vlmpi_pick(vlmpi_comm *v, int source, int tag, int mode, int64_t t_post, int *src, int *htag,
	       const char *call);
/* Sends a copy of the message (MPI_PACKED) and completes it in the
 * background: under virtual order an eager send never waits for real.  Up to
 * VLMPI_COPY_MIN bytes MPI itself never makes a send wait (its own eager
 * limits are higher): those go as they are. */
#define VLMPI_COPY_MIN 1024
int vlmpi_send_copy(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm);
/* Completes the copies that have really gone (wait: all of them); returns
 * how many are still going out (request.c). */
int vlmpi_copies_progress(int wait);
/* vli_order_sleep, but without sleeping while copies still go out. */
void vlmpi_order_sleep(vli_order_wait *w, int how);
/* fn runs in every wait of the layer (vlmpi_order_sleep, a real wait's
 * polls), after the nonblocking wildcard receives have chosen. */
void vlmpi_set_idle(void (*fn)(void));
/* Whether something is so by the caller's clock, once that is decided:
 * try(arg, &result) until it returns 1 (with result), the task waiting on
 * the board meanwhile as a poll (its bound its clock; what: for the stuck
 * report).  Returns the result. */
int vlmpi_decide(int (*try)(void *arg, int *result), void *arg,
		 void (*what)(void *arg, char *buf, size_t n));
/* A request that is complete already (a generalized request; a send's
 * status), into *req. */
int vlmpi_done_request(MPI_Request *req);
/* MPI_Irecv with MPI_ANY_SOURCE under virtual order: the program gets a
 * generalized request; the real receive is made, from the source the layer
 * chooses, once that choice is final while the task waits for anything
 * (vlmpi_deferred_advance), or when the program waits for it or a test
 * finds it complete (vlmpi_deferred_finish).  vlmpi_deferred_cancelled:
 * cancelled by MPI_Cancel.  vlmpi_deferred_drop: freed while active (then
 * MPI receives it, in real order if it was not chosen yet). */
int vlmpi_deferred_start(vlmpi_comm *v, void *buf, int count, MPI_Datatype dt, int tag,
			 MPI_Request *req);
/* The same for a persistent receive with MPI_ANY_SOURCE (MPI_Start): the
 * program keeps its real persistent request, which is never started; the
 * layer receives from the source it chooses, with a receive of its own.
 * vlmpi_deferred_cancel: MPI_Cancel of it; vlmpi_deferred_forget: frees what
 * the layer keeps for it (MPI_Request_free). */
int vlmpi_deferred_restart(struct vlmpi_req *q);
void vlmpi_deferred_cancel(struct vlmpi_req *q);
void vlmpi_deferred_forget(struct vlmpi_req *q);
/* Completes request q (handle *req) for real into *st: makes the real
 * receive of a deferred one (vlmpi_deferred_finish), then waits. */
int vlmpi_deferred_wait(struct vlmpi_req *q, MPI_Request *req, MPI_Status *st);
void vlmpi_deferred_finish(struct vlmpi_req *q);
int vlmpi_deferred_cancelled(const struct vlmpi_req *q);
void vlmpi_deferred_drop(struct vlmpi_req *q);
/* The deferred wildcard receives, in the order posted, take the message
 * each would take when waited for, as far as that choice is final now (no
 * message can still arrive earlier, whatever this task does next). */
void vlmpi_deferred_advance(void);
/* What vlmpi_wait_poll calls while this task waits for real (at most every
 * 50 us): order.c gives vlmpi_deferred_advance. */
void vlmpi_set_wait_hook(void (*fn)(void));

/* ---- request.c: the requests the layer follows ---- */

/* What a followed request is, and the mode of a send. */
enum { VLMPI_REQ_SEND = 1, VLMPI_REQ_RECV, VLMPI_REQ_COLL };
enum { VLMPI_MODE_STD, VLMPI_MODE_B, VLMPI_MODE_S, VLMPI_MODE_R };

struct vlmpi_coll; /* a nonblocking collective being timed (coll.c) */

/* A request the layer follows, found by its MPI handle. */
typedef struct vlmpi_req {
	MPI_Request req;
	int kind, persistent, active;
	vlmpi_comm *vc;
	int peer, tag;         /* as given (communicator ranks) */
	int64_t t_post;        /* virtual time of the post / start */
	/* sends */
	int rdv, mode;
	vlmpi_hdr h;           /* header sent */
	MPI_Request ack;       /* rendezvous: the receiver's answer */
	int64_t ack_t;
	int ack_done;
	int flow_read;         /* its flow's arrival taken or given up (flow_give_up) */
	/* receives */
	int hdr_ready, src_world;
	vlmpi_hdr rh;
	/* persistent: the arguments */
	const void *buf;
	int count;
	MPI_Datatype dt;
	/* virtual order: a wildcard receive not posted for real yet (the
	 * program holds a generalized request; vlmpi_deferred_finish) */
	int deferred;
	void *rbuf;
	struct vlmpi_deferred *dst;
	/* nonblocking collectives */
	struct vlmpi_coll *coll;
	uint32_t num;          /* request number in the trace (per activation) */
} vlmpi_req;

/* Active receives whose header is not taken yet: while it is not 0, the layer
 * never blocks in MPI but polls and watches them (vlmpi_progress). */
extern int vlmpi_n_watch;

/* Follows real request r of kind (VLMPI_REQ_*) on vc, posted now (active);
 * a receive is watched.  Exits on out of memory. */
vlmpi_req *vlmpi_req_new(MPI_Request r, int kind, vlmpi_comm *vc, int peer, int tag);
/* The followed request of handle r; NULL if none (or r is MPI_REQUEST_NULL). */
vlmpi_req *vlmpi_req_find(MPI_Request r);
/* Traces the post of nonblocking receive q, now. */
void vlmpi_irecv_posted(vlmpi_req *q);
/* Stops following q and frees it; what q holds (watch, collective, answer)
 * is the caller's to drop first. */
void vlmpi_req_free(vlmpi_req *q);
/* Takes the header of receive q that completed for real with status *st, and
 * answers a rendezvous; nothing if already taken. */
void vlmpi_recv_header(vlmpi_req *q, const MPI_Status *st);
/* Takes the headers of the watched receives that completed for real. */
void vlmpi_progress(void);
/* PMPI_Wait(r, st), watching the receives meanwhile. */
int vlmpi_real_wait(MPI_Request *r, MPI_Status *st);
/* One turn of such a wait's loop between tests (*spins: the turns so far):
 * the receives watched, the wait published if needed, a stuck run looked
 * for, the processor yielded after 64 turns. */
void vlmpi_spin(int *spins);
/* PMPI_Test of the answer *r to a rendezvous to world rank from (then
 * *done); an answer that is in is seen on the board and frees this task
 * there if it waits on from (vli_order_release_seen). */
int vlmpi_ack_test(MPI_Request *r, int *done, int from);
/* Nonblocking rendezvous sends whose answer may not be in yet (at least:
 * vlmpi_progress takes those that are in, and counts again). */
extern int vlmpi_n_asks;
/* Rendezvous send q, freed by the program before the answer of world rank
 * from was in: out of the table, its answer still watched (and counted as
 * seen) until it is in; vlmpi_detached_end cancels those left (MPI_Finalize). */
void vlmpi_req_detach(vlmpi_req *q, int from);
void vlmpi_detached_end(void);
/* Waits for the answer *r to a rendezvous to world rank dest (tag, bytes:
 * for the warning after 10 s). */
void vlmpi_ack_wait(MPI_Request *r, int dest, int tag, int64_t bytes);
/* A test or probe that found nothing, begun at t0: costs the receive delay
 * from src_host (-1: unknown, this host). */
void vlmpi_poll_cost(int64_t t0, int src_host);

/* ---- send.c: sending ---- */

/* Bytes of count elements of t (0 for MPI_DATATYPE_NULL or count <= 0). */
int64_t vlmpi_type_bytes(MPI_Datatype t, int count);
/* Whether a send of bytes in mode (VLMPI_MODE_*) is eager (else rendezvous). */
int vlmpi_eager(int64_t bytes, int mode);
/* Times the start of nonblocking send q (its header made) of bytes: the call
 * pays the send; for a rendezvous posts the receive of the answer. */
void vlmpi_isend_timing(vlmpi_req *q, int64_t bytes);


/* ---- coll.c: collectives ---- */

/* Block in a real collective: the blocking call when no receive needs
 * watching and no wait may need publishing, else the nonblocking one (which
 * sets MPI_Request cr_) and vlmpi_real_wait.  Sets int rc. */
#define VLMPI_REAL_COLL(blocking, nonblocking)                                 \
	do {                                                                   \
		if (!vlmpi_n_watch && !vlmpi_waiting()) {                      \
			rc = (blocking);                                       \
		} else {                                                       \
			MPI_Request cr_;                                       \
			rc = (nonblocking);                                    \
			if (rc == MPI_SUCCESS)                                 \
				rc = vlmpi_real_wait(&cr_, MPI_STATUS_IGNORE); \
		}                                                              \
	} while (0)

/* Whether comm is timed: *v its vlmpi_comm (NULL if not). */
int vlmpi_coll_timed(MPI_Comm comm, vlmpi_comm **v);
/* Times a blocking collective of kind (enum vl_coll_kind) and variant (enum
 * vlcoll_variant: the call made) that has just run for real, entered at t0:
 * exchanges entry times and sizes (row: this rank's n byte values),
 * simulates, moves the clock.  Returns an MPI error code. */
int vlmpi_coll_time(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
		    const int64_t *row, int n);
/* Under virtual order a member of a bcast, reduce, gather(v), scatter(v),
 * scan or exscan goes on once the members its exit depends on are in
 * (vlcoll_deps; coll.c says how): 1, the call made (*rc its result); 0: the
 * caller runs and times it as usual. */
int vlmpi_early_Bcast(void *buffer, int count, MPI_Datatype t, int root, MPI_Comm comm, int *rc);
int vlmpi_early_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		       int root, MPI_Comm comm, int *rc);
int vlmpi_early_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, int *rc);
int vlmpi_early_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, int *rc);
int vlmpi_early_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[], MPI_Datatype recvtype,
			int root, MPI_Comm comm, int *rc);
int vlmpi_early_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
			 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
			 int root, MPI_Comm comm, int *rc);
int vlmpi_early_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		     MPI_Comm comm, int *rc);
int vlmpi_early_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		       MPI_Comm comm, int *rc);
/* With collectives = shared, a barrier, allreduce, allgather, alltoall or
 * reduce_scatter_block is timed from its first member's entry on (coll.c says how): 1, the
 * call made (*rc its result); 0 (not shared): the caller runs and times it
 * as usual. */
int vlmpi_early_Barrier(MPI_Comm comm, int *rc);
int vlmpi_early_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
			  MPI_Op op, MPI_Comm comm, int *rc);
int vlmpi_early_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  int *rc);
int vlmpi_early_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, int *rc);
int vlmpi_early_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
				     MPI_Datatype t, MPI_Op op, MPI_Comm comm, int *rc);
/* Their nonblocking forms, the same way (the program's *req complete for
 * MPI at once, followed by the layer; coll.c says how): 1, the call made
 * (*rc its result); 0: the caller runs and times it as usual. */
int vlmpi_early_Ibcast(void *buffer, int count, MPI_Datatype t, int root, MPI_Comm comm,
		       MPI_Request *req, int *rc);
int vlmpi_early_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
			int root, MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			MPI_Request *req, int *rc);
int vlmpi_early_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			 MPI_Request *req, int *rc);
int vlmpi_early_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
			 int root, MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		      MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
			MPI_Comm comm, MPI_Request *req, int *rc);
/* With collectives = shared: MPI_Ibarrier, Iallreduce, Iallgather,
 * Ialltoall and Ireduce_scatter_block too (else 0). */
int vlmpi_early_Ibarrier(MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
			   MPI_Op op, MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *req, int *rc);
int vlmpi_early_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  MPI_Request *req, int *rc);
int vlmpi_early_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
				      MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
				      int *rc);
/* With collectives = shared: MPI_Allgatherv, MPI_Reduce_scatter and their
 * nonblocking forms, every block carried in every entry (else 0). */
int vlmpi_early_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[], const int displs[],
			   MPI_Datatype recvtype, MPI_Comm comm, int *rc);
int vlmpi_early_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req, int *rc);
int vlmpi_early_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
			       MPI_Datatype t, MPI_Op op, MPI_Comm comm, int *rc);
int vlmpi_early_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
				MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
				int *rc);
int vlmpi_early_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
			  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, int *rc);
int vlmpi_early_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
			   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *req, int *rc);
/* For a choice among requests at virtual time target (vchoose), nonblocking
 * collective request q not known to have ended: 1 it has (its exit in *t),
 * 2 it ends by target at *t if this rank acts no earlier than *t (then
 * vlmpi_coll_by_commit once it does), 0 it ends after target, -1 it cannot
 * be told yet (*t: no earlier; always so off the early path). */
int vlmpi_coll_by(vlmpi_req *q, int64_t target, int64_t *t);
void vlmpi_coll_by_commit(vlmpi_req *q);
/* A collective on v's pcomm is done: v is freed if the program freed it. */
void vlmpi_comm_unbusy(vlmpi_comm *v);
/* Virtual order has started: the communicators known so far get their
 * private duplicates (comm.c). */
void vlmpi_comm_private(void);
/* The real call or exchange of a collective this rank left at once, still
 * running (MPI_Finalize waits for each); NULL: none (those complete are
 * freed). */
MPI_Request *vlmpi_coll_behind(void);
/* A nonblocking collective was started for real as *req: starts the exchange
 * and follows the request; Wait/Test finish the timing. */
int vlmpi_coll_start(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
		     const int64_t *row, int n, MPI_Request *req);
/* Whether the exit of collective request q is known (wait: wait for it, the
 * rank waiting in it).  Its exchange must be complete; on shared links
 * (collectives = shared) its simulation must also have run as far as this
 * rank's end, which every wait of this rank helps along
 * (vlmpi_coll_progress).  Until then vlmpi_coll_lb: no earlier than it
 * (its entry, or the least estimate its simulation waits for). */
int vlmpi_coll_ready(vlmpi_req *q, int wait);
int64_t vlmpi_coll_lb(const struct vlmpi_coll *c);
/* The board's key (*on, *n) of nonblocking collective c on the early path
 * whose exit is not known yet: 1, else 0.  A rank whose wait or test waits
 * for c alone publishes it, as a blocking member does: the other members
 * then count its exit with the missing ones entering never, not its bound
 * (two members waiting in MPI_Waitany for one MPI_Ibcast held each other's
 * bounds, and virtual order got stuck). */
int vlmpi_coll_wait_key(const struct vlmpi_coll *c, uint64_t *on, uint64_t *n);
/* Whether collective request q has ended for this rank by t (0 while its
 * exchange is not complete), waiting until that is decided on shared
 * links. */
int vlmpi_coll_done_by(vlmpi_req *q, int64_t t);
/* Run the simulations of this rank's open nonblocking collectives on shared
 * links on as far as the final arrivals allow (from the layer's waits:
 * vlmpi_set_idle). */
void vlmpi_coll_progress(void);
/* The virtual exit of c, once vlmpi_coll_ready. */
int64_t vlmpi_coll_exit(const struct vlmpi_coll *c);
/* Moves the clock to c's exit and traces the collective (blocking: costs its
 * communication and waiting; else waits for what is left, in the call that
 * began at t_call). */
void vlmpi_coll_leave(vlmpi_comm *v, struct vlmpi_coll *c, int blocking, int64_t t_call);
/* Frees c. */
void vlmpi_coll_free(struct vlmpi_coll *c);
/* The number of c among the collectives of its communicator (virtual order). */
uint64_t vlmpi_coll_num(const struct vlmpi_coll *c);
/* A blocking collective on comm begins: counts it and, under virtual order,
 * waits (on the members that have not entered it); returns 1 if it waits
 * (then vlmpi_coll_done after it). */
int vlmpi_coll_enter(MPI_Comm comm, const char *name);
/* ... and has left it (when vlmpi_coll_enter returned 1). */
void vlmpi_coll_done(void);
/* Collective request q freed without completion: finishes its exchange, frees. */
void vlmpi_coll_drop(vlmpi_req *q);

#endif
