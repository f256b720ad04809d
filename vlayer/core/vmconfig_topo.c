/* vmconfig_topo.c - the VMConfig's [topology] section: how the hosts are
 * joined (issue 13).  Its keys, their checks and messages, the check at the
 * end of the file, and its dump.
 *
 *   kind      = none | star | switch | bus | torus | fattree   (default none)
 *   duplex    = full | half                          (default full)
 *   sharing   = fair | fifo                          (default fair)
 *   collectives = apart | shared                     (default apart)
 *   bandwidth = RATE   each link's (default: [network inter]'s)
 *   latency   = TIME   star, switch, bus: a message's one-way latency between
 *                      two hosts; torus: one hop's (default: [network inter]'s
 *                      trans_delay)
 *   backplane = RATE   switch: what the switch carries at most in all
 *   dims      = AxB or AxBxC   torus: its size (the product is the number of
 *                      hosts; host i at x = i mod A, y = i / A mod B, ...)
 *   leaf_hosts = N     fattree: hosts per leaf switch (host i on leaf i / N)
 *   spines    = N      fattree: spine switches, each joined to every leaf (1)
 *   uplink_bandwidth = RATE   fattree: a leaf-spine link's (default bandwidth)
 *
 * The engine's flow model (links.c) shares these links; vlpost simgrid (and
 * replay --engine simgrid) builds SimGrid's platform from it
 * (postproc/simgrid_plat.c).
 */
#include "vmconfig.h"
#include "vmconfig_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = {"none", "star", "switch", "bus", "torus", "fattree"};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

#define VALID_KEYS "kind, duplex, sharing, bandwidth, latency, backplane, dims, leaf_hosts, " \
	"spines, uplink_bandwidth"
#define VALID_KINDS "none, star, switch, bus, torus, fattree"

void vlcfg_topo_default(vlcfg_topo *t)
{
	memset(t, 0, sizeof *t);
	t->kind = VLCFG_TOPO_NONE;
	t->latency = VLCFG_UNSET;
}

const char *vlcfg_topo_kind_name(int kind)
{
	return kind >= 0 && kind < NKINDS ? kinds[kind] : "?";
}

/* A rate in bytes/s; 0 or -1 after the message. */
static int rate(vlcfg_ld *st, const char *name, const char *text, double *bps)
{
	if (vlcfg_parse_rate(text, bps) != 0 || !(*bps > 0) || *bps > 1e18)
		return vlcfg_fail(st, name, "\"%s\" is not a rate > 0 (use a number with B/s, KB/s, "
				  "MB/s, GB/s, KiB/s, MiB/s, GiB/s, bit/s, kbit/s, Mbit/s or Gbit/s, "
				  "e.g. 100Mbit/s)", text);
	return 0;
}

/* dims = AxB or AxBxC, each 1..65536. */
static int dims(vlcfg_ld *st, const char *name, const char *text, vlcfg_topo *t)
{
	const char *p = text;
	int n = 0;

	while (n < 3) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || v < 1 || v > 65536)
			break;
		t->dims[n++] = (int)v;
		p = end;
		if (*p != 'x')
			break;
		p++;
	}
	if (n < 2 || *p)
		return vlcfg_fail(st, name, "\"%s\" is not a torus size (use AxB or AxBxC, "
				  "e.g. 4x4 or 2x2x4)", text);
	t->ndims = n;
	return 0;
}

static const char *const keys[] = {"kind", "duplex", "bandwidth", "latency", "backplane", "dims",
				   "sharing", "leaf_hosts", "spines", "uplink_bandwidth", "collectives"};

int vlcfg_topo_line(vlcfg_ld *st, const char *name, const char *text)
{
	vlcfg_topo *t = &st->cfg->topo;
	int i;

	if (!*name)
		return vlcfg_fail(st, NULL, "missing key name before = (use key = value)");
	for (i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++)
		if (!strcmp(name, keys[i])) {
			if (st->seen & (1u << i))
				return vlcfg_fail(st, name, "given twice in this section (first at "
						  "line %d); give it once", st->keyline[i]);
			st->seen |= 1u << i;
			st->keyline[i] = st->lineno;
		}
	if (!*text)
		return vlcfg_fail(st, name, "empty value");
	if (!strcmp(name, "kind")) {
		for (i = 0; i < NKINDS; i++)
			if (!strcmp(text, kinds[i])) {
				t->kind = i;
				t->kind_line = st->lineno;
				return 0;
			}
		return vlcfg_fail(st, name, "\"%s\" is not a topology (valid: " VALID_KINDS ")",
				  text);
	}
	if (!strcmp(name, "duplex")) {
		if (strcmp(text, "full") && strcmp(text, "half"))
			return vlcfg_fail(st, name, "\"%s\" is not valid (use full or half)", text);
		t->half_duplex = !strcmp(text, "half");
		return 0;
	}
	if (!strcmp(name, "sharing")) {
		if (strcmp(text, "fair") && strcmp(text, "fifo"))
			return vlcfg_fail(st, name, "\"%s\" is not valid (use fair or fifo)", text);
		t->fifo = !strcmp(text, "fifo");
		return 0;
	}
	if (!strcmp(name, "collectives")) {
		if (strcmp(text, "apart") && strcmp(text, "shared"))
			return vlcfg_fail(st, name, "\"%s\" is not valid (use apart or shared)", text);
		t->coll_shared = !strcmp(text, "shared");
		return 0;
	}
	if (!strcmp(name, "bandwidth"))
		return rate(st, name, text, &t->bandwidth);
	if (!strcmp(name, "backplane")) {
		t->backplane_line = st->lineno;
		return rate(st, name, text, &t->backplane);
	}
	if (!strcmp(name, "latency")) {
		if (vlcfg_parse_time(text, &t->latency) != 0 || t->latency < 0)
			return vlcfg_fail(st, name, "\"%s\" is not a time >= 0 (use a number with ns, "
					  "us, ms or s, e.g. 50us)", text);
		return 0;
	}
	if (!strcmp(name, "dims")) {
		t->dims_line = st->lineno;
		return dims(st, name, text, t);
	}
	if (!strcmp(name, "leaf_hosts") || !strcmp(name, "spines")) {
		char *end;
		long v = strtol(text, &end, 10);

		if (end == text || *end || v < 1 || v > 100000)
			return vlcfg_fail(st, name, "\"%s\" is not an integer 1..100000", text);
		if (name[0] == 'l') {
			t->leaf_hosts = (int)v;
			t->leaf_line = st->lineno;
		} else {
			t->spines = (int)v;
			t->spines_line = st->lineno;
		}
		return 0;
	}
	if (!strcmp(name, "uplink_bandwidth")) {
		t->uplink_line = st->lineno;
		return rate(st, name, text, &t->uplink_bw);
	}
	return vlcfg_fail(st, name, "unknown key (valid: " VALID_KEYS ")");
}

int vlcfg_topo_check(vlcfg_ld *st)
{
	vlcfg_topo *t = &st->cfg->topo;
	long n = 1;
	int i;

	snprintf(st->sect, sizeof(st->sect), "topology");
	if (t->backplane > 0 && t->kind != VLCFG_TOPO_SWITCH)
		return vlcfg_fail_at(st, t->backplane_line, "backplane", "only a switch has a "
				     "backplane (kind = %s)", vlcfg_topo_kind_name(t->kind));
	if (t->kind != VLCFG_TOPO_FATTREE) {
		if (t->leaf_hosts)
			return vlcfg_fail_at(st, t->leaf_line, "leaf_hosts", "only a fattree has "
					     "leaf_hosts (kind = %s)", vlcfg_topo_kind_name(t->kind));
		if (t->spines)
			return vlcfg_fail_at(st, t->spines_line, "spines", "only a fattree has "
					     "spines (kind = %s)", vlcfg_topo_kind_name(t->kind));
		if (t->uplink_bw > 0)
			return vlcfg_fail_at(st, t->uplink_line, "uplink_bandwidth", "only a fattree "
					     "has uplinks (kind = %s)", vlcfg_topo_kind_name(t->kind));
	} else {
		if (!t->leaf_hosts)
			return vlcfg_fail_at(st, t->kind_line, "kind", "a fattree needs leaf_hosts "
					     "(hosts per leaf switch, e.g. leaf_hosts = 4)");
		if (!t->spines)
			t->spines = 1;
	}
	if (t->kind != VLCFG_TOPO_TORUS) {
		if (t->ndims)
			return vlcfg_fail_at(st, t->dims_line, "dims", "only a torus has dims "
					     "(kind = %s)", vlcfg_topo_kind_name(t->kind));
		return 0;
	}
	if (!t->ndims)
		return vlcfg_fail_at(st, t->kind_line, "kind", "a torus needs dims (e.g. "
				     "dims = 4x4 for 16 hosts)");
	for (i = 0; i < t->ndims; i++)
		n *= t->dims[i];
	if (n != st->cfg->nhosts)
		return vlcfg_fail_at(st, t->dims_line, "dims", "the torus has %ld places, the "
				     "VMConfig %d hosts (make them equal)", n, st->cfg->nhosts);
	return 0;
}

void vlcfg_topo_dump(const vlcfg_topo *t, FILE *out)
{
	int i;

	if (t->kind == VLCFG_TOPO_NONE)
		return;
	fprintf(out, "\n[topology]\nkind = %s\nduplex = %s\nsharing = %s\n",
		vlcfg_topo_kind_name(t->kind), t->half_duplex ? "half" : "full",
		t->fifo ? "fifo" : "fair");
	if (t->coll_shared)
		fprintf(out, "collectives = shared\n");
	if (t->bandwidth > 0)
		fprintf(out, "bandwidth = %.17gB/s\n", t->bandwidth);
	if (t->latency != VLCFG_UNSET)
		fprintf(out, "latency = %lldns\n", (long long)t->latency);
	if (t->backplane > 0)
		fprintf(out, "backplane = %.17gB/s\n", t->backplane);
	if (t->kind == VLCFG_TOPO_FATTREE)
		fprintf(out, "leaf_hosts = %d\nspines = %d\n", t->leaf_hosts, t->spines);
	if (t->uplink_bw > 0)
		fprintf(out, "uplink_bandwidth = %.17gB/s\n", t->uplink_bw);
	if (t->ndims) {
		fputs("dims = ", out);
		for (i = 0; i < t->ndims; i++)
			fprintf(out, "%s%d", i ? "x" : "", t->dims[i]);
		fputc('\n', out);
	}
}
