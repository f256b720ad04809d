/* test_order.c - unit tests of virtual order (vlayer/core/order.c) and its
 * board (vlayer/core/board.c), in one process: this process is one task on
 * a fresh board; the other tasks are slots it reserves (as a spawning parent
 * does), whose bounds it sets through the same calls their tasks would make.
 *
 * The board and the task are global: every test starts its own board file
 * (a new run) and its own task.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/engine.h"
#include "vlayer/core/board.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char path[256];

/* path: the board file of a run started by process pid */
static void set_path(pid_t pid)
{
	snprintf(path, sizeof path, "/tmp/vlayer-test-board.%d", (int)pid);
}

/* A new run with this task (id 100, clock now) on it; lookahead 55 us
 * (send 5 us + transmission 50 us). */
static void start(int64_t now)
{
	vlcfg_default(&vli_t.cfg);
	vli_t.cfg.intra.send_delay = 5000;
	vli_t.cfg.intra.trans_delay = 50000;
	vli_t.id = 100;
	vli_t.host = 0;
	vli_t.now = now;
	set_path(getpid());
	vli_order_start(path, 1, -1, "t%x", NULL);
	ck_assert(vli_order_on());
}

static void stop(void)
{
	vli_order_exit();
	unlink(path);
	vlcfg_free(&vli_t.cfg);
}

START_TEST(ordering_real_keeps_out)
{
	vlcfg_default(&vli_t.cfg);
	vli_t.cfg.ordering_real = 1;
	vli_order_start("/nonexistent/board", 1, -1, "%d", NULL);
	ck_assert(!vli_order_on());
	ck_assert(vli_order_safe(INT64_MAX - 1)); /* real order: never waits */
	ck_assert_int_eq(vli_order_announce(5, 100), 0);
	vlcfg_free(&vli_t.cfg);
}
END_TEST

START_TEST(root_is_the_least_bound)
{
	int a, b;

	start(1000);
	ck_assert_int_eq(atomic_load(&vli_bd->la), 55000);
	ck_assert_int_eq(vli_board_root(), 1000);
	a = vli_order_reserve(3000, 0); /* two tasks that start later */
	b = vli_order_reserve(2000, 0);
	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(b, 0);
	ck_assert_int_eq(vli_board_root(), 1000);
	/* this task waits for a message arriving at 40000: the others hold it */
	vli_order_block(40000, VLI_WAIT_MSG);
	ck_assert_int_eq(vli_board_root(), 2000);
	ck_assert(!vli_order_safe(60000));    /* 2000 + 55000 <= 60000 */
	ck_assert(vli_order_safe(56999));     /* nothing can arrive before 57000 */
	ck_assert_int_eq(vli_board_argmin(), b);
	vli_order_gone(b, 0);
	ck_assert_int_eq(vli_board_root(), 3000);
	vli_order_gone(a, 1);
	ck_assert_int_eq(vli_board_root(), 40000); /* only this task's own bound left */
	stop();
}
END_TEST

/* kB written in this process's mapping that starts at addr (smaps' dirty
 * pages), -1 if not found */
static long dirty_kb(const void *addr)
{
	char line[256];
	unsigned long lo = 0, want = (unsigned long)(uintptr_t)addr;
	long kb = -1, v;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%lx-%*x ", &lo) == 1 && strchr(line, '-') < strchr(line, ' ')) {
			in = lo == want;
			if (in)
				kb = 0;
		} else if (in && (sscanf(line, "Shared_Dirty: %ld kB", &v) == 1 ||
				  sscanf(line, "Private_Dirty: %ld kB", &v) == 1)) {
			kb += v;
		}
	}
	fclose(f);
	return kb;
}

/* A new board writes only what it uses: the 8192 slots are not written when
 * it is made (that was 2100 page faults, 8 MB, per run), and a slot handed
 * out has no bound until its task sets one. */
START_TEST(a_new_board_touches_only_the_slots_handed_out)
{
	long kb;
	int a;

	start(1000);
	a = vli_board_new_slot();
	ck_assert_int_ge(a, 1);
	ck_assert(atomic_load(&vli_bd->slot[a].lb) == VLI_BOARD_NONE);
	kb = dirty_kb(vli_bd);
	ck_assert_int_ge(kb, 4);
	/* the header, the tree and two slots: well under 1 MB of 9.8 */
	ck_assert_int_lt(kb, 1024);
	stop();
}
END_TEST

START_TEST(announce_lowers_a_waiting_receiver)
{
	int r;

	start(0);
	r = vli_order_reserve(0, 0);
	vli_order_bind(r, 200);
	ck_assert_int_eq(vli_board_find(200), r);
	ck_assert_int_eq(vli_board_find(201), -1);
	/* the other task waits with nothing to wake it */
	atomic_store(&vli_bd->slot[r].state, VLI_SLOT_BLOCKED);
	atomic_store(&vli_bd->slot[r].now, 500);
	vli_board_lock();
	vli_board_set(r, VLI_ORDER_NONE);
	vli_board_unlock();
	/* this task sends it a message arriving at 70000: its bound drops to that */
	ck_assert_int_eq(vli_order_announce(200, 70000), 1);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[r].lb), 70000);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[r].announced), 1);
	ck_assert_int_eq(atomic_load(&vli_bd->announced), 1);
	/* to a task not on the board: not announced */
	ck_assert_int_eq(vli_order_announce(999, 70000), 0);
	stop();
}
END_TEST

START_TEST(no_raise_while_behind)
{
	start(1000);
	/* a message was announced to this task but has not really arrived */
	atomic_fetch_add(&vli_bd->slot[0].announced, 1);
	ck_assert(vli_order_behind());
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 1000); /* kept */
	ck_assert(!vli_order_safe(0));                            /* trusts nothing */
	vli_order_received();
	ck_assert(!vli_order_behind());
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), VLI_ORDER_NONE);
	stop();
}
END_TEST

/* Messages of the side class (PVM: another context) are counted apart: one
 * on its way holds back a wait in that class, not one in the main class,
 * and a main-class message does not hold back a side wait. */
START_TEST(side_class_counted_apart)
{
	start(1000);
	ck_assert_int_eq(vli_order_announce_in(100, 5000, 1), 1);
	ck_assert(!vli_order_behind()); /* the main class is complete */
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG | VLI_WAIT_CLASS(1));
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 1000); /* kept: a side message is out */
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), VLI_ORDER_NONE);
	vli_order_received_in(1);
	/* a main message on its way: the side wait rises, the main one does not */
	atomic_fetch_add(&vli_bd->slot[0].announced, 1);
	vli_order_block(1000, VLI_WAIT_MSG);
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG | VLI_WAIT_CLASS(1));
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), VLI_ORDER_NONE);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].state), VLI_SLOT_BLOCKED);
	vli_order_block(1000, VLI_WAIT_MSG);
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 1000);
	/* a side announcement to a waiting task lowers its bound, as a main one */
	vli_order_received();
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG | VLI_WAIT_CLASS(1));
	vli_order_announce_in(100, 7000, 1);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 7000);
	vli_order_received_in(1);
	/* two side classes (two PVM contexts) keep apart: a message on its way
	 * in class 2 holds back neither class 1 nor the main class */
	vli_order_announce_in(100, 8000, 2);
	ck_assert(vli_order_behind_in(2));
	ck_assert(!vli_order_behind_in(1));
	ck_assert(!vli_order_behind_in(0));
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG | VLI_WAIT_CLASS(1));
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), VLI_ORDER_NONE);
	vli_order_block(1000, VLI_WAIT_MSG);
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG | VLI_WAIT_CLASS(2));
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 1000); /* kept: its message is out */
	vli_order_received_in(2);
	ck_assert(!vli_order_behind_in(2));
	stop();
}
END_TEST

START_TEST(poll_bound_is_the_clock)
{
	vli_order_wait w;

	start(5000);
	vli_order_wait_begin(&w, "poll");
	vli_order_block(123456, VLI_WAIT_POLL); /* a poll goes on at its clock */
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 5000);
	ck_assert(vli_order_safe(5000 + 55000 - 1));
	ck_assert(!vli_order_safe(5000 + 55000));
	vli_t.now = 9000;
	vli_order_wait_end(&w);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 9000);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].state), VLI_SLOT_RUNNING);
	stop();
}
END_TEST

START_TEST(gate_last_member_publishes_latest_entry)
{
	vli_order_gate g1, g2;

	start(100);
	/* two members of a barrier of 2, both this process (enter, enter) */
	vli_order_gate_enter(&g1, "b", 2, 700, "barrier");
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), VLI_ORDER_NONE);
	vli_order_gate_enter(&g2, "b", 2, 300, "barrier");
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 700); /* the latest entry */
	ck_assert_int_eq(vli_order_gate_leave(&g1), 700);
	ck_assert_int_eq(vli_order_gate_leave(&g2), 700);
	/* the next round starts afresh */
	vli_order_gate_enter(&g1, "b", 1, 50, "barrier");
	ck_assert_int_eq(vli_order_gate_leave(&g1), 50);
	stop();
}
END_TEST

/* Runs waiter in a child, which must end with status 4 (a deadlock or a
 * stuck run reported). */
static void ends_with_status_4(void (*waiter)(void))
{
	pid_t p = fork();
	int st = 0;

	ck_assert_int_ge(p, 0);
	if (p == 0) {
		alarm(25); /* not reported: killed by SIGALRM, the test fails */
		waiter();
		_exit(3); /* it returned: not expected */
	}
	waitpid(p, &st, 0);
	set_path(p); /* (the child's board: it ended without stop()) */
	unlink(path);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 4);
}

static void waits_for_nothing(void)
{
	vli_order_wait w;

	start(0);
	vli_t.cfg.deadlock_after = 200000000; /* (reported after 0.2 s) */
	vli_order_wait_begin(&w, "pvm_recv(tid=t1, tag=1)");
	for (;;) {
		vli_order_snap(&w);
		vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
		vli_order_sleep(&w, VLI_SLEEP_KICK);
	}
}

START_TEST(deadlock_is_declared)
{
	ends_with_status_4(waits_for_nothing);
}
END_TEST

/* A test or poll (MPI_Testall, pvm_nrecv) whose answer waits for a bound that
 * cannot move - every other task waits, nothing is on its way - is stuck
 * like a receive: reported, status 4 (such a test waited for ever, without a
 * report, when a layer bug kept its answer undecided). */
static void other_waits(int r, int64_t lb, uint64_t on, uint64_t n);

static void polls_held_back(void)
{
	vli_order_wait w;
	int r;

	start(100000);
	vli_t.cfg.deadlock_after = 200000000; /* (stuck: reported after 5 x 0.2 s) */
	r = vli_order_reserve(0, 0);
	vli_order_bind(r, 200);
	other_waits(r, 500, 0, 0); /* it waits, and wakes at 500 at the earliest */
	vli_order_wait_begin(&w, "MPI_Testall");
	for (;;) {
		vli_order_snap(&w);
		vli_order_block(VLI_ORDER_NONE, VLI_WAIT_POLL);
		if (vli_order_safe(100000)) /* (500 + la 55 us < 100 us) */
			return;             /* decided: not expected */
		vli_order_sleep(&w, VLI_SLEEP_ROOT);
	}
}

START_TEST(a_poll_held_back_for_ever_is_stuck)
{
	ends_with_status_4(polls_held_back);
}
END_TEST

/* Set another task's slot as its own vli_order_block_on would. */
static void other_waits(int r, int64_t lb, uint64_t on, uint64_t n)
{
	vli_board_lock();
	atomic_store(&vli_bd->slot[r].state, VLI_SLOT_BLOCKED);
	if (!atomic_load(&vli_bd->slot[r].wait_on) && on)
		atomic_fetch_add(&vli_bd->nwaiton, 1);
	atomic_store(&vli_bd->slot[r].wait_on, on);
	atomic_store(&vli_bd->slot[r].wait_n, n);
	vli_board_set(r, lb);
	vli_board_unlock();
}

/* Record collective (on, n) of size members, the first 64 slots' of them
 * in mask member0, those that have entered in in0; the record. */
static struct vli_coll *coll_record(uint64_t on, uint64_t n, int size, uint64_t member0, uint64_t in0)
{
	struct vli_coll *c = &vli_bd->coll[0];

	vli_board_lock();
	memset(c, 0, sizeof *c);
	c->on = on;
	c->n = n;
	c->size = size;
	c->member[0] = member0;
	c->in[0] = in0;
	vli_board_unlock();
	return c;
}

/* Record collective (on, n) with members slot 0 (this task) and slot a, of
 * which only a has entered. */
static void coll_with(int a, uint64_t on, uint64_t n)
{
	coll_record(on, n, 2, 1ULL | 1ULL << a, 1ULL << a);
}

/* A new run (start(1000)) with two other tasks, 200 in slot *a and 300 in
 * slot *b. */
static void start_with_two(int *a, int *b)
{
	start(1000);
	*a = vli_order_reserve(0, 0);
	*b = vli_order_reserve(0, 0);
	vli_order_bind(*a, 200);
	vli_order_bind(*b, 300);
}

START_TEST(waiters_on_this_task_are_not_waited_for)
{
	int a, b;

	start_with_two(&a, &b);
	vli_order_block(900000, VLI_WAIT_MSG); /* this task's candidate arrives at 900 us */
	/* a waits on this task (a rendezvous to it) at 2000; b runs at 500000 */
	other_waits(a, 2000, VLI_ON_TASK(100), 0);
	other_waits(b, 500000, 0, 0);
	ck_assert_int_eq(vli_board_root(), 2000);
	ck_assert(vli_order_safe(555000 - 1)); /* b's bound + la */
	ck_assert(!vli_order_safe(555000));
	ck_assert(vli_order_safe_from(200, 800000)); /* a alone: it waits for this task */
	ck_assert(!vli_order_safe_from(300, 800000));
	/* a waits on another task: it is waited for again, at that task's bound
	 * (it sends nothing before b acts) */
	other_waits(a, 2000, VLI_ON_TASK(300), 0);
	ck_assert(vli_order_safe(555000 - 1));
	ck_assert(!vli_order_safe(555000));
	ck_assert(vli_order_safe_from(200, 555000 - 1));
	ck_assert(!vli_order_safe_from(200, 555000));
	/* a waits in collective 4 of communicator 77, which this task is a member
	 * of and has not entered */
	coll_with(a, 77, 4);
	other_waits(a, 2000, 77, 4);
	ck_assert(vli_order_safe(555000 - 1));
	/* ... in one it has entered (or is no member of): waited for (an
	 * unrecorded collective raises nothing) */
	other_waits(a, 2000, 77, 5);
	ck_assert(!vli_order_safe(60000));
	ck_assert(vli_order_safe(57000 - 1));
	/* through another: b waits on a, which waits in collective 4 for this task */
	other_waits(a, 2000, 77, 4);
	other_waits(b, 3000, VLI_ON_TASK(200), 0);
	ck_assert(vli_order_safe(800000));
	/* the bounds are read before the count: a message announced to this task
	 * (by a task that then waits on it) is not missed */
	atomic_fetch_add(&vli_bd->slot[0].announced, 1);
	ck_assert(!vli_order_safe(555000 - 1));
	vli_order_received();
	/* the record of a collective ends when all its members have left */
	vli_order_coll_leave(77, 4);
	vli_order_coll_leave(77, 4);
	ck_assert(!vli_order_safe(60000));
	stop();
}
END_TEST

/* The task in slot has one receive posted (a blocking MPI_Recv, an
 * MPI_Irecv): from src (-1 any) of tag (-1 any) on communicator comm, at t. */
static void posted(int slot, int src, int tag, uint64_t comm, int64_t t)
{
	vli_board_lock();
	vli_bd->slot[slot].post_n = 1;
	vli_bd->slot[slot].post[0] = (vli_post){ .src = src, .tag = tag, .comm = comm, .t = t };
	vli_bd->slot[slot].rdv_n = src >= 0;
	vli_bd->slot[slot].rdv_src[0] = src;
	vli_bd->slot[slot].rdv_at[0] = t;
	vli_board_unlock();
}

/* Two rendezvous senders waiting on each other (a on b, b on a: MPI_Send
 * after MPI_Irecv, as halo exchanges do) go on without this task once a
 * receive of one names the other: that one answers while it waits.  Before
 * 2026-11-28 they were a cycle of waits, left out of this task's choices,
 * which then took a later message before their next ones. */
START_TEST(senders_answered_by_a_posted_receive_are_waited_for)
{
	int a, b;
	uint64_t k = VLI_RDV_KEY(1, 5);

	start_with_two(&a, &b);
	vli_order_block(900000, VLI_WAIT_MSG);
	other_waits(a, 2000, VLI_ON_TASK(300), k);
	other_waits(b, 2000, VLI_ON_TASK(200), VLI_RDV_KEY(1, 7));
	/* no receive posted: a real cycle, neither can go on */
	ck_assert(vli_order_safe(800000));
	/* b's receive names a, but another tag, or another communicator */
	posted(b, 200, 6, 1, 1500);
	ck_assert(vli_order_safe(800000));
	posted(b, 200, 5, 2, 1500);
	ck_assert(vli_order_safe(800000));
	/* a wildcard receive of b's answers a only once it has chosen */
	posted(b, -1, 5, 1, 1500);
	ck_assert(vli_order_safe(800000));
	/* one that takes it (any tag too): a goes on, and so does b, which
	 * waits on a: both are waited for, at their bounds */
	posted(b, 200, 5, 1, 1500);
	ck_assert(!vli_order_safe(800000));
	ck_assert(vli_order_safe(2000 + 55000 - 1));
	ck_assert(!vli_order_safe(2000 + 55000));
	posted(b, 200, -1, 1, 1500);
	ck_assert(!vli_order_safe(800000));
	stop();
}
END_TEST

/* A rendezvous sender waiting on a task that waits for something else acts
 * no earlier than the later of its own bound and the earlier of that task's
 * bound and the post time of a receive of its that can take the message:
 * the receiver answers that one while it waits, and the data leave then. */
START_TEST(a_sender_is_raised_no_further_than_the_posted_receive)
{
	int a, b;

	start_with_two(&a, &b);
	vli_order_block(900000, VLI_WAIT_MSG);
	other_waits(a, 2000, VLI_ON_TASK(300), VLI_RDV_KEY(1, 5));
	other_waits(b, 500000, 0, 0); /* b waits for a message at 500 us */
	/* a acts no earlier than b answers it, at b's bound */
	ck_assert(vli_order_safe(500000 + 55000 - 1));
	ck_assert(!vli_order_safe(500000 + 55000));
	/* b's receive from a, posted at 1.5 us, takes it while b waits: a may
	 * go on from its own bound (before 2026-11-28: b's) */
	posted(b, 200, 5, 1, 1500);
	ck_assert(vli_order_safe(2000 + 55000 - 1));
	ck_assert(!vli_order_safe(2000 + 55000));
	/* a wildcard one, posted at 300 us: no earlier than that */
	posted(b, -1, -1, 1, 300000);
	ck_assert(vli_order_safe(300000 + 55000 - 1));
	ck_assert(!vli_order_safe(300000 + 55000));
	stop();
}
END_TEST

/* vli_order_coll_who: which members are in, their bounds, and the least
 * bound of the tasks that can go on without this task (a task waiting on
 * this one is not counted). */
START_TEST(coll_who_tells_members_in_and_free_bound)
{
	int a, b, ids[3] = { 100, 200, 300 };
	int64_t lb[3], g;
	unsigned char in[3];

	start_with_two(&a, &b);
	/* collective 4 of communicator 77: this task and a in, b not */
	coll_with(a, 77, 4);
	vli_board_lock();
	vli_bd->coll[0].size = 3;
	vli_bd->coll[0].member[0] |= 1ULL << b;
	vli_bd->coll[0].in[0] |= 1ULL;
	vli_board_unlock();
	other_waits(a, 7000, 0, 0);    /* a waits for a message on its way */
	other_waits(b, 5000, 0, 0);
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), 0);
	ck_assert(in[0] == VLI_WHO_IN && in[1] == VLI_WHO_IN && in[2] == VLI_WHO_MISSING);
	ck_assert_int_eq(lb[2], 5000);
	ck_assert_int_eq(g, 5000);
	/* b waits on this task (a rendezvous to it): it acts only after this
	 * task does, so only a's bound counts */
	other_waits(b, 5000, VLI_ON_TASK(100), 0);
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), 0);
	ck_assert_int_eq(in[2], VLI_WHO_MISSING);
	ck_assert_int_eq(g, 7000);
	/* a too: none can go on without this task */
	other_waits(a, 7000, VLI_ON_TASK(100), 0);
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), 0);
	ck_assert_int_eq(g, VLI_ORDER_NONE);
	/* b has entered */
	vli_board_lock();
	vli_bd->coll[0].in[0] |= 1ULL << b;
	vli_board_unlock();
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), 0);
	ck_assert_int_eq(in[2], VLI_WHO_IN);
	/* b waits in it (it can go on without this task): told apart, and left
	 * out of the least bound (the caller bounds it by its own exit) */
	other_waits(a, 7000, 0, 0);
	other_waits(b, 9000, 77, 4);
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), 0);
	ck_assert_int_eq(in[0], VLI_WHO_IN);
	ck_assert_int_eq(in[2], VLI_WHO_WAITS);
	ck_assert_int_eq(lb[2], 9000);
	ck_assert_int_eq(g, 7000);
	/* not recorded, or a member not on the board: cannot tell */
	ck_assert_int_eq(vli_order_coll_who(77, 5, 3, ids, lb, in, &g), -1);
	ids[2] = 400;
	ck_assert_int_eq(vli_order_coll_who(77, 4, 3, ids, lb, in, &g), -1);
	stop();
}
END_TEST

/* vli_order_coll_blocked_by: this task waits in a collective that a member
 * has not entered while that member waits on this task (a rendezvous to it,
 * not answered) - and in no other case. */
START_TEST(a_collective_blocked_by_a_member_waiting_on_this_task)
{
	struct vli_coll *c;
	int a, b;

	start_with_two(&a, &b);
	/* collective 4 of communicator 77: this task and b have entered, a not */
	c = coll_record(77, 4, 3, 1ULL | 1ULL << a | 1ULL << b, 1ULL | 1ULL << b);
	other_waits(a, 2000, VLI_ON_TASK(100), 0);
	other_waits(b, 3000, 77, 4);
	/* this task runs: not blocked */
	ck_assert(!vli_order_coll_blocked_by(200));
	vli_order_block_on(1000, VLI_WAIT_MSG, 77, 4);
	ck_assert(vli_order_coll_blocked_by(200));
	ck_assert(!vli_order_coll_blocked_by(300)); /* b entered, and waits on no task */
	ck_assert(!vli_order_coll_blocked_by(400)); /* not on the board */
	ck_assert(!vli_order_coll_blocked_by(100)); /* this task itself */
	/* a waits on another task */
	other_waits(a, 2000, VLI_ON_TASK(300), 0);
	ck_assert(!vli_order_coll_blocked_by(200));
	/* a waits on this task again, but this task has answered it */
	other_waits(a, 2000, VLI_ON_TASK(100), 0);
	vli_order_release(200);
	ck_assert(!vli_order_coll_blocked_by(200));
	atomic_fetch_add(&vli_bd->slot[a].released_seen, 1);
	ck_assert(vli_order_coll_blocked_by(200));
	/* a has entered */
	vli_board_lock();
	c->in[0] |= 1ULL << a;
	vli_board_unlock();
	ck_assert(!vli_order_coll_blocked_by(200));
	/* this task waits on a message, not in the collective */
	vli_board_lock();
	c->in[0] &= ~(1ULL << a);
	vli_board_unlock();
	vli_order_block_on(1000, VLI_WAIT_MSG, VLI_ON_TASK(300), 0);
	ck_assert(!vli_order_coll_blocked_by(200));
	/* watching: counted, each start with its stop */
	ck_assert(!vli_order_watched());
	vli_order_watch(1);
	vli_order_watch(1);
	ck_assert(vli_order_watched());
	vli_order_watch(0);
	ck_assert(vli_order_watched());
	vli_order_watch(0);
	ck_assert(!vli_order_watched());
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].watching), 0);
	stop();
}
END_TEST

/* A member of a collective that waits for more members than 64 (a reduce's
 * inner node from 130 ranks on) is taken to wait for those it said alone
 * (vli_order_coll_deps keeps a mask of slots; until the eighth session of
 * 2026-11-28 it kept a list of 64, and a longer one was not said: every
 * member was waited for).  A member not on the board: every member. */
START_TEST(a_member_waits_for_as_many_members_as_it_says)
{
	struct vli_coll *c;
	int slot[99], ids[72], i;

	start(1000);
	for (i = 0; i < 99; i++) {
		slot[i] = vli_order_reserve(0, 0);
		vli_order_bind(slot[i], 200 + i);
	}
	/* collective 4 of communicator 77: this task and the 99 others, which
	 * have not entered; tasks 269 and 298 wait on this task (a rendezvous
	 * to it), this task waits in the collective */
	c = coll_record(77, 4, 100, 1ULL, 1ULL);
	vli_board_lock();
	for (i = 0; i < 99; i++)
		c->member[slot[i] / 64] |= 1ULL << (slot[i] % 64);
	vli_board_unlock();
	other_waits(slot[69], 2000, VLI_ON_TASK(100), 0);
	other_waits(slot[98], 2000, VLI_ON_TASK(100), 0);
	vli_order_block_on(1000, VLI_WAIT_MSG, 77, 4);
	ck_assert(vli_order_coll_blocked_by(269));
	ck_assert(vli_order_coll_blocked_by(298));
	/* it waits for tasks 200-269 alone (70): not for 298 */
	for (i = 0; i < 70; i++)
		ids[i] = 200 + i;
	vli_order_coll_deps(77, 4, 70, ids);
	ck_assert(vli_order_coll_blocked_by(269));
	ck_assert(!vli_order_coll_blocked_by(298));
	/* ... 269 has entered */
	vli_board_lock();
	c->in[slot[69] / 64] |= 1ULL << (slot[69] % 64);
	vli_board_unlock();
	ck_assert(!vli_order_coll_blocked_by(269));
	/* ... and 298 too (71): said again, the list replaces the one before */
	ids[70] = 298;
	vli_order_coll_deps(77, 4, 71, ids);
	ck_assert(vli_order_coll_blocked_by(298));
	ids[0] = 298;
	vli_order_coll_deps(77, 4, 1, ids);
	ck_assert(vli_order_coll_blocked_by(298));
	ids[0] = 250;
	vli_order_coll_deps(77, 4, 1, ids);
	ck_assert(!vli_order_coll_blocked_by(298));
	/* a task not on the board among them: every member */
	for (i = 0; i < 70; i++)
		ids[i] = 200 + i;
	ids[70] = 999;
	vli_order_coll_deps(77, 4, 71, ids);
	ck_assert(vli_order_coll_blocked_by(298));
	stop();
}
END_TEST

/* A task that waits on this one (a rendezvous) is freed by this task's
 * answer: from vli_order_release until it has seen the answer it counts as a
 * task that can go on (its wait on this task is out of date); once it has,
 * its wait on that task is cleared.  The answer of another task it asked
 * keeps its wait (rmix on a bus hung when every answer ended it). */
START_TEST(an_answered_waiter_is_waited_for_again)
{
	int a;

	start(1000);
	a = vli_order_reserve(0, 0);
	vli_order_bind(a, 200);
	vli_order_block(900000, VLI_WAIT_MSG);
	other_waits(a, 2000, VLI_ON_TASK(100), 0);
	ck_assert(vli_order_safe(800000)); /* a waits on this task */
	vli_order_release(200);             /* this task answers a */
	ck_assert(!vli_order_safe(60000));  /* a can go on: its bound 2000 counts */
	ck_assert(vli_order_safe(57000 - 1));
	/* a takes the answer in: its wait on this task ends */
	atomic_fetch_add(&vli_bd->slot[a].released_seen, 1);
	atomic_store(&vli_bd->slot[a].wait_on, 0);
	ck_assert(!vli_order_safe(60000));
	/* a waits on this task again, nothing in flight: not waited for */
	other_waits(a, 2000, VLI_ON_TASK(100), 0);
	ck_assert(vli_order_safe(800000));
	/* this task waits on 200: the answer of 300 seen keeps that wait,
	 * 200's ends it */
	vli_order_block_on(900000, VLI_WAIT_MSG, VLI_ON_TASK(200), 0);
	vli_order_release_seen(300);
	ck_assert_int_eq((long long)atomic_load(&vli_bd->slot[0].wait_on), (long long)VLI_ON_TASK(200));
	vli_order_release_seen(200);
	ck_assert_int_eq((long long)atomic_load(&vli_bd->slot[0].wait_on), 0);
	stop();
}
END_TEST

START_TEST(a_bound_lowered_by_a_sender_is_raised_again)
{
	start(1000);
	vli_order_block(900000, VLI_WAIT_MSG);
	/* a sender lowers this waiting task's bound to its message's arrival */
	atomic_store(&vli_bd->slot[0].state, VLI_SLOT_BLOCKED);
	ck_assert_int_eq(vli_order_announce(100, 70000), 1);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 70000);
	vli_order_received();
	/* the same wait again (the message taken in is not the one it takes):
	 * the bound goes back up, although this task published 900000 before */
	vli_order_block(900000, VLI_WAIT_MSG);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[0].lb), 900000);
	stop();
}
END_TEST

/* vli_order_block_on returns the bound as it left it: kept while a message
 * is on its way, raised once it is in; a flow's estimate that lowers it
 * afterwards is then seen as below what was published (an MPI wait
 * republishes then: LAMMPS on a half-duplex star waited for ever 1 run in
 * 10 when the bound was read back after the call, already lowered again). */
START_TEST(block_on_returns_the_bound_it_left)
{
	int64_t b;

	start(1000);
	ck_assert_int_eq(vli_order_block_on(VLI_ORDER_NONE, VLI_WAIT_MSG, 0, 0), VLI_ORDER_NONE);
	ck_assert_int_eq(vli_order_announce(100, 70000), 1);
	b = vli_order_block_on(VLI_ORDER_NONE, VLI_WAIT_MSG, 0, 0);
	ck_assert_int_eq(b, 70000); /* behind: kept */
	vli_order_received();
	b = vli_order_block_on(VLI_ORDER_NONE, VLI_WAIT_MSG, 0, 0);
	ck_assert_int_eq(b, VLI_ORDER_NONE);
	vli_board_lock();
	ck_assert_int_eq(vli_order_lower_locked(0, 80000), 1); /* a flow got earlier */
	vli_board_unlock();
	ck_assert(vli_order_own_bound() < b);
	stop();
}
END_TEST

/* The earliest a rendezvous to this task that it has not answered can
 * leave: the least of its bound and the post times of its receives that
 * could take it (source, tag and communicator match; -1 any). */
START_TEST(post_lb_is_the_least_of_bound_and_matching_posts)
{
	int src[1] = { 7 };
	int64_t t[1] = { 5000 };
	vli_post p[3] = { { 7, 3, 1, 5000 }, { -1, 4, 1, 3000 }, { 8, -1, 2, 2000 } };
	uint64_t rel = 99;

	start(9000);
	vli_order_block(VLI_ORDER_NONE, VLI_WAIT_MSG);
	ck_assert_int_eq(vli_order_post_lb(100, 7, 3, 1, &rel), VLI_ORDER_NONE);
	ck_assert_int_eq(rel, 0);
	vli_order_set_rdv_posts(1, src, t, 3, p);
	ck_assert_int_eq(vli_order_post_lb(100, 7, 3, 1, &rel), 5000); /* by name */
	ck_assert_int_eq(vli_order_post_lb(100, 7, 4, 1, &rel), 3000); /* any source */
	ck_assert_int_eq(vli_order_post_lb(100, 9, 4, 1, &rel), 3000);
	ck_assert_int_eq(vli_order_post_lb(100, 8, 5, 2, &rel), 2000); /* any tag */
	/* another tag, another communicator: none of them can take it */
	ck_assert_int_eq(vli_order_post_lb(100, 7, 5, 1, &rel), VLI_ORDER_NONE);
	ck_assert_int_eq(vli_order_post_lb(100, 7, 3, 2, &rel), VLI_ORDER_NONE);
	/* more than VLI_POSTS: the least counts for every one */
	{
		vli_post many[VLI_POSTS];
		int k;
		for (k = 0; k < VLI_POSTS; k++)
			many[k] = (vli_post){ 7, k, 1, 4000 + k };
		many[0].t = 1500;
		vli_order_set_rdv_posts(0, src, t, VLI_POSTS + 1, many);
		ck_assert_int_eq(vli_order_post_lb(100, 9, 99, 5, &rel), 1500);
	}
	vli_order_set_rdv_posts(0, src, t, 0, p);
	vli_order_block(2000, VLI_WAIT_MSG);
	ck_assert_int_eq(vli_order_post_lb(100, 7, 3, 1, &rel), 9000); /* (not below the clock) */
	/* an answer released to this task and not seen: counted */
	vli_order_release(100);
	vli_order_post_lb(100, 7, 3, 1, &rel);
	ck_assert_int_eq(rel, 1);
	ck_assert(vli_order_unseen(rel));
	vli_order_release_seen(100);
	ck_assert(!vli_order_unseen(rel));
	stop();
}
END_TEST

/* The earliest a pending rendezvous to this task can leave (order_flows.c):
 * its posted receives that name the sender, and its nonblocking wildcard
 * receives not chosen yet (listed first among the posts) if tag and
 * communicator match; a named receive of another source does not count. */
START_TEST(a_pending_rendezvous_counts_the_matching_wildcard_posts)
{
	int src[1] = { 7 };
	int64_t t[1] = { 5000 };
	vli_post p[3] = { { -1, 4, 1, 3000 }, { -1, -1, 2, 2500 }, { 8, 4, 1, 1000 } };
	int me;

	start(9000);
	me = vli_order_slot();
	ck_assert_int_ge(me, 0);
	vli_order_set_rdv_posts(1, src, t, 3, p);
	vli_board_lock();
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 7, 3, 1), 5000); /* by name */
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 7, 4, 1), 3000); /* the wildcard */
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 4, 1), 3000);
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 77, 2), 2500); /* any tag */
	/* another tag or communicator, and source 8's receive (9 sends) */
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 5, 1), VLI_ORDER_NONE);
	ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 4, 3), VLI_ORDER_NONE);
	vli_board_unlock();
	/* more than VLI_POSTS with a wildcard among them: the least for all */
	{
		vli_post many[VLI_POSTS];
		int k;
		for (k = 0; k < VLI_POSTS; k++)
			many[k] = (vli_post){ k ? 7 : -1, k, 1, 4000 + k };
		many[0].t = 1500;
		vli_order_set_rdv_posts(0, src, t, VLI_POSTS + 1, many);
		vli_board_lock();
		ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 99, 5), 1500);
		vli_board_unlock();
		/* ... but none: only the receives by name count */
		many[0].src = 7;
		vli_order_set_rdv_posts(0, src, t, VLI_POSTS + 1, many);
		vli_board_lock();
		ck_assert_int_eq(vli_order_rdv_post_locked(me, 9, 99, 5), VLI_ORDER_NONE);
		vli_board_unlock();
	}
	stop();
}
END_TEST

/* This task's own earliest post for a rendezvous sent to it (no receive
 * posted that takes it): its clock while it runs; once it waits, the bound
 * it published (it posts nothing before: a member of a blocking collective
 * holding its simulation's estimate); committed, none. */
START_TEST(own_post_is_no_earlier_than_the_published_bound)
{
	int me;

	start(9000);
	me = vli_order_slot();
	ck_assert_int_ge(me, 0);
	vli_board_lock();
	ck_assert_int_eq(vli_order_postlb_locked(me, 0, 7, 3, 1), 9000);
	vli_board_unlock();
	ck_assert(vli_order_hold(20000, vli_flow_epoch()));
	vli_board_lock();
	ck_assert_int_eq(vli_order_postlb_locked(me, 0, 7, 3, 1), 20000);
	ck_assert_int_eq(vli_order_postlb_locked(me, 1, 7, 3, 1), VLI_ORDER_NONE);
	vli_board_unlock();
	stop();
}
END_TEST

/* This task waits in collective (77, 4) on member b alone, not in (it said
 * so: vli_order_coll_deps), having published 2000: as far as its own
 * flows' finality goes it acts no earlier than b can (9000), as the rules
 * take any other task; once b is in, its own bound again (since the third
 * session of 2026-11-29: a member of an alltoall on shared links held its
 * own message's arrival back with its clock, and with it the member it
 * waited for - stuck). */
START_TEST(own_limit_raised_through_the_missing_member_waited_for)
{
	int a, b, id = 300;

	start_with_two(&a, &b);
	coll_record(77, 4, 3, 1ULL | 1ULL << a | 1ULL << b, 1ULL | 1ULL << a);
	vli_order_coll_deps(77, 4, 1, &id);
	vli_order_block_on(2000, VLI_WAIT_MSG, 77, 4);
	other_waits(a, 5000, 0, 0);
	other_waits(b, 9000, 0, 0);
	vli_board_lock();
	vli_order_others_locked();
	ck_assert_int_eq(vli_order_own_limit_locked(), 9000);
	vli_bd->coll[0].in[0] |= 1ULL << b; /* b enters */
	vli_order_others_locked();
	ck_assert_int_eq(vli_order_own_limit_locked(), 2000);
	vli_board_unlock();
	stop();
}
END_TEST

/* The floors of a nonblocking collective timed from its first entry
 * (vli_flow_own_floor), kept on each member's slot: entered at the entry,
 * raised only at the epoch the simulation read, off at the end; another
 * member's entry brings every member's down to it (the messages that
 * waited for it were held by its bound until then), and a raise read
 * before it is refused; VLI_SLOT_FLOORS at once. */
START_TEST(own_floors_enter_raise_lower_and_end)
{
	int a, b, me, k;
	uint32_t ep;

	start_with_two(&a, &b);
	vli_t.cfg.topo.kind = VLCFG_TOPO_BUS;
	vli_t.cfg.nhosts = 2;
	me = vli_order_slot();
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_ENTER, 5000, 0), 1);
	ck_assert(vli_bd->slot[me].nbf[0].on == 77 && vli_bd->slot[me].nbf[0].n == 4);
	ck_assert_int_eq(vli_bd->slot[me].nbf[0].floor, 5000);
	ck_assert_int_eq(vli_bd->nownfloors, 1);
	ep = vli_flow_epoch();
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_RAISE, 8000, ep), 1);
	ck_assert_int_eq(vli_bd->slot[me].nbf[0].floor, 8000);
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_RAISE, 7000, ep), 0); /* (no lower) */
	/* member a raised its own to 9000; this task enters the collective
	 * (77, 5) at 6000 - a's (77, 4) stays - and (77, 4) a second time (as
	 * another member would) at 6500: a's and its own come down to it, and
	 * a raise read before is refused */
	vli_board_lock();
	vli_bd->slot[a].nbf[0].on = 77;
	vli_bd->slot[a].nbf[0].n = 4;
	vli_bd->slot[a].nbf[0].floor = 9000;
	vli_bd->nownfloors++;
	vli_board_unlock();
	ep = vli_flow_epoch();
	ck_assert_int_eq(vli_flow_own_floor(77, 5, VLI_FLOOR_ENTER, 6000, 0), 1);
	ck_assert_int_eq(vli_bd->slot[a].nbf[0].floor, 9000);
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_ENTER, 6500, 0), 1);
	ck_assert_int_eq(vli_bd->slot[a].nbf[0].floor, 6500);
	ck_assert_int_eq(vli_bd->slot[me].nbf[0].floor, 6500);
	ck_assert_int_eq(vli_flow_own_floor(77, 5, VLI_FLOOR_RAISE, 9500, ep), 0);
	ck_assert_int_eq(vli_bd->nownfloors, 3);
	/* off at the end, once */
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_END, 0, 0), 1);
	ck_assert_int_eq(vli_flow_own_floor(77, 4, VLI_FLOOR_END, 0, 0), 0);
	ck_assert_int_eq(vli_bd->nownfloors, 2);
	/* at most VLI_SLOT_FLOORS at once */
	for (k = 1; k < VLI_SLOT_FLOORS; k++)
		ck_assert_int_eq(vli_flow_own_floor(78, (uint64_t)k, VLI_FLOOR_ENTER, 100, 0), 1);
	ck_assert_int_eq(vli_flow_own_floor(79, 1, VLI_FLOOR_ENTER, 100, 0), 0);
	(void)b;
	vli_t.cfg.topo.kind = VLCFG_TOPO_NONE;
	vli_t.cfg.nhosts = 1;
	stop();
}
END_TEST

/* A cycle of choices (pdgemm's on 4 ranks): this task and c each choose
 * among wildcard candidates; a waits on c (a rendezvous to it), b waits on
 * this task.  This task's candidate (900 us) is earlier than c's (1000 us):
 * a sends nothing before c acts, so not before 1000 us, and this task may
 * take its candidate.  c may not take its own before this task has acted:
 * b, raised to this task's bound, could still send it one at 955 us. */
START_TEST(a_cycle_of_choices_is_broken_by_the_earliest)
{
	int a, b, c;

	start(1000);
	a = vli_order_reserve(0, 0);
	b = vli_order_reserve(0, 0);
	c = vli_order_reserve(0, 0);
	vli_order_bind(a, 200);
	vli_order_bind(b, 300);
	vli_order_bind(c, 400);
	vli_order_block(900000, VLI_WAIT_MSG);
	other_waits(a, 2000, VLI_ON_TASK(400), 0);
	other_waits(b, 3000, VLI_ON_TASK(100), 0);
	other_waits(c, 1000000, 0, 0);
	ck_assert(vli_order_safe(900000));
	ck_assert(vli_order_safe(955000 - 1));
	ck_assert(!vli_order_safe(955000)); /* 900 us + la: a message from b after this task */
	ck_assert(vli_order_safe_from(200, 1055000 - 1));
	ck_assert(!vli_order_safe_from(200, 1055000));
	/* the same through a collective: a waits in one where c is missing */
	coll_with(c, 77, 4);
	vli_board_lock();
	vli_bd->coll[0].member[0] |= 1ULL << a;
	vli_bd->coll[0].in[0] = 1ULL | 1ULL << a; /* this task and a have entered, c not */
	vli_board_unlock();
	other_waits(a, 2000, 77, 4);
	ck_assert(vli_order_safe(955000 - 1));
	/* c has entered too: the collective no longer holds a back */
	vli_board_lock();
	vli_bd->coll[0].in[0] |= 1ULL << c;
	vli_board_unlock();
	ck_assert(!vli_order_safe(60000));
	/* a chain: a waits on b', which waits on c; the raise goes through it */
	vli_order_gone(b, 0);
	b = vli_order_reserve(0, 0);
	vli_order_bind(b, 500);
	other_waits(b, 4000, VLI_ON_TASK(400), 0);
	other_waits(a, 2000, VLI_ON_TASK(500), 0);
	ck_assert(vli_order_safe(955000 - 1));
	/* ... unless c is answered away from it: then b's own bound counts */
	other_waits(c, 1000000, VLI_ON_TASK(600), 0);
	ck_assert(vli_order_safe(955000 - 1)); /* 600 unknown: c can go on, raised to nothing */
	atomic_fetch_add(&vli_bd->slot[b].released, 1);
	ck_assert(!vli_order_safe(60000));
	ck_assert(vli_order_safe(59000 - 1)); /* b at 4000 + la */
	stop();
}
END_TEST

/* Another task holds the board's lock for 200 ms (its thread) */
static void *hold_lock(void *arg)
{
	struct timespec ts = { 0, 200000000 };

	(void)arg;
	vli_board_lock();
	*(volatile int *)arg = 1;
	nanosleep(&ts, NULL);
	vli_board_unlock();
	return NULL;
}

/* A task that ends while another holds the lock leaves the board all the
 * same (it waits for the lock): before, it stayed on at its last bound
 * after 1000 tries, and the flows it had sent were never final (the ray
 * tracer on a bus hung in MPI_Finalize 1 run in 4). */
START_TEST(an_ending_task_leaves_the_board_while_another_holds_the_lock)
{
	pthread_t th;
	volatile int locked = 0;
	int mine, other;

	start(1000);
	other = vli_order_reserve(5000, 0);
	mine = vli_order_slot();
	ck_assert_int_ge(mine, 0);
	ck_assert_int_eq(pthread_create(&th, NULL, hold_lock, (void *)&locked), 0);
	while (!locked)
		sched_yield();
	vli_order_exit();
	pthread_join(th, NULL);
	ck_assert_int_eq(atomic_load(&vli_bd->slot[mine].state), VLI_SLOT_EXITED);
	ck_assert_int_eq(vli_board_root(), 5000); /* only the other task holds it */
	(void)other;
	unlink(path);
	vlcfg_free(&vli_t.cfg);
}
END_TEST

START_TEST(lookahead_never_zero)
{
	vlcfg_default(&vli_t.cfg);
	vli_t.now = 0;
	set_path(getpid());
	vli_order_start(path, 1, -1, "%d", NULL);
	ck_assert_int_eq(atomic_load(&vli_bd->la), 1); /* the built-in model has no delays */
	stop();
}
END_TEST

static Suite *order_suite(void)
{
	Suite *s = suite_create("order");
	TCase *t = tcase_create("order");

	tcase_set_timeout(t, 30);
	tcase_add_test(t, ordering_real_keeps_out);
	tcase_add_test(t, root_is_the_least_bound);
	tcase_add_test(t, a_new_board_touches_only_the_slots_handed_out);
	tcase_add_test(t, announce_lowers_a_waiting_receiver);
	tcase_add_test(t, no_raise_while_behind);
	tcase_add_test(t, side_class_counted_apart);
	tcase_add_test(t, poll_bound_is_the_clock);
	tcase_add_test(t, gate_last_member_publishes_latest_entry);
	tcase_add_test(t, deadlock_is_declared);
	tcase_add_test(t, lookahead_never_zero);
	tcase_add_test(t, waiters_on_this_task_are_not_waited_for);
	tcase_add_test(t, senders_answered_by_a_posted_receive_are_waited_for);
	tcase_add_test(t, a_sender_is_raised_no_further_than_the_posted_receive);
	tcase_add_test(t, a_bound_lowered_by_a_sender_is_raised_again);
	tcase_add_test(t, an_answered_waiter_is_waited_for_again);
	tcase_add_test(t, a_cycle_of_choices_is_broken_by_the_earliest);
	tcase_add_test(t, block_on_returns_the_bound_it_left);
	tcase_add_test(t, a_poll_held_back_for_ever_is_stuck);
	tcase_add_test(t, a_collective_blocked_by_a_member_waiting_on_this_task);
	tcase_add_test(t, a_member_waits_for_as_many_members_as_it_says);
	tcase_add_test(t, coll_who_tells_members_in_and_free_bound);
	tcase_add_test(t, post_lb_is_the_least_of_bound_and_matching_posts);
	tcase_add_test(t, a_pending_rendezvous_counts_the_matching_wildcard_posts);
	tcase_add_test(t, own_post_is_no_earlier_than_the_published_bound);
	tcase_add_test(t, own_limit_raised_through_the_missing_member_waited_for);
	tcase_add_test(t, own_floors_enter_raise_lower_and_end);
	tcase_add_test(t, an_ending_task_leaves_the_board_while_another_holds_the_lock);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(order_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
