/* stats_json.c - the stats report as one JSON object (stats_print.h). */
#include "stats_print.h"

#include <inttypes.h>

static void j_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* The fields shared by a task and the totals (after "{" and the identity). */
static void j_times(FILE *out, const vlpost_tstats *s)
{
	vlpost_rp_derived d;
	vlpost_rp_derive(&d, s, 6, "null");
	fprintf(out, "\"comp_ns\": %" PRId64 ", \"comm_ns\": %" PRId64 ", \"wait_ns\": %" PRId64
		", \"total_ns\": %" PRId64 ", \"msgs_sent\": %" PRIu64 ", \"bytes_sent\": %" PRIu64
		", \"msgs_recv\": %" PRIu64 ", \"bytes_recv\": %" PRIu64 ", \"avg_bytes_sent\": %s"
		", \"comm_comp_ratio\": %s, \"commwait_total_ratio\": %s, \"estimated\": %s",
		s->comp, s->comm, s->wait, s->end - s->start, s->nsent, s->bsent, s->nrecv,
		s->brecv, d.avg, d.comm_comp, d.busy_total, s->has_end ? "false" : "true");
}

static void j_tasks(FILE *out, const vlpost_tstats *st, int n)
{
	fprintf(out, "  \"tasks\": [");
	for (int i = 0; i < n; i++) {
		const vlpost_tstats *s = &st[i];
		fprintf(out, "%s\n    {\"proc\": %d, \"tid\": %" PRId32 ", \"tid_hex\": \"0x%x\", "
			"\"host\": %" PRId32 ", \"host_name\": ", i ? "," : "", s->proc, s->tid,
			(unsigned)s->tid, s->host);
		j_str(out, s->host_name);
		fprintf(out, ", \"program\": ");
		j_str(out, s->program);
		fprintf(out, ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64 ", ", s->start,
			s->end);
		j_times(out, s);
		fputc('}', out);
	}
	fprintf(out, "%s],\n", n ? "\n  " : "");
}

static void j_totals(FILE *out, const vlpost_tstats *st, int n)
{
	vlpost_tstats t;
	double m, s;
	int ns, mx = vlpost_rp_max_comm(st, n);
	vlpost_rp_sum(&t, st, n);
	vlpost_rp_lsdyna(st, n, &m, &s, &ns);
	fprintf(out, "  \"totals\": {\"tasks\": %d, ", n);
	j_times(out, &t);
	fprintf(out, ",\n    \"lsdyna\": {\"mean_msgs_sent\": %.6f, \"mean_avg_bytes_sent\": %.6f, "
		"\"tasks_that_sent\": %d, \"max_comm_proc\": %d}},\n", m, s, ns, mx);
}

static void j_hist(FILE *out, const vlpost_report *rep)
{
	int top = vlpost_rp_hist_top(rep);
	fprintf(out, "  \"histogram\": [");
	for (int k = 0; k <= top; k++)
		fprintf(out, "%s\n    {\"bucket\": %d, \"lo\": %" PRIu64 ", \"hi\": %" PRIu64
			", \"msgs\": %" PRIu64 ", \"bytes\": %" PRIu64 "}", k ? "," : "", k,
			vlpost_hist_lo(k), vlpost_hist_hi(k), rep->hist_n[k], rep->hist_bytes[k]);
	fprintf(out, "%s],\n", top >= 0 ? "\n  " : "");
}

static void j_matrix(FILE *out, const vlpost_report *rep)
{
	fprintf(out, "  \"matrix\": [");
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		fprintf(out, "%s\n    {\"from\": %d, \"to\": ", i ? "," : "", p->from);
		if (p->to >= 0)
			fprintf(out, "%d", p->to);
		else
			fprintf(out, "null");
		fprintf(out, ", \"to_tid\": %" PRId32 ", \"msgs\": %" PRIu64 ", \"bytes\": %" PRIu64
			"}", p->to_tid, p->n, p->bytes);
	}
	fprintf(out, "%s],\n", rep->npairs ? "\n  " : "");
}

static void j_critpath(FILE *out, const vlpost_critpath *cp)
{
	fprintf(out, "  \"critical_path\": ");
	if (cp->end_proc < 0) {
		fprintf(out, "null,\n");
		return;
	}
	fprintf(out, "{\"length_ns\": %" PRId64 ", \"start_ns\": %" PRId64 ", \"end_ns\": %" PRId64
		", \"end_proc\": %d, \"comp_ns\": %" PRId64 ", \"comm_ns\": %" PRId64
		", \"wait_ns\": %" PRId64 ", \"messages\": %" PRIu64 ", \"spawns\": %" PRIu64
		", \"cut\": %s,\n    \"tasks\": [", cp->end - cp->start, cp->start, cp->end,
		cp->end_proc, cp->comp, cp->comm, cp->wait, cp->messages, cp->spawns,
		cp->cut ? "true" : "false");
	for (int i = 0; i < cp->nprocs; i++)
		fprintf(out, "%s%d", i ? ", " : "", cp->procs[i]);
	fprintf(out, "]},\n");
}

int vlpost_rp_json(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		   unsigned flags)
{
	char el[32];
	int64_t e = vlpost_stats_elapsed(st, n);
	fprintf(out, "{\n");
	j_tasks(out, st, n);
	j_totals(out, st, n);
	if (!(flags & VLPOST_REP_BRIEF)) {
		j_hist(out, rep);
		j_matrix(out, rep);
		j_critpath(out, &rep->cp);
	}
	vlpost_fmt_sec(el, e);
	fprintf(out, "  \"predicted_elapsed_ns\": %" PRId64 ",\n  \"predicted_elapsed_s\": %s\n}\n",
		e, el);
	return 0;
}
