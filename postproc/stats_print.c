/* stats_print.c - the entry points of the stats printers (stats.h): the
 * format's printer (stats_text.c, stats_csv.c, stats_json.c), then the
 * stream's error state. */
#include "stats_print.h"

int vlpost_stats_print(FILE *out, const vlpost_tstats *st, int n, int csv)
{
	if (csv)
		vlpost_rp_csv_tasks(out, st, n, 0);
	else if (vlpost_rp_text_table(out, st, n) < 0)
		return -1;
	return ferror(out) ? -1 : 0;
}

int vlpost_report_print(FILE *out, const vlpost_tstats *st, int n, const vlpost_report *rep,
			enum vlpost_fmt fmt, unsigned flags)
{
	int rc;
	if (fmt == VLP_FMT_JSON)
		rc = vlpost_rp_json(out, st, n, rep, flags);
	else if (fmt == VLP_FMT_CSV)
		rc = vlpost_rp_csv(out, st, n, rep, flags);
	else
		rc = vlpost_rp_text(out, st, n, rep, flags);
	return rc < 0 || ferror(out) ? -1 : 0;
}
