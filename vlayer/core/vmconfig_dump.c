/* vmconfig_dump.c - printing a VMConfig in canonical INI form (vlcfg_dump):
 * every section and key, every value in base units (ns, B, ps/KiB), [hosts]
 * templates expanded and "default" collective algorithms resolved, unset
 * values as "; key = (not set)" comments: what `vlconfig --dump` prints and
 * what the golden tests compare.
 */
#include "vmconfig.h"
#include "vmconfig_int.h"
#include "vlayer/coll/coll.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The shortest %g that reads back as v. */
static const char *vlcfg_g(char *buf, size_t size, double v)
{
	int prec;

	for (prec = 15; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

static void vlcfg_dump_unset(FILE *out, const char *key)
{
	fprintf(out, "; %s = (not set)\n", key);
}

static void vlcfg_dump_opt(FILE *out, const char *key, int64_t v, const char *unit)
{
	if (v == VLCFG_UNSET)
		vlcfg_dump_unset(out, key);
	else
		fprintf(out, "%s = %" PRId64 "%s\n", key, v, unit);
}

static void vlcfg_dump_pwl(FILE *out, const char *key, const vlcfg_pwl *p)
{
	int i, n = p->n;

	if (n > VLCFG_MAX_BP)
		n = VLCFG_MAX_BP;
	if (n <= 0) {
		vlcfg_dump_unset(out, key);
		return;
	}
	fprintf(out, "%s = ", key);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%" PRId64 "B:%" PRId64 "ns", i ? ", " : "", p->bytes[i], p->ns[i]);
	fputc('\n', out);
}

static void vlcfg_dump_cont(FILE *out, const vlcfg_link *l)
{
	char g[32];
	int i, n = l->ncont;

	if (n > VLCFG_MAX_CONT)
		n = VLCFG_MAX_CONT;
	if (n <= 0) {
		vlcfg_dump_unset(out, "contention");
		return;
	}
	fprintf(out, "contention = ");
	for (i = 0; i < n; i++)
		fprintf(out, "%s%d:%s", i ? ", " : "", l->cont_k[i], vlcfg_g(g, sizeof(g), l->cont_f[i]));
	fputc('\n', out);
}

static void vlcfg_dump_link(FILE *out, const char *name, const vlcfg_link *l)
{
	fprintf(out, "\n[network %s]\n", name);
	fprintf(out, "send_delay = %" PRId64 "ns\n", l->send_delay);
	fprintf(out, "recv_delay = %" PRId64 "ns\n", l->recv_delay);
	fprintf(out, "trans_delay = %" PRId64 "ns\n", l->trans_delay);
	fprintf(out, "trans_per_kib = %" PRId64 "ps\n", l->trans_per_kib_ps);
	vlcfg_dump_pwl(out, "send_model", &l->send_model);
	vlcfg_dump_pwl(out, "trans_model", &l->trans_model);
	vlcfg_dump_cont(out, l);
}

static void vlcfg_dump_host(FILE *out, const vlcfg_host *h)
{
	char g[32];

	fprintf(out, "\n[host %s]\n", h->name);
	fprintf(out, "processors = %d\n", h->procs);
	fprintf(out, "factor = %s\n", vlcfg_g(g, sizeof(g), h->factor));
	if (h->real[0])
		fprintf(out, "real = %s\n", h->real);
	else
		vlcfg_dump_unset(out, "real");
	fprintf(out, "init_delay = %" PRId64 "ns\n", h->init_delay);
	fprintf(out, "flops = %s\n", vlcfg_g(g, sizeof(g), h->flops));
	vlcfg_dump_opt(out, "send_delay", h->send_delay, "ns");
	vlcfg_dump_opt(out, "recv_delay", h->recv_delay, "ns");
	vlcfg_dump_opt(out, "trans_delay", h->trans_delay, "ns");
	vlcfg_dump_opt(out, "trans_per_kib", h->trans_per_kib_ps, "ps");
}

static void vlcfg_dump_mpi(FILE *out, const vlcfg_config *cfg)
{
	const vlcfg_mpi *m = &cfg->mpi;
	int i, n = 0;

	fprintf(out, "\n[mpi]\n");
	fprintf(out, "eager_limit = %" PRId64 "B\n", m->eager_limit);
	fprintf(out, "placement = %s\n",
		m->placement == VLCFG_PLACE_ROUNDROBIN ? "roundrobin" : "fill");
	if (m->ranks_per_node > 0)
		fprintf(out, "ranks_per_node = %d\n", m->ranks_per_node);
	else
		vlcfg_dump_unset(out, "ranks_per_node");
	for (i = 0; m->rank_hosts && i < m->nrank_hosts; i++) {
		int h = m->rank_hosts[i];

		if (h >= 0 && h < cfg->nhosts)
			fprintf(out, "%s%s", n++ ? ", " : "rank_hosts = ", cfg->hosts[h].name);
	}
	if (n)
		fputc('\n', out);
	else
		vlcfg_dump_unset(out, "rank_hosts");
}

/* Every kind with the algorithm that will be used ("default" resolved, unless
 * selection = openmpi chooses it per call). */
static void vlcfg_dump_coll(FILE *out, const vlcfg_mpi *m)
{
	int k;

	fprintf(out, "\n[collectives]\n");
	if (m->coll_select != VLCOLL_SELECT_FIXED)
		fprintf(out, "selection = %s\n", vlcoll_selection_name(m->coll_select));
	for (k = 0; k < VL_KIND_N; k++) {
		int alg = m->coll_alg[k] ? m->coll_alg[k] : vlcoll_alg_default(k);

		if (!m->coll_alg[k] && m->coll_select != VLCOLL_SELECT_FIXED)
			alg = VLCOLL_ALG_DEFAULT;
		fprintf(out, "%s = %s\n", vl_coll_kind_name(k), vlcoll_alg_name(alg));
	}
}

void vlcfg_dump(const vlcfg_config *cfg, FILE *out)
{
	int i;

	if (!cfg || !out)
		return;
	fprintf(out, "; VMConfig, canonical form: base units, every key, templates expanded\n");
	fprintf(out, "\n[simulation]\n");
	fprintf(out, "compute = %s\n", cfg->compute_ignore ? "ignore" : "measured");
	fprintf(out, "placement = %s\n",
		cfg->placement == VLCFG_PLACE_ROUNDROBIN ? "roundrobin" : "fill");
	fprintf(out, "ordering = %s\n", cfg->ordering_real ? "real" : "virtual");
	if (cfg->trace_dir[0])
		fprintf(out, "trace_dir = %s\n", cfg->trace_dir);
	else
		vlcfg_dump_unset(out, "trace_dir");
	fprintf(out, "deadlock_after = %" PRId64 "ns\n", cfg->deadlock_after);
	if (cfg->cpus > 0)
		fprintf(out, "cpus = %d\n", cfg->cpus);
	else
		fprintf(out, "cpus = %s\n", cfg->cpus < 0 ? "auto" : "off");
	vlcfg_dump_link(out, "intra", &cfg->intra);
	vlcfg_dump_link(out, "inter", &cfg->inter);
	vlcfg_dump_mpi(out, cfg);
	vlcfg_dump_coll(out, &cfg->mpi);
	for (i = 0; i < cfg->nhosts; i++)
		vlcfg_dump_host(out, &cfg->hosts[i]);
	vlcfg_topo_dump(&cfg->topo, out);
}
