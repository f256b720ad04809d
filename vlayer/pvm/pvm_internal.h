/* pvm_internal.h - the PVM front end's internal declarations, shared by the
 * files of vlayer/pvm/ and the generated wrappers (build/gen/pvm_wrap_gen.c);
 * nothing outside vlayer/pvm/ includes it.  Every name here is vlpvm_ /
 * VLPVM_.  Which file defines what:
 *   init.c    start-up, symbol resolution, enter/leave, mytid, exit
 *   wire.c    the layer's header around a user message (pack / unpack)
 *   send.c    send, mcast, psend
 *   recv.c    receiving: real PVM -> the engine's virtual mailbox; pvm_notify
 *   tasks.c   who is who (virtual host of a tid), spawn, kill, config, tasks
 *   groups.c  barrier (timed), the other group operations (pass through)
 */
#ifndef VLPVM_INTERNAL_H
#define VLPVM_INTERNAL_H
#include <stdint.h>
#include <sys/time.h>
#include <pvm3.h>
#include "vlayer/core/engine.h"

typedef int (*vlpvm_recvf_fn)(int, int, int);
typedef int (*vlpvm_recvf_ret)(int (*)(int, int, int)); /* as pvm3.h declares it */
typedef void (*vlpvm_reduce_fn)(int *, void *, void *, int *, int *);

/* The real PVM functions (vlpvm_real_pvm_NAME, set by vlpvm_resolve) and the
 * front end's implementations (vlpvm_NAME), one per line of pvm.protos. */
#include "pvm_wrap_gen.h"

/* ---- init.c ---- */

/* Start of every outermost virtualised call: initialises the task on the
 * first call (vli_init ...), then vli_enter().  vlpvm_leave: vli_leave(). */
void vlpvm_enter(void);
void vlpvm_leave(void);
/* The real definition of PVM function name: the next one after this library,
 * else from libpvm3.so.3 / libgpvm3.so.3; exits (vli_error, status 3) if none. */
void *vlpvm_sym(const char *name);

/* ---- generated (build/gen/pvm_real_gen.c, genpvm.sh -r) ---- */

/* Sets every vlpvm_real_pvm_NAME to sym("pvm_NAME") (init.c passes vlpvm_sym). */
void vlpvm_resolve(void *(*sym)(const char *name));

/* ---- wire.c: the layer's header ---- */

/* Header flag: the layer's own message (barrier time exchange), matched only
 * by receives with internal = 1, never shown to the program. */
#define VLPVM_HDR_INTERNAL 1

/* One destination of a virtualised send, as vli_msg_sent timed it. */
struct vlpvm_dest {
	int tid;
	uint32_t seq;
	int announced;   /* counted on the receiver's board slot (virtual order) */
	int64_t t0, t1, arrival;
};

/* The header of a received wrapper, as far as this task is concerned. */
struct vlpvm_hdr {
	int internal;    /* flags & VLPVM_HDR_INTERNAL */
	int src_host;    /* sender's virtual host */
	int mine;        /* 1 if this task is among the destinations: */
	uint32_t seq;    /*   its sequence number */
	int announced;   /*   whether the sender announced it on the board */
	int64_t arrival; /*   and virtual arrival time */
};

/* Pack / unpack one 64-bit value as two ints into / from the active send /
 * receive buffer. */
void vlpvm_pk64(int64_t v);
int64_t vlpvm_upk64(void);
/* The buffer to wrap for user buffer ubuf: ubuf itself, or, if ubuf was
 * packed with PvmDataInPlace, a new PvmDataRaw buffer holding the data the
 * program's memory holds now (what pvm_send would transmit: the same bytes,
 * the sender's data format), which the caller frees.  The active send and
 * receive buffers are kept.  Returns a PVM error if the copy fails. */
int vlpvm_inplace_copy(int ubuf);
/* Build a wrapper (a new buffer, made the send buffer) holding the header
 * (flags, this task's host, d[0..n)) and buffer ubuf (> 0, not in place:
 * vlpvm_inplace_copy) packed whole.  Returns the wrapper's id; ubuf stays
 * intact, the caller frees both. */
int vlpvm_wrap(int ubuf, const struct vlpvm_dest *d, int n, int flags);
/* If the active receive buffer (message info mi) is a wrapper: unpacks its
 * header into h and returns 1; -1 if it has the marker and the magic number
 * but its header cannot be read.  Otherwise returns 0; a buffer whose mi->wid
 * has the marker may have been read from, any other is untouched. */
int vlpvm_unwrap_hdr(const struct pvmminfo *mi, struct vlpvm_hdr *h);
/* After vlpvm_unwrap_hdr returned 1: unpacks the user's message as a new
 * buffer with mi's tag, source and context and returns its id.  If the
 * wrapper holds no message that libpvm can decode, returns a PVM error and
 * sets *why to what is wrong.  The caller frees the wrapper. */
int vlpvm_unwrap_msg(const struct pvmminfo *mi, const char **why);

/* ---- tasks.c: who is who ---- */

/* vlpvm_host_of: a task that is not virtualised (pvmd, pvmgs, spawned raw). */
#define VLPVM_HOST_RAW (-2)

/* Publish this task's virtual host in PVM's mailbox (key "vlayer.<tid>"),
 * for tasks that learn our tid some other way (a message, a group). */
void vlpvm_publish_host(int me, int host);
/* Virtual host index of task tid, from the registry, PVM's mailbox or, once,
 * pvmd's task list; -1 if unknown, VLPVM_HOST_RAW if not virtualised. */
int vlpvm_host_of(int tid);

/* ---- send.c ---- */

/* Most destinations of one pvm_mcast, most members of one timed barrier. */
#define VLPVM_MAX_MCAST 4096

/* Bytes of one item of a pvm_psend / pvm_precv data type, as libpvm counts
 * them (the data travel as bytes); 0 for PVM_STR and unknown types, which
 * libpvm refuses. */
int vlpvm_type_size(int type);

/* ---- recv.c ---- */

/* The task's context when it started (init.c): virtual order applies to
 * receives in this context. */
extern int vlpvm_base_ctx;
/* The board's class of a message in context ctx for a task whose first
 * context is key: 0 (the main class) if they are the same, else a side
 * class 1..VLI_SIDES by the context's number (libgpvm3's group context;
 * contexts made by pvm_newcontext, numbered in turn: up to VLI_SIDES in use
 * at once keep apart). */
static inline int vlpvm_class_of(int ctx, int key)
{
	return ctx == key ? 0 : 1 + (int)((unsigned)ctx % VLI_SIDES);
}

/* The class of a message sent now to task dst: dst's first context is on
 * the board (a spawned task's is its parent's context at the spawn);
 * unknown (a task of another real host): this task's own. */
static inline int vlpvm_side_for(int dst)
{
	int key;

	if (!vli_order_key_of(dst, &key))
		key = vlpvm_base_ctx;
	return vlpvm_class_of(vlpvm_real_pvm_getcontext(), key);
}

/* Blocking receive of the first message from tid with tag (-1: any) in the
 * current context, the program's (internal = 0, through pvm_recvf's match
 * function if set) or the layer's own (1).  Pays its arrival and receive
 * delay, makes it the receive buffer and returns its id, or a PVM error. */
int vlpvm_vrecv(int tid, int tag, int internal);
/* Take every message PVM already has for this task (in the current
 * context) into the virtual mailbox, so that the board counts it as in. */
void vlpvm_take_in(void);

#endif
