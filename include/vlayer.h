/* vlayer.h - public API of the vlayer virtual layer.
 *
 * A program relinked with vlayer keeps a virtual clock: its measured CPU time
 * scaled by its virtual host's performance factor, plus modelled communication,
 * plus waiting.  These calls let a program read and steer that clock.  None of
 * them is needed: an unmodified program is timed all the same.
 * CLUE/MISS-PVM names (pvmS_*) are provided as aliases.
 */
#ifndef VLAYER_H
#define VLAYER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Virtual time of the calling task now, in seconds (vl_time) or nanoseconds
 * (vl_time_ns).  Computation up to the call is included. */
double vl_time(void);
int64_t vl_time_ns(void);

/* The three accumulated components of the virtual time, in nanoseconds:
 * computation (scaled CPU time + vl_compute), communication (modelled send and
 * receive time), waiting (blocked until a message's virtual arrival).  Any
 * pointer may be NULL.  Their sum plus the task's start time is vl_time_ns(). */
void vl_components(int64_t *comp_ns, int64_t *comm_ns, int64_t *wait_ns);

/* Write a user mark into the trace: id >= 0, label up to 23 characters
 * (longer labels are cut).  ParaGraph shows it as user task `id`. */
void vl_mark(int id, const char *label);

/* Add modelled computation: seconds of this task's virtual host (not scaled by
 * the performance factor), or flops at the host's `flops` rate.  Returns 0, or
 * -1 if the argument is negative or the host has no flops rate. */
int vl_compute(double seconds);
int vl_compute_flops(double flops);

/* Change one parameter of the model from the next operation on, exactly as
 * the line `key = value` in the VMConfig section [section] would set it (the
 * loader's own parser): section is "network", "network intra", "network
 * inter" (every key, models and contention tables included), "host NAME"
 * (every key but processors and real), "simulation" (compute only), "mpi"
 * (eager_limit only) or "collectives" (every kind of collective).
 * Affects the calling task only (each task keeps its own copy of the model).
 * Returns 0, or -1 with a message on stderr if the key or value is invalid. */
int vl_set_param(const char *section, const char *key, const char *value);

/* Name of the virtual host the calling task runs on. */
const char *vl_host_name(void);

/* CLUE / MISS-PVM compatible names. */
#define pvmS_time() vl_time()
#define pvmS_gettime() vl_time()
#define pvmS_components(c, m, w) vl_components((c), (m), (w))
#define pvmS_mark(id, label) vl_mark((id), (label))
#define pvmS_compute(s) vl_compute(s)
#define pvmS_setparam(sec, key, val) vl_set_param((sec), (key), (val))

#ifdef __cplusplus
}
#endif
#endif
