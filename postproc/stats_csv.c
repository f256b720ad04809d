/* stats_csv.c - the stats table and the report as CSV (stats_print.h): the
 * task rows, then each section after an empty line, with its own header row
 * (first columns: proc, tasks, bucket, from, critical_path_us). */
#include "stats_print.h"
#include "util/outfile.h"

#include <inttypes.h>

void vlpost_rp_csv_tasks(FILE *out, const vlpost_tstats *st, int n, int derived)
{
	char a[VLPOST_CELL], b[VLPOST_CELL], c[VLPOST_CELL], d[VLPOST_CELL];
	fputs("proc,tid,host,host_name,program,comp_us,comm_us,wait_us,total_us,"
	      "msgs_sent,bytes_sent,msgs_recv,bytes_recv,estimated", out);
	fputs(derived ? ",comm_comp_ratio,commwait_total_ratio,avg_bytes_sent\n" : "\n", out);
	for (int i = 0; i < n; i++) {
		const vlpost_tstats *s = &st[i];
		vlpost_rp_us(a, s->comp, 0);
		vlpost_rp_us(b, s->comm, 0);
		vlpost_rp_us(c, s->wait, 0);
		vlpost_rp_us(d, s->end - s->start, 0);
		fprintf(out, "%d,0x%x,%d,", s->proc, (unsigned)s->tid, (int)s->host);
		vlu_csv_str(out, s->host_name);
		fputc(',', out);
		vlu_csv_str(out, s->program);
		fprintf(out, ",%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d", a, b,
			c, d, s->nsent, s->bsent, s->nrecv, s->brecv, !s->has_end);
		if (derived) {
			vlpost_rp_derived x;
			vlpost_rp_derive(&x, s, 6, "");
			fprintf(out, ",%s,%s,%s", x.comm_comp, x.busy_total, x.avg);
		}
		fputc('\n', out);
	}
}

/* The totals, the LS-DYNA approximation and the predicted elapsed time. */
static void csv_totals(FILE *out, const vlpost_tstats *st, int n)
{
	char a[VLPOST_CELL], b[VLPOST_CELL], c[VLPOST_CELL], d[VLPOST_CELL], el[32];
	vlpost_tstats t;
	vlpost_rp_derived x;
	double m, s;
	int ns;
	vlpost_rp_sum(&t, st, n);
	vlpost_rp_derive(&x, &t, 6, "");
	vlpost_rp_lsdyna(st, n, &m, &s, &ns);
	vlpost_rp_us(a, t.comp, 0);
	vlpost_rp_us(b, t.comm, 0);
	vlpost_rp_us(c, t.wait, 0);
	vlpost_rp_us(d, t.end, 0);
	vlpost_fmt_sec(el, vlpost_stats_elapsed(st, n));
	fputs("\ntasks,comp_us,comm_us,wait_us,total_us,msgs_sent,bytes_sent,msgs_recv,"
	      "bytes_recv,estimated,comm_comp_ratio,commwait_total_ratio,avg_bytes_sent,"
	      "mean_msgs_sent,mean_avg_bytes_sent,tasks_that_sent,max_comm_proc,"
	      "predicted_elapsed_s\n", out);
	fprintf(out, "%d,%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%d,%s,%s,%s,%.6f,%.6f,%d,%d,%s\n", n, a, b, c, d, t.nsent, t.bsent, t.nrecv,
		t.brecv, !t.has_end, x.comm_comp, x.busy_total, x.avg, m, s, ns,
		vlpost_rp_max_comm(st, n), el);
}

static void csv_hist(FILE *out, const vlpost_report *rep)
{
	int top = vlpost_rp_hist_top(rep);
	fputs("\nbucket,size_lo,size_hi,msgs,bytes\n", out);
	for (int k = 0; k <= top; k++)
		fprintf(out, "%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k,
			vlpost_hist_lo(k), vlpost_hist_hi(k), rep->hist_n[k], rep->hist_bytes[k]);
}

/* to is empty for a task without trace (to_tid names it). */
static void csv_matrix(FILE *out, const vlpost_report *rep)
{
	fputs("\nfrom,to,to_tid,msgs,bytes\n", out);
	for (size_t i = 0; i < rep->npairs; i++) {
		const vlpost_pair *p = &rep->pairs[i];
		fprintf(out, "%d,", p->from);
		if (p->to >= 0)
			fprintf(out, "%d", p->to);
		fprintf(out, ",0x%x,%" PRIu64 ",%" PRIu64 "\n", (unsigned)p->to_tid, p->n,
			p->bytes);
	}
}

/* One row (none without tasks); procs: the path's tasks, blank-separated. */
static void csv_critpath(FILE *out, const vlpost_critpath *cp)
{
	char a[VLPOST_CELL], b[VLPOST_CELL], c[VLPOST_CELL], d[VLPOST_CELL], e[VLPOST_CELL], f[VLPOST_CELL];
	fputs("\ncritical_path_us,start_us,end_us,end_proc,comp_us,comm_us,wait_us,messages,"
	      "spawns,cut,procs\n", out);
	if (cp->end_proc < 0)
		return;
	vlpost_rp_us(a, cp->end - cp->start, 0);
	vlpost_rp_us(b, cp->start, 0);
	vlpost_rp_us(c, cp->end, 0);
	vlpost_rp_us(d, cp->comp, 0);
	vlpost_rp_us(e, cp->comm, 0);
	vlpost_rp_us(f, cp->wait, 0);
	fprintf(out, "%s,%s,%s,%d,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%d,", a, b, c, cp->end_proc, d,
		e, f, cp->messages, cp->spawns, cp->cut);
	for (int i = 0; i < cp->nprocs; i++)
		fprintf(out, "%s%d", i ? " " : "", cp->procs[i]);
	fputc('\n', out);
}

int vlpost_rp_csv(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
		  unsigned flags)
{
	vlpost_rp_csv_tasks(out, st, n, 1);
	if (flags & VLPOST_REP_BRIEF)
		return 0;
	csv_totals(out, st, n);
	csv_hist(out, rep);
	csv_matrix(out, rep);
	csv_critpath(out, &rep->cp);
	return 0;
}
