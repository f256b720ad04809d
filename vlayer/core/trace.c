/* trace.c - the per-task trace writer (format: include/vltrace.h).
 *
 * Records are buffered and written with write(2) when the buffer fills, at
 * the end of the task, and from the fatal-signal handler, so a task that
 * crashes after its last send still leaves a readable trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vlayer/core/engine.h"

#define TRACE_BUF 1024 /* records, 64 KiB */

static int trace_fd = -1;
static vl_trec buf[TRACE_BUF];
static volatile int nbuf;
static char trace_path[VLCFG_PATH_MAX + 32];

static void write_all(const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(trace_fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			static const char m[] = "vlayer: warning: cannot write the trace\n";
			ssize_t ignored = write(2, m, sizeof m - 1);
			(void)ignored;
			return;
		}
		c += w;
		n -= (size_t)w;
	}
}

int vli_mkdirs(const char *dir)
{
	char tmp[VLCFG_PATH_MAX];
	char *p;

	snprintf(tmp, sizeof tmp, "%s", dir);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0777) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return (mkdir(tmp, 0777) < 0 && errno != EEXIST) ? -1 : 0;
}

void vli_trace_open(const char *dir, const vl_thdr *hdr)
{
	vli_on_fatal(vli_trace_flush);
	if (vli_mkdirs(dir) < 0)
		vli_error(2, "cannot create trace directory %s: %s", dir, strerror(errno));
	snprintf(trace_path, sizeof trace_path, "%s/vl-%08x.trc", dir, (unsigned)hdr->tid);
	trace_fd = open(trace_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (trace_fd < 0)
		vli_error(2, "cannot create trace %s: %s", trace_path, strerror(errno));
	write_all(hdr, sizeof *hdr);
	nbuf = 0;
}

void vli_trace_flush(void)
{
	int n = nbuf;
	if (trace_fd < 0 || n == 0)
		return;
	nbuf = 0;
	write_all(buf, (size_t)n * sizeof buf[0]);
}

void vli_trace_put(const vl_trec *r)
{
	if (trace_fd < 0)
		return;
	if (nbuf == TRACE_BUF)
		vli_trace_flush();
	buf[nbuf] = *r;
	nbuf = nbuf + 1;
}

void vli_trace_close(void)
{
	if (trace_fd < 0)
		return;
	vli_trace_flush();
	close(trace_fd);
	trace_fd = -1;
}

void vli_trace_msg(int type, int peer, int tag, uint32_t seq, int64_t bytes, int64_t t0,
		   int64_t t1, int64_t t2, int64_t t3, unsigned flags)
{
	vli_trace_msg4(type, peer, tag, seq, bytes, t0, t1, t2, t3, 0, flags);
}

void vli_trace_msg4(int type, int peer, int tag, uint32_t seq, int64_t bytes, int64_t t0,
		    int64_t t1, int64_t t2, int64_t t3, int64_t t4, unsigned flags)
{
	vl_trec r = vl_trec_make(type, flags, peer, tag, seq, bytes, t0, t1, t2, t3, t4);

	vli_trace_put(&r);
}

void vli_trace_text(int type, int peer, int tag, int64_t t0, int64_t t1, int64_t t2,
		    int64_t bytes, const char *text)
{
	vl_trec r = vl_trec_text(type, peer, tag, bytes, t0, t1, text);

	(void)t2;
	vli_trace_put(&r);
}
