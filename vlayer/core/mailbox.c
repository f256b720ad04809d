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
