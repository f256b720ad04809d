/* bcast_knomial.c - Open MPI's k-nomial tree of radix 4 (bcast_intra_knomial,
 * its default radix): the children of relative rank v are v + m k, k = 1 .. 3,
 * for the powers of 4 m below v's lowest non-zero base-4 digit, the largest
 * first. Open MPI's generic tree broadcast with one segment (ompi_tree.c):
 * every node receives from its parent, then starts a nonblocking send to each
 * child and waits for all.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_knomial(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_bcast_tree(s, VLCOLL_TREE_KNOMIAL, root, n);
}
