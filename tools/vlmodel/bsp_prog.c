/* bsp_prog.c - a program given as M-steps (bsp_prog.h): its messages, and
 * what the models read from them (each task's in and out per step, the steps
 * that communicate, each step's messages). */
#include "bsp_prog.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vlmod_prog_init(vlmod_prog *m, int p, int r)
{
	size_t n = (size_t)p * (size_t)r;
	memset(m, 0, sizeof *m);
	m->p = p;
	m->r = r;
	m->vlayer_total = -1;
	m->w = calloc(n + 1, sizeof *m->w);
	m->hx = malloc((n + 1) * sizeof *m->hx);
	if (!m->w || !m->hx)
		return -1;
	for (size_t i = 0; i < n; i++)
		m->hx[i] = -1;
	return 0;
}

int vlmod_prog_msg(vlmod_prog *m, int step, int from, int to, double bytes, int out_step)
{
	if (m->nmsg == m->cmsg) {
		size_t c = m->cmsg ? 2 * m->cmsg : 256;
		vlmod_msg *q = realloc(m->msg, c * sizeof *q);
		if (!q)
			return -1;
		m->msg = q;
		m->cmsg = c;
	}
	m->msg[m->nmsg++] = (vlmod_msg){step, from, to, bytes, out_step};
	return 0;
}

static int msg_cmp(const void *a, const void *b)
{
	const vlmod_msg *x = a, *y = b;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

/* in and out of one message (a message to all: the receivers' in is added per
 * step in vlmod_prog_finish). */
static void msg_count(vlmod_prog *m, const vlmod_msg *g, double *bcast)
{
	size_t p = (size_t)m->p;
	if (g->from >= 0 && g->out_step >= 0)
		m->out[(size_t)g->out_step * p + (size_t)g->from] +=
		    g->to == VLMOD_TO_ALL ? g->bytes * (double)(m->p - 1) : g->bytes;
	if (g->to >= 0)
		m->in[(size_t)g->step * p + (size_t)g->to] += g->bytes;
	else if (g->to == VLMOD_TO_ALL)
		bcast[(size_t)g->step * p + (size_t)g->from] += g->bytes;
}

/* Adds to the in of every task of step S the messages to all of the others
 * (OWN: those of each task): the sums before and after it, not the step's
 * total minus its own, which cancels (a 100-byte message lost next to 1e18). */
static void bcast_in(vlmod_prog *m, size_t s, const double *own, double *after)
{
	size_t p = (size_t)m->p;
	double before = 0;
	after[p - 1] = 0;
	for (size_t i = p - 1; i-- > 0;)
		after[i] = after[i + 1] + own[i + 1];
	for (size_t i = 0; i < p; i++) {
		m->in[s * p + i] += before + after[i];
		before += own[i];
	}
}

int vlmod_prog_finish(vlmod_prog *m)
{
	size_t p = (size_t)m->p, r = (size_t)m->r;
	double *bc = calloc(r * p + p + 1, sizeof *bc); /* own, then scratch for bcast_in */
	m->in = calloc(r * p + 1, sizeof *m->in);
	m->out = calloc(r * p + 1, sizeof *m->out);
	m->comm = calloc(r + 1, 1);
	m->first = calloc(r + 1, sizeof *m->first);
	if (!bc || !m->in || !m->out || !m->comm || !m->first) {
		free(bc);
		return -1;
	}
	if (m->nmsg) /* msg is NULL then, which qsort must not get */
		qsort(m->msg, m->nmsg, sizeof *m->msg, msg_cmp);
	for (size_t k = 0; k < m->nmsg; k++) {
		msg_count(m, &m->msg[k], bc);
		m->comm[m->msg[k].step] = 1;
		m->first[m->msg[k].step + 1] = k + 1;
	}
	for (size_t s = 0; s < r; s++) {
		if (m->first[s + 1] < m->first[s])
			m->first[s + 1] = m->first[s];
		if (p)
			bcast_in(m, s, bc + s * p, bc + r * p);
		for (size_t i = 0; i < p; i++)
			if (m->hx[s * p + i] >= 0)
				m->comm[s] = 1;
	}
	free(bc);
	return 0;
}

void vlmod_prog_free(vlmod_prog *m)
{
	free(m->w);
	free(m->hx);
	free(m->msg);
	free(m->in);
	free(m->out);
	free(m->comm);
	free(m->first);
	free(m->vlayer_end);
	for (int s = 0; m->label && s < m->r; s++)
		free(m->label[s]);
	free(m->label);
	memset(m, 0, sizeof *m);
}

double vlmod_prog_h(const vlmod_prog *m, int s, int i, int op)
{
	size_t k = (size_t)s * (size_t)m->p + (size_t)i;
	if (m->hx[k] >= 0)
		return m->hx[k];
	if (op == VLMOD_OP_OUT)
		return m->out[k];
	return op == VLMOD_OP_MAX ? fmax(m->in[k], m->out[k]) : m->in[k] + m->out[k];
}
