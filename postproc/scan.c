/* scan.c - the merge without an output (scan.h): what `vlpost stats` and
 * `vlpost scaling` read goes through the checks of the converters. */
#include "scan.h"
#include "merge.h"

#include <stddef.h>
#include <string.h>

enum { S_NONE, S_SEND, S_RECV };

typedef struct sc_ev {
	vlpost_mg_ev m;
	int what;
} sc_ev;

typedef struct sc_task {
	vlpost_mg_task m;
	sc_ev q[1];       /* one event per record at most */
	int64_t last_t;   /* events of one task never go back in time */
} sc_task;

typedef struct sc {
	vlm m;
	vlpost_report *rep;
} sc;

static sc_ev *sc_push(sc_task *k, int what, int64_t t)
{
	sc_ev *e = &k->q[k->m.qn++];
	memset(e, 0, sizeof *e);
	if (t < k->last_t)
		t = k->last_t;
	k->last_t = t;
	e->m.t = t;
	e->what = what;
	return e;
}

static int sc_map(vlm *m, vlpost_mg_task *t, const vl_trec *r)
{
	sc *c = (sc *)m;
	sc_task *k = (sc_task *)t;
	sc_ev *e;
	int64_t a, b;
	int src;
	if (c->rep && vlpost_report_add(c->rep, t->proc, r) < 0)
		return vlpost_mg_fail(m, "out of memory");
	if (r->type == VL_EV_SEND) {
		vlpost_mg_send_span(t, r, &a, &b);
		e = sc_push(k, S_SEND, a);
		e->m.peer = vlpost_mg_find(m, t, r->peer);
	} else if (r->type == VL_EV_RECV) {
		if (vlpost_mg_recv_src(m, t, r, &src) < 0)
			return -1;
		if (src < 0)
			return 0;
		e = sc_push(k, S_RECV, r->u.v.t1);
		e->m.peer = src;
	} else {
		return 0;
	}
	e->m.seq = r->seq;
	e->m.tag = r->tag;
	e->m.rec = t->f->nrec - 1;
	return 0;
}

static void sc_tinit(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	((sc_task *)t)->last_t = t->f->hdr.start_ns;
}

static void sc_begin(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	sc_push((sc_task *)t, S_NONE, t->f->hdr.start_ns);
}

static void sc_end(vlm *m, vlpost_mg_task *t)
{
	(void)m;
	sc_push((sc_task *)t, S_NONE, t->st->end);
}

static const vlpost_mg_ops sc_ops = {
	sizeof(sc_task), offsetof(sc_task, q), sizeof(sc_ev), sc_tinit, sc_begin, sc_map, sc_end
};

static int sc_run(sc *c)
{
	vlpost_mg_task *k;
	sc_ev *e;
	int rc, unused;
	while ((e = (sc_ev *)vlpost_mg_next(&c->m, &k, &rc))) {
		if (e->what == S_SEND && vlpost_mg_send_begin(&c->m, k, &e->m, &unused) < 0)
			return -1;
		if (e->what == S_RECV && vlpost_mg_recv_end(&c->m, &e->m, k->proc) < 0)
			return -1;
	}
	return rc;
}

int vlpost_scan(vlpost_tset *set, unsigned flags, FILE *warn, vlpost_tstats *st, vlpost_report *rep,
		char *err, size_t errlen)
{
	sc c;
	int rc;
	memset(&c, 0, sizeof c);
	c.m.set = set;
	c.m.ops = &sc_ops;
	c.m.incomplete = (flags & VLPOST_SCAN_INCOMPLETE) != 0;
	c.m.warn = warn;
	c.m.msgmax = 768;
	c.m.st_base = st;
	c.m.err = err;
	c.m.errlen = errlen;
	c.rep = rep;
	if (rep)
		memset(rep, 0, sizeof *rep);
	rc = vlpost_mg_init(&c.m);
	/* the report needs the tasks' ids, set by vlpost_mg_init */
	if (rc == 0 && rep && vlpost_report_init(rep, st, set->n) < 0)
		rc = vlpost_mg_fail(&c.m, "out of memory");
	if (rc == 0)
		rc = sc_run(&c);
	if (rc == 0 && rep && vlpost_report_finish(rep, st) < 0)
		rc = vlpost_mg_fail(&c.m, "out of memory");
	vlpost_mg_free(&c.m);
	return rc;
}

/* ---- stats.h ---- */
int vlpost_stats_collect(vlpost_tset *set, vlpost_tstats *st, FILE *warn, char *err, size_t errlen)
{
	return vlpost_scan(set, VLPOST_SCAN_INCOMPLETE, warn, st, NULL, err, errlen);
}

int vlpost_report_collect(vlpost_tset *set, vlpost_tstats *st, vlpost_report *rep, FILE *warn, char *err,
			  size_t errlen)
{
	return vlpost_scan(set, VLPOST_SCAN_INCOMPLETE, warn, st, rep, err, errlen);
}
