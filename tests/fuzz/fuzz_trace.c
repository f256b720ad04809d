/* fuzz_trace.c - fuzz target for the trace reader and the .trf converter.
 *
 * The input bytes are one trace file (vl-00040001.trc) in a private temporary
 * directory, next to a fixed valid peer trace (vl-00040002.trc) that exchanges
 * messages with task 0x40001, so that matching, tachyon and multicast code runs.
 * Each input is read fully with vlpost_tfile, summarised with vlpost_stats_collect and
 * converted with vlpost_trf_write, strict and --partial; each also goes, strict
 * and --partial, through vlpost_paje_write, vlpost_svg_write, `vlpost otf2` (only if
 * linked with OTF2) and the full stats report (vlpost_report_collect, printed as
 * text, CSV and JSON), into /dev/null or a scratch directory removed after the
 * input.  Oracles: whatever the strict conversion accepts, `vlpost check` must
 * accept too; Pajé, SVG and the scan of `vlpost stats` (strict) accept what the
 * strict conversion accepts and nothing else; `vlpost stats` accepts it too.
 *
 * The Makefile builds two stand-alone forms: fuzz_trace (the OTF2 stub) and,
 * where pkg-config finds otf2, fuzz_trace_otf2: postproc/otf2.c with
 * -DVL_HAVE_OTF2 and -DVL_FUZZ_OTF2_ONLY, which runs the reader and `vlpost otf2`
 * only (its archives are slow to write).  The messages of `vlpost otf2` (one per
 * rejected input) are discarded; sanitizer reports still reach stderr.
 *
 * libFuzzer:  clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE \
 *               -Iinclude -I. tests/fuzz/fuzz_trace.c (every .c of util/) \
 *               (every .c file of postproc/ but vlpost.c) -lm -o fuzz_trace
 *             (add -DVL_HAVE_OTF2 $(pkg-config --cflags --libs otf2) for OTF2;
 *             tests/fuzz/README.md)
 * standalone: add -DVL_FUZZ_STANDALONE (no -fsanitize=fuzzer); argv[1] = number
 *             of iterations of a deterministic mutation loop (default 20000),
 *             argv[2] an optional PRNG seed (another sequence of inputs);
 *             `fuzz_trace --seeds DIR` writes the seed traces for libFuzzer;
 *             `fuzz_trace --replay FILE...` runs the inputs in FILE... (a crash
 *             reproducer); FUZZ_SAVE=FILE writes each input there before it runs;
 *             the inputs in tests/fuzz/trace/ (that once failed) run first.
 */
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "postproc/otf2.h"
#include "postproc/paje.h"
#include "postproc/scan.h"
#include "postproc/stats.h"
#include "postproc/svg.h"
#include "postproc/tracereader.h"
#include "postproc/trf.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(FZ_ASAN)
#define FZ_ASAN 1
#endif
#ifdef FZ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#ifdef VL_FUZZ_OTF2_ONLY
static const int fz_otf2_only = 1;
#else
static const int fz_otf2_only = 0;
#endif

static char fz_dir[256];
static char fz_path[300];

static int fz_rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb, (void)flag, (void)ftw;
	return remove(p);
}

/* The scratch directory and everything in it. */
static void fz_cleanup(void)
{
	nftw(fz_dir, fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void put_rec4(FILE *f, int type, unsigned flags, int32_t tag, int32_t peer, uint32_t seq,
		     int64_t bytes, int64_t t0, int64_t t1, int64_t t2, int64_t t3, int64_t t4)
{
	vl_trec r = vl_trec_make(type, flags, peer, tag, seq, bytes, t0, t1, t2, t3, t4);

	fwrite(&r, sizeof r, 1, f);
}

static void put_rec(FILE *f, int type, unsigned flags, int32_t tag, int32_t peer, uint32_t seq,
		    int64_t bytes, int64_t t0, int64_t t1, int64_t t2, int64_t t3)
{
	put_rec4(f, type, flags, tag, peer, seq, bytes, t0, t1, t2, t3, 0);
}

static void put_hdr(FILE *f, int32_t tid, int64_t start)
{
	vl_thdr h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, VL_TRACE_MAGIC, 8);
	h.version = VL_TRACE_VERSION;
	h.hdr_size = sizeof(vl_thdr);
	h.rec_size = sizeof(vl_trec);
	h.tid = tid;
	h.ptid = -1;
	h.start_ns = start;
	snprintf(h.host_name, sizeof h.host_name, "node");
	snprintf(h.program, sizeof h.program, "fuzz");
	fwrite(&h, sizeof h, 1, f);
}

/* The peer: receives seq 1..3 from 0x40001 and sends it seq 1..3. */
static void fz_write_peer(void)
{
	char p[320];
	FILE *f;
	snprintf(p, sizeof p, "%s/vl-00040002.trc", fz_dir);
	f = fopen(p, "wb");
	if (!f)
		abort();
	put_hdr(f, 0x40002, 0);
	put_rec(f, VL_EV_START, 0, 0, -1, 0, 0, 0, 0, 0, 0);
	for (int i = 1; i <= 3; i++) {
		int64_t t = i * 10000;
		put_rec(f, VL_EV_RECV, 0, 1, 0x40001, (uint32_t)i, 8, t, t + 3000, 2000, t + 2000);
		put_rec(f, VL_EV_SEND, 0, 2, 0x40001, (uint32_t)i, 8, t + 3000, t + 4000, t + 5000, 1);
	}
	put_rec(f, VL_EV_END, 0, 0, -1, 0, 20000, 50000, 50000, 20000, 6000);
	fclose(f);
}

/* A fresh directory per input, removed after it: nothing is left behind when
 * libFuzzer stops on its time limit (it does not run atexit handlers). */
static void fz_init(void)
{
	snprintf(fz_dir, sizeof fz_dir, "%s/vlfuzzXXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(fz_dir))
		abort();
	snprintf(fz_path, sizeof fz_path, "%s/vl-00040001.trc", fz_dir);
	fz_write_peer();
}

static void fz_read(void)
{
	vlpost_tfile f;
	vl_trec r;
	if (vlpost_tfile_open(&f, fz_path, 128, 0) == 0) {
		while (vlpost_tfile_next(&f, &r) == 1)
			vlpost_tfile_peek(&f, &r);
	}
	vlpost_tfile_close(&f);
}

/* One verdict (merge.h): what the strict conversion accepts, `vlpost check`
 * accepts, and the strict scan of `vlpost stats` / `vlpost scaling` (scan.c)
 * accepts exactly what it accepts.  Returns the conversion's status (0 ok). */
static int fz_convert(int partial)
{
	vlpost_tset s;
	vlpost_trf_opt opt = { partial, NULL };
	vlpost_tstats *st;
	vlpost_check_res res;
	char err[1024], *out = NULL;
	size_t len = 0;
	FILE *o;
	int rc;
	if (vlpost_tset_open(&s, fz_dir, partial ? VLPOST_TSET_SKIPBAD : 0, NULL, err, sizeof err) < 0) {
		vlpost_tset_close(&s);
		return -1;
	}
	st = calloc((size_t)s.n, sizeof *st);
	o = open_memstream(&out, &len);
	rc = vlpost_trf_write(&s, o, &opt, st, err, sizeof err);
	fclose(o);
	if (rc == 0) {
		FILE *in = fmemopen(out, len ? len : 1, "r");
		int crc = vlpost_trf_check(in, &res, err, sizeof err);
		fclose(in);
		if (!partial && crc != 0) {
			fprintf(stderr, "fuzz: vlpost check rejects strict output: line %llu: %s\n%s",
				(unsigned long long)res.line, err, out);
			abort();
		}
	}
	free(out);
	if (!partial && vlpost_tset_rewind(&s, err, sizeof err) == 0 &&
	    (vlpost_scan(&s, 0, NULL, st, NULL, err, sizeof err) == 0) != (rc == 0)) {
		fprintf(stderr, "fuzz: vlpost trf %s, the scan of vlpost stats %s: %s\n",
			rc == 0 ? "accepts" : "rejects", rc == 0 ? "rejects" : "accepts", err);
		abort();
	}
	if (vlpost_tset_rewind(&s, err, sizeof err) == 0 &&
	    vlpost_stats_collect(&s, st, NULL, err, sizeof err) != 0 && rc == 0 && !partial) {
		fprintf(stderr, "fuzz: vlpost trf accepts, vlpost stats rejects: %s\n", err);
		abort();
	}
	free(st);
	vlpost_tset_close(&s);
	return rc;
}

static void fz_same(int partial, int trf_rc, int rc, const char *what, const char *err)
{
	if (partial || (rc == 0) == (trf_rc == 0))
		return;
	fprintf(stderr, "fuzz: vlpost trf %s, vlpost %s %s: %s\n", trf_rc == 0 ? "accepts" : "rejects",
		what, rc == 0 ? "accepts" : "rejects", rc == 0 ? "" : err);
	abort();
}

/* The other converters and the full stats report, into /dev/null; without
 * partial, the converters' verdicts must be trf's (trf_rc, 0 = accepted). */
static void fz_others(int partial, int trf_rc)
{
	vlpost_tset s;
	vlpost_tstats *st;
	char err[1024];
	FILE *o;
	for (int what = 0; what < 3; what++) {
		if (vlpost_tset_open(&s, fz_dir, partial ? VLPOST_TSET_SKIPBAD : 0, NULL, err, sizeof err) < 0) {
			vlpost_tset_close(&s);
			return;
		}
		st = calloc((size_t)s.n, sizeof *st);
		o = fopen("/dev/null", "w");
		if (!st || !o)
			abort();
		if (what == 0) {
			vlpost_paje_opt po = { partial, NULL };
			fz_same(partial, trf_rc, vlpost_paje_write(&s, o, &po, st, err, sizeof err), "paje", err);
		} else if (what == 1) {
			vlpost_svg_opt so = { partial, 800, "fuzz", NULL };
			fz_same(partial, trf_rc, vlpost_svg_write(&s, o, &so, st, err, sizeof err), "svg", err);
		} else {
			vlpost_report rep;
			memset(&rep, 0, sizeof rep);
			if (vlpost_report_collect(&s, st, &rep, NULL, err, sizeof err) == 0) {
				vlpost_report_print(o, st, s.n, &rep, VLP_FMT_TEXT, VLPOST_REP_MATRIX);
				vlpost_report_print(o, st, s.n, &rep, VLP_FMT_CSV, 0);
				vlpost_report_print(o, st, s.n, &rep, VLP_FMT_JSON, 0);
				vlpost_report_print(o, st, s.n, NULL, VLP_FMT_CSV, VLPOST_REP_BRIEF);
				vlpost_report_print(o, st, s.n, NULL, VLP_FMT_JSON, VLPOST_REP_BRIEF);
			}
			vlpost_report_free(&rep);
		}
		fclose(o);
		free(st);
		vlpost_tset_close(&s);
	}
}

/* stderr to /dev/null (on) or back; sanitizer reports keep the real stderr. */
static void fz_quiet(int on)
{
	static int saved = -1;
	int nul;
	fflush(stderr);
	if (saved < 0) {
		saved = dup(2);
		if (saved < 0)
			abort();
#ifdef FZ_ASAN
		__sanitizer_set_report_fd((void *)(intptr_t)saved);
#endif
	}
	if (!on) {
		dup2(saved, 2);
		return;
	}
	nul = open("/dev/null", O_WRONLY);
	if (nul < 0 || dup2(nul, 2) < 0)
		abort();
	close(nul);
}

/* `vlpost otf2` (if linked with OTF2) into a scratch archive next to the traces,
 * removed after it; its messages are discarded. */
static void fz_otf2(int partial)
{
	char out[320];
	char *argv[] = { "otf2", "-o", out, partial ? "--partial" : fz_dir,
			 partial ? fz_dir : NULL, NULL };
	if (!vlpost_otf2_available())
		return;
	snprintf(out, sizeof out, "%s/out.otf2", fz_dir);
	fz_quiet(1);
	vlpost_otf2_main(partial ? 5 : 4, argv);
	fz_quiet(0);
	nftw(out, fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f;
	fz_init();
	f = fopen(fz_path, "wb");
	if (!f)
		abort();
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	fz_read();
	if (!fz_otf2_only) {
		int rc = fz_convert(0);
		fz_convert(1);
		fz_others(0, rc);
		fz_others(1, rc);
	}
	fz_otf2(0);
	fz_otf2(1);
	fz_cleanup();
	return 0;
}

#ifdef VL_FUZZ_STANDALONE
/* ---- deterministic mutation loop over generated seed traces ---- */
static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Message i with the peer as nonblocking requests: an Isend (request 1) and its
 * wait, an Irecv (request 2) and its completion. */
static void seed_nb(FILE *f, int i, int64_t t)
{
	put_rec4(f, VL_EV_SEND, VL_TF_NB, 1, 0x40002, (uint32_t)i, 8, t, t + 1000, t + 2000, 0, 1);
	put_rec4(f, VL_EV_IRECV, 0, 2, 0x40002, 0, 0, t + 1000, t + 1500, 0, 0, 2);
	put_rec4(f, VL_EV_WAIT, 0, 1, 0x40002, (uint32_t)i, 8, t + 1500, t + 2000, 200, 0, 1);
	put_rec4(f, VL_EV_RECV, VL_TF_NB, 2, 0x40002, (uint32_t)i, 8, t + 2000, t + 8000, 5000,
		 t + 7000, 2);
}

/* A valid trace of task 0x40001 talking to the peer; variant picks extras: 1 a
 * multicast, 2 marks, 4 nonblocking requests for message 2 (no multicast). */
static size_t seed_trace(uint8_t **buf, int variant)
{
	size_t len = 0;
	FILE *f = open_memstream((char **)buf, &len);
	int nb = variant & 4, mc = (variant & 1) && !nb;
	put_hdr(f, 0x40001, 0);
	put_rec(f, VL_EV_START, 0, 0, -1, 0, 0, 0, 0, 0, 0);
	for (int i = 1; i <= 3; i++) {
		int64_t t = i * 10000 - 2000;
		unsigned fl = mc ? VL_TF_MCAST : 0;
		if (nb && i == 2) {
			seed_nb(f, i, t);
		} else {
			put_rec(f, VL_EV_SEND, fl, 1, 0x40002, (uint32_t)i, 8, t, t + 1000, t + 2000, 2);
			if (mc)
				put_rec(f, VL_EV_SEND, fl, 1, 0x50000, (uint32_t)i + 100, 8, t, t + 1000,
					t, 2);
			put_rec(f, VL_EV_RECV, 0, 2, 0x40002, (uint32_t)i, 8, t + 1000, t + 8000, 6000,
				t + 7000);
		}
		if (variant & 2)
			put_rec(f, VL_EV_MARK, 0, 0, i, 0, 0, t + 8000, t + 8000, 0, 0);
	}
	put_rec(f, VL_EV_COLL, 0, VL_COLL_BCAST, 0x40002, 0, 64, 40000, 41000, 100, 2);
	put_rec(f, VL_EV_PROBE, 0, -1, -1, 0, 0, 41000, 41500, 0, 0);
	put_rec(f, VL_EV_SPAWN, 0, 1, 0x40009, 0, 0, 41500, 42000, 42000, 0);
	put_rec(f, VL_EV_RECV, VL_TF_SYNTH, 3, 0x7000, 0, 4, 42000, 43000, 500, 42500);
	put_rec(f, VL_EV_PARAM, 0, 0, -1, 0, 0, 43000, 43000, 0, 0);
	if (nb)
		put_rec(f, VL_EV_PROBE, VL_TF_FOUND, 2, 0x40002, 0, 0, 43000, 44000, 300, 0);
	put_rec(f, VL_EV_END, 0, 0, -1, 0, 20000, 50000, 50000, 20000, 6000);
	fclose(f);
	return len;
}

static const int64_t interesting[] = {
	0, 1, -1, 1000, 9999, 10000, 50000, INT64_MAX, INT64_MIN, ((int64_t)1 << 62),
	((int64_t)1 << 62) + 1, 0x40001, 0x40002, 64, 256,
};

static void mutate(uint8_t *d, size_t *len, size_t cap)
{
	int n = 1 + (int)(rnd() % 4);
	for (int k = 0; k < n && *len > 0; k++) {
		size_t at = rnd() % *len;
		switch (rnd() % 7) {
		case 0: d[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
		case 1: d[at] = (uint8_t)rnd(); break;
		case 2: /* an interesting 64-bit value at an 8-aligned offset */
			at &= ~(size_t)7;
			if (at + 8 <= *len) {
				int64_t v = interesting[rnd() % (sizeof interesting / sizeof interesting[0])];
				memcpy(d + at, &v, 8);
			}
			break;
		case 3: /* truncate */
			*len = at;
			break;
		case 4: /* duplicate a record */
			if (*len >= 256 + 64 && *len + 64 <= cap) {
				size_t r = 256 + 64 * (rnd() % ((*len - 256) / 64));
				memmove(d + r + 64, d + r, *len - r);
				*len += 64;
			}
			break;
		case 5: /* drop a record */
			if (*len >= 256 + 64) {
				size_t r = 256 + 64 * (rnd() % ((*len - 256) / 64));
				memmove(d + r, d + r + 64, *len - r - 64);
				*len -= 64;
			}
			break;
		default: /* a small type / flags value */
			if (*len >= 256 + 64) {
				size_t r = 256 + 64 * (rnd() % ((*len - 256) / 64));
				if (r + 4 <= *len)
					d[r + (rnd() % 4)] = (uint8_t)(rnd() % (VL_EV_LAST + 1));
			}
			break;
		}
	}
}

#define NSEED 6
static const int seed_variant[NSEED] = { 0, 1, 2, 3, 4, 6 };

/* --seeds DIR: write the seed traces as a libFuzzer corpus */
static int write_seeds(const char *dir, uint8_t **seeds, const size_t *slen)
{
	char p[4096];
	for (int i = 0; i < NSEED; i++) {
		FILE *f;
		snprintf(p, sizeof p, "%s/seed%d.trc", dir, i);
		f = fopen(p, "wb");
		if (!f || fwrite(seeds[i], 1, slen[i], f) != slen[i]) {
			perror(p);
			return 1;
		}
		fclose(f);
	}
	return 0;
}

/* One input, written first to $FUZZ_SAVE if set (to keep the one that crashes). */
static void run_one(const uint8_t *d, size_t len)
{
	const char *save = getenv("FUZZ_SAVE");
	if (save && *save) {
		FILE *f = fopen(save, "wb");
		if (!f || fwrite(d, 1, len, f) != len || fclose(f) != 0) {
			perror(save);
			exit(2);
		}
	}
	LLVMFuzzerTestOneInput(d, len);
}

/* One input from a file: 0, or 2 if it cannot be read. */
static int run_file(const char *path)
{
	uint8_t *d = NULL;
	size_t len = 0, k;
	char chunk[4096];
	FILE *in = fopen(path, "rb"), *m;
	if (!in) {
		perror(path);
		return 2;
	}
	m = open_memstream((char **)&d, &len);
	while ((k = fread(chunk, 1, sizeof chunk, in)) > 0)
		fwrite(chunk, 1, k, m);
	fclose(in);
	fclose(m);
	LLVMFuzzerTestOneInput(d, len);
	free(d);
	return 0;
}

/* --replay FILE...: each file is one input */
static int replay(int n, char **files)
{
	for (int i = 0; i < n; i++) {
		if (run_file(files[i]) != 0)
			return 2;
		printf("fuzz_trace: %s ok\n", files[i]);
	}
	return 0;
}

/* The inputs that once failed (tests/fuzz/trace/, see README.md), first. */
static int replay_known(void)
{
#ifdef SRCDIR
	const char *dir = SRCDIR "/tests/fuzz/trace";
	char p[4096];
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;
	if (!d)
		return 0;
	while (rc == 0 && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		rc = run_file(p);
	}
	closedir(d);
	return rc;
#else
	return 0;
#endif
}

int main(int argc, char **argv)
{
	long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	uint8_t *seeds[NSEED], *buf;
	size_t slen[NSEED], cap = 0;
	int rc = 0;
	/* the OTF2 library's chunk buffers (MiB per archive): reused from the heap
	 * instead of fresh mappings, page faults for every input made it 4x slower */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	if (argc > 1 && strcmp(argv[1], "--replay") == 0)
		return replay(argc - 2, argv + 2);
	for (int i = 0; i < NSEED; i++) {
		slen[i] = seed_trace(&seeds[i], seed_variant[i]);
		if (slen[i] + 64 * 16 > cap)
			cap = slen[i] + 64 * 16;
	}
	if (argc > 2 && strcmp(argv[1], "--seeds") == 0) {
		rc = write_seeds(argv[2], seeds, slen);
	} else if ((rc = replay_known()) == 0) {
		if (argc > 2)
			rng ^= strtoull(argv[2], NULL, 0) * 0x9E3779B97F4A7C15ULL;
		if (!rng)
			rng = 1;
		buf = malloc(cap);
		for (int i = 0; i < NSEED; i++)
			run_one(seeds[i], slen[i]);
		for (long it = 0; it < iters; it++) {
			int s = (int)(rnd() % NSEED);
			size_t len = slen[s];
			memcpy(buf, seeds[s], len);
			mutate(buf, &len, cap);
			run_one(buf, len);
		}
		printf("fuzz_trace%s: %ld iterations ok\n", vlpost_otf2_available() ? " (OTF2)" : "",
		       iters);
		free(buf);
	}
	for (int i = 0; i < NSEED; i++)
		free(seeds[i]);
	return rc;
}
#endif
