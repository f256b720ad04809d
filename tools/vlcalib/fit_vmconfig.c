/* fit_vmconfig.c - what `vlcalib fit` writes into a VMConfig: sizes and times
 * in their shortest exact form (read back by the engine's own parsers), the
 * model lines, and the fragment with one [network] section per link kind
 * (and a [topology] from the sharing fit). */
#include "vlcalib.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

/* V / UNIT with at most DMAX decimals if exact, as text with SUFFIX into BUF;
 * returns its length, or INT_MAX if V / UNIT needs more decimals. */
static int fmt_exact(char *buf, size_t len, long long v, long long unit, int dmax,
                     const char *suffix)
{
	long long p = 1;

	for (int d = 0; d <= dmax; d++, p *= 10) {
		long long q;

		if (v > LLONG_MAX / p)
			break;
		if ((v * p) % unit)
			continue;
		q = v * p / unit;
		if (d == 0)
			return snprintf(buf, len, "%lld%s", q, suffix);
		return snprintf(buf, len, "%lld.%0*lld%s", q / p, d, q % p, suffix);
	}
	return INT_MAX;
}

/* The shortest of the forms (a tie goes to the larger unit). */
static void fmt_best(char *out, size_t len, long long v, const long long *unit,
                     const char *const *suffix, int nu, int dmax)
{
	int best = INT_MAX;

	for (int i = 0; i < nu; i++) {
		char b[64];
		int n = fmt_exact(b, sizeof b, v, unit[i], dmax, suffix[i]);

		if (n <= best && n < (int)sizeof b) {
			best = n;
			snprintf(out, len, "%s", b);
		}
	}
}

static void fmt_size(char *out, size_t len, long long bytes)
{
	static const long long u[] = {1, 1024, 1048576, 1073741824LL};
	static const char *const s[] = {"", "KiB", "MiB", "GiB"};
	int64_t back;

	fmt_best(out, len, bytes, u, s, 4, 4);
	if (vlcfg_parse_size(out, &back) || back != bytes)
		snprintf(out, len, "%lld", bytes);
}

void vlcal_fmt_time(char *out, size_t len, long long ns)
{
	static const long long u[] = {1, 1000, 1000000, 1000000000LL};
	static const char *const s[] = {"ns", "us", "ms", "s"};
	int64_t back;

	if (ns == 0) {
		snprintf(out, len, "0ns");
		return;
	}
	fmt_best(out, len, ns, u, s, 4, 6);
	if (vlcfg_parse_time(out, &back) || back != ns)
		snprintf(out, len, "%lldns", ns);
}

size_t vlcal_fmt_model(char *line, size_t len, const char *key, const vlcfg_pwl *m, const char *sep)
{
	size_t o = (size_t)snprintf(line, len, "%-11s = ", key);

	for (int i = 0; i < m->n && o < len; i++) {
		char s[64], t[64];

		fmt_size(s, sizeof s, m->bytes[i]);
		vlcal_fmt_time(t, sizeof t, m->ns[i]);
		o += (size_t)snprintf(line + o, len - o, "%s%s:%s", i ? sep : "", s, t);
	}
	return o;
}

/* The [topology] section of a sharing fit T that worked (nothing else). */
static void write_topology(FILE *f, const vlcal_topofit *t)
{
	const vlcal_share *s;
	char lat[64];

	if (!t || !t->ok)
		return;
	s = &t->sh;
	vlcal_fmt_time(lat, sizeof lat, t->latency_ns);
	fprintf(f,
	        "\n[topology]\n; from the share_* rows of link %s (%d experiments): the closed "
	        "forms of a star's flows, each with its own intercept,\n; against the times: "
	        "error rms %.3f %%, max %.3f %% (per experiment: vlcalib fit's table)\n",
	        vlcal_raw_lname[s->link], s->ne, 100 * s->rms_rel, 100 * s->max_rel);
	if (s->link == 0)
		fprintf(f, "; (link intra: the tasks shared one node, so these are its memory's "
		           "numbers, not a network's)\n");
	if (s->a2a_left_out)
		fprintf(f, "; (%d share_alltoall experiments of PVM left out: a PVM task does not "
		           "take in messages while it writes out its own, which no link model "
		           "holds)\n",
		        s->a2a_left_out);
	if (s->decided)
		fprintf(f,
		        "; duplex: the slopes' rms error is %.3f %% with full, %.3f %% with half "
		        "duplex\n",
		        100 * s->err[0], 100 * s->err[1]);
	else
		fprintf(f, "; duplex: no share_exchange or share_alltoall rows tell full from "
		           "half: full, the default\n");
	if (s->sharing_decided)
		fprintf(f,
		        "; latency: %s; sharing: the slopes' rms error is %.3f %% with fair, "
		        "%.3f %% with fifo (share_first)\n",
		        t->lat_src, 100 * s->serr[0], 100 * s->serr[1]);
	else
		fprintf(f,
		        "; latency: %s; sharing: fair (fifo would end these experiments at the "
		        "same times)\n",
		        t->lat_src);
	fprintf(f, "%-11s = %s\n%-11s = %s\n%-11s = %s\n%-11s = %s\n", "kind",
	        t->bp[0] ? "switch" : "star", "duplex", s->half ? "half" : "full", "bandwidth",
	        t->bw, "latency", lat);
	if (t->bp[0])
		fprintf(f, "%-11s = %s\n", "backplane", t->bp);
	if (s->fifo)
		fprintf(f, "%-11s = %s\n", "sharing", "fifo");
}

int vlcal_write_fragment(FILE *f, void *ctx, char *err, size_t errlen)
{
	const vlcal_fragment *fr = ctx;

	(void)err;
	(void)errlen;
	fprintf(f, "; VMConfig fragment written by vlcalib fit from %d raw file%s\n", fr->nfiles,
	        fr->nfiles == 1 ? "" : "s");
	fprintf(f, "; (statistic %s, penalty %s, floor %s); add [host] or [hosts] sections\n",
	        fr->use_min ? "min" : "median", fr->pen_text, fr->floor_text);
	for (int k = 0; k < 2; k++) {
		const vlcal_linkfit *L = fr->lf[k];
		char tv[64];

		if (!L)
			continue;
		fprintf(f, "\n[network %s]\n", vlcal_raw_lname[k]);
		fprintf(f, "; send_model: %d points, error rms %.3f %%, max %.3f %%\n", L->sf.n,
		        100 * L->s_rms, 100 * L->s_max);
		if (L->pvm_waits)
			fprintf(f, "; (%d sizes whose pvm_send waited for the link left out of it: "
			           "the links take the transfer)\n",
			        L->pvm_waits);
		fprintf(f,
		        "; trans_model from %s: %d points; send + trans + recv_delay against "
		        "the one-way time: error rms %.3f %%, max %.3f %%\n",
		        L->total_src, L->tf.n, 100 * L->t_rms, 100 * L->t_max);
		fprintf(f, "%s\n%s\n", L->sline, L->tline);
		vlcal_fmt_time(tv, sizeof tv, L->recv_ns);
		if (L->has_recv)
			fprintf(f, "%-11s = %s\n", "recv_delay", tv);
		else
			fprintf(f, "; no recv rows: recv_delay 0, the receive cost is in "
			           "trans_model\n");
		if (L->ncont)
			fprintf(f, "%s\n", L->cline);
	}
	write_topology(f, fr->topo);
	/* sends that lasted until their data were in: the MPI library's eager
	 * limit lies above the last size below them (the inter link's, if
	 * measured: the one a cluster's messages mostly take) */
	for (int k = 1; k >= 0; k--) {
		const vlcal_linkfit *L = fr->lf[k];

		if (!L || !L->rdv_from)
			continue;
		long long n = (long long)L->rdv_from;
		char sz[32];

		if (n % (1024 * 1024) == 0)
			snprintf(sz, sizeof sz, "%lldMiB", n / (1024 * 1024));
		else if (n % 1024 == 0)
			snprintf(sz, sizeof sz, "%lldKiB", n / 1024);
		else
			snprintf(sz, sizeof sz, "%lldB", n);
		fprintf(f, "\n[mpi]\n; link %s: sends of %.0f B and more lasted until their data "
		        "were in (a rendezvous), those of %.0f B did not:\n; the eager limit lies "
		        "in between (the model's rendezvous completes when the data are in)\n"
		        "eager_limit = %s\n", vlcal_raw_lname[k], L->rdv_from, L->rdv_below, sz);
		break;
	}
	return 0;
}
