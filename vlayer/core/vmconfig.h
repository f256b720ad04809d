/* vmconfig.h - the VMConfig: the modelled machine, loaded from an INI file with inih.
 *
 * All times are int64 nanoseconds.  Transmission cost per KiB is kept in
 * picoseconds so that bandwidths such as 100 Mbit/s (81920000 ps/KiB) are exact.
 * See docs/vmconfig.md for the file syntax.
 */
#ifndef VLCFG_VMCONFIG_H
#define VLCFG_VMCONFIG_H

#define VLCFG_MAX_CPUS 64           /* [simulation] cpus: at most */
#define VLCFG_DEADLOCK_DEFAULT 2000000000LL /* [simulation] deadlock_after (ns) */

#include <stddef.h>
#include <stdint.h>
#include "vltrace.h"
#include <stdio.h>

#define VLCFG_MAX_BP 32     /* breakpoints of one piecewise-linear model */
#define VLCFG_MAX_CONT 32   /* entries of a contention table */
#define VLCFG_NAME_MAX 64
#define VLCFG_PATH_MAX 1024
#define VLCFG_UNSET (-1)    /* an int64 host override that is not given */

/* Piecewise-linear function of message size: n points (bytes[i], ns[i]),
 * bytes strictly increasing, bytes[0] >= 0.  n == 0 means "not given". */
typedef struct vlcfg_pwl {
	int n;
	int64_t bytes[VLCFG_MAX_BP];
	int64_t ns[VLCFG_MAX_BP];
} vlcfg_pwl;

/* Message model of one kind of link (inside one node, or between nodes). */
typedef struct vlcfg_link {
	int64_t send_delay;       /* ns the sender spends in a send, size independent */
	int64_t recv_delay;       /* ns the receiver spends in each recv/nrecv/probe call */
	int64_t trans_delay;      /* ns on the wire, size independent */
	int64_t trans_per_kib_ps; /* ps per KiB on the wire (CLUE: transmission proportional delay) */
	vlcfg_pwl send_model;        /* if n > 0: send time = pwl(bytes), replaces send_delay */
	vlcfg_pwl trans_model;       /* if n > 0: transmission = pwl(bytes), replaces delay + per KiB */
	int ncont;                /* contention table: factor on the send time */
	int cont_k[VLCFG_MAX_CONT];  /* number of simultaneous destinations, increasing, >= 1 */
	double cont_f[VLCFG_MAX_CONT]; /* factor (>= 0) */
} vlcfg_link;

typedef struct vlcfg_host {
	char name[VLCFG_NAME_MAX];   /* virtual host name, used in pvm_spawn */
	char real[256];           /* real host it maps to; "" = let PVM choose */
	int procs;                /* processors of this SMP node (>= 1) */
	double factor;            /* multiplier on measured CPU time; 0 = unchanged (CLUE) */
	double flops;             /* flop/s of one processor, for vl_compute_flops (0 = unknown) */
	int64_t init_delay;       /* ns for spawning a task on this host */
	/* per-host overrides of the link model (VLCFG_UNSET = use the link's value) */
	int64_t send_delay, recv_delay, trans_delay, trans_per_kib_ps;
} vlcfg_host;

enum vlcfg_placement { VLCFG_PLACE_FILL = 0, VLCFG_PLACE_ROUNDROBIN = 1 };

/* [mpi]: how MPI ranks map to virtual hosts and when a send is a rendezvous;
 * [collectives]: the algorithm that times each collective. */
typedef struct vlcfg_mpi {
	int64_t eager_limit;      /* bytes: a message of this size or more is a rendezvous
	                             (its send completes when the receive is posted) */
	int placement;            /* enum vlcfg_placement: fill nodes in file order, or round robin */
	int ranks_per_node;       /* fill: ranks per host; 0 = the host's processors */
	int nrank_hosts;          /* > 0: explicit list, rank r on rank_hosts[r % n] */
	int *rank_hosts;          /* malloc'd host indices */
	int coll_alg[VL_KIND_N]; /* enum vlcoll_alg per enum vl_coll_kind; 0 = default */
	int coll_select;          /* enum vlcoll_selection: how "default" is chosen */
} vlcfg_mpi;

/* [topology]: how the hosts are joined (vmconfig_topo.c); the engine's
 * flow model (links.c) routes and shares messages between hosts on it, and
 * vlpost simgrid builds SimGrid's platform from it. */
enum vlcfg_topo_kind { VLCFG_TOPO_NONE = 0, VLCFG_TOPO_STAR, VLCFG_TOPO_SWITCH, VLCFG_TOPO_BUS,
		       VLCFG_TOPO_TORUS, VLCFG_TOPO_FATTREE };
typedef struct vlcfg_topo {
	int kind;                 /* enum vlcfg_topo_kind */
	int half_duplex;          /* 1: a link carries both directions at once */
	int fifo;                 /* sharing = fifo: the earliest transfer first (0: fair) */
	int coll_shared;          /* collectives = shared: a blocking MPI collective's
	                             messages share with the others' (0: among themselves) */
	double bandwidth;         /* B/s of each link; 0 = [network inter]'s */
	int64_t latency;          /* ns: a message's between hosts (torus: a hop's);
	                             VLCFG_UNSET = [network inter]'s trans_delay */
	double backplane;         /* switch: B/s it carries in all; 0 = no limit */
	int ndims, dims[3];       /* torus: its size */
	int leaf_hosts;           /* fattree: hosts per leaf switch (file order) */
	int spines;               /* fattree: spine switches, each joined to every leaf (>= 1) */
	double uplink_bw;         /* fattree: B/s of a leaf-spine link; 0 = bandwidth */
	int kind_line, dims_line, backplane_line, leaf_line, spines_line, uplink_line;
	                          /* (for the loader's messages) */
} vlcfg_topo;

/* Name of a kind ("torus"). */
const char *vlcfg_topo_kind_name(int kind);

typedef struct vlcfg_config {
	char path[VLCFG_PATH_MAX];   /* file it was loaded from, "(built-in)" for the default */
	int nhosts;
	vlcfg_host *hosts;           /* malloc'd, nhosts entries, in file order */
	vlcfg_link intra;            /* between tasks on the same virtual host */
	vlcfg_link inter;            /* between tasks on different virtual hosts */
	int compute_ignore;       /* [simulation] compute = ignore */
	int placement;            /* enum vlcfg_placement */
	int ordering_real;        /* [simulation] ordering = real (0: virtual, the default) */
	int64_t deadlock_after;   /* [simulation] deadlock_after: ns every task must have waited,
				     nothing on its way, before a deadlock is declared (2 s) */
	char trace_dir[VLCFG_PATH_MAX]; /* [simulation] trace_dir, "" = not given */
	int cpus;                 /* [simulation] cpus: processors the tasks of one real host
				     compute on at once (the CPU gate): 0 off, -1 auto */
	vlcfg_mpi mpi;               /* [mpi] and [collectives] */
	vlcfg_topo topo;             /* [topology] */
} vlcfg_config;

/* Fill cfg with the built-in default machine (documented in README.md):
 * one host "localhost", 1 processor, factor 0, all delays 0, compute measured. */
void vlcfg_default(vlcfg_config *cfg);

/* Load the VMConfig at path into cfg (which need not be initialised).
 * Returns 0 on success.  On error returns -1, leaves cfg freed/empty and writes
 * a one-line message "FILE:LINE: [section] key: what is wrong (what is valid)"
 * into err (errlen bytes, always NUL-terminated).  A missing file gives
 * "FILE: cannot open: <strerror>". */
int vlcfg_load(const char *path, vlcfg_config *cfg, char *err, size_t errlen);

/* Free what vlcfg_load/vlcfg_default allocated.  Safe on a zeroed cfg. */
void vlcfg_free(vlcfg_config *cfg);

/* Change one value of a loaded config, as the line `key = value` in the
 * section [section] would set it ("simulation" accepts compute only; "host
 * NAME" everything but processors and real; "mpi" eager_limit only;
 * "collectives" every kind).  Returns 0, or -1 with a one-line message in err;
 * cfg is unchanged on error.  Used by vl_set_param(). */
int vlcfg_set(vlcfg_config *cfg, const char *section, const char *key, const char *value,
		  char *err, size_t errlen);

/* Virtual host of MPI rank `rank` under the [mpi] rule (always a valid index). */
int vlcfg_rank_host(const vlcfg_config *cfg, int rank);

/* Index of the host called name, or -1. */
int vlcfg_host_index(const vlcfg_config *cfg, const char *name);

/* Print cfg in canonical INI form (every value in base units: ns, B, ps/KiB),
 * used by `vlconfig --dump` and by the golden tests. */
void vlcfg_dump(const vlcfg_config *cfg, FILE *out);

/* Unit parsers, exposed for tests.  Each returns 0 and stores the value, or -1
 * if text is not a number followed by an allowed unit (surrounding blanks ok).
 *  time:  ns us ms s  (a bare number is an error: the unit is required)
 *  size:  B KiB MiB GiB KB MB GB (bare number = bytes)
 *  rate:  B/s KB/s MB/s GB/s KiB/s MiB/s GiB/s bit/s kbit/s Mbit/s Gbit/s -> bytes/s (double) */
int vlcfg_parse_time(const char *text, int64_t *ns);
int vlcfg_parse_size(const char *text, int64_t *bytes);
int vlcfg_parse_rate(const char *text, double *bytes_per_s);

#endif
