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
 * Message semantics inside the simulation are those of an eager send:
 *   send:  t[r] += send_time(h[r], h[peer], bytes);  arrival = t[r] + trans_time(...)
 *   recv:  wait = max(0, arrival - t[r]);  t[r] = max(t[r], arrival) + recv_time(h[src], h[r])
 * Operations of one rank run in the order the algorithm lists them.  The
 * arithmetic of reductions is not modelled (it is done by the real library).
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
	VLCOLL_ALG_NALGS
};

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
} vlcoll_in;

typedef struct vlcoll_out {
	int64_t exit;           /* virtual time at which the rank leaves */
	int64_t comm;           /* of exit - entry: time spent sending and receiving */
	int64_t wait;           /* of exit - entry: time waiting for arrivals */
	int nmsgs;              /* messages this rank sent in the algorithm */
} vlcoll_out;

/* Simulate in on the model c; out has p entries.  Returns 0, or -1 if in is
 * invalid (unknown kind, algorithm not accepted by the kind, p < 1, root out
 * of range).  Deterministic: every rank computes identical results. */
int vlcoll_sim(const vlcfg_config *c, const vlcoll_in *in, vlcoll_out *out);

#endif
