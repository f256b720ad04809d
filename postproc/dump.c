/* dump.c - vlpost dump TRACEDIR: every record of every task file, validated by
 * the one trace reader (tracereader.c), as one line of text with its exact
 * values (times in ns), for scripts and tests that need the records
 * themselves rather than a view of them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "dump.h"
#include "tracereader.h"
#include "util/diag.h"

static const char usage_dump[] =
	"usage: vlpost dump TRACEDIR\n"
	"\n"
	"Print every record of the run's task files as text, task by task (in the\n"
	"order of vlpost trf's processors: start time, then tid), each file validated\n"
	"as every command does.  Per task first\n"
	"  task TID PTID HOST_INDEX HOST_NAME START_NS PROGRAM\n"
	"then one line per record:\n"
	"  TID TYPE FLAGS PEER TAG SEQ BYTES T0 T1 T2 T3 T4 [TEXT]\n"
	"TYPE: start end send recv compute mark spawn probe coll param irecv wait\n"
	"sleep icoll blocks (include/vltrace.h says what each field holds for each\n"
	"type); FLAGS in decimal; times in virtual ns; TEXT (marks, parameters) with\n"
	"spaces as _.\n"
	"Exit status: 0 ok, 2 bad usage or an invalid file (the records before the\n"
	"error are printed, the error on stderr).\n";

static const char *type_name(int t)
{
	static const char *const n[] = { "?",     "start", "end",   "send",  "recv",
					 "compute", "mark", "spawn", "probe", "coll",
					 "param", "irecv", "wait", "sleep", "icoll", "blocks" };
	return t > 0 && t <= VL_EV_LAST ? n[t] : "?";
}

static void print_rec(int32_t tid, const vl_trec *r)
{
	int text = r->type == VL_EV_MARK || r->type == VL_EV_PARAM;

	printf("%" PRId32 " %s %u %" PRId32 " %" PRId32 " %" PRIu32 " %" PRId64 " %" PRId64
	       " %" PRId64,
	       tid, type_name(r->type), (unsigned)r->flags, r->peer, r->tag, r->seq, r->u.v.bytes,
	       r->u.v.t0, r->u.v.t1);
	if (text) {
		char t[sizeof r->u.m.text];
		size_t i;

		for (i = 0; i < sizeof t - 1 && r->u.m.text[i]; i++)
			t[i] = r->u.m.text[i] == ' ' ? '_' : r->u.m.text[i];
		t[i] = 0;
		printf(" 0 0 0 %s\n", i ? t : "_");
	} else {
		printf(" %" PRId64 " %" PRId64 " %" PRId64 "\n", r->u.v.t2, r->u.v.t3, r->u.v.t4);
	}
}

int vlpost_dump_main(int argc, char **argv)
{
	const char *dir = NULL;
	vlpost_tset set;
	char err[1024];
	int i, rc = 0;

	if ((rc = vlpost_cli_one_arg(argc, argv, usage_dump, "dump", "TRACEDIR", &dir)) >= 0)
		return rc;
	rc = 0;
	if (vlpost_tset_open(&set, dir, 0, NULL, err, sizeof err) < 0) {
		vlpost_tset_close(&set);
		return vlu_err(VLPOST_EXIT_BAD, "%s", err);
	}
	for (i = 0; i < set.n && !rc; i++) {
		vlpost_tfile *f = &set.f[i];
		vl_trec r;
		int k;

		printf("task %" PRId32 " %" PRId32 " %" PRId32 " %s %" PRId64 " %s\n", f->hdr.tid,
		       f->hdr.ptid, f->hdr.host, f->hdr.host_name[0] ? f->hdr.host_name : "_",
		       f->hdr.start_ns, f->hdr.program[0] ? f->hdr.program : "_");
		while ((k = vlpost_tfile_next(f, &r)) > 0)
			print_rec(f->hdr.tid, &r);
		if (k < 0)
			rc = vlu_err(VLPOST_EXIT_BAD, "%s", f->errmsg);
	}
	vlpost_tset_close(&set);
	if (fflush(stdout) != 0 || ferror(stdout))
		return vlu_err(VLPOST_EXIT_BAD, "dump: cannot write the output");
	return rc;
}
