/* ompi_tree.c - Open MPI 4.1's trees (coll base topo: binomial, in-order
 * binomial, binary, chain, k-nomial, in-order binary) and its generic tree
 * broadcast and reduction with one segment (the fixed decision rules pass a
 * segment size of 0: the message is not cut), used by the bcast_ and reduce_
 * files of Open MPI's algorithms.
 *
 * Broadcast, on every node: receive from the parent (blocking), then start a
 * nonblocking send to each child in order and wait for all.
 * Reduction: post the receive from child 0; for each further child i post its
 * receive, then wait for child i - 1; wait for the last; then a blocking send
 * to the parent.  A leaf only sends.
 */
#include "vlayer/coll/alg/alg.h"

/* fanout^k */
static int vlcoll_pown(int fanout, int k)
{
	int q = 1;

	while (k-- > 0)
		q *= fanout;
	return q;
}

/* Open MPI's build_tree (fanout-ary tree level by level): node v. */
static int vlcoll_kary(int fanout, int p, int v, int *parent, int *child)
{
	int level = 0, num = 1, delta, slimit, n = 0, i;

	while (num <= v)
		num += vlcoll_pown(fanout, ++level);
	delta = vlcoll_pown(fanout, level);
	for (i = 0; i < fanout && v + delta * (i + 1) < p; i++)
		child[n++] = v + delta * (i + 1);
	slimit = (vlcoll_pown(fanout, level) - 1) / (fanout - 1);
	if (v == 0) {
		*parent = -1;
	} else if (v < fanout) {
		*parent = 0;
	} else {
		*parent = v;
		while (*parent >= slimit)
			*parent -= delta / fanout;
	}
	return n;
}

/* Open MPI's bmtree: the parent of v clears its highest bit; the children
 * are v + 2^j for 2^j > v, ascending. */
static int vlcoll_bmtree(int p, int v, int *parent, int *child)
{
	int mask = 1, n = 0;

	while (mask <= v)
		mask <<= 1;
	*parent = v ? v ^ (mask >> 1) : -1;
	for (; mask < p && (v ^ mask) < p; mask <<= 1)
		child[n++] = v ^ mask;
	return n;
}

/* Open MPI's in-order bmtree: the parent of v clears its lowest bit; the
 * children are v + 2^j for 2^j below it, ascending. */
static int vlcoll_in_order_bmtree(int p, int v, int *parent, int *child)
{
	int mask, n = 0;

	*parent = -1;
	for (mask = 1; mask < p; mask <<= 1) {
		if ((v ^ mask) < v) {
			*parent = v ^ mask;
			break;
		}
		if ((v ^ mask) < p)
			child[n++] = v ^ mask;
	}
	return n;
}

/* Open MPI's k-nomial tree of the given radix. */
static int vlcoll_kmtree(int radix, int p, int v, int *parent, int *child)
{
	int mask = 1, n = 0, k;

	*parent = -1;
	while (mask < p) {
		if (v % (radix * mask)) {
			*parent = v / (radix * mask) * (radix * mask);
			break;
		}
		mask *= radix;
	}
	for (mask /= radix; mask > 0; mask /= radix)
		for (k = 1; k < radix; k++)
			if (v + mask * k < p)
				child[n++] = v + mask * k;
	return n;
}

/* Open MPI's in-order binary tree over absolute ranks, rooted at p - 1: each
 * subtree of `size` nodes ending at its root has its left subtree of
 * size - size / 2 - 1 nodes below the root and its right one of size / 2
 * nodes at the start. */
static int vlcoll_in_order_bintree(int p, int r, int *parent, int *child)
{
	int size = p, me = r, root = p - 1, delta = 0, n = 0;

	*parent = -1;
	for (;;) {
		int right = size >> 1, lchild = -1, rchild = -1;

		if (size > 1) {
			lchild = root - 1;
			if (lchild > 0)
				rchild = right - 1;
		}
		if (me == root) {
			if (lchild >= 0)
				child[n++] = lchild + delta;
			if (rchild >= 0)
				child[n++] = rchild + delta;
			return n;
		}
		if (me > rchild) {
			if (me == lchild)
				*parent = root + delta;
			size = size - right - 1;
			delta += right;
			me -= right;
			root = size - 1;
		} else {
			if (me == rchild)
				*parent = root + delta;
			size = right;
			root = rchild;
		}
	}
}

int vlcoll_tree_node(int shape, int p, int v, int *parent, int *child)
{
	switch (shape) {
	case VLCOLL_TREE_BMTREE:
		return vlcoll_bmtree(p, v, parent, child);
	case VLCOLL_TREE_IN_ORDER_BMTREE:
		return vlcoll_in_order_bmtree(p, v, parent, child);
	case VLCOLL_TREE_BINARY:
		return vlcoll_kary(2, p, v, parent, child);
	case VLCOLL_TREE_CHAIN:
		*parent = v - 1;
		child[0] = v + 1;
		return v + 1 < p;
	case VLCOLL_TREE_KNOMIAL:
		return vlcoll_kmtree(4, p, v, parent, child);
	default:
		return vlcoll_in_order_bintree(p, v, parent, child);
	}
}

/* Absolute rank of tree node v: the in-order binary tree is not relative. */
static int vlcoll_node_rank(int shape, int v, int root, int p)
{
	return shape == VLCOLL_TREE_IN_ORDER_BINARY ? v : vlcoll_abs(v, root, p);
}

void vlcoll_bcast_tree(vlcoll_sched *s, int shape, int root, int64_t n)
{
	int p = s->p, v, k, parent, child[VLCOLL_TREE_MAXCHILD];

	for (v = 0; v < p; v++) {
		int r = vlcoll_node_rank(shape, v, root, p);
		int nc = vlcoll_tree_node(shape, p, v, &parent, child);

		if (parent >= 0)
			vlcoll_recv(s, r, vlcoll_node_rank(shape, parent, root, p), n);
		for (k = 0; k < nc; k++)
			vlcoll_isend(s, r, vlcoll_node_rank(shape, child[k], root, p), n);
		vlcoll_waitall(s, r);
	}
}

void vlcoll_reduce_tree(vlcoll_sched *s, int shape, int root, int64_t n)
{
	int p = s->p, v, k, parent, child[VLCOLL_TREE_MAXCHILD], h[VLCOLL_TREE_MAXCHILD];

	for (v = 0; v < p; v++) {
		int r = vlcoll_node_rank(shape, v, root, p);
		int nc = vlcoll_tree_node(shape, p, v, &parent, child);

		for (k = 0; k < nc; k++) {
			h[k] = vlcoll_irecv(s, r, vlcoll_node_rank(shape, child[k], root, p), n);
			if (k > 0)
				vlcoll_wait(s, r, h[k - 1]);
		}
		if (nc > 0)
			vlcoll_wait(s, r, h[nc - 1]);
		if (parent >= 0)
			vlcoll_send(s, r, vlcoll_node_rank(shape, parent, root, p), n);
	}
}
