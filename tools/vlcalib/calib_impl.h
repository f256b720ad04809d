/* calib_impl.h - the internals of the measurement half of vlcalib, shared by
 * its files (not by the programs, which see only calib_common.h):
 *
 *   calib_util.c   experiment names, clocks, statistics, unit parsers
 *   calib_opts.c   the options (vlcal_parse)
 *   calib_run.c    the runner: phases, one row of the raw file
 *   calib_exp.c    the experiments: one sample of each
 *   calib_clock.c  clock offsets and the partner of each link kind
 *   calib_file.c   the raw file: opening it, its header, closing it
 *   calib_plan.c   the plan: which rows, in which order (vlcal_run)
 *
 * Each file uses only those above it in this list.
 */
#ifndef VLCAL_IMPL_H
#define VLCAL_IMPL_H

#include "calib_common.h"

/* the BSP experiments in an "only" mask */
#define VLCAL_BSP_MASK                                                                          \
	(((1u << (VL_CALIB_BSP_BARRIER + 1)) - 1) & ~((1u << VL_CALIB_BSP_EXCHANGE) - 1))
/* the sharing experiments in an "only" mask */
#define VLCAL_SHARE_MASK                                                                        \
	(((1u << (VL_CALIB_SHARE_FIRST + 1)) - 1) & ~((1u << VL_CALIB_SHARE_EXCHANGE) - 1))

/* the link kinds, 0 intra and 1 inter, by name (calib_util.c) */
extern const char *const vlcal_link_name[2];

/* how a row's samples reach rank 0 */
enum vlcal_collect {
	VL_CALIB_COLLECT_ROOT,    /* rank 0 has them */
	VL_CALIB_COLLECT_PARTNER, /* the partner's */
	VL_CALIB_COLLECT_MAX,     /* the largest of every participant's */
	VL_CALIB_COLLECT_ONEWAY   /* partner's receive end - rank 0's send start - offset */
};

/* the state of vlcal_run */
typedef struct vlcal_calib {
	const vlcal_opts *o;
	const vlcal_ops *ops;
	void *be;
	const vlcal_world *w;
	FILE *f;
	int err;
	int bsp_p[VLCAL_MAX_LIST], nbsp_p;
	long h[VLCAL_MAX_LIST];
	int nh;
	int same_clock[2]; /* per link kind: the partner has the same clock */
	int64_t offset[2]; /* the first estimate (metadata) */
	int64_t offset_rtt[2];
	int *parts, nparts; /* the participants of the current phase */
	int *dst, *src;     /* scratch lists for the BSP patterns */
} vlcal_calib;

/* one row of the raw file */
typedef struct vlcal_row {
	int exp;
	const char *link;
	int procs;
	size_t bytes;
	long h;
	int partner;    /* 2-task experiments */
	int count;      /* gap: messages per sample */
	int p;          /* BSP: tasks */
	int nd, ns;     /* BSP: this task's destinations and sources (c->dst, c->src) */
	int64_t offset; /* oneway: partner clock - own clock */
	enum vlcal_collect collect;
} vlcal_row;

/* one sample of a row: what this task measured (ns; 0 if nothing) */
typedef int64_t (*vlcal_sample_fn)(vlcal_calib *c, const vlcal_row *r);

/* ---- calib_run.c ---- */

/* A phase: the tasks in parts[] work, the others wait for rank 0's wake-up
 * (without spinning).  Returns 1 if this task takes part. */
int vlcal_phase_begin(vlcal_calib *c, const int *parts, int n);
/* rank 0 wakes the tasks that did not take part */
void vlcal_phase_end(vlcal_calib *c);
/* one row of the raw file: every participant calls it */
void vlcal_run_row(vlcal_calib *c, const vlcal_row *r, vlcal_sample_fn fn);

/* ---- calib_exp.c: the sample functions of the experiments ---- */

int64_t vlcal_sample_rtt(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_oneway(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_send(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_recv(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_gap(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_pack(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_contention(vlcal_calib *c, const vlcal_row *r); /* and share_fanout */
int64_t vlcal_sample_bsp(vlcal_calib *c, const vlcal_row *r);
/* the sharing experiments: c->parts[0] = rank 0 and the c->nparts - 1 others,
 * one per host; every time is rank 0's, from its first message on */
int64_t vlcal_sample_share_exchange(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_share_fanin(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_share_alltoall(vlcal_calib *c, const vlcal_row *r);
int64_t vlcal_sample_share_first(vlcal_calib *c, const vlcal_row *r);

/* ---- calib_clock.c ---- */

/* the partner of rank 0 over link kind k (0 intra, 1 inter), -1 if none */
int vlcal_partner_of(const vlcal_calib *c, int k);
/* round trips per clock offset estimate */
int vlcal_offset_pings(const vlcal_calib *c);
/* Cristian's method: partner's clock - rank 0's, from the fastest of n round
 * trips (into *best_rtt if not NULL); both tasks call it */
int64_t vlcal_estimate_offset(vlcal_calib *c, int partner, int n, int64_t *best_rtt);
/* both tasks of link kind k learn whether they read the same clock; rank 0
 * estimates the offset (c->same_clock, c->offset, c->offset_rtt) */
void vlcal_clock_setup(vlcal_calib *c, int k);

/* ---- calib_file.c ---- */

/* rank 0 opens o->out and tells everybody whether it worked: 0 or 1 */
int vlcal_file_open(vlcal_calib *c);
/* rank 0: the metadata comments and the column names */
void vlcal_file_header(vlcal_calib *c);
/* rank 0: closes the file; 0, or 1 after a write error (printed) */
int vlcal_file_close(vlcal_calib *c);

#endif
