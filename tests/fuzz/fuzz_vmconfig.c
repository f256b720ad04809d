/* fuzz_vmconfig.c - fuzz the VMConfig loader (vlayer/core/vmconfig_*.c).
 *
 * LLVMFuzzerTestOneInput writes the input to a memory file, loads it with
 * vlcfg_load and checks: an error is one line "FILE...", a loaded config
 * keeps its invariants, and its dump loads back to the same dump.  Any
 * violation calls abort().  Built with -DVL_FUZZ_STANDALONE it has its own
 * main that mutates the golden files with a seeded PRNG.  See README.md.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/vmconfig.h"
#include "vlayer/coll/coll.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define VLF_ROUNDTRIP_HOSTS 1000 /* skip the dump check for bigger configs (speed) */

typedef struct vlfz_file {
	int fd;
	char path[64];
} vlfz_file;

static vlfz_file vlfz_in = {-1, ""}, vlfz_out = {-1, ""};

static void vlfz_check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_vmconfig: %s\n", what);
		abort();
	}
}

/* Replace the contents of the memory file f (created on first use). */
static void vlfz_put(vlfz_file *f, const void *data, size_t size)
{
	if (f->fd < 0) {
		f->fd = memfd_create("vmconfig", 0);
		vlfz_check(f->fd >= 0, "memfd_create failed");
		snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	}
	vlfz_check(ftruncate(f->fd, 0) == 0, "ftruncate failed");
	vlfz_check(size == 0 || pwrite(f->fd, data, size, 0) == (ssize_t)size, "pwrite failed");
}

static char *vlfz_dump(const vlcfg_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	vlfz_check(m != NULL, "open_memstream failed");
	vlcfg_dump(cfg, m);
	fclose(m);
	return buf;
}

static void vlfz_check_link(const vlcfg_link *l)
{
	int i;

	vlfz_check(l->send_delay >= 0 && l->recv_delay >= 0 && l->trans_delay >= 0, "delay < 0");
	vlfz_check(l->trans_per_kib_ps >= 0, "trans_per_kib < 0");
	vlfz_check(l->send_model.n >= 0 && l->send_model.n <= VLCFG_MAX_BP, "send_model.n");
	vlfz_check(l->trans_model.n >= 0 && l->trans_model.n <= VLCFG_MAX_BP, "trans_model.n");
	for (i = 1; i < l->send_model.n; i++)
		vlfz_check(l->send_model.bytes[i] > l->send_model.bytes[i - 1], "send_model order");
	for (i = 1; i < l->trans_model.n; i++)
		vlfz_check(l->trans_model.bytes[i] > l->trans_model.bytes[i - 1], "trans_model order");
	vlfz_check(l->ncont >= 0 && l->ncont <= VLCFG_MAX_CONT, "ncont");
	for (i = 0; i < l->ncont; i++)
		vlfz_check(l->cont_k[i] >= 1 && l->cont_f[i] >= 0 &&
			  (i == 0 || l->cont_k[i] > l->cont_k[i - 1]), "contention entry");
}

static void vlfz_check_config(const vlcfg_config *cfg)
{
	int i;

	vlfz_check(cfg->nhosts >= 1 && cfg->hosts != NULL, "no hosts");
	vlfz_check_link(&cfg->intra);
	vlfz_check_link(&cfg->inter);
	for (i = 0; i < cfg->nhosts; i++) {
		const vlcfg_host *h = &cfg->hosts[i];

		vlfz_check(h->name[0] != '\0' && h->procs >= 1, "bad host");
		vlfz_check(h->factor >= 0 && h->flops >= 0 && h->init_delay >= 0, "bad host value");
	}
	if (cfg->nhosts <= 50)
		for (i = 0; i < cfg->nhosts; i++)
			vlfz_check(vlcfg_host_index(cfg, cfg->hosts[i].name) == i, "duplicate host");
	vlfz_check(cfg->mpi.eager_limit >= 0 && cfg->mpi.ranks_per_node >= 0, "bad [mpi] value");
	vlfz_check(cfg->mpi.placement == VLCFG_PLACE_FILL || cfg->mpi.placement == VLCFG_PLACE_ROUNDROBIN,
		  "bad [mpi] placement");
	vlfz_check(cfg->mpi.nrank_hosts >= 0 && (cfg->mpi.nrank_hosts == 0) ==
		  (cfg->mpi.rank_hosts == NULL), "bad rank_hosts");
	for (i = 0; i < cfg->mpi.nrank_hosts; i++)
		vlfz_check(cfg->mpi.rank_hosts[i] >= 0 && cfg->mpi.rank_hosts[i] < cfg->nhosts,
			  "rank_hosts entry out of range");
	for (i = 0; i < VL_KIND_N; i++)
		vlfz_check(cfg->mpi.coll_alg[i] >= 0 && cfg->mpi.coll_alg[i] < VLCOLL_ALG_NALGS,
			  "bad collective algorithm");
	for (i = 0; i < 64; i++) {
		int h = vlcfg_rank_host(cfg, i * 7919);

		vlfz_check(h >= 0 && h < cfg->nhosts, "rank host out of range");
	}
}

/* The dump of cfg loads back to the same dump (unless a dumped line is too long). */
static void vlfz_roundtrip(const vlcfg_config *cfg)
{
	vlcfg_config again;
	char err[2048], *d1 = vlfz_dump(cfg);

	vlfz_put(&vlfz_out, d1, strlen(d1));
	if (vlcfg_load(vlfz_out.path, &again, err, sizeof(err)) == 0) {
		char *d2 = vlfz_dump(&again);

		vlfz_check(strcmp(d1, d2) == 0, "dump does not load back to the same dump");
		free(d2);
		vlcfg_free(&again);
	} else if (!strstr(err, "line too long")) {
		fprintf(stderr, "%s\n---\n%s", err, d1);
		vlfz_check(0, "dump does not load");
	}
	free(d1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	vlcfg_config cfg;
	char err[2048];

	vlfz_put(&vlfz_in, data, size);
	memset(err, 'x', sizeof(err));
	if (vlcfg_load(vlfz_in.path, &cfg, err, sizeof(err)) == 0) {
		vlfz_check_config(&cfg);
		if (cfg.nhosts <= VLF_ROUNDTRIP_HOSTS)
			vlfz_roundtrip(&cfg);
		vlcfg_free(&cfg);
		return 0;
	}
	vlfz_check(memchr(err, '\0', sizeof(err)) != NULL, "message not terminated");
	vlfz_check(strncmp(err, vlfz_in.path, strlen(vlfz_in.path)) == 0, "message without FILE");
	vlfz_check(strchr(err, '\n') == NULL, "message of more than one line");
	vlfz_check(cfg.nhosts == 0 && cfg.hosts == NULL, "cfg not freed after an error");
	return 0;
}

#ifdef VL_FUZZ_STANDALONE
#include <glob.h>

#ifndef SRCDIR
#define SRCDIR "."
#endif
#define VLF_MAX 8192

static uint64_t vlfz_state = 88172645463325252ULL;

static uint32_t vlfz_rand(uint32_t n) /* xorshift64*, in 0..n-1 */
{
	vlfz_state ^= vlfz_state >> 12;
	vlfz_state ^= vlfz_state << 25;
	vlfz_state ^= vlfz_state >> 27;
	return n ? (uint32_t)((vlfz_state * 2685821657736338717ULL) >> 32) % n : 0;
}

static const char *const vlfz_tokens[] = {
	"[host ", "[hosts n]", "]", "[network]", "[network intra]", "[network inter]",
	"[simulation]", "count = ", "100000", "99999", "send_model = ", "contention = ",
	"[mpi]", "[collectives]", "eager_limit = ", "rank_hosts = ", "ranks_per_node = ",
	"placement = roundrobin", "barrier = ", "default", "binomial", "ring",
	"[topology]", "kind = torus", "kind = switch", "dims = ", "2x2", "x", "65536x65536x65536",
	"duplex = half", "backplane = ", "latency = ",
	"trans_per_kib = ", "bandwidth = ", " = ", "us", "ns", "ps", "s", "KiB", "GB", "Mbit/s",
	"e999", "e-999", "-", ".", ",", ":", ";", "#", "\n", "\r\n", "\t", "\xEF\xBB\xBF",
	"9223372036854775807", "0.5", "1e19", "nan", "inf",
};

static size_t vlfz_insert(char *buf, size_t len, size_t at, const char *s, size_t n)
{
	if (len + n > VLF_MAX)
		return len;
	memmove(buf + at + n, buf + at, len - at);
	memcpy(buf + at, s, n);
	return len + n;
}

/* Copy the line around position at (with its newline) after itself. */
static size_t vlfz_dup_line(char *buf, size_t len, size_t at)
{
	char line[VLF_MAX];
	size_t a = at, b = at;

	while (a > 0 && buf[a - 1] != '\n')
		a--;
	while (b < len && buf[b++] != '\n')
		;
	memcpy(line, buf + a, b - a);
	return vlfz_insert(buf, len, b, line, b - a);
}

static size_t vlfz_delete(char *buf, size_t len, size_t at, size_t n)
{
	if (at + n > len)
		return len;
	memmove(buf + at, buf + at + n, len - at - n);
	return len - n;
}

static size_t vlfz_mutate(char *buf, size_t len)
{
	size_t at = vlfz_rand((uint32_t)len + 1);
	const char *tok;
	char c;

	switch (vlfz_rand(6)) {
	case 0:
		if (len)
			buf[at % len] ^= (char)(1u << vlfz_rand(8));
		return len;
	case 1:
		c = (char)vlfz_rand(256);
		return vlfz_insert(buf, len, at, &c, 1);
	case 2:
		tok = vlfz_tokens[vlfz_rand(sizeof(vlfz_tokens) / sizeof(vlfz_tokens[0]))];
		return vlfz_insert(buf, len, at, tok, strlen(tok));
	case 3:
		return at;
	case 4:
		return vlfz_dup_line(buf, len, at);
	default:
		return vlfz_delete(buf, len, at, vlfz_rand(16));
	}
}

static size_t vlfz_read(const char *path, char *buf)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, VLF_MAX, f);
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	static char buf[VLF_MAX];
	long i, runs = argc > 1 ? atol(argv[1]) : 20000;
	glob_t g;

	if (argc > 2)
		vlfz_state ^= strtoull(argv[2], NULL, 0) * 0x9E3779B97F4A7C15ULL;
	memset(&g, 0, sizeof(g));
	glob(SRCDIR "/tests/golden/vmconfig/*/*.ini", 0, NULL, &g);
	glob(SRCDIR "/vmconfig/*.ini", GLOB_APPEND, NULL, &g);
	if (g.gl_pathc == 0) {
		fprintf(stderr, "fuzz_vmconfig: no seed files under %s\n", SRCDIR);
		return 2;
	}
	for (i = 0; i < runs; i++) {
		size_t len = vlfz_read(g.gl_pathv[vlfz_rand((uint32_t)g.gl_pathc)], buf);
		int k, n;

		for (k = 0, n = 1 + (int)vlfz_rand(4); k < n; k++)
			len = vlfz_mutate(buf, len);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	}
	printf("fuzz_vmconfig: %ld runs on %zu seed files, no failure\n", runs, g.gl_pathc);
	globfree(&g);
	return 0;
}
#endif
