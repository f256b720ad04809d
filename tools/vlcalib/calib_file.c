/* calib_file.c - the raw file of the measurement programs (format:
 * calib_common.h): rank 0 opens it, writes the metadata and the column names
 * and closes it; the rows are written by calib_run.c. */
#include "calib_impl.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static void iso_date(char *buf, size_t n)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void vlcal_file_header(vlcal_calib *c)
{
	const vlcal_world *w = c->w;
	char date[64];
	int r, q, k, seen;

	iso_date(date, sizeof date);
	fprintf(c->f, "# vlcalib raw v1\n# library: %s\n", c->ops->library);
	if (w->library_version)
		fprintf(c->f, "# library_version: %s\n", w->library_version);
	fprintf(c->f, "# hosts: ");
	for (r = 0, seen = 0; r < w->size; r++) {
		for (q = 0; q < r && w->node[q] != w->node[r]; q++)
			;
		if (q == r)
			fprintf(c->f, "%s%s", seen++ ? "," : "", w->host[r]);
	}
	fprintf(c->f, "\n# tasks: %d\n# placement:", w->size);
	for (r = 0; r < w->size; r++)
		fprintf(c->f, " %d@%s(node %d)", r, w->host[r], w->node[r]);
	fprintf(c->f, "\n# date: %s\n# command: %s\n", date,
	        c->o->command ? c->o->command : c->o->argv_line);
	for (k = 0; k < 2; k++) {
		int p = vlcal_partner_of(c, k);

		if (p < 0)
			continue;
		fprintf(
		    c->f,
		    "# clock_offset_ns: %s,%s: %lld (%s: rank %d - rank 0, min rtt %lld ns%s)\n",
		    w->host[0], w->host[p], (long long)c->offset[k], vlcal_link_name[k], p,
		    (long long)c->offset_rtt[k],
		    c->same_clock[k] ? "; same kernel clock: oneway uses 0"
		                     : "; oneway re-estimates it before every size");
	}
	fprintf(c->f, "# reps: %d..%d, at least %.3f ms per row, %d warm-up\n", c->o->min_reps,
	        c->o->max_reps, c->o->min_time_ns / 1e6, c->o->warmup + 1);
	fprintf(c->f, "# gap: messages per sample = 16MiB / bytes, clamped to 8..100\n");
	fprintf(c->f, "# row budget: %.6g s (a row whose samples take longer has fewer: at least "
	        "1 warm-up and 3 repetitions)\n", c->o->budget_ns / 1e9);
	if (c->ops->share && (c->o->only & VLCAL_SHARE_MASK))
		fprintf(c->f, "# share: sizes 0 and the powers of 4 (all if fewer than 2); one task "
		              "per node; rank 0's time from its first message until the last data "
		              "message is in\n");
	fprintf(c->f,
	        "experiment,link,procs,bytes,h,reps,min_ns,median_ns,mean_ns,max_ns,stddev_ns\n");
	if (fflush(c->f))
		c->err = 1;
}

/* rank 0 opens the file and tells everybody whether it worked */
int vlcal_file_open(vlcal_calib *c)
{
	int64_t ok = 1;
	int r;

	if (c->w->rank == 0) {
		if (!strcmp(c->o->out, "-"))
			c->f = stdout;
		else if (!(c->f = fopen(c->o->out, "w"))) {
			fprintf(stderr, "%s: %s: %s\n", c->o->prog, c->o->out, strerror(errno));
			ok = 0;
		}
		for (r = 1; r < c->w->size; r++)
			c->ops->send_i64(c->be, r, VLCAL_TAG_CTRL, &ok, 1);
	} else {
		c->ops->recv_i64(c->be, 0, VLCAL_TAG_CTRL, &ok, 1);
	}
	return ok ? 0 : 1;
}

int vlcal_file_close(vlcal_calib *c)
{
	if (c->f != stdout && fclose(c->f))
		c->err = 1;
	if (c->err) {
		fprintf(stderr, "%s: %s: write error\n", c->o->prog, c->o->out);
		return 1;
	}
	return 0;
}
