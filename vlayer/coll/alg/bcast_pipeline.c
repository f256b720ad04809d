/* bcast_pipeline.c - Open MPI's pipeline (bcast_intra_pipeline, and
 * bcast_intra_chain with the fan-out 0 the decision rules give, which builds
 * the same chain): relative rank v receives from v - 1 and sends to v + 1.
 * Open MPI's generic tree broadcast with one segment (ompi_tree.c): every node
 * receives from its parent, then starts a nonblocking send to each child and
 * waits for all.
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_bcast_pipeline(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_bcast_tree(s, VLCOLL_TREE_CHAIN, root, n);
}
