/* comm.c - the communicators the layer knows: for each, the world rank and
 * virtual host of every member and an id that is the same on every member
 * (made from the parent's id and how many communicators the parent created
 * before); MPI_COMM_WORLD and MPI_COMM_SELF are registered at start-up, every
 * communicator a wrapped creation call makes (newcomm.c) is registered after it, and
 * MPI_Comm_free forgets it.  Messages on any other communicator (an
 * intercommunicator ...) pass untimed.
 */
#include <stdlib.h>
#include <mpi.h>
#include "vlayer/core/engine.h"
#include "vlayer/mpi/mpi_internal.h"

int vlmpi_world_rank, vlmpi_world_size;
int vlmpi_vorder;

static vlmpi_comm **comms;
static int ncomms, acomms;

vlmpi_comm *vlmpi_comm_find(MPI_Comm c)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->comm == c)
			return comms[i];
	return NULL;
}

vlmpi_comm *vlmpi_comm_by_id(uint64_t id)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->id == id)
			return comms[i];
	return NULL;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0x100000001b3ull;
}

/* Register c, created collectively from parent (NULL: MPI_COMM_WORLD). */
static void comm_add(MPI_Comm c, vlmpi_comm *parent)
{
	vlmpi_comm *v;
	MPI_Group g, wg;
	int i, inter = 0, minw;
	int *idx;

	if (c == MPI_COMM_NULL)
		return;
	PMPI_Comm_test_inter(c, &inter);
	if (inter)
		return; /* not timed: see README */
	v = calloc(1, sizeof(*v));
	if (!v)
		vli_error(1, "out of memory");
	v->comm = c;
	v->pcomm = MPI_COMM_NULL;
	if (vlmpi_vorder) /* (every member registers it: collective) */
		PMPI_Comm_dup(c, &v->pcomm);
	PMPI_Comm_size(c, &v->size);
	PMPI_Comm_rank(c, &v->rank);
	v->world = malloc(sizeof(int) * (size_t)v->size);
	v->host = malloc(sizeof(int) * (size_t)v->size);
	idx = malloc(sizeof(int) * (size_t)v->size);
	if (!v->world || !v->host || !idx)
		vli_error(1, "out of memory");
	for (i = 0; i < v->size; i++)
		idx[i] = i;
	PMPI_Comm_group(c, &g);
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	PMPI_Group_translate_ranks(g, v->size, idx, wg, v->world);
	PMPI_Group_free(&g);
	PMPI_Group_free(&wg);
	free(idx);
	minw = vlmpi_world_size;
	for (i = 0; i < v->size; i++) {
		v->host[i] = vlcfg_rank_host(&vli_t.cfg, v->world[i]);
		if (v->world[i] < minw)
			minw = v->world[i];
	}
	if (!parent)
		v->id = 1;
	else
		v->id = mix(mix(mix(parent->id, parent->ncreated), (uint64_t)minw), (uint64_t)v->size);
	if (ncomms == acomms) {
		acomms = acomms ? 2 * acomms : 8;
		comms = realloc(comms, sizeof(*comms) * (size_t)acomms);
		if (!comms)
			vli_error(1, "out of memory");
	}
	comms[ncomms++] = v;
}

static void comm_gone(vlmpi_comm *v)
{
	if (v->pcomm != MPI_COMM_NULL)
		PMPI_Comm_free(&v->pcomm);
	free(v->world);
	free(v->host);
	free(v);
}

void vlmpi_comm_unbusy(vlmpi_comm *v)
{
	if (--v->busy == 0 && v->dead)
		comm_gone(v);
}

static void comm_del(MPI_Comm c)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->comm == c) {
			vlmpi_comm *v = comms[i];

			comms[i] = comms[--ncomms];
			v->dead = 1;
			if (!v->busy) /* (else once its last collective is done) */
				comm_gone(v);
			return;
		}
}

/* A communicator the layer does not know (an intercommunicator, or one made
 * by a call it does not wrap): its messages pass untimed. */
vlmpi_comm *vlmpi_comm_timed(MPI_Comm c)
{
	static int warned;
	vlmpi_comm *v = vlmpi_comm_find(c);

	if (!v && !warned) {
		warned = 1;
		vli_warn("rank %d: a communicator the layer does not know (an intercommunicator?): "
			"its messages are not timed", vlmpi_world_rank);
	}
	return v;
}

void vlmpi_comm_init(void)
{
	comm_add(MPI_COMM_WORLD, NULL);
	comm_add(MPI_COMM_SELF, comms[0]);
	comms[0]->ncreated++;
}

void vlmpi_comm_private(void)
{
	int i;

	for (i = 0; i < ncomms; i++)
		if (comms[i]->pcomm == MPI_COMM_NULL)
			PMPI_Comm_dup(comms[i]->comm, &comms[i]->pcomm);
}

/* A communicator created collectively from parent: registered, so that every
 * member agrees on its id (made from the parent's and how many the parent
 * created before). */
void vlmpi_comm_created(MPI_Comm c, vlmpi_comm *parent)
{
	comm_add(c, parent);
	parent->ncreated++;
}

int vlmpi_Comm_free(MPI_Comm *comm)
{
	comm_del(*comm);
	return PMPI_Comm_free(comm);
}
