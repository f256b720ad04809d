/* paje.c - vlayer traces -> Pajé (pj_dump, ViTE).
 *
 * The events are those of timeline.c (the merge of merge.c over the tasks,
 * their states from states.c, the messages matched as links), written as they
 * come, so the file is globally time-sorted as pajeng requires.  Memory: the
 * timeline's (one reader buffer and a small state per task, plus the messages
 * in flight).
 */
#include "paje.h"
#include "cli.h"
#include "timeline.h"
#include "util/diag.h"
#include "vltrace.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const st_alias[] = { "comp", "comm", "wait" };

typedef struct pj {
	vlpost_tl tl;
	int32_t *hosts;            /* distinct host indices */
	int nhosts;
	FILE *out;
} pj;

/* ---- output ---- */

/* seconds with 9 decimals (exact ns); buf needs 32 bytes */
static const char *pj_time(char *buf, int64_t t)
{
	snprintf(buf, 32, "%" PRId64 ".%09" PRId64, t / 1000000000, t % 1000000000);
	return buf;
}

/* A Pajé string: quoted; '"', '\\' and control characters become '_'. */
static void pj_str(FILE *o, const char *s)
{
	fputc('"', o);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		fputc(ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\' ? '_' : ch, o);
	}
	fputc('"', o);
}

static const char pj_header[] =
	"# vlayer trace converted by vlpost paje; times in virtual seconds\n"
	"%EventDef PajeDefineContainerType 0\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineStateType 1\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineEventType 2\n% Alias string\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineLinkType 3\n% Alias string\n% Type string\n"
	"% StartContainerType string\n% EndContainerType string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDefineEntityValue 4\n% Alias string\n% Type string\n% Name string\n"
	"% Color color\n%EndEventDef\n"
	"%EventDef PajeCreateContainer 5\n% Time date\n% Alias string\n% Type string\n"
	"% Container string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeDestroyContainer 6\n% Time date\n% Type string\n% Name string\n%EndEventDef\n"
	"%EventDef PajeSetState 7\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajePushState 8\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajePopState 9\n% Time date\n% Container string\n% Type string\n%EndEventDef\n"
	"%EventDef PajeNewEvent 10\n% Time date\n% Container string\n% Type string\n"
	"% Value string\n%EndEventDef\n"
	"%EventDef PajeStartLink 11\n% Time date\n% Container string\n% Type string\n"
	"% StartContainer string\n% Value string\n% Key string\n% Size int\n% Tag int\n%EndEventDef\n"
	"%EventDef PajeEndLink 12\n% Time date\n% Container string\n% Type string\n"
	"% EndContainer string\n% Value string\n% Key string\n%EndEventDef\n"
	"0 H 0 \"Host\"\n"
	"0 T H \"Task\"\n"
	"1 S T \"State\"\n"
	"1 C T \"Collective\"\n"
	"2 M T \"Mark\"\n"
	"3 L 0 T T \"Message\"\n"
	"4 comp S \"Computing\" \"0.0 0.7 0.0\"\n"
	"4 comm S \"Communicating\" \"1.0 0.8 0.0\"\n"
	"4 wait S \"Waiting\" \"0.8 0.0 0.0\"\n"
	"4 msg L \"message\" \"1.0 1.0 1.0\"\n";

/* hosts: one container per distinct host index, named by its first task's host name */
static int cmp_host(const void *a, const void *b, void *set)
{
	const vlpost_tset *s = set;
	int x = *(const int *)a, y = *(const int *)b;
	int32_t hx = s->f[x].hdr.host, hy = s->f[y].hdr.host;
	if (hx != hy)
		return hx < hy ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int pj_head(pj *c)
{
	vlpost_tset *s = c->tl.m.set;
	int *ix = malloc((size_t)s->n * sizeof *ix);
	int64_t t0 = 0;
	char tb[32];
	c->hosts = malloc((size_t)s->n * sizeof *c->hosts);
	if (!ix || !c->hosts) {
		free(ix);
		return vlu_seterr(c->tl.m.err, c->tl.m.errlen, "out of memory");
	}
	fputs(pj_header, c->out);
	for (int i = 1; i < VLPOST_TL_NCOLL; i++)
		fprintf(c->out, "4 c%d C \"%s\" \"0.3 0.5 1.0\"\n", i, vlpost_tl_coll_name[i]);
	fprintf(c->out, "4 c0 C \"%s\" \"0.3 0.5 1.0\"\n", vlpost_tl_coll_name[0]);
	for (int i = 0; i < s->n; i++) {
		ix[i] = i;
		if (i == 0 || s->f[i].hdr.start_ns < t0)
			t0 = s->f[i].hdr.start_ns;
	}
	qsort_r(ix, (size_t)s->n, sizeof *ix, cmp_host, s);
	for (int i = 0; i < s->n; i++) {
		const vl_thdr *h = &s->f[ix[i]].hdr;
		char nm[80];
		if (i > 0 && s->f[ix[i - 1]].hdr.host == h->host)
			continue;
		c->hosts[c->nhosts++] = h->host;
		if (h->host_name[0])
			snprintf(nm, sizeof nm, "%s", h->host_name);
		else
			snprintf(nm, sizeof nm, "host%d", (int)h->host);
		fprintf(c->out, "5 %s h%d H 0 ", pj_time(tb, t0), (int)h->host);
		pj_str(c->out, nm);
		fputc('\n', c->out);
	}
	free(ix);
	return 0;
}

/* the hosts end with the last task */
static void pj_tail(pj *c)
{
	int64_t t1 = 0;
	char tb[32];
	for (int i = 0; i < c->tl.m.set->n; i++)
		if (c->tl.m.st_base[i].end > t1)
			t1 = c->tl.m.st_base[i].end;
	pj_time(tb, t1);
	for (int i = 0; i < c->nhosts; i++)
		fprintf(c->out, "6 %s H h%d\n", tb, (int)c->hosts[i]);
}

/* ---- the events ---- */
static int pj_emit(void *ctx, const vlpost_tl_ev *e)
{
	pj *c = ctx;
	const vl_thdr *h = &c->tl.m.set->f[e->proc].hdr;
	char tb[32], nm[160];
	FILE *o = c->out;
	pj_time(tb, e->t);
	switch (e->kind) {
	case VLP_TL_CREATE:
		fprintf(o, "5 %s p%d T h%d ", tb, e->proc, (int)h->host);
		snprintf(nm, sizeof nm, "0x%x %s", (unsigned)h->tid, h->program[0] ? h->program : "?");
		pj_str(o, nm);
		fputc('\n', o);
		break;
	case VLP_TL_DESTROY:
		fprintf(o, "6 %s T p%d\n", tb, e->proc);
		break;
	case VLP_TL_STATE:
		fprintf(o, "7 %s p%d S %s\n", tb, e->proc, st_alias[e->val]);
		break;
	case VLP_TL_PUSH:
		fprintf(o, "8 %s p%d C c%d\n", tb, e->proc, e->val);
		break;
	case VLP_TL_POP:
		fprintf(o, "9 %s p%d C\n", tb, e->proc);
		break;
	case VLP_TL_MARK:
		fprintf(o, "10 %s p%d M ", tb, e->proc);
		pj_str(o, e->text);
		fputc('\n', o);
		break;
	case VLP_TL_LINK_START:
		fprintf(o, "11 %s 0 L p%d msg %d_%" PRIu32 " %" PRId64 " %" PRId32 "\n", tb, e->sender,
			e->sender, e->seq, e->bytes, e->tag);
		break;
	default:
		fprintf(o, "12 %s 0 L p%d msg %d_%" PRIu32 "\n", tb, e->proc, e->sender, e->seq);
		break;
	}
	return 0;
}

int vlpost_paje_write(vlpost_tset *set, FILE *out, const vlpost_paje_opt *opt, vlpost_tstats *st,
		      char *err, size_t errlen)
{
	pj c;
	int rc;
	memset(&c, 0, sizeof c);
	c.out = out;
	rc = vlpost_tl_init(&c.tl, set, opt->partial, opt->warn, st, pj_emit, &c, err, errlen) < 0 ||
		     pj_head(&c) < 0 ? -1 : vlpost_tl_run(&c.tl);
	if (rc == 0)
		pj_tail(&c);
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = vlu_seterr(err, errlen, "write error");
	vlpost_tl_free(&c.tl);
	free(c.hosts);
	return rc;
}

/* ---- the command ---- */
const char vlpost_paje_usage[] =
	"usage: vlpost paje [-o FILE.paje] [--partial] TRACEDIR\n"
	"\n"
	"Write the traces of TRACEDIR as one Pajé trace (pj_dump, ViTE), sorted by\n"
	"virtual time in seconds with 9 decimals: containers root -> virtual host ->\n"
	"task (\"TID PROGRAM\"); per task a State (Computing, Communicating, Waiting), a\n"
	"Collective state during group operations and a Mark event per vl_mark(); one\n"
	"Message link per message, from its send begin to its receive end.\n"
	"\n"
	"  -o FILE      output file (default: TRACEDIR with .paje appended); written to\n"
	"               FILE.tmp and renamed when complete (through a symbolic link:\n"
	"               its target); - is standard output, a FIFO or device is\n"
	"               written directly\n"
	"  --partial    use incomplete traces: truncated files, tasks without END,\n"
	"               corrupt records (the records before them are used); receives\n"
	"               whose send is missing or ends after them get no link\n"
	"               (warnings on stderr instead of errors)\n";

struct pj_out {
	vlpost_tset *set;
	vlpost_paje_opt opt;
	vlpost_tstats *st;
};

static int pj_write_cb(FILE *f, void *ctx, char *err, size_t errlen)
{
	struct pj_out *c = ctx;
	return vlpost_paje_write(c->set, f, &c->opt, c->st, err, errlen);
}

static int pj_to(vlpost_tset *set, const char *out, int partial, vlpost_tstats *st)
{
	struct pj_out c = { set, { partial, stderr }, st };

	return vlpost_cli_write(out, pj_write_cb, &c);
}

int vlpost_paje_main(int argc, char **argv)
{
	static const vlpost_mg_cmd cmd = { "paje", vlpost_paje_usage, "file name", ".paje", pj_to };
	return vlpost_mg_main(&cmd, argc, argv);
}
