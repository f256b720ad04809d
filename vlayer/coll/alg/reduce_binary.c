/* reduce_binary.c - Open MPI's binary-tree reduction (reduce_intra_binary):
 * the binary tree of bcast_binary.c towards the root. Open MPI's generic tree
 * reduction with one segment (ompi_tree.c): a node posts the receive from its
 * first child, then for each further child posts its receive and waits for the
 * previous one, waits for the last, and sends to its parent (blocking).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_binary(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_reduce_tree(s, VLCOLL_TREE_BINARY, root, n);
}
