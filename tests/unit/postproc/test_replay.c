/* test_replay.c - unit tests of the replay engine (postproc/replay_engine.c) on
 * hand-built traces fed from memory: the cost of an eager message on a new
 * machine, computation scaled by the host factors, the rendezvous of MPI (the
 * data leave when the receive is posted, a nonblocking receive found by
 * looking ahead), a spawn, a collective simulated again, a trace that
 * reproduces itself on its own machine, and the errors (a receive whose send
 * no trace holds, a host the new machine lacks). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "postproc/replay_engine.h"

#define US 1000

/* ---- a trace set in memory ---- */
#define MAXR 32
typedef struct mtask {
	vl_trec r[MAXR];
	int n, pos;
} mtask;

typedef struct mset {
	mtask t[4];
	vlpost_rpl_src src[4];
	int n;
	vl_trec out[4][MAXR]; /* replayed records */
	int nout[4];
} mset;

static int m_next(void *ctx, vl_trec *r)
{
	mtask *t = ctx;

	if (t->pos == t->n)
		return 0;
	*r = t->r[t->pos++];
	return 1;
}

static int m_peek(void *ctx, uint64_t k, vl_trec *r)
{
	mtask *t = ctx;

	if (t->pos + (int)k >= t->n)
		return 0;
	*r = t->r[t->pos + (int)k];
	return 1;
}

static const char *m_err(void *ctx)
{
	(void)ctx;
	return "?";
}

static int m_emit(void *ctx, int task, const vl_thdr *h, const vl_trec *r)
{
	mset *s = ctx;

	(void)h;
	ck_assert_int_lt(s->nout[task], MAXR);
	s->out[task][s->nout[task]++] = *r;
	return 0;
}

static void m_task(mset *s, int32_t tid, int32_t ptid, int host, int64_t start)
{
	vlpost_rpl_src *c = &s->src[s->n];

	memset(&c->hdr, 0, sizeof c->hdr);
	c->hdr.tid = tid;
	c->hdr.ptid = ptid;
	c->hdr.host = host;
	c->hdr.start_ns = start;
	snprintf(c->hdr.host_name, sizeof c->hdr.host_name, "h%d", host + 1);
	c->next = m_next;
	c->peek = m_peek;
	c->errmsg = m_err;
	c->ctx = &s->t[s->n];
	s->n++;
}

static void m_rec(mset *s, int task, vl_trec r)
{
	ck_assert_int_lt(s->t[task].n, MAXR);
	s->t[task].r[s->t[task].n++] = r;
}

#define REC(type, flags, peer, tag, seq, bytes, t0, t1, t2, t3, t4) \
	vl_trec_make(type, flags, peer, tag, seq, bytes, t0, t1, t2, t3, t4)

static void cfg(vlcfg_config *c, const char *text)
{
	char path[] = "/tmp/vl-test-replay-XXXXXX", err[1200];
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_msg(vlcfg_load(path, c, err, sizeof err) == 0, "%s", err);
	unlink(path);
}

/* two hosts; inter: S = 10 us, R = 20 us, T = 30 us; intra: S = 1, R = 2, T = 3 */
static const char *A_INI = "[simulation]\ncompute = ignore\n"
			   "[network intra]\nsend_delay = 1us\nrecv_delay = 2us\ntrans_delay = 3us\n"
			   "[network inter]\nsend_delay = 10us\nrecv_delay = 20us\ntrans_delay = 30us\n"
			   "[mpi]\neager_limit = 4KiB\n"
			   "[host h1]\n[host h2]\ninit_delay = 1ms\n";
/* the same with inter S = 50 us, R = 5 us, T = 100 us and a slower host h2 */
static const char *B_INI = "[simulation]\ncompute = measured\n"
			   "[network intra]\nsend_delay = 1us\nrecv_delay = 2us\ntrans_delay = 3us\n"
			   "[network inter]\nsend_delay = 50us\nrecv_delay = 5us\ntrans_delay = 100us\n"
			   "[mpi]\neager_limit = 4KiB\n"
			   "[host h1]\nfactor = 1.0\n[host h2]\ninit_delay = 2ms\nfactor = 2.0\n";

static int run(mset *s, const char *old_ini, const char *new_ini, vlpost_rpl_result *res,
	       char *err, size_t errlen)
{
	vlcfg_config o, n;
	int rc;

	cfg(&o, old_ini);
	cfg(&n, new_ini);
	rc = vlpost_rpl_run(&o, &n, s->n, s->src, m_emit, s, res, err, errlen);
	vlcfg_free(&o);
	vlcfg_free(&n);
	return rc;
}

/* An eager message from an MPI rank on h1 to one on h2, recorded on A. */
static void pingpong_trace(mset *s)
{
	m_task(s, 0, -1, 0, 0);
	m_task(s, 1, -1, 1, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_SEND, 0, 1, 7, 1, 100, 0, 10 * US, 40 * US, 1, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 0, 10 * US, 10 * US, 10 * US, 0, 0));
	m_rec(s, 1, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 1, REC(VL_EV_RECV, 0, 0, 7, 1, 100, 0, 60 * US, 40 * US, 40 * US, 0));
	m_rec(s, 1, REC(VL_EV_END, 0, -1, 0, 0, 0, 60 * US, 60 * US, 20 * US, 40 * US, 0));
}

START_TEST(same_machine_reproduces)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];

	pingpong_trace(s);
	ck_assert_int_eq(run(s, A_INI, A_INI, &res, err, sizeof err), 0);
	ck_assert_uint_eq(res.events, 6);
	ck_assert_uint_eq(res.differ, 0);
	ck_assert_uint_eq(res.approx, 0);
	ck_assert_int_eq(memcmp(s->out[1], s->t[1].r, 3 * sizeof(vl_trec)), 0);
	free(s);
}
END_TEST

START_TEST(eager_message_on_b)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];
	const vl_trec *snd, *rcv, *end;

	pingpong_trace(s);
	ck_assert_int_eq(run(s, A_INI, B_INI, &res, err, sizeof err), 0);
	snd = &s->out[0][1];
	rcv = &s->out[1][1];
	end = &s->out[1][2];
	ck_assert_int_eq(snd->u.v.t1, 50 * US);  /* S */
	ck_assert_int_eq(snd->u.v.t2, 150 * US); /* + T */
	ck_assert_int_eq(rcv->u.v.t2, 150 * US); /* waiting */
	ck_assert_int_eq(rcv->u.v.t3, 150 * US); /* arrival */
	ck_assert_int_eq(rcv->u.v.t1, 155 * US); /* + R */
	ck_assert_int_eq(end->u.v.t0, 155 * US);
	ck_assert_int_eq(end->u.v.bytes, 0);      /* computation */
	ck_assert_int_eq(end->u.v.t2, 5 * US);    /* communication */
	ck_assert_int_eq(end->u.v.t3, 150 * US);  /* waiting */
	ck_assert_uint_eq(res.differ, 4);
	free(s);
}
END_TEST

/* Measured computation on A (factor 0: unchanged) doubles on B's h2 (2.0). */
START_TEST(computation_scaled)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];
	const char *a = "[host h1]\n[host h2]\n";

	m_task(s, 0x40001, -1, 1, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_MARK, 0, 1, 0, 0, 0, 300, 300, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_COMPUTE, 0, -1, 0, 0, 0, 300, 1300, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 1300, 1500, 1500, 0, 0, 0));
	ck_assert_int_eq(run(s, a, B_INI, &res, err, sizeof err), 0);
	ck_assert_int_eq(s->out[0][1].u.v.t0, 600);  /* 300 ns of CPU, factor 2 */
	ck_assert_int_eq(s->out[0][2].u.v.t1, 1600); /* vl_compute: as recorded */
	ck_assert_int_eq(s->out[0][3].u.v.t1, 2000); /* + 200 ns doubled */
	ck_assert_int_eq(s->out[0][3].u.v.bytes, 2000);
	free(s);
}
END_TEST

/* MPI rendezvous (8 KiB > eager limit): rank 0 sends with MPI_Send; rank 1
 * has posted an MPI_Irecv for it, then receives a small message from rank 0
 * sent after the large one, then waits for the Irecv.  Replaying needs the
 * post time of the Irecv before rank 1 reaches the completion: look-ahead. */
START_TEST(rendezvous_irecv_lookahead)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];
	/* on A: S = 10, T = 30 (+ 0 per KiB), R = 20 us; the Irecv at 0 */
	int64_t go = 10 * US, arr = go + 30 * US; /* departs at max(10, 0) */

	m_task(s, 0, -1, 0, 0);
	m_task(s, 1, -1, 1, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_SEND, 0, 1, 1, 1, 8192, 0, arr, arr, 1, arr - go));
	m_rec(s, 0, REC(VL_EV_SEND, 0, 1, 2, 2, 8, arr, arr + 10 * US, arr + 40 * US, 1, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 0, arr + 10 * US, arr + 10 * US, 20 * US, 30 * US, 0));
	m_rec(s, 1, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 1, REC(VL_EV_IRECV, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1));
	m_rec(s, 1, REC(VL_EV_RECV, 0, 0, 2, 2, 8, 0, arr + 60 * US, arr + 40 * US, arr + 40 * US, 0));
	m_rec(s, 1, REC(VL_EV_RECV, VL_TF_NB, 0, 1, 1, 8192, arr + 60 * US, arr + 80 * US, 0, arr, 1));
	m_rec(s, 1, REC(VL_EV_END, 0, -1, 0, 0, 0, arr + 80 * US, arr + 80 * US, 40 * US,
			arr + 40 * US, 0));
	ck_assert_msg(run(s, A_INI, A_INI, &res, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(res.differ, 0);
	/* on B: S = 50, T = 100, R = 5 */
	memset(s->nout, 0, sizeof s->nout);
	s->t[0].pos = s->t[1].pos = 0;
	ck_assert_msg(run(s, A_INI, B_INI, &res, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(s->out[0][1].u.v.t1, 150 * US);  /* in at 50 + 100 */
	ck_assert_int_eq(s->out[0][2].u.v.t2, 300 * US);  /* 150 + 50 + 100 */
	ck_assert_int_eq(s->out[1][2].u.v.t1, 305 * US);
	ck_assert_int_eq(s->out[1][3].u.v.t3, 150 * US);  /* the large one's arrival */
	ck_assert_int_eq(s->out[1][3].u.v.t1, 310 * US);
	free(s);
}
END_TEST

/* A spawn: the child starts at the call + its host's init_delay of B. */
START_TEST(spawn_start)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];

	m_task(s, 0x40001, -1, 0, 0);
	m_task(s, 0x40002, 0x40001, 1, 1000 * US);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_SPAWN, 0, 0x40002, 1, 0, 0, 0, 1000 * US, 1000 * US, 0, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 0, 1000 * US, 1000 * US, 1000 * US, 0, 0));
	m_rec(s, 1, REC(VL_EV_START, 0, -1, 0, 0, 0, 1000 * US, 1000 * US, 0, 0, 0));
	m_rec(s, 1, REC(VL_EV_END, 0, -1, 0, 0, 0, 1000 * US, 1000 * US, 0, 0, 0));
	ck_assert_msg(run(s, A_INI, B_INI, &res, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(s->out[0][1].u.v.t1, 2000 * US);
	ck_assert_int_eq(s->out[0][1].u.v.t2, 2000 * US);
	ck_assert_int_eq(s->out[1][0].u.v.t0, 2000 * US);
	free(s);
}
END_TEST

/* A barrier of 2 ranks on different hosts, dissemination: each sends to the
 * other and receives: exit = entry + S + T + R (equal entries). */
START_TEST(collective_resimulated)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];
	int k;

	m_task(s, 0, -1, 0, 0);
	m_task(s, 1, -1, 1, 0);
	for (k = 0; k < 2; k++) {
		m_rec(s, k, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
		m_rec(s, k, REC(VL_EV_COLL, 0, -1, VL_COLL_MPI + VL_KIND_BARRIER, 0, 0, 0, 60 * US,
				30 * US, 2, 0));
		m_rec(s, k, REC(VL_EV_END, 0, -1, 0, 0, 0, 60 * US, 60 * US, 30 * US, 30 * US, 0));
	}
	ck_assert_msg(run(s, A_INI, A_INI, &res, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(res.differ, 0);
	memset(s->nout, 0, sizeof s->nout);
	s->t[0].pos = s->t[1].pos = 0;
	ck_assert_msg(run(s, A_INI, B_INI, &res, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(s->out[0][1].u.v.t1, 155 * US);
	ck_assert_int_eq(s->out[1][1].u.v.t1, 155 * US);
	ck_assert_int_eq(s->out[1][1].u.v.t2, 100 * US);
	free(s);
}
END_TEST

START_TEST(errors)
{
	mset *s = calloc(1, sizeof *s);
	vlpost_rpl_result res;
	char err[512];

	/* a receive of a message that no trace sends */
	m_task(s, 0, -1, 0, 0);
	m_task(s, 1, -1, 0, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 1, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 1, REC(VL_EV_RECV, 0, 0, 7, 3, 100, 0, 60 * US, 40 * US, 40 * US, 0));
	m_rec(s, 1, REC(VL_EV_END, 0, -1, 0, 0, 0, 60 * US, 60 * US, 20 * US, 40 * US, 0));
	ck_assert_int_eq(run(s, A_INI, A_INI, &res, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "stalls"));
	/* a PVM task on a host the new machine does not have */
	memset(s, 0, sizeof *s);
	m_task(s, 0x40001, -1, 1, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	ck_assert_int_eq(run(s, A_INI, "[host x]\n", &res, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "host 1 (h2)"));
	/* an MPI rank goes where the new machine's [mpi] rule puts it (LAMMPS
	 * replayed from vienna.ini on modern-100g.ini equals an online run there
	 * only so: test_lammps) */
	memset(s, 0, sizeof *s);
	m_task(s, 0, -1, 1, 0);
	m_rec(s, 0, REC(VL_EV_START, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	m_rec(s, 0, REC(VL_EV_END, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0));
	ck_assert_int_eq(run(s, A_INI, "[host x]\n", &res, err, sizeof err), 0);
	free(s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("replay");
	TCase *tc = tcase_create("engine");
	SRunner *sr;
	int nf;

	tcase_add_test(tc, same_machine_reproduces);
	tcase_add_test(tc, eager_message_on_b);
	tcase_add_test(tc, computation_scaled);
	tcase_add_test(tc, rendezvous_irecv_lookahead);
	tcase_add_test(tc, spawn_start);
	tcase_add_test(tc, collective_resimulated);
	tcase_add_test(tc, errors);
	suite_add_tcase(su, tc);
	sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	nf = srunner_ntests_failed(sr);
	srunner_free(sr);
	return nf == 0 ? 0 : 1;
}
