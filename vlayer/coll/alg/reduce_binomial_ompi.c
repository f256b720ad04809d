/* reduce_binomial_ompi.c - Open MPI's binomial reduction
 * (reduce_intra_binomial): the in-order binomial tree, whose relative rank v
 * sends to v with its lowest bit cleared and receives from v + 2^j for 2^j
 * below that bit, in ascending order (the tree of reduce_binomial.c; only the
 * order of posting the receives differs). Open MPI's generic tree reduction
 * with one segment (ompi_tree.c): a node posts the receive from its first
 * child, then for each further child posts its receive and waits for the
 * previous one, waits for the last, and sends to its parent (blocking).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_binomial_ompi(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_reduce_tree(s, VLCOLL_TREE_IN_ORDER_BMTREE, root, n);
}
