/* reduce_pipeline.c - Open MPI's pipeline reduction (reduce_intra_pipeline,
 * and reduce_intra_chain with the fan-out 0 the decision rules give): relative
 * rank v receives from v + 1 and sends to v - 1. Open MPI's generic tree
 * reduction with one segment (ompi_tree.c): a node posts the receive from its
 * first child, then for each further child posts its receive and waits for the
 * previous one, waits for the last, and sends to its parent (blocking).
 */
#include "vlayer/coll/alg/alg.h"

void vlcoll_reduce_pipeline(vlcoll_sched *s, int root, int64_t n)
{
	vlcoll_reduce_tree(s, VLCOLL_TREE_CHAIN, root, n);
}
