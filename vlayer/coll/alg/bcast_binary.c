/* bcast_binary.c - Open MPI's binary tree (bcast_intra_bintree): relative
 * ranks level by level, the children of v at level l are v + 2^l and v +
 * 2^(l+1). Open MPI's generic tree broadcast with one segment (ompi_tree.c):
 * every node receives from its parent, then starts a nonblocking send to each
 * child and waits for all.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_binary(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_bcast_tree(s, VLCOLL_TREE_BINARY, root, n);
}
