/* board.c - the board of a run (board.h): the shared-memory file, its lock,
 * the tournament tree of lower bounds, the id -> slot map and the futex
 * words tasks sleep on.  The rules of virtual order are in order.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/board.h"
#include "vlayer/core/engine.h"

vli_board *vli_bd;

static void tree_rebuild(void)
{
	int n;

	for (n = VLI_BOARD_SLOTS - 1; n >= 1; n--) {
		int64_t a = atomic_load(&vli_bd->tree[2 * n]), b = atomic_load(&vli_bd->tree[2 * n + 1]);
		atomic_store(&vli_bd->tree[n], a < b ? a : b);
	}
}

int vli_shared_mutex_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t ma;

	if (pthread_mutexattr_init(&ma) || pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED) ||
	    pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST) || pthread_mutex_init(m, &ma))
		return -1;
	pthread_mutexattr_destroy(&ma);
	return 0;
}

static int init_board(vli_board *b)
{
	int i;

	b->size = sizeof *b;
	gethostname(b->real_host, sizeof b->real_host - 1);
	atomic_store(&b->la, VLI_TIME_MAX);
	for (i = 0; i < 2 * VLI_BOARD_SLOTS; i++)
		atomic_store(&b->tree[i], VLI_BOARD_NONE);
	/* (a slot's bound is set when it is handed out: vli_board_new_slot.
	 * Setting all 8192 here touched 2100 pages of the 9.8 MB board, 26-33 ms
	 * of CPU per run on a virtual machine whose page faults cost 12 us) */
	if (vli_shared_mutex_init(&b->lock) < 0)
		return -1;
	atomic_thread_fence(memory_order_seq_cst);
	b->magic = VLI_BOARD_MAGIC;
	return 0;
}

int vli_board_open(const char *path, int create, char *err, size_t errlen)
{
	int fd, tries;
	void *p;
	vli_board *b;

	if (create) {
		unlink(path); /* a mapping of an earlier run keeps its own file */
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)sizeof(vli_board)) < 0) {
			snprintf(err, errlen, "cannot create the board %s: %s", path, strerror(errno));
			if (fd >= 0)
				close(fd);
			return -1;
		}
	} else {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			snprintf(err, errlen, "cannot open the board %s: %s", path, strerror(errno));
			return -1;
		}
	}
	p = mmap(NULL, sizeof(vli_board), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map the board %s: %s", path, strerror(errno));
		return -1;
	}
	b = p;
	if (create) {
		if (init_board(b) < 0) {
			munmap(p, sizeof(vli_board));
			snprintf(err, errlen, "cannot set up the lock of the board %s", path);
			return -1;
		}
	} else {
		/* its creator may still be setting it up */
		for (tries = 0; tries < 2000 && b->magic != VLI_BOARD_MAGIC; tries++)
			usleep(1000);
		if (b->magic != VLI_BOARD_MAGIC || b->size != sizeof *b) {
			munmap(p, sizeof(vli_board));
			snprintf(err, errlen, "%s is not a board of this vlayer version", path);
			return -1;
		}
	}
	vli_bd = b;
	return 0;
}

/* The lock's holder, to tell a task that takes it again from a signal handler. */
static __thread int holding;

void vli_board_lock(void)
{
	int rc = pthread_mutex_lock(&vli_bd->lock);

	if (rc == EOWNERDEAD) {
		/* a task died in the middle of an update: the leaves are right
		 * (each is one store), the inner nodes are made again */
		tree_rebuild();
		pthread_mutex_consistent(&vli_bd->lock);
	} else if (rc) {
		vli_error(3, "the board's lock failed: %s", strerror(rc));
	}
	holding = 1;
}

int vli_board_trylock(void)
{
	int i, rc;

	for (i = 0; i < 1000; i++) {
		rc = pthread_mutex_trylock(&vli_bd->lock);
		if (rc == 0 || rc == EOWNERDEAD) {
			if (rc == EOWNERDEAD) {
				tree_rebuild();
				pthread_mutex_consistent(&vli_bd->lock);
			}
			holding = 1;
			return 1;
		}
		sched_yield();
	}
	return 0;
}

void vli_board_unlock(void)
{
	holding = 0;
	pthread_mutex_unlock(&vli_bd->lock);
}

int vli_board_set(int i, int64_t lb)
{
	int n = VLI_BOARD_SLOTS + i;
	int64_t old_root = atomic_load(&vli_bd->tree[1]);

	atomic_store(&vli_bd->slot[i].lb, lb);
	atomic_store(&vli_bd->tree[n], lb);
	for (n /= 2; n >= 1; n /= 2) {
		int64_t a = atomic_load(&vli_bd->tree[2 * n]), b = atomic_load(&vli_bd->tree[2 * n + 1]);
		int64_t m = a < b ? a : b;

		if (atomic_load(&vli_bd->tree[n]) == m)
			break; /* nothing above changes */
		atomic_store(&vli_bd->tree[n], m);
	}
	return atomic_load(&vli_bd->tree[1]) != old_root;
}

int64_t vli_board_root(void)
{
	return atomic_load(&vli_bd->tree[1]);
}

int vli_board_argmin(void)
{
	int n = 1;
	int64_t m = atomic_load(&vli_bd->tree[1]);

	if (m == VLI_BOARD_NONE)
		return -1;
	while (n < VLI_BOARD_SLOTS)
		n = atomic_load(&vli_bd->tree[2 * n]) == m ? 2 * n : 2 * n + 1;
	return n - VLI_BOARD_SLOTS;
}

int vli_board_new_slot(void)
{
	int i = atomic_load(&vli_bd->nslots);

	if (i >= VLI_BOARD_SLOTS)
		return -1;
	atomic_store(&vli_bd->slot[i].lb, VLI_BOARD_NONE);
	atomic_store(&vli_bd->nslots, i + 1);
	return i;
}

static unsigned map_hash(int id)
{
	return ((unsigned)id * 2654435761u) & (2 * VLI_BOARD_SLOTS - 1);
}

void vli_board_map(int id, int slot)
{
	unsigned h = map_hash(id);

	for (;;) {
		int k = atomic_load(&vli_bd->map[h].id);
		if (k == 0 || k == id + 1) {
			atomic_store(&vli_bd->map[h].slot, slot);
			atomic_store(&vli_bd->map[h].id, id + 1);
			return;
		}
		h = (h + 1) & (2 * VLI_BOARD_SLOTS - 1);
	}
}

int vli_board_find(int id)
{
	unsigned h = map_hash(id), n;

	for (n = 0; n < 2 * VLI_BOARD_SLOTS; n++) {
		int k = atomic_load(&vli_bd->map[h].id);
		if (k == 0)
			return -1;
		if (k == id + 1)
			return atomic_load(&vli_bd->map[h].slot);
		h = (h + 1) & (2 * VLI_BOARD_SLOTS - 1);
	}
	return -1;
}

void vli_futex_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

void vli_board_wake_watchers(void)
{
	atomic_fetch_add(&vli_bd->epoch, 1);
	if (atomic_load(&vli_bd->nwatch) > 0)
		vli_futex_wake(&vli_bd->epoch);
}

void vli_board_kick(int i)
{
	atomic_fetch_add(&vli_bd->slot[i].kick, 1);
	vli_futex_wake(&vli_bd->slot[i].kick);
}

void vli_board_sleep(_Atomic uint32_t *word, uint32_t seen, int ms)
{
	vli_board_sleep_ns(word, seen, (int64_t)ms * 1000000);
}

void vli_board_sleep_ns(_Atomic uint32_t *word, uint32_t seen, int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };

	if (atomic_load(word) != seen)
		return;
	syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

int vli_board_holding(void)
{
	return holding;
}
