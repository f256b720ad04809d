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
 * exchange of everybody's (an allgather on the collective's communicator). */
struct vlmpi_coll {
	int kind, variant, root, n; /* n: bytes values per rank (1, or p for alltoall) */
	int64_t t0;
	int64_t *mine, *all;
	MPI_Request xreq;       /* nonblocking collectives: the exchange */
	int done;               /* exit computed */
	uint64_t num;           /* its number among the collectives of its communicator */
	uint64_t on;            /* virtual order: recorded on the board (nonblocking) */
	vlcoll_out o;           /* this rank's result */
};
typedef struct vlmpi_coll vlmpi_coll;

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
	c->t0 = t0;
	c->xreq = MPI_REQUEST_NULL;
	c->mine = malloc(sizeof(int64_t) * (size_t)(n + 1));
	c->all = malloc(sizeof(int64_t) * (size_t)(n + 1) * (size_t)v->size);
	if (!c->mine || !c->all)
		vli_error(1, "out of memory");
	c->mine[0] = t0;
	for (i = 0; i < n; i++)
		c->mine[i + 1] = row[i];
	return c;
}

void vlmpi_coll_free(vlmpi_coll *c)
{
	if (c->on)
		vli_order_coll_leave(c->on, c->num);
	free(c->mine);
	free(c->all);
	free(c);
}

/* The blocking collective this rank waits in (virtual order). */
static uint64_t in_on, in_n;

/* Its messages on shared links (vlcoll_net): flows of the run's table. */
typedef struct coll_net {
	vlmpi_comm *v;
	vlcoll_job *job;
	vlcoll_net net;
	uint32_t *took; /* the messages whose final arrivals it has taken */
	int ntook, ctook;
} coll_net;

static int net_add(void *ctx, uint32_t k, int src, int dst, int src_host, int dst_host,
		   int64_t bytes, int64_t start)
{
	coll_net *x = ctx;

	return vli_flow_coll_add(in_on, in_n, x->v->size, k, x->v->world[src], x->v->world[dst],
				 src_host, dst_host, bytes, start);
}

static int net_end(void *ctx, int h, uint32_t k, int64_t *arr)
{
	coll_net *x = ctx;
	int r = vli_flow_coll_end(h, in_on, in_n, k, arr);

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


/* 1: the collective is done; 2: this rank is (it goes on); 0: wait. */
static int net_step(void *ctx, int64_t *lb)
{
	coll_net *x = ctx;
	int rc = vlcoll_job_run(x->job, lb);

	if (rc == 0 && vlcoll_job_rank_done(x->job, x->v->rank))
		return 2;
	return rc;
}


/* Simulate in with its messages sharing the links with the program's
 * others (a blocking collective under virtual order with a [topology]):
 * 0, or -1 as vlcoll_sim. */
static int coll_sim_shared(vlmpi_comm *v, const vlcoll_in *in, vlcoll_out *out)
{
	coll_net x;
	char what[96];
	int rc;

	memset(&x, 0, sizeof x);
	x.v = v;
	x.net.ctx = &x;
	x.net.add = net_add;
	x.net.end = net_end;
	x.job = vlcoll_job_start(&vli_t.cfg, in, &x.net, out);
	if (!x.job)
		return -1;
	snprintf(what, sizeof what, "the messages of %s on shared links",
		 vl_coll_kind_name(in->kind));
	rc = vli_flow_wait_for(net_step, &x, what);
	if (rc == 2)
		vli_flow_coll_quit(in_on, in_n, x.took, x.ntook);
	free(x.took);
	vlcoll_job_free(x.job);
	return rc > 0 ? 0 : -1;
}

/* Simulate the algorithm once the exchange is complete: fills c->o.
 * shared: a blocking collective (its messages may share the links with
 * the others'). */
static int coll_sim(vlmpi_comm *v, vlmpi_coll *c, int shared)
{
	int p = v->size, i, n = c->n, rc = 0;
	int64_t *entry = malloc(sizeof(int64_t) * (size_t)p), *bytes = NULL;
	vlcoll_out *out = malloc(sizeof(*out) * (size_t)p);
	vlcoll_in in;

	if (n > 0)
		bytes = malloc(sizeof(int64_t) * (size_t)n * (size_t)p);
	if (!entry || !out || (n > 0 && !bytes))
		vli_error(1, "out of memory");
	for (i = 0; i < p; i++) {
		entry[i] = c->all[(size_t)i * (size_t)(n + 1)];
		if (n > 0)
			memcpy(&bytes[(size_t)i * (size_t)n], &c->all[(size_t)i * (size_t)(n + 1) + 1],
			       sizeof(int64_t) * (size_t)n);
	}
	in.kind = c->kind;
	in.alg = vli_t.cfg.mpi.coll_alg[c->kind];
	in.p = p;
	in.root = c->root;
	in.host = v->host;
	in.entry = entry;
	in.bytes = bytes;
	in.variant = c->variant;
	shared = shared && vli_t.cfg.topo.coll_shared && vlmpi_vorder && vli_net_on(&vli_t.cfg) &&
		 vli_flow_coll_ok(v->size, v->world);
	if ((shared ? coll_sim_shared(v, &in, out) : vlcoll_sim(&vli_t.cfg, &in, out)) == 0) {
		c->o = out[v->rank];
	} else {
		vli_warn("rank %d: collective %s with algorithm %s could not be timed",
			 vlmpi_world_rank, vl_coll_kind_name(c->kind), vlcoll_alg_name(in.alg));
		memset(&c->o, 0, sizeof c->o);
		c->o.exit = c->t0;
		rc = -1;
	}
	c->done = 1;
	free(entry);
	free(bytes);
	free(out);
	return rc;
}

/* Move the clock to the exit the algorithm gives this rank.  A blocking
 * collective costs its communication and waiting; a nonblocking one overlaps
 * with what the rank did since the call, and only waits for what is left. */
void vlmpi_coll_leave(vlmpi_comm *v, vlmpi_coll *c, int blocking)
{
	if (blocking) {
		vli_wait_until(vli_t.now + c->o.wait);
		vli_comm(c->o.comm);
	} else {
		vli_wait_until(c->o.exit);
	}
	vli_trace_msg(VL_EV_COLL, c->root >= 0 ? v->world[c->root] : -1, VL_COLL_MPI + c->kind, 0,
		      c->n > 0 ? c->mine[1] : 0, c->t0, vli_t.now, c->o.wait, v->size,
		      c->variant == VLCOLL_V ? VL_TF_V : c->variant == VLCOLL_BLOCK ? VL_TF_BLOCK : 0);
}

/* Time a blocking collective that has just run for real: exchange entry times
 * and sizes, simulate, move the clock.  row: this rank's bytes (n values). */
int vlmpi_coll_time(vlmpi_comm *v, int kind, int variant, int root, int64_t t0,
		    const int64_t *row, int n)
{
	vlmpi_coll *c = coll_new(v, kind, variant, root, t0, row, n);
	int rc;

	VLMPI_REAL_COLL(
		PMPI_Allgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm),
		PMPI_Iallgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm,
				&cr_));
	if (rc == MPI_SUCCESS) {
		coll_sim(v, c, 1);
		vlmpi_coll_leave(v, c, 1);
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

	rc = PMPI_Iallgather(c->mine, n + 1, MPI_INT64_T, c->all, n + 1, MPI_INT64_T, v->comm,
			     &c->xreq);
	if (rc != MPI_SUCCESS) {
		vlmpi_coll_free(c);
		return rc;
	}
	c->num = v->ncoll++;
	if (vlmpi_vorder) {
		/* entered now; its members wait in it at Wait/Test */
		c->on = VLMPI_ON_COLL(v->id);
		vli_order_coll_enter(c->on, c->num, v->size, v->world);
	}
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

/* Whether the exchange of nonblocking collective q is complete (0 = not yet,
 * test only); computes its exit when it is. */
int vlmpi_coll_ready(vlmpi_req *q, int wait)
{
	vlmpi_coll *c = q->coll;
	int flag = 0;

	if (c->done)
		return 1;
	if (wait)
		vlmpi_real_wait(&c->xreq, MPI_STATUS_IGNORE);
	else if (PMPI_Test(&c->xreq, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS || !flag)
		return 0;
	coll_sim(q->vc, c, 0);
	return 1;
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
