/* order_net.c - virtual order across several real hosts: the run's board
 * server and its clients.
 *
 * The board (board.c) is shared memory, so only the tasks of one real host
 * can map it.  A task of another host keeps virtual order through the board
 * server: a process on the board's host, started by the task that made the
 * board, that acts on the board in that task's name - one thread per task,
 * which runs order.c's own rules (vli_order_serve_as), so that there is one
 * board and one set of rules for every task of the run, whatever its host.
 * The task's calls of order.c go over one TCP connection (vli_order_remote):
 * those that answer wait for the answer, the others (a bound published, a
 * message taken in ...) are sent and not waited for.  One connection keeps
 * their order, which is all the rules need (a sender's announcement is
 * applied before its bound passes the send).
 *
 * A server thread sleeps on the board for its task (the task waits for the
 * answer meanwhile); a deadlock found there is answered, and the task stops
 * with status 4 as on one host.  A connection that breaks before its task
 * has left takes the task off the board (with a warning).  The server ends
 * when no task is connected and every task of the board has ended.
 *
 * Cost: a round trip per call that answers (a send's announcement, every
 * step of a choice), and a task of another host publishes its clock at every
 * layer call (it cannot see whether someone waits).  Computing tasks of other
 * hosts have live bounds through a second connection (see live_poll).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "vlayer/core/board.h"
#include "vlayer/core/engine.h"

enum {
	OP_JOIN = 1, OP_MODEL, OP_RESERVE, OP_BIND, OP_GONE, OP_FORGET, OP_ANNOUNCE, OP_RECEIVED,
	OP_BOUND_OF, OP_BEHIND, OP_WAIT_BEGIN, OP_SNAP, OP_BLOCK_ON, OP_COLL_ENTER,
	OP_COLL_LEAVE, OP_SAFE, OP_SLEEP, OP_WAIT_END, OP_GATE_ENTER, OP_GATE_LEAVE, OP_TICK,
	OP_EXIT, OP_RELEASE, OP_RELEASE_SEEN, OP_POKE, OP_TURN, OP_SEG, OP_LIVE_HELLO,
	OP_POST_LB, OP_RDV_POSTS, OP_FLOW, OP_COLL_BLOCKED_BY, OP_WATCH,
	OP_SAFE_AMONG, OP_COLL_DEPS, OP_COLL_WHO
};

/* Live bounds of a task of another host (measured computation): at each
 * leave the task sends its segment's base (OP_SEG: clock, CPU mark, read
 * cost, factor, an even sequence number; odd while in the layer); a second
 * connection (OP_LIVE_HELLO) carries the board server's questions to a
 * thread of the task, which answers with the task's thread CPU time read
 * between two equal even readings of the sequence number (the task turns it
 * odd on entering the layer before it reads its CPU clock), so no more than
 * its clock will count.  The server asks every millisecond while some task
 * waits for the bounds and this one computes (live_poll). */
typedef struct live_ans {
	uint32_t q, pad;
	int64_t cpu;
} live_ans;

/* One request (a COLL_ENTER is followed by count ints) and one answer. */
typedef struct rpc_req {
	int32_t op, how, count, ms;
	int64_t a, b, c, d, now;
	int64_t in[VLI_FLOW_ARGS]; /* OP_FLOW's arguments (its op: how) */
	vli_order_wait w;
	vli_order_gate g;
	char s[112], s2[112];
} rpc_req;

/* OP_RDV_POSTS' payload: a task's published post times (vli_order_set_rdv_posts) */
struct rdv_posts_msg {
	int32_t n, src[VLI_RDV_SRCS];
	int64_t t[VLI_RDV_SRCS];
	int32_t np, pad;
	vli_post posts[VLI_POSTS];
};

typedef struct rpc_rsp {
	int64_t r, out;
	int32_t deadlock, pad;
	vli_order_wait w;
	vli_order_gate g;
} rpc_rsp;

/* Send (out) or receive all n bytes at p: 0, or -1 if the connection broke. */
static int io_all(int fd, void *p, size_t n, int out)
{
	char *c = p;

	while (n) {
		ssize_t k = out ? send(fd, c, n, MSG_NOSIGNAL) : recv(fd, c, n, 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

#define put_all(fd, p, n) io_all(fd, (void *)(p), n, 1)
#define get_all(fd, p, n) io_all(fd, p, n, 0)

/* ---- the server ---- */

static _Atomic int nconn;   /* connections open */
static _Atomic int nserved; /* connections ever */

/* Whether every task of the board has ended (or is not waited for). */
static int board_done(void)
{
	int i, n = atomic_load(&vli_bd->nslots);

	for (i = 0; i < n; i++) {
		int st = atomic_load(&vli_bd->slot[i].state);
		if (st != VLI_SLOT_FREE && st != VLI_SLOT_EXITED && st != VLI_SLOT_OUTSIDE)
			return 0;
	}
	return 1;
}

/* Ask the task in slot (over fd) for its CPU time while some task waits for
 * the bounds and it computes, every millisecond, until the connection ends. */
static void live_poll(int fd, int slot)
{
	live_ans la;
	char c = 'q';

	if (slot < 0 || slot >= VLI_BOARD_SLOTS)
		return;
	for (;;) {
		vli_slot *s = &vli_bd->slot[slot];
		struct timespec ts = { 0, 1000000 };
		int st = atomic_load(&s->state);

		if (st == VLI_SLOT_EXITED || st == VLI_SLOT_FREE)
			return;
		if (atomic_load(&vli_bd->nwatch) > 0 && st == VLI_SLOT_RUNNING &&
		    !(atomic_load(&s->live_seq) & 1) && atomic_load(&s->live_seq)) {
			if (put_all(fd, &c, 1) < 0 || get_all(fd, &la, sizeof la) < 0)
				return;
			if (!(la.q & 1) && la.cpu >= 0)
				vli_order_serve_cpu(slot, la.q, la.cpu);
		}
		nanosleep(&ts, NULL);
	}
}

/* Serve one task of another host until its connection ends. */
/* The count task ids (at most max) that follow a request, into *ids. */
static int get_ids(int fd, int **ids, int count, int max)
{
	int *p = realloc(*ids, sizeof(int) * (size_t)(count > 0 ? count : 1));

	if (!p)
		return -1;
	*ids = p;
	return count < 0 || count > max ? -1 : get_all(fd, p, sizeof(int) * (size_t)count);
}

static void *serve(void *arg)
{
	int fd = (int)(intptr_t)arg, slot = -1, ended = 0, *ids = NULL;
	char fmt[sizeof(((rpc_req *)0)->s)] = "%d";
	rpc_req q;
	rpc_rsp a;

	while (get_all(fd, &q, sizeof q) == 0) {
		int answer = 1;

		memset(&a, 0, sizeof a);
		q.s[sizeof q.s - 1] = q.s2[sizeof q.s2 - 1] = 0;
		if (q.op != OP_JOIN)
			vli_order_serve_as(slot, q.now, q.ms);
		switch (q.op) {
		case OP_JOIN:
			snprintf(fmt, sizeof fmt, "%s", q.s);
			vli_order_serve_as(-1, q.now, q.ms);
			a.r = slot = vli_order_serve_join((int)q.a, (int)q.b, (int)q.c, q.now, q.d, fmt);
			break;
		case OP_MODEL:
			vli_order_serve_la(q.a);
			answer = 0;
			break;
		case OP_RESERVE:
			a.r = vli_order_reserve(q.a, (int)q.b);
			break;
		case OP_BIND:
			vli_order_bind((int)q.a, (int)q.b);
			answer = 0;
			break;
		case OP_GONE:
			vli_order_gone((int)q.a, (int)q.b);
			answer = 0;
			break;
		case OP_FORGET:
			vli_order_forget((int)q.a);
			answer = 0;
			break;
		case OP_ANNOUNCE:
			a.r = vli_order_announce_in((int)q.a, q.b, (int)q.c);
			break;
		case OP_RECEIVED:
			vli_order_received_in((int)q.a);
			answer = 0;
			break;
		case OP_BOUND_OF:
			a.r = vli_order_bound_of((int)q.a);
			break;
		case OP_COLL_BLOCKED_BY:
			a.r = vli_order_coll_blocked_by((int)q.a);
			break;
		case OP_WATCH:
			vli_order_watch((int)q.a);
			answer = 0;
			break;
		case OP_BEHIND:
			a.r = vli_order_behind_in((int)q.a);
			break;
		case OP_WAIT_BEGIN:
			vli_order_wait_begin(&a.w, "%s", q.s);
			answer = 0;
			break;
		case OP_SNAP:
			a.w = q.w;
			vli_order_snap(&a.w);
			break;
		case OP_BLOCK_ON:
			vli_order_block_on(q.a, q.how, (uint64_t)q.b, (uint64_t)q.c);
			answer = 0;
			break;
		case OP_COLL_ENTER:
			if (get_ids(fd, &ids, q.count, VLI_BOARD_SLOTS) < 0)
				goto out;
			vli_order_coll_enter((uint64_t)q.a, (uint64_t)q.b, q.count, ids);
			answer = 0;
			break;
		case OP_COLL_DEPS:
			if (get_ids(fd, &ids, q.count, VLI_BOARD_SLOTS) < 0)
				goto out;
			vli_order_coll_deps((uint64_t)q.a, (uint64_t)q.b, q.count, ids);
			answer = 0;
			break;
		case OP_COLL_WHO: { /* (followed by count ints; answered by count
				     * bounds and count in-flags) */
			int64_t *lb;
			unsigned char *in;
			if (get_ids(fd, &ids, q.count, VLI_BOARD_SLOTS) < 0)
				goto out;
			lb = calloc((size_t)q.count + 1, sizeof *lb);
			in = calloc((size_t)q.count + 1, 1);
			if (!lb || !in) {
				free(lb);
				free(in);
				goto out;
			}
			a.r = vli_order_coll_who((uint64_t)q.a, (uint64_t)q.b, q.count, ids, lb, in, &a.out);
			if (put_all(fd, &a, sizeof a) < 0 ||
			    put_all(fd, lb, sizeof *lb * (size_t)q.count) < 0 ||
			    put_all(fd, in, (size_t)q.count) < 0) {
				free(lb);
				free(in);
				goto out;
			}
			free(lb);
			free(in);
			answer = 0;
			break;
		}
		case OP_COLL_LEAVE:
			vli_order_coll_leave((uint64_t)q.a, (uint64_t)q.b);
			answer = 0;
			break;
		case OP_SAFE:
			a.r = q.a < 0 ? vli_order_safe_in(q.b, (int)(-1 - q.a)) : vli_order_safe_from((int)q.a, q.b);
			break;
		case OP_SLEEP:
			a.w = q.w;
			vli_order_sleep(&a.w, q.how);
			a.deadlock = vli_order_served_deadlock();
			break;
		case OP_WAIT_END:
			a.w = q.w;
			vli_order_wait_end(&a.w);
			break;
		case OP_GATE_ENTER:
			vli_order_gate_enter(&a.g, q.s, q.count, q.a, q.s2);
			break;
		case OP_GATE_LEAVE:
			a.g = q.g;
			a.r = vli_order_gate_leave(&a.g);
			break;
		case OP_TICK:
			vli_order_tick();
			answer = 0;
			break;
		case OP_EXIT:
			vli_order_exit();
			ended = 1;
			break;
		case OP_RELEASE: /* answered: applied before the answer goes */
			vli_order_release((int)q.a);
			break;
		case OP_RELEASE_SEEN:
			vli_order_release_seen((int)q.a);
			answer = 0;
			break;
		case OP_POKE:
			vli_order_poke((int)q.a);
			answer = 0;
			break;
		case OP_POST_LB: {
			uint64_t rel = 0;
			a.r = vli_order_post_lb((int)q.a, (int)q.b, (int)q.c, (uint64_t)q.d, &rel);
			a.w.sig[0] = rel;
			break;
		}
		case OP_RDV_POSTS: {
			struct rdv_posts_msg m;
			if (get_all(fd, &m, sizeof m) < 0)
				goto out;
			if (m.n < 0 || m.n > VLI_RDV_SRCS + 1)
				m.n = 0;
			if (m.np < 0 || m.np > VLI_POSTS + 1)
				m.np = 0;
			vli_order_set_rdv_posts(m.n, m.src, m.t, m.np, m.posts);
			answer = 0;
			break;
		}
		case OP_TURN:
			a.r = vli_order_turn(q.a);
			break;
		case OP_FLOW: /* (followed by count ints) */
			if (get_ids(fd, &ids, q.count, VLI_FLOW_MAXX) < 0)
				goto out;
			a.r = vli_flow_serve(q.how, q.in, ids, q.count, &a.out);
			break;
		case OP_SAFE_AMONG: /* (followed by count ints) */
			if (get_ids(fd, &ids, q.count, VLI_FLOW_MAXX) < 0)
				goto out;
			a.r = vli_order_safe_among_but(ids, q.count, q.b, (int)q.a);
			break;
		case OP_SEG:
			vli_order_serve_segment(slot, (uint32_t)q.count, q.a, q.b, q.c, (uint64_t)q.d);
			answer = 0;
			break;
		case OP_LIVE_HELLO: /* this connection carries live bounds only */
			live_poll(fd, (int)q.a);
			close(fd);
			atomic_fetch_sub(&nconn, 1);
			free(ids);
			return NULL;
		default:
			goto out;
		}
		if (answer && put_all(fd, &a, sizeof a) < 0)
			break;
	}
out:
	if (slot >= 0 && !ended) {
		vli_warn("ordering = virtual: the connection of task %d (another real host) to the "
			 "board server ended before the task did; the others go on without it",
			 atomic_load(&vli_bd->slot[slot].id));
		vli_order_gone(slot, 0);
	}
	free(ids);
	close(fd);
	atomic_fetch_sub(&nconn, 1);
	return NULL;
}

static __attribute__((noreturn)) void server_main(int lfd, pid_t owner)
{
	int64_t idle_since = vli_mono_ns();

	for (;;) {
		struct timeval tv = { 0, 200000 };
		fd_set rd;
		int r;

		FD_ZERO(&rd);
		FD_SET(lfd, &rd);
		r = select(lfd + 1, &rd, NULL, NULL, &tv);
		if (r > 0) {
			int fd = accept(lfd, NULL, NULL), one = 1;
			pthread_t th;
			if (fd >= 0) {
				setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
				atomic_fetch_add(&nconn, 1);
				atomic_fetch_add(&nserved, 1);
				if (pthread_create(&th, NULL, serve, (void *)(intptr_t)fd) == 0)
					pthread_detach(th);
				else
					close(fd), atomic_fetch_sub(&nconn, 1);
			}
		}
		if (atomic_load(&nconn) > 0) {
			idle_since = vli_mono_ns();
			continue;
		}
		/* nobody connected: end once every task has, or (the task that
		 * started the run gone) after 10 s without a connection */
		if (board_done() ||
		    (kill(owner, 0) < 0 && errno == ESRCH && vli_mono_ns() - idle_since > 10000000000LL))
			_exit(0);
	}
}

/* The addresses of this host that others may reach ("PORT IP IP ..."), the
 * loopback last. */
static void local_addrs(int port, char *addr, size_t n)
{
	struct ifaddrs *ifa, *p;
	size_t len;

	snprintf(addr, n, "%d", port);
	if (getifaddrs(&ifa) == 0) {
		for (p = ifa; p; p = p->ifa_next) {
			char ip[INET_ADDRSTRLEN];
			struct sockaddr_in *sin = (struct sockaddr_in *)p->ifa_addr;
			if (!sin || sin->sin_family != AF_INET ||
			    ntohl(sin->sin_addr.s_addr) >> 24 == 127)
				continue;
			inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof ip);
			len = strlen(addr);
			if (len + strlen(ip) + 2 < n)
				snprintf(addr + len, n - len, " %s", ip);
		}
		freeifaddrs(ifa);
	}
	len = strlen(addr);
	snprintf(addr + len, n - len, " 127.0.0.1");
}

int vli_order_serve(char *addr, size_t n)
{
	struct sockaddr_in sa;
	socklen_t sl = sizeof sa;
	int lfd, one = 1, status;
	pid_t owner = getpid(), pid;

	if (!vli_bd)
		return -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_ANY);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 256) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl) < 0) {
		vli_warn("ordering = virtual: cannot start the board server: %s", strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -1;
	}
	local_addrs(ntohs(sa.sin_port), addr, n);
	pid = fork();
	if (pid < 0) {
		vli_warn("ordering = virtual: cannot start the board server: %s", strerror(errno));
		close(lfd);
		return -1;
	}
	if (pid == 0) {
		/* a process of its own (not a child of the task, not in its
		 * session), that never writes the task's trace */
		int fd;
		if (fork() != 0)
			_exit(0);
		setsid();
		for (fd = 3; fd < 1024; fd++)
			if (fd != lfd)
				close(fd);
		for (fd = 1; fd < 32; fd++)
			signal(fd, fd == SIGPIPE ? SIG_IGN : SIG_DFL);
		vli_t.ready = 0;
		vli_t.ended = 1;
		server_main(lfd, owner);
	}
	close(lfd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

/* ---- a client: a task of another host ---- */

static int cfd = -1;
static struct sockaddr_in caddr; /* the server's address that answered */
static int cslot = -1;
static pthread_mutex_t cmu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint32_t cseq;    /* live bounds: even while the task computes */
static clockid_t ccpu;           /* the task's thread CPU clock */
static int cms = 50; /* the task's longest sleep */

static __attribute__((noreturn)) void lost(void)
{
	vli_error(3, "ordering = virtual: the connection to the run's board server broke");
}

/* Send request q (+ extra bytes); with an answer into *a unless a is NULL. */
static void call(rpc_req *q, const void *extra, size_t xn, rpc_rsp *a)
{
	q->now = vli_t.now;
	q->ms = cms;
	pthread_mutex_lock(&cmu);
	if (put_all(cfd, q, sizeof *q) < 0 || (xn && put_all(cfd, extra, xn) < 0) ||
	    (a && get_all(cfd, a, sizeof *a) < 0)) {
		pthread_mutex_unlock(&cmu);
		lost();
	}
	pthread_mutex_unlock(&cmu);
}

/* Ask op (x, y, z, w) and wait for the whole answer *a; returns a->r. */
static int64_t ask_rsp(int op, int64_t x, int64_t y, int64_t z, int64_t w, rpc_rsp *a)
{
	rpc_req q;

	memset(&q, 0, sizeof q);
	q.op = op;
	q.a = x;
	q.b = y;
	q.c = z;
	q.d = w;
	call(&q, NULL, 0, a);
	return a->r;
}

static int64_t ask3(int op, int64_t x, int64_t y, int64_t z)
{
	rpc_rsp a;

	return ask_rsp(op, x, y, z, 0, &a);
}

static int64_t ask(int op, int64_t x, int64_t y)
{
	return ask3(op, x, y, 0);
}

static void tell(int op, int64_t x, int64_t y, int64_t z, int how)
{
	rpc_req q;

	memset(&q, 0, sizeof q);
	q.op = op;
	q.a = x;
	q.b = y;
	q.c = z;
	q.how = how;
	call(&q, NULL, 0, NULL);
}

static void c_model(int64_t la) { tell(OP_MODEL, la, 0, 0, 0); }
static int c_reserve(int64_t start, int host) { return (int)ask(OP_RESERVE, start, host); }
static void c_bind(int slot, int id) { tell(OP_BIND, slot, id, 0, 0); }
static void c_gone(int slot, int outside) { tell(OP_GONE, slot, outside, 0, 0); }
static void c_forget(int id) { tell(OP_FORGET, id, 0, 0, 0); }
static int c_announce(int id, int64_t arrival, int side) { return (int)ask3(OP_ANNOUNCE, id, arrival, side); }
static void c_received(int side) { tell(OP_RECEIVED, side, 0, 0, 0); }
static int64_t c_bound_of(int id) { return ask(OP_BOUND_OF, id, 0); }
static int c_coll_blocked_by(int id) { return (int)ask(OP_COLL_BLOCKED_BY, id, 0); }
static void c_watch(int on) { tell(OP_WATCH, on, 0, 0, 0); }
static int c_behind(void) { return (int)ask(OP_BEHIND, 0, 0); }
static int c_behind_side(int side) { return (int)ask(OP_BEHIND, side, 0); }
static int c_safe(int id, int64_t tau) { return (int)ask(OP_SAFE, id, tau); }
static void c_tick(int64_t now) { (void)now; tell(OP_TICK, 0, 0, 0, 0); }
static void c_coll_leave(uint64_t on, uint64_t n) { tell(OP_COLL_LEAVE, (int64_t)on, (int64_t)n, 0, 0); }
static void c_release(int id) { ask(OP_RELEASE, id, 0); }
static void c_release_seen(int from) { tell(OP_RELEASE_SEEN, from, 0, 0, 0); }
static void c_poke(int id) { tell(OP_POKE, id, 0, 0, 0); }
static int c_turn(int64_t t) { return (int)ask(OP_TURN, t, 0); }

static void c_block_on(int64_t lb, int how, uint64_t on, uint64_t n)
{
	tell(OP_BLOCK_ON, lb, (int64_t)on, (int64_t)n, how);
}

static void c_wait_begin(const char *what)
{
	rpc_req q;

	memset(&q, 0, sizeof q);
	q.op = OP_WAIT_BEGIN;
	snprintf(q.s, sizeof q.s, "%s", what);
	call(&q, NULL, 0, NULL);
}

/* A request about wait *w, answered with its new value. */
static void wait_op(int op, vli_order_wait *w, int how)
{
	rpc_req q;
	rpc_rsp a;

	memset(&q, 0, sizeof q);
	q.op = op;
	q.how = how;
	q.w = *w;
	call(&q, NULL, 0, &a);
	*w = a.w;
	if (a.deadlock)
		vli_order_deadlock_exit(a.deadlock, "the board server's report");
}

static void c_snap(vli_order_wait *w) { wait_op(OP_SNAP, w, 0); }
static void c_sleep(vli_order_wait *w, int how, int ms) { cms = ms; wait_op(OP_SLEEP, w, how); }
static void c_wait_end(vli_order_wait *w) { wait_op(OP_WAIT_END, w, 0); }

static void coll_ids(int op, uint64_t on, uint64_t n, int count, const int *ids)
{
	rpc_req q;

	memset(&q, 0, sizeof q);
	q.op = op;
	q.a = (int64_t)on;
	q.b = (int64_t)n;
	q.count = count;
	call(&q, ids, sizeof(int) * (size_t)count, NULL);
}

static void c_coll_enter(uint64_t on, uint64_t n, int count, const int *ids)
{
	coll_ids(OP_COLL_ENTER, on, n, count, ids);
}

static void c_coll_deps(uint64_t on, uint64_t n, int count, const int *ids)
{
	coll_ids(OP_COLL_DEPS, on, n, count, ids);
}

static void c_gate_enter(vli_order_gate *g, const char *key, int count, int64_t entry,
			 const char *what)
{
	rpc_req q;
	rpc_rsp a;

	memset(&q, 0, sizeof q);
	q.op = OP_GATE_ENTER;
	q.a = entry;
	q.count = count;
	snprintf(q.s, sizeof q.s, "%s", key);
	snprintf(q.s2, sizeof q.s2, "%s", what);
	call(&q, NULL, 0, &a);
	*g = a.g;
}

static int64_t c_gate_leave(vli_order_gate *g)
{
	rpc_req q;
	rpc_rsp a;

	memset(&q, 0, sizeof q);
	q.op = OP_GATE_LEAVE;
	q.g = *g;
	call(&q, NULL, 0, &a);
	*g = a.g;
	return a.r;
}

static void c_exit(void)
{
	if (cfd < 0)
		return;
	ask(OP_EXIT, 0, 0);
	vli_on_segment(NULL, NULL);
	vli_order_remote = NULL;
	close(cfd);
	cfd = -1;
}

static int64_t c_post_lb(int id, int src_id, int tag, uint64_t comm, uint64_t *released)
{
	rpc_rsp a;
	int64_t r = ask_rsp(OP_POST_LB, id, src_id, tag, (int64_t)comm, &a);

	*released = a.w.sig[0];
	return r;
}

static void c_rdv_posts(int n, const int *src_id, const int64_t *t, int np,
			const vli_post *posts)
{
	struct rdv_posts_msg m;
	rpc_req q;
	int i;

	memset(&m, 0, sizeof m);
	m.n = n;
	for (i = 0; i < n && i < VLI_RDV_SRCS; i++) {
		m.src[i] = src_id[i];
		m.t[i] = t[i];
	}
	m.np = np;
	for (i = 0; i < np && i < VLI_POSTS; i++)
		m.posts[i] = posts[i];
	memset(&q, 0, sizeof q);
	q.op = OP_RDV_POSTS;
	call(&q, &m, sizeof m, NULL);
}

static int64_t c_flow(int op, const int64_t *in, const int32_t *xs, int nx, int64_t *out)
{
	rpc_req q;
	rpc_rsp a;

	if (nx > VLI_FLOW_MAXX)
		vli_error(3, "ordering = virtual: %d values for the board server at once", nx);
	memset(&q, 0, sizeof q);
	q.op = OP_FLOW;
	q.how = op;
	q.count = nx;
	memcpy(q.in, in, sizeof q.in);
	call(&q, xs, sizeof(int32_t) * (size_t)nx, &a);
	*out = a.out;
	return a.r;
}

static int c_safe_among(const int *ids, int n, int64_t tau, int skip_id)
{
	rpc_req q;
	rpc_rsp a;

	if (n > VLI_FLOW_MAXX)
		return 0; /* (not known: not safe) */
	memset(&q, 0, sizeof q);
	q.op = OP_SAFE_AMONG;
	q.a = skip_id;
	q.b = tau;
	q.count = n;
	call(&q, ids, sizeof(int32_t) * (size_t)n, &a);
	return (int)a.r;
}

static int c_coll_who(uint64_t on, uint64_t n, int count, const int *ids, int64_t *lb,
		      unsigned char *in, int64_t *free_lb)
{
	rpc_req q;
	rpc_rsp a;

	if (count < 0 || count > VLI_BOARD_SLOTS)
		return -1;
	memset(&q, 0, sizeof q);
	q.op = OP_COLL_WHO;
	q.a = (int64_t)on;
	q.b = (int64_t)n;
	q.count = count;
	q.now = vli_t.now;
	q.ms = cms;
	pthread_mutex_lock(&cmu);
	if (put_all(cfd, &q, sizeof q) < 0 || put_all(cfd, ids, sizeof(int) * (size_t)count) < 0 ||
	    get_all(cfd, &a, sizeof a) < 0 || get_all(cfd, lb, sizeof *lb * (size_t)count) < 0 ||
	    get_all(cfd, in, (size_t)count) < 0) {
		pthread_mutex_unlock(&cmu);
		lost();
	}
	pthread_mutex_unlock(&cmu);
	*free_lb = a.out;
	return (int)a.r;
}

static const vli_order_remote_ops client_ops = {
	c_model, c_reserve, c_bind, c_gone, c_forget, c_announce, c_received, c_bound_of,
	c_behind, c_behind_side, c_wait_begin, c_snap, c_block_on, c_coll_enter, c_coll_leave, c_safe,
	c_sleep, c_wait_end, c_gate_enter, c_gate_leave, c_tick, c_exit, c_release,
	c_release_seen, c_poke, c_turn, c_post_lb, c_rdv_posts, c_flow, c_coll_blocked_by, c_watch,
	c_safe_among, c_coll_deps, c_coll_who
};

static void c_seg_begin(void)
{
	rpc_req q;
	double f;
	uint32_t s = (atomic_load(&cseq) | 1) + 1;

	if (cfd < 0)
		return; /* (the task has left the board) */
	memset(&q, 0, sizeof q);
	q.op = OP_SEG;
	vli_segment_base(&q.a, &q.b, &q.c, &f);
	memcpy(&q.d, &f, sizeof f);
	q.count = (int32_t)s;
	call(&q, NULL, 0, NULL);
	atomic_store(&cseq, s);
}

static void c_seg_end(void)
{
	atomic_store(&cseq, atomic_load(&cseq) | 1);
}

/* The task's thread that answers the board server's questions for its CPU
 * time (over its own connection fd). */
static void *live_answer(void *arg)
{
	int fd = (int)(intptr_t)arg;
	char c;

	while (get_all(fd, &c, 1) == 0) {
		live_ans la = { 0, 0, -1 };
		struct timespec ts;
		uint32_t q = atomic_load(&cseq), g;
		int64_t passed, cap, p2, c2, cpu = 0;

		/* the server has the segment's CPU mark: the CPU time of the calls
		 * passed through since (vli_pass_end) is not computation, and inside
		 * one the computation is frozen at its entry */
		g = vli_segment_passed(&passed, &cap);
		if (cap < 0 && clock_gettime(ccpu, &ts) == 0)
			cpu = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		if (!(q & 1) && !(g & 1) && (cap >= 0 || cpu > 0) &&
		    vli_segment_passed(&p2, &c2) == g && p2 == passed && c2 == cap &&
		    atomic_load(&cseq) == q) {
			la.q = q;
			la.cpu = (cap >= 0 ? cap : cpu) - passed;
		} else {
			la.q = 1;
		}
		if (put_all(fd, &la, sizeof la) < 0)
			break;
	}
	close(fd);
	return NULL;
}

/* Live bounds (measured computation): the second connection and its thread. */
static void live_start(void)
{
	pthread_t th;
	pthread_attr_t at;
	rpc_req q;
	sigset_t all, old;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	if (fd < 0 || connect(fd, (struct sockaddr *)&caddr, sizeof caddr) != 0 ||
	    pthread_getcpuclockid(pthread_self(), &ccpu) != 0) {
		if (fd >= 0)
			close(fd);
		return; /* no live bounds: the others wait for its next call */
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	memset(&q, 0, sizeof q);
	q.op = OP_LIVE_HELLO;
	q.a = cslot;
	if (put_all(fd, &q, sizeof q) < 0) {
		close(fd);
		return;
	}
	/* the thread takes no signal of the program's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&th, &at, live_answer, (void *)(intptr_t)fd) != 0)
		close(fd);
	pthread_attr_destroy(&at);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	vli_on_segment(c_seg_begin, c_seg_end);
}

int vli_order_connect(const char *addr, int slot, const char *fmt)
{
	char buf[1024], *save = NULL, *tok;
	int port, one = 1;
	rpc_req q;
	rpc_rsp a;

	if (vli_t.cfg.ordering_real || !addr || !*addr)
		return -1;
	snprintf(buf, sizeof buf, "%s", addr);
	tok = strtok_r(buf, " ", &save);
	port = tok ? atoi(tok) : 0;
	while (port > 0 && cfd < 0 && (tok = strtok_r(NULL, " ", &save))) {
		struct sockaddr_in sa;
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		memset(&sa, 0, sizeof sa);
		sa.sin_family = AF_INET;
		sa.sin_port = htons((uint16_t)port);
		if (fd >= 0 && inet_pton(AF_INET, tok, &sa.sin_addr) == 1 &&
		    connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
			cfd = fd;
			caddr = sa;
		}
		else if (fd >= 0)
			close(fd);
	}
	if (cfd < 0) {
		vli_warn("ordering = virtual: cannot reach the run's board server at %s; choices "
			 "that involve this task follow real arrival", addr);
		return -1;
	}
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	memset(&q, 0, sizeof q);
	q.op = OP_JOIN;
	q.a = slot;
	q.b = vli_t.id;
	q.c = vli_t.host;
	q.d = vli_lookahead(&vli_t.cfg);
	snprintf(q.s, sizeof q.s, "%s", fmt ? fmt : "%d");
	call(&q, NULL, 0, &a);
	if (a.r < 0) {
		close(cfd);
		cfd = -1;
		vli_error(2, "ordering = virtual: more than %d tasks in one run; use [simulation] "
			  "ordering = real", VLI_BOARD_SLOTS);
	}
	cslot = (int)a.r;
	vli_order_remote = &client_ops;
	vli_on_leave(vli_order_tick);
	vli_on_finish(vli_order_exit);
	if (!vli_t.cfg.compute_ignore)
		live_start();
	return 0;
}
