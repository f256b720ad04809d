/* groups.c - group operations in the PVM front end.  pvm_barrier is timed by
 * the engine's collective simulation: after the real barrier the members
 * exchange their virtual entry times in the layer's own messages and each
 * leaves at the time the [collectives] barrier algorithm gives it.  The other
 * group operations run libgpvm3's own algorithm, whose messages are timed one
 * by one by the send and receive paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include "vlayer/core/engine.h"
#include "vlayer/coll/coll.h"
#include "vlayer/pvm/pvm_internal.h"

#define VLPVM_TAG_BARRIER 0x7f564c01 /* the layer's barrier time exchange */

/* The tids of group's instances 0, 1 ... (up to count and max members;
 * gives up after 64 missing instances in a row).  Returns how many. */
static int group_tids(const char *group, int count, int *tids, int max)
{
	int n = 0, inst, t, misses = 0;

	for (inst = 0; n < count && n < max && misses < 64; inst++) {
		t = vlpvm_real_pvm_gettid((char *)group, inst);
		if (t > 0) {
			tids[n++] = t;
			misses = 0;
		} else {
			misses++;
		}
	}
	return n;
}

/* The layer's own message carrying times t[0..nt) to tids[0..n).  It has no
 * virtual arrival of its own; under virtual order it is announced at the
 * sender's time (no member leaves the barrier before that). */
static void send_times_internal(const int *tids, int n, const int64_t *t, int nt)
{
	int b = vlpvm_real_pvm_mkbuf(PvmDataDefault), w, i;
	struct vlpvm_dest d[VLPVM_MAX_MCAST];

	vlpvm_real_pvm_setsbuf(b);
	for (i = 0; i < nt; i++)
		vlpvm_pk64(t[i]);
	for (i = 0; i < n; i++) {
		d[i].tid = tids[i];
		d[i].seq = 0;
		d[i].t0 = d[i].t1 = vli_t.now;
		d[i].arrival = INT64_MIN; /* none: taken at the receiver's time */
		d[i].announced = vli_order_announce_in(tids[i], vli_t.now, vlpvm_side_for(tids[i]));
	}
	w = vlpvm_wrap(b, d, n, VLPVM_HDR_INTERNAL);
	if (n == 1)
		vlpvm_real_pvm_send(tids[0], VLPVM_TAG_BARRIER);
	else
		vlpvm_real_pvm_mcast((int *)tids, n, VLPVM_TAG_BARRIER);
	vlpvm_real_pvm_freebuf(w);
	vlpvm_real_pvm_freebuf(b);
}

/* Receive the layer's message of nt times from tid into t. */
static void recv_times_internal(int from, int64_t *t, int nt)
{
	int b = vlpvm_vrecv(from, VLPVM_TAG_BARRIER, 1), i;

	for (i = 0; i < nt; i++)
		t[i] = vlpvm_upk64();
	vlpvm_real_pvm_freebuf(b);
}

/* barrier: the real one synchronises; then the member with the lowest
 * instance gathers every member's entry time and sends all of them back, and
 * each member runs the engine's simulation of the [collectives] barrier
 * algorithm over the members in instance order (as an MPI_Barrier is timed)
 * and leaves at the time it gives it. */
int vlpvm_barrier(char *group, int count)
{
	int tids[VLPVM_MAX_MCAST], host[VLPVM_MAX_MCAST], n, i, me = 0, cc, sbuf, rbuf;
	int64_t t0 = vli_t.now, entry[VLPVM_MAX_MCAST];
	vlcoll_out out[VLPVM_MAX_MCAST];
	vlcoll_in in;

	{
		/* virtual order: no member leaves before the last one enters */
		vli_order_gate g;
		char key[300], what[300];
		int n = count >= 0 ? count : vlpvm_real_pvm_gsize(group);

		snprintf(key, sizeof key, "pvm_barrier:%s", group ? group : "");
		snprintf(what, sizeof what, "pvm_barrier(%s, %d)", group ? group : "?", count);
		vli_order_gate_enter(&g, key, n, t0, what);
		cc = vlpvm_real_pvm_barrier(group, count);
		vli_order_gate_leave(&g);
	}
	if (cc < 0)
		return cc;
	if (count < 0)
		count = vlpvm_real_pvm_gsize(group);
	n = group_tids(group, count, tids, VLPVM_MAX_MCAST);
	for (i = 0; i < n; i++) {
		host[i] = vlpvm_host_of(tids[i]);
		if (tids[i] == vli_t.id)
			me = i;
	}
	entry[me] = t0;
	sbuf = vlpvm_real_pvm_setsbuf(0);
	rbuf = vlpvm_real_pvm_setrbuf(0);
	if (n > 1 && me == 0) {
		for (i = 1; i < n; i++)
			recv_times_internal(tids[i], &entry[i], 1);
		send_times_internal(tids + 1, n - 1, entry, n);
	} else if (n > 1) {
		send_times_internal(tids, 1, &t0, 1);
		recv_times_internal(tids[0], entry, n);
	}
	vlpvm_real_pvm_setsbuf(sbuf);
	vlpvm_real_pvm_setrbuf(rbuf);
	in.kind = VL_KIND_BARRIER;
	in.alg = vli_t.cfg.mpi.coll_alg[VL_KIND_BARRIER];
	in.p = n;
	in.root = 0;
	in.host = host;
	in.entry = entry;
	in.bytes = NULL;
	in.variant = VLCOLL_PLAIN;
	if (n > 1 && vlcoll_sim(&vli_t.cfg, &in, out) == 0) {
		vli_wait_until(vli_t.now + out[me].wait);
		vli_comm(out[me].comm);
	}
	vli_trace_msg(VL_EV_COLL, n > 0 ? tids[0] : -1, VL_COLL_BARRIER, 0, 0, t0, vli_t.now,
		      n > 1 ? out[me].wait : 0, n, 0);
	return cc;
}

/* freezegroup waits until size members have joined and called it: under
 * virtual order no member leaves before the last one called it (it costs no
 * time otherwise); under ordering = real it is not timed. */
int vlpvm_freezegroup(char *group, int size)
{
	vli_order_gate g;
	char key[300], what[300];
	int cc, n = size >= 0 ? size : vlpvm_real_pvm_gsize(group);

	snprintf(key, sizeof key, "pvm_freezegroup:%s", group ? group : "");
	snprintf(what, sizeof what, "pvm_freezegroup(%s, %d)", group ? group : "?", size);
	vli_order_gate_enter(&g, key, n, vli_t.now, what);
	cc = vlpvm_real_pvm_freezegroup(group, size);
	vli_wait_until(vli_order_gate_leave(&g));
	return cc;
}

/* libgpvm3's pvm_reduce combines per host: it asks the group server for
 * the coordinator of its host (pvm_grphostinfo: that host's first member, how
 * many members the host has, how many hosts), the members send to their
 * coordinator, the coordinators to the root.  It names its host by
 * pvm_tidtohost, which shows virtual hosts, of which the group server knows
 * nothing: it answered with no coordinator, and every pvm_reduce on a
 * machine of several virtual hosts failed (pvm_send(): Bad parameter).  The
 * layer answers for a virtual host from the members' virtual hosts, so the
 * reduction combines as it would on the modelled machine. */
int vlpvm_grphostinfo(char *group, int host, int *coord, int *nmem, int *nhosts)
{
	int *tids, *keys, n, i, j, h = -1, c = -1, m = 0, k = 0;
	unsigned vh = ((unsigned)host >> 18) & 0xfff;

	if (((unsigned)host & 0x8003ffffu) == 0x80000000u && vh >= 1 &&
	    vh <= (unsigned)vli_t.cfg.nhosts)
		h = (int)vh - 1;
	if (h < 0)
		return vlpvm_real_pvm_grphostinfo(group, host, coord, nmem, nhosts);
	n = vlpvm_real_pvm_gsize(group);
	if (n < 0)
		return n;
	if (!(tids = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *tids)))
		return PvmNoMem;
	keys = tids + (n > 0 ? n : 1);
	n = group_tids(group, n, tids, n);
	for (i = 0; i < n; i++) {
		int key = vlpvm_tidtohost(tids[i]);

		if (vlpvm_host_of(tids[i]) == h) {
			if (c < 0)
				c = tids[i]; /* the lowest instance on the host */
			m++;
		}
		for (j = 0; j < k && keys[j] != key; j++)
			;
		if (j == k)
			keys[k++] = key;
	}
	free(tids);
	if (c < 0)
		return PvmNotInGroup;
	*coord = c;
	*nmem = m;
	*nhosts = k;
	return 0;
}

/* The other group operations run libgpvm3's own algorithm; the messages it
 * sends and receives inside them go through this layer and are timed and
 * traced one by one, so the operation itself needs no record of its own. */
#define GROUP_OP(name, kind, call) \
	{                          \
		return call;       \
	}

int vlpvm_bcast(char *group, int tag)
GROUP_OP(bcast, VL_COLL_BCAST, vlpvm_real_pvm_bcast(group, tag))

int vlpvm_reduce(vlpvm_reduce_fn func, void *data, int count, int datatype, int msgtag, char *group,
		 int root)
GROUP_OP(reduce, VL_COLL_REDUCE, vlpvm_real_pvm_reduce(func, data, count, datatype, msgtag, group, root))

int vlpvm_gather(void *result, void *data, int count, int datatype, int msgtag, char *group,
		 int root)
GROUP_OP(gather, VL_COLL_GATHER, vlpvm_real_pvm_gather(result, data, count, datatype, msgtag, group, root))

int vlpvm_scatter(void *result, void *data, int count, int datatype, int msgtag, char *group,
		  int root)
GROUP_OP(scatter, VL_COLL_SCATTER, vlpvm_real_pvm_scatter(result, data, count, datatype, msgtag, group, root))

/* pvm_joingroup: the group server numbers the members in the order their
 * requests reach it.  Under virtual order the requests go in the order of
 * the members' virtual times (ties: the smaller tid first), so the instance
 * numbers - and what the program does with them, libgpvm3's choice of each
 * host's coordinator too - do not depend on real scheduling. */
int vlpvm_joingroup(char *group)
{
	vli_order_wait w;
	int waiting = 0;

	vli_depth++; /* (libpvm's clock reads here are the layer's, not the program's) */
	while (vli_order_on() && !vli_order_turn(vli_t.now)) {
		if (!waiting) {
			vli_order_wait_begin(&w, "pvm_joingroup(%s)", group ? group : "(null)");
			waiting = 1;
		}
		vli_order_snap(&w);
		/* messages announced to it must be in for its bound to rise */
		vlpvm_take_in();
		vli_order_block(vli_t.now, VLI_WAIT_POLL);
		if (vli_order_turn(vli_t.now))
			break;
		vli_order_sleep(&w, VLI_SLEEP_ROOT);
	}
	if (waiting)
		vli_order_wait_end(&w);
	vli_depth--;
	return vlpvm_real_pvm_joingroup(group);
}

int vlpvm_lvgroup(char *group)
GROUP_OP(lvgroup, VL_COLL_LEAVE, vlpvm_real_pvm_lvgroup(group))
