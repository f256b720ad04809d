/* tracereader.h - streaming reader of vlayer task traces (include/vltrace.h).
 *
 * A vlpost_tfile reads one task's trace sequentially through a fixed buffer, validates
 * the header and every record, and names the file and the record index in every
 * error.  A vlpost_tset opens every vl-XXXXXXXX.trc of a trace directory and orders
 * the tasks by (start_ns, tid), which gives the processor numbers 0..P-1.
 * Memory is bounded by the number of tasks: one buffer per task, nothing per record.
 *
 * Record indices count from 0 (record 0 is the first record after the header).
 */
#ifndef VLPOST_TRACEREADER_H
#define VLPOST_TRACEREADER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "vltrace.h"

#define VLPOST_TR_BUFSIZE (64 * 1024)     /* default read buffer per task */
#define VLPOST_TR_MINBUF (4 * 1024)       /* smallest buffer used for very many tasks */
#define VLPOST_TR_MAXBUF (1u << 30)       /* largest buffer */
#define VLPOST_TR_MEMBUDGET (32u << 20)   /* total buffer memory a vlpost_tset aims for */
#define VLPOST_TR_TMAX ((int64_t)1 << 62) /* times, byte counts, components: 0..VLPOST_TR_TMAX */

/* What went wrong, so that callers can tolerate incomplete traces (--partial). */
enum vlpost_tr_err {
	VL_TR_ENONE = 0,
	VL_TR_EIO,      /* the file could not be opened or read */
	VL_TR_EHDR,     /* bad or short header: nothing of the file is usable */
	VL_TR_ECORRUPT, /* a record is invalid: the records before it are usable */
	VL_TR_ETRUNC,   /* the file ends inside a record: the records before are usable */
	VL_TR_ENOEND    /* the last record is not END: the task did not finish */
};

typedef struct vlpost_tfile {
	/* what every record needs, in one cache line (for many tasks, the lines of
	 * the others are rarely still in the cache) */
	unsigned char *buf;
	uint32_t pos, len;     /* bytes consumed, bytes in buf */
	uint64_t nrec;         /* records returned by vlpost_tfile_next */
	int64_t last_t0, last_t1;
	int64_t start_ns;      /* hdr.start_ns */
	uint32_t last_seq;     /* seq of the last SEND record */
	uint16_t last_type, last_flags;
	enum vlpost_tr_err err;    /* sticky: once set, vlpost_tfile_next returns -1 */
	uint8_t ended;         /* the END record was returned */
	uint8_t eof;           /* a read returned 0 */
	/* the rest */
	vl_thdr hdr;           /* host_name and program are NUL-terminated and printable */
	char *path;            /* as opened (dir/vl-XXXXXXXX.trc) */
	int fd;                /* -1 while closed (see keep_open) */
	int keep_open;         /* 0: the file is opened for each refill only */
	uint32_t cap;          /* buffer size */
	int64_t off;           /* file offset of the byte after buf[len - 1] */
	char errmsg[384];      /* "PATH: record N: ..." */
} __attribute__((aligned(64))) vlpost_tfile;

/* Open the trace file at path and validate its header.  bufsize is rounded up to
 * a multiple of the record size (0 = VLPOST_TR_BUFSIZE, at most VLPOST_TR_MAXBUF).  If
 * keep_open is 0, the file descriptor is closed after every buffer refill (for
 * more tasks than descriptors).
 * Returns 0, or -1 with f->err and f->errmsg set.  Call vlpost_tfile_close() in both
 * cases. */
int vlpost_tfile_open(vlpost_tfile *f, const char *path, size_t bufsize, int keep_open);

/* Next record, validated, in host byte order.  Returns 1 with *r filled, 0 at the
 * normal end (after END, no trailing bytes), or -1 with f->err / f->errmsg set:
 * invalid record, truncated file, no END record, or read error.  The error is
 * sticky; the records returned before it are valid.  Checks: known type,
 * 0 <= t0 <= t1 <= VLPOST_TR_TMAX, t0 >= start_ns, t0 >= the previous record's t1
 * (except the records of one multicast sharing one interval), START only first,
 * nothing after END, SEND seq increasing, waiting within [0, t1 - t0] for RECV
 * and COLL, byte counts, the arrival time of RECV (t3) and END components
 * within [0, VLPOST_TR_TMAX].  The text of
 * MARK, COLL and PARAM is NUL-terminated; PARAM's t1 is set to its t0. */
int vlpost_tfile_next(vlpost_tfile *f, vl_trec *r);

/* The record after the last one returned, not validated and not consumed.
 * Returns 1 with *r filled, 0 if no complete record follows, -1 on a read error. */
int vlpost_tfile_peek(vlpost_tfile *f, vl_trec *r);

/* Start again at record 0 (keeps the header).  Returns 0 or -1 (read error). */
int vlpost_tfile_rewind(vlpost_tfile *f);

/* Free the buffer and close the file.  Safe on a zeroed or failed vlpost_tfile. */
void vlpost_tfile_close(vlpost_tfile *f);

/* Whether f's error leaves usable records before it (ECORRUPT, ETRUNC, ENOEND). */
int vlpost_tfile_err_is_partial(const vlpost_tfile *f);

/* ---- a trace directory ---- */
#define VLPOST_TSET_SKIPBAD 1u  /* skip files with a bad header (warning) instead of failing */

typedef struct vlpost_tset {
	char *dir;
	int n;                /* tasks */
	vlpost_tfile *f;          /* sorted by (hdr.start_ns, hdr.tid): index = processor */
	int *hash;            /* tid -> index + 1 (0: empty), open addressing */
	uint32_t hmask;
} vlpost_tset;

/* Open every vl-*.trc file of dir.  Fails (-1, message in err) if the directory
 * cannot be read, holds no trace file, a header is bad (unless VLPOST_TSET_SKIPBAD,
 * which warns on warn if not NULL) or two files have the same tid.  Call
 * vlpost_tset_close() in both cases. */
int vlpost_tset_open(vlpost_tset *s, const char *dir, unsigned flags, FILE *warn, char *err,
		 size_t errlen);

/* Processor index of task tid, or -1 if no file of the set has that tid. */
int vlpost_tset_find(const vlpost_tset *s, int32_t tid);

/* Rewind every file to record 0.  Returns 0, or -1 with the message in err. */
int vlpost_tset_rewind(vlpost_tset *s, char *err, size_t errlen);

void vlpost_tset_close(vlpost_tset *s);

#endif
