/* bsp_prog.h - a program given as M-steps, as the BSPWB and MPM models of
 * `vlmodel bsp` take it (bsp_prog.c).  It is made by vlmod_prog_read
 * (bsp_csv.c: an M-step CSV file) or vlmod_prog_from_trace (bsp_trace.c: a
 * vlayer trace directory), both declared in vlmodel.h.
 *
 * A program of R M-steps on P tasks: per step s and task i the computation
 * w[s][i] (seconds), and the messages of the steps.  in/out of task i in step s
 * are the bytes it receives/sends, h = in @ out (@ = + or max), or the explicit
 * h given for it.  A step communicates if it has a message (of any size) or an
 * explicit h; one that does not costs only its computation. */
#ifndef VLMOD_BSP_PROG_H
#define VLMOD_BSP_PROG_H

#include <stddef.h>

#define VLMOD_TO_ALL  (-1) /* a message to every other task */
#define VLMOD_TO_NONE (-2) /* sent to a task outside the program: only the sender's out */

typedef struct vlmod_msg {
	int step;     /* the receiver's step: its in, and the sender as its partner */
	int from;     /* sender, or -1 (unknown: only the receiver's in) */
	int to;       /* receiver, VLMOD_TO_ALL or VLMOD_TO_NONE */
	double bytes; /* per receiver */
	int out_step; /* the sender's step (its out), or -1 (not counted) */
} vlmod_msg;

typedef struct vlmod_prog {
	int p, r;       /* tasks, M-steps */
	double *w;      /* r * p: computation of task i in step s: w[s * p + i] */
	double *hx;     /* r * p: explicit h, or -1 */
	vlmod_msg *msg; /* sorted by step, from, to (vlmod_prog_finish) */
	size_t nmsg, cmsg;
	/* from vlmod_prog_finish */
	double *in, *out;    /* r * p bytes */
	unsigned char *comm; /* r: the step communicates */
	size_t *first;       /* r + 1: messages of step s: msg[first[s] .. first[s+1]) */
	/* a trace's own times (vlmod_prog_from_trace), else NULL / -1 */
	double *vlayer_end;  /* r: end of step s (latest task), s since the start */
	double vlayer_total; /* predicted elapsed time (as vlpost stats) */
	char **label;        /* r: what closes the step ("barrier", "phase"), or NULL */
} vlmod_prog;

/* An empty program of P tasks and R steps (w 0, no explicit h).  0 or -1. */
int vlmod_prog_init(vlmod_prog *m, int p, int r);
/* Add a message.  0 or -1 (out of memory). */
int vlmod_prog_msg(vlmod_prog *m, int step, int from, int to, double bytes, int out_step);
/* Sort the messages and derive in, out, comm, first.  0 or -1. */
int vlmod_prog_finish(vlmod_prog *m);
void vlmod_prog_free(vlmod_prog *m);

/* @ in h = in @ out: the paper's sum, the max, or only what the task sends
 * (out: a machine on which only the sender's port serialises, as vlayer's
 * CLUE model: a receiver pays a constant per message, transfers overlap). */
enum { VLMOD_OP_SUM, VLMOD_OP_MAX, VLMOD_OP_OUT };
/* h of task i in step s: the explicit h, else in @ out (OP: VLMOD_OP_*). */
double vlmod_prog_h(const vlmod_prog *m, int s, int i, int op);

#endif
