/* newcomm.c - the calls that create communicators (Comm_dup, Comm_split,
 * Cart_create ...): each is a collective on its parent, so under virtual
 * order the rank waits in it as in a collective (on the members that have not
 * entered it yet); the new communicator is then registered (comm.c).  They
 * cost no virtual time.
 */
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

/* After a collective creation call on parent: count it and register the
 * result, so that every member agrees on the new communicator's id; the wait
 * (virtual order: the call is a collective on parent) ends. */
static int created(int rc, MPI_Comm parent, MPI_Comm *newcomm, int waits)
{
	vlmpi_comm *p = vlmpi_comm_find(parent);

	/* (inside the wait: registering it duplicates it, collectively) */
	if (rc == MPI_SUCCESS && p)
		vlmpi_comm_created(*newcomm, p);
	if (waits)
		vlmpi_coll_done();
	return rc;
}

int vlmpi_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Comm_dup");

	return created(PMPI_Comm_dup(comm, newcomm), comm, newcomm, w);
}

int vlmpi_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Comm_split");

	return created(PMPI_Comm_split(comm, color, key, newcomm), comm, newcomm, w);
}

int vlmpi_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Comm_split_type");

	return created(PMPI_Comm_split_type(comm, type, key, info, newcomm), comm, newcomm, w);
}

int vlmpi_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Comm_create");

	return created(PMPI_Comm_create(comm, group, newcomm), comm, newcomm, w);
}

int vlmpi_Cart_create(MPI_Comm old, int ndims, const int dims[], const int periods[], int reorder,
		      MPI_Comm *cart)
{
	int w = vlmpi_coll_enter(old, "MPI_Cart_create");

	return created(PMPI_Cart_create(old, ndims, dims, periods, reorder, cart), old, cart, w);
}

int vlmpi_Cart_sub(MPI_Comm comm, const int remain[], MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Cart_sub");

	return created(PMPI_Cart_sub(comm, remain, newcomm), comm, newcomm, w);
}

int vlmpi_Graph_create(MPI_Comm old, int nnodes, const int index[], const int edges[], int reorder,
		       MPI_Comm *graph)
{
	int w = vlmpi_coll_enter(old, "MPI_Graph_create");

	return created(PMPI_Graph_create(old, nnodes, index, edges, reorder, graph), old, graph, w);
}

int vlmpi_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
	int w = vlmpi_coll_enter(comm, "MPI_Comm_dup_with_info");

	return created(PMPI_Comm_dup_with_info(comm, info, newcomm), comm, newcomm, w);
}

int vlmpi_Dist_graph_create_adjacent(MPI_Comm old, int indegree, const int sources[],
				     const int sourceweights[], int outdegree,
				     const int destinations[], const int destweights[],
				     MPI_Info info, int reorder, MPI_Comm *graph)
{
	int w = vlmpi_coll_enter(old, "MPI_Dist_graph_create_adjacent");

	return created(PMPI_Dist_graph_create_adjacent(old, indegree, sources, sourceweights,
						       outdegree, destinations, destweights, info,
						       reorder, graph), old, graph, w);
}

int vlmpi_Dist_graph_create(MPI_Comm old, int n, const int sources[], const int degrees[],
			    const int destinations[], const int weights[], MPI_Info info,
			    int reorder, MPI_Comm *graph)
{
	int w = vlmpi_coll_enter(old, "MPI_Dist_graph_create");

	return created(PMPI_Dist_graph_create(old, n, sources, degrees, destinations, weights, info,
					      reorder, graph), old, graph, w);
}
