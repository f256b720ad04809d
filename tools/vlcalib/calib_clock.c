/* calib_clock.c - the partner of rank 0 over each link kind, and the offset
 * between their clocks (for the one-way times). */
#include "calib_impl.h"

/* Cristian's method on rank 0: offset = t_B - (t_send + rtt / 2) of the
 * smallest of n round trips; the partner answers with its clock */
int64_t vlcal_estimate_offset(vlcal_calib *c, int partner, int n, int64_t *best_rtt)
{
	int64_t best = INT64_MAX, off = 0, t0, t1, tb;
	int i;

	for (i = 0; i < n; i++) {
		if (c->w->rank != 0) {
			c->ops->recv_i64(c->be, 0, VLCAL_TAG_STAMP, NULL, 0);
			tb = vlcal_now_ns();
			c->ops->send_i64(c->be, 0, VLCAL_TAG_STAMP, &tb, 1);
			continue;
		}
		t0 = vlcal_now_ns();
		c->ops->send_i64(c->be, partner, VLCAL_TAG_STAMP, NULL, 0);
		c->ops->recv_i64(c->be, partner, VLCAL_TAG_STAMP, &tb, 1);
		t1 = vlcal_now_ns();
		if (t1 - t0 < best) {
			best = t1 - t0;
			off = tb - (t0 + best / 2);
		}
	}
	if (best_rtt)
		*best_rtt = best;
	return off;
}

int vlcal_offset_pings(const vlcal_calib *c)
{
	return c->o->quick ? 20 : 200;
}

/* the partner of rank 0 over link kind k (0 intra, 1 inter), -1 if none */
int vlcal_partner_of(const vlcal_calib *c, int k)
{
	int r;

	for (r = 1; r < c->w->size; r++)
		if ((c->w->node[r] != c->w->node[0]) == k)
			return r;
	return -1;
}

/* both tasks learn whether they read the same clock; rank 0 estimates the offset */
void vlcal_clock_setup(vlcal_calib *c, int k)
{
	int partner = vlcal_partner_of(c, k), parts[2] = {0, partner};
	int64_t mine = vlcal_clock_id(), theirs = 0;

	if (partner < 0 || !vlcal_phase_begin(c, parts, 2))
		return;
	if (c->w->rank == 0) {
		c->ops->send_i64(c->be, partner, VLCAL_TAG_STAMP, &mine, 1);
		c->ops->recv_i64(c->be, partner, VLCAL_TAG_STAMP, &theirs, 1);
	} else {
		c->ops->recv_i64(c->be, 0, VLCAL_TAG_STAMP, &theirs, 1);
		c->ops->send_i64(c->be, 0, VLCAL_TAG_STAMP, &mine, 1);
	}
	c->same_clock[k] = mine != 0 && mine == theirs;
	c->offset[k] = vlcal_estimate_offset(c, partner, vlcal_offset_pings(c), &c->offset_rtt[k]);
	vlcal_phase_end(c);
}
