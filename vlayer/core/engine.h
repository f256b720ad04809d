/* engine.h - the vlayer engine, shared by the PVM and MPI front ends: the
 * virtual clock (clock.c), the delay model (model.c), messages (message.c),
 * the virtual mailbox (mailbox.c), the trace writer (trace.c) and errors
 * (error.c).  Front ends translate calls into these operations and never keep
 * time themselves.
 */
#ifndef VLI_ENGINE_H
#define VLI_ENGINE_H

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include "vlayer/core/vmconfig.h"
#include "vltrace.h"

/* ---- errors (error.c): every diagnostic goes through here, prefixed "vlayer: " ---- */
void vli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the message, run the fatal hook, exit(status). */
__attribute__((noreturn)) void vli_error(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Register the function vli_error calls before exiting (one; the last
 * registration wins): the trace writer's flush, registered when it opens. */
void vli_on_fatal(void (*fn)(void));

/* ---- the task's clock (clock.c) ---- */
typedef struct vli_task {
	int ready;               /* vli_init done */
	int id;                  /* PVM tid */
	int ptid;                /* parent's id or -1 */
	int host;                /* virtual host index */
	int proc;                /* virtual processor slot (host-major), for placement */
	int64_t start;           /* virtual start time */
	int64_t now;             /* virtual time now */
	int64_t comp, comm, wait;/* components */
	int64_t cpu_mark;        /* thread CPU ns at the end of the last layer call */
	int ended;               /* END written */
	uint32_t seq;            /* last message sequence number used */
	vlcfg_config cfg;           /* this task's copy of the model */
} vli_task;

extern vli_task vli_t;

/* Load the VMConfig ($VMCONFIG, else ./VMConfig, else built-in); exits with
 * status 2 and the loader's message if the file is bad. */
void vli_load_config(vlcfg_config *cfg);
/* Start the clock of this task: id, parent id, virtual host, start time. */
void vli_init(int id, int ptid, int host, int64_t start, const char *program);
/* The trace directory of this task: $VLAYER_TRACE_DIR, else the VMConfig's
 * trace_dir, else ./vltrace. */
const char *vli_trace_dir(void);
/* Thread CPU time in ns (real clock, never virtualised). */
int64_t vli_cpu_ns(void);
/* Thread CPU time since the layer was loaded (before main, after the
 * dynamic loader's work), ns. */
int64_t vli_cpu_since_load(void);
/* The program's first layer call begins: its CPU time since the layer was
 * loaded is what vli_init counts as computation before it (once; later
 * calls change nothing).  vli_init takes it itself if the front end did not. */
void vli_first_call(void);
/* The front end's own start-up work after vli_init ends here: it is not the
 * program's computation (the CPU mark is taken again). */
void vli_init_done(void);
/* Real monotonic/realtime clocks in ns (never virtualised). */
int64_t vli_mono_ns(void);
int64_t vli_real_ns(void);
/* Called at the start / end of every intercepted operation: adds the CPU time
 * since the last vli_leave (times the host factor) to computation. */
void vli_enter(void);
void vli_leave(void);
/* The CPU gate (cpugate.c; [simulation] cpus, off by default), with measured
 * computation: vli_leave takes one of the real host's processors for the
 * task (waiting, smallest virtual time first, while none is free), vli_enter
 * gives it back; vli_cpugate_end at the task's end.  A front end installs it
 * (vli_cpugate_install: the clock then calls these through vli_on_gate). */
void vli_cpugate_take(void);
void vli_cpugate_give(void);
void vli_cpugate_end(void);
void vli_cpugate_install(void);
void vli_on_gate(void (*take)(void), void (*give)(void), void (*end)(void));
/* The CPU time the scheduler has counted for thread tid of process pid
 * (/proc/PID/task/TID/schedstat), ns; -1 if unknown. */
int64_t vli_thread_cpu(int pid, int tid);
/* Functions vli_leave / vli_finish call (one each; virtual order registers
 * its own when the task joins the board). */
void vli_on_leave(void (*fn)(void));
void vli_on_finish(void (*fn)(void));
/* Functions called when a segment of measured computation begins (at
 * vli_leave, after the CPU mark is taken) and ends (at vli_enter, before the
 * CPU clock is read); not under compute = ignore. */
void vli_on_segment(void (*begin)(void), void (*end)(void));
/* A call the layer passes straight through (PVM's pack, buffer and info
 * calls) while the task computes: the thread CPU time inside it is not
 * computation.  vli_pass_begin returns the CPU clock (-1: nothing to do) for
 * vli_pass_end, which moves the CPU mark past the call.  Whoever reads the
 * task's CPU time from outside must leave the call out: vli_on_pass
 * registers a function called at four points (phase 0: entry, before the CPU
 * clock is read; 1: after, cpu = that reading, from which on the task's
 * computation is frozen there; 2: exit, before the CPU clock is read; 3:
 * after the mark moved); vli_segment_passed gives the CPU time of such calls
 * since the segment began, the entry reading of the one the task is in (-1:
 * none) and a count that is odd while either changes. */
int64_t vli_pass_begin(void);
void vli_pass_end(int64_t cpu0);
void vli_on_pass(void (*fn)(int phase, int64_t cpu));
uint32_t vli_segment_passed(int64_t *ns, int64_t *cap);
/* What the clock of the current segment is made of: the clock at its begin,
 * the CPU mark, the read cost taken off, the host factor (0: 1). */
void vli_segment_base(int64_t *now, int64_t *mark, int64_t *read_cost, double *factor);
/* Every virtual time stays below VLI_TIME_MAX (about 73 years); the model's
 * costs saturate there. */
#define VLI_TIME_MAX (INT64_MAX / 4)
/* Advance the clock by modelled communication, or wait until t. */
void vli_comm(int64_t ns);
void vli_wait_until(int64_t t);
/* Add ns of computation (scaled CPU time, vl_compute). */
void vli_compute(int64_t ns);
/* The one check of every advance: a clock that would pass VLI_TIME_MAX stops
 * the task with a named error (vli_error, status 2; the trace is kept) instead
 * of wrapping into negative times.  what: what advanced it. */
void vli_check_advance(int64_t ns, const char *what);
/* End of the task: END record, flush. Idempotent. */
void vli_finish(void);
/* Set while the layer's handler of a fatal signal ends the task (what it
 * calls then must not wait for a lock). */
extern volatile sig_atomic_t vli_in_handler;

/* Set in the thread that called vli_init: only that thread's clock calls
 * (time(), gettimeofday() ...) are virtual; the message library's own threads
 * keep real time. */
extern __thread int vli_main_thread;

/* ---- one message (message.c) ---- */
typedef struct vli_sent {
	uint32_t seq;            /* this sender's message number */
	int64_t t0, t1;          /* call begin (for the trace), end of the send */
	int64_t arrival;         /* virtual arrival at the destination */
	int shared;              /* a flow on the [topology]'s links (order_flows.c): arrival
				    is its estimate, the receiver waits for the final one */
} vli_sent;
/* The sender's side of one message to dst_host: the clock pays send_ns now
 * (vli_send_time, times a contention factor for one of k destinations), then
 * waits until depart (a rendezvous: the receive is posted then; 0 = none);
 * traces SEND with t0 as call begin.  req: the request number of a
 * nonblocking send (its waiting is traced by vli_msg_completed), 0 for a
 * blocking one. */
void vli_msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		  int64_t depart, int k, uint32_t req, vli_sent *s);
/* The same for a message that may share the [topology]'s links with the
 * run's other messages (ordering = virtual): flow VLI_FLOW_TRY adds its flow
 * (vli_flow_send) when it leaves; VLI_FLOW_HAVE: the front end added it
 * (MPI: with the header); VLI_FLOW_NONE: none. */
enum { VLI_FLOW_NONE = 0, VLI_FLOW_TRY, VLI_FLOW_HAVE };
void vli_msg_sent_flow(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
		       int64_t t0, int k, uint32_t req, int flow, vli_sent *s);
/* The same for one message of a multicast on a [topology], whose arrival
 * the flows of the whole multicast decide (vli_net_mcast). */
void vli_msg_sent_arriving(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
			   int64_t t0, int k, int64_t arrival, vli_sent *s);
/* The same for a blocking send that returns only when its data are in (an
 * MPI rendezvous, as SimGrid's SMPI completes it): the call also waits until
 * the arrival (arrival >= 0: that one, its flow's on shared links; else
 * departure + transmission). */
void vli_msg_sent_sync(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns,
		       int64_t t0, int64_t depart, int64_t arrival, vli_sent *s);
/* The receiver's side: wait until arrival, pay the receive time, trace RECV
 * with t0 as call begin.  req: the request number of a nonblocking receive
 * (completed in a wait or test call beginning at t0), 0 for a blocking one.
 * Returns the time waited. */
int64_t vli_msg_received(int peer, int src_host, int tag, uint32_t seq, int64_t bytes, int64_t t0,
			 int64_t arrival, unsigned flags, uint32_t req);
/* A nonblocking receive posted by a call that began at t0 (trace IRECV,
 * with flags VL_TF_*). */
void vli_msg_posted(int peer, int tag, uint32_t req, int64_t t0, unsigned flags);
/* A nonblocking send completed in a wait or test call that began at t0: wait
 * until depart (its data left; 0 = already), trace WAIT. */
void vli_msg_completed(int peer, int tag, uint32_t seq, int64_t bytes, uint32_t req, int64_t t0,
		       int64_t depart);
/* A blocking probe that began at t0 found a message from peer with this
 * arrival: wait until it, pay the receive time, trace PROBE (found). */
void vli_msg_probed(int peer, int src_host, int tag, uint32_t seq, int64_t t0, int64_t arrival);
/* The next request number of this task (1, 2, ...). */
uint32_t vli_req_next(void);

/* Nesting guard: a layer call made while another is active (libpvm3 calling
 * itself through the PLT) goes straight to the real library. */
extern __thread int vli_depth;

/* ---- the delay model (model.c) ---- */
int64_t vli_pwl_eval(const vlcfg_pwl *m, int64_t bytes);
double vli_contention(const vlcfg_link *l, int k);
/* Link between two hosts: intra if equal. */
const vlcfg_link *vli_link(const vlcfg_config *c, int src_host, int dst_host);
/* Time the sender spends sending bytes from src_host to dst_host. */
int64_t vli_send_time(const vlcfg_config *c, int src_host, int dst_host, int64_t bytes);
/* Time on the wire: from the end of the send to the virtual arrival. */
int64_t vli_trans_time(const vlcfg_config *c, int src_host, int dst_host, int64_t bytes);
/* Time the receiver spends in a receive / probe call. */
int64_t vli_recv_time(const vlcfg_config *c, int src_host, int dst_host);
/* Lookahead: the least time from the start of any send to its virtual
 * arrival, over every host and size (>= 1 ns); the intra-node link only if
 * vli_la_intra. */
int64_t vli_lookahead(const vlcfg_config *c);
/* Whether two tasks of this run may be on one virtual host, so that a message
 * may take the intra-node link (1, the default: PVM spawns tasks anywhere at
 * any time; MPI sets 0 when every rank of the world has a virtual host of its
 * own, so that a model whose intra-node link costs nothing keeps the
 * lookahead of its inter-node link). */
extern int vli_la_intra;
/* The run's lookahead under virtual order (the least over its tasks; this
 * task's model's where the run's is not known here: another real host). */
int64_t vli_order_lookahead(void);
/* Spawn delay of host h. */
int64_t vli_init_delay(const vlcfg_config *c, int h);
/* Scaled computation: ns of CPU on host h. */
int64_t vli_scale_cpu(const vlcfg_config *c, int h, int64_t cpu_ns);
/* Apply one "section key value" change (vl_set_param). 0 or -1 + err. */
int vli_set_param(vlcfg_config *c, const char *section, const char *key, const char *value,
		  char *err, size_t errlen);

/* ---- shared links: [topology] (links.c) ----
 * With a [topology], a message between two hosts is a flow that leaves at the
 * end of its send time, takes its route's latency, then shares the bandwidth
 * of every link on its route max-min fairly with the flows crossing them at
 * the same time; it arrives when its bytes are through.  This replaces
 * vli_trans_time between hosts; messages inside a host are not flows. */
/* The line a link's transmission time follows: delay + bytes x ns_per_byte
 * (intra or inter; src: the host whose overrides apply, -1: none); a
 * piecewise trans_model: the line through its first and last points, and
 * the return value is 1 (an approximation), else 0.  For the topology's
 * defaults and the SimGrid export. */
int vli_trans_line(const vlcfg_config *c, int src, int intra, double *delay_ns,
		   double *ns_per_byte);
/* Whether c has a topology (and more than one host). */
int vli_net_on(const vlcfg_config *c);
/* A message's latency (ns; a torus: one hop's) and a link's bandwidth
 * (bytes/ns; 0: no limit), defaults from [network inter]. */
void vli_net_params(const vlcfg_config *c, int64_t *lat, double *bytes_per_ns);
/* Resources (links, a backplane), the bandwidth of one (bytes/ns, 0: no
 * limit), the longest route. */
int vli_net_nres(const vlcfg_config *c);
double vli_net_cap(const vlcfg_config *c, int res);
int vli_net_maxroute(const vlcfg_config *c);
/* The resources of the route src -> dst (res: vli_net_maxroute entries) and
 * its latency; returns their number (0: same host, or no topology). */
int vli_net_route(const vlcfg_config *c, int src, int dst, int *res, int64_t *lat);
/* Torus coordinate d of host h (x = h mod A, y = h / A mod B, ...), and the
 * host whose coordinate d is x instead. */
int vli_torus_coord(const vlcfg_topo *t, int h, int d);
int vli_torus_moved(const vlcfg_topo *t, int h, int d, int x);
/* The latency of the route src -> dst alone (hosts out of range: a
 * message's latency). */
int64_t vli_net_latency(const vlcfg_config *c, int src, int dst);
/* The least time bytes from host src to host dst take on the links: alone
 * on their route, its latency then the bytes at its narrowest link (ns,
 * rounded down; sharing only slows them); 0: same host, or no topology. */
int64_t vli_net_alone_ns(const vlcfg_config *c, int src, int dst, int64_t bytes);

typedef struct vli_flow {
	int64_t start;      /* leaves (the end of its send time) */
	double act;         /* start + latency: takes bandwidth from then */
	double left, rate;  /* bytes still to carry; bytes/ns now */
	double end;         /* arrival (once done) */
	int route, nres;    /* its resources: vli_flows.route[route .. route + nres) */
	int state;
	int grp;            /* sharing = fair: its group (the flows of its route) */
	double ftag;        /* ... active: its group's service when its bytes are through */
	int resume;         /* ... resumed from a checkpoint: ftag and rsvc given */
	double rsvc;
} vli_flow;

/* sharing = fair: the flows of one route, which max-min fairness gives one
 * rate; svc: the bytes each of them has been given since the group began,
 * and a heap of its active flows by finish tag (links.c). */
typedef struct vli_fgroup {
	int src, dst, route, nres;
	int nact, fixed;
	double rate, svc;
	int *heap;
	int nheap, capheap;
	int *lq;            /* its flows not taking bandwidth yet, by act: lq[lhead..nlq) */
	int lhead, nlq, caplq;
	int busy;           /* in vli_flows.busy */
} vli_fgroup;

/* A set of flows advanced together in time; flows are added at or after
 * now (the time up to which it has been advanced). */
typedef struct vli_flows {
	const vlcfg_config *c;
	int nres, maxroute;
	double *cap, *rem;
	int *cnt, *take, *touch;
	vli_flow *flow;
	int n, capflow;
	int *route;
	int nroute, caproute;
	int *live;          /* flows not done yet */
	int nlive, caplive;
	double now;
	double next;        /* vli_flows_next's answer, while next_ok */
	int next_ok;
	/* sharing = fair: the groups (gmap: route key -> group + 1, open
	 * addressing) */
	vli_fgroup *grp;
	int ngrp, capgrp;
	int *gmap, capgmap;
	int *busy;          /* the groups with flows not through yet */
	int nbusy, capbusy;
} vli_flows;
void vli_flows_init(vli_flows *f, const vlcfg_config *c);
void vli_flows_free(vli_flows *f);
/* A message of bytes from host src to host dst (different hosts) leaving at
 * start (>= now); returns its id. */
int vli_flows_add(vli_flows *f, int src, int dst, int64_t bytes, int64_t start);
/* The same for a flow resumed from a checkpoint, from what vli_flows_at
 * gave (left, svc), taking bandwidth from act on (its latency counted
 * already); start is kept as its departure.  Resumed so, the flows go on
 * with the very same arithmetic as if never stopped (the same ends to the
 * last bit, wherever the checkpoint was). */
int vli_flows_add_at(vli_flows *f, int src, int dst, double left, double svc, int64_t start,
		     double act);
/* A flow's state (VLI_FLOW_*) and what resumes it if active (*left: the
 * bytes it still has to carry, or sharing = fair its finish tag, and *svc
 * its group's service). */
enum { VLI_FLOW_LATENT = 0, VLI_FLOW_ACTIVE, VLI_FLOW_DONE };
int vli_flows_at(const vli_flows *f, int id, double *left, double *svc);
/* The time of the next event (a flow takes bandwidth, or ends); INFINITY if
 * none.  vli_flows_step advances to it and returns it; vli_flows_advance
 * handles every event up to and including t. */
double vli_flows_next(vli_flows *f);
double vli_flows_step(vli_flows *f);
void vli_flows_advance(vli_flows *f, double t);
/* Whether flow id has arrived, and when (rounded to the ns). */
int vli_flows_end(const vli_flows *f, int id, int64_t *end);
/* ---- the flows in flight of a run (flowtab.c) ----
 * Messages between hosts on a [topology], each a flow of the model above,
 * simulated together from a checkpoint; see flowtab.c.  A fixed table (it
 * lives in the board's shared memory online). */
#define VLI_FTAB_N 4096
typedef struct vli_fent {
	int used, in_sim;     /* in use; still simulated (the checkpoint has not passed its end) */
	int final, consumed;  /* its arrival is final; its readers have taken it */
	int taken;            /* a reader has taken its arrival */
	int pending;          /* an MPI rendezvous whose receive is not matched yet: start is
				 the earliest it can leave (its send's end); not simulated */
	int need;             /* readers of the final arrival: 1 (the receiver), 2 (a
				 rendezvous: its sender too, whose call ends then) */
	int src_slot;         /* a rendezvous: the sender's board slot (it waits too); else -1 */
	int changed;          /* est changed in the last update (the caller clears it) */
	int src_id, dst_id;   /* sender and receiver task ids */
	int dst_slot;         /* the receiver's board slot (-1: none) */
	int src_host, dst_host;
	uint32_t seq;         /* the sender's message number */
	int64_t bytes, start; /* bytes; departure (the end of its send time) */
	double act;           /* takes bandwidth from (-1 until first simulated) */
	int64_t est;          /* the estimated arrival, final once final */
	int ck_active;        /* at the checkpoint: taking bandwidth, ck_left bytes to go
				 (sharing = fair: its finish tag, and ck_svc its group's
				 service then: vli_flows_at) */
	double ck_left, ck_svc;
	int64_t lat;          /* a pending rendezvous: its route's latency (it takes bandwidth
				 that long after it leaves) */
	int tag;              /* a pending rendezvous: its tag and communicator (the */
	uint64_t comm;        /* front end's key), for the receives that can take it */
	uint64_t coll_on, coll_n; /* a message of a collective (its key and instance, with
				     seq its index in the collective's schedule); 0: none */
} vli_fent;
typedef struct vli_ftab {
	int hwm, nopen;       /* entries in use lie below hwm; nopen: in_sim */
	uint32_t epoch;       /* counts the updates that changed an estimate */
	double t_ck;          /* the checkpoint: events up to it are applied */
	/* what the simulation depends on changes (a flow added or resolved):
	 * ver counts; an update with the same ver and safe as the last one
	 * (memo_ver, memo_safe, if memo_ok) would change nothing */
	uint64_t ver, memo_ver;
	int64_t memo_safe;
	int memo_ok;
	/* flows that came late: they take bandwidth before the checkpoint
	 * (their sender acted below the bound the rules had for it, see
	 * vli_ftab_update); the first one's sender, receiver and departure;
	 * told: the caller has reported them */
	uint32_t nlate;
	int late_src, late_dst, late_told;
	int64_t late_start;
	vli_fent e[VLI_FTAB_N];
} vli_ftab;
void vli_ftab_init(vli_ftab *t);
/* The least time from a bound to a flow's taking bandwidth (<= the
 * lookahead): nothing not yet sent takes bandwidth before bound + this. */
int64_t vli_flow_lookahead(const vlcfg_config *c);
/* A flow; its index, -1 if the table is full.  vli_ftab_update simulates it. */
int vli_ftab_add(vli_ftab *t, int src_id, uint32_t seq, int dst_id, int dst_slot, int src_host,
		 int dst_host, int64_t bytes, int64_t start);
/* A pending rendezvous (not simulated until vli_ftab_resolve): it leaves at
 * ready at the earliest; its sender (src_slot) reads the arrival too. */
int vli_ftab_pend(vli_ftab *t, int src_id, uint32_t seq, int dst_id, int dst_slot, int src_slot,
		  int src_host, int dst_host, int64_t bytes, int64_t ready);
/* Pending flow i leaves at start (>= its ready time), or, start < 0, takes
 * no bandwidth from the others (dropped: its message keeps its
 * contention-free time). */
void vli_ftab_resolve(vli_ftab *t, int i, int64_t start);
/* The flow (src_id, seq) to dst_id; -1 if none (a collective's are not found). */
int vli_ftab_find(const vli_ftab *t, int src_id, uint32_t seq, int dst_id);
/* Message k of collective (on, n) (on != 0): vli_ftab_add's, marked as such
 * (need: readers of its arrival); vli_ftab_find_coll finds it (-1). */
int vli_ftab_add_coll(vli_ftab *t, uint64_t on, uint64_t n, uint32_t k, int need, int src_id,
		      int dst_id, int src_host, int dst_host, int64_t bytes, int64_t start);
int vli_ftab_find_coll(const vli_ftab *t, uint64_t on, uint64_t n, uint32_t k);
/* One of its readers took it: freed once all have and it is off the
 * simulation. */
void vli_ftab_consume(vli_ftab *t, int i);
/* One of its readers will not read it (a member that went on: its
 * arrival was not taken, so a change of it later is no late one). */
void vli_ftab_unread(vli_ftab *t, int i);
/* No flow not in the table takes bandwidth before safe: move the checkpoint
 * to the last event before safe (flows ended there become final) and
 * estimate the others' arrivals.  Returns 1 if an estimate changed (those
 * entries are marked changed). */
int vli_ftab_update(vli_ftab *t, const vlcfg_config *c, int64_t safe);

/* (message.c) A multicast from host src: its n messages of bytes each leave at
 * depart[i] (one after the other, each after its send time) for host
 * dst[i]; arr[i] receives each one's arrival, the messages between hosts
 * sharing the links among themselves (other traffic is not seen). */
void vli_net_mcast(const vlcfg_config *c, int src, const int *dst, int n, int64_t bytes,
		   const int64_t *depart, int64_t *arr);

/* ---- the trace directory of a run (tracedir.c) ---- */
/* Claim dir (created if missing) for the run of process pid: take its lock
 * file DIR/.vlayer-lock ("PID HOST START RUN"), then remove earlier traces.
 * A live run's lock (its pid alive on this host, or any lock of another host)
 * refuses: -1 and err names who holds it; but a claimant of the same run (run
 * not NULL or "", equal to the lock's: PVM tasks under one pvmd) joins it:
 * 1, nothing removed, nothing locked.  A stale lock is reported (vli_warn)
 * and taken over.  0 on success (a new run). */
int vli_tracedir_claim(const char *dir, long pid, const char *run, char *err, size_t errlen);
/* Remove the lock of dir if process pid holds it: 1 removed, 0 not. */
int vli_tracedir_unlock(const char *dir, long pid);
/* Remove the lock this process claimed with vli_tracedir_claim, if it still
 * holds it (vli_finish calls it). */
void vli_tracedir_release(void);
/* mkdir -p; 0 or -1 with errno. */
int vli_mkdirs(const char *dir);

/* ---- trace writer (trace.c) ---- */
/* Open this task's trace in dir (created if missing). */
void vli_trace_open(const char *dir, const vl_thdr *hdr);
void vli_trace_put(const vl_trec *r);
void vli_trace_flush(void);
void vli_trace_close(void);
/* Convenience writers. */
void vli_trace_msg(int type, int peer, int tag, uint32_t seq, int64_t bytes, int64_t t0,
		   int64_t t1, int64_t t2, int64_t t3, unsigned flags);
/* The same with t4 (nonblocking requests: vltrace.h). */
void vli_trace_msg4(int type, int peer, int tag, uint32_t seq, int64_t bytes, int64_t t0,
		    int64_t t1, int64_t t2, int64_t t3, int64_t t4, unsigned flags);
void vli_trace_text(int type, int peer, int tag, int64_t t0, int64_t t1, int64_t t2,
		    int64_t bytes, const char *text);

/* ---- virtual mailbox (mailbox.c) ----
 * Messages that have really arrived, in real arrival order, with their virtual
 * arrival time.  Matching is done here only, so that a stricter delivery
 * policy can replace it in one place. */
typedef struct vli_msg {
	int buf;                 /* front end's buffer handle holding the user message */
	int src, tag, ctx;
	int src_host;            /* sender's virtual host (-1 unknown) */
	uint32_t seq;            /* sender's sequence number (0 = untimed) */
	int64_t bytes;
	int64_t arrival;         /* virtual arrival time */
	int synthetic;           /* carried no virtual time */
	int internal;            /* the layer's own message, never shown to the program */
	int flow;                /* arrival is an estimate (a flow on shared links, order_flows.c) */
} vli_msg;

/* Matching predicate used by vli_mbox_find: returns > 0 to pick (1 = pick now,
 * larger = preference), 0 = skip, < 0 = error. */
typedef int (*vli_match_fn)(const vli_msg *m, void *arg);

void vli_mbox_add(const vli_msg *m);
/* Find the first message that pred picks (best rank) with arrival <= visible_by
 * (INT64_MAX = any).  Returns its index or -1. */
int vli_mbox_find(vli_match_fn pred, void *arg, int64_t visible_by);
/* Virtual order: among the messages pred accepts, the one a receive takes
 * first - the least (effective arrival, sender id, sequence number), where a
 * message's effective arrival is the latest of its own and those of the
 * earlier accepted messages from its sender (one sender's messages keep
 * their order).  A message without virtual time arrives at now.  Returns
 * its index (-1: none) and its effective arrival in *eff. */
int vli_mbox_first(vli_match_fn pred, void *arg, int64_t now, int64_t *eff);
/* Virtual order for ranking predicates (pvm_recvf): the receive ends at tau
 * = the later of now and the earliest arrival pred accepts; pred sees the
 * messages there by tau in virtual-arrival order, and the first it picks
 * outright (1), else the first of its best rank, is taken.  Returns its
 * index (-1: none accepted) and tau. */
int vli_mbox_ranked(vli_match_fn pred, void *arg, int64_t now, int64_t *tau);
vli_msg *vli_mbox_at(int i);
void vli_mbox_remove(int i, vli_msg *out);
int vli_mbox_count(void);

/* ---- virtual order (order.c; the shared board: board.c) ----
 * Under [simulation] ordering = virtual every choice a task observes is taken
 * in virtual time.  The tasks of a run on one real host share a board file;
 * each publishes a lower bound on the virtual time of anything it may still
 * send, and a task that must choose (a wildcard receive, a poll) waits until
 * no other task can still send it something that would arrive earlier.  A
 * front end's waiting loop:
 *
 *   vli_order_wait_begin(&w, "pvm_recv(...)");
 *   for (;;) { vli_order_snap(&w); take in what has really arrived (each
 *     announced message: vli_order_received); if (vli_order_behind()) { block
 *     for real for one more message; continue; } find the candidate;
 *     vli_order_block(lb, how); if (vli_order_safe(tau)) break;
 *     vli_order_sleep(&w, how); }
 *   vli_order_wait_end();
 */
typedef struct vli_order_wait {
	uint32_t epoch, kick;     /* the futex words when the loop turned */
	int watching;             /* counted among the tasks waiting for the root */
	int64_t stall_since;      /* real ns since when nothing has changed (0: moving) */
	int64_t last_check;       /* real ns of the last liveness check */
	uint64_t sig[3];          /* epoch, announced, received when the stall began */
} vli_order_wait;

/* What the front end answers about a task that has not joined (PENDING) */
enum { VLI_PROBE_WAIT = 0, VLI_PROBE_DEAD, VLI_PROBE_OUTSIDE };
typedef int (*vli_order_probe_fn)(int id);

/* The longest sleep of vli_order_sleep (default 50 ms): a front end whose
 * message library needs the sleeper to make progress (MPI) sets it short. */
void vli_order_set_sleep_ms(int ms);
/* Whether this task keeps virtual order (ordering = virtual and a board). */
int vli_order_on(void);
/* Join the board at path (create: this task starts the run) in slot (-1: a
 * new one, else the slot a parent reserved), after vli_init.  id_fmt prints an
 * id in reports ("t%x", "rank %d"); probe asks about tasks that never joined.
 * Does nothing under ordering = real. */
void vli_order_start(const char *path, int create, int slot, const char *id_fmt,
		     vli_order_probe_fn probe);
/* This task's model changed (vl_set_param): the lookahead of the run may
 * shrink. */
void vli_order_model_changed(void);
/* Parent side of a spawn: reserve a slot for a task that starts at virtual
 * time start (-1 if none), then bind it to the task's id once known, or
 * mark it gone (never started) / outside (not waited for). */
int vli_order_reserve(int64_t start, int host);
void vli_order_bind(int slot, int id);
void vli_order_gone(int slot, int outside);
/* Sender: a timed message to task dst_id arrives at arrival.  Returns 1 if
 * announced (the receiver then counts it with vli_order_received), 0 if dst
 * is not on the board. */
int vli_order_announce(int dst_id, int64_t arrival);
/* Receiver: one announced message has really been taken in. */
void vli_order_received(void);
/* The same for a message of side class side (1..VLI_SIDES; 0 = the main
 * class; PVM: another context than the task's first, vlpvm_class_of),
 * counted apart: vli_order_behind looks at the main class only, a wait with
 * VLI_WAIT_CLASS(side) at that side class only. */
#define VLI_SIDES 7
int vli_order_announce_in(int dst_id, int64_t arrival, int side);
void vli_order_received_in(int side);
/* The key of a task's main class (PVM: its first context, which decides
 * what is side for it): set for slot (< 0: this task), read for task id (1
 * if known; tasks of another real host: never). */
void vli_order_set_key(int slot, int key);
int vli_order_key_of(int id, int *key);
/* Whether some task waits for the bounds of the others (then a task that
 * waits should say so: vli_order_block). */
int vli_order_watched(void);
/* This task starts (on) or stops watching the others' bounds outside a
 * waiting loop of its own (MPI: a wildcard receive it chooses while it waits
 * in MPI): meanwhile the others publish their waits.  Counted: every start
 * needs its stop (a task of another real host: through the board server). */
void vli_order_watch(int on);
/* Whether this task waits in a blocking collective that task id has not
 * entered while id waits on this task (a rendezvous send to it, not
 * answered): the collective ends no earlier than id's send, which ends no
 * earlier than its message's envelope reaches this task (a task of another
 * real host asks the board server). */
int vli_order_coll_blocked_by(int id);
/* Collective (on, n) ends no earlier than this: the greatest bound among its
 * members that have not entered it (INT64_MIN if none is known; a member
 * with no bound is left out). */
int64_t vli_order_coll_lb(uint64_t on, uint64_t n);
/* Members ids[] (count task ids) of collective (on, n) this task is in, as
 * the board has them now: in[k] VLI_WHO_MISSING if it has not entered it
 * (lb[k] its bound: it enters no earlier), VLI_WHO_WAITS if it waits in it
 * and can go on without this task, else VLI_WHO_IN; *free_lb: the least
 * bound of the other tasks that can go on without this task
 * (VLI_ORDER_NONE if none can; the others act only after this task's next
 * action).  0, or -1 if the board cannot tell (not on, or the collective
 * not recorded).  (A task of another real host: through the board
 * server.) */
enum { VLI_WHO_MISSING, VLI_WHO_IN, VLI_WHO_WAITS };
int vli_order_coll_who(uint64_t on, uint64_t n, int count, const int *ids, int64_t *lb,
		       unsigned char *in, int64_t *free_lb);
/* Whether announced messages to this task have not really arrived yet
 * (of the main class; _in: of the side class if side). */
int vli_order_behind(void);
int vli_order_behind_in(int side);
/* The bound task id publishes (VLI_ORDER_NONE if it is not on the board): it
 * starts nothing before it. */
int64_t vli_order_bound_of(int id);
/* This task's bound as the board has it now (a sender's announcement or a
 * flow that got earlier may have lowered it); VLI_ORDER_NONE if not known
 * (ordering = real; a task of another real host without a [topology]: with
 * one, a round trip to the board server). */
int64_t vli_order_own_bound(void);
/* The clock task id last published on the board (its end time once it has
 * ended); -1 if unknown. */
int64_t vli_order_clock_of(int id);
/* A task dst_id is known gone (killed by this task). */
void vli_order_forget(int dst_id);
/* A task that waits on this one (vli_order_block_on with VLI_ON_TASK) is
 * freed by it: vli_order_release(id) before the answer goes out (an MPI
 * rendezvous receive posted); the freed task calls vli_order_release_seen
 * (from = id) once the answer is in: it ends the task's wait on from, not
 * one on another task (a task may have asked several; it sees every answer
 * that is in, whichever it waits for).  Until then the others take it for a task that can
 * go on, not for one that waits (its wait on the answerer is out of date). */
void vli_order_release(int id);
void vli_order_release_seen(int from);
/* A task that looks for an answer and, if it is not there, reasons from the
 * answerer's bound (vli_order_post_lb: the answerer has not answered yet, so
 * it does nothing before its bound) must know that no answer of its own is
 * on its way: vli_order_post_lb gives the count n of answers released to
 * this task with the bound; after it looked for the answer in vain,
 * vli_order_unseen(n) says whether one counted by then is not in yet (the
 * bound then says nothing). */
int vli_order_unseen(uint64_t n);
/* A task that waits for real for another's answer (an MPI rendezvous sender
 * for its receiver's) may sleep instead of spinning: take the mark before it
 * looks for the answer, then nap until the answerer, once its answer is out,
 * pokes it (vli_order_poke; an announcement kicks it too), or ms
 * milliseconds; without a board (or on another real host) a nap only yields
 * the processor. */
uint32_t vli_order_nap_mark(void);
void vli_order_nap(uint32_t mark, int ms);
void vli_order_poke(int id);

/* Waiting (see above).  how: VLI_WAIT_MSG (waits for a message; lb: the
 * virtual time it will wake, VLI_ORDER_NONE if no message can wake it yet),
 * VLI_WAIT_EXTERN (the same, but something outside the virtual world may
 * wake it: never taken for a deadlock), VLI_WAIT_POLL (a poll: lb = its
 * clock). */
#define VLI_ORDER_NONE INT64_MAX
enum { VLI_WAIT_POLL = 0, VLI_WAIT_MSG, VLI_WAIT_EXTERN };
/* or-ed into how: the wait takes messages of side class c (1..VLI_SIDES)
 * only (its bound rises only when every message of that class announced to
 * it is in) */
#define VLI_WAIT_CLASS(c) ((c) << 4)
void vli_order_wait_begin(vli_order_wait *w, const char *what_fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vli_order_snap(vli_order_wait *w);
void vli_order_block(int64_t lb, int how);
/* The same, for a task that waits on something others must do first:
 * on = VLI_ON_TASK(id): on task id (a rendezvous sender waits for the
 * receive; n: VLI_RDV_KEY of its communicator - the front end's key, as the
 * receiver publishes its posts - and tag); another key (top bit clear) with instance n: in a collective
 * recorded with vli_order_coll_enter (on the members that have not entered
 * it).  A task ignores, when it asks vli_order_safe, the tasks that wait for
 * it, directly or through others: they send nothing before it acts.
 * Returns the slot's bound as this call left it (under the board's lock: a
 * sender or a flow may lower it right after; VLI_ORDER_NONE on another real
 * host). */
#define VLI_ON_TASK(id) ((1ULL << 63) | (uint64_t)(uint32_t)(id))
#define VLI_RDV_KEY(comm, tag) \
	((uint64_t)(uint32_t)(tag) << 32 | (uint32_t)((uint64_t)(comm) ^ (uint64_t)(comm) >> 32))
int64_t vli_order_block_on(int64_t lb, int how, uint64_t on, uint64_t n);
/* Wait with bound lb, which holds whatever is announced to this task (it
 * takes no message before lb: a collective's member simulating it), unless
 * an estimate of the flows changed since vli_flow_epoch gave epoch: 0 then
 * (nothing done: look again). */
int vli_order_hold(int64_t lb, uint32_t epoch);
/* This task enters collective (on, n) of count tasks ids[] (every member
 * gives the same), and leaves it once it has really ended. */
void vli_order_coll_enter(uint64_t on, uint64_t n, int count, const int *ids);
void vli_order_coll_leave(uint64_t on, uint64_t n);
/* While it waits in collective (on, n), this task waits only for the
 * members ids[] (count task ids; vlcoll_deps: its result depends on
 * their entries alone, and it really goes on once they are in): the rules
 * see it wait on those that have not entered, not on every member (on
 * another real host: through the board server).  Any number of members;
 * one not on the board: not said (all members). */
void vli_order_coll_deps(uint64_t on, uint64_t n, int count, const int *ids);
/* Whether nothing can still arrive at or before tau that this task has not
 * seen. */
int vli_order_safe(int64_t tau);
/* The same for a receive in class side (0 main, 1..VLI_SIDES): its own
 * count of messages still on their way is that class's. */
int vli_order_safe_in(int64_t tau, int side);
/* The same without task skip_id's bound (-1: none): the earliest candidate
 * of a wildcard receive comes from skip_id, and nothing skip_id sends later
 * is taken before it (one sender's messages keep their order). */
int vli_order_safe_in_but(int64_t tau, int side, int skip_id);
/* Whether this task, at virtual time t, comes before every other task in
 * (time, task id): no task that can go on without it has a bound below t,
 * or at t with a smaller id.  For acts whose real order the program sees
 * that are not messages (pvm_joingroup's instance numbers).  A task of
 * another real host asks the board server. */
int vli_order_turn(int64_t t);
/* The same for what task id alone may still send (a receive from a named
 * task: only its bound counts). */
int vli_order_safe_from(int id, int64_t tau);
/* The same for what the n tasks ids may still send (a wildcard receive on an
 * MPI communicator: only its members can send it a message), this task
 * excepted: vli_order_safe, or, if not, the members alone - a member that
 * runs by its bound, one that waits for a message by its clock (a message of
 * a task outside may still wake it earlier than its bound says). */
int vli_order_safe_among(const int *ids, int n, int64_t tau);
/* The same without task skip_id (-1: none): a wildcard receive whose
 * earliest candidate comes from skip_id takes nothing skip_id sends later
 * before it (one sender's messages match in the order sent). */
int vli_order_safe_among_but(const int *ids, int n, int64_t tau, int skip_id);
/* Sleep until something changes, at most 50 ms - VLI_SLEEP_ROOT: the bound
 * of the others (or a message announced to this task); VLI_SLEEP_KICK: a
 * message announced to this task; VLI_SLEEP_CHECK: no sleep (the caller
 * waited in the message library) - and find dead tasks and deadlocks. */
enum { VLI_SLEEP_ROOT = 1, VLI_SLEEP_KICK, VLI_SLEEP_CHECK };
void vli_order_sleep(vli_order_wait *w, int how);
void vli_order_wait_end(vli_order_wait *w);
/* A synchronisation point (a barrier) of count tasks, named by key: the
 * task enters it at virtual time entry and waits (for real) until all count
 * have.  No member leaves before the latest entry; so a member waits with no
 * bound (it sends nothing before the last member enters) except the last to
 * enter, which publishes the latest entry.  vli_order_gate_enter returns the
 * round (give it to vli_order_gate_leave) and publishes; after the real
 * synchronisation vli_order_gate_leave gives the round's latest entry (the
 * task's own entry under ordering = real) and ends the wait. */
typedef struct vli_order_gate {
	uint64_t key;
	uint32_t gen;
	int64_t entry;
	vli_order_wait w;
} vli_order_gate;
void vli_order_gate_enter(vli_order_gate *g, const char *key, int count, int64_t entry,
			  const char *what);
int64_t vli_order_gate_leave(vli_order_gate *g);
/* Several real hosts (order_net.c).  The task that made the board starts the
 * run's board server: a process of its own on this host that acts on the
 * board for the tasks of other hosts, over TCP; *addr (n bytes) gets its
 * address ("PORT IP IP ..."), to pass to them.  0, or -1 with a warning.
 * A task on another host joins through it instead of vli_order_start (slot
 * as there); 0, or -1 with a warning (then it keeps real order). */
int vli_order_serve(char *addr, size_t n);
int vli_order_connect(const char *addr, int slot, const char *id_fmt);
/* A running task's clock moved: publish it if someone waits (vli_leave). */
void vli_order_tick(void);
/* The task ends (vli_finish). */
void vli_order_exit(void);

/* ---- shared links online (order_flows.c) ----
 * Under ordering = virtual with a [topology], the messages between hosts
 * are flows in the board's table (flowtab.c), sharing the links in virtual
 * time.  Sender: vli_flow_send adds the flow of message seq to dst_id,
 * leaving at depart: 1 and its estimated arrival (announce that), 0 if it
 * is not a flow (same host, no topology, ordering = real, another real
 * host: the contention-free time holds).  Receiver: vli_flow_arrival gives
 * message (src_id, seq)'s arrival: 0 not a flow, 1 final, 2 an estimate;
 * vli_flow_settle waits until it is final and returns it (keep: a probe,
 * the message stays); arr if not a flow.  A choice compares estimates only
 * once vli_order_safe or vli_flow_settled holds for its time and
 * vli_flow_epoch has not moved since it read them. */
int vli_flow_send(int dst_id, int dst_host, int64_t bytes, int64_t depart, uint32_t seq,
		  int64_t *est);
int vli_flow_arrival(int src_id, uint32_t seq, int64_t *arr);
/* The same for a task that starts nothing before that arrival (committed:
 * it waits for what completes first, and nothing else it waits for can
 * complete earlier): its own receives still to come do not hold the
 * estimate back (as vli_flow_settle, which waits). */
int vli_flow_arrival_in(int src_id, uint32_t seq, int64_t *arr, int committed);
int64_t vli_flow_settle(int src_id, uint32_t seq, int64_t arr, int keep);
/* Whether every flow's course up to tau is final (nothing not yet known can
 * take bandwidth before it).  committed: this task starts nothing (posts no
 * receive) before tau - it waits for what completes at tau - so its own
 * receives still to come do not hold back the rendezvous pending to it. */
int vli_flow_settled(int64_t tau, int committed);
uint32_t vli_flow_epoch(void);
/* Whether this task's messages between hosts are flows (see above). */
int vli_flows_online(void);
/* How vli_flow_settle sleeps (a front end that must take messages in or let
 * its library progress meanwhile); default vli_order_sleep(w, ROOT). */
void vli_flow_set_sleeper(void (*fn)(vli_order_wait *w));
/* An MPI rendezvous (issue 13): its sender adds it pending with its header
 * (vli_flow_pend: 1 if it is a flow), ready = the end of its send time; its
 * receiver, when it answers, says when it leaves (vli_flow_resolve: start =
 * the later of ready and the receive's post time; start < 0: taken by a
 * deferred wildcard receive (MPI_Irecv(MPI_ANY_SOURCE)), it keeps its
 * contention-free time).  tag and comm (the front end's key) say which
 * receives can take it.  The sender's call
 * ends at the final arrival: vli_flow_sent_arrival (as vli_flow_arrival),
 * vli_flow_settle_sent (waits; cf if it is not a flow).  While it is
 * pending, no flow's arrival that it could change is final: a receiver
 * publishes the least post time of its receives a rendezvous may still
 * match, per source: n sources src_id[i] (task ids) and the least post time
 * t[i] of its receives that name that one (vli_order_set_rdv_posts; n = 0:
 * none), and its blocking wildcard receive's (vli_order_set_wild_post).  A
 * pending rendezvous none of them can take leaves no earlier than its
 * receiver's bound.  It takes bandwidth its route's latency after it leaves
 * (no earlier than its envelope arrives). */
int vli_flow_pend(int dst_id, int dst_host, int64_t bytes, int64_t ready, uint32_t seq, int tag,
		  uint64_t comm);
void vli_flow_resolve(int src_id, uint32_t seq, int64_t start);
int vli_flow_sent_arrival(int dst_id, uint32_t seq, int64_t *arr);
int vli_flow_sent_arrival_in(int dst_id, uint32_t seq, int64_t *arr, int committed);
int64_t vli_flow_settle_sent(int dst_id, uint32_t seq, int64_t cf);
/* The sender will not read its rendezvous' arrival (MPI_Request_free of the
 * send): its share of the entry is given up; cancelled (the send was
 * cancelled, nobody will receive it): a pending flow is dropped. */
void vli_flow_sent_forget(int dst_id, uint32_t seq, int cancelled);
/* A blocking collective's messages share the links with the others (see
 * order_flows.c): vli_flow_coll_ok: every member (ids) has a slot on the
 * run's board, with flows online (else the collective keeps its messages to
 * itself; a task of another real host makes these calls through the board
 * server); vli_flow_coll_add: message k of collective (on, n), read by need
 * members, from src_id to dst_id, leaves at start - its entry (the first
 * member adds it, the others find it), -1 if the table is full;
 * vli_flow_coll_end: 1 and its final arrival (taken), or 0 and its
 * estimate (committed: its own bound left out, else it counts - the MPI
 * front end never is: a member's own rank may start a message that shares
 * the links with another rank's arrival, vlayer/mpi/coll.c).  vli_flow_wait_for runs step until it returns non-zero (and
 * returns that); while
 * it returns 0 the task waits (what: for the stuck report) with *lb as its
 * bound, woken when the flows or the bounds change. */
int vli_flow_coll_ok(int count, const int *ids);
int vli_flow_coll_add(uint64_t on, uint64_t n, int need, uint32_t k, int src_id, int dst_id,
		      int src_host, int dst_host, int64_t bytes, int64_t start);
int vli_flow_coll_end(int i, uint64_t on, uint64_t n, uint32_t k, int committed, int64_t *arr);
/* A nonblocking collective (recorded with vli_order_coll_enter) whose
 * messages share the links: until they are all in the table its floor holds
 * back what is final - no message of it leaves before.  VLI_FLOOR_ENTER: a
 * member enters at t (1 if recorded; 0: the board has no room, the
 * collective keeps its messages to itself); VLI_FLOOR_RAISE: a member's
 * simulation waits for arrivals no earlier than t (ignored if an estimate
 * changed since epoch, vli_flow_epoch); VLI_FLOOR_END: every message is in
 * (or it keeps them to itself).  (Also lowered with its flows' estimates,
 * and off once every member has quit, vli_flow_coll_quit.) */
enum { VLI_FLOOR_ENTER = 1, VLI_FLOOR_RAISE, VLI_FLOOR_END };
int vli_flow_coll_floor(uint64_t on, uint64_t n, int op, int64_t t, uint32_t epoch);
/* The same for a nonblocking collective timed from its first entry
 * (collectives = shared, vlayer/mpi/coll.c): this member's own floor - no
 * message of it that is not in the table leaves before t - kept on its
 * task's slot (VLI_SLOT_FLOORS at once: ENTER gives 0 if none is free)
 * until VLI_FLOOR_END (every message of its rank is in).  Each member
 * raises its own (ignored if an estimate changed, or a member entered,
 * since epoch): one raised while a member was not in - its bound held the
 * messages that wait for it - comes down to its entry when it enters.
 * (Also lowered with the collective's flows' estimates.) */
#define VLI_SLOT_FLOORS 16
int vli_flow_own_floor(uint64_t on, uint64_t n, int op, int64_t t, uint32_t epoch);
/* This member reads collective (on, n)'s messages no more: those it has not
 * taken (not among the nt indices taken[], which it sorts) are taken for
 * it. */
void vli_flow_coll_quit(uint64_t on, uint64_t n, uint32_t *taken, int nt);
int vli_flow_wait_for(int (*step)(void *arg, int64_t *lb), void *arg, const char *what);
/* vli_order_hold, also for a task of another real host (through the board
 * server). */
int vli_flow_hold(int64_t lb, uint32_t epoch);
#define VLI_RDV_SRCS 8 /* sources told apart (more: the least post time for each) */
/* A receive posted and not matched yet, as a rendezvous sender must see it
 * to know whether it may already have been taken: source (task id, -1 any),
 * tag (-1 any), communicator (the front end's key), post time. */
typedef struct vli_post {
	int32_t src, tag;
	uint64_t comm;
	int64_t t;
} vli_post;
#define VLI_POSTS 8 /* receives told apart (more: the least post time for all) */
void vli_order_set_rdv_posts(int n, const int *src_id, const int64_t *t, int np,
			     const vli_post *posts);
/* A blocking wildcard receive (MPI_Recv(MPI_ANY_SOURCE)) in progress,
 * posted at t (VLI_ORDER_NONE: none now) with tag (-1 any) on communicator
 * comm: a pending rendezvous it matches can leave from t on (its flow is
 * resolved like a named receive's); read by vli_order_rdv_post_locked. */
void vli_order_set_wild_post(int64_t t, int tag, uint64_t comm);
/* The earliest a rendezvous from task src_id to task id, of tag tag on
 * communicator comm, that id has not answered yet can leave: the least of
 * id's bound (it posts nothing before it) and the post times of its receives
 * that could take it (np posts[], published with the others).  Published
 * under virtual order with or without a [topology], also by tasks of another
 * real host (through the board server).  *released: the count of answers
 * released to the caller when the bound was read (vli_order_unseen). */
int64_t vli_order_post_lb(int id, int src_id, int tag, uint64_t comm, uint64_t *released);

/* ---- task registry: task id -> virtual host (mailbox.c) ---- */
void vli_reg_set(int id, int host);
int vli_reg_get(int id); /* -1 if unknown */

#endif
