/* bcast_split_binary.c - Open MPI's split binary tree broadcast
 * (bcast_intra_split_bintree, with the segment size 0 the decision rules
 * give).  The n bytes count as n elements, split in halves of ceil(n / 2)
 * and floor(n / 2); if one is empty, the pipeline (bcast_pipeline.c).  On the
 * binary tree of bcast_binary.c the odd relative ranks form the root's left
 * subtree, the even ones its right: the root sends (blocking) the first half
 * to its left child, the second to its right one; an inner node receives its
 * subtree's half and sends it (blocking) to each child.  Then the halves are
 * swapped: odd v with v + 1, even v with v - 1 (Open MPI's sendrecv); for an
 * odd p the root stays out, for an even p the root sends the second half to
 * v = p - 1 (blocking), which takes part in no swap.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_split_binary(vlcoll_sched *s, int root, int64_t n)
{
	int p = s->p, v, k, parent, child[VLCOLL_TREE_MAXCHILD];
	int64_t half[2];

	if (p < 2)
		return;
	half[0] = n - n / 2;
	half[1] = n / 2;
	if (!half[0] || !half[1]) {
		vlcoll_bcast_pipeline(s, root, n);
		return;
	}
	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p), lr = (v + 1) % 2;
		int nc = vlcoll_tree_node(VLCOLL_TREE_BINARY, p, v, &parent, child);

		if (parent >= 0)
			vlcoll_recv(s, r, vlcoll_abs(parent, root, p), half[lr]);
		for (k = 0; k < nc && (parent >= 0 || k < 2); k++) {
			int64_t b = half[parent >= 0 ? lr : k];

			vlcoll_send(s, r, vlcoll_abs(child[k], root, p), b);
		}
	}
	for (v = 0; v < p; v++) {
		int r = vlcoll_abs(v, root, p), lr = (v + 1) % 2;
		int pair = lr == 0 ? (v + 1) % p : (v - 1 + p) % p;

		if (p % 2 == 0 && v == 0) {
			vlcoll_send(s, r, vlcoll_abs(p - 1, root, p), half[1]);
		} else if (p % 2 == 0 && v == p - 1) {
			vlcoll_recv(s, r, root, half[1]);
		} else if (v != 0) {
			vlcoll_sendrecv_ompi(s, r, vlcoll_abs(pair, root, p), half[lr],
					     vlcoll_abs(pair, root, p), half[1 - lr]);
		}
	}
}
