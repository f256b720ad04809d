/* fit_series.c - what the fits of `vlcalib fit` read: the rows of one
 * experiment as arrays (series), in scratch memory that stays reachable when
 * an error ends the program, and the message of a fit that failed. */
#include "vlcalib.h"
#include "util/diag.h"

#include <stdlib.h>
#include <string.h>

static void **live;
static size_t nlive, caplive;

void *vlcal_xmalloc(size_t n)
{
	void *p = vlu_xmalloc(n);

	if (nlive == caplive) {
		caplive = caplive ? 2 * caplive : 64;
		live = vlu_xrealloc(live, sizeof(void *) * caplive);
	}
	live[nlive++] = p;
	return p;
}

void vlcal_xfree(void *p)
{
	for (size_t i = nlive; i-- > 0;)
		if (live[i] == p) {
			live[i] = live[--nlive];
			break;
		}
	free(p);
}

vlcal_series vlcal_series_get(const vlcal_input *in, int link, int x, int procs)
{
	const vlcal_raw *raw = &in->raw;
	vlcal_series s = {0, NULL, NULL, NULL, NULL, NULL, in};

	s.n = vlcal_xmalloc(sizeof(double) * (size_t)(raw->n + 1));
	s.t = vlcal_xmalloc(sizeof(double) * (size_t)(raw->n + 1));
	s.h = vlcal_xmalloc(sizeof(double) * (size_t)(raw->n + 1));
	s.procs = vlcal_xmalloc(sizeof(int) * (size_t)(raw->n + 1));
	for (int i = 0; i < raw->n; i++) {
		const vlcal_raw_row *r = &raw->row[i];

		if (r->link != link || r->x != x || (procs && r->procs != procs))
			continue;
		if (!s.first)
			s.first = r;
		s.n[s.m] = (double)r->bytes;
		s.t[s.m] = r->v;
		s.h[s.m] = r->h;
		s.procs[s.m++] = r->procs;
	}
	return s;
}

void vlcal_series_free(vlcal_series *s)
{
	vlcal_xfree(s->n);
	vlcal_xfree(s->t);
	vlcal_xfree(s->h);
	vlcal_xfree(s->procs);
}

void vlcal_fit_fail(const vlcal_series *s, int link, const char *what, int rc)
{
	const char *unit = s->h && !strncmp(what, "bsp", 3) ? "row" : "size";

	vlu_die(VLCAL_EXIT_BAD, "%s:%d: %s (link %s): %s (%d %s%s)",
	        s->in->files[s->first->file], s->first->line, what, vlcal_raw_lname[link],
	        vlcal_fit_strerror(rc), s->m, unit, s->m == 1 ? "" : "s");
}

const vlcal_raw_row *vlcal_link_first(const vlcal_input *in, int link)
{
	for (int i = 0; i < in->raw.n; i++)
		if (in->raw.row[i].link == link)
			return &in->raw.row[i];
	return NULL;
}

int vlcal_has_rows(const vlcal_input *in, int link, int x)
{
	for (int i = 0; i < in->raw.n; i++)
		if (in->raw.row[i].link == link && in->raw.row[i].x == x)
			return 1;
	return 0;
}
