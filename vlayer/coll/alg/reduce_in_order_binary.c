/* reduce_in_order_binary.c - Open MPI's in-order binary reduction
 * (reduce_intra_in_order_binary): the generic tree reduction (ompi_tree.c) on
 * the in-order binary tree of absolute ranks rooted at p - 1 (for operations
 * that are not commutative); if the root is not p - 1, rank p - 1 then sends
 * the result to it.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_in_order_binary(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_reduce_tree(s, VLCOLL_TREE_IN_ORDER_BINARY, root, n);
	if (root != s->p - 1) {
		vlcoll_send(s, s->p - 1, root, n);
		vlcoll_recv(s, root, s->p - 1, n);
	}
}
