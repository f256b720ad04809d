/* calib_raw.h - the raw measurement files of `vlcalib fit`: first line
 * VLCAL_RAW_MAGIC, then a CSV file (csv.h) with the columns experiment, link,
 * procs, bytes, h, reps, min_ns, median_ns (others are ignored) and the
 * metadata comments "# library: ..." and "# hosts: ..."; written by
 * `vlcalib run` (calib_mpi.c, calib_pvm.c).
 *
 * A set of such files is loaded file by file into one array of rows
 * (vlcal_raw_load), then sorted and merged into one row per key (vlcal_raw_merge).
 * Errors are messages "PATH:LINE: what" (without the "vlcalib: " of the tool),
 * returned malloc'd so that no message is ever cut short. */
#ifndef VLCAL_CALIB_RAW_H
#define VLCAL_CALIB_RAW_H

#define VLCAL_RAW_MAGIC "# vlcalib raw v1"

/* The experiments (column experiment), in the order the rows sort by. */
enum {
	VLCAL_X_RTT,
	VLCAL_X_ONEWAY,
	VLCAL_X_SEND,
	VLCAL_X_PACK,
	VLCAL_X_RECV,
	VLCAL_X_GAP,
	VLCAL_X_CONT,
	VLCAL_X_BSP, /* the five BSP patterns follow in this order */
	VLCAL_X_BARRIER = VLCAL_X_BSP + 5,
	VLCAL_X_SHARE, /* share_exchange, share_fanout, share_fanin, share_alltoall,
	                  share_first */
	VLCAL_NX = VLCAL_X_SHARE + 5
};

/* Their names ("rtt", ..., "bsp_exchange", ..., "bsp_barrier",
 * "share_exchange", ...), and those of the links (column link): 0 "intra",
 * 1 "inter".  (A reader older than the share_* rows rejects them by name:
 * "unknown experiment 'share_exchange'"; the format is still v1.) */
extern const char *const vlcal_raw_xname[VLCAL_NX];
extern const char *const vlcal_raw_lname[2];

typedef struct vlcal_raw_row {
	int x, link, procs; /* VLCAL_X_*, 0 intra / 1 inter, tasks */
	int file;           /* the FILE number given to vlcal_raw_load */
	long long bytes;    /* 0 .. 2^50 */
	double h, v;        /* h, and min_ns or median_ns: finite, 0 .. 1e15 */
	int line;           /* its line in the file (1-based) */
} vlcal_raw_row;

typedef struct vlcal_raw {
	vlcal_raw_row *row;
	int n, cap;
	/* metadata "# library:" and "# hosts:" of the files loaded, malloc'd:
	 * "(differs between files)" if two files disagree; NULL or "" if none */
	char *library, *hosts;
} vlcal_raw;

/* An empty set (a zeroed vlcal_raw is one too). */
void vlcal_raw_init(vlcal_raw *raw);

/* Loads raw file PATH, numbered FILE in the rows, and appends its rows to RAW:
 * those of the links in LINKMASK (bit 0 intra, bit 1 inter) only, but every
 * row is checked.  A row's v is its min_ns if USE_MIN, else its median_ns.
 * Returns 0, or -1 with *ERR a malloc'd message (NULL if even that memory is
 * missing) and RAW as it was before the call.  The messages: "PATH:1: not a
 * vlcalib raw file ...", those of vlu_csv_read and vlu_csv_need, "PATH:LINE:
 * unknown experiment / unknown link / column C: 'T' is not a whole number in
 * LO..HI / is negative / is too large / experiment X has N tasks, not P /
 * needs at least 2 tasks" (share_exchange: 2 tasks; share_fanout, share_fanin,
 * share_alltoall: at least 2), "PATH: strerror" (cannot open), "-: standard input
 * is not supported, name a file". */
int vlcal_raw_load(vlcal_raw *raw, const char *path, int file, int use_min, int linkmask, char **err);

/* Sorts the rows by link, experiment, procs, bytes, file, line and merges the
 * rows of one (link, experiment, procs, bytes) into one, at the first one's
 * place: the median (or with USE_MIN the minimum) of their values.  FILES[i]
 * is the path of file number i.  Returns 0, or -1 with *ERR a malloc'd message
 * "PATH:LINE: a second row for experiment X, link L, procs P, bytes B (the
 * first is at line N)" when one file has two rows of one key (or "out of
 * memory"); the rows are then sorted but not merged. */
int vlcal_raw_merge(vlcal_raw *raw, const char *const *files, int use_min, char **err);

void vlcal_raw_free(vlcal_raw *raw);
#endif
