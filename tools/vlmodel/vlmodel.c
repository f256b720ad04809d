/* vlmodel.c - `vlmodel COMMAND ...`: the analytic models of the reference papers
 * as tools (dispatch and help; the shared helpers are in vlmodel_util.c). */
#include "vlmodel.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>

static const char usage_main[] =
    "usage: vlmodel COMMAND [OPTIONS]\n"
    "\n"
    "The analytic performance models of vlayer's reference papers as tools.\n"
    "\n"
    "commands:\n"
    "  alphabeta FILE.csv --a LAT,BW --b LAT,BW [--predict LAT,BW]...\n"
    "        latency and bandwidth constants alpha, beta of jobs run on two\n"
    "        interconnects (Lin, LS-DYNA), and predictions for other interconnects\n"
    "  alphabeta-csv JOB=DIR_A,DIR_B...\n"
    "        the alphabeta input file from the trace directories of the runs\n"
    "  speedup [--kernel NAME --n N | --op EXPR --x EXPR] [--p LIST]\n"
    "        speed-up, p_1/2 and p_max (Kredel et al.) over a list of p\n"
    "  bsp [STEPS.csv | --trace DIR] --g G --L L\n"
    "        BSPWB and MPM predictions of a program's M-steps (Roda et al.)\n"
    "\n"
    "'vlmodel COMMAND --help' describes a command.  The models print a table, or\n"
    "CSV with --csv.  Exit status: 0 ok, 2 bad usage or bad input (the message\n"
    "names the file and line).\n";

typedef struct vlmod_cmd {
	const char *name;
	int (*main)(int argc, char **argv);
} vlmod_cmd;

static const vlmod_cmd cmds[] = {
    {"alphabeta", vlmod_alphabeta_main},
    {"alphabeta-csv", vlmod_abcsv_main},
    {"speedup", vlmod_speedup_main},
    {"bsp", vlmod_bsp_main},
};

int main(int argc, char **argv)
{
	vlu_progname("vlmodel");
	if (argc < 2) {
		fputs(usage_main, stderr);
		return VLMOD_EXIT_BAD;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage_main, stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].main(argc - 2, argv + 2);
	vlu_err(VLMOD_EXIT_BAD, "unknown command '%s'", argv[1]);
	fputs(usage_main, stderr);
	return VLMOD_EXIT_BAD;
}
