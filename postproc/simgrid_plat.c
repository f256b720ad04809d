/* simgrid_plat.c - the SimGrid platform (XML 4.1) of a VMConfig, and the
 * smpirun options that make SimGrid time a message as vlayer does.
 *
 * vlayer's transmission T(n) = trans_delay + n x trans_per_kib / 1024 becomes
 * a link of latency trans_delay and bandwidth 1024 / trans_per_kib; SimGrid
 * sends 16 bytes more than the user's (its MPI envelope), so the latency
 * written is trans_delay - 16 x the per-byte time: one message alone on its
 * route then takes T(n) again.  Under CM02 (no latency or bandwidth factor,
 * no TCP window bound, no cross traffic) and FATPIPE links every message has
 * its route to itself: no contention, as in vlayer.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simgrid.h"
#include "vlayer/coll/coll.h"
#include "vlayer/core/engine.h"
#include "util/diag.h"

int vlpost_sg_topo_parse(const char *name)
{
	static const char *const names[] = {"fatpipe", "star", "bus", "vmconfig"};
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

double vlpost_sg_speed(const vlcfg_config *cfg, int h)
{
	return h >= 0 && h < cfg->nhosts && cfg->hosts[h].flops > 0 ? cfg->hosts[h].flops : 1e9;
}

void vlpost_sg_link_of(const vlcfg_config *cfg, int src, int intra, vlpost_sg_link *l)
{
	double d, per_byte, lat;

	memset(l, 0, sizeof *l);
	l->approx = vli_trans_line(cfg, src, intra, &d, &per_byte);
	l->lat_ns_model = (int64_t)d;
	l->ns_per_byte = per_byte;
	lat = d - VLPOST_SG_ENVELOPE * per_byte;
	if (lat < 0) {
		lat = 0;
		l->lat_clamped = 1;
	}
	l->lat_s = lat / 1e9;
	/* no per-byte cost: a bandwidth that takes no time worth a nanosecond */
	l->bw = per_byte > 0 ? 1e9 / per_byte : 1e18;
}

/* The shortest %g form of v that reads back as v. */
static const char *num(char *buf, size_t len, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, len, "%.17g", v);
	return buf;
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

static void link_xml(FILE *f, const char *host, const char *what, double lat_s, double bw,
                     const char *policy)
{
	fputs("  <link id=\"", f);
	if (host) {
		xml_str(f, host);
		fputc('-', f);
	}
	char a[32], b[32];

	fprintf(f, "%s\" latency=\"%ss\" bandwidth=\"%sBps\" sharing_policy=\"%s\"/>\n", what,
	        num(a, sizeof a, lat_s), num(b, sizeof b, bw), policy);
}

static void link_ctn(FILE *f, const char *host, const char *what)
{
	fputs("<link_ctn id=\"", f);
	if (host) {
		xml_str(f, host);
		fputc('-', f);
	}
	fprintf(f, "%s\"/>", what);
}

static void route_begin(FILE *f, const char *src, const char *dst)
{
	fputs("  <route src=\"", f);
	xml_str(f, src);
	fputs("\" dst=\"", f);
	xml_str(f, dst);
	fputs("\" symmetrical=\"NO\">", f);
}

/* ---- the VMConfig's [topology] ---- */

/* The links of [topology]: bandwidth (B/s) and a message's latency (s; a
 * torus: one hop's), the [network inter] values where not given. */
static void topo_link(const vlcfg_config *cfg, double *bw, double *lat_s)
{
	vlpost_sg_link ex;

	vlpost_sg_link_of(cfg, -1, 0, &ex);
	*bw = cfg->topo.bandwidth > 0 ? cfg->topo.bandwidth : ex.bw;
	*lat_s = (cfg->topo.latency != VLCFG_UNSET ? (double)cfg->topo.latency
						   : (double)ex.lat_ns_model) / 1e9;
}

#define coord vli_torus_coord /* vlayer/core/links.c */
#define moved vli_torus_moved

/* The links of a host's route in a torus, dimension by dimension (x first),
 * each the shorter way round (a tie: upwards).  Full duplex: link
 * "HOST-dD+" leaves HOST upwards in dimension D, "HOST-dD-" downwards; half
 * duplex: "HOST-dD" joins HOST and its upper neighbour, both ways. */
static void torus_route(FILE *f, const vlcfg_config *cfg, int src, int dst)
{
	const vlcfg_topo *t = &cfg->topo;
	int d, h = src;

	for (d = 0; d < t->ndims; d++) {
		int n = t->dims[d], up = (coord(t, dst, d) - coord(t, h, d) + n) % n;
		int dir = up <= n - up ? 1 : -1, steps = dir > 0 ? up : n - up;
		char what[32];

		while (steps-- > 0) {
			int c = (coord(t, h, d) + dir + n) % n, next = moved(t, h, d, c);

			if (t->half_duplex) {
				snprintf(what, sizeof what, "d%d", d);
				link_ctn(f, cfg->hosts[dir > 0 ? h : next].name, what);
			} else {
				snprintf(what, sizeof what, "d%d%c", d, dir > 0 ? '+' : '-');
				link_ctn(f, cfg->hosts[h].name, what);
			}
			h = next;
		}
	}
}

/* The links and routes of [topology]. */
static void topo_platform(FILE *f, const vlcfg_config *cfg, FILE *warn)
{
	const vlcfg_topo *t = &cfg->topo;
	double bw, lat, env;
	int h, g, d;
	char what[32];

	topo_link(cfg, &bw, &lat);
	env = VLPOST_SG_ENVELOPE / bw; /* SimGrid's envelope, taken off the latency */
	for (h = 0; h < cfg->nhosts; h++) {
		const char *name = cfg->hosts[h].name;
		vlpost_sg_link in;

		vlpost_sg_link_of(cfg, h, 1, &in);
		link_xml(f, name, "intra", in.lat_s, in.bw, "FATPIPE");
		if (t->kind == VLCFG_TOPO_STAR || t->kind == VLCFG_TOPO_SWITCH) {
			double half = lat > env ? (lat - env) / 2 : 0;

			if (t->half_duplex) {
				link_xml(f, name, "link", half, bw, "SHARED");
			} else {
				link_xml(f, name, "up", half, bw, "SHARED");
				link_xml(f, name, "down", half, bw, "SHARED");
			}
		} else if (t->kind == VLCFG_TOPO_TORUS) {
			for (d = 0; d < t->ndims; d++) {
				if (t->half_duplex) {
					snprintf(what, sizeof what, "d%d", d);
					link_xml(f, name, what, lat, bw, "SHARED");
				} else {
					snprintf(what, sizeof what, "d%d+", d);
					link_xml(f, name, what, lat, bw, "SHARED");
					snprintf(what, sizeof what, "d%d-", d);
					link_xml(f, name, what, lat, bw, "SHARED");
				}
			}
		}
	}
	if (t->kind == VLCFG_TOPO_FATTREE) /* the engine's resources (links.c), a hop's latency each */
		for (g = 0; g < vli_net_nres(cfg); g++) {
			double cap = vli_net_cap(cfg, g);

			snprintf(what, sizeof what, "fattree-%d", g);
			link_xml(f, NULL, what, lat, cap > 0 ? cap * 1e9 : 1e18, "SHARED");
		}
	if (t->kind == VLCFG_TOPO_BUS)
		link_xml(f, NULL, "bus", lat > env ? lat - env : 0, bw, "SHARED");
	if (t->kind == VLCFG_TOPO_SWITCH && t->backplane > 0)
		link_xml(f, NULL, "backplane", 0, t->backplane, "SHARED");
	for (h = 0; h < cfg->nhosts; h++)
		for (g = 0; g < cfg->nhosts; g++) {
			route_begin(f, cfg->hosts[h].name, cfg->hosts[g].name);
			if (g == h) {
				link_ctn(f, cfg->hosts[h].name, "intra");
			} else if (t->kind == VLCFG_TOPO_BUS) {
				link_ctn(f, NULL, "bus");
			} else if (t->kind == VLCFG_TOPO_TORUS) {
				torus_route(f, cfg, h, g);
			} else if (t->kind == VLCFG_TOPO_FATTREE) {
				int res[4], k, n;
				int64_t rl;

				n = vli_net_route(cfg, h, g, res, &rl);
				for (k = 0; k < n; k++) {
					snprintf(what, sizeof what, "fattree-%d", res[k]);
					link_ctn(f, NULL, what);
				}
			} else {
				link_ctn(f, cfg->hosts[h].name, t->half_duplex ? "link" : "up");
				if (t->kind == VLCFG_TOPO_SWITCH && t->backplane > 0)
					link_ctn(f, NULL, "backplane");
				link_ctn(f, cfg->hosts[g].name, t->half_duplex ? "link" : "down");
			}
			fputs("</route>\n", f);
		}
	if (warn && t->fifo)
		fprintf(warn, "%s: warning: [topology] sharing = fifo has no SimGrid link policy: "
			"the links are exported with fair sharing (SHARED)\n", vlu_prog());
	if (warn && (t->kind == VLCFG_TOPO_TORUS || t->kind == VLCFG_TOPO_FATTREE))
		fprintf(warn, "%s: note: on the %s SimGrid's %d-byte envelope is not taken off "
			"the hop latencies: each message between hosts takes %.3g ns more than its "
			"route's latencies plus its bytes at the link's bandwidth\n", vlu_prog(),
			vlcfg_topo_kind_name(t->kind), VLPOST_SG_ENVELOPE, env * 1e9);
}

int vlpost_sg_platform(FILE *f, const vlcfg_config *cfg, const int *ranks, int topology, FILE *warn)
{
	static const char *const topo[] = {"fatpipe", "star", "bus", "vmconfig"};
	vlpost_sg_link in, ex;
	int h, g, approx = 0, clamped = 0, override = 0;

	if (topology == VLPOST_SG_AUTO)
		topology = cfg->topo.kind != VLCFG_TOPO_NONE ? VLPOST_SG_VMCONFIG : VLPOST_SG_FATPIPE;
	fputs("<?xml version='1.0'?>\n"
	      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
	      "<platform version=\"4.1\">\n",
	      f);
	fputs("<!-- generated by vlpost simgrid from ", f);
	xml_str(f, cfg->path);
	fprintf(f,
	        " (topology %s); latencies are the VMConfig's trans_delay minus the\n"
	        "     time of SimGrid's %d-byte envelope (docs/simgrid.md) -->\n",
	        topo[topology], VLPOST_SG_ENVELOPE);
	fputs("<zone id=\"vlayer\" routing=\"Full\">\n", f);
	for (h = 0; h < cfg->nhosts; h++) {
		int cores = cfg->hosts[h].procs > ranks[h] ? cfg->hosts[h].procs : ranks[h];
		char sp[32];

		fputs("  <host id=\"", f);
		xml_str(f, cfg->hosts[h].name);
		fprintf(f, "\" speed=\"%sf\" core=\"%d\"/>\n",
		        num(sp, sizeof sp, vlpost_sg_speed(cfg, h)), cores > 0 ? cores : 1);
	}
	if (topology == VLPOST_SG_VMCONFIG) {
		if (cfg->topo.kind == VLCFG_TOPO_NONE) {
			if (warn)
				fprintf(warn, "%s: warning: the VMConfig has no [topology]: "
					"contention-free links\n", vlu_prog());
			topology = VLPOST_SG_FATPIPE;
		} else {
			topo_platform(f, cfg, warn);
			fputs("</zone>\n</platform>\n", f);
			return ferror(f) ? -1 : 0;
		}
	}
	for (h = 0; h < cfg->nhosts; h++) {
		const vlcfg_host *hp = &cfg->hosts[h];

		vlpost_sg_link_of(cfg, h, 1, &in);
		vlpost_sg_link_of(cfg, h, 0, &ex);
		approx |= in.approx | ex.approx;
		clamped |= in.lat_clamped | ex.lat_clamped;
		override |= hp->trans_delay != VLCFG_UNSET || hp->trans_per_kib_ps != VLCFG_UNSET;
		link_xml(f, hp->name, "intra", in.lat_s, in.bw, "FATPIPE");
		if (topology == VLPOST_SG_FATPIPE) {
			link_xml(f, hp->name, "inter", ex.lat_s, ex.bw, "FATPIPE");
		} else if (topology == VLPOST_SG_STAR) {
			/* the link's own values, half the latency on each side */
			vlpost_sg_link_of(cfg, -1, 0, &ex);
			link_xml(f, hp->name, "up", ex.lat_s / 2, ex.bw, "SHARED");
			link_xml(f, hp->name, "down", ex.lat_s / 2, ex.bw, "SHARED");
		}
	}
	if (topology == VLPOST_SG_BUS) {
		vlpost_sg_link_of(cfg, -1, 0, &ex);
		link_xml(f, NULL, "bus", ex.lat_s, ex.bw, "SHARED");
	}
	for (h = 0; h < cfg->nhosts; h++) {
		for (g = 0; g < cfg->nhosts; g++) {
			route_begin(f, cfg->hosts[h].name, cfg->hosts[g].name);
			if (g == h) {
				link_ctn(f, cfg->hosts[h].name, "intra");
			} else if (topology == VLPOST_SG_FATPIPE) {
				link_ctn(f, cfg->hosts[h].name, "inter");
			} else if (topology == VLPOST_SG_STAR) {
				link_ctn(f, cfg->hosts[h].name, "up");
				link_ctn(f, cfg->hosts[g].name, "down");
			} else {
				link_ctn(f, NULL, "bus");
			}
			fputs("</route>\n", f);
		}
	}
	fputs("</zone>\n</platform>\n", f);
	if (warn && approx)
		fprintf(warn,
		        "%s: warning: a piecewise trans_model is written as the line through "
		        "its first and last breakpoints\n",
		        vlu_prog());
	if (warn && clamped)
		fprintf(warn,
		        "%s: warning: a link's trans_delay is shorter than SimGrid's "
		        "%d-byte envelope: its latency is 0 and messages take longer\n",
		        vlu_prog(), VLPOST_SG_ENVELOPE);
	if (warn && override && topology != VLPOST_SG_FATPIPE)
		fprintf(warn,
		        "%s: warning: --topology %s uses the [network inter] values for "
		        "every host (per-host trans_delay/trans_per_kib left out)\n",
		        vlu_prog(), topo[topology]);
	return ferror(f) ? -1 : 0;
}

/* vlayer's algorithm -> SimGrid 3.32's name of the closest one (smpi/KIND). */
static const struct {
	int kind;
	const char *vl, *sg_kind, *sg;
} coll_map[] = {
    {VL_KIND_BARRIER, "dissemination", "barrier", "ompi_bruck"},
    {VL_KIND_BARRIER, "linear", "barrier", "ompi_basic_linear"},
    {VL_KIND_BARRIER, "binomial", "barrier", "ompi_tree"},
    {VL_KIND_BARRIER, "recursive_doubling", "barrier", "ompi_recursivedoubling"},
    {VL_KIND_BCAST, "binomial", "bcast", "binomial_tree"},
    {VL_KIND_BCAST, "linear", "bcast", "flattree"},
    {VL_KIND_REDUCE, "binomial", "reduce", "binomial"},
    {VL_KIND_REDUCE, "linear", "reduce", "flat_tree"},
    {VL_KIND_ALLREDUCE, "recursive_doubling", "allreduce", "rdb"},
    {VL_KIND_ALLREDUCE, "ring", "allreduce", "lr"},
    {VL_KIND_ALLREDUCE, "reduce_bcast", "allreduce", "redbcast"},
    {VL_KIND_GATHER, "linear", "gather", "ompi_basic_linear"},
    {VL_KIND_GATHER, "binomial", "gather", "ompi_binomial"},
    {VL_KIND_SCATTER, "linear", "scatter", "ompi_basic_linear"},
    {VL_KIND_SCATTER, "binomial", "scatter", "ompi_binomial"},
    /* (SimGrid's "ring" allgather sends its own block to rank + i; NTSLR
     * is the ring of neighbours vlayer's and Open MPI's forward along) */
    {VL_KIND_ALLGATHER, "ring", "allgather", "NTSLR"},
    {VL_KIND_ALLGATHER, "recursive_doubling", "allgather", "rdb"},
    /* (an allgatherv's ring: SimGrid's "mpich_ring" gives vlayer's times,
     * its "ring" not - links/latecoll.c, every block alike) */
    {VL_KIND_ALLGATHER, "ring", "allgatherv", "mpich_ring"},
    /* (SimGrid's "pair" pairs rank ^ i and wants p a power of two; its
     * "ring" sends to rank + i and receives from rank - i, as Open MPI's
     * pairwise and vlayer's do) */
    {VL_KIND_ALLTOALL, "pairwise", "alltoall", "ring"},
    {VL_KIND_ALLTOALL, "linear", "alltoall", "basic_linear"},
    {VL_KIND_REDUCE_SCATTER, "ring", "reduce_scatter", "ompi_ring"},
};

void vlpost_sg_cfg_opts(FILE *f, const vlcfg_config *cfg, int mpi, const char *sep)
{
	/* sends below the eager limit leave at once (detached, to a mailbox with a
	 * permanent receiver); PVM sends always do */
	int64_t eager = mpi ? cfg->mpi.eager_limit : INT_MAX;
	size_t i;

	if (eager > INT_MAX)
		eager = INT_MAX;
	fprintf(f,
	        "--cfg=network/model:CM02%s--cfg=network/crosstraffic:0%s"
	        "--cfg=network/TCP-gamma:1e30%s--cfg=surf/precision:1e-12%s",
	        sep, sep, sep, sep);
	fprintf(f,
	        "--cfg=smpi/send-is-detached-thresh:%" PRId64
	        "%s--cfg=smpi/async-small-thresh:%" PRId64,
	        eager, sep, eager);
	if (!mpi)
		return;
	for (i = 0; i < sizeof coll_map / sizeof coll_map[0]; i++) {
		int alg = cfg->mpi.coll_alg[coll_map[i].kind];

		if (alg == VLCOLL_ALG_DEFAULT)
			alg = vlcoll_alg_default(coll_map[i].kind);
		if (strcmp(vlcoll_alg_name(alg), coll_map[i].vl) == 0)
			fprintf(f, "%s--cfg=smpi/%s:%s", sep, coll_map[i].sg_kind, coll_map[i].sg);
	}
}
