/* coll.c - the timing of collectives: a collective runs for real (the
 * generated vlmpi_<collective> functions, build/gen/mpi_coll_gen.c, call
 * these), then every member's entry time and bytes are exchanged with one
 * allgather on the collective's communicator, the engine simulates the
 * algorithm the VMConfig names (vlcoll_sim) and the clock moves to the exit it
 * gives this rank.  A nonblocking collective starts the exchange and is
 * followed as a request; Wait/Test (complete.c) finish its timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/mpi/mpi_internal.h"

/* One collective being timed: this rank's entry time and bytes, and the
 * exchange of everybody's (an allgather on the collective's communicator).
 * A row: the entry, whether the member recorded the collective's floor on
 * the board (a nonblocking one on shared links), then n bytes values. */
#define ROW(c) ((size_t)(c)->n + 2)
typedef struct coll_net coll_net;
struct vlmpi_coll {
	int kind, variant, root, n; /* n: bytes values per rank (1, or p for alltoall) */
	int64_t t0;
	int64_t *mine, *all;
	MPI_Request xreq;       /* nonblocking collectives: the exchange */
	MPI_Request *req;       /* early path (vlmpi_early_*): its requests, */
	unsigned char *need;    /* ... those it waits for before it leaves */
	int nreq;
	uint64_t eon;           /* ... on the board as (eon, num) */
	void *copy;             /* ... its data, copied or packed */
	int done;               /* exit computed */
	uint64_t num;           /* its number among the collectives of its communicator */
	uint64_t on;            /* virtual order: recorded on the board (nonblocking) */
	int floor;              /* its floor recorded (nonblocking, shared links) */
	uint32_t key;           /* (nonblocking) its records' seq, 1, 2, ... */
	int waited;             /* a Wait runs its simulation (not the others) */
	int64_t lb;             /* its simulation's least estimate waited for */
	vlmpi_comm *v;
	coll_net *x;            /* its messages on shared links: simulation running */
	struct vlmpi_coll *next; /* in the open list (floor or simulation) */
	vlcoll_out o;           /* this rank's result */
	/* nonblocking on the early path (nbe_*) */
	int nbe, finished;      /* ... its data in (finished) */
	int shared;             /* ... on shared links: opened before every member is
				   in (early_net_wait; nonblocking: nbs_step) */
	unsigned char *fed;     /* ... those: member i's entry given to its simulation */
	int fl;                 /* ... nonblocking: its own floor on the board
				   (vli_flow_own_floor) */
	int64_t *wlb;           /* ... nonblocking: the members' bounds, */
	unsigned char *win;     /* ... and whether each is in, as the board had them
				   before its last pass (vli_order_coll_who) */
	int tell;               /* ... nonblocking: lb tells when it ends (nbs_step) */
	int *ereq;              /* ... the request of member i's entry, or -1 */
	unsigned char *dep;     /* ... it depends on member i (early_known) */
	int nknown;             /* ... a v form's: the entries in (early_known) */
	unsigned char *after;   /* ... its exit comes after member i's entry (early_after) */
	vlcoll_out po;          /* ... its exit if this rank acts no earlier (pend) */
	int pend;
	void *ubuf;             /* ... where a non-root's data go (bcast, scatter; scan: */
	int ucount, usize;      /* ... the result) */
	MPI_Datatype utype;
	MPI_Comm ucomm;
	MPI_Op uop;             /* ... a scan's or exscan's: its op, */
	size_t uspan;           /* ... the span of a vector in c->copy, */
	MPI_Aint utlb;          /* ... and the type's true lower bound */
};
typedef struct vlmpi_coll vlmpi_coll;

/* The nonblocking collectives on shared links not done yet: every wait of
 * this rank runs their simulations on (vlmpi_coll_progress). */
static vlmpi_coll *open_nb;

static void open_drop(vlmpi_coll *c)
{
	vlmpi_coll **p;

	for (p = &open_nb; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	c->next = NULL;
}

static vlmpi_coll *coll_new(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
			    const int64_t *row, int n)
{
	vlmpi_coll *c = calloc(1, sizeof(*c));
	int i;

	if (!c)
		vli_error(1, "out of memory");
	c->kind = kind;
	c->variant = variant;
	c->root = root;
	c->n = n;
	c->t0 = c->lb = t0;
	c->v = v;
	c->xreq = MPI_REQUEST_NULL;
	c->mine = malloc(sizeof(int64_t) * ROW(c));
	c->all = malloc(sizeof(int64_t) * ROW(c) * (size_t)v->size);
	if (!c->mine || !c->all)
		vli_error(1, "out of memory");
	c->mine[0] = t0;
	c->mine[1] = 1;
	for (i = 0; i < n; i++)
		c->mine[i + 2] = row[i];
	return c;
}

/* The blocking collective this rank waits in (virtual order). */
static uint64_t in_on, in_n;

/* A collective's messages on shared links (vlcoll_net): flows of the run's
 * table, keyed by (on, n). */
struct coll_net {
	vlmpi_comm *v;
	uint64_t on, n;
	int nb;         /* a nonblocking one (it has a floor) */
	vlcoll_job *job;
	vlcoll_net net;
	vlcoll_out *out;
	uint32_t *took; /* the messages whose final arrivals it has taken */
	int ntook, ctook;
	char what[96];
};

static int net_add(void *ctx, uint32_t k, int src, int dst, int src_host, int dst_host,
		   int64_t bytes, int64_t start)
{
	coll_net *x = ctx;

	return vli_flow_coll_add(x->on, x->n, x->v->size, k, x->v->world[src], x->v->world[dst],
				 src_host, dst_host, bytes, start);
}

static int net_end(void *ctx, int h, uint32_t k, int64_t *arr)
{
	coll_net *x = ctx;
	/* (never committed: its own bound counts too.  A member simulates
	 * every rank, and its own rank, once a message it waits for is in,
	 * may start one that shares the links with a later arrival it would
	 * otherwise take as final: rank 1 waiting for an MPI_Ibcast took its
	 * forward from rank 2 to rank 3 so, and its MPI_Bcast's messages,
	 * leaving at its end, then changed that arrival - links/rmix.c, seed
	 * 4, 1 run in 10 beside a CPU hog.  Its bound is what its simulation
	 * waits for, so it still takes those first.) */
	int r = vli_flow_coll_end(h, x->on, x->n, k, 0, arr);

	if (r) {
		if (x->ntook == x->ctook) {
			x->ctook = x->ctook ? 2 * x->ctook : 64;
			x->took = realloc(x->took, sizeof *x->took * (size_t)x->ctook);
			if (!x->took)
				vli_error(1, "out of memory");
		}
		x->took[x->ntook++] = k;
	}
	return r;
}

/* 1: the collective is done; 2: this rank is (it goes on); 0: wait (a
 * nonblocking one's floor is raised to *lb: no message of it that is not
 * in the table leaves before); -1: it cannot complete. */
static int net_step(void *ctx, int64_t *lb)
{
	coll_net *x = ctx;
	uint32_t ep = x->nb ? vli_flow_epoch() : 0;
	int rc = vlcoll_job_run(x->job, lb);

	if (rc == 0 && vlcoll_job_rank_done(x->job, x->v->rank))
		return 2;
	if (rc == 0 && x->nb)
		vli_flow_coll_floor(x->on, x->n, VLI_FLOOR_RAISE, *lb, ep);
	return rc;
}

/* Whether every member of c knows every member's block, carried in its
 * entry (n = p + 1): an allgatherv's or reduce_scatter's on the early path
 * (their recvcounts). */
static int all_blocks_known(const vlmpi_coll *c)
{
	return c->n == c->v->size + 1 &&
	       ((c->kind == VL_KIND_ALLGATHER && c->variant == VLCOLL_V) ||
		(c->kind == VL_KIND_REDUCE_SCATTER && c->variant == VLCOLL_PLAIN));
}

/* The inputs of c's simulation, from the exchange (entry, bytes: the
 * caller frees them). */
static void coll_in(vlmpi_comm *v, vlmpi_coll *c, vlcoll_in *in, int64_t **entry, int64_t **bytes)
{
	int p = v->size, i, n = c->n;
	int vrow = (c->kind == VL_KIND_SCATTER || c->kind == VL_KIND_GATHER) && n == p + 1;
	int own = all_blocks_known(c);

	*entry = malloc(sizeof(int64_t) * (size_t)p);
	*bytes = n > 0 ? malloc(sizeof(int64_t) * (size_t)n * (size_t)p) : NULL;
	if (!*entry || (n > 0 && !*bytes))
		vli_error(1, "out of memory");
	for (i = 0; i < p; i++) {
		(*entry)[i] = c->all[(size_t)i * ROW(c)];
		if (vrow) /* (a scatterv on the early path, a gatherv on shared links:
			     the blocks from the root's entry) */
			(*bytes)[i] = c->all[(size_t)c->root * ROW(c) + 3 + i];
		else if (own) /* (an allgatherv's, a reduce_scatter's: its own) */
			(*bytes)[i] = c->all[(size_t)v->rank * ROW(c) + 3 + i];
		else if (n > 0)
			memcpy(&(*bytes)[(size_t)i * (size_t)n], &c->all[(size_t)i * ROW(c) + 2],
			       sizeof(int64_t) * (size_t)n);
	}
	in->kind = c->kind;
	in->alg = vli_t.cfg.mpi.coll_alg[c->kind];
	in->p = p;
	in->root = c->root;
	in->host = v->host;
	in->entry = *entry;
	in->bytes = *bytes;
	in->variant = c->variant;
}

/* Whether c's messages share the links with the program's others: under
 * virtual order with a [topology] and collectives = shared, every member on
 * the board (a nonblocking one: every member recorded its floor). */
static int coll_shares(vlmpi_comm *v, vlmpi_coll *c)
{
	int i;

	if (!(vli_t.cfg.topo.coll_shared && vlmpi_vorder && vli_net_on(&vli_t.cfg)))
		return 0;
	for (i = 0; i < v->size; i++)
		if (c->all[(size_t)i * ROW(c) + 1] != 1)
			return 0;
	return vli_flow_coll_ok(v->size, v->world);
}

/* Start c's simulation with its messages in the run's table: 0, or -1 if
 * in is invalid. */
static int net_start(vlmpi_comm *v, vlmpi_coll *c, const vlcoll_in *in, uint64_t on, uint64_t n,
		     int nb, int open)
{
	coll_net *x = calloc(1, sizeof *x);

	if (!x || !(x->out = malloc(sizeof *x->out * (size_t)v->size)))
		vli_error(1, "out of memory");
	x->v = v;
	x->on = on;
	x->n = n;
	x->nb = nb;
	x->net.ctx = x;
	x->net.add = net_add;
	x->net.end = net_end;
	snprintf(x->what, sizeof x->what, "the messages of %s on shared links",
		 vl_coll_kind_name(in->kind));
	x->job = open ? vlcoll_job_open(&vli_t.cfg, in, &x->net, x->out)
		      : vlcoll_job_start(&vli_t.cfg, in, &x->net, x->out);
	c->x = x;
	return x->job ? 0 : -1;
}

/* End c's simulation (rc as net_step's, or -1 not started): c->o, done. */
static int net_finish(vlmpi_coll *c, int rc)
{
	coll_net *x = c->x;

	if (rc > 0)
		c->o = x->out[c->v->rank];
	if (rc == 2 || (rc == 0 && x->job)) /* (rc 0: given up) */
		vli_flow_coll_quit(x->on, x->n, x->took, x->ntook);
	else if (x->nb)
		vli_flow_coll_floor(x->on, x->n, VLI_FLOOR_END, 0, 0);
	free(x->took);
	free(x->out);
	vlcoll_job_free(x->job);
	free(x);
	c->x = NULL;
	return rc > 0 ? 0 : -1;
}

static void sim_failed(vlmpi_coll *c, int alg)
{
	vli_warn("rank %d: collective %s with algorithm %s could not be timed", vlmpi_world_rank,
		 vl_coll_kind_name(c->kind), vlcoll_alg_name(alg));
	memset(&c->o, 0, sizeof c->o);
	c->o.exit = c->t0;
}

/* Simulate the algorithm once the exchange is complete: fills c->o.
 * blocking: a blocking collective (its messages may share the links with
 * the others'). */
static int coll_sim(vlmpi_comm *v, vlmpi_coll *c, int blocking)
{
	int64_t *entry, *bytes;
	vlcoll_out *out = malloc(sizeof(*out) * (size_t)v->size);
	vlcoll_in in;
	int rc;

	if (!out)
		vli_error(1, "out of memory");
	coll_in(v, c, &in, &entry, &bytes);
	if (blocking && coll_shares(v, c)) {
		rc = net_start(v, c, &in, in_on, in_n, 0, 0);
		rc = net_finish(c, rc < 0 ? -1 : vli_flow_wait_for(net_step, c->x, c->x->what));
	} else {
		rc = vlcoll_sim(&vli_t.cfg, &in, out);
		if (rc == 0)
			c->o = out[v->rank];
	}
	if (rc != 0) {
		sim_failed(c, in.alg);
		rc = -1;
	}
	c->done = 1;
	free(entry);
	free(bytes);
	free(out);
	return rc;
}

/* Nonblocking collective c: run its timing on as far as it can (wait: to
 * its end for this rank, the rank waiting in it).  1 once its exit is
 * known. */
static int nbe_advance(vlmpi_coll *c, int wait);

static int nb_advance(vlmpi_coll *c, int wait)
{
	vlmpi_comm *v = c->v;
	int flag = 0, rc;
	int64_t lb;

	if (c->nbe)
		return nbe_advance(c, wait);
	if (c->done)
		return 1;
	if (!c->x) {
		int64_t *entry, *bytes;
		vlcoll_in in;

		if (wait) {
			c->waited = 1; /* (not also from a wait hook meanwhile) */
			vlmpi_real_wait(&c->xreq, MPI_STATUS_IGNORE);
			c->waited = 0;
		}
		else if (c->xreq != MPI_REQUEST_NULL &&
			 (PMPI_Test(&c->xreq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag))
			return 0;
		if (!c->floor || !coll_shares(v, c)) {
			if (c->floor)
				vli_flow_coll_floor(c->on, c->num, VLI_FLOOR_END, 0, 0);
			c->floor = 0;
			open_drop(c);
			coll_sim(v, c, 0);
			return 1;
		}
		coll_in(v, c, &in, &entry, &bytes);
		rc = net_start(v, c, &in, c->on, c->num, 1, 0);
		free(entry);
		free(bytes);
		if (rc < 0) {
			net_finish(c, -1);
			sim_failed(c, in.alg);
			c->done = 1;
			open_drop(c);
			return 1;
		}
	}
	if (wait) {
		c->waited = 1;
		rc = vli_flow_wait_for(net_step, c->x, c->x->what);
		c->waited = 0;
	} else {
		rc = net_step(c->x, &lb);
		if (rc == 0) {
			c->lb = lb > c->t0 ? lb : c->t0;
			return 0;
		}
	}
	if (net_finish(c, rc) < 0)
		sim_failed(c, vli_t.cfg.mpi.coll_alg[c->kind]);
	c->done = 1;
	open_drop(c);
	return 1;
}

/* After the record of c's entry at t on this rank (key: a nonblocking
 * one's): a scatterv's or gatherv's root whose entry carried every member's
 * block (early_try: n = p + 1) records them (VL_EV_BLOCKS), so that a replay
 * can time the members before every one is in, as the run did. */
static void blocks_traced(const vlmpi_coll *c, uint32_t key, int64_t t)
{
	int p = c->v->size, i, k;
	int64_t b[VL_BLOCKS_PER_REC];

	int av = c->kind == VL_KIND_ALLTOALL && c->variant == VLCOLL_V && c->shared;

	if (!all_blocks_known(c) && !av &&
	    ((c->kind != VL_KIND_SCATTER && c->kind != VL_KIND_GATHER) || c->variant != VLCOLL_V ||
	     c->n != p + 1 || c->v->rank != c->root))
		return;
	/* (an alltoallv's on shared links: every member's row, n = p) */
	for (i = 0; i < p; i += VL_BLOCKS_PER_REC) {
		for (k = 0; k < VL_BLOCKS_PER_REC; k++)
			b[k] = i + k < p ? c->mine[(av ? 2 : 3) + i + k] : 0;
		vli_trace_msg4(VL_EV_BLOCKS, i, p - i < VL_BLOCKS_PER_REC ? p - i : VL_BLOCKS_PER_REC,
			       key, b[0], t, t, b[1], b[2], b[3], 0);
	}
}

/* The record of nonblocking collective c's start (its first bytes value). */
static void icoll_traced(vlmpi_coll *c, int64_t bytes)
{
	static uint32_t keys;
	unsigned flags = c->variant == VLCOLL_V ? VL_TF_V : c->variant == VLCOLL_BLOCK ? VL_TF_BLOCK : 0;

	c->key = ++keys;
	vli_trace_msg4(VL_EV_ICOLL, c->root >= 0 ? c->v->world[c->root] : -1, VL_COLL_MPI + c->kind,
		       c->key, bytes, c->t0, c->t0, 0, c->v->size, 0,
		       flags | (c->floor ? VL_TF_SHARED : 0) |
			       (c->nbe && c->shared ? VL_TF_SHARED | VL_TF_OPENED : 0));
	blocks_traced(c, c->key, c->t0);
}

/* ---- members that go on once those they depend on are in ----
 * Under virtual order every member of a blocking collective used to wait in
 * it until every member's entry was in (an allgather), and the rules took
 * it to act no earlier than the members still missing.  In the model a
 * member's exit depends on some members' entries only (vlcoll_deps: those
 * it receives from or sends a rendezvous to, and theirs, over the schedule;
 * on shared links every member whose entry moves a message, unless it
 * only sends eager; the entries go to every member there, so that a member
 * can tell the exits of those waiting with it: vlcoll_deps_all): a bcast's root
 * and a reduce's or gather's leaves on their own entry, a bcast's leaf on
 * its path from the root, an inner node of a reduce or gather on its
 * subtree.  In virtual time it leaves before the others enter and may send
 * to them; held in the collective in real time, it let the others decide
 * without it (a wildcard receive took a later message, a flow on a bus was
 * taken as final before its next message joined it).  So a bcast, reduce,
 * gather(v), scatter(v), scan or exscan runs so (not with collectives =
 * shared, where a collective's
 * messages go into the run's table only once every member is in):
 *  - every member sends its entry to the members that depend on it and
 *    receives those of the members it depends on, point to point on a
 *    private duplicate of the communicator (vlmpi_comm.pcomm), and tells
 *    the board whom it waits for (vli_order_coll_deps): the members its
 *    exit comes after (early_after: without them it never leaves), not
 *    those it depends on through the links alone - the rules raise its
 *    bound to theirs, and see it wait on them;
 *  - the data: a reduce or gather runs for real, nonblocking, on the
 *    private duplicate (a non-root from a copy of its data: MPI lets the
 *    caller reuse them on return; the duplicate outlives an MPI_Comm_free
 *    of the program's communicator until it is done: Open MPI's
 *    nonblocking collectives crash on a freed one);
 *    a bcast's or scatter's root sends its data (each member's block) to
 *    every member itself, so that a member needs the root only, not Open
 *    MPI's tree;
 *  - it waits for what it needs (the entries of those it depends on, or
 *    fewer when its exit is known before they are in: nbe_eval; a bcast's
 *    data, a root's real call), leaves at the exit the model gives it, and
 *    keeps the rest behind it: every wait of this task tests them,
 *    MPI_Finalize waits for them.
 * Until the second session of 2026-11-28 a member on shared links waited
 * for every member's entry, and the rules took it to act no earlier than
 * the greatest bound of those missing: a bcast's leaf on a bus, whose exit
 * can come before the others enter, then let another rank take a message
 * on the bus as final before its next message joined it (links/rmix.c on a
 * bus, seeds 3, 4, 11 and 16 of 16). */

#define TAG_ENTRY(n) ((int)(((n) & 0x1fffffff) * 2))
#define NBE_INF (INT64_MAX / 4) /* an entry that never comes */
#define TAG_DATA(n) (TAG_ENTRY(n) + 1)

/* Blocking collectives this rank left with requests still open, freed
 * once they are complete. */
static vlmpi_coll *behind;

static int req_done(MPI_Request *r)
{
	int flag = 0;

	return *r == MPI_REQUEST_NULL || PMPI_Test(r, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS ||
	       flag;
}

static int reqs_done(vlmpi_coll *c)
{
	int i;

	for (i = 0; i < c->nreq; i++)
		if (!req_done(&c->req[i]))
			return 0;
	return 1;
}

static void behind_progress(void)
{
	vlmpi_coll **p = &behind, *c;

	while ((c = *p) != NULL) {
		if (!reqs_done(c)) {
			p = &c->next;
			continue;
		}
		*p = c->next;
		c->next = NULL;
		vlmpi_coll_free(c);
	}
}

MPI_Request *vlmpi_coll_behind(void)
{
	int i;

	behind_progress();
	for (i = 0; behind && i < behind->nreq; i++)
		if (behind->req[i] != MPI_REQUEST_NULL)
			return &behind->req[i];
	return NULL;
}

/* Copy of count elements of type t at buf (its true extent): the copy,
 * and in *base where the call must take it from. */
static void *copy_of(const void *buf, int count, MPI_Datatype t, void **base)
{
	MPI_Aint lb, ext, tlb, text;
	size_t span;
	char *c;

	PMPI_Type_get_extent(t, &lb, &ext);
	PMPI_Type_get_true_extent(t, &tlb, &text);
	span = count > 0 ? (size_t)((MPI_Aint)(count - 1) * ext + text) : 0;
	c = malloc(span ? span : 1);
	if (!c)
		vli_error(1, "out of memory");
	if (span)
		memcpy(c, (const char *)buf + tlb, span);
	*base = c - tlb;
	return c;
}

/* A request of c: needed before it leaves (need), or only behind it. */
static MPI_Request *early_req(vlmpi_coll *c, int need)
{
	c->need[c->nreq] = (unsigned char)need;
	return &c->req[c->nreq++];
}

/* The members this rank's exit comes after (after[i] 1), among those it
 * depends on (m, vlcoll_deps): with member i entering never, it never
 * leaves - its exit waits for something i does once in (on shared links
 * its exit also depends on when the others' messages share them, but
 * without them it still leaves).  The board sees it wait on these alone,
 * and its bound is raised to theirs (in = the collective with every entry
 * now). */
static void early_after(const vlcoll_in *in, const unsigned char *m, int me, unsigned char *after)
{
	int p = in->p, i;
	int64_t *entry = malloc(sizeof(int64_t) * (size_t)p);
	vlcoll_out *out = malloc(sizeof(*out) * (size_t)p);
	vlcoll_in x = *in;

	if (!entry || !out)
		vli_error(1, "out of memory");
	memcpy(entry, in->entry, sizeof(int64_t) * (size_t)p);
	x.entry = entry;
	for (i = 0; i < p; i++) {
		if (i == me || !m[(size_t)me * p + i])
			continue;
		entry[i] = NBE_INF;
		after[i] = vlcoll_sim(&vli_t.cfg, &x, out) != 0 || out[me].exit >= NBE_INF / 2;
		entry[i] = in->entry[i];
	}
	free(entry);
	free(out);
}

/* Tell the board the members c's exit comes after (early_after; in, m as
 * there), if they changed (force: anyway). */
static void early_tell(vlmpi_coll *c, const vlcoll_in *in, const unsigned char *m, int force)
{
	int i, nd = 0, p = c->v->size, *ids = malloc(sizeof(int) * (size_t)p);
	unsigned char *after = calloc((size_t)p, 1);

	if (!ids || !after)
		vli_error(1, "out of memory");
	early_after(in, m, c->v->rank, after);
	if (force || memcmp(after, c->after, (size_t)p)) {
		memcpy(c->after, after, (size_t)p);
		for (i = 0; i < p; i++)
			if (c->after[i])
				ids[nd++] = c->v->world[i];
		vli_order_coll_deps(c->eon, c->num, nd, ids);
	}
	free(after);
	free(ids);
}

/* Whether member i's entry is in (this rank's: yes). */
static int entry_in(vlmpi_coll *c, int i)
{
	return i == c->v->rank || (c->ereq[i] >= 0 && req_done(&c->req[c->ereq[i]]));
}

/* A v form's members know each other's blocks as the entries come in (a
 * gatherv's: each its own; a scatterv's: all in the root's; its root: all
 * from the start).  With those known, the members this rank depends on
 * (c->dep) take every unknown block as a rendezvous, and those its exit
 * comes after (the board's) take them as eager: more rendezvous only add
 * what a member waits for, so the first is all it can depend on and the
 * second no more than it comes after (a bound raised through a member it
 * does not come after would be unsound).  Redone as entries come in
 * (force: at the start). */
static void early_known(vlmpi_coll *c, int force)
{
	int p = c->v->size, me = c->v->rank, i, n = 0, all;
	int64_t *entry, *bytes, big = vli_t.cfg.mpi.eager_limit > 0 ? vli_t.cfg.mpi.eager_limit : 1;
	unsigned char *m, *known;
	vlcoll_in in;

	if (c->variant != VLCOLL_V)
		return;
	for (i = 0; i < p; i++)
		n += entry_in(c, i);
	if (!force && n == c->nknown)
		return;
	c->nknown = n;
	m = malloc((size_t)p * (size_t)p);
	known = malloc((size_t)p);
	if (!m || !known)
		vli_error(1, "out of memory");
	coll_in(c->v, c, &in, &entry, &bytes);
	all = me == c->root || (c->kind == VL_KIND_SCATTER && entry_in(c, c->root));
	for (i = 0; i < p; i++)
		known[i] = all || i == me || (c->kind == VL_KIND_GATHER && entry_in(c, i));
	for (i = 0; i < p; i++)
		if (!known[i])
			bytes[i] = big;
	if (vlcoll_deps(&vli_t.cfg, &in, m) == 0)
		memcpy(c->dep, &m[(size_t)me * p], (size_t)p);
	for (i = 0; i < p; i++)
		if (!known[i])
			bytes[i] = 0;
	if (vlcoll_deps(&vli_t.cfg, &in, m) == 0)
		early_tell(c, &in, m, force);
	free(entry);
	free(bytes);
	free(known);
	free(m);
}

/* Whether every entry c's exit depends on is in (its exit is known). */
static int deps_in(vlmpi_coll *c)
{
	int i;

	early_known(c, 0);
	for (i = 0; i < c->v->size; i++)
		if (c->dep[i] && !entry_in(c, i))
			return 0;
	return 1;
}

/* ---- nonblocking collectives on shared links, timed from their first
 * entry ----
 * With collectives = shared an MPI_Ibcast, Ireduce, Igather(v),
 * Iscatter(v), Iscan or Iexscan (since the third session of 2026-11-29)
 * runs as its blocking form there (early_net_wait): entries point to
 * point, its simulation opened at the first one, its messages leaving
 * when the schedule says.  Its rank goes on meanwhile: every wait and
 * test of this task runs the simulation on (vlmpi_coll_progress,
 * nbs_step), and until this rank's messages are all in the table of
 * flows the member keeps a floor of its own on the board
 * (vli_flow_own_floor): none of them leaves before it.  It enters at its
 * entry, and is raised to the least estimate its simulation waits for,
 * but only while every member the board has in is in that simulation
 * too: a message of this rank that waits for a member's entry leaves no
 * earlier than that entry - a member not in enters no earlier than its
 * bound, which holds what is final meanwhile, and its entry brings every
 * member's floor down to it (a raise read before is refused).  Each
 * member's floor covers its own rank's messages; a member waiting in the
 * collective for one not in acts no earlier than that member can
 * (vli_order_own_limit_locked).  A choice among requests (vlmpi_coll_by) takes as its bound
 * what this rank waits for in the end (vlcoll_job_blocker): an arrival's
 * estimate, or the bound of a member not in.  Before, these kept every
 * message to their last entry, and a choice took the greatest bound of
 * the members not in as theirs, which was not sound where this rank's
 * exit comes first (an MPI_Ibcast's root: links/rmix.c, 6 ranks on a bus,
 * seed 3, 1 run in 8 chose otherwise). */
static void nbs_enter(vlmpi_coll *c)
{
	static int warned;

	c->fl = vli_flow_own_floor(c->eon, c->num, VLI_FLOOR_ENTER, c->t0, 0);
	if (!c->fl && !warned++)
		vli_warn("more than %d nonblocking collectives of one task open at once on the "
			 "[topology]'s links: the others' messages may be timed before every "
			 "message sharing the links with them is known", VLI_SLOT_FLOORS);
	c->next = open_nb;
	open_nb = c;
	vlmpi_set_idle(vlmpi_coll_progress);
}

/* Collective (kind, variant, root; root -1: none) of comm with bytes from
 * this rank (vb: the root of a gatherv or scatterv, every member's, else
 * NULL): whether this rank takes the early path (every member decides
 * alike); if so its vlmpi_coll, entered on the board, its entry sent to the
 * members that depend on it and those it depends on asked for.  The
 * members of a v form do not know each other's blocks: they exchange
 * entries as if every block were a rendezvous (each waits for more entries
 * than it may need; with those missing entering never its exit still
 * comes out as it is), and a scatterv's root sends every block's size in
 * its entry (n = p + 1: this rank's bytes, then the members'). */
static vlmpi_coll *early_try(MPI_Comm comm, int kind, int variant, int root, int64_t bytes,
			     const int64_t *vb, int nb)
{
	vlmpi_comm *v;
	vlmpi_coll *c;
	unsigned char *m;
	int64_t *entry, *b, big;
	vlcoll_in in;
	int i, j, p, me, n;

	int shared = vli_t.cfg.topo.coll_shared && vli_net_on(&vli_t.cfg);
	int rooted = kind == VL_KIND_BCAST || kind == VL_KIND_REDUCE || kind == VL_KIND_GATHER ||
		     kind == VL_KIND_SCATTER;

	/* (a barrier, allreduce, allgather or alltoall only on shared links:
	 * without them each member's exit comes after every entry, so it
	 * has nothing to gain) */
	if (!vlmpi_vorder || (shared && !vlcoll_opens_early_alg(&vli_t.cfg, kind, variant)) ||
	    (!shared && !rooted && kind != VL_KIND_SCAN && kind != VL_KIND_EXSCAN) ||
	    !(v = vlmpi_comm_find(comm)) || v->pcomm == MPI_COMM_NULL ||
	    root < (rooted ? 0 : -1) || root >= v->size || v->size < 2 ||
	    (nb && !vli_order_on()))
		return NULL;
	p = v->size;
	me = v->rank;
	/* (a scatterv's root's entry carries every block, and on shared links
	 * a gatherv's: its members are timed before every block is known; an
	 * alltoall's entry, the bytes to each member) */
	n = (variant == VLCOLL_V && (kind == VL_KIND_SCATTER || (kind == VL_KIND_GATHER && shared))) ||
		    (vb && root < 0 && kind != VL_KIND_ALLTOALL)
		    ? p + 1
	    : kind == VL_KIND_ALLTOALL ? p : 1;
	big = vli_t.cfg.mpi.eager_limit > 0 ? vli_t.cfg.mpi.eager_limit : 1;
	entry = malloc(sizeof(int64_t) * (size_t)p);
	b = malloc(sizeof(int64_t) * (size_t)p * (size_t)(kind == VL_KIND_ALLTOALL ? p : 1));
	m = malloc((size_t)p * (size_t)p);
	if (!entry || !b || !m)
		vli_error(1, "out of memory");
	for (i = 0; i < p; i++)
		entry[i] = vli_t.now;
	for (i = 0; i < p * (kind == VL_KIND_ALLTOALL ? p : 1); i++)
		b[i] = variant == VLCOLL_V ? big : bytes;
	in = (vlcoll_in){ kind, vli_t.cfg.mpi.coll_alg[kind], p, root, v->host, entry, b, variant };
	if (vlcoll_deps_all(&vli_t.cfg, &in, m) < 0) {
		free(entry);
		free(b);
		free(m);
		return NULL;
	}
	{
		int64_t *row = malloc(sizeof(int64_t) * (size_t)n);

		if (!row)
			vli_error(1, "out of memory");
		row[0] = bytes;
		for (i = 1; i < n; i++)
			row[i] = vb ? vb[i - 1] : bytes;
		if (vb && kind == VL_KIND_ALLTOALL) /* (an alltoallv's: its row) */
			memcpy(row, vb, sizeof(int64_t) * (size_t)n);
		c = coll_new(v, kind, variant, root, vli_t.now, row, n);
		free(row);
	}
	c->req = malloc(sizeof *c->req * (size_t)(3 * p));
	c->need = malloc((size_t)(3 * p)); /* (entries in, out, data) */
	if (!c->req || !c->need)
		vli_error(1, "out of memory");
	c->nbe = nb;
	c->shared = shared;
	c->ereq = malloc(sizeof(int) * (size_t)p);
	c->after = calloc((size_t)p, 1);
	c->dep = calloc((size_t)p, 1);
	c->fed = calloc((size_t)p, 1);
	c->wlb = malloc(sizeof(int64_t) * (size_t)p);
	c->win = calloc((size_t)p, 1);
	if (!c->ereq || !c->after || !c->dep || !c->fed || !c->wlb || !c->win)
		vli_error(1, "out of memory");
	for (i = 0; i < p; i++)
		c->ereq[i] = -1;
	c->eon = VLMPI_ON_COLL(v->id);
	c->num = v->ncoll++;
	v->busy++; /* (its pcomm outlives an MPI_Comm_free until c is done) */
	vli_order_coll_enter(c->eon, c->num, p, v->world);
	for (i = 0; i < p; i++) {
		c->all[(size_t)i * ROW(c)] = c->t0; /* (the others': any time will do) */
		for (j = 0; j < n; j++)
			c->all[(size_t)i * ROW(c) + 2 + j] = bytes;
	}
	memcpy(&c->all[(size_t)me * ROW(c)], c->mine, sizeof(int64_t) * ROW(c));
	/* (point to point: nbe_eval asks whose entries are in) */
	for (i = 0; i < p; i++) {
		if (i == me)
			continue;
		if (m[(size_t)me * p + i]) {
			c->ereq[i] = c->nreq;
			PMPI_Irecv(&c->all[(size_t)i * ROW(c)], (int)ROW(c), MPI_INT64_T, i,
				   TAG_ENTRY(c->num), v->pcomm, early_req(c, 1));
		}
		if (m[(size_t)i * p + me])
			PMPI_Isend(c->mine, (int)ROW(c), MPI_INT64_T, i, TAG_ENTRY(c->num), v->pcomm,
				   early_req(c, 0));
	}
	/* (what it depends on, and comes after; on shared links what it waits
	 * for as its simulation goes: early_net_wait) */
	if (shared) {
		/* (none yet: until early_net_wait says, the rules raise its
		 * bound through no member - through every missing one, as
		 * without this, would not be sound) */
		memset(c->dep, 1, (size_t)p);
		vli_order_coll_deps(c->eon, c->num, 0, &i);
		if (nb)
			nbs_enter(c);
	} else if (variant == VLCOLL_V) {
		if (vb)
			for (i = 0; i < p; i++)
				if (kind == VL_KIND_GATHER) /* (the root's: every block) */
					c->all[(size_t)i * ROW(c) + 2] = vb[i];
		early_known(c, 1);
	} else if (vlcoll_deps(&vli_t.cfg, &in, m) == 0) {
		memcpy(c->dep, &m[(size_t)me * p], (size_t)p);
		early_tell(c, &in, m, 1);
	} else {
		memset(c->dep, 1, (size_t)p);
	}
	free(entry);
	free(b);
	free(m);
	return c;
}

static int nbe_eval(vlmpi_coll *c, int64_t target, int64_t *lb);

/* Wait in c (the rank waits in it) until its exit is known: every entry it
 * depends on is in, or its exit with the missing members entering never
 * comes before any of them can enter (nbe_eval: the task acts no earlier
 * than its exit); meanwhile its bound is what nbe_eval gives. */
static void early_wait_entries(vlmpi_coll *c)
{
	int spins = 0, r;
	int64_t lb;

	while (!c->done) {
		if (deps_in(c)) {
			coll_sim(c->v, c, 0);
			break;
		}
		r = nbe_eval(c, INT64_MAX, &lb);
		if (r == 2) {
			c->o = c->po;
			c->done = 1;
		} else if (r != 1) {
			vlmpi_wait_raise(lb);
			vlmpi_spin(&spins);
		}
	}
}

/* On shared links (collectives = shared): run c's simulation with its
 * messages in the run's table of flows, opened before every member is in
 * (vlcoll_job_open) - each member's entry joins it as it comes in - until
 * this rank is done (c->o, done).  Its messages leave when the schedule
 * says: a member that has entered adds those it can reach (the first to
 * reach one adds it; each sender's own member reaches all of its own
 * before its rank is done), and meanwhile its task acts no earlier than
 * what its rank waits for in the end (vlcoll_job_blocker): a message on
 * the links - its estimate, held as the bound (vli_flow_hold) - or a
 * member not in yet - the rules see it wait on that member alone
 * (vli_order_coll_deps), and raise its bound to that member's.  Until the
 * first session of 2026-11-29 a member waited for every member's entry,
 * and the rules took it to act no earlier than the last one's, which was
 * not sound where its exit comes first (README, Known limits). */
static int net_pass(vlmpi_coll *c, uint32_t ep, int64_t *lb);
static void net_over(vlmpi_coll *c, int rc);

static void early_net_wait(vlmpi_coll *c)
{
	vlmpi_comm *v = c->v;
	int p = v->size, me = v->rank, rc, k, mode = 0, who = -1, last_who = -1, waiting = 0;
	int spins = 0;
	int64_t lb, est = 0, last = INT64_MIN, pub = INT64_MIN;
	vli_order_wait w;
	coll_net *x;

	/* (every member decides alike to come here, whatever the board: a
	 * member not on it yet - just out of MPI_Init - soon is) */
	while (!vli_flow_coll_ok(p, v->world))
		vlmpi_spin(&spins);
	for (;;) {
		uint32_t ep = vli_flow_epoch();

		if (waiting)
			vli_order_snap(&w);
		if ((rc = net_pass(c, ep, &lb)) != 0)
			break;
		if (!waiting) {
			vli_order_wait_begin(&w, "the messages of %s on shared links",
					     vl_coll_kind_name(c->kind));
			waiting = 1;
			continue; /* (look again after the snapshot) */
		}
		x = c->x;
		if (x) {
			k = vlcoll_job_blocker(x->job, me, &who, &est);
		} else {
			k = 2;
			who = c->root;
		}
		if (k != 2)
			who = -1;
		if (k == 1 && (mode != 1 || est != last || vli_order_own_bound() != pub)) {
			if (mode == 2 && last_who >= 0) {
				/* (should the front end publish its wait again, no
				 * member it waited for raises the bound) */
				vli_order_coll_deps(c->eon, c->num, 0, &who);
				last_who = -1;
			}
			if (vli_flow_hold(est, ep)) {
				mode = 1;
				last = est;
				/* (what it set: read back, a flow's lowering right
				 * after would pass for it, and never be raised
				 * again - every task then waited on this one.  A
				 * task in a blocking collective takes nothing else
				 * before it: a lowering for another message of its
				 * is undone so; vli_flow_wait_for, which a task
				 * waiting for several requests uses, keeps it) */
				pub = est > vli_t.now ? est : vli_t.now;
			}
			continue;
		}
		if (k != 1 && (mode != 2 || who != last_who)) {
			/* (k 0, which a rank not done never gives: its clock) */
			int id = k == 2 ? v->world[who] : 0;

			vli_order_coll_deps(c->eon, c->num, k == 2, &id);
			vli_order_block_on(x ? x->out[me].exit : c->t0, VLI_WAIT_MSG, c->eon, c->num);
			mode = 2;
			last_who = who;
			continue;
		}
		/* (a member's entry comes through MPI, which wakes nothing on
		 * the board: look for it as early_wait_entries does) */
		if (k == 2)
			vlmpi_spin(&spins);
		else
			vlmpi_order_sleep(&w, VLI_SLEEP_ROOT);
	}
	if (waiting)
		vli_order_wait_end(&w);
	/* (what it waits for now - its data - comes from members it has
	 * waited for: none of the others) */
	vli_order_coll_deps(c->eon, c->num, 0, &who);
	net_over(c, rc);
}

/* One pass of c's simulation on shared links, opened before every member
 * is in (early_net_wait, nbs_step; ep: vli_flow_epoch before it): opened
 * once its schedule is known - a scatterv's once its root's entry, with
 * every block, is in (until then its rank waits for the root); a
 * gatherv's at once, its blocks given as the entries come in
 * (vlcoll_job_block) - the entries in given to it, run on as far as the
 * final arrivals allow.  Returns vlcoll_job_run's result, 2 if this rank
 * is done, -1 if it cannot be timed; *lb as vlcoll_job_run gives it.  A
 * nonblocking one raises its floor to *lb where it may (nbs_floor). */
static void nbs_floor(vlmpi_coll *c, uint32_t ep, int64_t lb);

static int net_pass(vlmpi_coll *c, uint32_t ep, int64_t *lb)
{
	vlmpi_comm *v = c->v;
	int p = v->size, i, j, rc, gv = c->kind == VL_KIND_GATHER && c->variant == VLCOLL_V;
	int av = c->kind == VL_KIND_ALLTOALL && c->variant == VLCOLL_V;
	int64_t *entry, *bytes, g;
	vlcoll_in in;
	coll_net *x;

	*lb = INT64_MAX;
	if (c->nbe) {
		/* (the board's view first: a member in there whose entry is
		 * not fed below keeps the floor where it is) */
		int *ids = malloc(sizeof(int) * (size_t)p);

		if (!ids)
			vli_error(1, "out of memory");
		for (i = 0; i < p; i++)
			ids[i] = v->world[i];
		if (vli_order_coll_who(c->eon, c->num, p, ids, c->wlb, c->win, &g) < 0)
			memset(c->win, VLI_WHO_IN, (size_t)p); /* (not known: all in) */
		free(ids);
	}
	/* (which entries are in is asked first: one that comes in after its
	 * row was read would be fed with the row's placeholder) */
	if (!c->x && (c->variant != VLCOLL_V || gv || c->root < 0 || entry_in(c, c->root))) {
		for (i = 0; i < p; i++)
			c->fed[i] = (unsigned char)entry_in(c, i);
		coll_in(v, c, &in, &entry, &bytes);
		for (i = 0; i < p; i++) {
			if (!c->fed[i])
				entry[i] = VLCOLL_PENDING;
			if (gv && !c->fed[c->root]) /* (else the root's, coll_in) */
				bytes[i] = c->fed[i] ? c->all[(size_t)i * ROW(c) + 2] : VLCOLL_PENDING;
			for (j = 0; av && !c->fed[i] && j < p; j++) /* (an alltoallv's row) */
				bytes[(size_t)i * (size_t)p + (size_t)j] = VLCOLL_PENDING;
		}
		rc = net_start(v, c, &in, c->eon, c->num, 0, 1);
		free(entry);
		free(bytes);
		if (rc < 0)
			return -1;
	}
	x = c->x;
	if (!x && c->nbe && c->fl && c->root >= 0 && c->win[c->root] == VLI_WHO_MISSING)
		/* (a scatterv not opened: every message of it waits for its
		 * root's entry, which the root's bound holds until it enters -
		 * then every member's floor comes down to it) */
		vli_flow_own_floor(c->eon, c->num, VLI_FLOOR_RAISE, VLI_ORDER_NONE, ep);
	for (i = 0; x && i < p; i++)
		if (!c->fed[i] && entry_in(c, i)) {
			/* (a gatherv's blocks: a member's own in its entry, the
			 * root's every one) */
			for (j = 0; gv && j < p; j++)
				if (j == i || i == c->root)
					vlcoll_job_block(x->job, j,
							 c->all[(size_t)i * ROW(c) +
								(i == c->root ? 3 + j : 2)]);
			if (av)
				vlcoll_job_row(x->job, i, &c->all[(size_t)i * ROW(c) + 2]);
			vlcoll_job_enter(x->job, i, c->all[(size_t)i * ROW(c)]);
			c->fed[i] = 1;
		}
	if (!x)
		return 0;
	rc = vlcoll_job_run(x->job, lb);
	if (rc == 0 && vlcoll_job_rank_done(x->job, v->rank))
		rc = 2;
	if (rc == 0 && c->nbe)
		nbs_floor(c, ep, *lb);
	return rc;
}

/* c's simulation has ended for this rank (rc as net_pass's): its result,
 * done; a nonblocking one's floor off. */
static void net_over(vlmpi_coll *c, int rc)
{
	if (!c->x || net_finish(c, rc) < 0)
		sim_failed(c, vli_t.cfg.mpi.coll_alg[c->kind]);
	c->done = 1;
	if (c->nbe && c->fl) {
		vli_flow_own_floor(c->eon, c->num, VLI_FLOOR_END, 0, 0);
		c->fl = 0;
	}
	if (c->nbe)
		open_drop(c);
}

/* Raise nonblocking c's floor to lb (its simulation's least estimate
 * waited for, read at epoch ep) if every member the board had in before
 * the pass is in the simulation. */
static void nbs_floor(vlmpi_coll *c, uint32_t ep, int64_t lb)
{
	int i;

	if (!c->fl)
		return;
	for (i = 0; i < c->v->size; i++)
		if (c->win[i] != VLI_WHO_MISSING && !c->fed[i])
			return;
	vli_flow_own_floor(c->eon, c->num, VLI_FLOOR_RAISE, lb, ep);
}

/* Nonblocking c on shared links: run its simulation on as far as it can
 * now; 1 once this rank is done (c->o).  Else c->lb: it ends no earlier -
 * what its rank waits for in the end, an arrival (its estimate) or a
 * member not in (its bound): c->tell; else (a member's entry on its way,
 * the simulation not opened yet) its entry. */
static int nbs_step(vlmpi_coll *c)
{
	vlmpi_comm *v = c->v;
	int rc, k, who = -1;
	int64_t lb, est = 0, b = c->t0;
	uint32_t ep = vli_flow_epoch();

	if (c->done)
		return 1;
	c->tell = 0;
	c->lb = c->t0;
	if (!vli_flow_coll_ok(v->size, v->world))
		return 0; /* (a member not on the board yet soon is) */
	if ((rc = net_pass(c, ep, &lb)) != 0) {
		net_over(c, rc);
		return 1;
	}
	if (c->x) {
		k = vlcoll_job_blocker(c->x->job, v->rank, &who, &est);
	} else {
		k = 2;
		who = c->root;
	}
	if (k == 1) {
		b = est;
		c->tell = 1;
	} else if (k == 2 && who >= 0 && c->win[who] == VLI_WHO_MISSING) {
		b = c->wlb[who];
		c->tell = 1;
	}
	if (b > c->lb)
		c->lb = b;
	return 0;
}

static int early_unpack(vlmpi_coll *c);

/* Its exit known, this rank waits in nonblocking c (shared links) until
 * its data are in. */
static void nbs_finish(vlmpi_coll *c)
{
	int i;

	if (!c->done) {
		c->waited = 1; /* (not also from a wait hook meanwhile) */
		early_net_wait(c);
		c->waited = 0;
	}
	for (i = 0; i < c->nreq; i++)
		if (c->need[i] == 2)
			vlmpi_real_wait(&c->req[i], MPI_STATUS_IGNORE);
	early_unpack(c);
	c->finished = 1;
}

/* c's real part has started (rc): wait for what it needs (name: the call,
 * for reports), then the caller finishes its data and calls early_leave.
 * Returns an MPI error code (not MPI_SUCCESS: c is freed). */
static int early_wait(vlmpi_coll *c, int rc, const char *name)
{
	int i, any = 0;

	for (i = 0; i < c->nreq; i++)
		any |= c->need[i];
	if (rc == MPI_SUCCESS && !any && !c->shared) {
		coll_sim(c->v, c, 0);
	} else if (rc == MPI_SUCCESS) {
		vlmpi_deferred_advance(); /* (a wildcard receive that can choose now does first) */
		vlmpi_wait_begin(vli_t.now, c->eon, c->num, "%s", name);
		if (c->shared)
			early_net_wait(c);
		else
			early_wait_entries(c);
		/* (its data come from members it comes after; until they are in,
		 * it acts no earlier than its exit) */
		vlmpi_wait_raise(c->o.exit);
		for (i = 0; i < c->nreq && rc == MPI_SUCCESS; i++)
			if (c->need[i] == 2)
				rc = vlmpi_real_wait(&c->req[i], MPI_STATUS_IGNORE);
		vlmpi_wait_end();
	}
	if (rc != MPI_SUCCESS) {
		vli_order_coll_leave(c->eon, c->num);
		for (i = 0; i < c->nreq; i++)
			if (c->req[i] != MPI_REQUEST_NULL) {
				PMPI_Cancel(&c->req[i]);
				PMPI_Request_free(&c->req[i]);
			}
		vlmpi_coll_free(c);
	}
	return rc;
}

/* Simulate with the entries in, move the clock, leave, keep c behind. */
static int early_unpack(vlmpi_coll *c);

static void early_leave(vlmpi_coll *c)
{
	vlmpi_comm *v = c->v;

	if (!c->done)
		coll_sim(v, c, 0);
	vlmpi_coll_leave(v, c, 1, c->t0);
	vli_order_coll_leave(c->eon, c->num);
	c->next = behind;
	behind = c;
	behind_progress();
	vlmpi_set_idle(vlmpi_coll_progress);
}

/* Where a reduce's or gather's member sends from: a non-root from a copy
 * of its data (c->copy), the root from sendbuf. */
static const void *early_from(vlmpi_coll *c, const void *sendbuf, int count, MPI_Datatype t)
{
	void *base;

	if (c->v->rank == c->root || sendbuf == MPI_IN_PLACE)
		return sendbuf;
	c->copy = copy_of(sendbuf, count, t, &base);
	return base;
}

/* c's real call has started (rc): wait (name: the call), its data in
 * (early_unpack), leave; *rc the call's result.  1. */
static int early_block(vlmpi_coll *c, int rc, const char *name, int *rcp)
{
	if ((*rcp = early_wait(c, rc, name)) == MPI_SUCCESS) {
		*rcp = early_unpack(c);
		early_leave(c);
	}
	return 1;
}

/* A member's part of a bcast's or scatter's data (count of t): received
 * packed from the root into c->copy (need: how c waits for it), for
 * early_unpack into buf. */
static int member_data(vlmpi_coll *c, void *buf, int count, MPI_Datatype t, int root,
		       MPI_Comm comm, int need)
{
	int size = 0;

	PMPI_Pack_size(count, t, comm, &size);
	c->copy = malloc(size > 0 ? (size_t)size : 1);
	if (!c->copy)
		vli_error(1, "out of memory");
	c->ubuf = buf;
	c->ucount = count;
	c->usize = size;
	c->utype = t;
	c->ucomm = comm;
	return PMPI_Irecv(c->copy, size, MPI_PACKED, root, TAG_DATA(c->num), c->v->pcomm,
			  early_req(c, need));
}

/* A bcast's data: the root packs them and sends them to every member
 * itself (so that a member needs the root only, not Open MPI's tree); a
 * member receives them into c->copy (need: how c waits for them), for
 * early_unpack. */
static int bcast_data(vlmpi_coll *c, void *buffer, int count, MPI_Datatype t, int root,
		      MPI_Comm comm, int need)
{
	int size = 0, pos = 0, i, rc = MPI_SUCCESS;

	if (c->v->rank != root)
		return member_data(c, buffer, count, t, root, comm, need);
	PMPI_Pack_size(count, t, comm, &size);
	c->copy = malloc(size > 0 ? (size_t)size : 1);
	if (!c->copy)
		vli_error(1, "out of memory");
	rc = PMPI_Pack(buffer, count, t, c->copy, size, &pos, comm);
	for (i = 0; i < c->v->size && rc == MPI_SUCCESS; i++)
		if (i != root)
			rc = PMPI_Isend(c->copy, pos, MPI_PACKED, i, TAG_DATA(c->num), c->v->pcomm,
					early_req(c, 0));
	return rc;
}

/* A scatter's data: the root packs every block (the program may reuse
 * sendbuf on return), unpacks its own into recvbuf and sends each member
 * its own; a member receives its block as bcast_data does.  A scatterv's
 * root: counts and displs (else NULL: sendcount each, in a row). */
static int scatter_data(vlmpi_coll *c, const void *sendbuf, int sendcount, const int *counts,
			const int *displs, MPI_Datatype sendtype, void *recvbuf, int recvcount,
			MPI_Datatype recvtype, int root, MPI_Comm comm, int need)
{
	int size = 0, pos = 0, i, p = c->v->size, rc = MPI_SUCCESS;
	size_t total = 0, off = 0;
	MPI_Aint lb, ext;

	if (c->v->rank != root)
		return member_data(c, recvbuf, recvcount, recvtype, root, comm, need);
	PMPI_Type_get_extent(sendtype, &lb, &ext);
	for (i = 0; i < p; i++) {
		PMPI_Pack_size(counts ? counts[i] : sendcount, sendtype, comm, &size);
		total += size > 0 ? (size_t)size : 0;
	}
	c->copy = malloc(total ? total : 1);
	if (!c->copy)
		vli_error(1, "out of memory");
	for (i = 0; i < p && rc == MPI_SUCCESS; i++) {
		char *blk = (char *)c->copy + off;
		int k = counts ? counts[i] : sendcount, d = displs ? displs[i] : i * sendcount, n = 0;

		PMPI_Pack_size(k, sendtype, comm, &size);
		rc = PMPI_Pack((const char *)sendbuf + (MPI_Aint)d * ext, k, sendtype, blk, size, &n,
			       comm);
		if (rc != MPI_SUCCESS)
			break;
		off += (size_t)n;
		if (i != root)
			rc = PMPI_Isend(blk, n, MPI_PACKED, i, TAG_DATA(c->num), c->v->pcomm,
					early_req(c, 0));
		else if (recvbuf != MPI_IN_PLACE)
			rc = PMPI_Unpack(blk, n, &pos, recvbuf, recvcount, recvtype, comm);
	}
	return rc;
}

/* A scan's or exscan's data: each member sends its vector to every later
 * member (from a copy: block me of c->copy) and receives those of the
 * earlier ones (blocks 0 to me - 1; need 2); early_unpack reduces them
 * into recvbuf.  Not Open MPI's chain: there a member's data wait for the
 * next member's entry (its send is a rendezvous), and this member, its
 * exit known, must not wait for a member it does not come after (that one
 * may wait for it in virtual time: a wildcard receive before the scan).
 * p (p - 1) / 2 messages. */
static int scan_data(vlmpi_coll *c, const void *sendbuf, void *recvbuf, int count,
		     MPI_Datatype t, MPI_Op op)
{
	MPI_Aint lb, ext, text;
	int me = c->v->rank, j, rc = MPI_SUCCESS;
	char *x;

	PMPI_Type_get_extent(t, &lb, &ext);
	PMPI_Type_get_true_extent(t, &c->utlb, &text);
	c->uspan = count > 0 ? (size_t)((MPI_Aint)(count - 1) * ext + text) : 0;
	if (!c->uspan)
		c->uspan = 1;
	c->copy = x = malloc(c->uspan * (size_t)(me + 1));
	if (!x)
		vli_error(1, "out of memory");
	if (count > 0)
		memcpy(x + (size_t)me * c->uspan,
		       (const char *)(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf) + c->utlb,
		       c->uspan);
	c->ubuf = recvbuf;
	c->ucount = count;
	c->utype = t;
	c->uop = op;
	for (j = 0; j < me && rc == MPI_SUCCESS; j++)
		rc = PMPI_Irecv(x + (size_t)j * c->uspan - c->utlb, count, t, j, TAG_DATA(c->num),
				c->v->pcomm, early_req(c, 2));
	for (j = me + 1; j < c->v->size && rc == MPI_SUCCESS; j++)
		rc = PMPI_Isend(x + (size_t)me * c->uspan - c->utlb, count, t, j, TAG_DATA(c->num),
				c->v->pcomm, early_req(c, 0));
	return rc;
}

/* A scan's or exscan's result from the vectors in (scan_data): the
 * last one copied into recvbuf (packed and unpacked: the type may have
 * holes), then each earlier one reduced into it (MPI's ops are
 * associative). */
static int scan_reduce(vlmpi_coll *c)
{
	int top = c->v->rank - (c->kind == VL_KIND_EXSCAN), j, size = 0, pos = 0, rc;
	char *x = c->copy, *pk;

	if (top < 0)
		return MPI_SUCCESS; /* (an exscan's rank 0: no result) */
	PMPI_Pack_size(c->ucount, c->utype, c->v->pcomm, &size);
	pk = malloc(size > 0 ? (size_t)size : 1);
	if (!pk)
		vli_error(1, "out of memory");
	rc = PMPI_Pack(x + (size_t)top * c->uspan - c->utlb, c->ucount, c->utype, pk, size, &pos,
		       c->v->pcomm);
	size = pos;
	pos = 0;
	if (rc == MPI_SUCCESS)
		rc = PMPI_Unpack(pk, size, &pos, c->ubuf, c->ucount, c->utype, c->v->pcomm);
	free(pk);
	for (j = top - 1; j >= 0 && rc == MPI_SUCCESS; j--)
		rc = PMPI_Reduce_local(x + (size_t)j * c->uspan - c->utlb, c->ubuf, c->ucount,
				       c->utype, c->uop);
	return rc;
}

/* A member's data, in: into the program's buffer (bcast, scatter: unpacked;
 * scan, exscan: reduced). */
static int early_unpack(vlmpi_coll *c)
{
	int pos = 0;

	if (c->kind == VL_KIND_SCAN || c->kind == VL_KIND_EXSCAN)
		return scan_reduce(c);
	return c->ubuf ? PMPI_Unpack(c->copy, c->usize, &pos, c->ubuf, c->ucount, c->utype, c->ucomm)
		       : MPI_SUCCESS;
}

/* The real part of each collective on the early path, started (*rc) on
 * its private duplicate: its vlmpi_coll, or NULL if it does not take that
 * path (nb: a nonblocking form). */
static vlmpi_coll *bcast_start(void *buffer, int count, MPI_Datatype t, int root, MPI_Comm comm,
			       int nb, int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_BCAST, VLCOLL_PLAIN, root,
				  vlmpi_type_bytes(t, count), NULL, nb);

	if (c)
		*rc = bcast_data(c, buffer, count, t, root, comm, 2);
	return c;
}

static vlmpi_coll *reduce_start(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
				MPI_Op op, int root, MPI_Comm comm, int nb, int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_REDUCE, VLCOLL_PLAIN, root,
				  vlmpi_type_bytes(t, count), NULL, nb);

	if (c)
		*rc = PMPI_Ireduce(early_from(c, sendbuf, count, t), recvbuf, count, t, op, root,
				   c->v->pcomm, early_req(c, c->v->rank == root ? 2 : 0));
	return c;
}

/* A v form's root (vf, this rank root of comm): every member's block in
 * bytes (counts of t; the caller frees it); else NULL. */
static int64_t *blocks_of(const vlmpi_comm *v, const int *counts, MPI_Datatype t)
{
	int64_t *vb = malloc(sizeof(int64_t) * (size_t)v->size);
	int i;

	if (!vb)
		vli_error(1, "out of memory");
	for (i = 0; i < v->size; i++)
		vb[i] = vlmpi_type_bytes(t, counts[i]);
	return vb;
}

static int64_t *root_blocks(MPI_Comm comm, int vf, int root, const int *counts, MPI_Datatype t)
{
	vlmpi_comm *v = vlmpi_comm_find(comm);

	return vf && v && v->rank == root ? blocks_of(v, counts, t) : NULL;
}

/* A gatherv's data, point to point: a member with a block sends it (from a
 * copy, c->copy) to the root, which receives each straight into recvbuf
 * (need 2) and copies its own.  Not Open MPI's igatherv: there the root
 * waits for every member to call it, also one with a block of 0 bytes - a
 * member whose entry its exit does not come after, which may wait for it
 * in virtual time (a wildcard receive before the gatherv: the root then
 * waited in MPI for that member, and that member on the board for the
 * root to go on; seen with wmix). */
static int gatherv_data(vlmpi_coll *c, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			void *recvbuf, const int *recvcounts, const int *displs,
			MPI_Datatype recvtype, int root)
{
	int i, me = c->v->rank, rc = MPI_SUCCESS;
	MPI_Aint lb, ext;
	void *base;

	if (me != root) {
		if (vlmpi_type_bytes(sendtype, sendcount) <= 0)
			return MPI_SUCCESS;
		c->copy = copy_of(sendbuf, sendcount, sendtype, &base);
		return PMPI_Isend(base, sendcount, sendtype, root, TAG_DATA(c->num), c->v->pcomm,
				  early_req(c, 0));
	}
	PMPI_Type_get_extent(recvtype, &lb, &ext);
	for (i = 0; i < c->v->size && rc == MPI_SUCCESS; i++) {
		char *at = (char *)recvbuf + (MPI_Aint)displs[i] * ext;

		if (vlmpi_type_bytes(recvtype, recvcounts[i]) <= 0)
			continue;
		if (i != root)
			rc = PMPI_Irecv(at, recvcounts[i], recvtype, i, TAG_DATA(c->num), c->v->pcomm,
					early_req(c, 2));
		else if (sendbuf != MPI_IN_PLACE)
			rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, root, TAG_DATA(c->num), at,
					   recvcounts[i], recvtype, root, TAG_DATA(c->num), c->v->pcomm,
					   MPI_STATUS_IGNORE);
	}
	return rc;
}

/* A gather or (vf) a gatherv (recvcounts and displs: the root's). */
static vlmpi_coll *gather_start(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
				void *recvbuf, int recvcount, int vf, const int *recvcounts,
				const int *displs, MPI_Datatype recvtype, int root, MPI_Comm comm,
				int nb, int *rc)
{
	int64_t *vb = root_blocks(comm, vf, root, recvcounts, recvtype);
	vlmpi_coll *c;

	if (vb && sendbuf == MPI_IN_PLACE)
		recvcount = recvcounts[root];
	c = early_try(comm, VL_KIND_GATHER, vf ? VLCOLL_V : VLCOLL_PLAIN, root,
		      sendbuf == MPI_IN_PLACE ? vlmpi_type_bytes(recvtype, recvcount)
					      : vlmpi_type_bytes(sendtype, sendcount),
		      vb, nb);
	free(vb);
	if (!c)
		return NULL;
	if (vf) {
		*rc = gatherv_data(c, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
				   recvtype, root);
		return c;
	}
	sendbuf = early_from(c, sendbuf, sendcount, sendtype);
	*rc = PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
			   c->v->pcomm, early_req(c, c->v->rank == root ? 2 : 0));
	return c;
}

/* A scatter or (vf) a scatterv (sendcounts and displs: the root's). */
static vlmpi_coll *scatter_start(const void *sendbuf, int sendcount, int vf, const int *sendcounts,
				 const int *displs, MPI_Datatype sendtype, void *recvbuf,
				 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
				 int nb, int *rc)
{
	int64_t *vb = root_blocks(comm, vf, root, sendcounts, sendtype);
	vlmpi_coll *c;

	if (vb)
		sendcount = sendcounts[root];
	c = early_try(comm, VL_KIND_SCATTER, vf ? VLCOLL_V : VLCOLL_PLAIN, root,
		      recvbuf == MPI_IN_PLACE ? vlmpi_type_bytes(sendtype, sendcount)
					      : vlmpi_type_bytes(recvtype, recvcount),
		      vb, nb);
	free(vb);
	if (c)
		*rc = scatter_data(c, sendbuf, sendcount, vf ? sendcounts : NULL, displs, sendtype,
				   recvbuf, recvcount, recvtype, root, comm, 2);
	return c;
}

/* A scan or exscan (its data: scan_data). */
static vlmpi_coll *scan_start(int kind, const void *sendbuf, void *recvbuf, int count,
			      MPI_Datatype t, MPI_Op op, MPI_Comm comm, int nb, int *rc)
{
	vlmpi_coll *c = early_try(comm, kind, VLCOLL_PLAIN, -1, vlmpi_type_bytes(t, count), NULL, nb);

	if (c)
		*rc = scan_data(c, sendbuf, recvbuf, count, t, op);
	return c;
}

int vlmpi_early_Bcast(void *buffer, int count, MPI_Datatype t, int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = bcast_start(buffer, count, t, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Bcast", rc) : 0;
}

int vlmpi_early_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		       int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = reduce_start(sendbuf, recvbuf, count, t, op, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Reduce", rc) : 0;
}

int vlmpi_early_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
		       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = gather_start(sendbuf, sendcount, sendtype, recvbuf, recvcount, 0, NULL, NULL,
				     recvtype, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Gather", rc) : 0;
}

int vlmpi_early_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			const int recvcounts[], const int displs[], MPI_Datatype recvtype,
			int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = gather_start(sendbuf, sendcount, sendtype, recvbuf, 0, 1, recvcounts, displs,
				     recvtype, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Gatherv", rc) : 0;
}

int vlmpi_early_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = scatter_start(sendbuf, sendcount, 0, NULL, NULL, sendtype, recvbuf, recvcount,
				      recvtype, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Scatter", rc) : 0;
}

int vlmpi_early_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
			 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
			 int root, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = scatter_start(sendbuf, 0, 1, sendcounts, displs, sendtype, recvbuf, recvcount,
				      recvtype, root, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Scatterv", rc) : 0;
}

int vlmpi_early_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		     MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = scan_start(VL_KIND_SCAN, sendbuf, recvbuf, count, t, op, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Scan", rc) : 0;
}

int vlmpi_early_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		       MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = scan_start(VL_KIND_EXSCAN, sendbuf, recvbuf, count, t, op, comm, 0, rc);

	return c ? early_block(c, *rc, "MPI_Exscan", rc) : 0;
}

/* ---- on shared links, the collectives whose every exit follows every
 * entry ----
 * With collectives = shared a blocking barrier, allreduce, allgather,
 * alltoall (plain forms) or reduce_scatter_block is timed from its first member's entry on too
 * (early_net_wait): its messages leave when the schedule says - a
 * recursive doubling's first exchange between two members that are in,
 * before a late third enters - as SimGrid times them, where before the
 * second session of 2026-11-29 none left before the last entry.  Its data
 * go by Open MPI's own nonblocking call, which every member waits for
 * (need 2): its exit comes after every entry, so every member has made
 * the call before any can leave.  Without shared: 0 (timed after the real
 * call, vlmpi_coll_time). */
static vlmpi_coll *all_start(MPI_Comm comm, int kind, int64_t bytes)
{
	return early_try(comm, kind, VLCOLL_PLAIN, -1, bytes, NULL, 0);
}

static int nbe_request(vlmpi_coll *c, int rc, MPI_Request *req, int *rcp);

int vlmpi_early_Barrier(MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = all_start(comm, VL_KIND_BARRIER, 0);

	if (!c)
		return 0;
	*rc = PMPI_Ibarrier(c->v->pcomm, early_req(c, 2));
	return early_block(c, *rc, "MPI_Barrier", rc);
}

int vlmpi_early_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
			  MPI_Op op, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = all_start(comm, VL_KIND_ALLREDUCE, vlmpi_type_bytes(t, count));

	if (!c)
		return 0;
	*rc = PMPI_Iallreduce(sendbuf, recvbuf, count, t, op, c->v->pcomm, early_req(c, 2));
	return early_block(c, *rc, "MPI_Allreduce", rc);
}

int vlmpi_early_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
				     MPI_Datatype t, MPI_Op op, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, -1,
				  vlmpi_type_bytes(t, recvcount), NULL, 0);

	if (!c)
		return 0;
	*rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, c->v->pcomm,
					 early_req(c, 2));
	return early_block(c, *rc, "MPI_Reduce_scatter_block", rc);
}

/* An allgather's or alltoall's (kind) data by Open MPI's call f (name);
 * req: the program's request of a nonblocking one, else NULL. */
static int all_blocks(int kind, int (*f)(const void *, int, MPI_Datatype, void *, int,
					 MPI_Datatype, MPI_Comm, MPI_Request *),
		      const char *name, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
		      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
		      MPI_Request *req, int *rc)
{
	vlmpi_coll *c = early_try(comm, kind, VLCOLL_PLAIN, -1,
				  sendbuf == MPI_IN_PLACE ? vlmpi_type_bytes(recvtype, recvcount)
							  : vlmpi_type_bytes(sendtype, sendcount),
				  NULL, req != NULL);

	if (!c)
		return 0;
	*rc = f(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, c->v->pcomm,
		early_req(c, 2));
	return req ? nbe_request(c, *rc, req, rc) : early_block(c, *rc, name, rc);
}

int vlmpi_early_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  int *rc)
{
	return all_blocks(VL_KIND_ALLGATHER, PMPI_Iallgather, "MPI_Allgather", sendbuf, sendcount,
			  sendtype, recvbuf, recvcount, recvtype, comm, NULL, rc);
}

int vlmpi_early_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, int *rc)
{
	return all_blocks(VL_KIND_ALLTOALL, PMPI_Ialltoall, "MPI_Alltoall", sendbuf, sendcount,
			  sendtype, recvbuf, recvcount, recvtype, comm, NULL, rc);
}

/* ---- an exit known before every member it depends on is in ----
 * With the missing members entering never, this rank's exit is E.  A
 * member enters no earlier than its bound, nor than a message can wake it:
 * one sent by a task that can go on without this one (no earlier than the
 * least bound of those, g), or by this task (no earlier than its next
 * action).  So E is exact if it comes no later than the bounds of the
 * missing members and g (x) and this task's clock, or than g when this task
 * acts no earlier than E: it waits in the collective (early_wait_entries),
 * or a choice among requests compares E with a later time.  It ends after
 * that time if E does and g does too.  Otherwise it ends no earlier than
 * min(E, x), nor than the bound of a missing member its exit comes after
 * (early_after): that is its bound while it waits.
 *
 * Nonblocking: MPI_Ibcast, MPI_Ireduce, MPI_Igather(v), MPI_Iscatter(v),
 * MPI_Iscan and MPI_Iexscan run as their blocking forms above, started at
 * the call (the v forms, scan and exscan since the third session of
 * 2026-11-28).
 * The program holds a request that MPI has completed already
 * (vlmpi_done_request); the layer completes it in virtual time: a Wait as
 * the blocking form waits, a choice among requests (Waitany, Waitsome, the
 * tests: vchoose) by vlmpi_coll_by.  Before the second session of
 * 2026-11-28 their exit waited for every member's entry (an allgather): the
 * choice took the greatest bound of the missing members as the
 * collective's bound, which a bcast's leaf, say, need not wait for, and
 * chose otherwise when the exchange happened to be in. */

/* Every rank's result with the entries in c->all, member i's never where
 * inf[i], in out[] (v->size): 0, or -1 if the simulation fails. */
static int nbe_sim(vlmpi_coll *c, const unsigned char *inf, vlcoll_out *out)
{
	vlmpi_comm *v = c->v;
	int64_t *entry, *bytes;
	vlcoll_in in;
	int i, rc;

	coll_in(v, c, &in, &entry, &bytes);
	for (i = 0; i < v->size; i++)
		if (inf[i])
			entry[i] = NBE_INF;
	rc = vlcoll_sim(&vli_t.cfg, &in, out);
	free(entry);
	free(bytes);
	return rc == 0 ? 0 : -1;
}

/* Collective c on the early path, this rank's exit not known: 1 if it is
 * known now (c->o), 2 if it is c->po.exit, no later than target, provided
 * this rank acts no earlier (c->pend; target INT64_MAX: it waits in c), 0
 * if it ends after target, -1 if that cannot be told yet (target < 0:
 * only 1 or -1).  *lb: it ends no earlier.  A member that waits in c too
 * acts no earlier than its own exit with the missing members entering
 * never, or than those can enter: where this rank knows the entries that
 * exit depends on (it depends on every member), that counts for it instead
 * of its bound (two leaves of a bcast on a bus would each wait for the
 * other's). */
static int nbe_eval(vlmpi_coll *c, int64_t target, int64_t *lb)
{
	vlmpi_comm *v = c->v;
	int p = v->size, i, rc = -1, all = 1;
	int *ids = calloc((size_t)p, sizeof(int));
	int64_t *blb = malloc(sizeof(int64_t) * (size_t)p), g, x, a = c->t0, e, b, la;
	unsigned char *in = malloc((size_t)p), *inf = calloc((size_t)p, 1);
	vlcoll_out *out = malloc(sizeof(*out) * (size_t)p);

	if (!ids || !blb || !in || !inf || !out)
		vli_error(1, "out of memory");
	*lb = c->t0;
	c->pend = 0;
	early_known(c, 0);
	for (i = 0; i < p; i++)
		ids[i] = v->world[i];
	if (vli_order_coll_who(c->eon, c->num, p, ids, blb, in, &g) < 0)
		goto out;
	/* x: no missing member enters before it.  One that runs enters no
	 * earlier than its bound; one that waits needs a message, which a task
	 * that can go on sends no earlier than its bound (g) and which arrives
	 * a lookahead later (without it, two members polling on one
	 * MPI_Ibcast held each other's bounds at the same time: stuck) */
	la = vli_order_lookahead();
	x = g < VLI_ORDER_NONE - la ? g + la : VLI_ORDER_NONE;
	for (i = 0; i < p; i++) {
		if (i == v->rank)
			continue;
		if (c->ereq[i] < 0) {
			all = 0;
			continue;
		}
		if (req_done(&c->req[c->ereq[i]]))
			continue;
		if (!c->dep[i]) {
			/* (its entry does not change this rank's exit; with it
			 * not in, it does not change the others' either) */
			if (in[i] != VLI_WHO_MISSING)
				all = 0;
			inf[i] = 1;
			continue;
		}
		if (in[i] != VLI_WHO_MISSING)
			goto out; /* (its entry is on its way) */
		inf[i] = 1;
		if (blb[i] < x)
			x = blb[i];
		if (c->after[i] && blb[i] != VLI_ORDER_NONE && blb[i] > a)
			a = blb[i];
	}
	if (nbe_sim(c, inf, out) < 0)
		goto out;
	e = out[v->rank].exit;
	/* (the members waiting in it: x so far bounds the entries of those
	 * missing through the others) */
	for (i = 0; i < p; i++) {
		if (i == v->rank || in[i] != VLI_WHO_WAITS)
			continue;
		b = blb[i];
		if (all && out[i].exit < NBE_INF / 2) {
			int64_t f = out[i].exit < x ? out[i].exit : x;
			if (f > b)
				b = f;
		}
		if (b < g)
			g = b;
	}
	if (g < VLI_ORDER_NONE - la && g + la < x)
		x = g + la;
	if (e >= NBE_INF / 2) {
		/* (it waits for a member not in) */
		if (target >= 0 && g > target)
			rc = 0;
	} else if (e <= x && e <= vli_t.now) {
		/* (this task's messages from now on are too late to matter) */
		c->o = out[v->rank];
		c->done = 1;
		rc = 1;
	} else if (target >= 0 && e <= g && e <= target) {
		c->po = out[v->rank];
		c->pend = 1;
		rc = 2;
	} else if (target >= 0 && e > target && g > target) {
		rc = 0;
	}
	*lb = e < x ? e : x;
	if (*lb < a)
		*lb = a;
out:
	free(ids);
	free(blb);
	free(in);
	free(inf);
	free(out);
	return rc;
}

/* Its data in (a non-root of a bcast or scatter: unpacked), its exit known:
 * the rank waits in it. */
static void nbe_finish(vlmpi_coll *c)
{
	int i;

	early_wait_entries(c);
	for (i = 0; i < c->nreq; i++)
		if (c->need[i] == 2)
			vlmpi_real_wait(&c->req[i], MPI_STATUS_IGNORE);
	early_unpack(c);
	c->finished = 1;
}

static int nbe_advance(vlmpi_coll *c, int wait)
{
	if (c->shared && wait) {
		if (!c->finished)
			nbs_finish(c);
		return 1;
	}
	if (c->shared)
		return nbs_step(c);
	if (wait) {
		if (!c->finished)
			nbe_finish(c);
		return 1;
	}
	if (c->done)
		return 1;
	if (deps_in(c)) {
		coll_sim(c->v, c, 0);
		return 1;
	}
	return nbe_eval(c, -1, &c->lb) == 1;
}

int vlmpi_coll_by(vlmpi_req *q, int64_t target, int64_t *t)
{
	vlmpi_coll *c = q->coll;
	int r;

	if (!c->nbe)
		return -1;
	if (nbe_advance(c, 0)) {
		*t = c->o.exit;
		return 1;
	}
	if (c->shared) {
		*t = c->lb > q->t_post ? c->lb : q->t_post;
		return c->tell && c->lb > target ? 0 : -1;
	}
	r = nbe_eval(c, target, &c->lb);
	*t = r == 1 ? c->o.exit : r == 2 ? c->po.exit : c->lb > q->t_post ? c->lb : q->t_post;
	return r;
}

void vlmpi_coll_by_commit(vlmpi_req *q)
{
	vlmpi_coll *c = q->coll;

	if (c->nbe && !c->done && c->pend) {
		c->o = c->po;
		c->done = 1;
	}
}

/* Request *req of c, started (rc): the program's (*rcp the call's
 * result).  1. */
static int nbe_request(vlmpi_coll *c, int rc, MPI_Request *req, int *rcp)
{
	vlmpi_req *q;

	if (rc == MPI_SUCCESS)
		rc = vlmpi_done_request(req);
	*rcp = rc;
	if (rc != MPI_SUCCESS) {
		/* (its real part stays behind) */
		vlmpi_coll_free(c);
		return 1;
	}
	icoll_traced(c, c->mine[2]);
	q = vlmpi_req_new(*req, VLMPI_REQ_COLL, c->v, -1, 0);
	q->coll = c;
	return 1;
}

int vlmpi_early_Ibcast(void *buffer, int count, MPI_Datatype t, int root, MPI_Comm comm,
		       MPI_Request *req, int *rc)
{
	vlmpi_coll *c = bcast_start(buffer, count, t, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
			int root, MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = reduce_start(sendbuf, recvbuf, count, t, op, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			MPI_Request *req, int *rc)
{
	vlmpi_coll *c = gather_start(sendbuf, sendcount, sendtype, recvbuf, recvcount, 0, NULL, NULL,
				     recvtype, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 const int recvcounts[], const int displs[], MPI_Datatype recvtype,
			 int root, MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = gather_start(sendbuf, sendcount, sendtype, recvbuf, 0, 1, recvcounts, displs,
				     recvtype, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
			 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
			 MPI_Request *req, int *rc)
{
	vlmpi_coll *c = scatter_start(sendbuf, sendcount, 0, NULL, NULL, sendtype, recvbuf, recvcount,
				      recvtype, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
			  MPI_Datatype sendtype, void *recvbuf, int recvcount,
			  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = scatter_start(sendbuf, 0, 1, sendcounts, displs, sendtype, recvbuf, recvcount,
				      recvtype, root, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
		      MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = scan_start(VL_KIND_SCAN, sendbuf, recvbuf, count, t, op, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

int vlmpi_early_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t, MPI_Op op,
			MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = scan_start(VL_KIND_EXSCAN, sendbuf, recvbuf, count, t, op, comm, 1, rc);

	return c ? nbe_request(c, *rc, req, rc) : 0;
}

/* ---- an allgatherv or reduce_scatter on shared links ----
 * Every member passes every member's count (recvcounts): its entry carries
 * every block (n = p + 1, all_blocks_known), so that its simulation is
 * opened at the first entry as a plain allgather's is, and every member's
 * trace records the blocks (VL_EV_BLOCKS) for the replay.  The data by
 * Open MPI's own nonblocking call, which every member waits for (each
 * exit comes after every entry).  Since the third session of 2026-11-29;
 * before, they sent no message before their last entry.  (An alltoallv's
 * member knows its own row of the matrix only: row_start.) */
static vlmpi_coll *counts_start(MPI_Comm comm, int kind, const int *counts, MPI_Datatype t, int nb)
{
	vlmpi_comm *v = vlmpi_comm_find(comm);
	int64_t *vb = v && vli_t.cfg.topo.coll_shared ? blocks_of(v, counts, t) : NULL;
	vlmpi_coll *c = vb ? early_try(comm, kind,
				       kind == VL_KIND_ALLGATHER ? VLCOLL_V : VLCOLL_PLAIN, -1,
				       vb[v->rank], vb, nb)
			   : NULL;

	free(vb);
	return c;
}

int vlmpi_early_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, const int recvcounts[], const int displs[],
			   MPI_Datatype recvtype, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = counts_start(comm, VL_KIND_ALLGATHER, recvcounts, recvtype, 0);

	if (!c)
		return 0;
	*rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
			       c->v->pcomm, early_req(c, 2));
	return early_block(c, *rc, "MPI_Allgatherv", rc);
}

int vlmpi_early_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			    void *recvbuf, const int recvcounts[], const int displs[],
			    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = counts_start(comm, VL_KIND_ALLGATHER, recvcounts, recvtype, 1);

	if (!c)
		return 0;
	*rc = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
			       c->v->pcomm, early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

/* An alltoallv on shared links: each member knows its own row of the
 * matrix only (the bytes it sends each member), carried in its entry
 * (n = p) and recorded in its trace; its simulation is opened at the first
 * entry, each row given as its member's entry comes in (vlcoll_job_row: a
 * message leaves after its sender's entry). */
static vlmpi_coll *row_start(const void *sendbuf, const int *sendcounts, MPI_Datatype sendtype,
			     const int *recvcounts, MPI_Datatype recvtype, MPI_Comm comm, int nb)
{
	vlmpi_comm *v = vlmpi_comm_find(comm);
	int64_t *vb = v && vli_t.cfg.topo.coll_shared
			      ? sendbuf == MPI_IN_PLACE ? blocks_of(v, recvcounts, recvtype)
							: blocks_of(v, sendcounts, sendtype)
			      : NULL;
	vlmpi_coll *c = vb ? early_try(comm, VL_KIND_ALLTOALL, VLCOLL_V, -1, vb[0], vb, nb) : NULL;

	free(vb);
	return c;
}

int vlmpi_early_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
			  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			  const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = row_start(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm, 0);

	if (!c)
		return 0;
	*rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
			      recvtype, c->v->pcomm, early_req(c, 2));
	return early_block(c, *rc, "MPI_Alltoallv", rc);
}

int vlmpi_early_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
			   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
			   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *req, int *rc)
{
	vlmpi_coll *c = row_start(sendbuf, sendcounts, sendtype, recvcounts, recvtype, comm, 1);

	if (!c)
		return 0;
	*rc = PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
			      recvtype, c->v->pcomm, early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

int vlmpi_early_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
			       MPI_Datatype t, MPI_Op op, MPI_Comm comm, int *rc)
{
	vlmpi_coll *c = counts_start(comm, VL_KIND_REDUCE_SCATTER, recvcounts, t, 0);

	if (!c)
		return 0;
	*rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, t, op, c->v->pcomm,
				   early_req(c, 2));
	return early_block(c, *rc, "MPI_Reduce_scatter", rc);
}

int vlmpi_early_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
				MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
				int *rc)
{
	vlmpi_coll *c = counts_start(comm, VL_KIND_REDUCE_SCATTER, recvcounts, t, 1);

	if (!c)
		return 0;
	*rc = PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, t, op, c->v->pcomm,
				   early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

int vlmpi_early_Ibarrier(MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_BARRIER, VLCOLL_PLAIN, -1, 0, NULL, 1);

	if (!c)
		return 0;
	*rc = PMPI_Ibarrier(c->v->pcomm, early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

int vlmpi_early_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype t,
			   MPI_Op op, MPI_Comm comm, MPI_Request *req, int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_ALLREDUCE, VLCOLL_PLAIN, -1,
				  vlmpi_type_bytes(t, count), NULL, 1);

	if (!c)
		return 0;
	*rc = PMPI_Iallreduce(sendbuf, recvbuf, count, t, op, c->v->pcomm, early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

int vlmpi_early_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
				      MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *req,
				      int *rc)
{
	vlmpi_coll *c = early_try(comm, VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK, -1,
				  vlmpi_type_bytes(t, recvcount), NULL, 1);

	if (!c)
		return 0;
	*rc = PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, t, op, c->v->pcomm,
					 early_req(c, 2));
	return nbe_request(c, *rc, req, rc);
}

int vlmpi_early_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			   void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			   MPI_Request *req, int *rc)
{
	return all_blocks(VL_KIND_ALLGATHER, PMPI_Iallgather, "MPI_Iallgather", sendbuf,
			  sendcount, sendtype, recvbuf, recvcount, recvtype, comm, req, rc);
}

int vlmpi_early_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
			  void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
			  MPI_Request *req, int *rc)
{
	return all_blocks(VL_KIND_ALLTOALL, PMPI_Ialltoall, "MPI_Ialltoall", sendbuf, sendcount,
			  sendtype, recvbuf, recvcount, recvtype, comm, req, rc);
}

void vlmpi_coll_progress(void)
{
	static int busy;
	vlmpi_coll *c, *next;

	if (busy || (!open_nb && !behind))
		return;
	busy = 1;
	behind_progress();
	for (c = open_nb; c; c = next) {
		next = c->next;
		if (!c->waited)
			nb_advance(c, 0);
	}
	busy = 0;
}

void vlmpi_coll_free(vlmpi_coll *c)
{
	if (c->nbe) {
		/* (on the early path: off the board, its requests behind; on
		 * shared links one freed before its end reads its messages no
		 * more - the others add this rank's) */
		if (c->shared && !c->done) {
			if (c->x)
				net_finish(c, 0);
			if (c->fl)
				vli_flow_own_floor(c->eon, c->num, VLI_FLOOR_END, 0, 0);
			c->fl = 0;
			c->done = 1;
		}
		open_drop(c);
		c->nbe = 0;
		vli_order_coll_leave(c->eon, c->num);
		c->next = behind;
		behind = c;
		behind_progress();
		vlmpi_set_idle(vlmpi_coll_progress);
		return;
	}
	open_drop(c);
	if (c->x) /* (freed before its end: it reads its messages no more) */
		net_finish(c, 0);
	else if (c->floor && !c->done)
		vli_flow_coll_quit(c->on, c->num, NULL, 0);
	if (c->on)
		vli_order_coll_leave(c->on, c->num);
	free(c->copy);
	if (c->req)
		vlmpi_comm_unbusy(c->v);
	free(c->req);
	free(c->need);
	free(c->ereq);
	free(c->after);
	free(c->dep);
	free(c->fed);
	free(c->wlb);
	free(c->win);
	free(c->mine);
	free(c->all);
	free(c);
}

/* Move the clock to the exit the algorithm gives this rank.  A blocking
 * collective costs its communication and waiting; a nonblocking one overlaps
 * with what the rank did since the call, and only waits for what is left:
 * its record spans the call that completes it (begun at t_call), with its
 * start in t4 (VL_TF_NB). */
void vlmpi_coll_leave(vlmpi_comm *v, vlmpi_coll *c, int blocking, int64_t t_call)
{
	unsigned flags = c->variant == VLCOLL_V ? VL_TF_V : c->variant == VLCOLL_BLOCK ? VL_TF_BLOCK : 0;
	int root = c->root >= 0 ? v->world[c->root] : -1;
	int64_t bytes = c->n > 0 ? c->mine[2] : 0, before = vli_t.now;

	if (blocking) {
		vli_wait_until(vli_t.now + c->o.wait);
		vli_comm(c->o.comm);
		vli_trace_msg(VL_EV_COLL, root, VL_COLL_MPI + c->kind, 0, bytes, c->t0, vli_t.now,
			      c->o.wait, v->size, flags | (c->shared ? VL_TF_SHARED : 0));
		blocks_traced(c, 0, vli_t.now);
		return;
	}
	vli_wait_until(c->o.exit);
	if (t_call > before)
		t_call = before;
	vli_trace_msg4(VL_EV_COLL, root, VL_COLL_MPI + c->kind, c->key, bytes, t_call, vli_t.now,
		       vli_t.now - before, v->size, c->t0,
		       flags | VL_TF_NB | (c->shared ? VL_TF_SHARED | VL_TF_OPENED : 0));
}

/* Time a blocking collective that has just run for real: exchange entry times
 * and sizes, simulate, move the clock.  row: this rank's bytes (n values). */
int vlmpi_coll_time(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
		    const int64_t *row, int n)
{
	vlmpi_coll *c = coll_new(v, kind, variant, root, t0, row, n);
	int rc;

	VLMPI_REAL_COLL(
		PMPI_Allgather(c->mine, n + 2, MPI_INT64_T, c->all, n + 2, MPI_INT64_T, v->comm),
		PMPI_Iallgather(c->mine, n + 2, MPI_INT64_T, c->all, n + 2, MPI_INT64_T, v->comm,
				&cr_));
	if (rc == MPI_SUCCESS) {
		coll_sim(v, c, 1);
		vlmpi_coll_leave(v, c, 1, t0);
	}
	vlmpi_coll_free(c);
	return rc;
}

/* A nonblocking collective was started for real as *req: start the exchange
 * (in the same order on every member, as MPI requires of the call itself) and
 * follow the request; Wait/Test finish the timing. */
int vlmpi_coll_start(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
		     const int64_t *row, int n, MPI_Request *req)
{
	vlmpi_coll *c = coll_new(v, kind, variant, root, t0, row, n);
	vlmpi_req *q;
	int rc;

	c->num = v->ncoll++;
	if (vlmpi_vorder) {
		/* entered now; its members wait in it at Wait/Test */
		c->on = VLMPI_ON_COLL(v->id);
		vli_order_coll_enter(c->on, c->num, v->size, v->world);
		/* on shared links its messages are flows of the run's table: until
		 * they are in, its floor holds back what is final (each member
		 * says in the exchange whether the board took it) */
		if (vli_t.cfg.topo.coll_shared && vli_net_on(&vli_t.cfg))
			c->floor = vli_flow_coll_floor(c->on, c->num, VLI_FLOOR_ENTER, t0, 0);
		c->mine[1] = c->floor;
		if (c->floor) {
			c->next = open_nb;
			open_nb = c;
			vlmpi_set_idle(vlmpi_coll_progress);
		}
	}
	rc = PMPI_Iallgather(c->mine, n + 2, MPI_INT64_T, c->all, n + 2, MPI_INT64_T, v->comm,
			     &c->xreq);
	if (rc != MPI_SUCCESS) {
		vlmpi_coll_free(c);
		return rc;
	}
	icoll_traced(c, n > 0 ? row[0] : 0);
	q = vlmpi_req_new(*req, VLMPI_REQ_COLL, v, -1, 0);
	q->coll = c;
	return MPI_SUCCESS;
}

/* A request of a nonblocking collective freed without completion. */
void vlmpi_coll_drop(vlmpi_req *q)
{
	vlmpi_real_wait(&q->coll->xreq, MPI_STATUS_IGNORE);
	vlmpi_coll_free(q->coll);
	q->coll = NULL;
}

int64_t vlmpi_coll_exit(const vlmpi_coll *c)
{
	return c->o.exit;
}

/* Whether the exit of nonblocking collective q is known (wait: wait for
 * it, the rank waiting in it; else 0 = not yet, and vlmpi_coll_lb). */
int vlmpi_coll_ready(vlmpi_req *q, int wait)
{
	return nb_advance(q->coll, wait);
}

int vlmpi_coll_wait_key(const vlmpi_coll *c, uint64_t *on, uint64_t *n)
{
	/* (on shared links its bound is what its rank waits for: not the
	 * members not in, which the board would raise it through) */
	if (!c->nbe || c->done || !c->eon || c->shared)
		return 0;
	*on = c->eon;
	*n = c->num;
	return 1;
}

int64_t vlmpi_coll_lb(const vlmpi_coll *c)
{
	int64_t m;

	/* (its exchange not complete: it ends no earlier than the members that
	 * have not entered it can enter) */
	if (!c->x && !c->done && c->on && (m = vli_order_coll_lb(c->on, c->num)) > c->lb)
		return m;
	return c->lb;
}

struct coll_by {
	vlmpi_coll *c;
	int64_t t;
};

static int coll_by_try(void *arg, int *r)
{
	struct coll_by *d = arg;
	vlmpi_coll *c = d->c;
	uint32_t ep = vli_flow_epoch();

	if (nb_advance(c, 0)) {
		*r = c->o.exit <= d->t;
		return 1;
	}
	/* (exchange not complete: a member has not started it for real) */
	*r = 0;
	return !c->x || (c->lb > d->t && vli_flow_settled(d->t, 0) && vli_flow_epoch() == ep);
}

static void coll_by_what(void *arg, char *buf, size_t n)
{
	struct coll_by *d = arg;

	snprintf(buf, n, "whether %s are in", d->c->x ? d->c->x->what : "a collective's messages");
}

int vlmpi_coll_done_by(vlmpi_req *q, int64_t t)
{
	struct coll_by d = { q->coll, t };

	return vlmpi_decide(coll_by_try, &d, coll_by_what);
}

uint64_t vlmpi_coll_num(const vlmpi_coll *c)
{
	return c->num;
}

int vlmpi_coll_enter(MPI_Comm comm, const char *name)
{
	vlmpi_comm *v = vlmpi_comm_find(comm);
	uint64_t n;

	if (!v)
		return 0;
	n = v->ncoll++;
	if (!vlmpi_vorder)
		return 0;
	in_on = VLMPI_ON_COLL(v->id);
	in_n = n;
	vli_order_coll_enter(in_on, in_n, v->size, v->world);
	/* (it blocks in MPI: a wildcard receive posted earlier that can choose
	 * now does so first) */
	vlmpi_deferred_advance();
	vlmpi_wait_begin(vli_t.now, in_on, in_n, "%s", name);
	vlmpi_wait_now(); /* communicator creation blocks in MPI without polling */
	return 1;
}

void vlmpi_coll_done(void)
{
	vlmpi_wait_end();
	vli_order_coll_leave(in_on, in_n);
}

/* Used by the generated collectives. */
int vlmpi_coll_timed(MPI_Comm comm, vlmpi_comm **v)
{
	*v = vlmpi_comm_find(comm);
	return *v != NULL;
}
