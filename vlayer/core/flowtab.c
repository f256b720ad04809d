/* flowtab.c - the messages of a run that cross the [topology]'s links, as
 * a table of flows whose arrivals the flow model (links.c) decides together:
 * point-to-point messages of separate calls share the links in virtual time.
 *
 * A flow is added when its sender sends (it leaves at the end of its send
 * time); an MPI rendezvous is added pending when its header goes, and
 * leaves when its receive is posted (vli_ftab_resolve), no earlier than
 * the end of its send time; until then it is not simulated, and the caller
 * keeps "safe" below the earliest it can leave (order_flows.c).  Its arrival depends on every flow that takes bandwidth before it
 * ends, so it is known only once no task can still start such a flow: the
 * caller (order_flows.c online) says up to when the flows known are all
 * there are ("safe": nothing not in the table takes bandwidth before it).
 * vli_ftab_update then
 *   - applies every event before safe to a checkpoint (the bytes each flow
 *     still has to carry at the last such event), so that the table never
 *     simulates the past again: a flow ended there is off the simulation;
 *   - and runs the flows on from the checkpoint as if no other flow came,
 *     which gives every open flow its estimated arrival (est).
 * An arrival is final when est <= the caller's safe time for that flow.
 *
 * Reproducible: the flows are simulated in a fixed order (departure,
 * sender, sequence number), from the checkpoint, which only ever stands at
 * an event; neither the real order in which senders added them nor when the
 * checkpoint moved changes a result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"

int64_t vli_flow_lookahead(const vlcfg_config *c)
{
	int64_t la = vli_lookahead(c), lat;
	double bpns;

	/* a flow takes bandwidth a send and its route's latency after its
	 * sender's bound: at least a hop's latency, which may be less than the
	 * message models' least transmission time */
	vli_net_params(c, &lat, &bpns);
	/* at least 1 ns, as vli_lookahead: times are whole ns, and a flow that
	 * starts at a bound takes no bandwidth before it, so a flow ending at
	 * that bound is final (with links of no latency, 0 held every flow
	 * back: the run stopped stuck, the replay turned for ever) */
	if (lat < 1)
		lat = 1;
	return lat < la ? lat : la;
}

void vli_ftab_init(vli_ftab *t)
{
	memset(t, 0, sizeof *t);
}

int vli_ftab_add(vli_ftab *t, int src_id, uint32_t seq, int dst_id, int dst_slot, int src_host,
		 int dst_host, int64_t bytes, int64_t start)
{
	int i;

	for (i = 0; i < VLI_FTAB_N && t->e[i].used; i++)
		;
	if (i == VLI_FTAB_N)
		return -1;
	memset(&t->e[i], 0, sizeof t->e[i]);
	t->e[i].used = 1;
	t->e[i].in_sim = 1;
	t->e[i].src_id = src_id;
	t->e[i].seq = seq;
	t->e[i].dst_id = dst_id;
	t->e[i].dst_slot = dst_slot;
	t->e[i].src_host = src_host;
	t->e[i].dst_host = dst_host;
	t->e[i].bytes = bytes;
	t->e[i].start = start;
	t->e[i].act = -1;
	t->e[i].est = -1;
	t->e[i].need = 1;
	t->e[i].src_slot = -1;
	if (i >= t->hwm)
		t->hwm = i + 1;
	t->nopen++;
	t->ver++;
	return i;
}

int vli_ftab_pend(vli_ftab *t, int src_id, uint32_t seq, int dst_id, int dst_slot, int src_slot,
		  int src_host, int dst_host, int64_t bytes, int64_t ready)
{
	int i = vli_ftab_add(t, src_id, seq, dst_id, dst_slot, src_host, dst_host, bytes, ready);

	if (i < 0)
		return -1;
	t->e[i].in_sim = 0;
	t->e[i].pending = 1;
	t->e[i].need = 2;
	t->e[i].src_slot = src_slot;
	t->nopen--;
	return i;
}

static void drop(vli_ftab *t, int i);

void vli_ftab_resolve(vli_ftab *t, int i, int64_t start)
{
	vli_fent *e = &t->e[i];

	if (!e->pending)
		return;
	if (start < 0) {
		drop(t, i);
		return;
	}
	e->pending = 0;
	if (start > e->start)
		e->start = start;
	e->in_sim = 1;
	t->nopen++;
	t->ver++;
}

int vli_ftab_find(const vli_ftab *t, int src_id, uint32_t seq, int dst_id)
{
	int i;

	for (i = 0; i < t->hwm; i++)
		if (t->e[i].used && t->e[i].seq == seq && t->e[i].src_id == src_id &&
		    t->e[i].dst_id == dst_id && !t->e[i].coll_on)
			return i;
	return -1;
}

int vli_ftab_add_coll(vli_ftab *t, uint64_t on, uint64_t n, uint32_t k, int need, int src_id,
		      int dst_id, int src_host, int dst_host, int64_t bytes, int64_t start)
{
	int i = vli_ftab_add(t, src_id, k, dst_id, -1, src_host, dst_host, bytes, start);

	if (i < 0)
		return -1;
	t->e[i].coll_on = on;
	t->e[i].coll_n = n;
	t->e[i].need = need;
	return i;
}

int vli_ftab_find_coll(const vli_ftab *t, uint64_t on, uint64_t n, uint32_t k)
{
	int i;

	for (i = 0; i < t->hwm; i++)
		if (t->e[i].used && t->e[i].coll_on == on && t->e[i].coll_n == n && t->e[i].seq == k)
			return i;
	return -1;
}

static void drop(vli_ftab *t, int i)
{
	t->e[i].used = 0;
	while (t->hwm > 0 && !t->e[t->hwm - 1].used)
		t->hwm--;
}

void vli_ftab_consume(vli_ftab *t, int i)
{
	t->e[i].taken = 1;
	vli_ftab_unread(t, i);
}

void vli_ftab_unread(vli_ftab *t, int i)
{
	if (--t->e[i].need > 0)
		return;
	t->e[i].consumed = 1;
	if (!t->e[i].in_sim)
		drop(t, i);
}

/* The fixed order of the simulation. */
static int canon_cmp(const void *a, const void *b, void *arg)
{
	const vli_fent *x = &((const vli_ftab *)arg)->e[*(const int *)a];
	const vli_fent *y = &((const vli_ftab *)arg)->e[*(const int *)b];

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->src_id != y->src_id)
		return x->src_id < y->src_id ? -1 : 1;
	/* (a sender's point-to-point messages before its collective's: the
	 * replay numbers collectives otherwise than the layer online) */
	if (!x->coll_on != !y->coll_on)
		return x->coll_on ? 1 : -1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->dst_id != y->dst_id)
		return x->dst_id < y->dst_id ? -1 : 1;
	return x->coll_n < y->coll_n ? -1 : x->coll_n > y->coll_n;
}

/* A flow came late, or the arrival of flow e, already taken by its
 * readers, changed: a task acted below the bound the caller had for it, and
 * the results depend on when the caller looked (counted; the first kept). */
static void late(vli_ftab *t, const vli_fent *e)
{
	if (!t->nlate++) {
		t->late_src = e->src_id;
		t->late_dst = e->dst_id;
		t->late_start = e->start;
	}
}

int vli_ftab_update(vli_ftab *t, const vlcfg_config *c, int64_t safe)
{
	int *ix, *id, n = 0, i, k, changed = 0, ck;
	vli_flows f;

	if (!t->nopen)
		return 0;
	/* the same flows and the same safe time as the last update: the same
	 * checkpoint and estimates (an update is idempotent), so skip it - the
	 * tasks ask at every look at an arrival (a star of 4 hosts running the
	 * ray tracer: 40 s of real time without this, 9 s with it) */
	if (t->memo_ok && t->memo_ver == t->ver && t->memo_safe == safe)
		return 0;
	ix = malloc((size_t)t->nopen * sizeof *ix);
	id = malloc((size_t)t->nopen * sizeof *id);
	if (!ix || !id)
		vli_error(3, "out of memory (the flows in flight)");
	for (i = 0; i < t->hwm; i++)
		if (t->e[i].used && t->e[i].in_sim)
			ix[n++] = i;
	qsort_r(ix, (size_t)n, sizeof *ix, canon_cmp, t);
	vli_flows_init(&f, c);
	f.now = t->t_ck;
	for (k = 0; k < n; k++) {
		vli_fent *e = &t->e[ix[k]];

		if (e->ck_active)
			id[k] = vli_flows_add_at(&f, e->src_host, e->dst_host, e->ck_left, e->ck_svc,
						 e->start, e->act);
		else
			id[k] = vli_flows_add(&f, e->src_host, e->dst_host, e->bytes, e->start);
		if (e->act < 0) {
			e->act = f.flow[id[k]].act;
			/* simulated for the first time, it takes bandwidth before
			 * the checkpoint: it came late (the flows it shares links
			 * with there were run on without it: it starts at the
			 * checkpoint, and the results depend on where that stood) */
			if (e->act < t->t_ck)
				late(t, e);
		}
	}
	/* the checkpoint: every event before safe (ns); a safe time before the
	 * checkpoint (a bound lowered meanwhile) leaves it where it is */
	ck = (double)safe - 0.5 >= t->t_ck;
	if (ck) {
		vli_flows_advance(&f, (double)safe - 0.5);
		t->t_ck = f.now;
	}
	for (k = 0; ck && k < n; k++) {
		vli_fent *e = &t->e[ix[k]];
		int st = vli_flows_at(&f, id[k], &e->ck_left, &e->ck_svc);

		e->ck_active = st == VLI_FLOW_ACTIVE;
		if (st == VLI_FLOW_DONE) {
			int64_t end;

			vli_flows_end(&f, id[k], &end);
			if (end != e->est) {
				changed = 1, e->changed = 1;
				if (e->taken)
					late(t, e);
			}
			e->est = end;
			e->final = 1;
			e->in_sim = 0;
			t->nopen--;
		}
	}
	/* the estimates: the open flows run on alone */
	vli_flows_advance(&f, INFINITY);
	for (k = 0; k < n; k++) {
		vli_fent *e = &t->e[ix[k]];
		int64_t end;

		if (!e->in_sim || !vli_flows_end(&f, id[k], &end))
			continue;
		if (end != e->est) {
			changed = 1, e->changed = 1;
			if (e->taken)
				late(t, e);
		}
		e->est = end;
	}
	vli_flows_free(&f);
	for (k = 0; k < n; k++)
		if (!t->e[ix[k]].in_sim && t->e[ix[k]].consumed)
			drop(t, ix[k]);
	free(ix);
	free(id);
	if (changed)
		t->epoch++;
	t->memo_ok = 1;
	t->memo_ver = t->ver;
	t->memo_safe = safe;
	return changed;
}
