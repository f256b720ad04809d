/* cli.h - what the commands of vlpost share: the report of a usage error, the
 * default name of an output file, and writing an output file. */
#ifndef VLPOST_CLI_H
#define VLPOST_CLI_H

#include "util/outfile.h"

#define VLPOST_EXIT_BAD 2 /* the exit status for bad usage or bad input */

/* On stderr: "PROG: MESSAGE" (vlu_err), then the first line of usage and
 * " (--help for more)".  Returns VLPOST_EXIT_BAD. */
int vlpost_cli_usage(const char *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A command that takes one argument and no option (cmd: its name, what: the
 * argument's, as "TRACEDIR"): *arg = it, and returns -1; or returns the exit
 * status (0 after --help printed usage on stdout, VLPOST_EXIT_BAD after a
 * usage error). */
int vlpost_cli_one_arg(int argc, char **argv, const char *usage, const char *cmd,
		       const char *what, const char **arg);

/* path without its trailing slashes (but for a leading one), then without the
 * suffix drop if it ends so (drop "": nothing), plus add ("run1/", "", ".svg":
 * "run1.svg").  Returns the new string (malloc), or NULL when out of memory. */
char *vlpost_cli_name(const char *path, const char *drop, const char *add);

/* Write path through fn with vlu_write_atomic (no half-written file).  Returns
 * 0, or VLPOST_EXIT_BAD after "PROG: FILE: reason" on stderr. */
int vlpost_cli_write(const char *path, vlu_write_fn fn, void *ctx);

#endif
