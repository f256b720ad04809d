/* tcpprobe.c - plain TCP transfers on the emulated cluster (test_cluster),
 * to see whether it carries both directions of a link at once at its rate.
 *   tcpprobe serve PORT BYTES   take one connection, read BYTES, answer 1 byte
 *   tcpprobe send HOST PORT BYTES   send BYTES, wait for the answer; prints
 *                                   the seconds it took
 * Exit status 1 on any error (with a message). */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int die(const char *what)
{
	perror(what);
	return 1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int serve(int port, long n)
{
	struct sockaddr_in a;
	int s = socket(AF_INET, SOCK_STREAM, 0), c, one = 1;
	char buf[65536];
	long got = 0;
	ssize_t k;

	if (s < 0)
		return die("socket");
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons((unsigned short)port);
	if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 1) < 0)
		return die("bind/listen");
	if ((c = accept(s, NULL, NULL)) < 0)
		return die("accept");
	while (got < n && (k = read(c, buf, sizeof buf)) > 0)
		got += k;
	if (got < n || write(c, "k", 1) != 1)
		return die("read/answer");
	close(c);
	close(s);
	return 0;
}

static int send_to(const char *host, const char *port, long n)
{
	struct addrinfo hint, *ai;
	char *buf = calloc(1, 65536), ack;
	long left = n;
	double t0;
	ssize_t k;
	int s, tries;

	memset(&hint, 0, sizeof hint);
	hint.ai_family = AF_INET;
	hint.ai_socktype = SOCK_STREAM;
	if (!buf || getaddrinfo(host, port, &hint, &ai) != 0)
		return die("getaddrinfo");
	for (tries = 0;; tries++) { /* (the server may not listen yet) */
		if ((s = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			return die("socket");
		if (connect(s, ai->ai_addr, ai->ai_addrlen) == 0)
			break;
		close(s);
		if (tries == 200)
			return die("connect");
		usleep(10000);
	}
	t0 = now();
	while (left > 0) {
		k = write(s, buf, left < 65536 ? (size_t)left : 65536);
		if (k <= 0)
			return die("write");
		left -= k;
	}
	if (read(s, &ack, 1) != 1)
		return die("answer");
	printf("%.6f\n", now() - t0);
	close(s);
	freeaddrinfo(ai);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "serve"))
		return serve(atoi(argv[2]), atol(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "send"))
		return send_to(argv[2], argv[3], atol(argv[4]));
	fprintf(stderr, "usage: tcpprobe serve PORT BYTES | tcpprobe send HOST PORT BYTES\n");
	return 2;
}
