/* calib_mpi.c - vlcalib measurements under real MPI (built natively with mpicc,
 * not through the layer): mpirun -np P calib_mpi [options] -o RAW.csv
 * Only the communication is here; the experiments are in calib_*.c (those of
 * sharing, share_*, run only where ops.share is set: here, and in calib_pvm
 * when asked for).
 * Tasks on one node (MPI_COMM_TYPE_SHARED) are `intra`, others `inter`.
 */
#include "calib_common.h"
#include "util/diag.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct mpi_be {
	char *sbuf, *rbuf;
	size_t cap, bytes;
	int size;
	MPI_Comm *comm; /* comm[p]: ranks 0 .. p-1 (MPI_COMM_NULL elsewhere) */
	MPI_Request *req;
} mpi_be;

static const char usage[] =
    "usage: mpirun -np P calib_mpi [options] -o RAW.csv\n"
    "Measures MPI point-to-point times (rtt oneway send recv gap), the send phase\n"
    "to k = 1..P-1 receivers (contention), the five BSP patterns and, last, how\n"
    "messages at once share the links (share_exchange: both ways at once;\n"
    "share_fanout / share_fanin: 1 to k / k to 1 at once; share_alltoall: among p\n"
    "at once; share_first: 1 to k at once until the first is in: FIFO or fair;\n"
    "one rank per node), and writes the vlcalib raw file (see vlcalib-run\n"
    "--help).  Rank 0 measures against the first rank on its node (intra) and the\n"
    "first rank on another node (inter); place the ranks with mpirun's own options\n"
    "(--hostfile, --map-by).\n"
    "Options:\n";

/* vlu_die's last act (out of memory): take every rank down */
static void abort_world(void)
{
	MPI_Abort(MPI_COMM_WORLD, 1);
}

static void m_set_size(void *v, size_t bytes)
{
	mpi_be *b = v;
	size_t need = bytes * (size_t)(b->size > 2 ? b->size - 1 : 1);

	if (need > b->cap) {
		b->sbuf = vlu_xrealloc(b->sbuf, bytes);
		b->rbuf = vlu_xrealloc(b->rbuf, need);
		memset(b->sbuf, 0x5a, bytes);
		b->cap = need;
	}
	b->bytes = bytes;
}

static void m_send(void *v, int dst)
{
	mpi_be *b = v;

	MPI_Send(b->sbuf, (int)b->bytes, MPI_BYTE, dst, VLCAL_TAG_DATA, MPI_COMM_WORLD);
}

static void m_recv(void *v, int src)
{
	mpi_be *b = v;

	MPI_Recv(b->rbuf, (int)b->bytes, MPI_BYTE, src, VLCAL_TAG_DATA, MPI_COMM_WORLD,
	         MPI_STATUS_IGNORE);
}

static void m_probe(void *v, int src)
{
	(void)v;
	MPI_Probe(src, VLCAL_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static int m_iprobe(void *v, int src, int tag)
{
	int flag = 0;

	(void)v;
	MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	return flag;
}

static void m_multisend(void *v, const int *dst, int k)
{
	mpi_be *b = v;
	int i;

	for (i = 0; i < k; i++)
		MPI_Isend(b->sbuf, (int)b->bytes, MPI_BYTE, dst[i], VLCAL_TAG_DATA,
		          MPI_COMM_WORLD, &b->req[i]);
	MPI_Waitall(k, b->req, MPI_STATUSES_IGNORE);
}

static void m_exchange(void *v, const int *dst, int nd, const int *src, int ns)
{
	mpi_be *b = v;
	int i;

	for (i = 0; i < ns; i++)
		MPI_Irecv(b->rbuf + (size_t)i * b->bytes, (int)b->bytes, MPI_BYTE, src[i],
		          VLCAL_TAG_DATA, MPI_COMM_WORLD, &b->req[i]);
	for (i = 0; i < nd; i++)
		MPI_Isend(b->sbuf, (int)b->bytes, MPI_BYTE, dst[i], VLCAL_TAG_DATA,
		          MPI_COMM_WORLD, &b->req[ns + i]);
	MPI_Waitall(ns + nd, b->req, MPI_STATUSES_IGNORE);
}

static void m_send_i64(void *v, int dst, int tag, const int64_t *x, int n)
{
	(void)v;
	MPI_Send(x, n, MPI_INT64_T, dst, tag, MPI_COMM_WORLD);
}

static void m_recv_i64(void *v, int src, int tag, int64_t *x, int n)
{
	(void)v;
	MPI_Recv(x, n, MPI_INT64_T, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void m_barrier(void *v, int p)
{
	mpi_be *b = v;

	MPI_Barrier(b->comm[p]);
}

static const vlcal_ops mpi_ops = {
    .library = "mpi",
    .set_size = m_set_size,
    .send = m_send,
    .recv = m_recv,
    .probe = m_probe,
    .multisend = m_multisend,
    .sendeach = m_multisend,
    .exchange = m_exchange,
    .send_i64 = m_send_i64,
    .recv_i64 = m_recv_i64,
    .iprobe = m_iprobe,
    .barrier = m_barrier,
    .pack = NULL,
    .share = 1,
};

/* node[r] = the lowest world rank sharing r's node; host names on rank 0 */
static void learn_world(vlcal_world *w, const vlcal_opts *o)
{
	char name[MPI_MAX_PROCESSOR_NAME] = "", *all = NULL;
	MPI_Comm nodec;
	int leader = w->rank, len, r;

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &nodec);
	MPI_Bcast(&leader, 1, MPI_INT, 0, nodec);
	MPI_Comm_free(&nodec);
	w->node = vlu_xmalloc(w->size * sizeof *w->node);
	MPI_Allgather(&leader, 1, MPI_INT, w->node, 1, MPI_INT, MPI_COMM_WORLD);
	if (o->ranks_per_node > 0)
		for (r = 0; r < w->size; r++)
			w->node[r] = r / o->ranks_per_node;
	MPI_Get_processor_name(name, &len);
	if (w->rank == 0)
		all = vlu_xmalloc((size_t)w->size * MPI_MAX_PROCESSOR_NAME);
	MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
	           MPI_COMM_WORLD);
	if (w->rank != 0)
		return;
	w->host = vlu_xmalloc(w->size * sizeof *w->host);
	for (r = 0; r < w->size; r++)
		w->host[r] = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
}

/* comm[p] for every p a BSP pattern may use (all p: the list is small) */
static void make_comms(mpi_be *b, int rank)
{
	int p;

	b->comm = vlu_xmalloc((b->size + 1) * sizeof *b->comm);
	for (p = 0; p <= b->size; p++) {
		b->comm[p] = MPI_COMM_NULL;
		if (p >= 2)
			MPI_Comm_split(MPI_COMM_WORLD, rank < p ? 0 : MPI_UNDEFINED, rank,
			               &b->comm[p]);
	}
}

/* --only pack: 2 (only PVM packs messages) */
static int no_pack(const vlcal_opts *o)
{
	if (!o->only_given || !(o->only & (1u << VL_CALIB_PACK)))
		return 0;
	return vlu_err(2, "--only pack: only PVM packs messages");
}

/* every rank parses the options, only rank 0 says what is wrong */
static int parse_on_rank(vlcal_opts *o, int argc, char **argv, int rank)
{
	int saved[2] = {-1, -1}, fd, i, rc;

	if (rank != 0 && (fd = open("/dev/null", O_WRONLY)) >= 0) {
		for (i = 0; i < 2; i++) {
			saved[i] = dup(i + 1);
			dup2(fd, i + 1);
		}
		close(fd);
	}
	rc = vlcal_parse(o, argc, argv, "calib_mpi", usage, NULL, NULL);
	for (i = 0; i < 2; i++) {
		if (saved[i] >= 0) {
			dup2(saved[i], i + 1);
			close(saved[i]);
		}
	}
	return rc;
}

int main(int argc, char **argv)
{
	static char version[MPI_MAX_LIBRARY_VERSION_STRING];
	vlcal_opts o;
	vlcal_world w = {0};
	mpi_be b = {0};
	int rc, len, p;

	vlu_progname("calib_mpi");
	/* vlcalib-run checks the options before it starts mpirun */
	if (argc > 1 && !strcmp(argv[1], "--check-options")) {
		argv[1] = argv[0];
		rc = vlcal_parse(&o, argc - 1, argv + 1, "calib_mpi", usage, NULL, NULL);
		return rc == 1 ? 0 : rc ? rc : no_pack(&o);
	}
	MPI_Init(&argc, &argv);
	vlu_atdie(abort_world);
	MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &w.size);
	rc = parse_on_rank(&o, argc, argv, w.rank);
	if (rc == 0 && w.rank == 0)
		rc = no_pack(&o);
	else if (rc == 0 && o.only_given && (o.only & (1u << VL_CALIB_PACK)))
		rc = 2;
	if (rc == 0 && w.size < 2)
		rc = vlu_err(2, "needs at least 2 ranks (mpirun -np 2 or more)");
	if (rc != 0) {
		MPI_Finalize();
		return rc == 1 ? 0 : rc;
	}
	MPI_Get_library_version(version, &len);
	version[strcspn(version, "\n,")] = 0;
	w.library_version = version;
	learn_world(&w, &o);
	b.size = w.size;
	b.req = vlu_xmalloc(2 * w.size * sizeof *b.req);
	make_comms(&b, w.rank);
	rc = vlcal_run(&o, &mpi_ops, &b, &w);
	for (p = 2; p <= b.size; p++)
		if (b.comm[p] != MPI_COMM_NULL)
			MPI_Comm_free(&b.comm[p]);
	MPI_Finalize();
	free(b.sbuf);
	free(b.rbuf);
	free(b.req);
	free(b.comm);
	free(w.node);
	if (w.host) {
		free(w.host[0]);
		free(w.host);
	}
	return rc;
}
