/* pvm3V.h - drop-in replacement for pvm3.h (the CLUE/MISS-PVM way).
 *
 * Replace  #include "pvm3.h"  by  #include "pvm3V.h"  (or compile with
 * -include pvm3V.h) and link with -lvlayer-pvm before -lgpvm3 -lpvm3 (vlcc
 * does all of this).  Every pvm_* call then goes through the virtual layer:
 * libvlayer-pvm defines the pvm_* symbols itself, so calls made inside
 * libgpvm3 are seen as well.  time(), gettimeofday() and clock_gettime()
 * return virtual time.  The header also declares the vlayer API (vlayer.h).
 */
#ifndef PVM3V_H
#define PVM3V_H
#include <pvm3.h>
#include <vlayer.h>
/* A program built with this header refers to this symbol, so that linking
 * without the layer fails loudly instead of running unvirtualized. */
extern int vl_pvm_layer_present;
static int *const vl_pvm_layer_ref __attribute__((unused)) = &vl_pvm_layer_present;
#endif
