/* mailbox.c - the virtual mailbox: messages that have really arrived, kept in
 * real arrival order with their virtual arrival time, and the one place where
 * receives are matched.  Also the registry task id -> virtual host.
 *
 * Policy now: the first message (in real arrival order) that the pattern
 * picks and that is visible (virtual arrival <= visible_by).  Messages from one
 * sender keep their order, as PVM and MPI require.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/core/engine.h"

static vli_msg *box;
static int nbox, capbox;

void vli_mbox_add(const vli_msg *m)
{
	if (nbox == capbox) {
		int ncap = capbox ? 2 * capbox : 64;
		vli_msg *nb = realloc(box, (size_t)ncap * sizeof *nb);
		if (!nb)
			vli_error(3, "out of memory in the virtual mailbox (%d messages)", nbox);
		box = nb;
		capbox = ncap;
	}
	box[nbox++] = *m;
}

int vli_mbox_find(vli_match_fn pred, void *arg, int64_t visible_by)
{
	int i, best = -1, best_rank = 0, r;

	for (i = 0; i < nbox; i++) {
		if (box[i].arrival > visible_by)
			continue;
		r = pred(&box[i], arg);
		if (r < 0)
			return -1;
		if (r == 1)
			return i;
		if (r > best_rank) {
			best_rank = r;
			best = i;
		}
	}
	return best;
}

/* ---- virtual order ---- */

static int64_t arrival_of(const vli_msg *m, int64_t now)
{
	return m->synthetic || m->arrival == INT64_MIN ? now : m->arrival;
}

/* Whether message a comes before b (both of the same effective arrival ea, eb). */
static int before(int64_t ea, const vli_msg *a, int64_t eb, const vli_msg *b)
{
	if (ea != eb)
		return ea < eb;
	if (a->src != b->src)
		return (unsigned)a->src < (unsigned)b->src;
	return a->seq < b->seq;
}

int vli_mbox_first(vli_match_fn pred, void *arg, int64_t now, int64_t *eff_out)
{
	static int64_t *eff;
	static int cap_eff;
	int i, j, best = -1, r;
	int64_t best_eff = 0;

	if (!nbox)
		return -1;
	if (cap_eff < capbox) {
		int64_t *n = realloc(eff, (size_t)capbox * sizeof *n);
		if (!n)
			vli_error(3, "out of memory in the virtual mailbox (%d messages)", nbox);
		eff = n;
		cap_eff = capbox;
	}
	for (i = 0; i < nbox; i++) {
		eff[i] = INT64_MIN;
		r = pred(&box[i], arg);
		if (r < 0) {
			best = -1;
			break;
		}
		if (r == 0)
			continue;
		/* one sender's messages keep their order: none is taken before an
		 * earlier one from the same sender that matches too */
		eff[i] = arrival_of(&box[i], now);
		for (j = i - 1; j >= 0; j--)
			if (eff[j] != INT64_MIN && box[j].src == box[i].src && eff[j] > eff[i])
				eff[i] = eff[j];
		if (best < 0 || before(eff[i], &box[i], best_eff, &box[best])) {
			best = i;
			best_eff = eff[i];
		}
	}
	if (best >= 0 && eff_out)
		*eff_out = best_eff;
	return best;
}

int vli_mbox_ranked(vli_match_fn pred, void *arg, int64_t now, int64_t *tau_out)
{
	int i, best = -1, best_rank = 0, r, first = -1;
	int64_t tau;

	/* the earliest message pred accepts decides when the receive ends */
	for (i = 0; i < nbox; i++) {
		r = pred(&box[i], arg);
		if (r < 0)
			return -1;
		if (r > 0 && (first < 0 || before(arrival_of(&box[i], now), &box[i],
						  arrival_of(&box[first], now), &box[first])))
			first = i;
	}
	if (first < 0)
		return -1;
	tau = arrival_of(&box[first], now);
	if (tau < now)
		tau = now;
	/* among those there by then, in virtual-arrival order: the first pred
	 * picks outright (1), else the first of its best rank */
	for (;;) {
		int next = -1;
		for (i = 0; i < nbox; i++) {
			if (arrival_of(&box[i], now) > tau)
				continue;
			if (best >= 0 && !before(arrival_of(&box[best], now), &box[best],
						 arrival_of(&box[i], now), &box[i]))
				continue; /* not after the last one looked at */
			if (next < 0 || before(arrival_of(&box[i], now), &box[i],
					       arrival_of(&box[next], now), &box[next]))
				next = i;
		}
		if (next < 0)
			break;
		best = next;
		r = pred(&box[next], arg);
		if (r < 0)
			return -1;
		if (r == 1) {
			best_rank = 1;
			first = next;
			break;
		}
		if (r > best_rank) {
			best_rank = r;
			first = next;
		}
	}
	if (tau_out)
		*tau_out = tau;
	return best_rank > 0 ? first : -1;
}

vli_msg *vli_mbox_at(int i)
{
	return (i >= 0 && i < nbox) ? &box[i] : NULL;
}

void vli_mbox_remove(int i, vli_msg *out)
{
	if (i < 0 || i >= nbox)
		return;
	if (out)
		*out = box[i];
	memmove(&box[i], &box[i + 1], (size_t)(nbox - i - 1) * sizeof *box);
	nbox--;
}

int vli_mbox_count(void)
{
	return nbox;
}

/* ---- registry: open addressing on the id, grows at 50% load ---- */
struct reg_entry {
	int id, host, used;
};
static struct reg_entry *reg;
static size_t reg_size, reg_used;

static size_t reg_slot(const struct reg_entry *t, size_t size, int id)
{
	size_t h = ((unsigned)id * 2654435761u) & (size - 1);

	while (t[h].used && t[h].id != id)
		h = (h + 1) & (size - 1);
	return h;
}

static void reg_grow(void)
{
	size_t nsize = reg_size ? 2 * reg_size : 1024, i, h;
	struct reg_entry *t = calloc(nsize, sizeof *t);

	if (!t)
		vli_error(3, "out of memory in the task registry (%zu tasks)", reg_used);
	for (i = 0; i < reg_size; i++) {
		if (!reg[i].used)
			continue;
		h = reg_slot(t, nsize, reg[i].id);
		t[h] = reg[i];
	}
	free(reg);
	reg = t;
	reg_size = nsize;
}

void vli_reg_set(int id, int host)
{
	size_t h;

	if (2 * (reg_used + 1) > reg_size)
		reg_grow();
	h = reg_slot(reg, reg_size, id);
	if (!reg[h].used)
		reg_used++;
	reg[h].used = 1;
	reg[h].id = id;
	reg[h].host = host;
}

int vli_reg_get(int id)
{
	size_t h;

	if (!reg_size)
		return -1;
	h = reg_slot(reg, reg_size, id);
	return reg[h].used ? reg[h].host : -1;
}
