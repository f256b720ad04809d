/* tracedir.c - one run per trace directory.  The run that starts (the first
 * PVM task, or vlrun for MPI) claims the directory with a lock file
 * DIR/.vlayer-lock holding "PID HOST START RUN" (START: Unix seconds; RUN:
 * what identifies the run, for PVM its pvmd, "-" for none), created
 * exclusively, then removes the traces of an earlier run (vl-*.trc) and leaves
 * a copy of the VMConfig in use there (vmconfig.ini, for vlpost replay).  A
 * lock whose process is alive on this host means a live run: the claim is
 * refused with a message saying who holds it, unless the claimant belongs to
 * the same run (a second PVM task started from the shell under the same pvmd,
 * as NetPIPE-PVM's two ends are): it joins, and neither cleans nor locks.  A
 * lock whose process is gone is stale: it is reported and taken over.  A lock
 * from another host cannot be checked and is treated as live (the message says
 * how to remove it).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/engine.h"

#define LOCK_NAME ".vlayer-lock"

static char held[VLCFG_PATH_MAX + 1]; /* the directory this process holds, "" = none */
static long held_pid;

static void lock_path(char *path, size_t size, const char *dir)
{
	snprintf(path, size, "%s/" LOCK_NAME, dir);
}

/* Create the lock exclusively; 0, or -1 with errno (EEXIST: there is one). */
static int create_lock(const char *path, long pid, const char *run)
{
	char host[256] = "?", line[400];
	int fd, n;

	gethostname(host, sizeof host - 1);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	n = snprintf(line, sizeof line, "%ld %s %lld %s\n", pid, host, (long long)time(NULL),
		     run && *run ? run : "-");
	if (n >= (int)sizeof line)
		n = (int)sizeof line - 1;
	if (write(fd, line, (size_t)n) != n) {
		int e = errno;

		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	close(fd);
	return 0;
}

/* When a lock was taken, as "YYYY-MM-DD HH:MM:SS" local time. */
static void when(char *buf, size_t size, long long start)
{
	time_t t = (time_t)start;
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, size, "%lld", start);
}

/* The VMConfig file this process's tasks load (the rule of vli_load_config:
 * $VMCONFIG, else ./VMConfig), or NULL for the built-in machine. */
static const char *config_in_use(void)
{
	const char *path = getenv("VMCONFIG");

	if (path && *path)
		return path;
	return access("VMConfig", F_OK) == 0 ? "VMConfig" : NULL;
}

/* Leave a copy of the VMConfig in use as DIR/vmconfig.ini, for vlpost replay
 * (written to a temporary file and renamed: never half a file); with the
 * built-in machine remove an earlier run's copy.  Failures are silent: the
 * copy is a convenience (vlpost replay --from names the file otherwise). */
static void keep_config(const char *dir)
{
	char dst[VLCFG_PATH_MAX + 32], tmp[VLCFG_PATH_MAX + 64], buf[8192];
	const char *src = config_in_use();
	int in, out, ok = 1;
	ssize_t n;

	snprintf(dst, sizeof dst, "%s/vmconfig.ini", dir);
	if (!src) {
		unlink(dst);
		return;
	}
	snprintf(tmp, sizeof tmp, "%s/.vmconfig.ini.%ld", dir, (long)getpid());
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return;
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return;
	}
	while (ok && (n = read(in, buf, sizeof buf)) != 0)
		ok = n > 0 && write(out, buf, (size_t)n) == n;
	close(in);
	if (close(out) != 0 || !ok || rename(tmp, dst) != 0)
		unlink(tmp);
}

/* Remove the traces of an earlier run (vl-*.trc) and its CPU gates
 * (.vlayer-cpus.HOST, cpugate.c: a new run may want another number). */
static void clean(const char *dir)
{
	char path[VLCFG_PATH_MAX + 300];
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if ((n > 7 && !strncmp(e->d_name, "vl-", 3) && !strcmp(e->d_name + n - 4, ".trc")) ||
		    !strncmp(e->d_name, ".vlayer-cpus.", 13)) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	closedir(d);
}

int vli_tracedir_claim(const char *dir, long pid, const char *run, char *err, size_t errlen)
{
	char path[VLCFG_PATH_MAX + 32], me[256] = "?", host[256], at[64], line[1400];
	char theirs[1024];
	long other = 0;
	long long start = 0;
	int tries;

	if (vli_mkdirs(dir) < 0)
		return snprintf(err, errlen, "cannot create trace directory %s: %s", dir,
				strerror(errno)), -1;
	lock_path(path, sizeof path, dir);
	gethostname(me, sizeof me - 1);
	for (tries = 0; tries < 3; tries++) {
		FILE *f;

		if (create_lock(path, pid, run) == 0) {
			snprintf(held, sizeof held, "%s", dir);
			held_pid = pid;
			clean(dir);
			keep_config(dir);
			return 0;
		}
		if (errno != EEXIST)
			return snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno)), -1;
		f = fopen(path, "r");
		host[0] = theirs[0] = 0;
		if (!f)
			continue; /* removed in between: try again */
		if (!fgets(line, sizeof line, f) ||
		    sscanf(line, "%ld %255s %lld %1023[^\n]", &other, host, &start, theirs) < 3)
			other = 0;
		fclose(f);
		when(at, sizeof at, start);
		if (other > 0 && strcmp(host, me) != 0)
			return snprintf(err, errlen, "trace directory %s is in use by a run started %s on "
					"host %s (pid %ld); wait for it or use another trace directory "
					"(if that run is over, remove %s)", dir, at, host, other, path), -1;
		if (other > 0 && (kill((pid_t)other, 0) == 0 || errno == EPERM)) {
			if (run && *run && !strcmp(theirs, run))
				return 1; /* the same run: join it */
			return snprintf(err, errlen, "trace directory %s is in use by a live run started "
					"%s (pid %ld on %s); wait for it or use another trace directory",
					dir, at, other, host), -1;
		}
		/* stale: its process is gone (or the lock is unreadable) */
		if (other > 0)
			vli_warn("taking over the stale lock of %s: pid %ld (started %s) is gone", dir,
				 other, at);
		else
			vli_warn("taking over the unreadable lock %s", path);
		unlink(path);
	}
	return snprintf(err, errlen, "cannot claim trace directory %s: its lock keeps changing",
			dir), -1;
}

int vli_tracedir_unlock(const char *dir, long pid)
{
	char path[VLCFG_PATH_MAX + 32], line[1400];
	long owner = 0;
	FILE *f;

	lock_path(path, sizeof path, dir);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(line, sizeof line, f))
		owner = atol(line);
	fclose(f);
	if (owner != pid)
		return 0;
	return unlink(path) == 0;
}

void vli_tracedir_release(void)
{
	if (!held[0])
		return;
	vli_tracedir_unlock(held, held_pid);
	held[0] = 0;
}
