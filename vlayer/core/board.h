/* board.h - the board of a run: one shared-memory file that every task of the
 * run on this real host maps (board.c), through which virtual order (order.c)
 * is kept.  Internal to vlayer/core: front ends use engine.h's vli_order_*.
 *
 * One slot per task.  A slot holds the task's state, the lower bound lb of
 * the virtual time of anything it may still send (its clock while it runs,
 * the time it will wake while it waits), how many timed messages were sent to
 * it (announced, counted by the senders) and how many it has taken in
 * (received).  A tournament tree over the slots' lb keeps the minimum over
 * all tasks at its root; the root never decreases (order.c says why), so a
 * task may read it without the lock.  Everything else changes under the
 * board's lock (a robust process-shared mutex).
 */
#ifndef VLI_BOARD_H
#define VLI_BOARD_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "vlayer/core/engine.h"

#define VLI_BOARD_MAGIC 0x31445241424c5600ULL /* "\0VLBARD1" */
#define VLI_BOARD_SLOTS 8192                  /* tasks of one run, a power of 2 */
#define VLI_BOARD_NONE INT64_MAX              /* lb of a task that sends nothing more */
#define VLI_BOARD_GATES 256                   /* barriers in use at once */
#define VLI_BOARD_COLLS 256                   /* collectives waited in at once */

/* slot states */
enum {
	VLI_SLOT_FREE = 0,
	VLI_SLOT_PENDING, /* reserved by a spawning parent, the task has not joined yet */
	VLI_SLOT_RUNNING, /* computing, or in a call that does not wait for others */
	VLI_SLOT_BLOCKED, /* waits for a message (lb: when it will wake) */
	VLI_SLOT_EXTERN,  /* waits for something from outside the virtual world */
	VLI_SLOT_EXITED,  /* ended (or found dead): sends nothing more */
	VLI_SLOT_OUTSIDE  /* not virtualised, or on another real host: not waited for */
};

typedef struct vli_slot {
	_Atomic int state;
	_Atomic int id;            /* the front end's task id (PVM tid, MPI world rank) */
	_Atomic int pid;           /* 0 until the task has joined */
	int host;                  /* virtual host */
	_Atomic int64_t now;       /* the task's clock when it last published */
	_Atomic int64_t lb;        /* its leaf in the tree (a copy, for reading) */
	_Atomic uint64_t announced;/* timed messages sent to it */
	_Atomic uint64_t received; /* of those, taken in */
	/* the same for messages of the front end's side classes 1..VLI_SIDES
	 * (PVM: other contexts than the task's first, libgpvm3's group
	 * context, by context number): counted apart, so that a task waiting
	 * in one class is never held behind by a message it can only take in
	 * another */
	_Atomic uint64_t side_announced[VLI_SIDES], side_received[VLI_SIDES];
	/* the front end's key of the task's main class (PVM: its first
	 * context), which senders compare with theirs; key_set: 0 = unknown */
	_Atomic int key, key_set;
	_Atomic uint32_t kick;     /* futex word: a message was announced to it */
	_Atomic int watching;      /* it sleeps on the board's epoch, not on kick */
	_Atomic uint64_t wait_on;  /* while it waits: on whom (vli_order_block_on; 0: none) */
	_Atomic uint64_t wait_n;   /* ... and which instance (a collective's number) */
	/* answers that free it (a rendezvous receive posted): counted by the
	 * task that answers before the answer goes, and by this task once the
	 * answer is in and its wait on the answerer is cleared */
	_Atomic uint64_t released, released_seen;
	/* while it computes (between two layer calls), the others can see its
	 * clock move with its CPU time (order.c, live bounds): a sequence number,
	 * odd inside the layer, and the clock, CPU mark (thread clock of thread
	 * tid), read cost and host factor (bits of a double) of its last leave */
	_Atomic uint32_t live_seq;
	_Atomic int live_tid;
	_Atomic int64_t live_now, live_mark, live_rc;
	_Atomic uint64_t live_factor;
	_Atomic int64_t live_cap;  /* >= 0: in a call passed through, computation frozen at this CPU time */
	/* a task of another real host: its CPU time as its host last reported
	 * it to the board server (order_net.c), read in segment live_cpu_q */
	_Atomic int64_t live_cpu;
	_Atomic uint32_t live_cpu_q;
	/* the least post time of its receives a pending rendezvous may still
	 * match (order_flows.c): 0 none, else that time + 1; and per source
	 * (under the lock): rdv_n entries, the least post time rdv_at[i] of its
	 * receives that name source rdv_src[i] (a task id); more than
	 * VLI_RDV_SRCS sources: rdv_n = VLI_RDV_SRCS + 1, rdv_post for each */
	_Atomic int64_t rdv_post;
	/* (under the lock) its receives not matched yet, for a rendezvous
	 * sender that has no answer yet (vli_order_post_lb) and, the wildcard
	 * ones (src < 0, first), for a pending rendezvous (order_flows.c):
	 * post_n entries; more than VLI_POSTS: post_n = VLI_POSTS + 1 and
	 * post_min for all */
	int32_t post_n;
	int64_t post_min;
	vli_post post[VLI_POSTS];
	int32_t rdv_n;
	int32_t rdv_src[VLI_RDV_SRCS];
	int64_t rdv_at[VLI_RDV_SRCS];
	/* (under the lock) a blocking wildcard receive in progress, whose
	 * rendezvous leaves at its post like a named one's: 0 none, else its
	 * post time + 1; its tag (-1 any) and communicator */
	int64_t wild_at;
	int32_t wild_tag;
	uint64_t wild_comm;
	/* (under the lock) the members of collective (deps_on, deps_n) it
	 * waits for there, as a mask of slots (vli_order_coll_deps).  While it
	 * waits in another collective, or none was said: all */
	uint64_t deps_on, deps_n;
	uint64_t deps[VLI_BOARD_SLOTS / 64];
	/* (under the lock) the nonblocking collectives on shared links it has
	 * entered, timed from their first entry (vli_flow_own_floor), whose
	 * own messages are not all in the table of flows yet: none of those
	 * leaves before floor (on 0: a free entry) */
	struct {
		uint64_t on, n;
		int64_t floor;
	} nbf[VLI_SLOT_FLOORS];
	int64_t since;             /* real monotonic ns of the reservation */
	char what[112];            /* what it waits for (for the deadlock report) */
} vli_slot;

typedef struct vli_board {
	uint64_t magic;
	uint32_t size;             /* sizeof(vli_board), checked on attach */
	char real_host[64];        /* real host of the task that created it */
	_Atomic uint32_t epoch;    /* futex word: the root changed */
	_Atomic uint32_t nwatch;   /* tasks waiting for the root to pass a time */
	_Atomic int nslots;        /* slots handed out */
	_Atomic int deadlock;      /* 1: a task reports a deadlock, 2: declared */
	_Atomic int outside;       /* tasks not waited for (not virtualised, other hosts) */
	_Atomic int nwaiton;       /* tasks waiting on another (wait_on != 0) */
	int nfloors;               /* collectives with nb set (order_flows.c): under the lock */
	int nownfloors;            /* slots' nbf entries in use (order_flows.c): under the lock */
	_Atomic int64_t la;        /* lookahead: least send + transmission time of any task */
	_Atomic uint64_t announced, received; /* totals over all slots */
	pthread_mutex_t lock;
	struct vli_gate {          /* synchronisation points (barriers): under the lock */
		uint64_t key;      /* 0 = free */
		int in;            /* members in the current round */
		uint32_t gen;      /* rounds completed */
		int64_t max_entry; /* latest entry of the current round */
		int64_t last_max;  /* latest entry of round gen - 1 */
	} gate[VLI_BOARD_GATES];
	struct vli_coll {          /* collectives being waited in (order.c): under the lock */
		uint64_t on, n;    /* which: the front end's key and instance; on == 0: free */
		int size, left;    /* members; members that have left it */
		int quit;          /* members that read its flows no more (order_flows.c) */
		int nb;            /* a nonblocking one whose messages are not all in the
				      table of flows yet: floor holds flows back */
		int64_t floor;     /* (nb) no message of it not in the table leaves
				      before: its latest entry, then its simulation's */
		uint64_t member[VLI_BOARD_SLOTS / 64]; /* the members' slots */
		uint64_t in[VLI_BOARD_SLOTS / 64];     /* those that have entered */
	} coll[VLI_BOARD_COLLS];
	struct {
		_Atomic int id;    /* 0 = empty (ids are never 0 here: stored + 1) */
		_Atomic int slot;
	} map[2 * VLI_BOARD_SLOTS];
	vli_ftab flows;            /* messages on the [topology]'s links (order_flows.c): under the lock */
	_Atomic int64_t tree[2 * VLI_BOARD_SLOTS]; /* node 1 is the root; leaf i at SLOTS + i */
	vli_slot slot[VLI_BOARD_SLOTS];
} vli_board;

/* A task on another real host than the board's keeps virtual order through
 * the run's board server (order_net.c): order.c's calls then go to these. */
typedef struct vli_order_remote_ops {
	void (*model_changed)(int64_t la);
	int (*reserve)(int64_t start, int host);
	void (*bind)(int slot, int id);
	void (*gone)(int slot, int outside);
	void (*forget)(int dst_id);
	int (*announce)(int dst_id, int64_t arrival, int side);
	void (*received)(int side);
	int64_t (*bound_of)(int id);
	int (*behind)(void);
	int (*behind_side)(int side);
	void (*wait_begin)(const char *what);
	void (*snap)(vli_order_wait *w);
	void (*block_on)(int64_t lb, int how, uint64_t on, uint64_t n);
	void (*coll_enter)(uint64_t on, uint64_t n, int count, const int *ids);
	void (*coll_leave)(uint64_t on, uint64_t n);
	int (*safe)(int id, int64_t tau); /* id -1 - c < 0: from anyone, for class c */
	void (*sleep)(vli_order_wait *w, int how, int ms);
	void (*wait_end)(vli_order_wait *w);
	void (*gate_enter)(vli_order_gate *g, const char *key, int count, int64_t entry,
			   const char *what);
	int64_t (*gate_leave)(vli_order_gate *g);
	void (*tick)(int64_t now);
	void (*exit)(void);
	void (*release)(int id);
	void (*release_seen)(int from);
	void (*poke)(int id);
	int (*turn)(int64_t t);
	int64_t (*post_lb)(int id, int src_id, int tag, uint64_t comm, uint64_t *released);
	void (*rdv_posts)(int n, const int *src_id, const int64_t *t, int np,
			  const vli_post *posts);
	/* the flows of a [topology] (order_flows.c): call op (VLI_FLOW_*) with
	 * VLI_FLOW_ARGS arguments; its result, and *out */
	int64_t (*flow)(int op, const int64_t *in, const int32_t *xs, int nx, int64_t *out);
	int (*coll_blocked_by)(int id);
	void (*watch)(int on);
	int (*safe_among)(const int *ids, int n, int64_t tau, int skip_id);
	void (*coll_deps)(uint64_t on, uint64_t n, int count, const int *ids);
	int (*coll_who)(uint64_t on, uint64_t n, int count, const int *ids, int64_t *lb,
			unsigned char *in, int64_t *free_lb);
} vli_order_remote_ops;
extern const vli_order_remote_ops *vli_order_remote;

/* A flow call of a task of another real host (order_flows.c), made by the
 * board server in its name (vli_flow_serve). */
enum {
	VLI_FLOW_SEND = 1, VLI_FLOW_ARRIVAL, VLI_FLOW_FORGET, VLI_FLOW_PEND, VLI_FLOW_RESOLVE,
	VLI_FLOW_SETTLED, VLI_FLOW_EPOCH, VLI_FLOW_WILD, VLI_FLOW_COLL_OK, VLI_FLOW_COLL_ADD,
	VLI_FLOW_COLL_END, VLI_FLOW_COLL_QUIT, VLI_FLOW_HOLD, VLI_FLOW_OWN_BOUND, VLI_FLOW_COLL_FLOOR, VLI_FLOW_COLL_LB,
	VLI_FLOW_OWN_FLOOR
};
#define VLI_FLOW_ARGS 10
#define VLI_FLOW_MAXX (1 << 22) /* (ints at most after a call) */
/* (xs: nx ints more, the ids of a collective's members or the messages
 * of one it has taken) */
int64_t vli_flow_serve(int op, const int64_t *in, int32_t *xs, int nx, int64_t *out);
/* The clock of this task (a server thread's: the one its task sent). */
int64_t vli_order_task_now(void);

/* Under the lock, after vli_order_others_locked in this thread: the least
 * time at which the task in slot can post a receive that matches a pending
 * rendezvous from task src_id (order_flows.c): the times of its posted
 * receives that can take it, and its bound if it can go on without this
 * task (this task: its clock unless committed). */
int64_t vli_order_postlb_locked(int slot, int committed, int src_id, int tag, uint64_t comm);
/* Under the lock: the least post time of slot's receives that can take a
 * message from task src_id of tag tag (< 0: any tag) on communicator comm:
 * those that name src_id, its blocking wildcard receive and its nonblocking
 * wildcard receives not chosen yet if they match (VLI_ORDER_NONE: none). */
int64_t vli_order_rdv_post_locked(int slot, int src_id, int tag, uint64_t comm);

/* The server's side of live bounds for a task of another host (order.c):
 * its segment began (seq even) with this base; its CPU time in segment q was
 * cpu. */
void vli_order_serve_segment(int slot, uint32_t seq, int64_t now, int64_t mark, int64_t rc,
			     uint64_t factor_bits);
void vli_order_serve_cpu(int slot, uint32_t q, int64_t cpu);

/* The server's side (order.c): this thread acts for the task in slot, whose
 * clock is now and whose longest sleep is ms; vli_order_serve_join joins a
 * task of another host (pid unknown here) and returns its slot (-1: full);
 * vli_order_served_deadlock: the thread found the run deadlocked (the
 * board's deadlock word, 0 if not); vli_order_deadlock_exit stops the task
 * with the message for that word (report: where the report is). */
void vli_order_serve_as(int slot, int64_t now, int ms);
int vli_order_serve_join(int slot, int id, int host, int64_t now, int64_t la, const char *fmt);
int vli_order_served_deadlock(void);
__attribute__((noreturn)) void vli_order_deadlock_exit(int word, const char *report);
/* A task of another host may send as soon as la after its bound. */
void vli_order_serve_la(int64_t la);

/* For the flows in flight (order_flows.c), from order.c: this task's slot
 * (-1: none, or on another real host); under the lock, the least bound of
 * the other tasks that can go on without this one (raised through their
 * waits, as vli_order_safe sees them), and: lower slot i's bound to v (not
 * below its clock) if it waits; 1 if lowered. */
int vli_order_slot(void);
int64_t vli_order_others_locked(void);
int vli_order_lower_locked(int i, int64_t v);
/* Under the lock: the same for every member of collective (on, n); how many.
 * Its record (NULL if none). */
int vli_order_coll_lower_locked(uint64_t on, uint64_t n, int64_t v);
struct vli_coll *vli_order_coll_locked(uint64_t on, uint64_t n);
/* Under the lock: the greatest of from and the bounds of c's members that
 * have not entered it (skip_none: leaving out those without a bound; else
 * one makes it VLI_ORDER_NONE). */
int64_t vli_order_coll_missing_locked(const struct vli_coll *c, int64_t from, int skip_none);
/* Under the lock, after vli_order_others_locked: what this task starts
 * nothing before, as far as its own flows' finality goes when it is not
 * committed to one: the bound it published if it waits (raised through the
 * members not in of a collective it waits in), else its clock. */
int64_t vli_order_own_limit_locked(void);

/* The board this task has mapped (NULL: ordering = real, or none). */
extern vli_board *vli_bd;

/* Create (create = 1: a new run; an old file is replaced) or map the board at
 * path.  0, or -1 with a message in err. */
int vli_board_open(const char *path, int create, char *err, size_t errlen);
/* Take / drop the lock (a task that died holding it leaves the tree rebuilt). */
void vli_board_lock(void);
void vli_board_unlock(void);
/* The lock, if it can be had soon (for an exit from a signal handler): 1 or 0. */
int vli_board_trylock(void);
/* Under the lock: set slot i's leaf to lb; returns 1 if the root changed. */
int vli_board_set(int i, int64_t lb);
/* The root: the least lb over all tasks. */
int64_t vli_board_root(void);
/* Under the lock, or for a report: a slot whose lb is the root's; -1 if none. */
int vli_board_argmin(void);
/* Under the lock: a new slot (-1 if the board is full). */
int vli_board_new_slot(void);
/* id -> slot: under the lock / lock-free (-1 if unknown). */
void vli_board_map(int id, int slot);
int vli_board_find(int id);
/* Wake the tasks waiting for the root / task i's kick word. */
void vli_board_wake_watchers(void);
void vli_board_kick(int i);
/* Sleep until *word != seen or ms milliseconds passed. */
void vli_board_sleep(_Atomic uint32_t *word, uint32_t seen, int ms);
void vli_board_sleep_ns(_Atomic uint32_t *word, uint32_t seen, int64_t ns);
/* Wake every task sleeping on the futex word w (any shared word, also
 * outside the board; vli_board_sleep_ns sleeps on any word too). */
void vli_futex_wake(_Atomic uint32_t *w);
/* Set up m as a robust process-shared mutex (in a shared mapping); 0 or -1. */
int vli_shared_mutex_init(pthread_mutex_t *m);
/* Whether this thread holds the lock (a signal handler must not take it). */
int vli_board_holding(void);
#endif
