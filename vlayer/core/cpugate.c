/* cpugate.c - the CPU gate ([simulation] cpus, off by default; issue 15):
 * with measured computation, no more tasks of a run compute at once on this
 * real host than cpus processors.
 *
 * A task holds one of ncpu tokens while it is outside the layer (computing)
 * and gives it back when it enters a layer call (vli_enter); when it leaves
 * the call (vli_leave) it takes one again, and when none is free it waits,
 * in the layer, for one.  Tasks that wait are served smallest virtual time
 * first (ties: the lower task id), so the task that holds the others back in
 * virtual time computes first.  Token k pins its holder to the k-th
 * processor.  Oversubscribed tasks then do not evict each other's caches or
 * preempt each other in the middle of a measured segment, and a task's CPU
 * time is what its work costs, not what its neighbours make it cost.
 *
 * A token whose holder does not compute (it sleeps or waits for real outside
 * the layer: sleep(), a call the layer passes through, a crash) is taken
 * back: a waiter that has waited 20 ms looks at each holder's CPU time and
 * takes back a token whose holder used less than a quarter of a processor
 * meanwhile, or has died.  The gate thus never blocks a run; a program that
 * spins outside the layer waiting for another task (not through the
 * message-passing library) is the one case it slows down (documented).
 *
 * One shared-memory file per run and real host: TRACE_DIR/.vlayer-cpus.HOST.
 * Tokens are bits of a word (at most 64 processors); owner[k] says who holds
 * token k, so that a holder and a waiter taking it back never both free it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>
#include "vlayer/core/board.h"
#include "vlayer/core/engine.h"

#define GATE_MAGIC 0x3153555043564c00ULL /* "\0VLCPUS1" */
#define GATE_PROCS 8192                   /* tasks of one run on this host */
#define GATE_TOKENS 64
#define GATE_NAP_NS 20000000LL            /* a waiter looks at the holders this often */

enum { W_IDLE = 0, W_WAITING, W_GRANTED };

typedef struct gate_proc {
	_Atomic int pid;        /* 0: free */
	_Atomic int state;      /* W_* (under the lock) */
	_Atomic int token;      /* W_GRANTED: which */
	_Atomic uint32_t kick;  /* futex word */
	int64_t now;            /* W_WAITING: its virtual time */
	int id;                 /* its task id (ties) */
	int tid;                /* ... its thread */
	uint64_t ticket;        /* ... and the ticket it will hold a token under */
} gate_proc;

typedef struct gate {
	uint64_t magic;
	uint32_t size;
	int ncpu;
	int cpu[GATE_TOKENS];            /* token k pins to processor cpu[k] */
	_Atomic uint64_t free;           /* free tokens */
	_Atomic uint64_t owner[GATE_TOKENS]; /* ticket of the holder of token k, 0 none */
	_Atomic int owner_pid[GATE_TOKENS], owner_tid[GATE_TOKENS];
	_Atomic int nwait;               /* tasks waiting */
	_Atomic int nprocs;              /* high-water mark of proc[] */
	pthread_mutex_t lock;
	gate_proc proc[GATE_PROCS];
} gate;

static gate *g;
static int off;            /* no gate (compute ignored, cpus = off, or it failed) */
static int me = -1;        /* this task's proc[] entry */
static int held = -1;      /* the token this task holds */
static uint64_t ticket;    /* ... under this ticket */
static uint32_t nticket;
static int pinned = -1;    /* the processor this task is pinned to */

int64_t vli_thread_cpu(int pid, int tid)
{
	char path[64], buf[128];
	FILE *f;
	long long v;
	int ok;

	snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", pid, tid);
	if (!(f = fopen(path, "r")))
		return -1;
	ok = fgets(buf, sizeof buf, f) && sscanf(buf, "%lld", &v) == 1;
	fclose(f);
	return ok && v >= 0 ? v : -1;
}

static int locked; /* this task holds the lock (a signal handler must not take it) */

static void lock(void)
{
	int rc = pthread_mutex_lock(&g->lock);

	if (rc == EOWNERDEAD) /* every field is one store: nothing to repair */
		pthread_mutex_consistent(&g->lock);
	locked = 1;
}

static void unlock(void)
{
	locked = 0;
	pthread_mutex_unlock(&g->lock);
}

/* The number of processors: [simulation] cpus (0: no gate), auto: those
 * this task may run on (all online ones if mpirun bound it to one). */
static int want_cpus(void)
{
	cpu_set_t set;
	int n;

	if (vli_t.cfg.cpus >= 0)
		return vli_t.cfg.cpus > GATE_TOKENS ? GATE_TOKENS : vli_t.cfg.cpus;
	n = get_nprocs();
	if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1 &&
	    CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > GATE_TOKENS ? GATE_TOKENS : n;
}

static int init_gate(gate *p, int n)
{
	cpu_set_t set;
	int k, c;

	p->size = sizeof *p;
	p->ncpu = n;
	/* the processors this task may run on (all online ones if it is bound
	 * to fewer, as mpirun binds 2 ranks), in order */
	if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < n) {
		CPU_ZERO(&set);
		for (c = 0; c < get_nprocs_conf() && c < CPU_SETSIZE; c++)
			CPU_SET(c, &set);
	}
	for (k = 0, c = 0; k < n; c++) {
		if (c >= CPU_SETSIZE) {
			p->cpu[k++] = -1;
			continue;
		}
		if (CPU_ISSET(c, &set))
			p->cpu[k++] = c;
	}
	atomic_store(&p->free, n >= 64 ? ~0ULL : (1ULL << n) - 1);
	if (vli_shared_mutex_init(&p->lock) < 0)
		return -1;
	atomic_thread_fence(memory_order_seq_cst);
	p->magic = GATE_MAGIC;
	return 0;
}

/* Map the run's gate, creating it if no task of this host has. */
static int open_gate(int n)
{
	char path[VLCFG_PATH_MAX + 96], tmp[VLCFG_PATH_MAX + 128], host[64] = "";
	int fd = -1, tries;
	void *p;

	gethostname(host, sizeof host - 1);
	snprintf(path, sizeof path, "%s/.vlayer-cpus.%s", vli_trace_dir(), host);
	snprintf(tmp, sizeof tmp, "%s.%d", path, (int)getpid());
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		/* made whole under another name, then linked into place: a task
		 * that opens it finds it set up, or waits for the magic */
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)sizeof(gate)) < 0)
			goto fail;
		p = mmap(NULL, sizeof(gate), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED || init_gate(p, n) < 0)
			goto fail;
		if (link(tmp, path) == 0) {
			unlink(tmp);
			close(fd);
			g = p;
			return 0;
		}
		munmap(p, sizeof(gate));
		close(fd);
		unlink(tmp);
		fd = open(path, O_RDWR | O_CLOEXEC); /* another task was first */
		if (fd < 0)
			return -1;
	}
	p = mmap(NULL, sizeof(gate), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -1;
	for (tries = 0; tries < 2000 && ((gate *)p)->magic != GATE_MAGIC; tries++)
		usleep(1000);
	if (((gate *)p)->magic != GATE_MAGIC || ((gate *)p)->size != sizeof(gate)) {
		munmap(p, sizeof(gate));
		return -1;
	}
	g = p;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

/* This task's entry in proc[]: a free one (also one a task that ended gave
 * up), or one of a task that died. */
static int join(void)
{
	int i, pid = (int)getpid(), n;

	for (i = 0; i < GATE_PROCS; i++) {
		int old = atomic_load(&g->proc[i].pid);
		if (old == 0) {
			int want = 0;
			if (atomic_compare_exchange_strong(&g->proc[i].pid, &want, pid))
				break;
			continue;
		}
		if (old > 0 && old != pid && kill(old, 0) < 0 && errno == ESRCH &&
		    atomic_compare_exchange_strong(&g->proc[i].pid, &old, pid))
			break;
	}
	if (i == GATE_PROCS)
		return -1;
	atomic_store(&g->proc[i].state, W_IDLE);
	while ((n = atomic_load(&g->nprocs)) <= i &&
	       !atomic_compare_exchange_weak(&g->nprocs, &n, i + 1))
		;
	return i;
}

/* A child forked by the task (and not exec'd) neither holds the parent's
 * token nor has its entry: it computes without the gate. */
static void in_child(void)
{
	off = 1;
	held = -1;
}

static int ready(void)
{
	int n;

	if (off || !vli_main_thread)
		return 0;
	if (g)
		return 1;
	pthread_atfork(NULL, NULL, in_child);
	n = want_cpus();
	if (n <= 0 || open_gate(n) < 0 || (me = join()) < 0) {
		off = 1;
		if (n > 0)
			vli_warn("the CPU gate could not be set up in %s: tasks compute without it",
				 vli_trace_dir());
		return 0;
	}
	return 1;
}

static void pin(int k)
{
	cpu_set_t set;
	int c = g->cpu[k];

	if (c < 0 || c == pinned)
		return;
	CPU_ZERO(&set);
	CPU_SET(c, &set);
	if (sched_setaffinity(0, sizeof set, &set) == 0)
		pinned = c;
}

/* Token k is now held by process pid, thread tid, under ticket t. */
static void own(int k, int pid, int tid, uint64_t t)
{
	atomic_store(&g->owner_pid[k], pid);
	atomic_store(&g->owner_tid[k], tid);
	atomic_store(&g->owner[k], t);
}

static uint64_t new_ticket(void)
{
	return ((uint64_t)(uint32_t)getpid() << 32) | ++nticket;
}

/* Take a free token, the lowest (or the one this task was pinned to); -1. */
static int grab(void)
{
	uint64_t f = atomic_load(&g->free);

	while (f) {
		int k = __builtin_ctzll(f);
		if (pinned >= 0) {
			int j;
			for (j = 0; j < g->ncpu; j++)
				if (g->cpu[j] == pinned && (f >> j) & 1)
					k = j;
		}
		if (atomic_compare_exchange_weak(&g->free, &f, f & ~(1ULL << k)))
			return k;
	}
	return -1;
}

/* Under the lock: hand free tokens to the waiters, smallest virtual time
 * first; nwait is made the number still waiting (it is only a hint outside
 * the lock, and a task that ended while waiting leaves it too high). */
static void grant_locked(void)
{
	for (;;) {
		int i, best = -1, n = atomic_load(&g->nprocs), waiting = 0, k;

		for (i = 0; i < n; i++) {
			gate_proc *q = &g->proc[i];
			if (atomic_load(&q->state) != W_WAITING || atomic_load(&q->pid) <= 0)
				continue;
			waiting++;
			if (best < 0 || q->now < g->proc[best].now ||
			    (q->now == g->proc[best].now && q->id < g->proc[best].id))
				best = i;
		}
		atomic_store(&g->nwait, waiting);
		if (best < 0 || (k = grab()) < 0)
			return;
		own(k, atomic_load(&g->proc[best].pid), g->proc[best].tid, g->proc[best].ticket);
		atomic_store(&g->proc[best].token, k);
		atomic_store(&g->proc[best].state, W_GRANTED);
		atomic_fetch_sub(&g->nwait, 1);
		atomic_fetch_add(&g->proc[best].kick, 1);
		vli_futex_wake(&g->proc[best].kick);
	}
}

/* Give token k back if ticket t still holds it; 1 if it did. */
static int give_back(int k, uint64_t t)
{
	uint64_t want = t;

	if (!atomic_compare_exchange_strong(&g->owner[k], &want, 0))
		return 0;
	atomic_fetch_or(&g->free, 1ULL << k);
	return 1;
}

/* Whether thread tid of pid is running or runnable (state R in
 * /proc/PID/task/TID/stat); 1 if unknown. */
static int runnable(int pid, int tid)
{
	char path[64], buf[512];
	const char *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
	if (!(f = fopen(path, "r")))
		return 1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')'); /* the name may hold anything */
	return !p || p[1] != ' ' || p[2] == 'R';
}

/* A waiter's look at the holders (under the lock): take back the tokens of
 * holders that died, or that do not compute: not runnable now, and less than
 * a quarter of a processor used since the last look (seen[k], at real time
 * seen_at[k]).  A holder that computes but waits for a processor (this
 * host is busy) keeps its token. */
static void reclaim_locked(int64_t *seen, int64_t *seen_at, uint64_t *seen_t)
{
	int k;
	int64_t now = vli_mono_ns();

	for (k = 0; k < g->ncpu; k++) {
		uint64_t t = atomic_load(&g->owner[k]);
		int pid = atomic_load(&g->owner_pid[k]);
		int64_t cpu;

		if (!t || pid <= 0)
			continue;
		cpu = vli_thread_cpu(pid, atomic_load(&g->owner_tid[k]));
		if (cpu < 0) {
			if (kill(pid, 0) < 0 && errno == ESRCH)
				give_back(k, t);
			continue;
		}
		if (seen_t[k] == t && now - seen_at[k] >= GATE_NAP_NS &&
		    cpu - seen[k] < (now - seen_at[k]) / 4 &&
		    !runnable(pid, atomic_load(&g->owner_tid[k]))) {
			give_back(k, t); /* it does not compute */
			continue;
		}
		if (seen_t[k] != t || now - seen_at[k] >= GATE_NAP_NS) {
			seen_t[k] = t;
			seen[k] = cpu;
			seen_at[k] = now;
		}
	}
}

void vli_cpugate_take(void)
{
	gate_proc *q;
	int k;
	int64_t seen[GATE_TOKENS], seen_at[GATE_TOKENS];
	uint64_t seen_t[GATE_TOKENS];

	if (held >= 0 || !ready())
		return;
	if (atomic_load(&g->nwait) == 0 && (k = grab()) >= 0) {
		own(k, (int)getpid(), (int)gettid(), ticket = new_ticket());
		held = k;
		pin(k);
		return;
	}
	q = &g->proc[me];
	lock();
	q->now = vli_t.now;
	q->id = vli_t.id;
	q->tid = (int)gettid();
	q->ticket = ticket = new_ticket();
	atomic_store(&q->state, W_WAITING);
	atomic_fetch_add(&g->nwait, 1);
	grant_locked();
	unlock();
	memset(seen_t, 0, sizeof seen_t);
	for (;;) {
		uint32_t kick = atomic_load(&q->kick);
		if (atomic_load(&q->state) == W_GRANTED)
			break;
		vli_board_sleep_ns(&q->kick, kick, GATE_NAP_NS);
		if (atomic_load(&q->state) == W_GRANTED)
			break;
		lock();
		reclaim_locked(seen, seen_at, seen_t);
		grant_locked();
		unlock();
	}
	k = atomic_load(&q->token);
	atomic_store(&q->state, W_IDLE);
	held = k;
	pin(k);
}

void vli_cpugate_give(void)
{
	if (held < 0 || !g || !vli_main_thread)
		return;
	give_back(held, ticket);
	held = -1;
	/* (from a signal handler that interrupted the task in the gate: the
	 * waiters take the free token when they next look) */
	if (atomic_load(&g->nwait) > 0 && !locked) {
		lock();
		grant_locked();
		unlock();
	}
}

void vli_cpugate_end(void)
{
	gate_proc *q;
	int was_locked = locked;

	if (!g || me < 0)
		return;
	vli_cpugate_give();
	/* ended while waiting (killed): no longer a waiter, and a token granted
	 * meanwhile goes back */
	q = &g->proc[me];
	if (!was_locked)
		lock();
	if (atomic_exchange(&q->state, W_IDLE) == W_GRANTED)
		give_back(atomic_load(&q->token), q->ticket);
	atomic_store(&q->pid, 0);
	if (!was_locked) {
		grant_locked();
		unlock();
	}
	off = 1;
}

void vli_cpugate_install(void)
{
	vli_on_gate(vli_cpugate_take, vli_cpugate_give, vli_cpugate_end);
}
