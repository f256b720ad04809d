/* coll_scan_chain.c - chain scan and exscan: rank r receives the prefix of
 * ranks 0 .. r - 1 from r - 1 (if r > 0), then sends its prefix to r + 1 (if
 * r < p - 1).  Exscan sends the same messages.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_scan_chain(vlcoll_sched *s, int64_t n)
{
	int r;

	for (r = 0; r < s->p; r++) {
		if (r > 0)
			vlcoll_recv(s, r, r - 1, n);
		if (r < s->p - 1)
			vlcoll_send(s, r, r + 1, n);
	}
}
