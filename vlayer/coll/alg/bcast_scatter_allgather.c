/* bcast_scatter_allgather.c - Open MPI's scatter-allgather broadcast
 * (bcast_intra_scatter_allgather; MPICH's scatter + recursive-doubling
 * allgather).  The n bytes count as n elements; if n < p, Open MPI's basic
 * linear bcast.  With c = ceil(n / p), relative rank v owns the c bytes from
 * v c (fewer or none at the end).  Scatter down the binomial tree of
 * bcast_binomial.c: a node with k bytes sends to child v + m (m from its
 * lowest set bit down) the k - c m beyond that child's start, if any
 * (blocking).  Allgather by recursive doubling: for m = 1, 2, 4 ... each rank
 * exchanges all it has with v ^ m if that rank exists (Open MPI's sendrecv);
 * where the partner's subtree is cut short by p, the ranks of the subtree
 * that have the data pass what they received in that step on to those that
 * lack it, by halving (blocking send / receive), as Open MPI does.
 */
#include <stdlib.h>
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_scatter_allgather(vlcoll_sched *s, int root, int64_t n)
{
	int p = s->p, v, m;
	int64_t c, *cur, *rc;

	if (p < 2)
		return;
	if (n < p) {
		vlcoll_bcast_linear_ompi(s, root, n);
		return;
	}
	c = (n + p - 1) / p;
	cur = vlcoll_alloc((size_t)p, sizeof(*cur));
	rc = vlcoll_alloc((size_t)p, sizeof(*rc));
	cur[0] = n;
	/* scatter: parents (lower relative ranks) first */
	for (v = 0; v < p; v++) {
		int low = 1;

		while (low < p && !(v & low))
			low <<= 1;
		for (m = low >> 1; m > 0; m >>= 1) {
			int64_t k = cur[v] - c * m;

			if (v + m < p && k > 0) {
				int me = vlcoll_abs(v, root, p), to = vlcoll_abs(v + m, root, p);

				vlcoll_send(s, me, to, k);
				vlcoll_recv(s, to, me, k);
				cur[v + m] = k;
				cur[v] -= k;
			}
		}
	}
	/* allgather: each rank starts from its own block */
	for (v = 0; v < p; v++) {
		int64_t own = n - v * c;

		cur[v] = own < 0 ? 0 : own < c ? own : c;
		rc[v] = 0;
	}
	{
		int64_t *before = vlcoll_alloc((size_t)p, sizeof(*before));

		for (m = 1; m < p; m <<= 1) {
			for (v = 0; v < p; v++)
				before[v] = cur[v];
			for (v = 0; v < p; v++) {
				int w = v ^ m;

				if (w < p) {
					int me = vlcoll_abs(v, root, p);
					int peer = vlcoll_abs(w, root, p);

					vlcoll_sendrecv_ompi(s, me, peer, before[v], peer,
							     before[w]);
					rc[v] = before[w];
					cur[v] += before[w];
				}
			}
			for (int h = m >> 1; h > 0; h >>= 1)
				for (v = 0; v < p; v++) {
					int vtr = v / m * m, wtr = (v ^ m) / m * m, w = v ^ h;
					int alldata = p - vtr - m, tr = v / (2 * h) * (2 * h);

					if (wtr + m <= p)
						continue;
					if (w > v && v < tr + alldata && w >= tr + alldata) {
						int me = vlcoll_abs(v, root, p);
						int to = vlcoll_abs(w, root, p);

						vlcoll_send(s, me, to, rc[v]);
						vlcoll_recv(s, to, me, rc[v]);
						rc[w] = rc[v];
						cur[w] += rc[v];
					}
				}
		}
		free(before);
	}
	free(cur);
	free(rc);
}
