/* coll_scan_recursive_doubling.c - recursive-doubling scan and exscan (MPICH
 * scan_intra_recursive_doubling): in step k rank r exchanges its partial
 * result with r ^ 2^k when that rank exists.  Exscan sends the same messages.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_scan_recursive_doubling(vlcoll_sched *s, int64_t n)
{
	int p = s->p, m, r;

	for (m = 1; m < p; m <<= 1)
		for (r = 0; r < p; r++)
			if ((r ^ m) < p) {
				vlcoll_sendrecv(s, r, r ^ m, n, r ^ m, n);
			}
}
