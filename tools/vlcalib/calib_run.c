/* calib_run.c - the runner of the measurement programs: phases (the tasks of
 * a phase work, the others sleep), and one row of the raw file (warm-up,
 * repetitions agreed on, the samples brought to rank 0, the statistics
 * written). */
#include "calib_impl.h"
#include "util/diag.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static int is_part(const vlcal_calib *c, int rank)
{
	int i;

	for (i = 0; i < c->nparts; i++)
		if (c->parts[i] == rank)
			return 1;
	return 0;
}

/* a phase: the tasks in parts[] work, the others wait for rank 0's wake-up
 * (without spinning: on a machine with fewer cores than tasks a spinning idle
 * task would steal the measured tasks' processor).  Returns 1 if this task
 * takes part. */
int vlcal_phase_begin(vlcal_calib *c, const int *parts, int n)
{
	const struct timespec nap = {0, 500000};

	memcpy(c->parts, parts, n * sizeof *parts);
	c->nparts = n;
	if (is_part(c, c->w->rank))
		return 1;
	while (!c->ops->iprobe(c->be, 0, VLCAL_TAG_CTRL))
		nanosleep(&nap, NULL);
	c->ops->recv_i64(c->be, 0, VLCAL_TAG_CTRL, NULL, 0);
	return 0;
}

void vlcal_phase_end(vlcal_calib *c)
{
	int r;

	if (c->w->rank != 0)
		return;
	for (r = 1; r < c->w->size; r++)
		if (!is_part(c, r))
			c->ops->send_i64(c->be, r, VLCAL_TAG_CTRL, NULL, 0);
}

static int64_t clamp_reps(const vlcal_calib *c, int64_t per_iter)
{
	int64_t reps =
	    per_iter > 0 ? (c->o->min_time_ns + per_iter - 1) / per_iter : c->o->max_reps;

	if (reps < c->o->min_reps)
		reps = c->o->min_reps;
	if (reps > c->o->max_reps)
		reps = c->o->max_reps;
	return reps;
}

/* Rank 0 tells the other participants v. */
static int64_t agree(vlcal_calib *c, int64_t v)
{
	int i;

	if (c->w->rank == 0)
		for (i = 1; i < c->nparts; i++)
			c->ops->send_i64(c->be, c->parts[i], VLCAL_TAG_CTRL, &v, 1);
	else
		c->ops->recv_i64(c->be, 0, VLCAL_TAG_CTRL, &v, 1);
	return v;
}

/* warm-up (discarded; after the first, rank 0 says how many more: none if
 * one sample takes an eighth of the row's budget), agree on the repetitions
 * (rank 0 decides from the median warm-up iteration, so that one slow first
 * iteration does not cut the repetitions, and cuts them to the row's budget,
 * at least 3), one more discarded sample to absorb the control message, then
 * the samples */
static int64_t *sample_row(vlcal_calib *c, const vlcal_row *r, vlcal_sample_fn fn, int *nreps)
{
	int64_t t0, reps = 0, full = 0, *s, w[16], spent = 0, budget = c->o->budget_ns;
	int i, nw = c->o->warmup < 1 ? 1 : c->o->warmup > 16 ? 16 : c->o->warmup;
	vlcal_stats st;

	for (i = 0; i < nw; i++) {
		t0 = vlcal_now_ns();
		fn(c, r);
		w[i] = vlcal_now_ns() - t0;
		spent += w[i];
		if (i == 0)
			nw = (int)agree(c, w[0] >= budget / 8 ? 1 : nw);
	}
	if (c->w->rank == 0) {
		int64_t floor3 = c->o->max_reps < 3 ? c->o->max_reps : 3;
		vlcal_stats_of(w, nw, 1.0, &st);
		reps = full = clamp_reps(c, (int64_t)st.median);
		if (st.median > 0 && spent + (reps + 1) * (int64_t)st.median > budget) {
			int64_t fit = (budget - spent) / (int64_t)st.median - 1;
			reps = fit > floor3 ? fit : floor3;
			if (reps > full)
				reps = full;
		}
		if (reps < full || nw < c->o->warmup)
			fprintf(stderr, "%s: %s %s %zu B: %d warm-up and %lld samples of %.3g ms "
			        "(the row's budget: --row-budget %.3gms)\n", c->o->prog,
			        vlcal_exp_name(r->exp), r->link, r->bytes, nw, (long long)reps,
			        st.median / 1e6, budget / 1e6);
	}
	reps = agree(c, reps);
	fn(c, r);
	s = vlu_xmalloc(reps * sizeof *s);
	for (i = 0; i < reps; i++)
		s[i] = fn(c, r);
	*nreps = (int)reps;
	return s;
}

/* bring the samples to rank 0 (returns 1 there, with s[] final) */
static int collect(vlcal_calib *c, const vlcal_row *r, int64_t *s, int n)
{
	int64_t *t;
	int i, j;

	if (r->collect == VL_CALIB_COLLECT_ROOT)
		return c->w->rank == 0;
	if (c->w->rank != 0) {
		if (r->collect == VL_CALIB_COLLECT_MAX || c->w->rank == r->partner)
			c->ops->send_i64(c->be, 0, VLCAL_TAG_RESULT, s, n);
		return 0;
	}
	t = vlu_xmalloc(n * sizeof *t);
	if (r->collect == VL_CALIB_COLLECT_MAX) {
		for (i = 1; i < c->nparts; i++) {
			c->ops->recv_i64(c->be, c->parts[i], VLCAL_TAG_RESULT, t, n);
			for (j = 0; j < n; j++)
				if (t[j] > s[j])
					s[j] = t[j];
		}
	} else {
		c->ops->recv_i64(c->be, r->partner, VLCAL_TAG_RESULT, t, n);
		for (j = 0; j < n; j++)
			s[j] =
			    r->collect == VL_CALIB_COLLECT_ONEWAY ? t[j] - r->offset - s[j] : t[j];
	}
	free(t);
	return 1;
}

static void write_row(vlcal_calib *c, const vlcal_row *r, int64_t *s, int n)
{
	vlcal_stats st;

	vlcal_stats_of(s, n, r->count > 1 ? 1.0 / r->count : 1.0, &st);
	if (fprintf(c->f, "%s,%s,%d,%zu,%ld,%d,%.1f,%.1f,%.1f,%.1f,%.1f\n", vlcal_exp_name(r->exp),
	            r->link, r->procs, r->bytes, r->h, n, st.min, st.median, st.mean, st.max,
	            st.stddev) < 0 ||
	    fflush(c->f))
		c->err = 1;
}

/* one row of the raw file: every participant calls it */
void vlcal_run_row(vlcal_calib *c, const vlcal_row *r, vlcal_sample_fn fn)
{
	int64_t *s;
	int n;

	c->ops->set_size(c->be, r->bytes);
	s = sample_row(c, r, fn, &n);
	if (collect(c, r, s, n))
		write_row(c, r, s, n);
	free(s);
}
