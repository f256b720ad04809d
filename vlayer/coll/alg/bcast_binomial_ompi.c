/* bcast_binomial_ompi.c - Open MPI's binomial tree (bcast_intra_binomial): the
 * parent of relative rank v clears its highest bit, its children are v + 2^j
 * for 2^j > v, in ascending order. Open MPI's generic tree broadcast with one
 * segment (ompi_tree.c): every node receives from its parent, then starts a
 * nonblocking send to each child and waits for all.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_binomial_ompi(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_bcast_tree(s, VLCOLL_TREE_BMTREE, root, n);
}
