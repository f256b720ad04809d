/* csv.h - the CSV reader shared by vlcalib and vlmodel.
 *
 * A file is: optional comment lines starting with '#' (a comment "# key: value"
 * is kept as metadata), one header row naming the columns, then data rows with
 * exactly as many fields as the header.  Fields may be quoted ("a,b", "" for a
 * quote), blanks around unquoted fields are ignored, blank lines are skipped,
 * line ends \n or \r\n.  Columns are looked up by name, so their order is free. */
#ifndef VLU_CSV_H
#define VLU_CSV_H
#include <stddef.h>

typedef struct vlu_csv {
	char *path;     /* as given, for messages */
	int ncols;
	char **cols;    /* header names */
	int header_line;
	int nrows;
	char **cell;    /* nrows * ncols field texts */
	int *line;      /* file line of each data row (1-based) */
	int nmeta;
	char **meta_key, **meta_val;
} vlu_csv;

/* Reads PATH ("-" = standard input) into CSV.  Returns 0, or -1 with a message
 * "PATH:LINE: what" in ERR (no header row, wrong field count, unterminated
 * quote, a NUL byte, duplicate column name), or "PATH: what" (cannot open, an
 * empty file). */
int vlu_csv_read(const char *path, vlu_csv *csv, char *err, size_t errlen);

void vlu_csv_free(vlu_csv *csv);

/* The index of column NAME, or -1. */
int vlu_csv_col(const vlu_csv *csv, const char *name);

/* The text of a cell (never NULL). */
const char *vlu_csv_text(const vlu_csv *csv, int row, int col);

/* Parses cell (ROW, COL) as a finite number into *V.  Returns 0, or -1 with
 * "PATH:LINE: column NAME: 'TEXT' is not a number" in ERR. */
int vlu_csv_num(const vlu_csv *csv, int row, int col, double *v, char *err, size_t errlen);

/* The value of metadata comment "# KEY: value", or NULL. */
const char *vlu_csv_meta(const vlu_csv *csv, const char *key);

/* Requires columns NAMES (NULL-terminated) and stores their indices in IDX.
 * Returns 0, or -1 with "PATH:LINE: missing column NAME (have: a, b, c)". */
int vlu_csv_need(const vlu_csv *csv, const char *const *names, int *idx, char *err,
		 size_t errlen);
#endif
