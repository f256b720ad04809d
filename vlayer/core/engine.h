/* engine.h - the vlayer engine, shared by the PVM and MPI front ends: the
 * virtual clock (clock.c), the delay model (model.c), messages (message.c),
 * the virtual mailbox (mailbox.c), the trace writer (trace.c) and errors
 * (error.c).  Front ends translate calls into these operations and never keep
 * time themselves.
 */
#ifndef VLI_ENGINE_H
#define VLI_ENGINE_H

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
/* Thread CPU time in ns (real clock, never virtualised). */
int64_t vli_cpu_ns(void);
/* Real monotonic/realtime clocks in ns (never virtualised). */
int64_t vli_mono_ns(void);
int64_t vli_real_ns(void);
/* Called at the start / end of every intercepted operation: adds the CPU time
 * since the last vli_leave (times the host factor) to computation. */
void vli_enter(void);
void vli_leave(void);
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

/* Set in the thread that called vli_init: only that thread's clock calls
 * (time(), gettimeofday() ...) are virtual; the message library's own threads
 * keep real time. */
extern __thread int vli_main_thread;

/* ---- one message (message.c) ---- */
typedef struct vli_sent {
	uint32_t seq;            /* this sender's message number */
	int64_t t0, t1;          /* call begin (for the trace), end of the send */
	int64_t arrival;         /* virtual arrival at the destination */
} vli_sent;
/* The sender's side of one message to dst_host: the clock pays send_ns now
 * (vli_send_time, times a contention factor for one of k destinations), then
 * waits until depart (a rendezvous: the receive is posted then; 0 = none);
 * traces SEND with t0 as call begin.  req: the request number of a
 * nonblocking send (its waiting is traced by vli_msg_completed), 0 for a
 * blocking one. */
void vli_msg_sent(int peer, int dst_host, int tag, int64_t bytes, int64_t send_ns, int64_t t0,
		  int64_t depart, int k, uint32_t req, vli_sent *s);
/* The receiver's side: wait until arrival, pay the receive time, trace RECV
 * with t0 as call begin.  req: the request number of a nonblocking receive
 * (completed in a wait or test call beginning at t0), 0 for a blocking one.
 * Returns the time waited. */
int64_t vli_msg_received(int peer, int src_host, int tag, uint32_t seq, int64_t bytes, int64_t t0,
			 int64_t arrival, unsigned flags, uint32_t req);
/* A nonblocking receive posted by a call that began at t0 (trace IRECV). */
void vli_msg_posted(int peer, int tag, uint32_t req, int64_t t0);
/* A nonblocking send completed in a wait or test call that began at t0: wait
 * until depart (its data left; 0 = already), trace WAIT. */
void vli_msg_completed(int peer, int tag, uint32_t seq, int64_t bytes, uint32_t req, int64_t t0,
		       int64_t depart);
/* A blocking probe that began at t0 found a message from peer with this
 * arrival: wait until it, pay the receive time, trace PROBE (found). */
void vli_msg_probed(int peer, int src_host, int tag, int64_t t0, int64_t arrival);
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
/* Spawn delay of host h. */
int64_t vli_init_delay(const vlcfg_config *c, int h);
/* Scaled computation: ns of CPU on host h. */
int64_t vli_scale_cpu(const vlcfg_config *c, int h, int64_t cpu_ns);
/* Apply one "section key value" change (vl_set_param). 0 or -1 + err. */
int vli_set_param(vlcfg_config *c, const char *section, const char *key, const char *value,
		  char *err, size_t errlen);

/* ---- the trace directory of a run (tracedir.c) ---- */
/* Claim dir (created if missing) for the run of process pid: take its lock
 * file DIR/.vlayer-lock ("PID HOST START RUN"), then remove earlier traces.
 * A live run's lock (its pid alive on this host, or any lock of another host)
 * refuses: -1 and err names who holds it; but a claimant of the same run (run
 * not NULL or "", equal to the lock's: PVM tasks under one pvmd) joins it:
 * 0, nothing removed, nothing locked.  A stale lock is reported (vli_warn)
 * and taken over.  0 on success. */
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
} vli_msg;

/* Matching predicate used by vli_mbox_find: returns > 0 to pick (1 = pick now,
 * larger = preference), 0 = skip, < 0 = error. */
typedef int (*vli_match_fn)(const vli_msg *m, void *arg);

void vli_mbox_add(const vli_msg *m);
/* Find the first message that pred picks (best rank) with arrival <= visible_by
 * (INT64_MAX = any).  Returns its index or -1. */
int vli_mbox_find(vli_match_fn pred, void *arg, int64_t visible_by);
vli_msg *vli_mbox_at(int i);
void vli_mbox_remove(int i, vli_msg *out);
int vli_mbox_count(void);

/* ---- task registry: task id -> virtual host (mailbox.c) ---- */
void vli_reg_set(int id, int host);
int vli_reg_get(int id); /* -1 if unknown */

#endif
