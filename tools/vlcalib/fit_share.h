/* fit_share.h - how messages at once share the links (issue 13): a link's
 * bandwidth, its duplex and a switch's backplane, fitted from the share_*
 * rows of raw files (calib_raw.h) by the closed forms of vlayer's flow model
 * (vlayer/core/links.c; docs/vmconfig.md, [topology]).  Plain functions on
 * the loaded rows, no I/O.
 *
 * On a star (a switch: with a backplane) of links of bandwidth B and a
 * backplane of C, flows that start at once take their latency L, then each
 * a max-min fair share of every link on its route.  With m bytes in every
 * message the last flow of an experiment ends at
 *     L + m s,   s = max(c / B, g / C)
 * where c is the number of flows on the busiest host link and g the number
 * through the backplane (all of them):
 *
 *     experiment      tasks   c (full duplex)   c (half duplex)   g
 *     share_exchange  2       1                 2                 2
 *     share_fanout    k + 1   k                 k                 k
 *     share_fanin     k + 1   k                 k                 k
 *     share_alltoall  p       p - 1             2 (p - 1)         p (p - 1)
 *     share_first     k + 1   k (fifo: 1)       k (fifo: 1)       k (fifo: 1)
 *
 * With fifo sharing the all-to-all's c is the number of rounds its flows
 * take when each, in the order (sender, receiver), takes its route whole if
 * no earlier one holds a link of it (p = 3: 3 rounds, not 2); the engine's
 * own fifo gives exactly that on a star, and more than max(c / B, g / C)
 * when a backplane limits (an approximation there).
 *
 * (A half-duplex link carries both directions at once: an exchange puts 2
 * flows on each host's link.  Without a backplane g / C is 0.  share_first
 * ends at the first message of a fan-out: with fair sharing the k messages
 * take the link together, with `sharing = fifo` one after the other, so its
 * first is in after one message's time.  The last flows of the other
 * experiments end at the same time under both.)
 *
 * The fit: (1) each experiment's own line t = a + b m, by least squares with
 * errors relative to max(t, floor), through its rows of 64 KiB and more if it
 * has two (small messages often pass at once on a real network); (2) per duplex, beta = 1 / B and
 * gamma = 1 / C >= 0 minimising the sum over the experiments of
 * (1 - s / b)^2, plus VLCAL_PENALTY_DEFAULT if a backplane is used, so that
 * noise does not invent one.  An experiment is backplane-bound when
 * gamma / beta >= c / g, so the candidates are: no backplane (beta by least
 * squares over all), and for each set of the first j experiments in the
 * order of c / g (backplane-bound), gamma by least squares over them and beta
 * over the others, repeated until the bound set no longer changes; the least
 * sum wins; (3) the duplex of the smaller sum (full on a tie: without
 * share_exchange and share_alltoall rows nothing tells them apart); (4) each
 * experiment's intercept again with its slope s fixed (it holds what the
 * experiment adds to the flows: its start and reply messages, the calls'
 * costs), the relative errors of that line against its times, and L = the
 * intercept common to all rows.  With share_first rows, (2) and (3) run
 * with fair and with fifo sharing, and the smaller sum decides.
 */
#ifndef VLCAL_FIT_SHARE_H
#define VLCAL_FIT_SHARE_H

#include "calib_raw.h"
#include "fit.h"

/* one experiment: the rows of one (link, experiment, tasks) */
typedef struct vlcal_share_exp {
	int x;                    /* VLCAL_X_SHARE + 0 .. 3 */
	int procs;                /* tasks: 2, k + 1 or p */
	const vlcal_raw_row *row; /* its rows, sizes increasing */
	int m;                    /* how many */
	double c[2], g;      /* flows on the busiest link (full, half duplex), on the backplane */
	double a, b;         /* its own line: time = a + b bytes (ns, ns per byte) */
	double s;            /* the fitted closed form's ns per byte */
	double icpt;         /* its intercept with the slope s (ns) */
	int backplane_bound; /* 1: s is the backplane's term */
	double rms_rel, max_rel; /* icpt + s bytes against its times */
} vlcal_share_exp;

typedef struct vlcal_share {
	int link;                /* 0 intra, 1 inter */
	int ne;                  /* experiments */
	vlcal_share_exp *e;      /* malloc'd, in the rows' order (experiment, tasks) */
	int bad;                 /* after a failed fit: the experiment concerned, else -1 */
	int half;                /* the duplex chosen: 1 half, 0 full */
	int decided;             /* 0: no experiment tells the duplexes apart (full) */
	double bw;               /* a link's bandwidth, bytes per ns */
	double backplane;        /* the backplane's, bytes per ns; 0: none limits */
	double latency;          /* the intercept common to all rows (ns) */
	double err[2];           /* rms relative slope error of the best fit, full / half duplex */
	int fifo;                /* the sharing chosen: 1 fifo, 0 fair */
	int a2a_left_out;        /* share_alltoall experiments not fitted (PVM's) */
	int sharing_decided;     /* 0: no share_first rows (fair) */
	double serr[2];          /* with share_first: the slope error with fair / fifo */
	double rms_rel, max_rel; /* every row (each experiment with its intercept) */
} vlcal_share;

/* The share_* experiments of LINK in RAW (sorted and merged by
 * vlcal_raw_merge, which S then points into) into S.  Returns their number
 * (0: none), or -1 when out of memory.  From PVM's files (RAW->library "pvm")
 * the share_alltoall rows are left out (counted in S->a2a_left_out): a PVM
 * task does not take in its partners' messages while it writes out its own,
 * so its all-to-all of every message at once measures the library (2(p-1)
 * m/B and more), which the fit would take for a backplane. */
int vlcal_share_load(vlcal_share *s, const vlcal_raw *raw, int link);

/* The fit above, for the experiments loaded into S; FLOOR_NS > 0 (times below
 * it count as it in the relative errors).  Returns VLCAL_FIT_OK, or (S->bad
 * naming the experiment) VLCAL_FIT_FEW (fewer than 2 sizes),
 * VLCAL_FIT_DEGENERATE (a time that does not grow with the size),
 * VLCAL_FIT_SINGULAR (no experiment, or out of memory). */
int vlcal_share_fit(vlcal_share *s, double floor_ns);

void vlcal_share_free(vlcal_share *s);

#endif
