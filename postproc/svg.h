/* svg.h - a self-contained SVG space-time diagram and the `vlpost svg` command.
 * The layout is documented in docs/vlpost.md. */
#ifndef VLPOST_SVG_H
#define VLPOST_SVG_H

#include <stdio.h>
#include "stats.h"
#include "tracereader.h"

#define VLPOST_SVG_MAXLINES 20000  /* more messages: lines for a sample only */

typedef struct vlpost_svg_opt {
	int partial;    /* tolerate incomplete traces (as vlpost paje --partial) */
	int width;      /* of the picture in pixels */
	const char *title;
	FILE *warn;     /* where warnings go (NULL: nowhere) */
} vlpost_svg_opt;

/* Draw set (freshly opened, or rewound) as an SVG picture on out: one row per
 * task with its states (those of vlpost_paje_write: the events of timeline.h,
 * which derives the states and matches the messages), a line per message from
 * its send begin to its receive end, a tick per user mark, a time axis, a
 * legend and the utilisation profile.  The set is read twice: once for the
 * tasks' ends (the time scale), then merged.  st[0..n-1] receives the
 * per-task summary.  Fails (-1, message in err) as vlpost_paje_write does,
 * and on a write error. */
int vlpost_svg_write(vlpost_tset *set, FILE *out, const vlpost_svg_opt *opt, vlpost_tstats *st, char *err,
		  size_t errlen);

/* `vlpost svg [-o FILE.svg] [--width PX] [--partial] [--png] TRACEDIR`: argv[0]
 * is "svg".  Returns the exit status (0, or 2 for bad usage or bad input). */
int vlpost_svg_main(int argc, char **argv);

extern const char vlpost_svg_usage[];

#endif
