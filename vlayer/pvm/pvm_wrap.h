/* pvm_wrap.h - the PVM front end's internal declarations. */
#ifndef VL_PVM_WRAP_H
#define VL_PVM_WRAP_H
#include <sys/time.h>
#include <pvm3.h>

typedef int (*vli_recvf_fn)(int, int, int);
typedef int (*vli_recvf_ret)(int (*)(int, int, int)); /* as pvm3.h declares it */
typedef void (*vli_reduce_fn)(int *, void *, void *, int *, int *);

#include "pvm_wrap_gen.h"

void vli_pvm_enter(void);
void vli_pvm_leave(void);
void *vli_pvm_sym(const char *name);
void vli_pvm_resolve(void);
#endif
