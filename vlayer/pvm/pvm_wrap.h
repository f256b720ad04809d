/* pvm_wrap.h - the PVM front end's internal declarations. */
#ifndef VL_PVM_WRAP_H
#define VL_PVM_WRAP_H
#include <sys/time.h>
#include <pvm3.h>

typedef int (*vlpvm_recvf_fn)(int, int, int);
typedef int (*vlpvm_recvf_ret)(int (*)(int, int, int)); /* as pvm3.h declares it */
typedef void (*vlpvm_reduce_fn)(int *, void *, void *, int *, int *);

#include "pvm_wrap_gen.h"

void vlpvm_enter(void);
void vlpvm_leave(void);
void *vlpvm_sym(const char *name);
void vlpvm_resolve(void);
#endif
