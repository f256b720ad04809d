/* simgrid_ti.c - one rank's records as SimGrid's time-independent trace
 * (the actions of smpi_replay in SimGrid 3.32: "RANK ACTION ARGS", sizes in
 * bytes since "init" has no datatype argument).
 *
 * What vlayer charged to the task itself stays as it was: computation (the
 * gaps between records, vl_compute) becomes "compute FLOPS" on the host's
 * speed; the send time S and the receive time R become sleeps next to the
 * send and the receive.  What the network does is left to SimGrid: the send,
 * recv, isend, irecv and wait actions and the collectives.  A record that has
 * no TI action becomes a sleep of its duration (counted in as_sleep).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgrid.h"
#include "util/diag.h"

void vlpost_sg_ti_init(vlpost_sg_ti *t, int rank, int nranks, int mpi, double speed,
                       vlpost_sg_rank_fn rank_of, void *ctx)
{
	memset(t, 0, sizeof *t);
	t->rank = rank;
	t->nranks = nranks;
	t->mpi = mpi;
	t->speed = speed > 0 ? speed : 1e9;
	t->rank_of = rank_of;
	t->ctx = ctx;
}

void vlpost_sg_ti_free(vlpost_sg_ti *t)
{
	uint32_t i;

	for (i = 0; i < t->nblk; i++)
		free(t->blk[i].b);
	free(t->blk);
	t->blk = NULL;
	t->nblk = 0;
	free(t->req);
	t->req = NULL;
	t->nreq = 0;
}

static int rank_of(vlpost_sg_ti *t, int32_t tid)
{
	return tid < 0 ? -1 : t->rank_of(t->ctx, tid);
}

static vlpost_sg_req *req_get(vlpost_sg_ti *t, int64_t num)
{
	if (num <= 0 || num > UINT32_MAX)
		return NULL;
	if ((uint64_t)num >= t->nreq) {
		uint32_t n = t->nreq ? t->nreq : 64;
		while (n <= (uint64_t)num && n < UINT32_MAX / 2)
			n *= 2;
		if (n <= (uint64_t)num)
			return NULL;
		t->req = vlu_xrealloc(t->req, (size_t)n * sizeof *t->req);
		memset(t->req + t->nreq, 0, (size_t)(n - t->nreq) * sizeof *t->req);
		t->nreq = n;
	}
	return &t->req[num];
}

/* The blocks of the collective (nb, id), -1 each until known (make: a new
 * entry if none); NULL if none. */
static int64_t *blk_get(vlpost_sg_ti *t, int nb, uint64_t id, int make)
{
	struct vlpost_sg_blk *e;
	uint32_t i;
	int k;

	for (i = t->nblk; i > 0; i--)
		if (t->blk[i - 1].nb == nb && t->blk[i - 1].id == id)
			return t->blk[i - 1].b;
	if (!make)
		return NULL;
	t->blk = vlu_xrealloc(t->blk, (size_t)(t->nblk + 1) * sizeof *t->blk);
	e = &t->blk[t->nblk++];
	e->nb = nb;
	e->id = id;
	e->b = vlu_xrealloc(NULL, (size_t)t->nranks * sizeof *e->b);
	for (k = 0; k < t->nranks; k++)
		e->b[k] = -1;
	return e->b;
}

/* First pass: the blocks right after a collective's entry record. */
static void note_blocks(vlpost_sg_ti *t, const vl_trec *r)
{
	int64_t v[4] = { r->u.v.bytes, r->u.v.t2, r->u.v.t3, r->u.v.t4 }, *b;
	int k;

	if (r->type == VL_EV_COLL && !(r->flags & VL_TF_NB)) {
		t->last_nb = 0;
		t->last_id = t->ncoll_note++;
		t->last_ok = 1;
	} else if (r->type == VL_EV_ICOLL) {
		t->last_nb = 1;
		t->last_id = r->seq;
		t->last_ok = 1;
	} else if (r->type == VL_EV_BLOCKS && t->last_ok &&
		   r->seq == (t->last_nb ? t->last_id : 0)) {
		b = blk_get(t, t->last_nb, t->last_id, 1);
		for (k = 0; k < r->tag && k < 4; k++)
			if (r->peer + k >= 0 && r->peer + k < t->nranks)
				b[r->peer + k] = v[k];
	} else {
		t->last_ok = 0;
	}
}

void vlpost_sg_ti_note(vlpost_sg_ti *t, const vl_trec *r)
{
	vlpost_sg_req *q;

	note_blocks(t, r);
	if (r->type != VL_EV_RECV || !(r->flags & VL_TF_NB))
		return;
	q = req_get(t, r->u.v.t4);
	if (!q)
		return;
	q->peer = rank_of(t, r->peer);
	q->tag = r->tag;
	q->bytes = r->u.v.bytes;
	q->done = 1;
}

void vlpost_sg_secs(FILE *out, int64_t ns)
{
	if (ns < 0)
		ns = 0;
	fprintf(out, "%" PRId64 ".%09" PRId64, ns / 1000000000, ns % 1000000000);
}

static void sleep_ns(vlpost_sg_ti *t, int64_t ns, FILE *out)
{
	if (ns <= 0)
		return;
	fprintf(out, "%d sleep ", t->rank);
	vlpost_sg_secs(out, ns);
	fputc('\n', out);
	t->actions++;
}

static void compute_ns(vlpost_sg_ti *t, int64_t ns, FILE *out)
{
	if (ns <= 0)
		return;
	if (t->speed == 1e9)
		fprintf(out, "%d compute %" PRId64 "\n", t->rank, ns);
	else
		fprintf(out, "%d compute %.17g\n", t->rank, (double)ns * t->speed / 1e9);
	t->actions++;
}

void vlpost_sg_ti_begin(vlpost_sg_ti *t, int64_t start_ns, FILE *out)
{
	fprintf(out, "%d init\n", t->rank);
	t->actions++;
	sleep_ns(t, start_ns, out);
	t->cur = start_ns > 0 ? start_ns : 0;
}

void vlpost_sg_ti_end(vlpost_sg_ti *t, FILE *out)
{
	fprintf(out, "%d sleep 0\n", t->rank);
	t->actions++;
}

/* The part of [t0, t1] not exported yet (records of one multicast may share
 * one interval). */
static int64_t span(const vlpost_sg_ti *t, const vl_trec *r)
{
	int64_t a = r->u.v.t0 > t->cur ? r->u.v.t0 : t->cur;
	return r->u.v.t1 > a ? r->u.v.t1 - a : 0;
}

static void as_sleep(vlpost_sg_ti *t, const vl_trec *r, FILE *out)
{
	t->as_sleep[r->type <= VL_EV_LAST ? r->type : 0]++;
	sleep_ns(t, span(t, r), out);
}

/* A collective on MPI_COMM_WORLD: its TI action, or 0 if it has none.  An
 * allgatherv or reduce_scatter whose trace has every block (VL_EV_BLOCKS)
 * with them (id: its number among the blocking ones), else as its plain
 * form. */
static int coll(vlpost_sg_ti *t, const vl_trec *r, FILE *out, uint64_t id)
{
	int kind = r->tag >= VL_COLL_MPI ? r->tag - VL_COLL_MPI : -1, root = 0, i;
	int64_t b = r->u.v.bytes, *vb = NULL;
	int nb = (r->flags & VL_TF_NB) != 0;

	if (!t->mpi || r->tag < VL_COLL_MPI || kind >= VL_KIND_N || r->u.v.t3 != t->nranks)
		return 0;
	if (r->peer >= 0 && (root = rank_of(t, r->peer)) < 0)
		return 0;
	if ((kind == VL_KIND_ALLGATHER && (r->flags & VL_TF_V)) ||
	    (kind == VL_KIND_REDUCE_SCATTER && !(r->flags & VL_TF_BLOCK))) {
		vb = blk_get(t, nb, nb ? r->seq : id, 0);
		for (i = 0; vb && i < t->nranks; i++)
			if (vb[i] < 0)
				vb = NULL;
	}
	fprintf(out, "%d ", t->rank);
	if (vb) {
		fputs(kind == VL_KIND_ALLGATHER ? "allgatherv" : "reducescatter", out);
		if (kind == VL_KIND_ALLGATHER)
			fprintf(out, " %" PRId64, b);
		for (i = 0; i < t->nranks; i++)
			fprintf(out, " %" PRId64, vb[i]);
		fputs(kind == VL_KIND_ALLGATHER ? "\n" : " 0\n", out);
		t->actions++;
		return 1;
	}
	switch (kind) {
	case VL_KIND_BARRIER:
		fputs("barrier", out);
		break;
	case VL_KIND_BCAST:
		fprintf(out, "bcast %" PRId64 " %d", b, root);
		break;
	case VL_KIND_REDUCE:
		fprintf(out, "reduce %" PRId64 " 0 %d", b, root);
		break;
	case VL_KIND_ALLREDUCE:
		fprintf(out, "allreduce %" PRId64 " 0", b);
		break;
	case VL_KIND_GATHER:
		fprintf(out, "gather %" PRId64 " %" PRId64 " %d", b, b, root);
		break;
	case VL_KIND_SCATTER:
		fprintf(out, "scatter %" PRId64 " %" PRId64 " %d", b, b, root);
		break;
	case VL_KIND_ALLGATHER:
		fprintf(out, "allgather %" PRId64 " %" PRId64, b, b);
		break;
	case VL_KIND_ALLTOALL:
		fprintf(out, "alltoall %" PRId64 " %" PRId64, b, b);
		break;
	case VL_KIND_REDUCE_SCATTER:
		fputs("reducescatter", out);
		for (i = 0; i < t->nranks; i++)
			fprintf(out, " %" PRId64, b);
		fputs(" 0", out);
		break;
	case VL_KIND_SCAN:
		fprintf(out, "scan %" PRId64 " 0", b);
		break;
	default: /* VL_KIND_EXSCAN */
		fprintf(out, "exscan %" PRId64 " 0", b);
		break;
	}
	fputc('\n', out);
	t->actions++;
	return 1;
}

static void ti_send(vlpost_sg_ti *t, const vl_trec *r, FILE *out)
{
	int p = rank_of(t, r->peer);
	int nb = (r->flags & VL_TF_NB) != 0;
	/* S: the call minus the waiting of a rendezvous (t4 of a blocking send) */
	int64_t s = span(t, r) - (nb ? 0 : r->u.v.t4);

	if (p < 0) {
		as_sleep(t, r, out);
		return;
	}
	sleep_ns(t, s, out);
	fprintf(out, "%d %s %d %d %" PRId64 "\n", t->rank, nb ? "isend" : "send", p, r->tag,
	        r->u.v.bytes);
	t->actions++;
}

static void ti_recv(vlpost_sg_ti *t, const vl_trec *r, FILE *out)
{
	int p = rank_of(t, r->peer);
	/* R: the call minus the waiting for the arrival */
	int64_t rt = span(t, r) - r->u.v.t2;

	if (p < 0 || (r->flags & VL_TF_SYNTH)) {
		as_sleep(t, r, out);
		return;
	}
	if (r->flags & VL_TF_NB)
		fprintf(out, "%d wait %d %d %d\n", t->rank, p, t->rank, r->tag);
	else
		fprintf(out, "%d recv %d %d %" PRId64 "\n", t->rank, p, r->tag, r->u.v.bytes);
	t->actions++;
	sleep_ns(t, rt, out);
}

void vlpost_sg_ti_rec(vlpost_sg_ti *t, const vl_trec *r, FILE *out)
{
	const vlpost_sg_req *q;
	int p;

	if (r->type == VL_EV_MARK || r->type == VL_EV_PARAM || r->type == VL_EV_START ||
	    r->type == VL_EV_BLOCKS)
		return;
	/* computation: the gap before the record (VL_EV_COMPUTE is one too) */
	if (r->u.v.t0 > t->cur) {
		compute_ns(t, r->u.v.t0 - t->cur, out);
		t->cur = r->u.v.t0;
	}
	switch (r->type) {
	case VL_EV_ICOLL: /* (the collective is exported at its completion) */
		break;
	case VL_EV_COMPUTE:
		compute_ns(t, span(t, r), out);
		break;
	case VL_EV_SLEEP:
		sleep_ns(t, span(t, r), out);
		break;
	case VL_EV_SEND:
		ti_send(t, r, out);
		break;
	case VL_EV_RECV:
		ti_recv(t, r, out);
		break;
	case VL_EV_IRECV:
		q = req_get(t, r->u.v.t4);
		if (q && q->done && q->peer >= 0) {
			sleep_ns(t, span(t, r), out);
			fprintf(out, "%d irecv %d %d %" PRId64 "\n", t->rank, q->peer, q->tag,
			        q->bytes);
			t->actions++;
		} else { /* never completed, or from a task without trace */
			as_sleep(t, r, out);
		}
		break;
	case VL_EV_WAIT:
		p = rank_of(t, r->peer);
		if (p < 0) {
			as_sleep(t, r, out);
			break;
		}
		fprintf(out, "%d wait %d %d %d\n", t->rank, t->rank, p, r->tag);
		t->actions++;
		sleep_ns(t, span(t, r) - r->u.v.t2, out);
		break;
	case VL_EV_COLL:
		if (!coll(t, r, out, (r->flags & VL_TF_NB) ? 0 : t->ncoll_rec++))
			as_sleep(t, r, out);
		break;
	case VL_EV_END:
		break;
	default: /* SPAWN, PROBE: their duration */
		as_sleep(t, r, out);
		break;
	}
	if (r->u.v.t1 > t->cur)
		t->cur = r->u.v.t1;
}
