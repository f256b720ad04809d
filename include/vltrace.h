/* vltrace.h - the on-disk format of a vlayer task trace (one file per task).
 *
 * Shared by the writer (vlayer/core/trace.c) and every reader (postproc/,
 * tools/vlmodel); installed with the library, so that anyone can read traces.
 * It holds every value stored in a trace, collective kinds included.
 * A trace file is: one vl_thdr (256 bytes), then vl_trec records (64 bytes each),
 * little-endian, written in the order the task performed them (so t0 is
 * non-decreasing).  A file that ends inside a record is truncated: readers
 * report it and use the complete records before it.  A task that ended
 * normally has a VL_EV_END record last.
 * File name: <trace_dir>/vl-<tid as 8 hex digits>.trc
 */
#ifndef VL_TRACE_FORMAT_H
#define VL_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define VL_TRACE_MAGIC "VLTRACE1"   /* 8 bytes, no NUL */
#define VL_TRACE_VERSION 1

typedef struct vl_thdr {
	char magic[8];            /* VL_TRACE_MAGIC */
	uint32_t version;         /* VL_TRACE_VERSION */
	uint32_t hdr_size;        /* sizeof(vl_thdr) == 256 */
	uint32_t rec_size;        /* sizeof(vl_trec) == 64 */
	int32_t tid;              /* this task's id (PVM tid, or MPI rank) */
	int32_t ptid;             /* parent's id, or -1 */
	int32_t host;             /* virtual host index in the VMConfig */
	int64_t start_ns;         /* virtual time at which the task started */
	char host_name[64];       /* virtual host name */
	char program[128];        /* program name (argv[0] basename) */
	char pad[256 - 8 - 4 * 6 - 8 - 64 - 128];
} vl_thdr;

/* Record types.  Times are virtual nanoseconds. */
enum vl_ev {
	VL_EV_START = 1,  /* t0 = t1 = start time */
	VL_EV_END = 2,    /* t0 = t1 = end time; bytes = computation ns, t2 = communication ns,
	                     t3 = waiting ns (the three components at the end).  With
	                     measured computation, the real-time interference of the task's
	                     life (else 0): t4 = its real duration ns, tag = the machine's
	                     CPU steal in that time (ms, all CPUs), seq = the times the
	                     task was preempted (involuntary context switches) */
	VL_EV_SEND = 3,   /* one message: peer = destination, tag, seq = this sender's message
	                     number (1, 2, ...), bytes = user bytes, t0 = call begin,
	                     t1 = call end (t0 + send time + waiting), t2 = virtual arrival
	                     at peer.  flags & VL_TF_MCAST: part of a multicast of t3
	                     destinations.  flags & VL_TF_NB: a nonblocking send (MPI_Isend,
	                     a persistent start): t4 = its request number, completed by a
	                     VL_EV_WAIT; else t4 = waiting ns at the end of [t0,t1] (a
	                     rendezvous send waiting for its receive to be posted) */
	VL_EV_RECV = 4,   /* one message received: peer = source, tag, seq = the sender's seq,
	                     bytes, t0 = call begin, t1 = call end, t2 = waiting ns inside
	                     [t0,t1], t3 = the message's virtual arrival time.
	                     flags & VL_TF_NB: the completion, in a wait or test call
	                     [t0,t1], of the nonblocking receive posted by the VL_EV_IRECV
	                     with request number t4 */
	VL_EV_COMPUTE = 5,/* modelled computation added by vl_compute(): t0, t1 */
	VL_EV_MARK = 6,   /* user mark: peer = mark id, t0 = t1 = time, text = label */
	VL_EV_SPAWN = 7,  /* peer = child tid, t0 = call begin, t1 = call end, t2 = child's start,
	                     tag = child's virtual host index */
	VL_EV_PROBE = 8,  /* nrecv/probe/trecv that found nothing: t0, t1; peer, tag = pattern.
	                     flags & VL_TF_FOUND: a blocking probe (MPI_Probe) that waited
	                     for a message: peer = its source, tag = its tag, t2 = waiting
	                     ns inside [t0,t1] */
	VL_EV_COLL = 9,   /* group operation: tag = VL_COLL_*, t0, t1, t2 = waiting ns,
	                     t3 = number of group members, bytes = user bytes,
	                     peer = root tid or -1 (no text); flags & VL_TF_V,
	                     VL_TF_BLOCK: the MPI call made; flags & VL_TF_NB: a
	                     nonblocking one (since 2026-11-27), t0 = begin of the
	                     call that completed it, t4 = its start, seq = the key
	                     of its VL_EV_ICOLL (readers take an older one, which
	                     began at its start, for this, with seq 0); flags &
	                     VL_TF_SHARED on a blocking one (since 2026-11-29):
	                     timed on the [topology]'s links from its first
	                     member's entry on (collectives = shared) - a
	                     gatherv's root then has VL_EV_BLOCKS */
	VL_EV_PARAM = 10, /* model parameters changed at t0: text = "key=value" */
	VL_EV_IRECV = 11, /* a nonblocking receive posted (MPI_Irecv, a persistent start):
	                     peer, tag = pattern (-1 = any), t0 = call begin, t1 = call end,
	                     t4 = request number (1, 2, ... per task) */
	VL_EV_WAIT = 12,  /* the completion of a nonblocking send in a wait or test call:
	                     peer = destination, tag, seq = the message's seq, bytes,
	                     t0 = call begin, t1 = call end, t2 = waiting ns inside [t0,t1],
	                     t4 = the request number of its VL_EV_SEND */
	VL_EV_SLEEP = 13, /* the program slept (nanosleep, usleep, sleep, clock_nanosleep):
	                     t0, t1; [t0,t1] is waiting */
	VL_EV_ICOLL = 14, /* a nonblocking collective started (since 2026-11-27): tag =
	                     VL_COLL_MPI + kind, t0 = t1 = the call, t3 = number of
	                     members, bytes, peer = root tid or -1, seq = its key (1, 2,
	                     ... per task; its VL_TF_NB COLL record, at its completion,
	                     has the same); flags & VL_TF_SHARED: its messages may share
	                     the [topology]'s links (collectives = shared, the board
	                     took its floor), and VL_TF_OPENED: from its first
	                     member's entry on */
	VL_EV_BLOCKS = 15 /* the block of each member of a scatterv (a gatherv timed with
	                     VL_TF_SHARED: since 2026-11-29), on its root's trace (an
	                     allgatherv's or reduce_scatter's timed so: on every
	                     member's, since the third session of 2026-11-29; an
	                     alltoallv's: on every member's, its row - the bytes
	                     it sends each member)
	                     right after the record of its entry (the VL_EV_COLL of a
	                     blocking one, the VL_EV_ICOLL of a nonblocking one; since
	                     2026-11-28, where the root's entry carried them online):
	                     t0 = t1 = that record's t1, peer = the first member
	                     (0, 4, 8, ...), tag = how many here (1 to 4), bytes, t2,
	                     t3, t4 = their blocks in bytes, seq = the key of that
	                     record (0: a blocking one).  Readers that do not need
	                     them skip them */
};
#define VL_EV_LAST VL_EV_BLOCKS
#define VL_BLOCKS_PER_REC 4

enum vl_coll { VL_COLL_BARRIER = 1, VL_COLL_BCAST, VL_COLL_REDUCE, VL_COLL_GATHER,
	       VL_COLL_SCATTER, VL_COLL_JOIN, VL_COLL_LEAVE,
	       /* collectives timed by a named algorithm (MPI, and pvm_barrier of
	          [collectives]): VL_COLL_MPI + enum vl_coll_kind, bytes = this
	          rank's block (alltoall: to rank 0) */
	       VL_COLL_MPI = 16 };

/* The kinds of collective the engine times by an algorithm.  The v-variants
 * share the kind of their plain form (the byte counts carry the difference). */
enum vl_coll_kind {
	VL_KIND_BARRIER = 0,
	VL_KIND_BCAST,
	VL_KIND_REDUCE,
	VL_KIND_ALLREDUCE,
	VL_KIND_GATHER,         /* also gatherv */
	VL_KIND_SCATTER,        /* also scatterv */
	VL_KIND_ALLGATHER,      /* also allgatherv */
	VL_KIND_ALLTOALL,       /* also alltoallv / alltoallw */
	VL_KIND_REDUCE_SCATTER, /* also reduce_scatter_block */
	VL_KIND_SCAN,
	VL_KIND_EXSCAN,
	VL_KIND_N
};

/* Name of a kind ("bcast"), as the VMConfig's [collectives] keys and every
 * view spell it; "unknown" out of range. */
static inline const char *vl_coll_kind_name(int kind)
{
	static const char *const names[VL_KIND_N] = {
		"barrier", "bcast", "reduce", "allreduce", "gather", "scatter",
		"allgather", "alltoall", "reduce_scatter", "scan", "exscan",
	};
	return kind >= 0 && kind < VL_KIND_N ? names[kind] : "unknown";
}

#define VL_TF_MCAST 1u
#define VL_TF_SYNTH 2u    /* receive of a message that carried no virtual time */
#define VL_TF_NB 4u       /* send/receive of a nonblocking request: t4 = request number */
#define VL_TF_FOUND 8u    /* probe that found a message */
#define VL_TF_SHARED 16u  /* send of a message that shared the [topology]'s links with
			     others: t2 is its arrival on free links (a lower bound), the
			     receive's t3 the final one */
#define VL_TF_V 32u       /* collective: a v-variant call (MPI_Gatherv, MPI_Scatterv,
			     MPI_Allgatherv, MPI_Alltoallv/w and their nonblocking forms) */
#define VL_TF_BLOCK 64u   /* collective: MPI_Reduce_scatter_block (or its nonblocking form) */
#define VL_TF_ANY 128u    /* blocking receive whose source was a wildcard (MPI_ANY_SOURCE);
			     without VL_TF_ANYRDV (traces before 2026-11-27) a rendezvous
			     it took kept its contention-free time */
#define VL_TF_ANYRDV 256u /* with VL_TF_ANY, or on the IRECV of a wildcard receive
			     (since 2026-11-27): a rendezvous it took left at its post
			     and shared the [topology]'s links, as a named receive's */
#define VL_TF_OPENED 512u /* with VL_TF_SHARED, on a nonblocking collective's VL_EV_ICOLL
			     and its VL_TF_NB COLL (since 2026-11-29): timed on the
			     [topology]'s links from its first member's entry on, as a
			     blocking one with VL_TF_SHARED */

typedef struct vl_trec {
	uint16_t type;            /* enum vl_ev */
	uint16_t flags;           /* VL_TF_* */
	int32_t tag;
	int32_t peer;
	uint32_t seq;
	union {
		struct {
			int64_t bytes, t0, t1, t2, t3, t4;
		} v;
		struct {
			int64_t bytes, t0, t1; /* same places as v.bytes, v.t0, v.t1 */
			char text[24];    /* NUL-terminated label (marks, groups, params) */
		} m;
	} u;
} vl_trec;

/* The one way to build a record (the writer, the tests, the benchmarks):
 * every field given, the rest zero. */
static inline vl_trec vl_trec_make(int type, unsigned flags, int32_t peer, int32_t tag, uint32_t seq,
				   int64_t bytes, int64_t t0, int64_t t1, int64_t t2, int64_t t3,
				   int64_t t4)
{
	vl_trec r = { 0 };

	r.type = (uint16_t)type;
	r.flags = (uint16_t)flags;
	r.tag = tag;
	r.peer = peer;
	r.seq = seq;
	r.u.v.bytes = bytes;
	r.u.v.t0 = t0;
	r.u.v.t1 = t1;
	r.u.v.t2 = t2;
	r.u.v.t3 = t3;
	r.u.v.t4 = t4;
	return r;
}

/* A record with a text (marks, groups, parameters): text is cut to fit and
 * always NUL-terminated; NULL is "". */
static inline vl_trec vl_trec_text(int type, int32_t peer, int32_t tag, int64_t bytes, int64_t t0,
				   int64_t t1, const char *text)
{
	vl_trec r = { 0 };
	size_t i;

	r.type = (uint16_t)type;
	r.tag = tag;
	r.peer = peer;
	r.u.m.bytes = bytes;
	r.u.m.t0 = t0;
	r.u.m.t1 = t1;
	for (i = 0; text && text[i] && i + 1 < sizeof r.u.m.text; i++)
		r.u.m.text[i] = text[i];
	return r;
}

#endif
