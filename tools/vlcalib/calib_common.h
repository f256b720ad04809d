/* calib_common.h - the library-independent half of the vlcalib measurement
 * programs (calib_mpi, calib_pvm): options, size lists, clocks, statistics,
 * the raw CSV file and every experiment.
 *
 * A program fills a vlcal_ops table with its library's communication
 * primitives (the only per-library code) and calls vlcal_run().  All tasks
 * run the same plan (SPMD): the plan depends only on the options and on the
 * node of every task, which all tasks know.  Task 0 writes the raw file:
 *   # vlcalib raw v1
 *   # key: value          (library, hosts, date, command, clock_offset_ns, ...)
 *   experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns
 *   rtt,intra,2,8,0,1000,250.0,331.0,340.1,510.0,21.3
 * one row per (experiment, link, procs, bytes); see vlcal_exp_name() for
 * the experiments and vlcalib-run --help.
 * Implemented by calib_*.c (their shared internals: calib_impl.h).
 */
#ifndef VLCAL_COMMON_H
#define VLCAL_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* message tags used by the experiments (PVM and MPI alike) */
#define VLCAL_TAG_DATA    101
#define VLCAL_TAG_ACK     102
#define VLCAL_TAG_CTRL    103
#define VLCAL_TAG_STAMP   104
#define VLCAL_TAG_BARRIER 105
#define VLCAL_TAG_RESULT  106
#define VLCAL_TAG_GO      107 /* the sharing experiments: rank 0 starts a task */

/* experiments, in the order they are run; bit i of an "only" mask = experiment i */
enum vlcal_exp {
	VL_CALIB_RTT,
	VL_CALIB_ONEWAY,
	VL_CALIB_SEND,
	VL_CALIB_PACK,
	VL_CALIB_RECV,
	VL_CALIB_GAP,
	VL_CALIB_CONTENTION,
	VL_CALIB_BSP_EXCHANGE,
	VL_CALIB_BSP_PINGPONG,
	VL_CALIB_BSP_ONETOALL,
	VL_CALIB_BSP_ALLTOONE,
	VL_CALIB_BSP_ALLTOALL,
	VL_CALIB_BSP_BARRIER,
	VL_CALIB_SHARE_EXCHANGE, /* the sharing experiments (ops->share only) */
	VL_CALIB_SHARE_FANOUT,
	VL_CALIB_SHARE_FANIN,
	VL_CALIB_SHARE_ALLTOALL,
	VL_CALIB_SHARE_FIRST, /* a fan-out until the first partner has its message */
	VL_CALIB_NEXP
};

/* the raw file's name of experiment e */
const char *vlcal_exp_name(int e);

#define VLCAL_MAX_LIST 128

/* the measurement options (both programs take the same ones) */
typedef struct vlcal_opts {
	size_t sizes[VLCAL_MAX_LIST]; /* ping-pong family sizes, increasing */
	int nsizes;
	long bsp_h[VLCAL_MAX_LIST]; /* h-relation targets (rounded when run) */
	int nbsp_h;
	int bsp_procs[VLCAL_MAX_LIST]; /* 0 entries: the default list */
	int nbsp_procs;
	unsigned only;       /* mask of experiments to run */
	int only_given;      /* --only was given */
	int64_t min_time_ns; /* per row: repeat until this much time is spent */
	int64_t budget_ns;   /* per row: at most about this much, warm-up included */
	int min_reps, max_reps, warmup;
	int ranks_per_node; /* > 0: pretend ranks r / N form a node */
	int quick;
	const char *out;      /* the raw file (task 0) */
	const char *command;  /* metadata "command:" (NULL: the argument list) */
	char argv_line[2048]; /* the argument list as given */
	const char *prog;     /* program name for messages */
} vlcal_opts;

/* the communication primitives of one library.  `be` is the program's own
 * state; ranks are 0 .. size-1.  Data messages carry the bytes set by the last
 * set_size() (PVM: a packed buffer, reused for every send). */
typedef struct vlcal_ops {
	const char *library; /* "mpi" or "pvm" */
	/* prepare data messages of `bytes` bytes (not timed); a task receives at
	 * most size-1 of them at once (BSP patterns) */
	void (*set_size)(void *be, size_t bytes);
	/* blocking send of the data message to dst (TAG_DATA) */
	void (*send)(void *be, int dst);
	/* blocking receive of a data message from src */
	void (*recv)(void *be, int src);
	/* wait until a data message from src has arrived, without receiving it */
	void (*probe)(void *be, int src);
	/* the data message to k destinations at once (MPI: Isend + Waitall; PVM: mcast) */
	void (*multisend)(void *be, const int *dst, int k);
	/* send the data message to each of dst[0..nd-1], receive one from each of
	 * src[0..ns-1] (any order of completion) */
	void (*exchange)(void *be, const int *dst, int nd, const int *src, int ns);
	/* n 64-bit integers (n may be 0: an empty message) */
	void (*send_i64)(void *be, int dst, int tag, const int64_t *v, int n);
	void (*recv_i64)(void *be, int src, int tag, int64_t *v, int n);
	/* 1 if a message from src with tag has arrived (not received) */
	int (*iprobe)(void *be, int src, int tag);
	/* barrier among ranks 0 .. p-1 (called only by them) */
	void (*barrier)(void *be, int p);
	/* PVM only (else NULL): ns spent packing `bytes` (initsend + pkbyte) */
	int64_t (*pack)(void *be, size_t bytes);
	/* share_first: the data message to each of dst[0..k-1], started as a
	 * program starts them (MPI: an Isend each, then Waitall; PVM: a pvm_send
	 * each, in turn) */
	void (*sendeach)(void *be, const int *dst, int k);
	/* 1: run the sharing experiments (share_*) */
	int share;
} vlcal_ops;

/* what the program knows about the tasks */
typedef struct vlcal_world {
	int rank, size;
	int *node;                   /* node[r]: equal values = same node (all ranks) */
	char **host;                 /* host[r]: host name (rank 0 only; else NULL) */
	const char *library_version; /* metadata, may be NULL */
} vlcal_world;

/* parse the options (argv[1..]); unknown ones that `extra` accepts are left to
 * it: extra(arg, next, ctx) returns the number of arguments used (1 or 2), 0 if
 * it does not know arg, -1 on a bad value (it printed why).
 * Returns 0, 1 after --help (printed with `usage`), 2 on a bad option (printed). */
int vlcal_parse(vlcal_opts *o, int argc, char **argv, const char *prog, const char *usage,
                   int (*extra)(const char *arg, const char *next, void *ctx), void *ctx);

/* the common part of the usage text */
extern const char vlcal_common_usage[];

/* run every selected experiment; task 0 writes o->out.  Returns 0 or an exit
 * status (1: I/O error on the raw file). */
int vlcal_run(const vlcal_opts *o, const vlcal_ops *ops, void *be,
                 const vlcal_world *w);

/* helpers (exported for the programs and unit tests) */
int64_t vlcal_now_ns(void); /* CLOCK_MONOTONIC */
/* statistics of n samples (sorted in place): min, median, mean, max, stddev (n-1) */
typedef struct vlcal_stats {
	double min, median, mean, max, stddev;
} vlcal_stats;
void vlcal_stats_of(int64_t *s, int n, double scale, vlcal_stats *st);
/* parse "12", "4KiB", "1M" ...: 0 and *v, or -1 */
int vlcal_parse_size(const char *s, size_t *v);
/* parse "20ms", "1.5s", "500us", "20" (ms): 0 and *ns, or -1 */
int vlcal_parse_time(const char *s, int64_t *ns);
/* the default ping-pong sizes in [lo, hi]: 0, powers of two and their 1.5x midpoints */
int vlcal_default_sizes(size_t lo, size_t hi, size_t *out, int max);
/* a 64-bit identity of this kernel's monotonic clock (boot id), 0 if unknown */
int64_t vlcal_clock_id(void);

#endif
