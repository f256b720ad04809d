/* simgrid.h - vlpost simgrid: a run's traces as SimGrid's time-independent
 * trace (TI) with a platform generated from the VMConfig, and their replay by
 * SimGrid's own `smpirun -replay` (docs/simgrid.md).
 *
 * Files: simgrid_ti.c (one rank's records -> TI actions), simgrid_plat.c (the
 * platform XML, the hostfile and the smpirun command line), simgrid.c (the
 * command, the export of a trace directory, running smpirun and reading its
 * result back).
 */
#ifndef VLPOST_SIMGRID_H
#define VLPOST_SIMGRID_H

#include <stdint.h>
#include <stdio.h>

#include "vlayer/core/vmconfig.h"
#include "vltrace.h"

/* vlpost simgrid ARGS (argv[0] = "simgrid"); returns the exit status. */
int vlpost_simgrid_main(int argc, char **argv);

/* Platform shapes (--topology). */
enum vlpost_sg_topo {
	VLPOST_SG_FATPIPE = 0, /* contention-free: FATPIPE links, one route per host pair */
	VLPOST_SG_STAR,        /* a SHARED up and down link per host (a switch) */
	VLPOST_SG_BUS,         /* one SHARED link for every message between hosts */
	VLPOST_SG_VMCONFIG     /* the VMConfig's [topology] (star, switch, bus, torus;
	                          full or half duplex) */
};
/* A topology argument meaning: the VMConfig's [topology] if it has one,
 * else fatpipe. */
#define VLPOST_SG_AUTO (-1)
/* "fatpipe" | "star" | "bus" | "vmconfig" -> enum, or -1. */
int vlpost_sg_topo_parse(const char *name);

/* Export the traces of tracedir with the VMConfig at vmconfig (NULL: the copy
 * tracedir/vmconfig.ini) into a temporary directory, replay them with
 * smpirun (the $SMPIRUN command, else smpirun from PATH) on the platform of
 * topology (enum vlpost_sg_topo), and print the table of per-rank end times,
 * vlayer's and SimGrid's, on out.  keep: leave the directory (its name is
 * printed).  Returns the exit status: 0, 2 (bad input), 3 (smpirun missing or
 * failed).  For `vlpost replay --engine simgrid`. */
int vlpost_simgrid_replay(const char *tracedir, const char *vmconfig, int topology, int keep,
                          FILE *out);

/* ---- the TI writer of one rank (simgrid_ti.c) ---- */

/* What the first pass learnt of a nonblocking receive: its completion's
 * source, tag and size (the IRECV record has only the posted pattern). */
typedef struct vlpost_sg_req {
	int32_t peer, tag; /* peer: a rank, -1 unknown */
	int64_t bytes;
	int done; /* its completion was seen */
} vlpost_sg_req;

/* tid -> rank (processor), -1 if the tid has no trace. */
typedef int (*vlpost_sg_rank_fn)(void *ctx, int32_t tid);

typedef struct vlpost_sg_ti {
	int rank, nranks;
	int mpi;      /* MPI_COMM_WORLD collectives can be exported */
	double speed; /* flop/s of the rank's host in the platform */
	vlpost_sg_rank_fn rank_of;
	void *ctx;
	int64_t cur;        /* ns: the end of what is exported so far */
	vlpost_sg_req *req; /* by request number */
	uint32_t nreq;
	uint64_t actions;                  /* TI lines written, init included */
	uint64_t as_sleep[VL_EV_LAST + 1]; /* records exported as a sleep of their duration */
	/* every member's block of the collectives whose trace records them
	 * (VL_EV_BLOCKS): by the blocking one's number among the rank's
	 * blocking VL_EV_COLL records, or the nonblocking one's key */
	struct vlpost_sg_blk {
		int nb;
		uint64_t id;
		int64_t *b;
	} *blk;
	uint32_t nblk;
	uint64_t ncoll_note, ncoll_rec; /* blocking VL_EV_COLL records seen by each pass */
	int last_nb, last_ok;           /* (first pass) the entry record before */
	uint64_t last_id;
} vlpost_sg_ti;

void vlpost_sg_ti_init(vlpost_sg_ti *t, int rank, int nranks, int mpi, double speed,
                       vlpost_sg_rank_fn rank_of, void *ctx);
/* First pass: learn the completions of nonblocking receives from r. */
void vlpost_sg_ti_note(vlpost_sg_ti *t, const vl_trec *r);
/* Second pass: "R init", then a sleep until the task's start. */
void vlpost_sg_ti_begin(vlpost_sg_ti *t, int64_t start_ns, FILE *out);
/* The TI actions of record r (records in trace order). */
void vlpost_sg_ti_rec(vlpost_sg_ti *t, const vl_trec *r, FILE *out);
/* The last action: "R sleep 0", the marker whose date is the rank's end. */
void vlpost_sg_ti_end(vlpost_sg_ti *t, FILE *out);
void vlpost_sg_ti_free(vlpost_sg_ti *t);
/* Print "S.NNNNNNNNN" (exact seconds of ns >= 0). */
void vlpost_sg_secs(FILE *out, int64_t ns);

/* ---- the platform (simgrid_plat.c) ---- */

/* A link of the platform: latency (s, the envelope SimGrid adds taken off)
 * and bandwidth (B/s) for messages from host src (intra: to itself). */
typedef struct vlpost_sg_link {
	double lat_s, bw;
	int64_t lat_ns_model; /* the model's size-independent transmission (ns) */
	double ns_per_byte;   /* the model's per-byte transmission (ns) */
	int lat_clamped;      /* the envelope was larger than the latency: lat_s = 0 */
	int approx;           /* a piecewise trans_model, taken as a line */
} vlpost_sg_link;

/* SimGrid adds this many bytes to every message (its MPI envelope). */
#define VLPOST_SG_ENVELOPE 16

void vlpost_sg_link_of(const vlcfg_config *cfg, int src, int intra, vlpost_sg_link *l);

/* Write the platform XML (version 4.1) of cfg: hosts (speed: flops, else 1e9;
 * cores: the larger of processors and ranks[h], the ranks placed on h) and
 * the links and routes of topology.  Warnings (approximations) on warn. */
int vlpost_sg_platform(FILE *f, const vlcfg_config *cfg, const int *ranks, int topology,
                       FILE *warn);
/* Host speed written into the platform for host h (flop/s). */
double vlpost_sg_speed(const vlcfg_config *cfg, int h);
/* The smpirun options that make SimGrid time messages like vlayer (network
 * model, eager/rendezvous threshold, collective algorithms), one per line
 * if sep is "\n", else separated by sep. */
void vlpost_sg_cfg_opts(FILE *f, const vlcfg_config *cfg, int mpi, const char *sep);

#endif
