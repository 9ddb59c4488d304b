// SPDX-License-Identifier: GPL-2.0
/*
 * evgen.c - generate kernel events fast, for the offline-analysis benchmark:
 * a parent and a child ping-pong one byte over pipes (sched_switch, sched_wakeup),
 * and every round trip also writes to a pty (workqueue_queue_work ... execute_end
 * of flush_to_ldisc). Runs for the given number of seconds, as fast as it can or at
 * the given number of round trips per second (0: as fast as it can); "pipe" leaves the
 * pty writes out (a round trip is then two wakeups and two switches, nothing else);
 * "udp" ping-pongs over two UDP sockets on loopback instead of pipes, without the pty
 * (each way a NET_RX softirq raised and run, a backlog NAPI poll, a wakeup and a switch:
 * the path of the net workload's hops on one CPU); "tty" only writes 10 bytes to the pty
 * and reads them back each round (a flush_to_ldisc work item queued, a kworker woken,
 * switched in and out, the reader woken: the tty workload's delivery; the kworker is an
 * unbound one, on whichever CPU its pool allows, wherever evgen is pinned):
 *
 *   evgen SECONDS [ROUNDS_PER_SECOND [pipe|udp|tty]]
 */
#include <netinet/in.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* udp_pair - two UDP sockets on 127.0.0.1 connected to each other, as ab[0]/ba[1]
 * (the child's end) and ba[0]/ab[1] (the parent's): read and write work on them as on
 * the pipes */
static int udp_pair(int ab[2], int ba[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET }, b;
	socklen_t len = sizeof(a);
	int s0, s1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	b = a;
	s0 = socket(AF_INET, SOCK_DGRAM, 0);
	s1 = socket(AF_INET, SOCK_DGRAM, 0);
	if (s0 < 0 || s1 < 0 || bind(s0, (void *)&a, sizeof(a)) || bind(s1, (void *)&b, sizeof(b)) ||
	    getsockname(s0, (void *)&a, &len) || (len = sizeof(b), getsockname(s1, (void *)&b, &len)) ||
	    connect(s0, (void *)&b, sizeof(b)) || connect(s1, (void *)&a, sizeof(a)))
		return -1;
	ab[0] = ba[1] = s0;	/* the child reads and answers on s0 */
	ab[1] = ba[0] = s1;	/* the parent on s1 */
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? strtod(argv[1], NULL) : 5.0, end, next;
	double rate = argc > 2 ? strtod(argv[2], NULL) : 0;
	const char *mode = argc > 3 ? argv[3] : "";
	int udp = !strcmp(mode, "udp"), tty = !strcmp(mode, "tty"), pty = !*mode || tty;
	int ab[2], ba[2], master, slave;
	struct termios t;
	char c = 'x', buf[64];
	long rounds = 0;
	pid_t pid;

	if (*mode && !udp && !tty && strcmp(mode, "pipe")) {
		fprintf(stderr, "evgen: unknown mode '%s' (pipe, udp or tty)\n", mode);
		return 1;
	}
	if (secs <= 0 || rate < 0 || (udp ? udp_pair(ab, ba) : pipe(ab) || pipe(ba)) ||
	    openpty(&master, &slave, NULL, NULL, NULL)) {
		perror("evgen");
		return 1;
	}
	cfmakeraw(&t);
	tcsetattr(slave, TCSANOW, &t);
	pid = fork();
	if (pid == 0) {
		if (!udp) {
			close(ab[1]);
			close(ba[0]);
		}
		while (read(ab[0], &c, 1) == 1 && write(ba[1], &c, 1) == 1)
			;
		_exit(0);
	}
	if (!udp) {
		close(ab[0]);
		close(ba[1]);
	}
	next = now();
	end = next + secs;
	while (now() < end) {
		if (rate > 0) {	/* paced: sleep to the next round's absolute time */
			struct timespec ts;

			next += 1 / rate;
			ts.tv_sec = (time_t)next;
			ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		if (!tty && (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1))
			break;
		if (pty && (tty || rounds % 4 == 0) && (write(master, "0123456789", 10) != 10 ||
					read(slave, buf, sizeof(buf)) <= 0))
			break;
		rounds++;
	}
	if (udp)
		kill(pid, SIGTERM);
	else
		close(ab[1]);
	waitpid(pid, NULL, 0);
	printf("evgen: %ld round trips in %.1f s\n", rounds, secs);
	return 0;
}
