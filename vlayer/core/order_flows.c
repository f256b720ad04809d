/* order_flows.c - shared links online (issue 13): under ordering = virtual
 * with a [topology], every message between two hosts is a flow in the
 * board's table (flowtab.c), so that the messages of separate calls share
 * the links in virtual time, whatever the real timing.
 *
 * A sender adds its message's flow before its bound passes the departure,
 * so the table holds every flow that can take bandwidth before root + la
 * (the least bound of the run plus the lookahead: a flow takes bandwidth a
 * send and a latency after it leaves).  Each change moves the table's
 * checkpoint there and estimates every open flow's arrival as if no other
 * flow came; a receiver that waits for the message has the estimate as its
 * bound (a lower estimate, when a new flow speeds one up, lowers it: never
 * below the root, since the new flow takes bandwidth after it).
 *
 * An estimate est is final once nothing not in the table can take
 * bandwidth before it: est < (the least bound that counts) + la, where the
 * bounds that count are the other tasks' that can go on without this one,
 * and this task's own clock unless it is committed to receiving the message
 * (then it starts nothing before the message is in).  The arrival a task
 * observes is always final: a receive waits for it (vli_flow_settle), and a
 * choice among messages compares estimates only when vli_order_safe (or
 * vli_flow_settled) holds for its time and no estimate changed meanwhile
 * (vli_flow_epoch).  A task of another real host makes each of these
 * calls through the board server, which makes it in its name on the one
 * table (vli_flow_serve: a round trip each), its collectives' calls too.
 *
 * An MPI rendezvous leaves when its receive is posted, which its sender
 * does not know: it adds the flow pending (vli_flow_pend, at the end of its
 * send time at the earliest) and the receiver resolves it before answering
 * (vli_flow_resolve).  A pending flow can leave no earlier than its
 * receiver can post the receive that takes it: the least post time of the
 * receives it has posted that can take it (naming the source, its blocking
 * wildcard receive in progress, or a nonblocking wildcard receive not
 * chosen yet) or, for receives still to come, its bound; it takes bandwidth
 * its route's latency later, and that time caps what is final
 * (pending_lb_locked).  A wildcard choice compares envelopes, so the
 * rendezvous it takes, which takes bandwidth no earlier than its envelope
 * is in, cannot change what it compares: such a choice does not wait for
 * itself.  A nonblocking wildcard receive (MPI_Irecv(MPI_ANY_SOURCE))
 * chooses as soon as its choice is final, while its task waits for
 * anything (vlayer/mpi/order.c), so its post does not hold that task's
 * other waits back until the program waits for it.
 */
#include <stdlib.h>
#include "vlayer/core/board.h"
#include "vlayer/core/engine.h"

static void (*sleeper)(vli_order_wait *w);

void vli_flow_set_sleeper(void (*fn)(vli_order_wait *w))
{
	sleeper = fn;
}

static int64_t sat_add(int64_t a, int64_t b)
{
	return a >= VLI_ORDER_NONE - b ? VLI_ORDER_NONE : a + b;
}

static int flows_on(void)
{
	return vli_bd && vli_order_slot() >= 0 && vli_net_on(&vli_t.cfg);
}

/* The lookahead of flows (vli_flow_lookahead): the run's, if smaller. */
static int64_t flow_la(void)
{
	static __thread int64_t la = -1;
	int64_t run = atomic_load(&vli_bd->la);

	if (la < 0)
		la = vli_flow_lookahead(&vli_t.cfg);
	return run < la ? run : la;
}

static int my_id(void)
{
	return atomic_load(&vli_bd->slot[vli_order_slot()].id);
}

/* This task's virtual host (a server thread's: its task's) */
static int my_host(void)
{
	return vli_bd->slot[vli_order_slot()].host;
}

/* A task of another real host: its flows are in the board's table too, and
 * each call goes to the board server (vli_flow_serve), which makes it in
 * the task's name. */
static const vli_order_remote_ops *rf(void)
{
	return vli_order_remote && vli_order_remote->flow && vli_net_on(&vli_t.cfg)
		       ? vli_order_remote
		       : NULL;
}

/* (op's arguments: in[0..VLI_FLOW_ARGS-1], and nx ints xs[]) */
static int64_t rcall(int op, const int64_t *in, const int32_t *xs, int nx, int64_t *out)
{
	int64_t o = 0, r = vli_order_remote->flow(op, in, xs, nx, &o);

	if (out)
		*out = o;
	return r;
}
#define RCALL(op, out, ...) rcall(op, (const int64_t[VLI_FLOW_ARGS]){ __VA_ARGS__ }, NULL, 0, out)
#define RCALLX(op, xs, nx, out, ...) \
	rcall(op, (const int64_t[VLI_FLOW_ARGS]){ __VA_ARGS__ }, xs, nx, out)

int vli_flows_online(void)
{
	return flows_on() || rf();
}

static int exited(int slot)
{
	return slot >= 0 && atomic_load(&vli_bd->slot[slot].state) == VLI_SLOT_EXITED;
}

/* Under the lock: the least floor of the nonblocking collectives whose
 * messages are not all in the table (vli_flow_coll_floor).  Until every
 * member is in, a missing member enters no earlier than its bound, and no
 * message leaves before the last entry. */
static int64_t floors_locked(void)
{
	int64_t m = VLI_ORDER_NONE;
	int i;

	for (i = 0; i < VLI_BOARD_COLLS; i++) {
		struct vli_coll *c = &vli_bd->coll[i];
		int64_t f;

		if (c->on && c->nb && (f = vli_order_coll_missing_locked(c, c->floor, 0)) < m)
			m = f;
	}
	if (vli_bd->nownfloors) {
		int n = atomic_load(&vli_bd->nslots), k;

		for (i = 0; i < n; i++)
			for (k = 0; k < VLI_SLOT_FLOORS && !exited(i); k++)
				if (vli_bd->slot[i].nbf[k].on && vli_bd->slot[i].nbf[k].floor < m)
					m = vli_bd->slot[i].nbf[k].floor;
	}
	return m;
}

/* Under the lock: the floors of collective (on, n) on its members' slots
 * (vli_flow_own_floor) no later than v: an estimate of one of its messages
 * got earlier, and a member's later messages come no earlier than it. */
static void own_floors_lower_locked(uint64_t on, uint64_t n, int64_t v)
{
	int ns = atomic_load(&vli_bd->nslots), i, k;

	for (i = 0; i < ns; i++)
		for (k = 0; k < VLI_SLOT_FLOORS; k++)
			if (vli_bd->slot[i].nbf[k].on == on && vli_bd->slot[i].nbf[k].n == n &&
			    vli_bd->slot[i].nbf[k].floor > v)
				vli_bd->slot[i].nbf[k].floor = v;
}

/* Under the lock: the least time a pending rendezvous can take bandwidth:
 * its route's latency after the later of its send's end and the least time
 * its receiver can post a receive that takes it.  ind: after
 * vli_order_others_locked (its receiver's bound counts only if it can go on
 * without this task; committed: this task receives a message now); else
 * every receiver's bound counts.  (A flow that takes bandwidth when another
 * ends, or when a time a choice compares comes, changes neither.) */
static int64_t pending_lb_locked(int ind, int committed)
{
	vli_ftab *t = &vli_bd->flows;
	int64_t m = VLI_ORDER_NONE, p;
	int i;

	for (i = 0; i < t->hwm; i++) {
		vli_fent *e = &t->e[i];

		if (!e->used || !e->pending)
			continue;
		if (exited(e->dst_slot) || exited(e->src_slot)) {
			vli_ftab_resolve(t, i, -1); /* nobody will take it */
			continue;
		}
		if (ind) {
			p = vli_order_postlb_locked(e->dst_slot, committed, e->src_id, e->tag,
						    e->comm);
		} else {
			int64_t q = vli_order_rdv_post_locked(e->dst_slot, e->src_id, e->tag,
							      e->comm);

			p = atomic_load(&vli_bd->slot[e->dst_slot].lb);
			if (q < p)
				p = q;
		}
		if (p < e->start)
			p = e->start;
		p = sat_add(p, e->lat);
		if (p < m)
			m = p;
	}
	if ((vli_bd->nfloors || vli_bd->nownfloors) && (p = floors_locked()) < m)
		m = p;
	return m;
}

/* The latest estimate that is final: nothing not in the table takes
 * bandwidth before it (b: the least bound that counts, pend: the least time
 * a pending rendezvous takes bandwidth). */
static int64_t final_limit(int64_t b, int64_t pend)
{
	b = sat_add(b, flow_la());
	return pend < b ? pend : b;
}

static void kick_add(int *kick, int nk, int *n, int slot)
{
	if (slot >= 0 && *n < nk)
		kick[(*n)++] = slot;
}

/* Under the lock: move the checkpoint to root + la (or the earliest a
 * pending rendezvous can leave + la, if less), estimate, lower the bounds of
 * the tasks that wait for a flow that got earlier; kick[] (n) gets those
 * whose estimate changed.  Returns how many. */
static int update_locked(int *kick, int nk)
{
	vli_ftab *t = &vli_bd->flows;
	int64_t safe = final_limit(vli_board_root(), pending_lb_locked(0, 0));
	int i, n = 0, changed = vli_ftab_update(t, &vli_t.cfg, safe);

	if (t->nlate && !t->late_told) {
		/* (once a run: the first such message) */
		t->late_told = 1;
		vli_warn("messages on the [topology]'s links were timed before every message "
			 "sharing the links with them was known (the first: from task %d to task "
			 "%d, leaving at %.9f s): their times are approximate (a member of a "
			 "collective on shared links went on before members it shares links with "
			 "entered: README, Known limits)",
			 t->late_src, t->late_dst, (double)t->late_start / 1e9);
	}
	if (!changed)
		return 0;
	for (i = 0; i < t->hwm; i++) {
		if (t->e[i].used && !t->e[i].in_sim && !t->e[i].pending && exited(t->e[i].dst_slot)) {
			t->e[i].need = 1;
			vli_ftab_consume(t, i); /* nobody will take it */
			continue;
		}
		vli_fent *e = &t->e[i];

		if (!e->used || !e->changed)
			continue;
		e->changed = 0;
		if (!e->final) {
			if (e->dst_slot >= 0)
				vli_order_lower_locked(e->dst_slot, e->est);
			if (e->src_slot >= 0)
				vli_order_lower_locked(e->src_slot, e->est);
			/* a collective's: every member waits for it (coll_wait) */
			if (e->coll_on) {
				vli_order_coll_lower_locked(e->coll_on, e->coll_n, e->est);
				if (vli_bd->nownfloors)
					own_floors_lower_locked(e->coll_on, e->coll_n, e->est);
			}
		}
		kick_add(kick, nk, &n, e->dst_slot);
		kick_add(kick, nk, &n, e->src_slot);
	}
	return n;
}

static void kick_all(const int *kick, int n)
{
	int i;

	if (n)
		vli_board_wake_watchers();
	for (i = 0; i < n; i++)
		vli_board_kick(kick[i]);
}

/* The board slot of the receiver of a message to dst_id on dst_host that
 * is a flow; -1 if it is not (see vli_flow_send). */
static int flow_dst(int dst_id, int dst_host)
{
	int d;
	vli_slot *s;

	if (!flows_on() || dst_host < 0 || dst_host >= vli_t.cfg.nhosts || dst_host == my_host() ||
	    my_host() < 0 || (d = vli_board_find(dst_id)) < 0)
		return -1;
	s = &vli_bd->slot[d];
	if (atomic_load(&s->state) == VLI_SLOT_OUTSIDE || atomic_load(&s->state) == VLI_SLOT_EXITED)
		return -1; /* none to receive it (a task not started yet is taken
			      for one that will; one of another real host reads its
			      flows through the board server) */
	return d;
}

int vli_flow_send(int dst_id, int dst_host, int64_t bytes, int64_t depart, uint32_t seq,
		  int64_t *est)
{
	static int warned;
	int d, i, kick[64], nk;

	if (rf())
		return (int)RCALL(VLI_FLOW_SEND, est, dst_id, dst_host, bytes, depart, seq);
	if ((d = flow_dst(dst_id, dst_host)) < 0)
		return 0;
	vli_board_lock();
	i = vli_ftab_add(&vli_bd->flows, my_id(), seq, dst_id, d, my_host(), dst_host, bytes, depart);
	if (i < 0) {
		vli_board_unlock();
		if (!warned++)
			vli_warn("more than %d messages on the [topology]'s links at once: the "
				 "others take their contention-free time, in real order",
				 VLI_FTAB_N);
		return 0;
	}
	nk = update_locked(kick, 64);
	*est = vli_bd->flows.e[i].est;
	vli_board_unlock();
	kick_all(kick, nk);
	return 1;
}

/* The flow (src_id, seq) to dst_id (one of them this task, -1: this
 * task): 0 if none (or a pending rendezvous); else its arrival in *arr, 1 if
 * final, 2 if an estimate.  committed: this task waits for it now. */
static int arrival_of(int src_id, uint32_t seq, int dst_id, int64_t *arr, int committed,
		      int consume)
{
	int i, r, kick[64], nk = 0;
	vli_fent *e;

	if (rf())
		return (int)RCALL(VLI_FLOW_ARRIVAL, arr, src_id, seq, dst_id, committed, consume);
	if (!flows_on())
		return 0;
	if (src_id < 0)
		src_id = my_id();
	if (dst_id < 0)
		dst_id = my_id();
	vli_board_lock();
	i = vli_ftab_find(&vli_bd->flows, src_id, seq, dst_id);
	if (i < 0 || vli_bd->flows.e[i].pending) {
		vli_board_unlock();
		return 0;
	}
	e = &vli_bd->flows.e[i];
	if (!e->final) {
		int64_t b = vli_order_others_locked();

		nk = update_locked(kick, 64);
		/* (not committed: this task's own limit counts - a task waiting
		 * for any of several requests starts nothing before the bound it
		 * published either) */
		if (!committed && vli_order_own_limit_locked() < b)
			b = vli_order_own_limit_locked();
		/* (a flow that takes bandwidth when e ends does not change its end) */
		if (!e->final && e->est <= final_limit(b, pending_lb_locked(1, committed)))
			e->final = 1;
	}
	*arr = e->est;
	r = e->final ? 1 : 2;
	if (r == 1 && consume)
		vli_ftab_consume(&vli_bd->flows, i);
	vli_board_unlock();
	kick_all(kick, nk);
	return r;
}

static int arrival(int src_id, uint32_t seq, int64_t *arr, int committed, int consume)
{
	return vli_flows_online() ? arrival_of(src_id, seq, -1, arr, committed, consume) : 0;
}

int vli_flow_arrival(int src_id, uint32_t seq, int64_t *arr)
{
	return arrival(src_id, seq, arr, 0, 0);
}

int vli_flow_arrival_in(int src_id, uint32_t seq, int64_t *arr, int committed)
{
	return arrival(src_id, seq, arr, committed, 0);
}

int vli_flow_sent_arrival(int dst_id, uint32_t seq, int64_t *arr)
{
	return vli_flow_sent_arrival_in(dst_id, seq, arr, 0);
}

int vli_flow_sent_arrival_in(int dst_id, uint32_t seq, int64_t *arr, int committed)
{
	return vli_flows_online() ? arrival_of(-1, seq, dst_id, arr, committed, 0) : 0;
}

void vli_flow_sent_forget(int dst_id, uint32_t seq, int cancelled)
{
	int i;

	if (rf()) {
		RCALL(VLI_FLOW_FORGET, NULL, dst_id, seq, cancelled);
		return;
	}
	if (!flows_on())
		return;
	vli_board_lock();
	i = vli_ftab_find(&vli_bd->flows, my_id(), seq, dst_id);
	if (i >= 0 && vli_bd->flows.e[i].src_slot >= 0) {
		if (cancelled && vli_bd->flows.e[i].pending)
			vli_ftab_resolve(&vli_bd->flows, i, -1);
		else
			vli_ftab_consume(&vli_bd->flows, i);
	}
	vli_board_unlock();
}

int vli_flow_pend(int dst_id, int dst_host, int64_t bytes, int64_t ready, uint32_t seq, int tag,
		  uint64_t comm)
{
	static int warned;
	int d, i;

	if (rf())
		return (int)RCALL(VLI_FLOW_PEND, NULL, dst_id, dst_host, bytes, ready, seq, tag,
				  (int64_t)comm);
	if ((d = flow_dst(dst_id, dst_host)) < 0)
		return 0;
	vli_board_lock();
	i = vli_ftab_pend(&vli_bd->flows, my_id(), seq, dst_id, d, vli_order_slot(), my_host(),
			  dst_host, bytes, ready);
	if (i >= 0) {
		vli_bd->flows.e[i].lat = vli_net_latency(&vli_t.cfg, my_host(), dst_host);
		vli_bd->flows.e[i].tag = tag;
		vli_bd->flows.e[i].comm = comm;
	}
	vli_board_unlock();
	if (i < 0 && !warned++)
		vli_warn("more than %d messages on the [topology]'s links at once: the others "
			 "take their contention-free time, in real order", VLI_FTAB_N);
	return i >= 0;
}

void vli_flow_resolve(int src_id, uint32_t seq, int64_t start)
{
	int i, kick[64], nk = 0;

	if (rf()) { /* (answered: applied before the sender learns the answer) */
		RCALL(VLI_FLOW_RESOLVE, NULL, src_id, seq, start);
		return;
	}
	if (!flows_on())
		return;
	vli_board_lock();
	i = vli_ftab_find(&vli_bd->flows, src_id, seq, my_id());
	if (i >= 0 && vli_bd->flows.e[i].pending) {
		vli_ftab_resolve(&vli_bd->flows, i, start);
		nk = update_locked(kick, 64);
	}
	vli_board_unlock();
	/* the others may be waiting for it to leave */
	vli_board_wake_watchers();
	kick_all(kick, nk);
}

int vli_flow_settled(int64_t tau, int committed)
{
	int64_t b, p;
	int kick[64], nk;

	if (rf())
		return (int)RCALL(VLI_FLOW_SETTLED, NULL, tau, committed);
	if (!flows_on() || !vli_bd->flows.hwm)
		return 1;
	vli_board_lock();
	nk = update_locked(kick, 64);
	b = vli_order_others_locked();
	p = pending_lb_locked(1, committed);
	vli_board_unlock();
	kick_all(kick, nk);
	/* (a rendezvous a wildcard choice takes takes bandwidth once its
	 * envelope is in: no earlier than the time the choice compares) */
	return tau < sat_add(b, flow_la()) && tau <= p;
}

uint32_t vli_flow_epoch(void)
{
	if (rf())
		return (uint32_t)RCALL(VLI_FLOW_EPOCH, NULL, 0);
	return vli_bd ? __atomic_load_n(&vli_bd->flows.epoch, __ATOMIC_ACQUIRE) : 0;
}

/* This task's id (for the stuck report) */
static int self_id(void)
{
	return flows_on() ? my_id() : vli_t.id;
}

/* Wait until flow (src_id, seq) to dst_id is final (this task is one of
 * the two); arr if it is not a flow. */
static int64_t settle(int src_id, uint32_t seq, int dst_id, int64_t arr, int keep)
{
	vli_order_wait w;
	int64_t a;
	int r = arrival_of(src_id, seq, dst_id, &a, 1, !keep);

	if (!r)
		return arr;
	if (r == 2) {
		vli_order_wait_begin(&w, "the arrival of message %u from %d to %d on shared links",
				     seq, src_id < 0 ? self_id() : src_id,
				     dst_id < 0 ? self_id() : dst_id);
		for (;;) {
			vli_order_snap(&w);
			vli_order_block(a, VLI_WAIT_MSG);
			if ((r = arrival_of(src_id, seq, dst_id, &a, 1, !keep)) != 2)
				break;
			if (sleeper)
				sleeper(&w);
			else
				vli_order_sleep(&w, VLI_SLEEP_ROOT);
		}
		vli_order_wait_end(&w);
	}
	return r ? a : arr;
}

int64_t vli_flow_settle(int src_id, uint32_t seq, int64_t arr, int keep)
{
	return vli_flows_online() ? settle(src_id, seq, -1, arr, keep) : arr;
}

int64_t vli_flow_settle_sent(int dst_id, uint32_t seq, int64_t cf)
{
	return vli_flows_online() ? settle(-1, seq, dst_id, cf, 0) : cf;
}

/* The board server's side of a task of another real host (order_net.c,
 * serving as that task): its call op with arguments in[]; *out: the
 * arrival or estimate it gives back. */
int64_t vli_flow_serve(int op, const int64_t *in, int32_t *xs, int nx, int64_t *out)
{
	*out = 0;
	switch (op) {
	case VLI_FLOW_COLL_OK:
		return vli_flow_coll_ok(nx, xs);
	case VLI_FLOW_COLL_ADD:
		return vli_flow_coll_add((uint64_t)in[0], (uint64_t)in[1], (int)in[2], (uint32_t)in[3],
					 (int)in[4], (int)in[5], (int)in[6], (int)in[7], in[8], in[9]);
	case VLI_FLOW_COLL_END:
		return vli_flow_coll_end((int)in[0], (uint64_t)in[1], (uint64_t)in[2], (uint32_t)in[3],
					 (int)in[4], out);
	case VLI_FLOW_COLL_LB:
		return vli_order_coll_lb((uint64_t)in[0], (uint64_t)in[1]);
	case VLI_FLOW_COLL_FLOOR:
		return vli_flow_coll_floor((uint64_t)in[0], (uint64_t)in[1], (int)in[2], in[3],
					   (uint32_t)in[4]);
	case VLI_FLOW_COLL_QUIT:
		vli_flow_coll_quit((uint64_t)in[0], (uint64_t)in[1], (uint32_t *)xs, nx);
		return 0;
	case VLI_FLOW_OWN_FLOOR:
		return vli_flow_own_floor((uint64_t)in[0], (uint64_t)in[1], (int)in[2], in[3],
					  (uint32_t)in[4]);
	case VLI_FLOW_HOLD:
		return vli_order_hold(in[0], (uint32_t)in[1]);
	case VLI_FLOW_OWN_BOUND:
		return vli_order_own_bound();
	case VLI_FLOW_SEND:
		return vli_flow_send((int)in[0], (int)in[1], in[2], in[3], (uint32_t)in[4], out);
	case VLI_FLOW_ARRIVAL:
		return arrival_of((int)in[0], (uint32_t)in[1], (int)in[2], out, (int)in[3], (int)in[4]);
	case VLI_FLOW_FORGET:
		vli_flow_sent_forget((int)in[0], (uint32_t)in[1], (int)in[2]);
		return 0;
	case VLI_FLOW_PEND:
		return vli_flow_pend((int)in[0], (int)in[1], in[2], in[3], (uint32_t)in[4], (int)in[5],
				     (uint64_t)in[6]);
	case VLI_FLOW_RESOLVE:
		vli_flow_resolve((int)in[0], (uint32_t)in[1], in[2]);
		return 0;
	case VLI_FLOW_SETTLED:
		return vli_flow_settled(in[0], (int)in[1]);
	case VLI_FLOW_EPOCH:
		return vli_flow_epoch();
	case VLI_FLOW_WILD:
		vli_order_set_wild_post(in[0], (int)in[1], (uint64_t)in[2]);
		return 0;
	default:
		return 0;
	}
}

/* ---- the messages of a blocking MPI collective (vlayer/coll/run_links.c) ----
 * Every member simulates the whole collective; its messages between hosts
 * are flows of the table, added by the first member that gets to each
 * (keyed by the collective and the message's index in the schedule, the
 * same on every member) and read by each (need = the members).  A member
 * takes an arrival only once final, as a receiver committed to it does: its
 * own bound is left out, the other members' count.  A member whose
 * simulation waits publishes the least estimate of the arrivals it waits
 * for as its bound (vli_flow_wait_for): no rank of the collective starts a
 * message before it; an estimate that gets earlier lowers every member's
 * (update_locked). */

int vli_flow_coll_ok(int count, const int *ids)
{
	int k;

	if (rf())
		return count <= VLI_BOARD_SLOTS && (int)RCALLX(VLI_FLOW_COLL_OK, ids, count, NULL, 0);
	if (!flows_on())
		return 0;
	for (k = 0; k < count; k++)
		if (vli_board_find(ids[k]) < 0)
			return 0; /* a member without a slot: the collective alone */
	return 1;
}

int vli_flow_coll_add(uint64_t on, uint64_t n, int need, uint32_t k, int src_id, int dst_id,
		      int src_host, int dst_host, int64_t bytes, int64_t start)
{
	static int warned;
	int i, kick[64], nk = 0;

	if (rf())
		return (int)RCALL(VLI_FLOW_COLL_ADD, NULL, (int64_t)on, (int64_t)n, need, k, src_id,
				  dst_id, src_host, dst_host, bytes, start);
	vli_board_lock();
	i = vli_ftab_find_coll(&vli_bd->flows, on, n, k);
	if (i < 0) {
		struct vli_coll *c = vli_order_coll_locked(on, n);

		if (c)
			need -= c->quit; /* (members gone on: they read it no more) */
		i = vli_ftab_add_coll(&vli_bd->flows, on, n, k, need, src_id, dst_id, src_host,
				      dst_host, bytes, start);
		if (i >= 0)
			nk = update_locked(kick, 64);
	}
	vli_board_unlock();
	kick_all(kick, nk);
	if (i < 0 && !warned++)
		vli_warn("more than %d messages on the [topology]'s links at once: the others "
			 "take their contention-free time", VLI_FTAB_N);
	return i;
}

int vli_flow_coll_end(int i, uint64_t on, uint64_t n, uint32_t k, int committed, int64_t *arr)
{
	vli_fent *e;
	int kick[64], nk, r;

	if (rf())
		return (int)RCALL(VLI_FLOW_COLL_END, arr, i, (int64_t)on, (int64_t)n, k, committed);
	vli_board_lock();
	e = &vli_bd->flows.e[i];
	if (!e->used || e->coll_on != on || e->coll_n != n || e->seq != k)
		vli_error(3, "the table of flows lost message %u of a collective", k);
	if (!e->final) {
		int64_t b = vli_order_others_locked();

		nk = update_locked(kick, 64);
		/* (a member that waits for something else: its own bound counts) */
		if (!committed && vli_order_own_limit_locked() < b)
			b = vli_order_own_limit_locked();
		if (!e->final && e->est <= final_limit(b, pending_lb_locked(1, committed)))
			e->final = 1;
	} else {
		nk = 0;
	}
	*arr = e->est;
	r = e->final;
	if (r)
		vli_ftab_consume(&vli_bd->flows, i);
	vli_board_unlock();
	kick_all(kick, nk);
	return r;
}

static void floor_off_locked(struct vli_coll *c)
{
	if (c->nb) {
		c->nb = 0;
		vli_bd->nfloors--;
	}
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

void vli_flow_coll_quit(uint64_t on, uint64_t n, uint32_t *taken, int nt)
{
	vli_ftab *t;
	struct vli_coll *c;
	int i;

	if (rf()) {
		RCALLX(VLI_FLOW_COLL_QUIT, (const int32_t *)taken, nt, NULL, (int64_t)on, (int64_t)n);
		return;
	}
	t = &vli_bd->flows;
	if (nt > 0)
		qsort(taken, (size_t)nt, sizeof *taken, cmp_u32);
	vli_board_lock();
	if ((c = vli_order_coll_locked(on, n)) && ++c->quit >= c->size)
		floor_off_locked(c); /* (every member's messages are in) */
	for (i = 0; i < t->hwm; i++)
		if (t->e[i].used && !t->e[i].consumed && t->e[i].coll_on == on &&
		    t->e[i].coll_n == n &&
		    (nt == 0 || !bsearch(&t->e[i].seq, taken, (size_t)nt, sizeof *taken, cmp_u32)))
			vli_ftab_unread(t, i);
	vli_board_unlock();
}

int vli_flow_coll_floor(uint64_t on, uint64_t n, int op, int64_t t, uint32_t epoch)
{
	struct vli_coll *c;
	int r = 0;

	if (rf())
		return (int)RCALL(VLI_FLOW_COLL_FLOOR, NULL, (int64_t)on, (int64_t)n, op, t, epoch);
	if (!flows_on())
		return 0;
	vli_board_lock();
	c = vli_order_coll_locked(on, n);
	if (!c) {
		r = 0;
	} else if (op == VLI_FLOOR_ENTER) {
		if (!c->nb && !c->quit) {
			c->nb = 1;
			c->floor = t;
			vli_bd->nfloors++;
		} else if (c->nb && t > c->floor) {
			c->floor = t;
		}
		r = c->nb;
	} else if (op == VLI_FLOOR_RAISE) {
		/* (an estimate that changed since the simulation read them may
		 * have lowered what it waits for: not then) */
		if (c->nb && t > c->floor && epoch == vli_bd->flows.epoch) {
			c->floor = t;
			r = 1;
		}
	} else {
		floor_off_locked(c);
	}
	vli_board_unlock();
	if (op != VLI_FLOOR_ENTER)
		vli_board_wake_watchers(); /* (flows it held back may be final) */
	return r;
}

int vli_flow_own_floor(uint64_t on, uint64_t n, int op, int64_t t, uint32_t epoch)
{
	int me, k, r = 0;
	vli_slot *s;

	if (rf())
		return (int)RCALL(VLI_FLOW_OWN_FLOOR, NULL, (int64_t)on, (int64_t)n, op, t, epoch);
	if (!flows_on() || (me = vli_order_slot()) < 0)
		return 0;
	s = &vli_bd->slot[me];
	vli_board_lock();
	for (k = 0; k < VLI_SLOT_FLOORS; k++)
		if (s->nbf[k].on == on && s->nbf[k].n == n)
			break;
	if (op == VLI_FLOOR_ENTER) {
		/* (a member's message that waits for this entry leaves no
		 * earlier than it: the floors the others raised while this
		 * member was not in - its bound held that - come down to it,
		 * and one raised on what it read before cannot go up now) */
		own_floors_lower_locked(on, n, t);
		vli_bd->flows.epoch++;
		if (k == VLI_SLOT_FLOORS)
			for (k = 0; k < VLI_SLOT_FLOORS && s->nbf[k].on; k++)
				;
		if (k < VLI_SLOT_FLOORS) {
			if (!s->nbf[k].on)
				vli_bd->nownfloors++;
			s->nbf[k].on = on;
			s->nbf[k].n = n;
			s->nbf[k].floor = t;
			r = 1;
		}
	} else if (k < VLI_SLOT_FLOORS && op == VLI_FLOOR_RAISE) {
		/* (an estimate that changed since the simulation read them may
		 * have lowered what it waits for: not then) */
		if (t > s->nbf[k].floor && epoch == vli_bd->flows.epoch) {
			s->nbf[k].floor = t;
			r = 1;
		}
	} else if (k < VLI_SLOT_FLOORS) {
		s->nbf[k].on = 0;
		vli_bd->nownfloors--;
		r = 1;
	}
	vli_board_unlock();
	if (op != VLI_FLOOR_ENTER && r)
		vli_board_wake_watchers(); /* (flows it held back may be final) */
	return r;
}

int vli_flow_hold(int64_t lb, uint32_t epoch)
{
	return rf() ? (int)RCALL(VLI_FLOW_HOLD, NULL, lb, epoch) : vli_order_hold(lb, epoch);
}



int vli_flow_wait_for(int (*step)(void *arg, int64_t *lb), void *arg, const char *what)
{
	vli_order_wait w;
	int64_t lb = 0, last = INT64_MIN, pub = INT64_MIN;
	int rc, waiting = 0;

	for (;;) {
		uint32_t ep = vli_flow_epoch();

		if (waiting)
			vli_order_snap(&w);
		if ((rc = step(arg, &lb)) != 0)
			break;
		if (!waiting) {
			vli_order_wait_begin(&w, "%s", what);
			waiting = 1;
			continue; /* (look again after the snapshot) */
		}
		/* publish lb, unless an estimate changed since the step read them;
		 * again if a flow that got earlier lowered it meanwhile */
		if (lb != last || vli_order_own_bound() != pub) {
			if (vli_flow_hold(lb, ep)) {
				last = lb;
				/* (what it set: read back, a flow's lowering right
				 * after - a message to this task, which takes
				 * nothing before the collective's end - would pass
				 * for it and never be raised again: wmix's first
				 * scatter stuck, 1 run in 12 beside a CPU hog) */
				pub = lb > vli_t.now ? lb : vli_t.now;
			}
			continue;
		}
		if (sleeper)
			sleeper(&w);
		else
			vli_order_sleep(&w, VLI_SLEEP_ROOT);
	}
	if (waiting)
		vli_order_wait_end(&w);
	return rc;
}
