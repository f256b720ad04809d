/* test_vmconfig.c - unit and golden tests of the VMConfig loader (vlayer/core/vmconfig_*.c).
 *
 * Golden files: tests/golden/vmconfig/good/NAME.ini must load and dump exactly as
 * NAME.dump; bad/NAME.ini must fail with the line in NAME.err, whose FILE part is
 * the base name (the test passes the full path and prefixes the directory).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "vlayer/core/vmconfig.h"
#include "vlayer/coll/coll.h"

#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef SRCDIR
#define SRCDIR "."
#endif
#define GOLDEN SRCDIR "/tests/golden/vmconfig"

/* ---- helpers ---- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	if (m) {
		int c;

		while ((c = getc(f)) != EOF)
			putc(c, m);
		fclose(m);
	}
	fclose(f);
	return buf;
}

static char *dump_str(const vlcfg_config *cfg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(m);
	vlcfg_dump(cfg, m);
	fclose(m);
	return buf;
}

/* Write len bytes to a new temporary file; its name goes to path. */
static void write_temp(const char *data, size_t len, char *path, size_t size)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	snprintf(path, size, "%s/vmconfig-test-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
	close(fd);
}

/* Load len bytes as a VMConfig; err gets the message with the file name as "T". */
static int load_bytes(const char *data, size_t len, vlcfg_config *cfg, char *err, size_t errlen)
{
	char path[512], msg[2048];
	size_t plen;
	int rc;

	write_temp(data, len, path, sizeof(path));
	rc = vlcfg_load(path, cfg, msg, sizeof(msg));
	unlink(path);
	plen = strlen(path);
	if (!strncmp(msg, path, plen))
		snprintf(err, errlen, "T%s", msg + plen);
	else
		snprintf(err, errlen, "%s", msg);
	return rc;
}

static int load_text(const char *text, vlcfg_config *cfg, char *err, size_t errlen)
{
	return load_bytes(text, strlen(text), cfg, err, errlen);
}

/* The text must fail with exactly this message (file name "T"). */
static void expect_error(const char *text, const char *want)
{
	vlcfg_config cfg;
	char err[2048];

	ck_assert_int_eq(load_text(text, &cfg, err, sizeof(err)), -1);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(cfg.nhosts, 0);
	ck_assert_ptr_null(cfg.hosts);
}

/* The text must load. */
static void expect_ok(const char *text, vlcfg_config *cfg)
{
	char err[2048];
	int rc = load_text(text, cfg, err, sizeof(err));

	ck_assert_msg(rc == 0, "load failed: %s", err);
}

/* ---- units ---- */

struct time_case {
	const char *text;
	int64_t ns;
};

START_TEST(test_time_ok)
{
	static const struct time_case c[] = {
		{"0ns", 0}, {"7ns", 7}, {"50us", 50000}, {"3ms", 3000000}, {"2s", 2000000000},
		{"1.5us", 1500}, {"1.5 us", 1500}, {"  7 ms  ", 7000000}, {"\t1\tus", 1000},
		{"0.5ns", 1}, {"0.4999ns", 0}, {"1.4999999999999999999999ns", 1},
		{"2.5ns", 3}, {"1.0000000005s", 1000000001}, {"1e3ns", 1000},
		{"2E-3s", 2000000}, {"1e+2us", 100000}, {".5us", 500}, {"5.us", 5000},
		{"-5us", -5000}, {"+5us", 5000}, {"-0.4ns", 0}, {"1e-30s", 0},
		{"0000000000000000000000000001ns", 1}, {"9223372036854775807ns", INT64_MAX},
		{"9223372036.854775807s", INT64_MAX}, {"123456789012345678901234e-20s",
						       1234567890123LL},
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int64_t ns = -42;

		ck_assert_msg(vlcfg_parse_time(c[i].text, &ns) == 0, "\"%s\" rejected", c[i].text);
		ck_assert_msg(ns == c[i].ns, "\"%s\" -> %" PRId64 ", want %" PRId64, c[i].text, ns,
			      c[i].ns);
	}
}
END_TEST

START_TEST(test_time_bad)
{
	static const char *const c[] = {
		"", " ", "50", "us", "50 u s", "50usec", "50Us", "50ps", "50 ns x", "5x0us",
		"nan", "inf", "infs", "-", ".", "e3s", "1e", "0x10us", "1,5us", "1.5.5us",
		"9223372036854775808ns", "9223372037s", "1e30s", "1e100000000s", "--5us",
		"5 us;", "5us#",
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int64_t ns = -42;

		ck_assert_msg(vlcfg_parse_time(c[i], &ns) == -1, "\"%s\" accepted", c[i]);
		ck_assert_msg(ns == -42, "\"%s\" changed the result", c[i]);
	}
	ck_assert_int_eq(vlcfg_parse_time(NULL, &(int64_t){0}), -1);
	ck_assert_int_eq(vlcfg_parse_time("1s", NULL), -1);
}
END_TEST

START_TEST(test_size_ok)
{
	static const struct time_case c[] = {
		{"0", 0}, {"1500", 1500}, {"7B", 7}, {"1KiB", 1024}, {"1MiB", 1048576},
		{"1GiB", 1073741824}, {"1KB", 1000}, {"1MB", 1000000}, {"1GB", 1000000000},
		{"1.5KiB", 1536}, {"1.1KB", 1100}, {"0.5KiB", 512}, {"0.25 KiB", 256},
		{"1e3", 1000}, {"2e3B", 2000}, {"1.5e1B", 15}, {"-0B", 0}, {" 64 KiB ", 65536},
		{"0.0009765625MiB", 1024}, {"9223372036854775807", INT64_MAX},
		{"8589934591GiB", 9223372035781033984LL},
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int64_t b = -42;

		ck_assert_msg(vlcfg_parse_size(c[i].text, &b) == 0, "\"%s\" rejected", c[i].text);
		ck_assert_msg(b == c[i].ns, "\"%s\" -> %" PRId64 ", want %" PRId64, c[i].text, b,
			      c[i].ns);
	}
}
END_TEST

START_TEST(test_size_bad)
{
	static const char *const c[] = {
		"", "B", "0.5", "0.5B", "0.1KiB", "1.0000000000000000000001B", "-1", "-1KiB",
		"1kB", "1KIB", "1Kib", "1 K", "1TB", "1TiB", "1b", "1 B B", "9223372036854775808",
		"8589934592GiB", "9223372036854775807KiB", "1e19", "1e400", "nan", "1e-400B", "1.5e0",
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int64_t b = -42;

		ck_assert_msg(vlcfg_parse_size(c[i], &b) == -1, "\"%s\" accepted (%" PRId64 ")", c[i],
			      b);
	}
}
END_TEST

START_TEST(test_rate_ok)
{
	static const struct {
		const char *text;
		double bps;
	} c[] = {
		{"1B/s", 1}, {"1KB/s", 1e3}, {"1MB/s", 1e6}, {"1GB/s", 1e9}, {"1KiB/s", 1024},
		{"1MiB/s", 1048576}, {"1GiB/s", 1073741824}, {"8bit/s", 1}, {"1kbit/s", 125},
		{"100Mbit/s", 12.5e6}, {"1Gbit/s", 1.25e8}, {"12.5 MB/s", 12.5e6},
		{"1e-3B/s", 1e-3}, {"0.1B/s", 0.1},
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double v = -1;

		ck_assert_msg(vlcfg_parse_rate(c[i].text, &v) == 0, "\"%s\" rejected", c[i].text);
		ck_assert_msg(v == c[i].bps, "\"%s\" -> %.17g", c[i].text, v);
	}
}
END_TEST

START_TEST(test_rate_bad)
{
	static const char *const c[] = {
		"", "100", "100Mbit", "100 Mb/s", "100mbit/s", "100MBit/s", "100Kbit/s", "0B/s",
		"-1MB/s", "0Mbit/s", "1e400B/s", "1e-400B/s", "nanB/s", "100 Mbit/s x", "1TB/s",
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		double v = -1;

		ck_assert_msg(vlcfg_parse_rate(c[i], &v) == -1, "\"%s\" accepted", c[i]);
	}
}
END_TEST

/* ---- golden files ---- */

/* Calls fn(dir, base name without .ini) for each DIR/NAME.ini; returns the count. */
static int each_ini(const char *dir, void (*fn)(const char *, const char *))
{
	struct dirent **list;
	int i, n = scandir(dir, &list, NULL, alphasort), count = 0;

	ck_assert_msg(n >= 0, "cannot read %s", dir);
	for (i = 0; i < n; i++) {
		char name[256];
		size_t len = strlen(list[i]->d_name);

		if (len > 4 && len < sizeof(name) && !strcmp(list[i]->d_name + len - 4, ".ini")) {
			snprintf(name, sizeof(name), "%.*s", (int)(len - 4), list[i]->d_name);
			fn(dir, name);
			count++;
		}
		free(list[i]);
	}
	free(list);
	return count;
}

/* The dump must load back to the same dump. */
static void check_roundtrip(const char *dump)
{
	vlcfg_config cfg;
	char err[2048], *again;

	ck_assert_msg(load_text(dump, &cfg, err, sizeof(err)) == 0, "dump does not load: %s", err);
	again = dump_str(&cfg);
	ck_assert_str_eq(again, dump);
	free(again);
	vlcfg_free(&cfg);
}

static void check_good(const char *dir, const char *name)
{
	char ini[1024], want_path[1024], err[2048], *want, *got;
	vlcfg_config cfg;

	snprintf(ini, sizeof(ini), "%s/%s.ini", dir, name);
	snprintf(want_path, sizeof(want_path), "%s/%s.dump", dir, name);
	ck_assert_msg(vlcfg_load(ini, &cfg, err, sizeof(err)) == 0, "%s: %s", name, err);
	ck_assert_str_eq(cfg.path, ini);
	want = slurp(want_path);
	ck_assert_msg(want != NULL, "missing %s", want_path);
	got = dump_str(&cfg);
	ck_assert_msg(!strcmp(got, want), "%s: dump differs:\n%s", name, got);
	check_roundtrip(got);
	free(got);
	free(want);
	vlcfg_free(&cfg);
}

static void check_bad(const char *dir, const char *name)
{
	char ini[1024], err_path[1024], err[2048], want[2048], *line;
	vlcfg_config cfg;

	snprintf(ini, sizeof(ini), "%s/%s.ini", dir, name);
	snprintf(err_path, sizeof(err_path), "%s/%s.err", dir, name);
	line = slurp(err_path);
	ck_assert_msg(line != NULL, "missing %s", err_path);
	line[strcspn(line, "\n")] = '\0';
	snprintf(want, sizeof(want), "%s/%s", dir, line);
	free(line);
	ck_assert_msg(vlcfg_load(ini, &cfg, err, sizeof(err)) == -1, "%s loaded", name);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(cfg.nhosts, 0);
	ck_assert_ptr_null(cfg.hosts);
}

START_TEST(test_golden_good)
{
	ck_assert_int_ge(each_ini(GOLDEN "/good", check_good), 8);
}
END_TEST

START_TEST(test_golden_bad)
{
	ck_assert_int_ge(each_ini(GOLDEN "/bad", check_bad), 12);
}
END_TEST

/* ---- loader semantics ---- */

START_TEST(test_defaults)
{
	vlcfg_config cfg;
	const vlcfg_host *h;
	int i;

	expect_ok("[host a]\n", &cfg);
	ck_assert_int_eq(cfg.nhosts, 1);
	ck_assert_int_eq(cfg.compute_ignore, 0);
	ck_assert_int_eq(cfg.placement, VLCFG_PLACE_FILL);
	ck_assert_str_eq(cfg.trace_dir, "");
	for (i = 0; i < 2; i++) {
		const vlcfg_link *l = i ? &cfg.inter : &cfg.intra;

		ck_assert(l->send_delay == 0 && l->recv_delay == 0 && l->trans_delay == 0);
		ck_assert(l->trans_per_kib_ps == 0);
		ck_assert(l->send_model.n == 0 && l->trans_model.n == 0 && l->ncont == 0);
	}
	h = &cfg.hosts[0];
	ck_assert_str_eq(h->name, "a");
	ck_assert_str_eq(h->real, "");
	ck_assert_int_eq(h->procs, 1);
	ck_assert(h->factor == 0 && h->flops == 0 && h->init_delay == 0);
	ck_assert(h->send_delay == VLCFG_UNSET && h->recv_delay == VLCFG_UNSET);
	ck_assert(h->trans_delay == VLCFG_UNSET && h->trans_per_kib_ps == VLCFG_UNSET);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_network_order)
{
	vlcfg_config cfg;

	expect_ok("[network intra]\nsend_delay = 1us\n[network]\nsend_delay = 2us\n"
		  "recv_delay = 3us\n[network inter]\nrecv_delay = 4us\n[host a]\n", &cfg);
	ck_assert_int_eq(cfg.intra.send_delay, 2000);
	ck_assert_int_eq(cfg.inter.send_delay, 2000);
	ck_assert_int_eq(cfg.intra.recv_delay, 3000);
	ck_assert_int_eq(cfg.inter.recv_delay, 4000);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_models)
{
	vlcfg_config cfg;
	const vlcfg_pwl *p;

	expect_ok("[network]\nsend_model = 0B:10us, 1KiB:20us, 64KiB:700us\n"
		  "contention = 1:1.0, 2:1.3, 4:2.0\n"
		  "[network inter]\ntrans_model = 0:40us,1500B:60us , 1MiB :90ms\n[host a]\n", &cfg);
	p = &cfg.intra.send_model;
	ck_assert_int_eq(p->n, 3);
	ck_assert(p->bytes[0] == 0 && p->bytes[1] == 1024 && p->bytes[2] == 65536);
	ck_assert(p->ns[0] == 10000 && p->ns[1] == 20000 && p->ns[2] == 700000);
	ck_assert_int_eq(cfg.inter.send_model.n, 3);
	ck_assert_int_eq(cfg.intra.trans_model.n, 0);
	p = &cfg.inter.trans_model;
	ck_assert_int_eq(p->n, 3);
	ck_assert(p->bytes[1] == 1500 && p->bytes[2] == 1048576 && p->ns[2] == 90000000);
	ck_assert_int_eq(cfg.inter.ncont, 3);
	ck_assert(cfg.inter.cont_k[2] == 4 && cfg.inter.cont_f[1] == 1.3);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_model_limits)
{
	char text[4096];
	size_t n;
	int i;
	vlcfg_config cfg;

	n = (size_t)snprintf(text, sizeof(text), "[network]\nsend_model =");
	for (i = 0; i < VLCFG_MAX_BP; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%d:0s", i ? "," : "", i);
	snprintf(text + n, sizeof(text) - n, "\ncontention=1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,"
		 "9:1,10:1,11:1,12:1,13:1,14:1,15:1,16:1,17:1,18:1,19:1,20:1,21:1,22:1,23:1,"
		 "24:1,25:1,26:1,27:1,28:1,29:1,30:1,31:1,32:1\n[host a]\n");
	expect_ok(text, &cfg);
	ck_assert_int_eq(cfg.intra.send_model.n, VLCFG_MAX_BP);
	ck_assert_int_eq(cfg.inter.ncont, VLCFG_MAX_CONT);
	vlcfg_free(&cfg);
	expect_error("[network]\ncontention=1:1,2:1,3:1,4:1,5:1,6:1,7:1,8:1,9:1,10:1,11:1,12:1,"
		     "13:1,14:1,15:1,16:1,17:1,18:1,19:1,20:1,21:1,22:1,23:1,24:1,25:1,26:1,27:1,"
		     "28:1,29:1,30:1,31:1,32:1,33:1\n",
		     "T:2: [network] contention: too many entries (at most 32)");
	expect_error("[network]\nsend_model = 1KiB:1us, 1024:2us\n",
		     "T:2: [network] send_model: sizes must increase strictly (1024 after 1KiB)");
	expect_error("[network]\nsend_model = 0:1us,\n",
		     "T:2: [network] send_model: empty entry between commas "
		     "(use SIZE:TIME points, e.g. 0B:10us, 1KiB:20us)");
	expect_error("[network]\nsend_model = 0:-1us\n",
		     "T:2: [network] send_model: \"-1us\" is negative (must be >= 0)");
	expect_error("[network]\nsend_model = 0:1\n",
		     "T:2: [network] send_model: \"1\" has no time unit "
		     "(use a number with ns, us, ms or s, e.g. 50us)");
	expect_error("[network]\ntrans_model = -1B:1us\n",
		     "T:2: [network] trans_model: \"-1B\" is negative (must be >= 0)");
	expect_error("[network]\ncontention = 1:x\n",
		     "T:2: [network] contention: \"x\" is not a number "
		     "(use a factor >= 0, e.g. 1.3)");
	expect_error("[network]\ncontention = 1.5:1\n",
		     "T:2: [network] contention: \"1.5\" is not a whole number "
		     "(use an integer k 1..1000000)");
}
END_TEST

START_TEST(test_bandwidth)
{
	vlcfg_config cfg;

	expect_ok("[network]\nbandwidth = 100Mbit/s\n[network intra]\ntrans_per_kib = 1us\n"
		  "[host a]\nbandwidth = 1Gbit/s\n[host b]\ntrans_per_kib = 2ns\n", &cfg);
	ck_assert_int_eq(cfg.inter.trans_per_kib_ps, 81920000);
	ck_assert_int_eq(cfg.intra.trans_per_kib_ps, 1000000);
	ck_assert_int_eq(cfg.hosts[0].trans_per_kib_ps, 8192000);
	ck_assert_int_eq(cfg.hosts[1].trans_per_kib_ps, 2000);
	vlcfg_free(&cfg);
	expect_error("[host a]\nbandwidth = 1Gbit/s\ntrans_per_kib = 1us\n",
		     "T:3: [host a] trans_per_kib: bandwidth is also given in this section "
		     "(give trans_per_kib or bandwidth, not both)");
	expect_error("[network]\nbandwidth = 1e-10B/s\n",
		     "T:2: [network] bandwidth: \"1e-10B/s\" is out of range (use a number with "
		     "B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s, bit/s, kbit/s, Mbit/s or Gbit/s, "
		     "e.g. 100Mbit/s)");
	expect_error("[network]\ntrans_per_kib = 1fs\n",
		     "T:2: [network] trans_per_kib: \"1fs\" has an unknown time unit "
		     "(use a time per KiB with ps, ns, us, ms or s, e.g. 80us)");
	expect_error("[network]\nsend_delay = 5ps\n",
		     "T:2: [network] send_delay: \"5ps\" has an unknown time unit "
		     "(use a number with ns, us, ms or s, e.g. 50us)");
}
END_TEST

START_TEST(test_templates)
{
	vlcfg_config cfg;

	expect_ok("[host head]\n[hosts n]\ncount = 12\nprocessors = 4\nreal = r\n[host tail]\n",
		  &cfg);
	ck_assert_int_eq(cfg.nhosts, 14);
	ck_assert_str_eq(cfg.hosts[0].name, "head");
	ck_assert_str_eq(cfg.hosts[1].name, "n1");
	ck_assert_str_eq(cfg.hosts[12].name, "n12");
	ck_assert_int_eq(cfg.hosts[12].procs, 4);
	ck_assert_str_eq(cfg.hosts[12].real, "r");
	ck_assert_str_eq(cfg.hosts[13].name, "tail");
	ck_assert_int_eq(cfg.hosts[13].procs, 1);
	ck_assert_int_eq(vlcfg_host_index(&cfg, "n7"), 7);
	ck_assert_int_eq(vlcfg_host_index(&cfg, "n13"), -1);
	vlcfg_free(&cfg);
	expect_error("[hosts n]\ncount = 11\n[hosts n1]\ncount = 1\n",
		     "T:3: [hosts n1]: host \"n11\" is already defined at line 1 "
		     "(host names must be unique)");
	expect_error("[hosts n]\ncount = 2\n[host n2]\n",
		     "T:3: [host n2]: host \"n2\" is already defined at line 1 "
		     "(host names must be unique)");
	expect_error("[host]\n", "T:1: [host]: missing host name "
		     "(use [host NAME], NAME of letters, digits, _ . and -)");
	expect_error("[hosts]\n", "T:1: [hosts]: missing prefix "
		     "(use [hosts PREFIX] with count = N)");
	expect_error("[host a]\ncount = 2\n", "T:2: [host a] count: unknown key (valid: "
		     "processors, factor, real, init_delay, flops, send_delay, recv_delay, "
		     "trans_delay, trans_per_kib, bandwidth)");
}
END_TEST

START_TEST(test_many_hosts)
{
	vlcfg_config cfg;

	expect_ok("[hosts n]\ncount = 100000\n", &cfg);
	ck_assert_int_eq(cfg.nhosts, 100000);
	ck_assert_str_eq(cfg.hosts[99999].name, "n100000");
	ck_assert_int_eq(vlcfg_host_index(&cfg, "n100000"), 99999);
	vlcfg_free(&cfg);
	expect_error("[hosts n]\ncount = 100000\n[host x]\n",
		     "T:3: [host x]: too many hosts (at most 100000 in one file)");
	expect_error("[hosts n]\ncount = 100000\n[hosts m]\ncount = 1\n",
		     "T:3: [hosts m]: too many hosts (at most 100000 in one file)");
}
END_TEST

/* Many hosts one by one: the name hash grows and still finds every host. */
START_TEST(test_host_hash)
{
	char *text = malloc(64 * 1024), name[32];
	size_t n = 0;
	vlcfg_config cfg;
	int i;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < 1000; i++)
		n += (size_t)sprintf(text + n, "[host h%d]\nprocessors = %d\n", i, i % 7 + 1);
	sprintf(text + n, "[hosts x]\ncount = 500\n");
	expect_ok(text, &cfg);
	ck_assert_int_eq(cfg.nhosts, 1500);
	for (i = 0; i < 1000; i++) {
		sprintf(name, "h%d", i);
		ck_assert_int_eq(vlcfg_host_index(&cfg, name), i);
		ck_assert_int_eq(cfg.hosts[i].procs, i % 7 + 1);
	}
	ck_assert_int_eq(vlcfg_host_index(&cfg, "x500"), 1499);
	vlcfg_free(&cfg);
	sprintf(text + n, "[hosts x]\ncount = 500\n[host h999]\n");
	expect_error(text, "T:2003: [host h999]: host \"h999\" is already defined at line 1999 "
		     "(host names must be unique)");
	free(text);
}
END_TEST

START_TEST(test_dump_numbers)
{
	vlcfg_config cfg;
	char *d;

	expect_ok("[host a]\nfactor = 0.30000000000000004\nflops = 1.7976931348623157e308\n"
		  "[network]\ncontention = 1:0.1, 2:1e-300, 3:4.9e-324\n", &cfg);
	ck_assert(cfg.hosts[0].factor == 0.1 + 0.2);
	d = dump_str(&cfg);
	ck_assert_ptr_nonnull(strstr(d, "\nfactor = 0.30000000000000004\n"));
	ck_assert_ptr_nonnull(strstr(d, "\nflops = 1.7976931348623157e+308\n"));
	ck_assert_ptr_nonnull(strstr(d, "\ncontention = 1:0.1, 2:1e-300, 3:4.94065645841247e-324\n"));
	check_roundtrip(d);
	free(d);
	vlcfg_free(&cfg);
	expect_error("[host a]\nflops = 1.8e308\n", "T:2: [host a] flops: \"1.8e308\" is out of "
		     "range (use a number >= 0, e.g. 3.5e8)");
}
END_TEST

START_TEST(test_names)
{
	char text[256];
	vlcfg_config cfg;
	static const char *const n63 =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

	snprintf(text, sizeof(text), "[host %s]\n[host x.y-z_0]\nreal = fe80::1\n", n63);
	expect_ok(text, &cfg);
	ck_assert_str_eq(cfg.hosts[0].name, n63);
	ck_assert_str_eq(cfg.hosts[1].real, "fe80::1");
	vlcfg_free(&cfg);
	snprintf(text, sizeof(text), "[hosts %.62s]\ncount = 9\n", n63);
	expect_ok(text, &cfg);
	ck_assert_int_eq(cfg.nhosts, 9);
	vlcfg_free(&cfg);
	snprintf(text, sizeof(text), "[hosts %.62s]\ncount = 10\n", n63);
	ck_assert_int_eq(load_text(text, &cfg, text, sizeof(text)), -1);
	ck_assert_ptr_nonnull(strstr(text, "would be longer than 63 characters"));
	snprintf(text, sizeof(text), "[host %sX]\n", n63);
	ck_assert_int_eq(load_text(text, &cfg, text, sizeof(text)), -1);
	ck_assert_ptr_nonnull(strstr(text, "bad host name"));
	expect_error("[host a b]\n", "T:1: [host a b]: unknown section (valid: simulation, "
		     "network, network intra, network inter, mpi, collectives, topology, host NAME, "
		     "hosts PREFIX)");
	expect_error("[host a]\nreal = a b\n", "T:2: [host a] real: bad host name \"a b\" "
		     "(use letters, digits, _ . : and -, at most 255 characters)");
}
END_TEST

START_TEST(test_syntax)
{
	vlcfg_config cfg;

	expect_ok("[host a]\r\nprocessors = 2\r\n[network  inter]\r\nsend_delay=1us\r\n", &cfg);
	ck_assert_int_eq(cfg.hosts[0].procs, 2);
	ck_assert_int_eq(cfg.inter.send_delay, 1000);
	vlcfg_free(&cfg);
	expect_ok("[simulation]\ntrace_dir = /a dir/with blanks ; comment\n[host a]", &cfg);
	ck_assert_str_eq(cfg.trace_dir, "/a dir/with blanks");
	vlcfg_free(&cfg);
	expect_error("[host a]\nprocessors = 2\n  3\n", "T:3: [host a]: \"3\" is not a key = value "
		     "line (use key = value, [section] or a ; comment)");
	expect_error("[host a]\nfactor = 1 # no inline # comments\n",
		     "T:2: [host a] factor: \"1 # no inline # comments\" is not a number "
		     "(use a number >= 0, e.g. 1.0)");
	expect_error("[host a]\nfactor = 1;x\n", "T:2: [host a] factor: \"1;x\" is not a number "
		     "(use a number >= 0, e.g. 1.0)");
	expect_error("[Network]\n", "T:1: [Network]: unknown section (valid: simulation, "
		     "network, network intra, network inter, mpi, collectives, topology, host NAME, "
		     "hosts PREFIX)");
	expect_error("[]\n", "T:1: unknown section (valid: simulation, "
		     "network, network intra, network inter, mpi, collectives, topology, host NAME, "
		     "hosts PREFIX)");
	expect_error("[host a]\nProcessors = 2\n", "T:2: [host a] Processors: unknown key "
		     "(valid: processors, factor, real, init_delay, flops, send_delay, "
		     "recv_delay, trans_delay, trans_per_kib, bandwidth)");
	expect_error("[host a]\n= 2\n", "T:2: [host a]: missing key name before = "
		     "(use key = value)");
	expect_error("[host a]\nabc ; = 2\n", "T:2: [host a]: \"abc ; = 2\" is not a key = value "
		     "line (use key = value, [section] or a ; comment)");
	expect_error("[simulation]\ncompute = Ignore\n", "T:2: [simulation] compute: \"Ignore\" "
		     "is not valid (use measured or ignore)");
	expect_error("[simulation]\ntrace_dir =   ; nothing\n", "T:2: [simulation] trace_dir: "
		     "empty value (use a directory)");
	expect_error("", "T: no host defined (add a [host NAME] or [hosts PREFIX] section)");
	expect_error("; only a comment\n[simulation]\n",
		     "T: no host defined (add a [host NAME] or [hosts PREFIX] section)");
}
END_TEST

START_TEST(test_line_limit)
{
	char text[1024];
	vlcfg_config cfg;

	/* 199 characters: ok, also with CRLF; 200: too long */
	snprintf(text, sizeof(text), "[host a]\n;%0198d\nfactor = 2\n", 0);
	expect_ok(text, &cfg);
	ck_assert(cfg.hosts[0].factor == 2);
	vlcfg_free(&cfg);
	snprintf(text, sizeof(text), "[host a]\r\n;%0198d\r\nfactor = 2\r\n", 0);
	expect_ok(text, &cfg);
	ck_assert(cfg.hosts[0].factor == 2);
	vlcfg_free(&cfg);
	snprintf(text, sizeof(text), "[host a]\n;%0198d", 0);
	expect_ok(text, &cfg);
	vlcfg_free(&cfg);
	snprintf(text, sizeof(text), "[host a]\n;%0199d\nfactor = 2\n", 0);
	expect_error(text, "T:2: [host a]: line too long (at most 199 characters)");
	snprintf(text, sizeof(text), "[host a]\n;%0198d\rx\n", 0);
	expect_error(text, "T:2: [host a]: line too long (at most 199 characters)");
}
END_TEST

START_TEST(test_binary)
{
	static const char nul[] = "[host a]\nfactor = 1\0junk\n";
	static const char bom[] = "\xEF\xBB\xBF[host a]\n";
	vlcfg_config cfg;
	char err[512];

	ck_assert_int_eq(load_bytes(nul, sizeof(nul) - 1, &cfg, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "T:2: [host a]: the line contains a NUL byte (not a text file?)");
	expect_ok(bom, &cfg);
	ck_assert_str_eq(cfg.hosts[0].name, "a");
	vlcfg_free(&cfg);
	expect_error("[host a]\n\xEF\xBB\xBF[host b]\n", "T:2: [host a]: \"\xEF\xBB\xBF[host b]\" "
		     "is not a key = value line (use key = value, [section] or a ; comment)");
}
END_TEST

START_TEST(test_files)
{
	vlcfg_config cfg;
	char err[512], small[8];

	ck_assert_int_eq(vlcfg_load("/nonexistent/x.ini", &cfg, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/nonexistent/x.ini: cannot open: No such file or directory");
	ck_assert_int_eq(vlcfg_load("/", &cfg, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "/: read error: Is a directory");
	ck_assert_int_eq(vlcfg_load("/nonexistent/x.ini", &cfg, small, sizeof(small)), -1);
	ck_assert_str_eq(small, "/nonexi");
	ck_assert_int_eq(vlcfg_load("/nonexistent/x.ini", &cfg, NULL, 0), -1);
	ck_assert_int_eq(vlcfg_load(NULL, &cfg, err, sizeof(err)), -1);
	ck_assert_int_eq(vlcfg_load("/", NULL, err, sizeof(err)), -1);
	ck_assert_ptr_null(cfg.hosts);
}
END_TEST

START_TEST(test_api)
{
	vlcfg_config cfg;
	char *d;

	memset(&cfg, 0, sizeof(cfg));
	vlcfg_free(&cfg);
	vlcfg_free(NULL);
	vlcfg_default(&cfg);
	ck_assert_str_eq(cfg.path, "(built-in)");
	ck_assert_int_eq(cfg.nhosts, 1);
	ck_assert_str_eq(cfg.hosts[0].name, "localhost");
	ck_assert_int_eq(cfg.hosts[0].procs, 1);
	ck_assert(cfg.hosts[0].factor == 0);
	ck_assert(cfg.hosts[0].send_delay == VLCFG_UNSET);
	ck_assert(cfg.intra.send_delay == 0 && cfg.inter.trans_per_kib_ps == 0);
	ck_assert_int_eq(vlcfg_host_index(&cfg, "localhost"), 0);
	ck_assert_int_eq(vlcfg_host_index(&cfg, "other"), -1);
	ck_assert_int_eq(vlcfg_host_index(NULL, "localhost"), -1);
	ck_assert_int_eq(vlcfg_host_index(&cfg, NULL), -1);
	d = dump_str(&cfg);
	ck_assert_ptr_nonnull(strstr(d, "\n[host localhost]\nprocessors = 1\nfactor = 0\n"));
	check_roundtrip(d);
	free(d);
	vlcfg_free(&cfg);
	vlcfg_free(&cfg);
	ck_assert_ptr_null(cfg.hosts);
	vlcfg_dump(NULL, stdout);
}
END_TEST

/* ---- [mpi] and [collectives] ---- */

static void check_mpi_defaults(const vlcfg_config *cfg)
{
	int k;

	ck_assert_int_eq(cfg->mpi.eager_limit, 65536);
	ck_assert_int_eq(cfg->mpi.placement, VLCFG_PLACE_FILL);
	ck_assert_int_eq(cfg->mpi.ranks_per_node, 0);
	ck_assert_int_eq(cfg->mpi.nrank_hosts, 0);
	ck_assert_ptr_null(cfg->mpi.rank_hosts);
	for (k = 0; k < VL_KIND_N; k++)
		ck_assert_int_eq(cfg->mpi.coll_alg[k], VLCOLL_ALG_DEFAULT);
}

START_TEST(test_mpi_defaults)
{
	vlcfg_config cfg;
	char *d;

	expect_ok("[host a]\n", &cfg);
	check_mpi_defaults(&cfg);
	d = dump_str(&cfg);
	ck_assert_ptr_nonnull(strstr(d, "\n[mpi]\neager_limit = 65536B\nplacement = fill\n"
				     "; ranks_per_node = (not set)\n; rank_hosts = (not set)\n\n"
				     "[collectives]\nbarrier = "));
	free(d);
	vlcfg_free(&cfg);
	vlcfg_default(&cfg);
	check_mpi_defaults(&cfg);
	vlcfg_free(&cfg);
	/* an empty [mpi] and [collectives] change nothing */
	expect_ok("[mpi]\n[collectives]\n[host a]\n", &cfg);
	check_mpi_defaults(&cfg);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_mpi_keys)
{
	vlcfg_config cfg;

	expect_ok("[simulation]\nplacement = roundrobin\n[mpi]\neager_limit = 1.5KiB\n"
		  "ranks_per_node = 3\n[host a]\n[mpi]\neager_limit = 0\n", &cfg);
	ck_assert_int_eq(cfg.mpi.eager_limit, 0);
	ck_assert_int_eq(cfg.mpi.ranks_per_node, 3);
	/* [simulation] placement is for pvm_spawn, [mpi] placement for ranks */
	ck_assert_int_eq(cfg.placement, VLCFG_PLACE_ROUNDROBIN);
	ck_assert_int_eq(cfg.mpi.placement, VLCFG_PLACE_FILL);
	vlcfg_free(&cfg);
	expect_ok("[mpi]\neager_limit = 1.5KiB\nplacement = roundrobin\n[host a]\n", &cfg);
	ck_assert_int_eq(cfg.mpi.eager_limit, 1536);
	ck_assert_int_eq(cfg.placement, VLCFG_PLACE_FILL);
	ck_assert_int_eq(cfg.mpi.placement, VLCFG_PLACE_ROUNDROBIN);
	vlcfg_free(&cfg);
	expect_ok("[mpi]\neager_limit = 9223372036854775807\n[host a]\n", &cfg);
	ck_assert(cfg.mpi.eager_limit == INT64_MAX);
	vlcfg_free(&cfg);
	expect_error("[host a]\n[mpi]\neager_limit = 64\n[mpi]\neager_limit = 0.5KB\n"
		     "[mpi]\neager_limit = 1.1\n",
		     "T:7: [mpi] eager_limit: \"1.1\" is not a whole number of bytes "
		     "(use bytes or a number with B, KiB, MiB, GiB, KB, MB or GB)");
	expect_error("[host a]\n[mpi]\neager_limit = 64\nranks_per_node = 2\neager_limit = 128\n",
		     "T:5: [mpi] eager_limit: given twice in this section (first at line 3); give it once");
	expect_error("[collectives]\nbcast = linear\nbcast = linear\n[host a]\n",
		     "T:3: [collectives] bcast: given twice in this section (first at line 2); give it once");
	expect_error("[host a]\n[mpi]\neager_limit = 64 k\n",
		     "T:3: [mpi] eager_limit: \"64 k\" has an unknown size unit (use bytes or a "
		     "number with B, KiB, MiB, GiB, KB, MB or GB)");
	expect_error("[host a]\n[mpi]\neager_limit =\n",
		     "T:3: [mpi] eager_limit: empty value (use bytes or a number with B, KiB, MiB, "
		     "GiB, KB, MB or GB)");
	expect_error("[host a]\n[mpi]\nranks_per_node = 2.5\n",
		     "T:3: [mpi] ranks_per_node: \"2.5\" is not a whole number "
		     "(use an integer 1..1000000)");
	expect_error("[host a]\n[mpi]\ncompute = ignore\n",
		     "T:3: [mpi] compute: unknown key (valid: eager_limit, placement, "
		     "ranks_per_node, rank_hosts)");
	expect_error("[host a]\n[mpi]\nbarrier = linear\n",
		     "T:3: [mpi] barrier: unknown key (valid: eager_limit, placement, "
		     "ranks_per_node, rank_hosts)");
	expect_error("[mpi x]\n[host a]\n", "T:1: [mpi x]: unknown section (valid: simulation, "
		     "network, network intra, network inter, mpi, collectives, topology, host NAME, "
		     "hosts PREFIX)");
}
END_TEST

/* Hosts a (2 processors), b (1), c (3), then the lines of extra. */
static void load_abc(const char *extra, vlcfg_config *cfg)
{
	char text[1024];

	snprintf(text, sizeof(text), "[host a]\nprocessors = 2\n[host b]\n[host c]\n"
		 "processors = 3\n%s", extra);
	expect_ok(text, cfg);
}

START_TEST(test_rank_host_fill)
{
	static const int want[] = {0, 0, 1, 2, 2, 2, 0, 0, 1, 2, 2, 2, 0};
	vlcfg_config cfg;
	int r;

	load_abc("", &cfg);
	for (r = 0; r < (int)(sizeof(want) / sizeof(want[0])); r++)
		ck_assert_msg(vlcfg_rank_host(&cfg, r) == want[r], "rank %d", r);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 6000), 0);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 6005), 2);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 2147483647), 0); /* INT_MAX % 6 == 1 */
	ck_assert_int_eq(vlcfg_rank_host(&cfg, -1), 0);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, -2147483647 - 1), 0);
	vlcfg_free(&cfg);

	/* ranks_per_node replaces the processors */
	load_abc("[mpi]\nranks_per_node = 2\n", &cfg);
	for (r = 0; r < 14; r++)
		ck_assert_msg(vlcfg_rank_host(&cfg, r) == r % 6 / 2, "rank %d", r);
	vlcfg_free(&cfg);
	load_abc("[mpi]\nranks_per_node = 1000000\n", &cfg);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 999999), 0);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 1000000), 1);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 2999999), 2);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 3000000), 0);
	vlcfg_free(&cfg);

	/* the built-in machine and a zeroed config: always host 0 */
	vlcfg_default(&cfg);
	for (r = 0; r < 5; r++)
		ck_assert_int_eq(vlcfg_rank_host(&cfg, r), 0);
	vlcfg_free(&cfg);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 3), 0);
	ck_assert_int_eq(vlcfg_rank_host(NULL, 3), 0);
}
END_TEST

START_TEST(test_rank_host_roundrobin)
{
	vlcfg_config cfg;
	int r;

	load_abc("[mpi]\nplacement = roundrobin\nranks_per_node = 2\n", &cfg);
	for (r = 0; r < 10; r++)
		ck_assert_int_eq(vlcfg_rank_host(&cfg, r), r % 3);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 2147483647), 2147483647 % 3);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, -5), 0);
	vlcfg_free(&cfg);
	/* [simulation] placement is not the ranks' */
	load_abc("[simulation]\nplacement = roundrobin\n", &cfg);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 1), 0);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_rank_hosts)
{
	vlcfg_config cfg;
	char *d;
	int r;

	/* names of hosts declared later; overrides placement and ranks_per_node */
	expect_ok("[mpi]\nplacement = roundrobin\nranks_per_node = 4\nrank_hosts = c,a , c,b\n"
		  "[host a]\n[hosts c]\ncount = 1\n[host b]\n[host c]\n", &cfg);
	ck_assert_int_eq(cfg.mpi.nrank_hosts, 4);
	ck_assert_int_eq(cfg.mpi.rank_hosts[0], 3);
	ck_assert_int_eq(cfg.mpi.rank_hosts[1], 0);
	ck_assert_int_eq(cfg.mpi.rank_hosts[2], 3);
	ck_assert_int_eq(cfg.mpi.rank_hosts[3], 2);
	for (r = 0; r < 12; r++) {
		static const int want[] = {3, 0, 3, 2};

		ck_assert_int_eq(vlcfg_rank_host(&cfg, r), want[r % 4]);
	}
	ck_assert_int_eq(vlcfg_rank_host(&cfg, -1), 0);
	d = dump_str(&cfg);
	ck_assert_ptr_nonnull(strstr(d, "\n[mpi]\neager_limit = 65536B\nplacement = roundrobin\n"
				     "ranks_per_node = 4\nrank_hosts = c, a, c, b\n\n"));
	check_roundtrip(d);
	free(d);
	vlcfg_free(&cfg);

	/* a later [mpi] section's rank_hosts replaces the earlier one; one name */
	expect_ok("[host a]\n[host b]\n[mpi]\nrank_hosts = nosuch\n[mpi]\nrank_hosts = b\n", &cfg);
	ck_assert_int_eq(cfg.mpi.nrank_hosts, 1);
	for (r = 0; r < 4; r++)
		ck_assert_int_eq(vlcfg_rank_host(&cfg, r), 1);
	vlcfg_free(&cfg);

	/* an index that does not fit the hosts (a config changed by hand) gives host 0 */
	load_abc("[mpi]\nrank_hosts = c, b\n", &cfg);
	cfg.mpi.rank_hosts[1] = 7;
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 0), 2);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 1), 0);
	cfg.mpi.rank_hosts[1] = 1;
	vlcfg_free(&cfg);

	/* errors: the line is the key's, also when the file ends in another section */
	expect_error("[mpi]\nrank_hosts = a, d\n[host a]\n[host b]\n[simulation]\n",
		     "T:2: [mpi] rank_hosts: unknown host \"d\" (valid: the hosts of this file: "
		     "a, b)");
	expect_error("[hosts n]\ncount = 20\n[mpi]\nrank_hosts = n20, n21\n",
		     "T:4: [mpi] rank_hosts: unknown host \"n21\" (valid: the hosts of this file: "
		     "n1, n2, n3, n4, n5, n6, n7, n8, ...)");
	expect_error("[host a]\n[mpi]\nrank_hosts = a b\n",
		     "T:3: [mpi] rank_hosts: bad host name \"a b\" "
		     "(use letters, digits, _ . and -, at most 63 characters)");
	expect_error("[host a]\n[mpi]\nrank_hosts = a,\n",
		     "T:3: [mpi] rank_hosts: empty entry between commas (use host names separated "
		     "by commas, e.g. node1, node2)");
	/* an error before the end of the file wins over an unknown rank host */
	expect_error("[mpi]\nrank_hosts = x\n[host a]\nfactor = -1\n",
		     "T:4: [host a] factor: \"-1\" is negative (must be >= 0)");
}
END_TEST

START_TEST(test_rank_host_many)
{
	vlcfg_config cfg;

	expect_ok("[hosts n]\ncount = 100000\nprocessors = 3\n[mpi]\nrank_hosts = n100000, n1\n",
		  &cfg);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 0), 99999);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 1), 0);
	free(cfg.mpi.rank_hosts);
	cfg.mpi.rank_hosts = NULL;
	cfg.mpi.nrank_hosts = 0;
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 299999), 99999);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 300000), 0);
	ck_assert_int_eq(vlcfg_rank_host(&cfg, 300004), 1);
	vlcfg_free(&cfg);
}
END_TEST

START_TEST(test_collectives)
{
	char valid[256], text[512];
	vlcfg_config cfg;
	char *d;
	int k;

	/* every kind accepts "default" and its default algorithm by name */
	for (k = 0; k < VL_KIND_N; k++) {
		int def = vlcoll_alg_default(k);

		ck_assert_int_gt(def, VLCOLL_ALG_DEFAULT);
		snprintf(text, sizeof(text), "[collectives]\n%s = %s\n[host a]\n",
			 vl_coll_kind_name(k), vlcoll_alg_name(def));
		expect_ok(text, &cfg);
		ck_assert_int_eq(cfg.mpi.coll_alg[k], def);
		vlcfg_free(&cfg);
		snprintf(text, sizeof(text), "[collectives]\n%s = %s\n[collectives]\n%s = default\n[host a]\n",
			 vl_coll_kind_name(k), vlcoll_alg_name(def), vl_coll_kind_name(k));
		expect_ok(text, &cfg);
		ck_assert_int_eq(cfg.mpi.coll_alg[k], VLCOLL_ALG_DEFAULT);
		/* the dump shows the algorithm that will be used */
		d = dump_str(&cfg);
		snprintf(text, sizeof(text), "\n%s = %s\n", vl_coll_kind_name(k),
			 vlcoll_alg_name(def));
		ck_assert_ptr_nonnull(strstr(d, text));
		check_roundtrip(d);
		free(d);
		vlcfg_free(&cfg);
	}
	expect_ok("[collectives]\nbarrier = dissemination\nbcast = linear\n"
		  "alltoall = pairwise\n[host a]\n", &cfg);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_BARRIER], VLCOLL_ALG_DISSEMINATION);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_BCAST], VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_ALLTOALL], VLCOLL_ALG_PAIRWISE);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_SCAN], VLCOLL_ALG_DEFAULT);
	d = dump_str(&cfg);
	ck_assert_ptr_nonnull(strstr(d, "\n[collectives]\nbarrier = dissemination\n"
				     "bcast = linear\n"));
	free(d);
	vlcfg_free(&cfg);

	ck_assert_int_lt(vlcoll_alg_parse(VL_KIND_BARRIER, "ring", valid, sizeof(valid)), 0);
	snprintf(text, sizeof(text), "T:3: [collectives] barrier: \"ring\" is not an algorithm "
		 "for barrier (valid: %s)", valid);
	expect_error("[host a]\n[collectives]\nbarrier = ring\n", text);
	snprintf(text, sizeof(text), "T:3: [collectives] barrier: empty value (valid: %s)", valid);
	expect_error("[host a]\n[collectives]\nbarrier =\n", text);
	expect_error("[host a]\n[collectives]\nBarrier = linear\n",
		     "T:3: [collectives] Barrier: unknown key (valid: barrier, bcast, reduce, "
		     "allreduce, gather, scatter, allgather, alltoall, reduce_scatter, scan, "
		     "exscan, selection)");
	expect_error("[host a]\n[collectives]\n= linear\n",
		     "T:3: [collectives]: missing key name before = (use key = value)");
	expect_error("[host a]\n[collectives]\neager_limit = 1KiB\n",
		     "T:3: [collectives] eager_limit: unknown key (valid: barrier, bcast, reduce, "
		     "allreduce, gather, scatter, allgather, alltoall, reduce_scatter, scan, "
		     "exscan, selection)");
}
END_TEST

START_TEST(test_set_mpi)
{
	vlcfg_config cfg, before;
	char err[512];

	vlcfg_default(&cfg);
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager_limit", "1KiB", err, sizeof(err)), 0);
	ck_assert_int_eq(cfg.mpi.eager_limit, 1024);
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager_limit", "0", err, sizeof(err)), 0);
	ck_assert_int_eq(cfg.mpi.eager_limit, 0);
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "bcast", "linear", err,
				       sizeof(err)), 0);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_BCAST], VLCOLL_ALG_LINEAR);
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "bcast", "default", err,
				       sizeof(err)), 0);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_BCAST], VLCOLL_ALG_DEFAULT);
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "alltoall", "pairwise", err,
				       sizeof(err)), 0);
	ck_assert_int_eq(cfg.mpi.coll_alg[VL_KIND_ALLTOALL], VLCOLL_ALG_PAIRWISE);
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager_limit", "4KiB", err, sizeof(err)), 0);

	/* errors leave cfg unchanged */
	before = cfg;
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "placement", "roundrobin", err,
				       sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: [mpi] placement: cannot be changed while the "
			 "program runs (valid: eager_limit)");
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "ranks_per_node", "2", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: [mpi] ranks_per_node: cannot be changed while the "
			 "program runs (valid: eager_limit)");
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "rank_hosts", "localhost", err,
				       sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: [mpi] rank_hosts: cannot be changed while the "
			 "program runs (valid: eager_limit)");
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager_limit", "-1", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: eager_limit: \"-1\" is negative (must be >= 0)");
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager_limit", "1 kB", err, sizeof(err)), -1);
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi", "eager", "1KiB", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: eager: unknown key (valid: eager_limit, placement, "
			 "ranks_per_node, rank_hosts)");
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "barrier", "ring", err,
				       sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "vl_set_param: barrier: \"ring\" is not an algorithm "
				     "for barrier (valid: "));
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "broadcast", "linear", err,
				       sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "broadcast: unknown key (valid: barrier, bcast, "));
	ck_assert_int_eq(vlcfg_set(&cfg, "collectives", "", "linear", err, sizeof(err)), -1);
	ck_assert_int_eq(vlcfg_set(&cfg, "mpi ", "eager_limit", "1", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "vl_set_param: [mpi ]: unknown section (valid: simulation, network, "
			 "network intra, network inter, mpi, collectives, host NAME)");
	ck_assert_mem_eq(&cfg.mpi, &before.mpi, sizeof(cfg.mpi));
	ck_assert_int_eq(cfg.placement, VLCFG_PLACE_FILL);
	vlcfg_free(&cfg);
}
END_TEST

/* The machine files shipped in vmconfig/. */
START_TEST(test_shipped)
{
	vlcfg_config cfg;
	char err[2048];

	ck_assert_msg(vlcfg_load(SRCDIR "/vmconfig/vienna.ini", &cfg, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(cfg.nhosts, 5);
	ck_assert_str_eq(cfg.hosts[0].name, "node1");
	ck_assert_str_eq(cfg.hosts[4].name, "node5");
	ck_assert_int_eq(cfg.hosts[0].procs, 2);
	ck_assert(cfg.hosts[0].factor == 1.0);
	ck_assert_int_gt(cfg.intra.ncont + cfg.inter.ncont, 0);
	vlcfg_free(&cfg);
	ck_assert_msg(vlcfg_load(SRCDIR "/vmconfig/aachen.ini", &cfg, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(cfg.nhosts, 16);
	ck_assert(cfg.hosts[15].factor == 0.91 && cfg.hosts[15].procs == 2);
	ck_assert(!memcmp(&cfg.intra, &cfg.inter, sizeof(cfg.intra)));
	ck_assert_int_eq(cfg.inter.ncont, 0);
	vlcfg_free(&cfg);
	ck_assert_msg(vlcfg_load(SRCDIR "/vmconfig/modern-100g.ini", &cfg, err,
				     sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(cfg.nhosts, 8);
	ck_assert_int_eq(cfg.hosts[0].procs, 64);
	vlcfg_free(&cfg);
}
END_TEST

static Suite *vmconfig_suite(void)
{
	Suite *s = suite_create("vmconfig");
	TCase *units = tcase_create("units");
	TCase *golden = tcase_create("golden");
	TCase *loader = tcase_create("loader");

	tcase_add_test(units, test_time_ok);
	tcase_add_test(units, test_time_bad);
	tcase_add_test(units, test_size_ok);
	tcase_add_test(units, test_size_bad);
	tcase_add_test(units, test_rate_ok);
	tcase_add_test(units, test_rate_bad);
	tcase_add_test(golden, test_golden_good);
	tcase_add_test(golden, test_golden_bad);
	tcase_add_test(loader, test_defaults);
	tcase_add_test(loader, test_network_order);
	tcase_add_test(loader, test_models);
	tcase_add_test(loader, test_model_limits);
	tcase_add_test(loader, test_bandwidth);
	tcase_add_test(loader, test_templates);
	tcase_add_test(loader, test_many_hosts);
	tcase_add_test(loader, test_host_hash);
	tcase_add_test(loader, test_dump_numbers);
	tcase_add_test(loader, test_names);
	tcase_add_test(loader, test_syntax);
	tcase_add_test(loader, test_line_limit);
	tcase_add_test(loader, test_binary);
	tcase_add_test(loader, test_files);
	tcase_add_test(loader, test_api);
	tcase_add_test(loader, test_shipped);
	tcase_add_test(loader, test_mpi_defaults);
	tcase_add_test(loader, test_mpi_keys);
	tcase_add_test(loader, test_rank_host_fill);
	tcase_add_test(loader, test_rank_host_roundrobin);
	tcase_add_test(loader, test_rank_hosts);
	tcase_add_test(loader, test_rank_host_many);
	tcase_add_test(loader, test_collectives);
	tcase_add_test(loader, test_set_mpi);
	tcase_set_timeout(loader, 60);
	suite_add_tcase(s, units);
	suite_add_tcase(s, golden);
	suite_add_tcase(s, loader);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vmconfig_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed != 0;
}
