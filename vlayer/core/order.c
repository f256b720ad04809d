/* order.c - virtual order: conservative synchronisation of the tasks of a
 * run (Chandy-Misra-Bryant family) through the shared board (board.c), so
 * that every choice a task observes - which message a wildcard receive gets,
 * whether a poll finds one - is taken in virtual time, never by real timing.
 *
 * Each task's slot holds lb, a lower bound on the virtual time of any send
 * it may still start: while it runs, its clock when it last published; while
 * it waits for a message, the time it will wake (the virtual arrival of the
 * message it will take; none while no message can wake it).  A send's
 * arrival is at least lb + la, la the lookahead (the least send +
 * transmission time of the model, >= 1 ns).  The root of the board's tree is
 * the least lb; so no message not yet sent can arrive before root + la.
 *
 * Messages already sent but not yet really arrived are covered by counting:
 * the sender announces each timed message on the receiver's slot before its
 * own bound moves past the send, and lowers the bound of a receiver that
 * waits to the message's arrival; the receiver counts what it takes in and
 * trusts nothing while it is behind.  A waiting task raises its own bound
 * only while it is not behind (checked after it says it waits: the
 * announcement and the wait see each other, seq_cst).  Hence the root never
 * decreases (a sender's bound is below every arrival it announces, and a
 * spawned task starts after its parent), and a task may read it lock-free.
 *
 * When every task waits with no message that could wake it, and nothing is
 * on its way, the program is deadlocked: the first task to see that for
 * 2 s prints who waits for what and every task stops (status 4).  A task
 * that died without ending is found when it holds everyone back (its pid is
 * gone) and is taken off the board; one that never joined is asked about
 * through the front end's probe.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "vlayer/core/board.h"
#include "vlayer/core/engine.h"

#define STALL_CHECK_NS 500000000LL   /* liveness check when nothing moved this long */
#define DEADLOCK_NS (vli_t.cfg.deadlock_after) /* a deadlock is declared after this long */
#define STUCK_NS (5 * vli_t.cfg.deadlock_after) /* ... a cycle of choices after this long */
#define PENDING_NS 3000000000LL      /* a task that has not joined is asked about */
#define SLEEP_MS 50                  /* longest sleep on the board (vli_order_set_sleep_ms) */
enum { DEADLOCK_REPORTING = 1, DEADLOCK_DECLARED = 2, DEADLOCK_STUCK = 3,
       DEADLOCK_CYCLE = 4 }; /* the board's deadlock word */

/* Per thread: a task has one; the board server of a run over several real
 * hosts (order_net.c) runs one thread per task of another host, in that
 * task's name (vli_order_serve_as). */
static __thread int me = -1;                  /* this task's slot */
static __thread int sleep_ms = SLEEP_MS;
static __thread int64_t published = -1;       /* the lb it last published */
static __thread const char *id_fmt = "%d";
static __thread vli_order_probe_fn probe;
static __thread int serving;                  /* a server thread ... */
static __thread int64_t served_now;           /* ... and the clock its task sent */
static __thread int served_deadlock;          /* it found the run deadlocked: the word */

/* The clock of the task this thread acts for. */
#define TASK_NOW() (serving ? served_now : vli_t.now)

const vli_order_remote_ops *vli_order_remote;

static void lower_la(int64_t la);

void vli_order_set_sleep_ms(int ms)
{
	sleep_ms = ms > 0 ? ms : 1;
}

int vli_order_on(void)
{
	return vli_order_remote || (vli_bd && me >= 0);
}

void vli_order_serve_as(int slot, int64_t now, int ms)
{
	serving = 1;
	me = slot;
	served_now = now;
	sleep_ms = ms > 0 ? ms : 1;
}

int64_t vli_order_task_now(void)
{
	return TASK_NOW();
}

int vli_order_served_deadlock(void)
{
	return served_deadlock;
}

void vli_order_serve_la(int64_t la)
{
	if (vli_bd)
		lower_la(la);
}

static int64_t sat_add(int64_t a, int64_t b)
{
	return a >= VLI_ORDER_NONE - b ? VLI_ORDER_NONE : a + b;
}

/* Under the lock: set slot i's bound; wake the watchers if the root moved. */
static void set_lb(int i, int64_t lb)
{
	if (i == me)
		published = lb;
	/* a waiter's own least bound may move without the root (the tasks that
	 * wait for it are left out): wake the waiters at every change */
	if (vli_board_set(i, lb) || atomic_load(&vli_bd->nwatch))
		vli_board_wake_watchers();
}

/* Under the lock: what slot i waits on (0: nothing in particular). */
static void set_wait_on(int i, uint64_t on, uint64_t n)
{
	vli_slot *s = &vli_bd->slot[i];
	uint64_t old = atomic_load(&s->wait_on);

	atomic_store(&s->wait_n, n);
	atomic_store(&s->wait_on, on);
	if (!old && on)
		atomic_fetch_add(&vli_bd->nwaiton, 1);
	else if (old && !on)
		atomic_fetch_sub(&vli_bd->nwaiton, 1);
}

/* Under the lock: slot i sends nothing more (that the board knows of: a task
 * outside it may still send, and then no wait is taken for a deadlock). */
static void take_off(int i, int state)
{
	if (state == VLI_SLOT_OUTSIDE && atomic_load(&vli_bd->slot[i].state) != VLI_SLOT_OUTSIDE)
		atomic_fetch_add(&vli_bd->outside, 1);
	atomic_store(&vli_bd->slot[i].state, state);
	set_wait_on(i, 0, 0);
	set_lb(i, VLI_ORDER_NONE);
}

static void lower_la(int64_t la)
{
	int64_t cur = atomic_load(&vli_bd->la);

	while (la < cur && !atomic_compare_exchange_weak(&vli_bd->la, &cur, la))
		;
}

/* ---- live bounds ----
 * A task that computes between two layer calls publishes nothing, yet its
 * clock moves with its CPU time: at its next call it will be at least its
 * clock at the last leave plus the CPU time used since, scaled (clock.c's
 * rule).  Another process can read that CPU time (the scheduler's count of
 * the thread, /proc/PID/task/TID/schedstat, never ahead of the thread's own
 * clock), so a task that waits for the bounds raises a computing task's
 * bound itself, instead of waiting in real time for its next call.  The
 * sequence number makes that sound: it turns odd when the task enters the
 * layer, before the task reads its CPU clock; a reading of the CPU time
 * between two equal even readings of the number was taken before that, so it
 * is no more than what the task's clock will count. */

static __thread int my_tid;

static void segment_begin(void)
{
	vli_slot *s = &vli_bd->slot[me];
	int64_t now, mark, rc;
	double f;
	uint64_t bits;

	if (me < 0 || !vli_bd)
		return;
	if (!my_tid)
		my_tid = (int)gettid();
	vli_segment_base(&now, &mark, &rc, &f);
	memcpy(&bits, &f, sizeof bits);
	atomic_store(&s->live_tid, my_tid);
	atomic_store(&s->live_now, now);
	atomic_store(&s->live_mark, mark);
	atomic_store(&s->live_rc, rc);
	atomic_store(&s->live_factor, bits);
	atomic_store(&s->live_cap, -1);
	atomic_store(&s->live_seq, (atomic_load(&s->live_seq) | 1) + 1); /* even */
}

static void segment_end(void)
{
	vli_slot *s;

	if (me < 0 || !vli_bd)
		return;
	s = &vli_bd->slot[me];
	atomic_store(&s->live_seq, atomic_load(&s->live_seq) | 1); /* odd: in the layer */
}

/* A call passed through (vli_on_pass): the segment is unreadable while its
 * fields change, and reads as frozen at the entry's CPU time inside. */
static void segment_pass(int phase, int64_t cpu)
{
	vli_slot *s;

	if (me < 0 || !vli_bd)
		return;
	s = &vli_bd->slot[me];
	if (phase == 0 || phase == 2) {
		segment_end();
	} else if (phase == 1) {
		atomic_store(&s->live_cap, cpu);
		atomic_store(&s->live_seq, atomic_load(&s->live_seq) + 1); /* even */
	} else {
		segment_begin();
	}
}

/* A lower bound on slot i's clock, from its CPU time, while it computes;
 * -1 if none (in the layer, or unknown).  *seq: the sequence number read. */
static int64_t live_bound(int i, uint32_t *seq)
{
	vli_slot *s = &vli_bd->slot[i];
	uint32_t q = atomic_load(&s->live_seq);
	int64_t now, mark, rc, cpu, c;
	uint64_t bits;
	double f, v;

	if (!q || (q & 1))
		return -1;
	now = atomic_load(&s->live_now);
	mark = atomic_load(&s->live_mark);
	rc = atomic_load(&s->live_rc);
	bits = atomic_load(&s->live_factor);
	if (atomic_load(&s->pid) < 0) /* another real host's: as last reported */
		cpu = atomic_load(&s->live_cpu_q) == q ? atomic_load(&s->live_cpu) : -1;
	else if ((cpu = atomic_load(&s->live_cap)) < 0) /* (in a call passed through: frozen) */
		cpu = vli_thread_cpu(atomic_load(&s->pid), atomic_load(&s->live_tid));
	if (cpu < 0 || atomic_load(&s->live_seq) != q)
		return -1;
	*seq = q;
	c = cpu - mark - rc;
	if (c <= 0)
		return now;
	memcpy(&f, &bits, sizeof f);
	v = (double)c * (f > 0.0 ? f : 1.0); /* clock.c rounds; this floors */
	if (v >= (double)(VLI_TIME_MAX - now))
		return -1;
	return now + (int64_t)v;
}

void vli_order_serve_segment(int slot, uint32_t seq, int64_t now, int64_t mark, int64_t rc,
			     uint64_t factor_bits)
{
	vli_slot *s;

	if (!vli_bd || slot < 0 || slot >= VLI_BOARD_SLOTS)
		return;
	s = &vli_bd->slot[slot];
	atomic_store(&s->live_seq, atomic_load(&s->live_seq) | 1); /* (no reading meanwhile) */
	atomic_store(&s->live_now, now);
	atomic_store(&s->live_mark, mark);
	atomic_store(&s->live_rc, rc);
	atomic_store(&s->live_factor, factor_bits);
	atomic_store(&s->live_seq, seq);
}

void vli_order_serve_cpu(int slot, uint32_t q, int64_t cpu)
{
	vli_slot *s;

	if (!vli_bd || slot < 0 || slot >= VLI_BOARD_SLOTS)
		return;
	s = &vli_bd->slot[slot];
	atomic_store(&s->live_cpu_q, 0);
	atomic_store(&s->live_cpu, cpu);
	atomic_store(&s->live_cpu_q, q);
	vli_board_wake_watchers(); /* the waiters look at the bounds again */
}

/* Raise the bounds of the computing tasks that are below this task's own
 * (those hold it back) to what their CPU time shows.  Returns the CPU time
 * (ns) the slowest of them still needs before its bound lets this task go
 * (its own bound - la + 1, what a chooser needs), or -1 if none computes: a
 * sleep need not be longer. */
static int64_t refresh_live(void)
{
	int i, n = atomic_load(&vli_bd->nslots);
	int64_t mine = atomic_load(&vli_bd->slot[me].lb), L, eta = -1;
	int64_t need = mine - atomic_load(&vli_bd->la) + 1;
	uint32_t q = 0;

	for (i = 0; i < n; i++) {
		vli_slot *s = &vli_bd->slot[i];
		if (i == me || atomic_load(&s->state) != VLI_SLOT_RUNNING ||
		    atomic_load(&s->lb) >= mine || (L = live_bound(i, &q)) < 0)
			continue;
		if (L < need && mine != VLI_ORDER_NONE) {
			uint64_t bits = atomic_load(&s->live_factor);
			double f, e;
			memcpy(&f, &bits, sizeof f);
			e = (double)(need - L) / (f > 0.0 ? f : 1.0);
			if (e > (double)eta)
				eta = e < 1e12 ? (int64_t)e + 1 : 1000000000000LL;
		}
		if (L <= atomic_load(&s->lb))
			continue;
		vli_board_lock();
		/* still computing in the same segment, and the bound only rises */
		if (atomic_load(&s->state) == VLI_SLOT_RUNNING && atomic_load(&s->live_seq) == q &&
		    L > atomic_load(&s->lb))
			set_lb(i, L);
		vli_board_unlock();
	}
	return eta;
}

/* Under the lock: task id (on virtual host, at virtual time now, process
 * pid; negative: on another real host) takes slot (-1: a new one).  Returns
 * the slot, -1 if the board is full. */
static int join(int slot, int id, int host, int64_t now, int pid)
{
	vli_slot *s;

	if (slot < 0 || slot >= VLI_BOARD_SLOTS)
		slot = vli_board_new_slot();
	if (slot < 0)
		return -1;
	s = &vli_bd->slot[slot];
	atomic_store(&s->id, id);
	atomic_store(&s->pid, pid);
	s->host = host;
	atomic_store(&s->now, now);
	vli_board_map(id, slot);
	return slot;
}

void vli_order_start(const char *path, int create, int slot, const char *fmt,
		     vli_order_probe_fn fn)
{
	char err[VLCFG_PATH_MAX + 256], host[64] = "";

	if (vli_t.cfg.ordering_real || !path || !*path)
		return;
	if (vli_board_open(path, create, err, sizeof err) < 0)
		vli_error(2, "ordering = virtual: %s", err);
	id_fmt = fmt ? fmt : "%d";
	probe = fn;
	lower_la(vli_lookahead(&vli_t.cfg));
	vli_board_lock();
	me = join(slot, vli_t.id, vli_t.host, vli_t.now, (int)getpid());
	if (me < 0) {
		vli_board_unlock();
		vli_error(2, "ordering = virtual: more than %d tasks in one run; use "
			  "[simulation] ordering = real", VLI_BOARD_SLOTS);
	}
	gethostname(host, sizeof host - 1);
	if (strcmp(host, vli_bd->real_host) != 0) {
		take_off(me, VLI_SLOT_OUTSIDE);
		vli_board_unlock();
		vli_warn("ordering = virtual: this task runs on real host %s, the run started on %s, "
			 "and it was not told the address of the run's board server; choices that "
			 "involve this task follow real arrival", host, vli_bd->real_host);
		me = -1;
		vli_bd = NULL;
		return;
	}
	atomic_store(&vli_bd->slot[me].state, VLI_SLOT_RUNNING);
	set_lb(me, vli_t.now);
	vli_board_unlock();
	vli_on_leave(vli_order_tick);
	vli_on_finish(vli_order_exit);
	vli_on_segment(segment_begin, segment_end);
	vli_on_pass(segment_pass);
}

int vli_order_serve_join(int slot, int id, int host, int64_t now, int64_t la, const char *fmt)
{
	lower_la(la);
	id_fmt = fmt;
	vli_board_lock();
	me = join(slot, id, host, now, -1);
	if (me >= 0) {
		atomic_store(&vli_bd->slot[me].state, VLI_SLOT_RUNNING);
		set_lb(me, now);
	}
	vli_board_unlock();
	return me;
}

int64_t vli_order_lookahead(void)
{
	int64_t la = vli_lookahead(&vli_t.cfg), run;

	if (!vli_order_remote && vli_order_on() && (run = atomic_load(&vli_bd->la)) > 0 && run < la)
		la = run;
	return la;
}

void vli_order_model_changed(void)
{
	if (vli_order_remote) { vli_order_remote->model_changed(vli_lookahead(&vli_t.cfg)); return; }
	if (vli_order_on())
		lower_la(vli_lookahead(&vli_t.cfg));
}

int vli_order_reserve(int64_t start, int host)
{
	int i;
	if (vli_order_remote) return vli_order_remote->reserve(start, host);

	if (!vli_order_on())
		return -1;
	vli_board_lock();
	i = vli_board_new_slot();
	if (i >= 0) {
		vli_slot *s = &vli_bd->slot[i];
		s->host = host;
		s->since = vli_mono_ns();
		atomic_store(&s->now, start);
		atomic_store(&s->state, VLI_SLOT_PENDING);
		set_lb(i, start);
	}
	vli_board_unlock();
	return i;
}

void vli_order_bind(int slot, int id)
{
	if (vli_order_remote) { vli_order_remote->bind(slot, id); return; }
	if (!vli_order_on() || slot < 0)
		return;
	vli_board_lock();
	if (atomic_load(&vli_bd->slot[slot].id) == 0)
		atomic_store(&vli_bd->slot[slot].id, id);
	vli_board_map(id, slot);
	vli_board_unlock();
}

void vli_order_gone(int slot, int outside)
{
	if (vli_order_remote) { vli_order_remote->gone(slot, outside); return; }
	if (!vli_order_on() || slot < 0)
		return;
	vli_board_lock();
	take_off(slot, outside ? VLI_SLOT_OUTSIDE : VLI_SLOT_EXITED);
	vli_board_unlock();
}

void vli_order_forget(int dst_id)
{
	int i;
	if (vli_order_remote) { vli_order_remote->forget(dst_id); return; }

	if (!vli_order_on() || (i = vli_board_find(dst_id)) < 0 || i == me)
		return;
	vli_board_lock();
	if (atomic_load(&vli_bd->slot[i].state) != VLI_SLOT_OUTSIDE)
		take_off(i, VLI_SLOT_EXITED);
	vli_board_unlock();
}

void vli_order_release(int id)
{
	int i;

	if (vli_order_remote) {
		vli_order_remote->release(id);
		return;
	}
	if (!vli_order_on() || (i = vli_board_find(id)) < 0)
		return;
	atomic_fetch_add(&vli_bd->slot[i].released, 1);
}

void vli_order_poke(int id)
{
	int i;

	if (vli_order_remote) {
		vli_order_remote->poke(id); /* a task of the board's host may nap */
		return;
	}
	if (!vli_order_on() || (i = vli_board_find(id)) < 0)
		return;
	vli_board_kick(i);
}

uint32_t vli_order_nap_mark(void)
{
	if (vli_order_remote || !vli_order_on())
		return 0;
	return atomic_load(&vli_bd->slot[me].kick);
}

void vli_order_nap(uint32_t mark, int ms)
{
	if (vli_order_remote || !vli_order_on()) {
		sched_yield();
		return;
	}
	vli_board_sleep(&vli_bd->slot[me].kick, mark, ms);
}

/* answers this task has seen (it alone counts them on its slot; kept here
 * for a task of another real host) */
static _Atomic uint64_t seen_here;

int vli_order_unseen(uint64_t n)
{
	if (vli_order_remote)
		return n != atomic_load(&seen_here);
	if (!vli_order_on())
		return 0;
	return n != atomic_load(&vli_bd->slot[me].released_seen);
}

void vli_order_release_seen(int from)
{
	vli_slot *s;

	atomic_fetch_add(&seen_here, 1);
	if (vli_order_remote) {
		vli_order_remote->release_seen(from);
		return;
	}
	if (!vli_order_on())
		return;
	s = &vli_bd->slot[me];
	/* its wait on the answerer ends first: the count must not say "nothing
	 * in flight" while the slot still says it waits on its answerer (a wait
	 * on another task stays) */
	if (atomic_load(&s->wait_on) == VLI_ON_TASK(from)) {
		vli_board_lock();
		if (atomic_load(&s->wait_on) == VLI_ON_TASK(from))
			set_wait_on(me, 0, 0);
		vli_board_unlock();
	}
	atomic_fetch_add(&s->released_seen, 1);
}

int vli_order_announce(int dst_id, int64_t arrival)
{
	return vli_order_announce_in(dst_id, arrival, 0);
}

int vli_order_announce_in(int dst_id, int64_t arrival, int side)
{
	int i, st;
	vli_slot *s;
	if (vli_order_remote) return vli_order_remote->announce(dst_id, arrival, side);

	if (!vli_order_on() || (i = vli_board_find(dst_id)) < 0)
		return 0;
	s = &vli_bd->slot[i];
	st = atomic_load(&s->state);
	if (st == VLI_SLOT_OUTSIDE)
		return 0;
	if (side < 0 || side > VLI_SIDES)
		side = VLI_SIDES;
	atomic_fetch_add(side ? &s->side_announced[side - 1] : &s->announced, 1);
	atomic_fetch_add(&vli_bd->announced, 1);
	st = atomic_load(&s->state); /* after the count: see the wait, or be seen by it */
	if (st == VLI_SLOT_BLOCKED || st == VLI_SLOT_EXTERN) {
		int64_t now = atomic_load(&s->now), v = arrival > now ? arrival : now;

		vli_board_lock();
		if (v < atomic_load(&s->lb))
			set_lb(i, v);
		vli_board_unlock();
		if (atomic_load(&s->watching))
			vli_board_wake_watchers();
		else
			vli_board_kick(i);
	}
	return 1;
}

void vli_order_received(void)
{
	vli_order_received_in(0);
}

void vli_order_received_in(int side)
{
	if (vli_order_remote) { vli_order_remote->received(side); return; }
	if (!vli_order_on())
		return;
	if (side < 0 || side > VLI_SIDES)
		side = VLI_SIDES;
	atomic_fetch_add(side ? &vli_bd->slot[me].side_received[side - 1] : &vli_bd->slot[me].received, 1);
	atomic_fetch_add(&vli_bd->received, 1);
}

int64_t vli_order_bound_of(int id)
{
	int i;
	if (vli_order_remote) return vli_order_remote->bound_of(id);

	if (!vli_order_on() || (i = vli_board_find(id)) < 0)
		return VLI_ORDER_NONE;
	return atomic_load(&vli_bd->slot[i].lb);
}

int64_t vli_order_own_bound(void)
{
	/* (another real host's task: only flows lower its bound unseen, and
	 * only on a [topology]) */
	if (vli_order_remote && vli_order_remote->flow && vli_net_on(&vli_t.cfg))
		return vli_order_remote->flow(VLI_FLOW_OWN_BOUND, (const int64_t[VLI_FLOW_ARGS]){ 0 },
					      NULL, 0, &(int64_t){ 0 });
	if (vli_order_remote || !vli_order_on())
		return VLI_ORDER_NONE;
	return atomic_load(&vli_bd->slot[me].lb);
}

void vli_order_set_key(int slot, int key)
{
	if (vli_order_remote || !vli_order_on())
		return;
	if (slot < 0)
		slot = me;
	if (slot < 0 || slot >= VLI_BOARD_SLOTS)
		return;
	atomic_store(&vli_bd->slot[slot].key, key);
	atomic_store(&vli_bd->slot[slot].key_set, 1);
}

int vli_order_key_of(int id, int *key)
{
	int i;

	if (vli_order_remote || !vli_order_on() || (i = vli_board_find(id)) < 0 ||
	    !atomic_load(&vli_bd->slot[i].key_set))
		return 0;
	*key = atomic_load(&vli_bd->slot[i].key);
	return 1;
}

int64_t vli_order_clock_of(int id)
{
	int i;

	if (vli_order_remote || !vli_order_on() || (i = vli_board_find(id)) < 0)
		return -1; /* (a task of another host does not see the board's clocks) */
	return atomic_load(&vli_bd->slot[i].now);
}

void vli_order_watch(int on)
{
	if (vli_order_remote) { vli_order_remote->watch(on); return; }
	if (!vli_order_on())
		return;
	atomic_fetch_add(&vli_bd->nwatch, on ? 1 : -1);
	atomic_fetch_add(&vli_bd->slot[me].watching, on ? 1 : -1);
	if (on)
		vli_board_wake_watchers();
}

int vli_order_watched(void)
{
	if (vli_order_remote) return 1; /* the others' waits are not seen from here */
	return vli_order_on() && atomic_load(&vli_bd->nwatch) > 0;
}

int vli_order_behind(void)
{
	vli_slot *s;
	if (vli_order_remote) return vli_order_remote->behind();

	if (!vli_order_on())
		return 0;
	s = &vli_bd->slot[me];
	return atomic_load(&s->announced) != atomic_load(&s->received);
}

/* Whether some side class of slot s has a message on its way. */
static int sides_behind(vli_slot *s)
{
	int c;

	for (c = 0; c < VLI_SIDES; c++)
		if (atomic_load(&s->side_announced[c]) != atomic_load(&s->side_received[c]))
			return 1;
	return 0;
}

int vli_order_behind_in(int side)
{
	vli_slot *s;

	if (!side)
		return vli_order_behind();
	if (vli_order_remote)
		return vli_order_remote->behind_side(side);
	if (!vli_order_on() || side < 0 || side > VLI_SIDES)
		return 0;
	s = &vli_bd->slot[me];
	return atomic_load(&s->side_announced[side - 1]) != atomic_load(&s->side_received[side - 1]);
}

/* ---- waiting ---- */

void vli_order_wait_begin(vli_order_wait *w, const char *fmt, ...)
{
	va_list ap;

	memset(w, 0, sizeof *w);
	if (vli_order_remote) {
		char what[sizeof vli_bd->slot[0].what];
		va_start(ap, fmt);
		vsnprintf(what, sizeof what, fmt, ap);
		va_end(ap);
		vli_order_remote->wait_begin(what);
		return;
	}
	if (!vli_order_on())
		return;
	va_start(ap, fmt);
	vsnprintf(vli_bd->slot[me].what, sizeof vli_bd->slot[me].what, fmt, ap);
	va_end(ap);
}

void vli_order_snap(vli_order_wait *w)
{
	if (vli_order_remote) { vli_order_remote->snap(w); return; }
	if (!vli_order_on())
		return;
	w->epoch = atomic_load(&vli_bd->epoch);
	w->kick = atomic_load(&vli_bd->slot[me].kick);
}

void vli_order_block(int64_t lb, int how)
{
	vli_order_block_on(lb, how, 0, 0);
}

int64_t vli_order_block_on(int64_t lb, int how, uint64_t on, uint64_t n)
{
	vli_slot *s;
	if (vli_order_remote) { vli_order_remote->block_on(lb, how, on, n); return VLI_ORDER_NONE; }
	int side = how >> 4, state;
	_Atomic uint64_t *ann, *rec;

	how &= 0xf;
	if (side > VLI_SIDES)
		side = VLI_SIDES;
	state = how == VLI_WAIT_POLL ? VLI_SLOT_RUNNING
		: how == VLI_WAIT_EXTERN ? VLI_SLOT_EXTERN : VLI_SLOT_BLOCKED;
	if (!vli_order_on())
		return VLI_ORDER_NONE;
	s = &vli_bd->slot[me];
	ann = side ? &s->side_announced[side - 1] : &s->announced;
	rec = side ? &s->side_received[side - 1] : &s->received;
	if (how == VLI_WAIT_POLL || lb < TASK_NOW())
		lb = TASK_NOW();
	/* (the slot's bound, not the one published: a sender may have lowered it) */
	if (atomic_load(&s->state) == state && lb == atomic_load(&s->lb) &&
	    atomic_load(&s->wait_on) == on && atomic_load(&s->wait_n) == n)
		return lb;
	vli_board_lock();
	atomic_store(&s->now, TASK_NOW());
	set_wait_on(me, how == VLI_WAIT_POLL ? 0 : on, n);
	atomic_store(&s->state, state);
	/* raise the bound only when every announced message (of the class it
	 * waits in) is in */
	if (lb <= atomic_load(&s->lb) || atomic_load(ann) == atomic_load(rec))
		set_lb(me, lb);
	lb = atomic_load(&s->lb);
	vli_board_unlock();
	return lb;
}

int vli_order_hold(int64_t lb, uint32_t epoch)
{
	vli_slot *s;

	if (vli_order_remote || !vli_order_on())
		return 1;
	s = &vli_bd->slot[me];
	vli_board_lock();
	if (vli_bd->flows.epoch != epoch) {
		vli_board_unlock();
		return 0;
	}
	if (lb < TASK_NOW())
		lb = TASK_NOW();
	atomic_store(&s->now, TASK_NOW());
	set_wait_on(me, 0, 0);
	atomic_store(&s->state, VLI_SLOT_BLOCKED);
	set_lb(me, lb); /* (whatever is announced to it: it takes nothing before lb) */
	vli_board_unlock();
	return 1;
}

/* ---- who waits for this task ----
 * A task that waits on another (a rendezvous sender on its receiver), in a
 * collective (on the members that have not entered it) or for a message that
 * nobody has announced may be unable to go on before this task acts.  The
 * tasks that can go on without it are found as a least fixed point: those
 * that run (or are not started, or wait for something outside), those that
 * wait for a message on its way, and - repeatedly - those waiting on a task
 * that can, in a collective whose missing members all can, or for a message
 * while any task that can might send it.  The others send nothing before this
 * task acts: vli_order_safe ignores their bounds. */

#define DEP_WORDS (VLI_BOARD_SLOTS / 64)
static __thread uint64_t ind[DEP_WORDS]; /* the slots that can go on without this task (scratch) */

#define IND(i) ((ind[(i) / 64] >> ((i) % 64)) & 1)

/* Under the lock: the record of collective (on, n); NULL if none (create: a
 * free one, NULL if all are in use). */
static struct vli_coll *coll_of(uint64_t on, uint64_t n, int create)
{
	int i, free_i = -1;

	for (i = 0; i < VLI_BOARD_COLLS; i++) {
		struct vli_coll *c = &vli_bd->coll[i];
		if (c->on == on && c->n == n)
			return c;
		if (!c->on && free_i < 0)
			free_i = i;
	}
	if (!create || free_i < 0)
		return NULL;
	memset(&vli_bd->coll[free_i], 0, sizeof vli_bd->coll[free_i]);
	vli_bd->coll[free_i].on = on;
	vli_bd->coll[free_i].n = n;
	return &vli_bd->coll[free_i];
}

#define MISSING(c, j) ((((c)->member[(j) / 64] & ~(c)->in[(j) / 64]) >> ((j) % 64)) & 1)

/* Under the lock: the members of c that slot s, waiting in c, waits for
 * and that have not entered, one by one in slot order (*k = 0 first; -1 at
 * the end): those it said (vli_order_coll_deps), else every member. */
static int next_missing(const vli_slot *s, const struct vli_coll *c, int *k)
{
	int said = s->deps_on == c->on && s->deps_n == c->n;

	while (*k < VLI_BOARD_SLOTS) {
		int w = *k / 64;
		uint64_t miss = c->member[w] & ~c->in[w];

		if (said)
			miss &= s->deps[w];
		miss >>= *k % 64;
		if (!miss) {
			*k = (w + 1) * 64;
			continue;
		}
		*k += __builtin_ctzll(miss);
		return (*k)++;
	}
	return -1;
}

/* (a rendezvous sender's key, VLI_RDV_KEY, against a receive's tag and
 * communicator: its tag matches, and its communicator's fold) */
static int key_match(uint64_t key, int32_t tag, uint64_t comm)
{
	return (tag < 0 || tag == (int32_t)(uint32_t)(key >> 32)) &&
	       (uint32_t)key == (uint32_t)(comm ^ comm >> 32);
}

/* Under the lock: slot i waits on task j for the answer to its rendezvous
 * (wait_n: VLI_RDV_KEY of its communicator and tag): the least post time of
 * j's posted receives that can take it, VLI_ORDER_NONE if none.  named:
 * those that name i only - j answers them while it waits, whatever for,
 * without a choice (more receives than the board tells apart: those naming
 * i with any tag; more sources: none); else its wildcard receives too (more
 * receives than told apart: the least of all). */
static int64_t rdv_posted(int i, int j, int named)
{
	const vli_slot *s = &vli_bd->slot[j];
	int id = atomic_load(&vli_bd->slot[i].id), k;
	uint64_t key = atomic_load(&vli_bd->slot[i].wait_n);
	int64_t p = VLI_ORDER_NONE;

	if (s->post_n > VLI_POSTS) {
		for (k = 0; k < s->rdv_n && k < VLI_RDV_SRCS; k++)
			if (s->rdv_src[k] == id)
				p = s->rdv_at[k];
		if (!named && s->rdv_n > VLI_RDV_SRCS && atomic_load(&s->rdv_post) > 0)
			p = atomic_load(&s->rdv_post) - 1;
		if (!named && s->post_min < p)
			p = s->post_min;
	} else {
		for (k = 0; k < s->post_n; k++) {
			const vli_post *w = &s->post[k];

			if ((w->src == id || (!named && w->src < 0)) && w->t < p &&
			    key_match(key, w->tag, w->comm))
				p = w->t;
		}
	}
	if (!named && s->wild_at > 0 && s->wild_at - 1 < p && key_match(key, s->wild_tag, s->wild_comm))
		p = s->wild_at - 1;
	return p;
}

/* Under the lock: whether blocked slot s can go on without this task, given
 * ind (any: some other task can). */
static int can_go_on(int i, int any)
{
	vli_slot *s = &vli_bd->slot[i];
	uint64_t on = atomic_load(&s->wait_on);
	struct vli_coll *c;
	int w, j;

	if (!on) /* a message: on its way (a bound), or from anyone who can send */
		return atomic_load(&s->lb) != VLI_ORDER_NONE || any;
	if (on & VLI_ON_TASK(0)) {
		/* an answer on its way frees it (see vli_order_release) */
		if (atomic_load(&s->released) != atomic_load(&s->released_seen))
			return 1;
		j = vli_board_find((int)(uint32_t)on);
		/* so does a receive its receiver has posted that names it: the
		 * receiver answers while it waits (its progress), whatever it
		 * waits for - this task too (two ranks sending to each other with
		 * their receives posted were taken for a cycle of waits, and a
		 * wildcard receive elsewhere chose without them).  (A wildcard
		 * receive answers once it has chosen, which may wait for this
		 * task.) */
		return j < 0 || rdv_posted(i, j, 1) != VLI_ORDER_NONE || (j != me && IND(j));
	}
	c = coll_of(on, atomic_load(&s->wait_n), 0);
	if (!c)
		return 1; /* not recorded: assume it can */
	w = 0;
	while ((j = next_missing(s, c, &w)) >= 0)
		if (!IND(j))
			return 0; /* a missing member that cannot (this task among them) */
	return 1;
}

/* Under the lock: fill ind. */
static void find_independent(void)
{
	int i, n = atomic_load(&vli_bd->nslots), changed, any = 0;

	memset(ind, 0, sizeof ind);
	do {
		changed = 0;
		for (i = 0; i < n; i++) {
			int st = atomic_load(&vli_bd->slot[i].state), go;

			if (i == me || IND(i))
				continue;
			go = st == VLI_SLOT_RUNNING || st == VLI_SLOT_PENDING || st == VLI_SLOT_EXTERN ||
			     st == VLI_SLOT_OUTSIDE || (st == VLI_SLOT_BLOCKED && can_go_on(i, any));
			if (go) {
				ind[i / 64] |= 1ULL << (i % 64);
				changed = any = 1;
			}
		}
	} while (changed);
}

void vli_order_coll_enter(uint64_t on, uint64_t n, int count, const int *ids)
{
	struct vli_coll *c;
	int k, j;
	if (vli_order_remote) { vli_order_remote->coll_enter(on, n, count, ids); return; }

	if (!vli_order_on())
		return;
	vli_board_lock();
	c = coll_of(on, n, 1);
	if (c) {
		if (!c->size) {
			c->size = count;
			for (k = 0; k < count; k++)
				if ((j = vli_board_find(ids[k])) >= 0)
					c->member[j / 64] |= 1ULL << (j % 64);
		}
		c->in[me / 64] |= 1ULL << (me % 64);
	}
	vli_board_unlock();
}

void vli_order_coll_leave(uint64_t on, uint64_t n)
{
	struct vli_coll *c;
	if (vli_order_remote) { vli_order_remote->coll_leave(on, n); return; }

	if (!vli_order_on())
		return;
	vli_board_lock();
	c = coll_of(on, n, 0);
	if (c && ++c->left >= c->size) {
		if (c->nb)
			vli_bd->nfloors--;
		c->on = 0;
	}
	vli_board_unlock();
}

void vli_order_coll_deps(uint64_t on, uint64_t n, int count, const int *ids)
{
	vli_slot *s;
	int k, j;

	if (vli_order_remote) { vli_order_remote->coll_deps(on, n, count, ids); return; }
	if (!vli_order_on() || me < 0)
		return;
	vli_board_lock();
	s = &vli_bd->slot[me];
	s->deps_on = 0;
	memset(s->deps, 0, sizeof s->deps);
	for (k = 0; k < count; k++) {
		if ((j = vli_board_find(ids[k])) < 0)
			break; /* (one not on the board: all members) */
		s->deps[j / 64] |= 1ULL << (j % 64);
	}
	if (k == count) {
		s->deps_n = n;
		s->deps_on = on;
	}
	/* (fewer members waited for: a bound may now count) */
	vli_board_wake_watchers();
	vli_board_unlock();
}

int64_t vli_order_coll_lb(uint64_t on, uint64_t n)
{
	struct vli_coll *c;
	int64_t m = INT64_MIN;

	if (vli_order_remote) {
		/* (through the board server: with flows only) */
		if (vli_order_remote->flow && vli_net_on(&vli_t.cfg))
			return vli_order_remote->flow(VLI_FLOW_COLL_LB,
						      (const int64_t[VLI_FLOW_ARGS]){ (int64_t)on, (int64_t)n },
						      NULL, 0, &(int64_t){ 0 });
		return INT64_MIN;
	}
	if (!vli_order_on())
		return INT64_MIN;
	vli_board_lock();
	if ((c = coll_of(on, n, 0)) != NULL)
		m = vli_order_coll_missing_locked(c, m, 1);
	vli_board_unlock();
	return m;
}

static __thread int64_t effb[VLI_BOARD_SLOTS];
static void raise_through_waits(int n);

/* Under the lock: whether slot j waits in collective c (a member that has
 * entered it). */
static int waits_in(int j, const struct vli_coll *c)
{
	vli_slot *s = &vli_bd->slot[j];

	return atomic_load(&s->state) == VLI_SLOT_BLOCKED && atomic_load(&s->wait_on) == c->on &&
	       atomic_load(&s->wait_n) == c->n && !MISSING(c, j) &&
	       (c->member[j / 64] >> (j % 64) & 1);
}

int vli_order_coll_who(uint64_t on, uint64_t n, int count, const int *ids, int64_t *lb,
		       unsigned char *in, int64_t *free_lb)
{
	struct vli_coll *c;
	int k, j, rc = 0, ns;
	int64_t g = VLI_ORDER_NONE, b;

	if (vli_order_remote)
		return vli_order_remote->coll_who(on, n, count, ids, lb, in, free_lb);
	if (!vli_order_on() || me < 0)
		return -1;
	vli_board_lock();
	if ((c = coll_of(on, n, 0)) == NULL) {
		vli_board_unlock();
		return -1;
	}
	find_independent();
	ns = atomic_load(&vli_bd->nslots);
	raise_through_waits(ns); /* (effb: a task acts no earlier than those it waits for) */
	for (j = 0; j < ns; j++)
		if (IND(j) && !waits_in(j, c) && (b = effb[j]) < g)
			g = b;
	for (k = 0; k < count && rc == 0; k++) {
		if ((j = vli_board_find(ids[k])) < 0) {
			rc = -1;
			break;
		}
		lb[k] = effb[j];
		in[k] = MISSING(c, j) ? VLI_WHO_MISSING
		      : j != me && IND(j) && waits_in(j, c) ? VLI_WHO_WAITS : VLI_WHO_IN;
	}
	*free_lb = g;
	vli_board_unlock();
	return rc;
}

int64_t vli_order_coll_missing_locked(const struct vli_coll *c, int64_t from, int skip_none)
{
	int64_t m = from, b;
	int i;

	for (i = 0; i < VLI_BOARD_SLOTS && m != VLI_ORDER_NONE; i++)
		if ((c->member[i / 64] & ~c->in[i / 64]) >> (i % 64) & 1) {
			b = atomic_load(&vli_bd->slot[i].lb);
			if (b > m && !(skip_none && b == VLI_ORDER_NONE))
				m = b;
		}
	return m;
}

int64_t vli_order_own_limit_locked(void)
{
	vli_slot *s = &vli_bd->slot[me];
	uint64_t on = atomic_load(&s->wait_on);
	struct vli_coll *c;
	int64_t v, m = INT64_MIN;
	int j, w = 0;

	/* (a task that waits has published what it starts nothing before) */
	if (atomic_load(&s->state) != VLI_SLOT_BLOCKED)
		return TASK_NOW();
	v = atomic_load(&s->lb);
	/* (one waiting in a collective on members not in acts no earlier
	 * than they can, as raise_through_waits takes the others: a member
	 * of an alltoall on shared links whose rank waits for a member not in
	 * held its own message's arrival back with its clock, and the tasks
	 * that member waited for with it - links/rmix.c, 6 ranks, seed 1,
	 * stuck, once MPI_Ialltoall was timed from its first entry) */
	if (on && !(on & VLI_ON_TASK(0)) && (c = coll_of(on, atomic_load(&s->wait_n), 0)) != NULL)
		while ((j = next_missing(s, c, &w)) >= 0)
			if (j != me && effb[j] > m)
				m = effb[j];
	return m > v ? m : v;
}

int vli_order_coll_blocked_by(int id)
{
	vli_slot *s, *o;
	struct vli_coll *c;
	uint64_t on;
	int i, r = 0;

	if (vli_order_remote) return vli_order_remote->coll_blocked_by(id);
	if (!vli_order_on() || me < 0)
		return 0;
	vli_board_lock();
	s = &vli_bd->slot[me];
	on = atomic_load(&s->wait_on);
	if (atomic_load(&s->state) == VLI_SLOT_BLOCKED && on && !(on & VLI_ON_TASK(0)) &&
	    (i = vli_board_find(id)) >= 0 && i != me &&
	    (c = coll_of(on, atomic_load(&s->wait_n), 0)) != NULL) {
		int k = 0, j;

		o = &vli_bd->slot[i];
		while ((j = next_missing(s, c, &k)) >= 0 && j != i)
			;
		r = j == i &&
		    atomic_load(&o->state) == VLI_SLOT_BLOCKED &&
		    atomic_load(&o->wait_on) == VLI_ON_TASK(atomic_load(&s->id)) &&
		    atomic_load(&o->released) == atomic_load(&o->released_seen);
	}
	vli_board_unlock();
	return r;
}

/* ---- bounds through waits ----
 * A task that waits on another (a rendezvous sender on its receiver) acts
 * only after that task has acted, so nothing it sends starts before that
 * task's bound; one that waits in a collective acts only after every missing
 * member has entered, so not before the greatest of their bounds.  Raising
 * the waiters' bounds so, repeatedly (a least fixed point of max, at most one
 * pass per slot), breaks cycles of choices: two wildcard receivers, each held
 * back by a task that waits on the other, where the one with the earlier
 * candidate now sees the other's waiter at least at the other's candidate
 * (the null messages of Chandy-Misra-Bryant, computed in one place).  Only
 * the chooser uses these bounds, under the lock, on the tasks that can go on
 * without it (a chain from such a task never passes through the chooser);
 * the slots and the root keep the plain bounds. */

static __thread int64_t effb[VLI_BOARD_SLOTS]; /* the raised bounds (scratch) */

/* Under the lock: fill effb for the first n slots. */
static void raise_through_waits(int n)
{
	int i, j, w, pass, changed;

	for (i = 0; i < n; i++)
		effb[i] = atomic_load(&vli_bd->slot[i].lb);
	if (!atomic_load(&vli_bd->nwaiton))
		return;
	for (pass = 0; pass <= n; pass++) {
		changed = 0;
		for (i = 0; i < n; i++) {
			vli_slot *s = &vli_bd->slot[i];
			uint64_t on = atomic_load(&s->wait_on);
			int64_t v = INT64_MIN, p;

			if (!on || i == me || atomic_load(&s->state) != VLI_SLOT_BLOCKED)
				continue;
			if (on & VLI_ON_TASK(0)) {
				/* an answer on its way frees it */
				if (atomic_load(&s->released) != atomic_load(&s->released_seen))
					continue;
				j = vli_board_find((int)(uint32_t)on);
				if (j < 0 || j == i)
					continue;
				/* (its data leave when a receive of j's takes them:
				 * one posted already, or one j posts later) */
				v = effb[j];
				p = rdv_posted(i, j, 0);
				if (p < v)
					v = p;
			} else {
				struct vli_coll *c = coll_of(on, atomic_load(&s->wait_n), 0);

				if (!c)
					continue;
				w = 0;
				while ((j = next_missing(s, c, &w)) >= 0)
					if (j != i && effb[j] > v)
						v = effb[j];
			}
			if (v > effb[i]) {
				effb[i] = v;
				changed = 1;
			}
		}
		if (!changed)
			break;
	}
}

/* The least bound that this task must respect: the root, or, if some task
 * waits on another, the least over the tasks that do not wait for this one,
 * each raised through its waits. */
static int64_t least_bound(int64_t la, int64_t tau, int skip)
{
	int64_t m = vli_board_root();
	int i, n;

	if (sat_add(m, la) > tau)
		return m;
	m = VLI_ORDER_NONE;
	vli_board_lock();
	find_independent();
	n = atomic_load(&vli_bd->nslots);
	raise_through_waits(n);
	for (i = 0; i < n; i++)
		if (effb[i] < m && (i == me || IND(i)) && i != skip)
			m = effb[i];
	vli_board_unlock();
	return m;
}

/* ---- for the flows in flight (order_flows.c) ---- */

int vli_order_slot(void)
{
	return vli_order_remote || !vli_bd ? -1 : me;
}

int64_t vli_order_others_locked(void)
{
	int64_t m = VLI_ORDER_NONE;
	int i, n = atomic_load(&vli_bd->nslots);

	find_independent();
	/* (through collectives too: with collectives = shared their messages
	 * leave no earlier than their last member's entry, run_links.c) */
	raise_through_waits(n);
	for (i = 0; i < n; i++)
		if (i != me && IND(i) && effb[i] < m)
			m = effb[i];
	return m;
}

int64_t vli_order_rdv_post_locked(int slot, int src_id, int tag, uint64_t comm)
{
	vli_slot *s = &vli_bd->slot[slot];
	int64_t p = VLI_ORDER_NONE;
	int i;

	if (s->rdv_n > VLI_RDV_SRCS) {
		p = atomic_load(&s->rdv_post);
		p = p > 0 ? p - 1 : VLI_ORDER_NONE;
	} else {
		for (i = 0; i < s->rdv_n; i++)
			if (s->rdv_src[i] == src_id) {
				p = s->rdv_at[i];
				break;
			}
	}
	if (s->wild_at > 0 && s->wild_at - 1 < p &&
	    (tag < 0 || s->wild_tag < 0 || s->wild_tag == tag) && s->wild_comm == comm)
		p = s->wild_at - 1;
	/* its nonblocking wildcard receives not chosen yet (the first entries
	 * of post[]; more than VLI_POSTS receives: the least time for all) */
	for (i = 0; i < s->post_n && i < VLI_POSTS && s->post[i].src < 0; i++) {
		const vli_post *w = &s->post[i];
		if ((tag < 0 || w->tag < 0 || w->tag == tag) && w->comm == comm && w->t < p)
			p = w->t;
	}
	if (s->post_n > VLI_POSTS && s->post[0].src < 0 && s->post_min < p)
		p = s->post_min;
	return p;
}

int64_t vli_order_postlb_locked(int slot, int committed, int src_id, int tag, uint64_t comm)
{
	int64_t m = vli_order_rdv_post_locked(slot, src_id, tag, comm);

	if (slot == me) {
		/* (a task that waits posts nothing before the bound it
		 * published: a member of a blocking collective on shared links,
		 * whose own bound counts when it takes an arrival, took its
		 * clock for the earliest post of a rendezvous sent to it for
		 * later, and held back the arrival it waited for - rmix, 12
		 * ranks, collectives = shared, stuck) */
		int64_t own = vli_order_own_limit_locked();

		if (!committed && own < m)
			m = own;
	} else if (IND(slot) && effb[slot] < m) {
		m = effb[slot];
	}
	return m;
}

int64_t vli_order_post_lb(int id, int src_id, int tag, uint64_t comm, uint64_t *released)
{
	vli_slot *s;
	int64_t m;
	int i, k;

	*released = 0;
	if (vli_order_remote)
		return vli_order_remote->post_lb(id, src_id, tag, comm, released);
	if (!vli_order_on() || (i = vli_board_find(id)) < 0)
		return VLI_ORDER_NONE;
	s = &vli_bd->slot[i];
	vli_board_lock();
	m = atomic_load(&s->lb);
	/* a receiver that waits on another task (a rendezvous send of its own,
	 * a collective) posts nothing before that task's bound: its bound
	 * raised through waits, if it can go on without this task.  (With its
	 * plain bound, a sender to a rank waiting in its own rendezvous send
	 * kept its bound at its clock, and the flows that needed it to rise
	 * held that rank's receiver: rmix, 12 ranks on a bus, stuck.) */
	if (i != me && atomic_load(&s->wait_on) && atomic_load(&vli_bd->nwaiton) &&
	    atomic_load(&s->state) == VLI_SLOT_BLOCKED) {
		find_independent();
		raise_through_waits(atomic_load(&vli_bd->nslots));
		if (IND(i) && effb[i] > m)
			m = effb[i];
	}
	if (s->post_n > VLI_POSTS) {
		if (s->post_min < m)
			m = s->post_min;
	} else {
		for (k = 0; k < s->post_n; k++) {
			const vli_post *p = &s->post[k];
			if ((p->src < 0 || p->src == src_id) && (p->tag < 0 || p->tag == tag) &&
			    p->comm == comm && p->t < m)
				m = p->t;
		}
	}
	if (s->wild_at > 0 && s->wild_at - 1 < m && (s->wild_tag < 0 || s->wild_tag == tag) &&
	    s->wild_comm == comm)
		m = s->wild_at - 1; /* its blocking wildcard receive */
	vli_board_unlock();
	/* the count after the posts: a receiver answers (and counts it) before
	 * it withdraws its post or its bound passes it, so a post read as gone
	 * is counted here */
	*released = atomic_load(&vli_bd->slot[me].released);
	return m;
}

void vli_order_set_rdv_posts(int n, const int *src_id, const int64_t *t, int np,
			     const vli_post *posts)
{
	vli_slot *s;
	int64_t m = VLI_ORDER_NONE, pm = VLI_ORDER_NONE;
	int i;

	if (vli_order_remote) {
		vli_order_remote->rdv_posts(n, src_id, t, np, posts);
		return;
	}
	if (!vli_bd || me < 0)
		return;
	s = &vli_bd->slot[me];
	for (i = 0; i < n && i < VLI_RDV_SRCS; i++)
		if (t[i] < m)
			m = t[i];
	vli_board_lock();
	s->rdv_n = n > VLI_RDV_SRCS ? VLI_RDV_SRCS + 1 : n;
	for (i = 0; i < n && i < VLI_RDV_SRCS; i++) {
		s->rdv_src[i] = src_id[i];
		s->rdv_at[i] = t[i];
	}
	atomic_store(&s->rdv_post, m == VLI_ORDER_NONE ? 0 : m + 1);
	for (i = 0; i < np && i < VLI_POSTS; i++)
		s->post[i] = posts[i];
	for (i = 0; i < np && i < VLI_POSTS; i++)
		if (posts[i].t < pm)
			pm = posts[i].t;
	s->post_n = np > VLI_POSTS ? VLI_POSTS + 1 : np;
	s->post_min = pm;
	vli_board_unlock();
}

void vli_order_set_wild_post(int64_t t, int tag, uint64_t comm)
{
	vli_slot *s;

	if (vli_order_remote) { /* through the board server (as a flow call;
				 * with or without shared links: a rendezvous sender
				 * waiting on this task is raised no further) */
		if (vli_order_remote->flow)
			vli_order_remote->flow(VLI_FLOW_WILD,
					       (const int64_t[VLI_FLOW_ARGS]){ t, tag, (int64_t)comm },
					       NULL, 0, &(int64_t){ 0 });
		return;
	}
	if (!vli_bd || me < 0)
		return;
	s = &vli_bd->slot[me];
	vli_board_lock();
	s->wild_at = t == VLI_ORDER_NONE ? 0 : t + 1;
	s->wild_tag = tag;
	s->wild_comm = comm;
	vli_board_unlock();
}

int vli_order_lower_locked(int i, int64_t v)
{
	vli_slot *s = &vli_bd->slot[i];
	int st = atomic_load(&s->state);
	int64_t now = atomic_load(&s->now);

	if (st != VLI_SLOT_BLOCKED && st != VLI_SLOT_EXTERN)
		return 0;
	if (v < now)
		v = now;
	if (v >= atomic_load(&s->lb))
		return 0;
	set_lb(i, v);
	return 1;
}

struct vli_coll *vli_order_coll_locked(uint64_t on, uint64_t n)
{
	return coll_of(on, n, 0);
}

int vli_order_coll_lower_locked(uint64_t on, uint64_t n, int64_t v)
{
	struct vli_coll *c = coll_of(on, n, 0);
	int i, k = 0;

	if (!c)
		return 0;
	if (c->nb && v < c->floor)
		c->floor = v; /* (its later messages come no earlier either) */
	for (i = 0; i < VLI_BOARD_SLOTS; i++)
		if ((c->member[i / 64] >> (i % 64)) & 1)
			k += vli_order_lower_locked(i, v);
	return k;
}

int vli_order_safe(int64_t tau)
{
	return vli_order_safe_in(tau, 0);
}

int vli_order_safe_in(int64_t tau, int side)
{
	return vli_order_safe_in_but(tau, side, -1);
}

int vli_order_safe_in_but(int64_t tau, int side, int skip_id)
{
	int64_t la, m;
	int skip;
	if (vli_order_remote) return vli_order_remote->safe(-1 - side, tau);

	if (!vli_order_on())
		return 1;
	skip = skip_id < 0 ? -1 : vli_board_find(skip_id);
	if (skip == me)
		skip = -1;
	la = atomic_load(&vli_bd->la);
	/* the bounds first, then the count: a sender announces before its bound
	 * passes the send (or it waits on this task), so a message announced
	 * after the bounds were read is seen by the count */
	m = least_bound(la, tau, skip);
	if (vli_order_behind_in(side))
		return 0;
	return sat_add(m, la) > tau;
}

int vli_order_safe_among(const int *ids, int n, int64_t tau)
{
	return vli_order_safe_among_but(ids, n, tau, -1);
}

int vli_order_safe_among_but(const int *ids, int n, int64_t tau, int skip_id)
{
	int64_t la, m = VLI_ORDER_NONE, v;
	int k, i, st, unknown = 0;

	if (vli_order_remote) return vli_order_remote->safe_among(ids, n, tau, skip_id);
	if (vli_order_safe(tau))
		return 1;
	if (!vli_order_on())
		return 0;
	la = atomic_load(&vli_bd->la);
	vli_board_lock();
	find_independent();
	raise_through_waits(atomic_load(&vli_bd->nslots));
	for (k = 0; k < n; k++) {
		if (ids[k] == skip_id)
			continue;
		i = vli_board_find(ids[k]);
		if (i < 0) {
			unknown = 1; /* not on the board: not known */
			break;
		}
		/* this task sends nothing while it chooses; one that waits for
		 * this task sends nothing before it acts */
		if (i == me || !IND(i))
			continue;
		st = atomic_load(&vli_bd->slot[i].state);
		if (st == VLI_SLOT_EXITED || st == VLI_SLOT_OUTSIDE)
			continue;
		v = st == VLI_SLOT_BLOCKED || st == VLI_SLOT_EXTERN ? atomic_load(&vli_bd->slot[i].now)
								      : effb[i];
		if (v < m)
			m = v;
	}
	vli_board_unlock();
	if (vli_order_behind())
		return 0;
	return !unknown && sat_add(m, la) > tau;
}

int vli_order_turn(int64_t t)
{
	int i, n, my_id, go = 1;

	if (vli_order_remote)
		return vli_order_remote->turn(t); /* the board server decides */
	if (!vli_order_on())
		return 1;
	my_id = atomic_load(&vli_bd->slot[me].id);
	vli_board_lock();
	find_independent();
	n = atomic_load(&vli_bd->nslots);
	raise_through_waits(n);
	for (i = 0; i < n && go; i++) {
		if (i == me || !IND(i))
			continue;
		if (effb[i] < t || (effb[i] == t && atomic_load(&vli_bd->slot[i].id) < my_id))
			go = 0;
	}
	vli_board_unlock();
	return go;
}

int vli_order_safe_from(int id, int64_t tau)
{
	int64_t la, m = VLI_ORDER_NONE;
	int i;
	if (vli_order_remote) return vli_order_remote->safe(id, tau);

	if (!vli_order_on())
		return 1;
	la = atomic_load(&vli_bd->la);
	i = vli_board_find(id);
	if (i >= 0) {
		m = atomic_load(&vli_bd->slot[i].lb);
		if (sat_add(m, la) <= tau) {
			vli_board_lock();
			find_independent();
			if (!IND(i)) {
				m = VLI_ORDER_NONE; /* it waits for this task */
			} else {
				raise_through_waits(atomic_load(&vli_bd->nslots));
				m = effb[i];
			}
			vli_board_unlock();
		}
	}
	if (vli_order_behind())
		return 0;
	return sat_add(m, la) > tau;
}

static const char *state_name(int st)
{
	static const char *const n[] = { "free", "not started yet", "running", "waits",
					  "waits (outside)", "ended", "not virtualised" };
	return st >= 0 && st <= VLI_SLOT_OUTSIDE ? n[st] : "?";
}

static void print_id(char *buf, size_t n, int id)
{
	snprintf(buf, n, id_fmt, id);
}

void vli_order_deadlock_exit(int word, const char *report)
{
	if (word == DEADLOCK_STUCK)
		vli_error(4, "virtual order is stuck: the run cannot go on (%s says who waits "
			  "for what)", report);
	if (word == DEADLOCK_CYCLE)
		vli_error(4, "deadlock: every task waits on another (%s says who waits for what)",
			  report);
	vli_error(4, "deadlock: every task waits for a message that no task will send (%s says "
		  "who waits for what)", report);
}

/* The run is deadlocked: stop (a server thread only says so to its task). */
static void die_deadlocked(void)
{
	if (serving) {
		served_deadlock = atomic_load(&vli_bd->deadlock);
		return;
	}
	vli_order_deadlock_exit(atomic_load(&vli_bd->deadlock), "the report above");
}

/* How many of c's members have entered it (in) or are members. */
static int coll_count(const struct vli_coll *c, int in)
{
	int w, k = 0;

	for (w = 0; w < VLI_BOARD_SLOTS / 64; w++)
		k += __builtin_popcountll(in ? c->in[w] & c->member[w] : c->member[w]);
	return k;
}

/* Print the deadlock report (once, by the task that declared it). */
/* The messages on a [topology]'s shared links not yet taken (the first 16),
 * and the nonblocking collectives whose floors hold them back:
 * which one a task waits for, and whether its arrival is final. */
static void report_flows(void)
{
	const vli_ftab *t = &vli_bd->flows;
	int i, k = 0;

	for (i = 0; i < t->hwm; i++) {
		const vli_fent *e = &t->e[i];
		char a[32], b[32];

		if (!e->used || e->consumed)
			continue;
		if (k++ == 16) {
			fprintf(stderr, "vlayer:   (more messages on the shared links)\n");
			break;
		}
		print_id(a, sizeof a, e->src_id);
		print_id(b, sizeof b, e->dst_id);
		if (e->pending)
			fprintf(stderr, "vlayer:   on the shared links: message %u from %s to %s, a "
				"rendezvous not answered yet (leaves at %.9f s at the earliest)\n",
				e->seq, a, b, (double)e->start * 1e-9);
		else if (e->coll_on)
			fprintf(stderr, "vlayer:   on the shared links: message %u of a collective, "
				"from %s to %s, arrival %.9f s (%s)\n", e->seq, a, b,
				(double)e->est * 1e-9, e->final ? "final" : "an estimate");
		else
			fprintf(stderr, "vlayer:   on the shared links: message %u from %s to %s, "
				"arrival %.9f s (%s)\n", e->seq, a, b, (double)e->est * 1e-9,
				e->final ? "final" : "an estimate");
	}
	for (i = 0; i < VLI_BOARD_COLLS; i++)
		if (vli_bd->coll[i].on && vli_bd->coll[i].nb)
			fprintf(stderr, "vlayer:   a nonblocking collective (%d of %d members in, "
				"%d quit) holds back the shared links from %.9f s\n",
				coll_count(&vli_bd->coll[i], 1), vli_bd->coll[i].size,
				vli_bd->coll[i].quit, (double)vli_bd->coll[i].floor * 1e-9);
}

/* Whether every task of the run that has not ended waits on another (a
 * rendezvous send for its receive, a collective for a member): a cycle of
 * such waits, which no choice can break. */
static int all_wait_on_tasks(void)
{
	int i, n = atomic_load(&vli_bd->nslots), any = 0;

	for (i = 0; i < n; i++) {
		vli_slot *s = &vli_bd->slot[i];
		int st = atomic_load(&s->state);

		if (st == VLI_SLOT_FREE || st == VLI_SLOT_EXITED)
			continue;
		if (st != VLI_SLOT_BLOCKED || !atomic_load(&s->wait_on))
			return 0;
		any = 1;
	}
	return any;
}

/* Returns the deadlock word to set. */
static int report_deadlock(int stuck)
{
	int i, n = atomic_load(&vli_bd->nslots), cycle = stuck && all_wait_on_tasks();
	char id[32];

	if (cycle)
		fprintf(stderr, "vlayer: deadlock: every task waits on another - a rendezvous "
			"send (at or above [mpi] eager_limit) for its receive to be posted, or a "
			"collective for a member that has not entered - and nothing is on its "
			"way; the tasks of the run:\n");
	else if (stuck)
		fprintf(stderr, "vlayer: virtual order is stuck: every task waits, nothing is on "
			"its way, and each choice waits for the bound of a task that waits for "
			"another choice (a cycle conservative synchronisation cannot break: see "
			"README, Known limits; ordering = real runs it); the tasks of the run:\n");
	else
		fprintf(stderr, "vlayer: deadlock: every task waits and no message is on its way; "
			"the tasks of the run:\n");
	for (i = 0; i < n; i++) {
		vli_slot *s = &vli_bd->slot[i];
		int st = atomic_load(&s->state);

		char who[48];

		print_id(id, sizeof id, atomic_load(&s->id));
		if (atomic_load(&s->pid) < 0)
			snprintf(who, sizeof who, "on another real host");
		else
			snprintf(who, sizeof who, "pid %d", atomic_load(&s->pid));
		char lb[48] = "";
		int64_t b = atomic_load(&s->lb);

		if (b != VLI_ORDER_NONE && b != atomic_load(&s->now))
			snprintf(lb, sizeof lb, " (bound %.9f s)", (double)b * 1e-9);
		fprintf(stderr, "vlayer:   %s (%s, virtual host %d) at %.9f s%s: %s%s%s\n", id, who,
			s->host, (double)atomic_load(&s->now) * 1e-9, lb,
			state_name(st), st == VLI_SLOT_BLOCKED ? " in " : "",
			st == VLI_SLOT_BLOCKED ? s->what : "");
	}
	report_flows();
	fflush(stderr);
	return cycle ? DEADLOCK_CYCLE : stuck ? DEADLOCK_STUCK : DEADLOCK_DECLARED;
}

static int pid_alive(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	if (pid <= 0)
		return 1;
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return !(p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X'));
}

/* Nothing has moved for a while: is the task that holds everyone back still
 * there? */
static void check_liveness(void)
{
	int i = vli_board_argmin(), st, pid;
	vli_slot *s;
	char id[32];

	if (i < 0 || i == me)
		return;
	s = &vli_bd->slot[i];
	st = atomic_load(&s->state);
	pid = atomic_load(&s->pid);
	print_id(id, sizeof id, atomic_load(&s->id));
	if (st == VLI_SLOT_PENDING) {
		int verdict;

		if (vli_mono_ns() - s->since < PENDING_NS || !probe || atomic_load(&s->id) == 0)
			return;
		verdict = probe(atomic_load(&s->id));
		if (verdict == VLI_PROBE_WAIT)
			return;
		vli_board_lock();
		if (atomic_load(&s->state) == VLI_SLOT_PENDING)
			take_off(i, verdict == VLI_PROBE_DEAD ? VLI_SLOT_EXITED : VLI_SLOT_OUTSIDE);
		vli_board_unlock();
		if (verdict == VLI_PROBE_OUTSIDE)
			vli_warn("task %s does not use vlayer: it is not waited for, and what it "
				 "sends is taken when it really arrives", id);
		return;
	}
	if (pid_alive(pid))
		return;
	vli_board_lock();
	st = atomic_load(&s->state);
	if (st != VLI_SLOT_EXITED && st != VLI_SLOT_OUTSIDE)
		take_off(i, VLI_SLOT_EXITED);
	vli_board_unlock();
	vli_warn("task %s (pid %d) ended without leaving the board (killed?); the others go on "
		 "without it", id, pid);
}

/* Whether no task can move any more although some have bounds: every task
 * waits (none runs, none is outside the board; a test or poll waiting for
 * the bounds counts as waiting), nothing announced or answered is on its
 * way, and every collective waited in still misses a member. */
static int all_stuck(void)
{
	int i, n = atomic_load(&vli_bd->nslots), stuck = 1;

	if (atomic_load(&vli_bd->outside))
		return 0;
	vli_board_lock();
	for (i = 0; i < n && stuck; i++) {
		vli_slot *s = &vli_bd->slot[i];
		int st = atomic_load(&s->state), w;
		uint64_t on = atomic_load(&s->wait_on);
		struct vli_coll *c;

		if (st == VLI_SLOT_FREE || st == VLI_SLOT_EXITED)
			continue;
		if ((st != VLI_SLOT_BLOCKED && !(st == VLI_SLOT_RUNNING && atomic_load(&s->watching))) ||
		    atomic_load(&s->announced) != atomic_load(&s->received) ||
		    sides_behind(s) ||
		    atomic_load(&s->released) != atomic_load(&s->released_seen)) {
			stuck = 0;
			break;
		}
		if (!on || (on & VLI_ON_TASK(0)))
			continue;
		c = coll_of(on, atomic_load(&s->wait_n), 0);
		w = 0;
		stuck = c && next_missing(s, c, &w) >= 0; /* a member it waits for has not entered */
	}
	vli_board_unlock();
	return stuck;
}

static int extern_waiters(void)
{
	int i, n = atomic_load(&vli_bd->nslots);

	for (i = 0; i < n; i++)
		if (atomic_load(&vli_bd->slot[i].state) == VLI_SLOT_EXTERN)
			return 1;
	return 0;
}

void vli_order_sleep(vli_order_wait *w, int how)
{
	int watch_root = how == VLI_SLEEP_ROOT, stuck = 0;
	uint64_t sig[3];
	int64_t t;

	if (vli_order_remote) { vli_order_remote->sleep(w, how, sleep_ms); return; }

	if (!vli_order_on())
		return;
	if (atomic_load(&vli_bd->deadlock) >= DEADLOCK_DECLARED) {
		die_deadlocked();
		return;
	}
	if (vli_order_behind())
		return;
	if (watch_root && !w->watching) {
		atomic_fetch_add(&vli_bd->nwatch, 1);
		atomic_fetch_add(&vli_bd->slot[me].watching, 1);
		w->watching = 1;
		return; /* look again now that the others publish for this task */
	}
	if (watch_root) {
		int64_t cap = (int64_t)sleep_ms * 1000000, eta;

		/* a computing task that holds this one back will have done so much
		 * more CPU work by then, at the earliest: sleep no longer (at least
		 * 20 us) */
		if (!vli_t.cfg.compute_ignore && (eta = refresh_live()) >= 0 && eta < cap)
			cap = eta > 20000 ? eta : 20000;
		vli_board_sleep_ns(&vli_bd->epoch, w->epoch, cap);
		if (!vli_t.cfg.compute_ignore)
			refresh_live();
	}
	else if (how == VLI_SLEEP_KICK)
		vli_board_sleep(&vli_bd->slot[me].kick, w->kick, sleep_ms);
	sig[0] = atomic_load(&vli_bd->epoch);
	sig[1] = atomic_load(&vli_bd->announced);
	sig[2] = atomic_load(&vli_bd->received);
	t = vli_mono_ns();
	if (!w->stall_since || memcmp(sig, w->sig, sizeof sig) != 0) {
		memcpy(w->sig, sig, sizeof sig);
		w->stall_since = t;
		w->last_check = t;
		return;
	}
	if (t - w->last_check < STALL_CHECK_NS)
		return;
	w->last_check = t;
	if (vli_board_root() != VLI_ORDER_NONE) {
		check_liveness();
		/* (a cycle of waits on tasks - rendezvous sends, collectives -
		 * no choice can break: a deadlock, after deadlock_after) */
		if (t - w->stall_since < DEADLOCK_NS || !all_stuck() ||
		    (t - w->stall_since < STUCK_NS && !all_wait_on_tasks()))
			return;
		stuck = 1;
	} else if (t - w->stall_since < DEADLOCK_NS || sig[1] != sig[2] || extern_waiters() ||
		   atomic_load(&vli_bd->outside)) {
		return;
	}
	{
		int expect = 0;
		/* one task reports, while the others still wait (so the report
		 * shows them waiting), then every task stops */
		if (!atomic_compare_exchange_strong(&vli_bd->deadlock, &expect, DEADLOCK_REPORTING))
			return;
	}
	{
		atomic_store(&vli_bd->deadlock, report_deadlock(stuck));
		vli_board_wake_watchers();
		{
			int i, n = atomic_load(&vli_bd->nslots);
			for (i = 0; i < n; i++)
				vli_board_kick(i);
		}
	}
	die_deadlocked();
}

void vli_order_wait_end(vli_order_wait *w)
{
	if (vli_order_remote) { vli_order_remote->wait_end(w); return; }
	if (!vli_order_on())
		return;
	if (w->watching) {
		atomic_fetch_sub(&vli_bd->nwatch, 1);
		atomic_fetch_sub(&vli_bd->slot[me].watching, 1);
		w->watching = 0;
	}
	vli_board_lock();
	atomic_store(&vli_bd->slot[me].now, TASK_NOW());
	set_wait_on(me, 0, 0);
	atomic_store(&vli_bd->slot[me].state, VLI_SLOT_RUNNING);
	set_lb(me, TASK_NOW());
	vli_board_unlock();
}

/* ---- synchronisation points ---- */

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h ? h : 1;
}

/* Under the lock: the gate of key (a free one if new; NULL if all are used). */
static struct vli_gate *gate_of(uint64_t key)
{
	unsigned i, h = (unsigned)(key % VLI_BOARD_GATES);

	for (i = 0; i < VLI_BOARD_GATES; i++) {
		struct vli_gate *g = &vli_bd->gate[(h + i) % VLI_BOARD_GATES];
		if (g->key == key)
			return g;
		if (g->key == 0) {
			g->key = key;
			g->max_entry = INT64_MIN;
			return g;
		}
	}
	return NULL;
}

void vli_order_gate_enter(vli_order_gate *g, const char *key, int count, int64_t entry,
			  const char *what)
{
	struct vli_gate *b;
	int64_t lb = VLI_ORDER_NONE;

	memset(g, 0, sizeof *g);
	g->entry = entry;
	if (vli_order_remote) {
		vli_order_remote->gate_enter(g, key, count, entry, what);
		return;
	}
	if (!vli_order_on())
		return;
	vli_order_wait_begin(&g->w, "%s", what);
	g->key = fnv(key);
	vli_board_lock();
	b = gate_of(g->key);
	if (!b) {
		lb = entry; /* no gate left: wait with this task's own bound */
		g->key = 0;
	} else {
		if (entry > b->max_entry)
			b->max_entry = entry;
		g->gen = b->gen;
		if (++b->in >= count) {
			/* the last to enter: every member leaves at or after the
			 * latest entry, and that is known now */
			lb = b->max_entry;
			b->last_max = b->max_entry;
			b->max_entry = INT64_MIN;
			b->in = 0;
			b->gen++;
		}
	}
	vli_board_unlock();
	vli_order_block(lb, VLI_WAIT_MSG);
}

int64_t vli_order_gate_leave(vli_order_gate *g)
{
	int64_t t = g->entry;
	if (vli_order_remote) return vli_order_remote->gate_leave(g);

	if (!vli_order_on())
		return t;
	if (g->key) {
		struct vli_gate *b;
		vli_board_lock();
		b = gate_of(g->key);
		if (b && b->gen == g->gen + 1)
			t = b->last_max;
		vli_board_unlock();
	}
	vli_order_wait_end(&g->w);
	return t > g->entry ? t : g->entry;
}

void vli_order_tick(void)
{
	if (vli_order_remote) {
		if (vli_t.now > published)
			vli_order_remote->tick(published = vli_t.now);
		return;
	}
	if (!vli_order_on() || TASK_NOW() <= published || atomic_load(&vli_bd->nwatch) == 0 ||
	    vli_board_holding())
		return;
	vli_board_lock();
	if (atomic_load(&vli_bd->slot[me].state) == VLI_SLOT_RUNNING) {
		atomic_store(&vli_bd->slot[me].now, TASK_NOW());
		set_lb(me, TASK_NOW());
	}
	vli_board_unlock();
}

void vli_order_exit(void)
{
	if (vli_order_remote) { vli_order_remote->exit(); return; }
	if (!vli_order_on())
		return;
	/* also from a signal handler (pvm_kill): never wait for the lock there;
	 * without it the others find this task gone by its pid.  Elsewhere wait
	 * for it: a task that ends (MPI_Finalize, pvm_exit) while the others
	 * hold the lock by turns must not stay on the board at its last bound
	 * (its pid lives on in the MPI library's finalize, and the flows it
	 * sent were never final: the ray tracer on a bus hung 1 run in 4) */
	if (!vli_board_holding() && (vli_in_handler ? vli_board_trylock() : (vli_board_lock(), 1))) {
		atomic_store(&vli_bd->slot[me].now, TASK_NOW());
		take_off(me, VLI_SLOT_EXITED);
		vli_board_unlock();
		me = -1;
	}
}
