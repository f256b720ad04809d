/* collsim.c - the engine's collective simulation from the command line, for
 * tests/e2e/test_mpi.sh: every rank enters at 0, rank r on the host the
 * VMConfig's [mpi] rule gives it, every block BYTES bytes.
 *   collsim VMCONFIG KIND ALG P ROOT BYTES   prints "RANK EXIT_NS" per rank
 *   collsim VMCONFIG KIND ALG P ROOT BYTES HOSTS ENTRIES
 *       the same with rank r on the r-th of the comma-separated host names HOSTS
 *       ("-": the [mpi] rule), entering at the r-th of the comma-separated ENTRIES (ns)
 *   collsim --algs KIND                      prints the algorithms KIND accepts
 * KIND is a kind (bcast ...) or a v-variant's MPI name (gatherv, scatterv,
 * allgatherv, alltoallv, reduce_scatter_block): Open MPI's rules tell them apart.
 * ALG "default" is the VMConfig's choice: its [collectives] key for KIND, else
 * its selection (fixed, or Open MPI's rules for that P and BYTES). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vlayer/coll/coll.h"
#include "vlayer/core/vmconfig.h"

/* KIND: a kind's name, or an MPI call's that selects its variant */
static const struct {
	const char *name;
	int kind, variant;
} calls[] = {
	{ "gatherv", VL_KIND_GATHER, VLCOLL_V },         { "scatterv", VL_KIND_SCATTER, VLCOLL_V },
	{ "allgatherv", VL_KIND_ALLGATHER, VLCOLL_V },   { "alltoallv", VL_KIND_ALLTOALL, VLCOLL_V },
	{ "reduce_scatter_block", VL_KIND_REDUCE_SCATTER, VLCOLL_BLOCK },
};

static int kind_of(const char *name, int *variant)
{
	size_t i;
	int k;

	*variant = VLCOLL_PLAIN;
	for (k = 0; k < VL_KIND_N; k++)
		if (!strcmp(vl_coll_kind_name(k), name))
			return k;
	for (i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (!strcmp(calls[i].name, name)) {
			*variant = calls[i].variant;
			return calls[i].kind;
		}
	return -1;
}

int main(int argc, char **argv)
{
	vlcfg_config c;
	char err[1200], valid[512];
	int k, alg, p, root, r, *host, variant;
	int64_t bytes, *entry, *b;
	vlcoll_out *out;
	vlcoll_in in;

	if (argc == 3 && !strcmp(argv[1], "--algs")) {
		if ((k = kind_of(argv[2], &variant)) < 0 || (vlcoll_alg_parse(k, "", valid, sizeof valid), 0))
			return 2;
		for (char *t = strtok(valid, ", "); t; t = strtok(NULL, ", "))
			if (strcmp(t, "default"))
				printf("%s\n", t);
		return 0;
	}
	if (argc != 7 && argc != 9) {
		fprintf(stderr, "usage: collsim VMCONFIG KIND ALG P ROOT BYTES [HOSTS ENTRIES] | "
				"collsim --algs KIND\n");
		return 2;
	}
	if (vlcfg_load(argv[1], &c, err, sizeof err) < 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	k = kind_of(argv[2], &variant);
	alg = k < 0 ? -1 : vlcoll_alg_parse(k, argv[3], NULL, 0);
	p = atoi(argv[4]);
	root = atoi(argv[5]);
	bytes = atoll(argv[6]);
	if (k < 0 || alg < 0 || p < 1) {
		fprintf(stderr, "collsim: bad kind, algorithm or size\n");
		return 2;
	}
	host = malloc(sizeof(int) * (size_t)p);
	entry = calloc((size_t)p, sizeof(int64_t));
	b = malloc(sizeof(int64_t) * (size_t)p * (size_t)p);
	out = malloc(sizeof(*out) * (size_t)p);
	for (r = 0; r < p; r++)
		host[r] = vlcfg_rank_host(&c, r);
	if (argc == 9) {
		char *h = strcmp(argv[7], "-") ? strtok(argv[7], ",") : NULL;
		for (r = 0; r < p && h; r++, h = strtok(NULL, ","))
			if ((host[r] = vlcfg_host_index(&c, h)) < 0) {
				fprintf(stderr, "collsim: unknown host %s\n", h);
				return 2;
			}
		h = strtok(argv[8], ",");
		for (r = 0; r < p && h; r++, h = strtok(NULL, ","))
			entry[r] = atoll(h);
	}
	for (r = 0; r < p * p; r++)
		b[r] = bytes;
	in.kind = k;
	in.alg = alg;
	in.p = p;
	in.root = root;
	in.host = host;
	in.entry = entry;
	in.bytes = b;
	in.variant = variant;
	if (vlcoll_sim(&c, &in, out) < 0) {
		fprintf(stderr, "collsim: the simulation failed\n");
		return 1;
	}
	for (r = 0; r < p; r++)
		printf("%d %lld\n", r, (long long)out[r].exit);
	vlcfg_free(&c);
	free(host);
	free(entry);
	free(b);
	free(out);
	return 0;
}
