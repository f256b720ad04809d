/* otf2.c - vlayer traces -> OTF2 archive (otf2-print, Vampir, ViTE).
 *
 * Optional: without VL_HAVE_OTF2 (the Makefile defines it when pkg-config finds
 * otf2, Debian package libopen-trace-format2-dev) only the stub at the end is
 * compiled, so the unit tests and the fuzz driver never need the library.
 *
 * The same streaming k-way merge as trf.c and timeline.c (merge.c) validates the
 * traces and matches the messages; each task's events go to its own OTF2 event
 * writer (one location per task), in the task's time order.  The global
 * definitions are written at the end, when every string (mark labels) is known.
 */
#include "otf2.h"
#include "cli.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>

#ifdef VL_HAVE_OTF2

#include "vltrace.h"
#include "merge.h"
#include "states.h"

#include <otf2/otf2.h>

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* regions: the three states (VLS_COMP, VLS_COMM, VLS_WAIT), then one per collective kind */
enum { R_COLL = VLS_WAIT + 1 };
enum { E_ENTER, E_LEAVE, E_SEND, E_RECV, E_CBEGIN, E_CEND, E_IRECV, E_WAIT, E_PARAM };
enum { P_MARK, P_PARAM };  /* the val of marks and parameters (states.h) */

static const char *const st_name[] = { "Computing", "Communicating", "Waiting" };

typedef struct ot_coll {
	const char *name;
	int op;      /* OTF2_COLLECTIVE_OP_*, or -1: a region only */
	int role;    /* OTF2_REGION_ROLE_* */
	int mpi;
} ot_coll;

/* index: 0 other, 1..7 the PVM group operations (VL_COLL_*), 8 + enum vl_coll_kind */
static const ot_coll colls[] = {
	{ "collective", -1, OTF2_REGION_ROLE_COLL_OTHER, 0 },
	{ "pvm_barrier", OTF2_COLLECTIVE_OP_BARRIER, OTF2_REGION_ROLE_BARRIER, 0 },
	{ "pvm_bcast", OTF2_COLLECTIVE_OP_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL, 0 },
	{ "pvm_reduce", OTF2_COLLECTIVE_OP_REDUCE, OTF2_REGION_ROLE_COLL_ALL2ONE, 0 },
	{ "pvm_gather", OTF2_COLLECTIVE_OP_GATHER, OTF2_REGION_ROLE_COLL_ALL2ONE, 0 },
	{ "pvm_scatter", OTF2_COLLECTIVE_OP_SCATTER, OTF2_REGION_ROLE_COLL_ONE2ALL, 0 },
	{ "pvm_joingroup", -1, OTF2_REGION_ROLE_COLL_OTHER, 0 },
	{ "pvm_lvgroup", -1, OTF2_REGION_ROLE_COLL_OTHER, 0 },
	[8 + VL_KIND_BARRIER] = { "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, OTF2_REGION_ROLE_BARRIER, 1 },
	[8 + VL_KIND_BCAST] = { "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL, 1 },
	[8 + VL_KIND_REDUCE] = { "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, OTF2_REGION_ROLE_COLL_ALL2ONE, 1 },
	[8 + VL_KIND_ALLREDUCE] = { "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE,
				     OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
	[8 + VL_KIND_GATHER] = { "MPI_Gather", OTF2_COLLECTIVE_OP_GATHER, OTF2_REGION_ROLE_COLL_ALL2ONE, 1 },
	[8 + VL_KIND_SCATTER] = { "MPI_Scatter", OTF2_COLLECTIVE_OP_SCATTER,
				   OTF2_REGION_ROLE_COLL_ONE2ALL, 1 },
	[8 + VL_KIND_ALLGATHER] = { "MPI_Allgather", OTF2_COLLECTIVE_OP_ALLGATHER,
				     OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
	[8 + VL_KIND_ALLTOALL] = { "MPI_Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL,
				    OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
	[8 + VL_KIND_REDUCE_SCATTER] = { "MPI_Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER,
					  OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
	[8 + VL_KIND_SCAN] = { "MPI_Scan", OTF2_COLLECTIVE_OP_SCAN, OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
	[8 + VL_KIND_EXSCAN] = { "MPI_Exscan", OTF2_COLLECTIVE_OP_EXSCAN, OTF2_REGION_ROLE_COLL_ALL2ALL, 1 },
};
#define NCOLL ((int)(sizeof colls / sizeof colls[0]))

typedef struct ot_ev {
	vlpost_st_ev s;          /* val: region, collective index, parameter; text: E_PARAM */
	int32_t root;      /* E_CEND: the root's processor, or -1 */
} ot_ev;

#define QMAX 16

typedef struct ot_task {
	vlpost_st_task s;        /* cur: the state region the task is in, or VLS_NONE */
	int64_t last_t;
	uint64_t nev;
	OTF2_EvtWriter *w;
	ot_ev q[QMAX];
} ot_task;

typedef struct ot {
	vlm m;
	OTF2_Archive *ar;
	char **str;                /* the strings, by reference */
	uint32_t nstr, cstr;
	uint32_t *sh;              /* hash: string ref + 1, 0 empty */
	uint32_t shcap;
	int32_t *hosts;            /* distinct host indices, sorted */
	int nhosts;
	uint32_t *nref;            /* string refs: S_NFIXED fixed, regions, hosts, tasks */
} ot;

/* the fixed strings (references 0..S_NFIXED-1) */
enum { S_EMPTY, S_MACHINE, S_MACHINE_CLASS, S_NODE_CLASS, S_COMM, S_LOCS, S_RANKS, S_MARK,
       S_PARAM, S_NFIXED };
static const char *const fixed_str[S_NFIXED] = { "", "vlayer virtual machine", "machine", "node",
	"vlayer: all tasks", "vlayer tasks (locations)", "vlayer tasks (ranks)", "mark", "param" };
#define NREG (R_COLL + NCOLL)

static OTF2_FlushType ot_pre_flush(void *u, OTF2_FileType ft, OTF2_LocationRef l, void *cd,
				   bool final)
{
	(void)u, (void)ft, (void)l, (void)cd, (void)final;
	return OTF2_FLUSH;
}

/* no post-flush callback: no BufferFlush events in the archive */
static OTF2_FlushCallbacks ot_flush = { ot_pre_flush, NULL };

static int ot_err(ot *c, const char *what, OTF2_ErrorCode e)
{
	return vlpost_mg_fail(&c->m, "OTF2: %s: %s", what, OTF2_Error_GetDescription(e));
}

/* ---- strings: deduplicated, written as global definitions at the end ---- */
static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int str_grow(ot *c)
{
	uint32_t cap = c->shcap ? 2 * c->shcap : 256;
	uint32_t *h = calloc(cap, sizeof *h);
	if (!h)
		return -1;
	for (uint32_t i = 0; i < c->nstr; i++) {
		uint32_t j = str_hash(c->str[i]) & (cap - 1);
		while (h[j])
			j = (j + 1) & (cap - 1);
		h[j] = i + 1;
	}
	free(c->sh);
	c->sh = h;
	c->shcap = cap;
	return 0;
}

/* The reference of string s (added if new); UINT32_MAX when out of memory. */
static uint32_t ot_str(ot *c, const char *s)
{
	uint32_t j;
	if ((c->nstr + 1) * 2 > c->shcap && str_grow(c) < 0)
		return UINT32_MAX;
	for (j = str_hash(s) & (c->shcap - 1); c->sh[j]; j = (j + 1) & (c->shcap - 1))
		if (strcmp(c->str[c->sh[j] - 1], s) == 0)
			return c->sh[j] - 1;
	if (c->nstr == c->cstr) {
		uint32_t n = c->cstr ? 2 * c->cstr : 64;
		char **p = realloc(c->str, n * sizeof *p);
		if (!p)
			return UINT32_MAX;
		c->str = p;
		c->cstr = n;
	}
	if (!(c->str[c->nstr] = strdup(s)))
		return UINT32_MAX;
	c->sh[j] = ++c->nstr;
	return c->nstr - 1;
}

/* ---- event generation (per task, in the task's time order; states.c) ---- */
static vlpost_st_ev *ot_push(vlpost_st_task *t, int kind, int64_t time)
{
	ot_task *k = (ot_task *)t;
	ot_ev *e;
	if (time < k->last_t)
		time = k->last_t;  /* never backwards within a location */
	k->last_t = time;
	e = &k->q[t->m.qn++];
	memset(e, 0, sizeof *e);
	e->s.m.t = time;
	e->s.kind = (uint8_t)kind;
	e->root = -1;
	return &e->s;
}

static void ot_change(vlpost_st_task *k, int64_t t, int s)
{
	if (k->cur != VLS_NONE)
		vlpost_st_push(k, E_LEAVE, t)->val = (uint8_t)k->cur;
	if (s != VLS_NONE)
		vlpost_st_push(k, E_ENTER, t)->val = (uint8_t)s;
}

static int coll_index(int op)
{
	if (op >= VL_COLL_BARRIER && op <= VL_COLL_LEAVE)
		return op;
	if (op >= VL_COLL_MPI && op - VL_COLL_MPI < VL_KIND_N && 8 + op - VL_COLL_MPI < NCOLL)
		return 8 + op - VL_COLL_MPI;
	return 0;
}

/* A group operation: its region over [t0, t1] (with MpiCollectiveBegin/End),
 * inside it the states (no state around it). */
static void ot_coll_begin(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	int64_t t0 = r->u.v.t0;
	int ci = coll_index(r->tag);
	(void)m;
	vlpost_st_state(k, t0, VLS_NONE);
	vlpost_st_push(k, E_ENTER, t0)->val = (uint8_t)(R_COLL + ci);
	if (colls[ci].op >= 0)
		vlpost_st_push(k, E_CBEGIN, t0);
}

static void ot_coll_end(vlm *m, vlpost_st_task *k, const vl_trec *r)
{
	int64_t t1 = r->u.v.t1;
	int ci = coll_index(r->tag);
	ot_ev *e;
	vlpost_st_state(k, t1, VLS_NONE);
	if (colls[ci].op >= 0) {
		e = (ot_ev *)vlpost_st_push(k, E_CEND, t1);
		e->s.val = (uint8_t)ci;
		e->s.bytes = r->u.v.bytes;
		e->root = r->peer >= 0 ? vlpost_mg_find(m, &k->m, r->peer) : -1;
	}
	vlpost_st_push(k, E_LEAVE, t1)->val = (uint8_t)(R_COLL + ci);
}

static const vlpost_st_ops ot_sops = {
	E_SEND, E_RECV, E_PARAM, E_PARAM, E_IRECV, E_WAIT, ot_push, ot_change, ot_coll_begin,
	ot_coll_end
};

static int ot_map(vlm *m, vlpost_mg_task *t, const vl_trec *r)
{
	return vlpost_st_map(m, (vlpost_st_task *)t, r);
}

static void ot_tinit(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	vlpost_st_init((vlpost_st_task *)t, &ot_sops);
}

static void ot_begin(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	((ot_task *)t)->last_t = t->f->hdr.start_ns;
	/* the merge needs an event (written as nothing); Computing from the start,
	 * unless a state begins then */
	vlpost_st_push(k, E_PARAM, t->f->hdr.start_ns)->val = 0xff;
	vlpost_st_done_at(k, t->f->hdr.start_ns);
}

static void ot_end(vlm *m, vlpost_mg_task *t)
{
	vlpost_st_task *k = (vlpost_st_task *)t;
	(void)m;
	vlpost_st_end_at(k, t->st->end);
	vlpost_st_state(k, t->st->end, VLS_NONE);
	if (!t->qn)  /* the merge needs an event (written as nothing) */
		vlpost_st_push(k, E_PARAM, t->st->end)->val = 0xff;
}

static const vlpost_mg_ops ot_ops = {
	sizeof(ot_task), offsetof(ot_task, q), sizeof(ot_ev), ot_tinit, ot_begin, ot_map, ot_end
};

/* ---- writing the events ---- */
static int ot_emit(ot *c, ot_task *k, const ot_ev *oe)
{
	const vlpost_st_ev *e = &oe->s;
	OTF2_EvtWriter *w = k->w;
	OTF2_TimeStamp t = (OTF2_TimeStamp)e->m.t;
	OTF2_ErrorCode rc = OTF2_SUCCESS;
	int unused = 0;
	uint32_t s;
	switch (e->kind) {
	case E_ENTER:
		rc = OTF2_EvtWriter_Enter(w, NULL, t, e->val);
		break;
	case E_LEAVE:
		rc = OTF2_EvtWriter_Leave(w, NULL, t, e->val);
		break;
	case E_SEND:
		if (vlpost_mg_send_begin(&c->m, &k->s.m, &e->m, &unused) < 0)
			return -1;
		if (e->m.peer < 0)
			return 0;
		if (e->req)
			rc = OTF2_EvtWriter_MpiIsend(w, NULL, t, (uint32_t)e->m.peer, 0,
						     (uint32_t)e->m.tag, (uint64_t)e->bytes, e->req);
		else
			rc = OTF2_EvtWriter_MpiSend(w, NULL, t, (uint32_t)e->m.peer, 0,
						    (uint32_t)e->m.tag, (uint64_t)e->bytes);
		break;
	case E_RECV:
		if (vlpost_mg_recv_end(&c->m, &e->m, k->s.m.proc) < 0)
			return -1;
		if (e->req)
			rc = OTF2_EvtWriter_MpiIrecv(w, NULL, t, (uint32_t)e->m.peer, 0,
						     (uint32_t)e->m.tag, (uint64_t)e->bytes, e->req);
		else
			rc = OTF2_EvtWriter_MpiRecv(w, NULL, t, (uint32_t)e->m.peer, 0,
						    (uint32_t)e->m.tag, (uint64_t)e->bytes);
		break;
	case E_IRECV:
		rc = OTF2_EvtWriter_MpiIrecvRequest(w, NULL, t, e->req);
		break;
	case E_WAIT:
		rc = OTF2_EvtWriter_MpiIsendComplete(w, NULL, t, e->req);
		break;
	case E_CBEGIN:
		rc = OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, t);
		break;
	case E_CEND:
		rc = OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, t, (OTF2_CollectiveOp)colls[e->val].op, 0,
						     oe->root >= 0 ? (uint32_t)oe->root : OTF2_UNDEFINED_UINT32,
						     (uint64_t)e->bytes, (uint64_t)e->bytes);
		break;
	default:
		if (e->val == 0xff)
			return 0;
		if ((s = ot_str(c, e->text)) == UINT32_MAX)
			return vlpost_mg_fail(&c->m, "out of memory");
		rc = OTF2_EvtWriter_ParameterString(w, NULL, t, e->val, s);
		break;
	}
	if (rc != OTF2_SUCCESS)
		return ot_err(c, "writing an event", rc);
	k->nev++;
	return 0;
}

static int ot_run(ot *c)
{
	vlpost_mg_task *k;
	ot_ev *e;
	int rc;
	while ((e = (ot_ev *)vlpost_mg_next(&c->m, &k, &rc)))
		if (ot_emit(c, (ot_task *)k, e) < 0)
			return -1;
	return rc;
}

/* ---- definitions ---- */
static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int host_group(const ot *c, int32_t host)
{
	const int32_t *p = bsearch(&host, c->hosts, (size_t)c->nhosts, sizeof host, cmp_i32);
	return p ? (int)(p - c->hosts) : 0;
}

static int ot_hosts(ot *c)
{
	vlpost_tset *s = c->m.set;
	c->hosts = malloc(((size_t)s->n + 1) * sizeof *c->hosts);
	if (!c->hosts)
		return vlpost_mg_fail(&c->m, "out of memory");
	for (int i = 0; i < s->n; i++)
		c->hosts[i] = s->f[i].hdr.host;
	qsort(c->hosts, (size_t)s->n, sizeof *c->hosts, cmp_i32);
	for (int i = 0; i < s->n; i++)
		if (i == 0 || c->hosts[i] != c->hosts[c->nhosts - 1])
			c->hosts[c->nhosts++] = c->hosts[i];
	return 0;
}

/* the first task (in processor order) of each host gives its name */
static const char *host_name(const ot *c, int g, char *buf, size_t n)
{
	for (int i = 0; i < c->m.set->n; i++) {
		const vl_thdr *h = &c->m.set->f[i].hdr;
		if (h->host != c->hosts[g])
			continue;
		if (h->host_name[0])
			return h->host_name;
		break;
	}
	snprintf(buf, n, "host%d", (int)c->hosts[g]);
	return buf;
}

/* The names of everything but the marks, before the events (their references
 * come first): c->nref[S_NFIXED + region], then hosts, then tasks. */
static int ot_names(ot *c)
{
	vlpost_tset *s = c->m.set;
	size_t n = S_NFIXED + NREG + (size_t)c->nhosts + (size_t)s->n, j = 0;
	char buf[200];
	c->nref = malloc(n * sizeof *c->nref);
	if (!c->nref)
		return vlpost_mg_fail(&c->m, "out of memory");
	for (int i = 0; i < S_NFIXED; i++)
		c->nref[j++] = ot_str(c, fixed_str[i]);
	for (int i = 0; i < NREG; i++)
		c->nref[j++] = ot_str(c, i < R_COLL ? st_name[i] : colls[i - R_COLL].name);
	for (int g = 0; g < c->nhosts; g++)
		c->nref[j++] = ot_str(c, host_name(c, g, buf, sizeof buf));
	for (int i = 0; i < s->n; i++) {
		const vl_thdr *h = &s->f[i].hdr;
		snprintf(buf, sizeof buf, "0x%x %s", (unsigned)h->tid, h->program[0] ? h->program : "?");
		c->nref[j++] = ot_str(c, buf);
	}
	for (size_t i = 0; i < n; i++)
		if (c->nref[i] == UINT32_MAX)
			return vlpost_mg_fail(&c->m, "out of memory");
	return 0;
}

#define CK(call, what)                                          \
	do {                                                    \
		OTF2_ErrorCode e_ = (call);                     \
		if (e_ != OTF2_SUCCESS)                         \
			return ot_err(c, what, e_);             \
	} while (0)

static int ot_groups(ot *c, OTF2_GlobalDefWriter *g)
{
	int n = c->m.set->n;
	uint64_t *mem = malloc(((size_t)n + 1) * sizeof *mem);
	OTF2_ErrorCode e1, e2;
	if (!mem)
		return vlpost_mg_fail(&c->m, "out of memory");
	for (int i = 0; i < n; i++)
		mem[i] = (uint64_t)i;  /* location i is rank i of the communicator */
	e1 = OTF2_GlobalDefWriter_WriteGroup(g, 0, c->nref[S_LOCS], OTF2_GROUP_TYPE_COMM_LOCATIONS,
					     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)n, mem);
	e2 = OTF2_GlobalDefWriter_WriteGroup(g, 1, c->nref[S_RANKS], OTF2_GROUP_TYPE_COMM_GROUP,
					     OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, (uint32_t)n, mem);
	free(mem);
	CK(e1, "writing a group");
	CK(e2, "writing a group");
	CK(OTF2_GlobalDefWriter_WriteComm(g, 0, c->nref[S_COMM], 1, OTF2_UNDEFINED_COMM,
					  OTF2_COMM_FLAG_NONE), "writing the communicator");
	return 0;
}

static int ot_defs(ot *c)
{
	OTF2_GlobalDefWriter *g;
	vlpost_tset *s = c->m.set;
	const uint32_t *rr = c->nref + S_NFIXED, *hr = rr + NREG, *tr = hr + c->nhosts;
	int64_t t1 = 0;

	/* empty local definitions, as the OTF2 examples do */
	CK(OTF2_Archive_OpenDefFiles(c->ar), "opening the definition files");
	for (int i = 0; i < s->n; i++) {
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(c->ar, (OTF2_LocationRef)i);
		if (!d)
			return vlpost_mg_fail(&c->m, "OTF2: no definition writer");
		CK(OTF2_Archive_CloseDefWriter(c->ar, d), "closing a definition writer");
	}
	CK(OTF2_Archive_CloseDefFiles(c->ar), "closing the definition files");

	if (!(g = OTF2_Archive_GetGlobalDefWriter(c->ar)))
		return vlpost_mg_fail(&c->m, "OTF2: no global definition writer");
	for (int i = 0; i < s->n; i++)
		if (c->m.st_base[i].end > t1)
			t1 = c->m.st_base[i].end;
	CK(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, 0, (uint64_t)t1,
						     OTF2_UNDEFINED_TIMESTAMP), "writing the clock");
	for (uint32_t i = 0; i < c->nstr; i++)
		CK(OTF2_GlobalDefWriter_WriteString(g, i, c->str[i]), "writing a string");
	for (int i = 0; i < NREG; i++) {
		int coll = i >= R_COLL;
		const ot_coll *k = coll ? &colls[i - R_COLL] : NULL;
		CK(OTF2_GlobalDefWriter_WriteRegion(g, (OTF2_RegionRef)i, rr[i], rr[i], c->nref[S_EMPTY],
						    coll ? k->role : OTF2_REGION_ROLE_ARTIFICIAL,
						    coll && k->mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
						    OTF2_REGION_FLAG_NONE, c->nref[S_EMPTY], 0, 0),
		   "writing a region");
	}
	CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, c->nref[S_MACHINE], c->nref[S_MACHINE_CLASS],
						    OTF2_UNDEFINED_SYSTEM_TREE_NODE), "writing the system tree");
	for (int h = 0; h < c->nhosts; h++) {
		CK(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, (OTF2_SystemTreeNodeRef)h + 1, hr[h],
							    c->nref[S_NODE_CLASS], 0), "writing the system tree");
		CK(OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)h, hr[h],
							   OTF2_LOCATION_GROUP_TYPE_PROCESS,
							   (OTF2_SystemTreeNodeRef)h + 1,
							   OTF2_UNDEFINED_LOCATION_GROUP), "writing a location group");
	}
	for (int i = 0; i < s->n; i++) {
		const ot_task *k = (const ot_task *)vlpost_mg_tk(&c->m, i);
		CK(OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)i, tr[i],
						      OTF2_LOCATION_TYPE_CPU_THREAD, k->nev,
						      (OTF2_LocationGroupRef)host_group(c, s->f[i].hdr.host)),
		   "writing a location");
	}
	if (ot_groups(c, g) < 0)
		return -1;
	CK(OTF2_GlobalDefWriter_WriteParameter(g, P_MARK, c->nref[S_MARK], OTF2_PARAMETER_TYPE_STRING),
	   "writing a parameter");
	CK(OTF2_GlobalDefWriter_WriteParameter(g, P_PARAM, c->nref[S_PARAM], OTF2_PARAMETER_TYPE_STRING),
	   "writing a parameter");
	return 0;
}

static int ot_open(ot *c, const char *dir)
{
	c->ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, OTF2_CHUNK_SIZE_MIN,
				  OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
				  OTF2_COMPRESSION_NONE);
	if (!c->ar)
		return vlpost_mg_fail(&c->m, "%s: cannot create the OTF2 archive", dir);
	CK(OTF2_Archive_SetFlushCallbacks(c->ar, &ot_flush, NULL), "flush callbacks");
	CK(OTF2_Archive_SetSerialCollectiveCallbacks(c->ar), "collective callbacks");
	CK(OTF2_Archive_SetCreator(c->ar, "vlpost otf2"), "creator");
	CK(OTF2_Archive_SetDescription(c->ar, "vlayer trace; times in virtual nanoseconds"),
	   "description");
	CK(OTF2_Archive_OpenEvtFiles(c->ar), "opening the event files");
	for (int i = 0; i < c->m.set->n; i++) {
		ot_task *k = (ot_task *)vlpost_mg_tk(&c->m, i);
		if (!(k->w = OTF2_Archive_GetEvtWriter(c->ar, (OTF2_LocationRef)i)))
			return vlpost_mg_fail(&c->m, "OTF2: no event writer");
	}
	return 0;
}

static int ot_close_evt(ot *c)
{
	for (int i = 0; i < c->m.set->n; i++) {
		ot_task *k = (ot_task *)vlpost_mg_tk(&c->m, i);
		if (k->w)
			CK(OTF2_Archive_CloseEvtWriter(c->ar, k->w), "closing an event writer");
		k->w = NULL;
	}
	CK(OTF2_Archive_CloseEvtFiles(c->ar), "closing the event files");
	return 0;
}

/* Convert set into the OTF2 archive in directory dir (created). 0, or -1 (err). */
static int ot_write(vlpost_tset *set, const char *dir, int partial, vlpost_tstats *st, char *err,
		    size_t errlen)
{
	ot c;
	int rc;
	memset(&c, 0, sizeof c);
	c.m.set = set;
	c.m.ops = &ot_ops;
	c.m.partial = partial;
	c.m.warn = stderr;
	c.m.msgmax = 768;
	c.m.st_base = st;
	c.m.err = err;
	c.m.errlen = errlen;
	rc = vlpost_mg_init(&c.m) < 0 || ot_hosts(&c) < 0 || ot_names(&c) < 0 || ot_open(&c, dir) < 0 ? -1
	     : ot_run(&c);
	if (rc == 0)
		rc = ot_close_evt(&c);
	if (rc == 0)
		rc = ot_defs(&c);
	if (c.ar) {
		OTF2_ErrorCode e = OTF2_Archive_Close(c.ar);
		if (e != OTF2_SUCCESS && rc == 0)
			rc = ot_err(&c, "closing the archive", e);
	}
	vlpost_mg_free(&c.m);
	for (uint32_t i = 0; i < c.nstr; i++)
		free(c.str[i]);
	free(c.str);
	free(c.sh);
	free(c.hosts);
	free(c.nref);
	return rc;
}

/* ---- the command ---- */
static const char ot_usage[] =
	"usage: vlpost otf2 [-o ARCHIVE_DIR] [--partial] TRACEDIR\n"
	"\n"
	"Write the traces of TRACEDIR as an OTF2 archive (otf2-print, Vampir, ViTE):\n"
	"ARCHIVE_DIR/traces.otf2, traces.def and traces/.  Times are virtual ns (timer\n"
	"resolution 1e9, offset 0).  One location per task (\"TID PROGRAM\"), one location\n"
	"group and system tree node per virtual host; regions Computing, Communicating,\n"
	"Waiting; MpiSend at each send begin, MpiRecv at each receive end (rank =\n"
	"processor, one communicator of all tasks), for nonblocking requests MpiIsend\n"
	"and MpiIsendComplete, MpiIrecvRequest and MpiIrecv (request = the trace's\n"
	"request number); collectives as a region named after\n"
	"them with MpiCollectiveBegin/End; marks as the string parameter \"mark\".\n"
	"\n"
	"  -o DIR       the archive directory (default: TRACEDIR with .otf2 appended);\n"
	"               must not exist; written to DIR.tmp and renamed when complete\n"
	"  --partial    use incomplete traces (as for trf and paje; warnings on stderr)\n";

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(p);
}

static int ot_to(vlpost_tset *set, const char *out, int partial, vlpost_tstats *st)
{
	char err[1024], *tmp = malloc(strlen(out) + 5);
	struct stat sb;
	int rc;
	if (!tmp)
		return vlu_err(VLPOST_EXIT_BAD, "out of memory");
	sprintf(tmp, "%s.tmp", out);
	if (stat(out, &sb) == 0) {
		vlu_err(VLPOST_EXIT_BAD, "%s exists (remove it first)", out);
		free(tmp);
		return VLPOST_EXIT_BAD;
	}
	if (mkdir(tmp, 0777) != 0) {
		vlu_err(VLPOST_EXIT_BAD, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return VLPOST_EXIT_BAD;
	}
	rc = ot_write(set, tmp, partial, st, err, sizeof err);
	if (rc == 0 && rename(tmp, out) != 0)
		rc = vlu_seterr(err, sizeof err, "%s: %s", out, strerror(errno));
	if (rc != 0) {
		nftw(tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		vlu_err(VLPOST_EXIT_BAD, "%s", err);
	}
	free(tmp);
	return rc ? VLPOST_EXIT_BAD : 0;
}

int vlpost_otf2_main(int argc, char **argv)
{
	static const vlpost_mg_cmd cmd = { "otf2", ot_usage, "directory name", ".otf2", ot_to };
	return vlpost_mg_main(&cmd, argc, argv);
}

int vlpost_otf2_available(void)
{
	return 1;
}

#else /* !VL_HAVE_OTF2 */

int vlpost_otf2_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		fputs("usage: vlpost otf2 [-o ARCHIVE_DIR] [--partial] TRACEDIR\n\n"
		      "This vlpost was built without OTF2 support.\n", stdout);
	return vlu_err(VLPOST_EXIT_BAD,
		       "built without OTF2 support (install libopen-trace-format2-dev and rebuild)");
}

int vlpost_otf2_available(void)
{
	return 0;
}

#endif
