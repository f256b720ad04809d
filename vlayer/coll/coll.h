/* coll.h - collective operations timed by a named algorithm, shared by the PVM
 * and MPI front ends.  Files: catalogue.c (names, which algorithms a kind
 * accepts), sim.c (one call: check, build, run), sched.c (building a
 * schedule), run.c (matching and running it on the model), alg/ (one
 * algorithm per file, <kind>_<algorithm>.c).
 *
 * A collective is timed by simulating, on every participating task, the
 * point-to-point messages of a named algorithm (binomial tree, ring,
 * recursive doubling ...) with the same cost model as any other message
 * (vlayer/core/model.c: send time, transmission time, receive time).  Every task is given
 * the virtual entry time and the virtual host of all members and computes the
 * same schedule deterministically; each leaves at the time the algorithm gives
 * it, not at a global maximum.
 *
 * Message semantics inside the simulation are those of point-to-point MPI
 * (README "MPI"), with S, T, R the send, transmission and receive times of
 * the model.  A rank runs its actions in order (sched.h): it starts an
 * operation (MPI_Isend, MPI_Irecv) or waits for one (MPI_Wait); a blocking
 * send or receive is both, MPI_Sendrecv starts both and waits for the receive,
 * then the send.  Starting at time t: a receive is posted at t; a send costs S
 * (t += S) and is then ready.  Waiting:
 *   message: eager if bytes < [mpi] eager_limit, else a rendezvous;
 *            its data depart when the send is ready (eager) or at the later of
 *            ready and the receive's post time (rendezvous), and are in T later
 *   receive: wait = max(0, in - t);  t = max(t, in) + R
 *   send:    eager: nothing more;  rendezvous: wait = max(0, in - t), t = max(t, in)
 * A wait whose peer has not reached the time it needs waits for it; a
 * schedule that cannot complete (two blocking rendezvous sends to each other)
 * is an error.  The arithmetic of reductions is not modelled (it is done by
 * the real library).
 */
#ifndef VLCOLL_COLL_H
#define VLCOLL_COLL_H

#include <stdint.h>
#include "vltrace.h"
#include "vlayer/core/vmconfig.h"

/* The kinds of collective (enum vl_coll_kind) and their names are part of the
 * trace format: include/vltrace.h. */

/* Algorithms; which ones a kind accepts is in the table of catalogue.c. */
enum vlcoll_alg {
	VLCOLL_ALG_DEFAULT = 0,
	VLCOLL_ALG_LINEAR,             /* root talks to every other rank in turn */
	VLCOLL_ALG_BINOMIAL,           /* binomial tree rooted at root */
	VLCOLL_ALG_DISSEMINATION,      /* barrier: ceil(log2 p) rounds, rank r -> r + 2^k */
	VLCOLL_ALG_RECURSIVE_DOUBLING, /* pairwise exchange with r ^ 2^k (non powers of two: fold) */
	VLCOLL_ALG_RING,               /* p - 1 steps to the right neighbour */
	VLCOLL_ALG_PAIRWISE,           /* alltoall: step k, send to r + k, receive from r - k */
	VLCOLL_ALG_REDUCE_BCAST,       /* allreduce: reduce to 0 then bcast (both binomial) */
	VLCOLL_ALG_CHAIN,              /* scan/exscan: rank r waits for r - 1, sends to r + 1 */
	/* Open MPI 4.1's algorithms (coll base), as its library runs them; the
	 * "_ompi" ones differ from the vlayer algorithm of the same idea in the
	 * tree, the order or the nonblocking operations */
	VLCOLL_ALG_LINEAR_OMPI,        /* bcast, reduce, gather, scatter: Open MPI's basic linear;
	                                  allgather: its gather then bcast, each as its rules
	                                  choose; alltoall: its basic linear alltoallv */
	VLCOLL_ALG_BINOMIAL_OMPI,      /* bcast, reduce: Open MPI's binomial tree */
	VLCOLL_ALG_BINARY,             /* bcast, reduce: binary tree */
	VLCOLL_ALG_KNOMIAL,            /* bcast: k-nomial tree, radix 4 */
	VLCOLL_ALG_PIPELINE,           /* bcast, reduce: a chain root -> 1 -> 2 ... */
	VLCOLL_ALG_IN_ORDER_BINARY,    /* reduce: in-order binary tree rooted at p - 1 */
	VLCOLL_ALG_RABENSEIFNER,       /* allreduce: halving reduce-scatter, doubling allgather;
	                                  reduce: halving reduce-scatter, binomial gather */
	VLCOLL_ALG_RING_OMPI,          /* allreduce, reduce_scatter: Open MPI's ring */
	VLCOLL_ALG_NONOVERLAPPING,     /* allreduce (reduce_scatter): reduce then bcast (scatterv),
	                                  as selected by Open MPI */
	VLCOLL_ALG_BRUCK,              /* allgather, alltoall: Bruck's ceil(log2 p) steps */
	VLCOLL_ALG_NEIGHBOR,           /* allgather: neighbour exchange (odd p: ring) */
	VLCOLL_ALG_LINEAR_SYNC,        /* alltoall: Open MPI's linear (all posted, then waited);
	                                  gather: Open MPI's linear_sync (a handshake per rank) */
	VLCOLL_ALG_TREE,               /* barrier: Open MPI's tree (up then down a hypercube) */
	VLCOLL_ALG_SCATTER_ALLGATHER,  /* bcast: binomial scatter, recursive-doubling allgather */
	VLCOLL_ALG_SPLIT_BINARY,       /* bcast: halves down the two subtrees, then swapped */
	VLCOLL_ALG_LINEAR_NB,          /* scatter: Open MPI's linear_nb (nonblocking sends) */
	VLCOLL_ALG_RECURSIVE_HALVING,  /* reduce_scatter: Open MPI's recursive_halving */
	VLCOLL_ALG_BUTTERFLY,          /* reduce_scatter: Open MPI's butterfly */
	VLCOLL_ALG_NALGS
};

/* How the algorithm of a kind whose [collectives] key is not given (or is
 * "default") is chosen: [collectives] selection. */
enum vlcoll_selection {
	VLCOLL_SELECT_FIXED = 0,       /* the default of the kind (catalogue.c) */
	VLCOLL_SELECT_OPENMPI = 1,     /* Open MPI 4.1's fixed decision rules (select_openmpi.c) */
};

/* Name of a selection ("fixed", "openmpi"); its value for a name, or -1. */
const char *vlcoll_selection_name(int sel);
int vlcoll_selection_parse(const char *name);

/* Name of an algorithm ("binomial"). */
const char *vlcoll_alg_name(int alg);
/* Algorithm id for a name if kind accepts it, else -1.  "default" gives
 * VLCOLL_ALG_DEFAULT.  valid (may be NULL) receives the comma-separated list of
 * names kind accepts, for error messages. */
int vlcoll_alg_parse(int kind, const char *name, char *valid, size_t validlen);
/* The algorithm used when alg is VLCOLL_ALG_DEFAULT. */
int vlcoll_alg_default(int kind);
/* 1 if kind is a valid enum vl_coll_kind, else 0. */
int vlcoll_kind_ok(int kind);
/* 1 if kind accepts the algorithm alg (not VLCOLL_ALG_DEFAULT), else 0. */
int vlcoll_accepts(int kind, int alg);

/* Which MPI call of a kind was made: the plain one (MPI_Gather ...), a
 * v-variant (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv and
 * their nonblocking forms) or MPI_Reduce_scatter_block (kind reduce_scatter).
 * Only selection = openmpi tells them apart (Open MPI runs other algorithms
 * for them); the PVM front end and the replay give VLCOLL_PLAIN. */
enum vlcoll_variant {
	VLCOLL_PLAIN = 0,
	VLCOLL_V = 1,
	VLCOLL_BLOCK = 2,
};

/* One collective call, seen from everywhere.
 * bytes: meaning per kind (all in bytes, per rank, length p):
 *   barrier        unused (may be NULL)
 *   bcast          bytes[root] = message size (others ignored)
 *   reduce, allreduce, scan, exscan: bytes[r] = size of rank r's vector (all equal)
 *   gather         bytes[r] = block rank r contributes (gatherv: may differ)
 *   scatter        bytes[r] = block rank r receives (scatterv: may differ)
 *   allgather      bytes[r] = block rank r contributes
 *   reduce_scatter bytes[r] = block of the result rank r receives
 *   alltoall       matrix: bytes[i * p + j] = bytes rank i sends to rank j (p * p entries)
 */
typedef struct vlcoll_in {
	int kind;
	int alg;                /* VLCOLL_ALG_DEFAULT or one the kind accepts */
	int p;                  /* number of ranks, >= 1 */
	int root;               /* for rooted kinds */
	const int *host;        /* virtual host of each rank (p entries) */
	const int64_t *entry;   /* virtual time at which each rank entered (p entries) */
	const int64_t *bytes;   /* see above */
	int variant;            /* enum vlcoll_variant: the call made */
} vlcoll_in;

typedef struct vlcoll_out {
	int64_t exit;           /* virtual time at which the rank leaves */
	int64_t comm;           /* of exit - entry: time spent sending and receiving */
	int64_t wait;           /* of exit - entry: time waiting for arrivals */
	int nmsgs;              /* messages this rank sent in the algorithm */
} vlcoll_out;

/* The algorithm Open MPI 4.1's default ("tuned", fixed decision) rules
 * choose for in (kind, variant, p, sizes), as a vlayer algorithm;
 * VLCOLL_ALG_DEFAULT for a kind the rules of select_openmpi.c do not cover.
 * *ompi receives Open MPI's algorithm number (0 if none; 1, basic_linear,
 * for a gatherv or scatterv; for a reduce_scatter_block, a number of its own
 * table).  Where vlayer lacks the algorithm the rule
 * picks, or what Open MPI runs depends on the datatype vlayer does not know,
 * the nearest algorithm is returned and *subst set to 1. */
int vlcoll_select_openmpi(const vlcoll_in *in, int *ompi, int *subst);
/* Why vlayer times another algorithm for Open MPI's number ompi of kind when
 * vlcoll_select_openmpi set *subst (a phrase: "vlayer lacks it"). */
const char *vlcoll_ompi_why(int kind, int ompi);
/* Open MPI's name of its algorithm number ompi for kind and variant
 * ("knomial"; "none" if there is none). */
const char *vlcoll_ompi_name(int kind, int variant, int ompi);

/* Simulate in on the model c; out has p entries.  Returns 0, or -1 if in is
 * invalid (unknown kind, algorithm not accepted by the kind, p < 1, root out
 * of range).  Deterministic: every rank computes identical results. */
int vlcoll_sim(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out);
/* Whether rank r's exit depends on its own entry alone: its part of the
 * schedule only sends, each message below the eager limit (the root of a
 * bcast or scatter, a leaf of a gather or reduce), so it leaves once it has
 * paid its sends, whenever the others enter.  1: *o is its result (the
 * other entries in `in` do not change it); 0: it depends on others; -1: in is
 * invalid. */
int vlcoll_sim_alone(const vlcfg_config *c, const vlcoll_in *in, int r, vlcoll_out *o);
/* The members each rank's result depends on: m (p * p bytes) gets
 * m[r * p + j] = 1 if rank r's result (exit, comm, wait) may change with
 * rank j's entry, 0 if it cannot (the other entries in `in` are ignored).
 * Without a [topology] that is the closure of whom r receives from and
 * whom it sends a rendezvous to (it waits for their post) over the schedule;
 * with one, the messages share links, so also every member whose entry
 * moves a message's start (one that sends, or receives a rendezvous; not
 * a bcast's leaf that receives an eager message), except for a rank that
 * only sends below the eager limit (vlcoll_sim_alone).  0, or -1 if in is
 * invalid. */
int vlcoll_deps(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m);
/* As vlcoll_deps, but with a [topology] every member for a rank that does
 * more than send below the eager limit: whose entries a member needs to
 * tell the exit of every member that may wait with it. */
int vlcoll_deps_all(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m);
/* Members each rank's exit comes after: m[r * p + j] = 1 if rank r
 * receives from j or sends a rendezvous to it (it waits for j's post): r's
 * exit is then no earlier than j's entry, whatever the entries and links.
 * Only these direct ones: whether j's entry precedes a message r gets
 * through a third rank depends on the order of that rank's operations.
 * 0, or -1 if in is invalid. */
int vlcoll_deps_after(const vlcfg_config *c, const vlcoll_in *in, unsigned char *m);

/* The table of a run's messages on shared links, for a collective whose
 * messages share them with the program's other traffic (with a [topology]):
 * online vlayer/core/order_flows.c through the MPI front end, in a replay
 * postproc/replay_engine.c.  add: message k of the collective's schedule
 * (the same k on every member), from rank src to rank dst, leaves at start;
 * its handle, or -1 (not a flow: it takes its contention-free time).  end:
 * 1 and its final arrival in *arr, once final (taken: not asked again), or
 * 0 and its estimate. */
typedef struct vlcoll_net {
	void *ctx;
	int (*add)(void *ctx, uint32_t k, int src, int dst, int src_host, int dst_host,
		   int64_t bytes, int64_t start);
	int (*end)(void *ctx, int h, uint32_t k, int64_t *arr);
} vlcoll_net;

/* vlcoll_sim with the messages between hosts in net's table (c has a
 * [topology]): start it (NULL: in is invalid), run it as far as the final
 * arrivals allow (vlcoll_job_run: 1 done, out filled; 0 every rank waits for
 * an arrival not final yet, *lb the least estimate of them - no rank of the
 * collective starts a message before it; -1 it cannot complete), free it.
 * vlcoll_job_rank_done: rank r has done all its actions (out[r] is final:
 * its task can go on, the others' messages still on the links);
 * vlcoll_job_taken: the job has taken message k's final arrival.
 * in's arrays are copied; out must live until the job is freed. */
typedef struct vlcoll_job vlcoll_job;
vlcoll_job *vlcoll_job_start(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_net *net,
			     vlcoll_out *out);
int vlcoll_job_run(vlcoll_job *j, int64_t *lb);
int vlcoll_job_rank_done(const vlcoll_job *j, int r);
int vlcoll_job_taken(const vlcoll_job *j, uint32_t k);
void vlcoll_job_free(vlcoll_job *j);
/* The same opened before every member is in (with collectives = shared, a
 * blocking collective whose members' exits may come before the last entry:
 * vlcoll_opens_early): in->entry[r] VLCOLL_PENDING (INT64_MIN) for a
 * member not in yet; vlcoll_job_enter gives its entry t.  Its messages
 * leave when the schedule says, not after the last entry: the ranks in act
 * as far as the final arrivals allow, and vlcoll_job_run waits (0) also
 * for members not in (*lb INT64_MAX if for them alone).
 * vlcoll_job_blocker: what rank r waits for in the end, following the
 * ranks it waits on - 1 a message on the links (*est its arrival's last
 * estimate: r acts no earlier), 2 member *who not in yet (r acts no
 * earlier than it enters), 0 nothing (r is done).  The schedule is built
 * from in's bytes: every member's must be known (the plain forms: all
 * alike), except a gatherv's: in->bytes[r] VLCOLL_PENDING for a block not
 * known yet, given by vlcoll_job_block before the next vlcoll_job_run -
 * member r's own once it enters, the root's every block once it enters (a
 * message leaves after the entries of the members whose blocks it
 * carries, and the root skips a zero block only once in: each size is
 * known before it is needed; vlcoll_job_run gives -1 otherwise).  The
 * messages keep their numbers k whatever blocks are known (a zero block's,
 * which Open MPI's linear gatherv leaves out, is there and does
 * nothing). */
#define VLCOLL_PENDING INT64_MIN /* (also: a time not known yet, sched.h) */
vlcoll_job *vlcoll_job_open(const vlcfg_config *c, const vlcoll_in *in, const vlcoll_net *net,
			    vlcoll_out *out);
void vlcoll_job_enter(vlcoll_job *j, int r, int64_t t);
void vlcoll_job_block(vlcoll_job *j, int r, int64_t bytes);
/* The same for an alltoallv (since the third session of 2026-11-29): its
 * in->bytes matrix VLCOLL_PENDING in the rows not known yet; member r's
 * row (the bytes it sends to each) given once it enters (a message leaves
 * after the entries of the members whose blocks it carries). */
void vlcoll_job_row(vlcoll_job *j, int r, const int64_t *row);
int vlcoll_job_blocker(const vlcoll_job *j, int r, int *who, int64_t *est);
/* Whether a blocking collective of kind and variant (VLCOLL_PLAIN, ...)
 * on shared links is opened before every member is in (online and in a
 * replay): a bcast, reduce, gather, scatter, scan or exscan, plain forms -
 * where a member's exit may come before the last entry -, a gatherv (its
 * blocks as they come in: vlcoll_job_block), a scatterv, once its root's
 * entry (with every block: each member's data come from the root) is in,
 * and since the second session of 2026-11-29 a barrier, allreduce,
 * allgather or alltoall, plain forms, and a reduce_scatter_block (every
 * member's exit comes after every entry, but their first messages may
 * leave before the last); since the third, an allgatherv and a
 * reduce_scatter (every member knows every block, and records them) and an
 * alltoallv (its rows as they come in: vlcoll_job_row). */
int vlcoll_opens_early(int kind, int variant);
/* The same under c's algorithms: not an alltoallv with Bruck's. */
int vlcoll_opens_early_alg(const vlcfg_config *c, int kind, int variant);

#endif
