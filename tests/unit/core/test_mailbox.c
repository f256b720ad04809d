/* test_mailbox.c - unit tests of the virtual mailbox and the task registry
 * (vlayer/mailbox.c).
 *
 * The mailbox and the registry are global.  Under CK_FORK=yes every test runs in
 * its own process; under CK_FORK=no (the ASan run) they run one after the other
 * in one process, so every test empties the mailbox first and the registry tests
 * use id ranges of their own.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"

#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

/* ---- helpers ---- */

static void drain(void)
{
	while (vli_mbox_count() > 0)
		vli_mbox_remove(vli_mbox_count() - 1, NULL);
	ck_assert_int_eq(vli_mbox_count(), 0);
}

static vli_msg mk(int buf, int src, int tag, int64_t arrival)
{
	vli_msg m;

	memset(&m, 0, sizeof m);
	m.buf = buf;
	m.src = src;
	m.tag = tag;
	m.ctx = 0;
	m.src_host = -1;
	m.seq = (uint32_t)buf;
	m.bytes = 8 * (int64_t)buf;
	m.arrival = arrival;
	return m;
}

static void add(int buf, int src, int tag, int64_t arrival)
{
	vli_msg m = mk(buf, src, tag, arrival);

	vli_mbox_add(&m);
}

/* the bufs of the mailbox, in order, must be exactly want[0..n-1] */
static void expect_bufs(const int *want, int n)
{
	int i;

	ck_assert_int_eq(vli_mbox_count(), n);
	for (i = 0; i < n; i++) {
		vli_msg *m = vli_mbox_at(i);

		ck_assert_ptr_nonnull(m);
		ck_assert_msg(m->buf == want[i], "at(%d).buf = %d, want %d", i, m->buf, want[i]);
	}
	ck_assert_ptr_null(vli_mbox_at(n));
}

struct calls {
	int n;          /* calls of the predicate */
	int seen[16];   /* bufs it was called with */
};

static int pick_src(const vli_msg *m, void *arg)
{
	return m->src == *(const int *)arg;
}

static int pick_any(const vli_msg *m, void *arg)
{
	struct calls *c = arg;

	if (c) {
		if (c->n < 16)
			c->seen[c->n] = m->buf;
		c->n++;
	}
	return 1;
}

/* rank = the message's tag (0 skip, 1 pick now, > 1 preference, < 0 error) */
static int rank_by_tag(const vli_msg *m, void *arg)
{
	struct calls *c = arg;

	if (c) {
		if (c->n < 16)
			c->seen[c->n] = m->buf;
		c->n++;
	}
	return m->tag;
}

static int pick_buf(const vli_msg *m, void *arg)
{
	return m->buf == *(const int *)arg;
}

/* ---- mailbox ---- */

START_TEST(mbox_empty)
{
	vli_msg out = mk(-7, -7, -7, -7);
	struct calls c = { 0, { 0 } };

	drain();
	ck_assert_int_eq(vli_mbox_count(), 0);
	ck_assert_int_eq(vli_mbox_find(pick_any, &c, INT64_MAX), -1);
	ck_assert_int_eq(c.n, 0);
	ck_assert_ptr_null(vli_mbox_at(0));
	ck_assert_ptr_null(vli_mbox_at(-1));
	vli_mbox_remove(0, &out); /* nothing to remove: out untouched */
	ck_assert_int_eq(out.buf, -7);
	ck_assert_int_eq(out.arrival, -7);
	vli_mbox_remove(-1, NULL);
	ck_assert_int_eq(vli_mbox_count(), 0);
}
END_TEST

START_TEST(mbox_add_copies_every_field)
{
	vli_msg m, *p;

	drain();
	memset(&m, 0, sizeof m);
	m.buf = 17;
	m.src = 0x40003;
	m.tag = 99;
	m.ctx = 5;
	m.src_host = 2;
	m.seq = 4000000000u;
	m.bytes = INT64_C(1) << 40;
	m.arrival = INT64_C(123456789012345);
	m.synthetic = 1;
	m.internal = 1;
	vli_mbox_add(&m);
	/* the mailbox keeps its own copy */
	m.buf = 0;
	m.tag = 0;
	m.arrival = 0;
	ck_assert_int_eq(vli_mbox_count(), 1);
	p = vli_mbox_at(0);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->buf, 17);
	ck_assert_int_eq(p->src, 0x40003);
	ck_assert_int_eq(p->tag, 99);
	ck_assert_int_eq(p->ctx, 5);
	ck_assert_int_eq(p->src_host, 2);
	ck_assert_uint_eq(p->seq, 4000000000u);
	ck_assert_int_eq(p->bytes, INT64_C(1) << 40);
	ck_assert_int_eq(p->arrival, INT64_C(123456789012345));
	ck_assert_int_eq(p->synthetic, 1);
	ck_assert_int_eq(p->internal, 1);
	ck_assert_ptr_null(vli_mbox_at(1));
	ck_assert_ptr_null(vli_mbox_at(-1));

	/* remove hands the whole message back */
	memset(&m, 0, sizeof m);
	vli_mbox_remove(0, &m);
	ck_assert_int_eq(vli_mbox_count(), 0);
	ck_assert_int_eq(m.buf, 17);
	ck_assert_int_eq(m.src, 0x40003);
	ck_assert_int_eq(m.tag, 99);
	ck_assert_int_eq(m.ctx, 5);
	ck_assert_int_eq(m.src_host, 2);
	ck_assert_uint_eq(m.seq, 4000000000u);
	ck_assert_int_eq(m.bytes, INT64_C(1) << 40);
	ck_assert_int_eq(m.arrival, INT64_C(123456789012345));
	ck_assert_int_eq(m.synthetic, 1);
	ck_assert_int_eq(m.internal, 1);
}
END_TEST

START_TEST(mbox_fifo_among_matches)
{
	int src, i, got;
	vli_msg out;
	static const int from1[] = { 10, 12, 14 }, from2[] = { 11, 13 };
	static const int all[] = { 10, 11, 12, 13, 14 };

	drain();
	/* arrival times deliberately not in real arrival order */
	add(10, 1, 0, 500);
	add(11, 2, 0, 100);
	add(12, 1, 0, 50);
	add(13, 2, 0, 400);
	add(14, 1, 0, 10);
	expect_bufs(all, 5);

	/* the first that matches, in real arrival order, not the earliest virtual one */
	src = 1;
	ck_assert_int_eq(vli_mbox_find(pick_src, &src, INT64_MAX), 0);
	src = 2;
	ck_assert_int_eq(vli_mbox_find(pick_src, &src, INT64_MAX), 1);
	src = 3;
	ck_assert_int_eq(vli_mbox_find(pick_src, &src, INT64_MAX), -1);
	/* find does not remove */
	ck_assert_int_eq(vli_mbox_count(), 5);

	src = 1;
	for (i = 0; i < 3; i++) {
		got = vli_mbox_find(pick_src, &src, INT64_MAX);
		ck_assert_int_ge(got, 0);
		vli_mbox_remove(got, &out);
		ck_assert_int_eq(out.buf, from1[i]);
		ck_assert_int_eq(out.src, 1);
	}
	ck_assert_int_eq(vli_mbox_find(pick_src, &src, INT64_MAX), -1);
	expect_bufs(from2, 2);
	src = 2;
	for (i = 0; i < 2; i++) {
		got = vli_mbox_find(pick_src, &src, INT64_MAX);
		ck_assert_int_eq(got, 0);
		vli_mbox_remove(got, &out);
		ck_assert_int_eq(out.buf, from2[i]);
	}
	ck_assert_int_eq(vli_mbox_count(), 0);
}
END_TEST

START_TEST(mbox_ranked_predicate)
{
	struct calls c;

	drain();
	/* ranks (tags) 0 2 3 2 3 0: the best rank wins, the first among equals */
	add(0, 1, 0, 0);
	add(1, 1, 2, 0);
	add(2, 1, 3, 0);
	add(3, 1, 2, 0);
	add(4, 1, 3, 0);
	add(5, 1, 0, 0);
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, &c, INT64_MAX), 2);
	ck_assert_int_eq(c.n, 6); /* every message was looked at */
	ck_assert_int_eq(c.seen[0], 0);
	ck_assert_int_eq(c.seen[5], 5);
	/* a higher rank later still wins */
	add(6, 1, 9, 0);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, INT64_MAX), 6);
	/* rank 1 picks at once, even after a higher rank (PVM's recvf rule) */
	add(7, 1, 1, 0);
	add(8, 1, 1, 0);
	add(9, 1, 50, 0);
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, &c, INT64_MAX), 7);
	ck_assert_int_eq(c.n, 8); /* stopped at the first rank 1 */
	drain();

	/* nothing picked */
	add(0, 1, 0, 0);
	add(1, 1, 0, 0);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, INT64_MAX), -1);
	/* an error stops the search, even after a candidate */
	drain();
	add(0, 1, 5, 0);
	add(1, 1, -1, 0);
	add(2, 1, 1, 0);
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, &c, INT64_MAX), -1);
	ck_assert_int_eq(c.n, 2);
	/* ... but not before it is reached */
	drain();
	add(0, 1, 1, 0);
	add(1, 1, -1, 0);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, INT64_MAX), 0);
	drain();
}
END_TEST

START_TEST(mbox_visibility)
{
	struct calls c;
	static const int bufs[] = { 0, 1, 2, 3 };

	drain();
	add(0, 1, 1, 100);
	add(1, 1, 1, 50);
	add(2, 1, 1, 200);
	add(3, 1, 1, INT64_MAX);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, INT64_MAX), 0);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 100), 0);  /* arrival == visible_by */
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 99), 1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 50), 1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 49), -1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 0), -1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, -1), -1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, INT64_MIN), -1);
	/* invisible messages are not even shown to the predicate */
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_find(pick_any, &c, 75), 1);
	ck_assert_int_eq(c.n, 1);
	ck_assert_int_eq(c.seen[0], 1);
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, &c, 10), -1);
	ck_assert_int_eq(c.n, 0);
	/* the message arriving at INT64_MAX is visible only with INT64_MAX */
	drain();
	add(3, 1, 1, INT64_MAX);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, INT64_MAX - 1), -1);
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, INT64_MAX), 0);
	drain();

	/* ranks among the visible ones only */
	add(0, 1, 5, 300);
	add(1, 1, 2, 10);
	add(2, 1, 3, 20);
	add(3, 1, 1, 400);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, 100), 2);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, 15), 1);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, 300), 0);
	ck_assert_int_eq(vli_mbox_find(rank_by_tag, NULL, 400), 3);
	expect_bufs(bufs, 4);
	drain();
}
END_TEST

START_TEST(mbox_remove_keeps_order)
{
	vli_msg out;
	int i, key;
	static const int after_mid[] = { 0, 1, 2, 3, 5, 6, 7, 8, 9 };
	static const int after_ends[] = { 1, 2, 3, 5, 6, 7, 8 };
	static const int after_more[] = { 1, 3, 5, 8 };

	drain();
	for (i = 0; i < 10; i++)
		add(i, i % 3, i, 10 * i);
	vli_mbox_remove(4, &out);
	ck_assert_int_eq(out.buf, 4);
	ck_assert_int_eq(out.tag, 4);
	ck_assert_int_eq(out.arrival, 40);
	expect_bufs(after_mid, 9);
	/* the messages after it kept their fields */
	ck_assert_int_eq(vli_mbox_at(4)->arrival, 50);
	ck_assert_int_eq(vli_mbox_at(4)->tag, 5);
	ck_assert_int_eq(vli_mbox_at(8)->bytes, 72);

	vli_mbox_remove(8, &out); /* the last */
	ck_assert_int_eq(out.buf, 9);
	vli_mbox_remove(0, NULL); /* the first, no copy */
	expect_bufs(after_ends, 7);

	/* out of range: nothing happens, out untouched */
	out = mk(-1, -1, -1, -1);
	vli_mbox_remove(7, &out);
	vli_mbox_remove(-1, &out);
	vli_mbox_remove(INT_MAX, &out);
	ck_assert_int_eq(out.buf, -1);
	expect_bufs(after_ends, 7);

	/* find + remove in the middle, twice */
	key = 2;
	vli_mbox_remove(vli_mbox_find(pick_buf, &key, INT64_MAX), &out);
	ck_assert_int_eq(out.buf, 2);
	key = 6;
	i = vli_mbox_find(pick_buf, &key, INT64_MAX);
	ck_assert_int_eq(i, 3);
	vli_mbox_remove(i, &out);
	ck_assert_int_eq(out.buf, 6);
	key = 7;
	vli_mbox_remove(vli_mbox_find(pick_buf, &key, INT64_MAX), NULL);
	expect_bufs(after_more, 4);
	/* added after removals: at the end */
	add(42, 0, 0, 0);
	ck_assert_int_eq(vli_mbox_at(4)->buf, 42);
	ck_assert_int_eq(vli_mbox_count(), 5);
	drain();
}
END_TEST

static void grow_to(int n)
{
	int i, key;
	vli_msg out;

	drain();
	for (i = 0; i < n; i++) {
		add(i, i % 7, i % 11, (int64_t)(n - i));
		ck_assert_int_eq(vli_mbox_count(), i + 1);
	}
	for (i = 0; i < n; i++) {
		vli_msg *m = vli_mbox_at(i);

		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(m->buf, i);
		ck_assert_int_eq(m->src, i % 7);
		ck_assert_int_eq(m->tag, i % 11);
		ck_assert_int_eq(m->arrival, n - i);
		ck_assert_int_eq(m->bytes, 8 * (int64_t)i);
	}
	ck_assert_ptr_null(vli_mbox_at(n));
	key = n - 1;
	ck_assert_int_eq(vli_mbox_find(pick_buf, &key, INT64_MAX), n - 1);
	/* the only message visible at 1 is the last one */
	ck_assert_int_eq(vli_mbox_find(pick_any, NULL, 1), n - 1);
	key = n / 2;
	vli_mbox_remove(vli_mbox_find(pick_buf, &key, INT64_MAX), &out);
	ck_assert_int_eq(out.buf, n / 2);
	ck_assert_int_eq(vli_mbox_count(), n - 1);
	for (i = 0; i < n - 1; i++)
		ck_assert_int_eq(vli_mbox_at(i)->buf, i < n / 2 ? i : i + 1);
	/* empty it from the end, in reverse order */
	for (i = n - 2; i >= 0; i--) {
		vli_mbox_remove(i, &out);
		ck_assert_int_eq(out.buf, i < n / 2 ? i : i + 1);
	}
	ck_assert_int_eq(vli_mbox_count(), 0);
	/* and it can be filled again */
	add(1, 1, 1, 1);
	ck_assert_int_eq(vli_mbox_at(0)->buf, 1);
	drain();
}

START_TEST(mbox_growth_past_64)
{
	grow_to(63);
	grow_to(64);
	grow_to(65);
	grow_to(129);
}
END_TEST

START_TEST(mbox_growth_10000)
{
	grow_to(10000);
	grow_to(10001);
}
END_TEST


/* ---- virtual order: vli_mbox_first / vli_mbox_ranked ---- */

START_TEST(mbox_first_smallest_arrival)
{
	int64_t eff = 0;

	drain();
	add(1, 30, 5, 900);  /* first really, latest virtually */
	add(2, 20, 5, 300);
	add(3, 10, 5, 500);
	ck_assert_int_eq(vli_mbox_first(pick_any, NULL, 0, &eff), 1);
	ck_assert_int_eq(eff, 300);
	drain();
}
END_TEST

START_TEST(mbox_first_ties_sender_then_seq)
{
	int64_t eff = 0;

	drain();
	add(7, 30, 5, 400);
	add(8, 20, 5, 400);
	add(9, 25, 5, 400);
	ck_assert_int_eq(vli_mbox_first(pick_any, NULL, 0, &eff), 1); /* src 20 */
	ck_assert_int_eq(eff, 400);
	drain();
}
END_TEST

START_TEST(mbox_first_keeps_one_senders_order)
{
	int64_t eff = 0;

	drain();
	add(1, 10, 5, 800); /* sender 10's first message: big, late */
	add(2, 10, 5, 100); /* its second: small, virtually earlier */
	add(3, 20, 5, 500);
	/* sender 10's second cannot pass its first: src 20 wins at 500 */
	ck_assert_int_eq(vli_mbox_first(pick_any, NULL, 0, &eff), 2);
	ck_assert_int_eq(eff, 500);
	vli_mbox_remove(2, NULL);
	/* then sender 10's first, at 800; its second counts as 800 too */
	ck_assert_int_eq(vli_mbox_first(pick_any, NULL, 0, &eff), 0);
	ck_assert_int_eq(eff, 800);
	drain();
}
END_TEST

START_TEST(mbox_first_only_matches_and_synthetic_now)
{
	int64_t eff = 0;
	int src = 20;
	vli_msg m = mk(4, 20, 5, 0);

	drain();
	add(1, 10, 5, 100);
	m.synthetic = 1; /* no virtual time: arrives at the receiver's now */
	vli_mbox_add(&m);
	ck_assert_int_eq(vli_mbox_first(pick_src, &src, 250, &eff), 1);
	ck_assert_int_eq(eff, 250);
	src = 99;
	ck_assert_int_eq(vli_mbox_first(pick_src, &src, 250, &eff), -1);
	drain();
	ck_assert_int_eq(vli_mbox_first(pick_any, NULL, 0, &eff), -1);
}
END_TEST

START_TEST(mbox_ranked_in_virtual_order)
{
	int64_t tau = 0;
	struct calls c;

	drain();
	/* tags are the predicate's ranks */
	add(1, 10, 2, 900); /* rank 2, after tau */
	add(2, 20, 3, 400); /* rank 3 */
	add(3, 30, 2, 200); /* rank 2: the earliest accepted, so tau = max(now, 200) */
	add(4, 40, 0, 100); /* skipped */
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_ranked(rank_by_tag, &c, 150, &tau), 2);
	ck_assert_int_eq(tau, 200); /* only buf 3 is there by 200: it is taken */
	memset(&c, 0, sizeof c);
	ck_assert_int_eq(vli_mbox_ranked(rank_by_tag, &c, 500, &tau), 1);
	ck_assert_int_eq(tau, 500); /* bufs 4, 3, 2 there: best rank 3 = buf 2 */
	drain();
	add(5, 10, 1, 300);
	add(6, 20, 1, 200);
	ck_assert_int_eq(vli_mbox_ranked(rank_by_tag, NULL, 1000, &tau), 1); /* the first picked outright */
	drain();
	ck_assert_int_eq(vli_mbox_ranked(rank_by_tag, NULL, 0, &tau), -1);
}
END_TEST

/* ---- registry ---- */

/* The registry's slot for id (open hashing, 4096 slots): used here only to build
 * ids that are sure to collide. */
static unsigned slot_of(int id)
{
	return ((unsigned)id * 2654435761u) % 4096u;
}

START_TEST(reg_basic)
{
	/* ids of this test: 0x7a000000.. */
	ck_assert_int_eq(vli_reg_get(0x7a000001), -1);
	vli_reg_set(0x7a000001, 3);
	ck_assert_int_eq(vli_reg_get(0x7a000001), 3);
	ck_assert_int_eq(vli_reg_get(0x7a000002), -1);
	/* overwrite */
	vli_reg_set(0x7a000001, 5);
	ck_assert_int_eq(vli_reg_get(0x7a000001), 5);
	vli_reg_set(0x7a000001, 0);
	ck_assert_int_eq(vli_reg_get(0x7a000001), 0);
	/* negative hosts are stored as they are (the front end's markers) */
	vli_reg_set(0x7a000002, -2);
	ck_assert_int_eq(vli_reg_get(0x7a000002), -2);
	vli_reg_set(0x7a000002, -3);
	ck_assert_int_eq(vli_reg_get(0x7a000002), -3);
	ck_assert_int_eq(vli_reg_get(0x7a000001), 0);
	/* many consecutive ids (PVM tids of one host) */
	{
		int i;

		for (i = 0; i < 500; i++)
			vli_reg_set(0x7a100000 + i, i % 13);
		for (i = 0; i < 500; i++)
			ck_assert_int_eq(vli_reg_get(0x7a100000 + i), i % 13);
		ck_assert_int_eq(vli_reg_get(0x7a100000 + 500), -1);
		ck_assert_int_eq(vli_reg_get(0x7a100000 - 1), -1);
	}
}
END_TEST

START_TEST(reg_id_zero_and_negative)
{
	/* id 0 is a valid key, distinct from an empty slot */
	ck_assert_int_eq(vli_reg_get(0), -1);
	vli_reg_set(0, 7);
	ck_assert_int_eq(vli_reg_get(0), 7);
	/* negative ids (pvmd tids have the top bit set) */
	ck_assert_int_eq(vli_reg_get(-1), -1);
	ck_assert_int_eq(vli_reg_get(INT_MIN), -1);
	vli_reg_set(-1, 11);
	vli_reg_set(INT_MIN, 12);
	vli_reg_set((int)0x80040000u, 13);
	vli_reg_set(-4096, 14); /* same slot as 0 */
	ck_assert_uint_eq(slot_of(-4096), slot_of(0));
	ck_assert_int_eq(vli_reg_get(-1), 11);
	ck_assert_int_eq(vli_reg_get(INT_MIN), 12);
	ck_assert_int_eq(vli_reg_get((int)0x80040000u), 13);
	ck_assert_int_eq(vli_reg_get(-4096), 14);
	ck_assert_int_eq(vli_reg_get(0), 7);
	ck_assert_int_eq(vli_reg_get(-2), -1);
	ck_assert_int_eq(vli_reg_get(INT_MAX), -1);
	vli_reg_set(-1, 21);
	ck_assert_int_eq(vli_reg_get(-1), 21);
	ck_assert_int_eq(vli_reg_get(INT_MIN), 12);
}
END_TEST

START_TEST(reg_grows_past_many_tasks)
{
	int i;

	for (i = 0; i < 100000; i++)
		vli_reg_set(0x500000 + i, i % 7);
	for (i = 0; i < 100000; i++)
		ck_assert_int_eq(vli_reg_get(0x500000 + i), i % 7);
	ck_assert_int_eq(vli_reg_get(0x500000 + 100000), -1);
}
END_TEST

START_TEST(reg_colliding_ids)
{
	/* id and id + 4096*k share a slot (the multiplier is odd, the table 2^12) */
	const int base = 0x3b000123, n = 300;
	int k, last = -1, id;

	for (k = 0; k < n; k++)
		ck_assert_uint_eq(slot_of(base + 4096 * k), slot_of(base));
	for (k = 0; k < n; k++)
		vli_reg_set(base + 4096 * k, k);
	for (k = 0; k < n; k++)
		ck_assert_int_eq(vli_reg_get(base + 4096 * k), k);
	/* unknown ids of the same slot run through the chain and miss */
	ck_assert_int_eq(vli_reg_get(base + 4096 * n), -1);
	ck_assert_int_eq(vli_reg_get(base - 4096), -1);
	/* overwriting one in the middle of the chain does not add a second entry */
	vli_reg_set(base + 4096 * 150, 1000);
	ck_assert_int_eq(vli_reg_get(base + 4096 * 150), 1000);
	ck_assert_int_eq(vli_reg_get(base + 4096 * 149), 149);
	ck_assert_int_eq(vli_reg_get(base + 4096 * 151), 151);
	ck_assert_int_eq(vli_reg_get(base + 4096 * (n - 1)), n - 1);

	/* a chain that wraps around the end of the table */
	for (id = 0x3c000000; id < 0x3c000000 + 4096; id++)
		if (slot_of(id) == 4095) {
			last = id;
			break;
		}
	ck_assert_int_ge(last, 0);
	for (k = 0; k < 20; k++)
		vli_reg_set(last + 4096 * k, 500 + k);
	for (k = 0; k < 20; k++)
		ck_assert_int_eq(vli_reg_get(last + 4096 * k), 500 + k);
	ck_assert_int_eq(vli_reg_get(last + 4096 * 20), -1);
	/* the first chain is intact */
	for (k = 0; k < n; k++)
		ck_assert_int_eq(vli_reg_get(base + 4096 * k), k == 150 ? 1000 : k);
}
END_TEST

static Suite *mailbox_suite(void)
{
	Suite *s = suite_create("mailbox");
	TCase *mb = tcase_create("mailbox");
	TCase *rg = tcase_create("registry");

	tcase_set_timeout(mb, 60);
	tcase_add_test(mb, mbox_empty);
	tcase_add_test(mb, mbox_add_copies_every_field);
	tcase_add_test(mb, mbox_fifo_among_matches);
	tcase_add_test(mb, mbox_ranked_predicate);
	tcase_add_test(mb, mbox_visibility);
	tcase_add_test(mb, mbox_remove_keeps_order);
	tcase_add_test(mb, mbox_growth_past_64);
	tcase_add_test(mb, mbox_growth_10000);
	tcase_add_test(mb, mbox_first_smallest_arrival);
	tcase_add_test(mb, mbox_first_ties_sender_then_seq);
	tcase_add_test(mb, mbox_first_keeps_one_senders_order);
	tcase_add_test(mb, mbox_first_only_matches_and_synthetic_now);
	tcase_add_test(mb, mbox_ranked_in_virtual_order);
	suite_add_tcase(s, mb);

	tcase_add_test(rg, reg_basic);
	tcase_add_test(rg, reg_id_zero_and_negative);
	tcase_add_test(rg, reg_colliding_ids);
	tcase_add_test(rg, reg_grows_past_many_tasks);
	suite_add_tcase(s, rg);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mailbox_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
