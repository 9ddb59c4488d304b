// SPDX-License-Identifier: GPL-2.0
/*
 * netload_bulk.c - background load that keeps NET_RX/NET_TX (or the napi threads)
 * busy while the request/response stream measures: a paced UDP flood and TCP bulk
 * streams, always from namespace A to namespace B, never anywhere else.
 */
#define DEFERBENCH_ALLOW_NETLOAD_INT_H
#include "netload_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "netrr.h"
#include "msg.h"
#include "sys.h"

#define FLOOD_BATCH 64
#define FLOOD_TICK_NS NSEC_PER_MSEC
#define SINK_BUF 2048		/* a flood sink only counts datagrams: truncation is fine */
#define TCP_CHUNK (64 << 10)

int netload_flood_open(struct netload *l, char *errbuf)
{
	int err;

	l->flood_fd[NETNS_B] = netns_udp_bind(l->pair, NETNS_B, NETLOAD_PORT_FLOOD);
	if (l->flood_fd[NETNS_B] < 0)
		return set_err(errbuf, "flood sink socket: %s", strerror(-l->flood_fd[NETNS_B])),
		       l->flood_fd[NETNS_B];
	l->flood_fd[NETNS_A] = netns_udp_connect(l->pair, NETNS_A, NETLOAD_PORT_FLOOD);
	if (l->flood_fd[NETNS_A] < 0)
		return set_err(errbuf, "flood socket: %s", strerror(-l->flood_fd[NETNS_A])),
		       l->flood_fd[NETNS_A];
	err = netload_rcvtimeo(l->flood_fd[NETNS_B], NETLOAD_POLL_NS);
	return err ? set_err(errbuf, "flood sink: %s", strerror(-err)), err : 0;
}

/* flood_due - datagrams that should have left by @now */
static uint64_t flood_due(uint64_t t0, uint64_t now, uint64_t rate)
{
	return (uint64_t)((unsigned __int128)(now - t0) * rate / NSEC_PER_SEC);
}

/*
 * flood_first - the index of the first datagram due at or after the window's start:
 * flood_due() of that instant (UINT64_MAX while an announced window is not open)
 */
static uint64_t flood_first(const struct netload *l, uint64_t t0)
{
	uint64_t from = l->cfg.window ? __atomic_load_n(l->cfg.window, __ATOMIC_RELAXED) : 0;

	if (from <= t0)
		return 0;
	return from == UINT64_MAX ? UINT64_MAX : flood_due(t0, from, l->cfg.flood_rate);
}

/* in_window - how many of the n datagrams from index done on are at or after first */
static uint64_t in_window(uint64_t done, uint64_t n, uint64_t first)
{
	if (done >= first)
		return n;
	return first - done >= n ? 0 : n - (first - done);
}

void *netload_flood(void *arg)
{
	struct netload *l = arg;
	struct netload_stats *st = &l->st;
	uint8_t payload[NETRR_MAX_LEN];
	struct mmsghdr msg[FLOOD_BATCH];
	struct iovec iov = { payload, l->cfg.flood_size };
	uint64_t t0 = now_ns(), tick = t0, due, done = 0, first;
	struct timespec ts;
	int i, n, want;

	memset(payload, 0, l->cfg.flood_size);
	memset(msg, 0, sizeof(msg));
	for (i = 0; i < FLOOD_BATCH; i++) {
		msg[i].msg_hdr.msg_iov = &iov;
		msg[i].msg_hdr.msg_iovlen = 1;
	}
	while (!atomic_load_explicit(&l->stop_send, memory_order_relaxed)) {
		due = flood_due(t0, now_ns(), l->cfg.flood_rate);
		first = flood_first(l, t0);
		while (done < due && !atomic_load_explicit(&l->stop_send, memory_order_relaxed)) {
			want = due - done > FLOOD_BATCH ? FLOOD_BATCH : (int)(due - done);
			n = sendmmsg(l->flood_fd[NETNS_A], msg, want, 0);
			if (n <= 0) {
				/* counted and skipped: a flood that cannot send must not spin */
				st->flood_send_errors += in_window(done, want, first);
				n = want;
			} else {
				st->flood_sent += in_window(done, n, first);
			}
			done += n;
		}
		tick += FLOOD_TICK_NS;
		ts.tv_sec = tick / NSEC_PER_SEC;
		ts.tv_nsec = tick % NSEC_PER_SEC;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return NULL;
}

void *netload_flood_sink(void *arg)
{
	struct netload *l = arg;
	uint8_t buf[FLOOD_BATCH][SINK_BUF];
	struct mmsghdr msg[FLOOD_BATCH];
	struct iovec iov[FLOOD_BATCH];
	int i, n;

	for (i = 0; i < FLOOD_BATCH; i++) {
		iov[i] = (struct iovec){ buf[i], SINK_BUF };
		msg[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i], .msg_iovlen = 1 };
	}
	while (!atomic_load(&l->stop_all)) {
		n = recvmmsg(l->flood_fd[NETNS_B], msg, FLOOD_BATCH, MSG_WAITFORONE, NULL);
		if (n > 0 && netload_in_window(l, now_ns()))
			l->st.flood_received += n;
	}
	return NULL;
}

/* tcp_connect_one - a stream from A to B's listener, accepted on B */
static int tcp_connect_one(struct netload *l, unsigned int i)
{
	struct sockaddr_in sa;
	int fd;

	fd = netns_socket(l->pair, NETNS_A, AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	l->tcp_fd[NETNS_A][i] = fd;
	netns_sockaddr(l->pair, NETNS_B, NETLOAD_PORT_TCP, &sa);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -errno;
	fd = accept4(l->tcp_listen, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return -errno;
	l->tcp_fd[NETNS_B][i] = fd;
	if (fcntl(l->tcp_fd[NETNS_A][i], F_SETFL, O_NONBLOCK))
		return -errno;
	return 0;
}

int netload_tcp_open(struct netload *l, char *errbuf)
{
	struct sockaddr_in sa;
	int one = 1, err;
	unsigned int i;

	l->tcp_listen = netns_socket(l->pair, NETNS_B, AF_INET, SOCK_STREAM, 0);
	if (l->tcp_listen < 0)
		return set_err(errbuf, "tcp listener: %s", strerror(-l->tcp_listen)), l->tcp_listen;
	netns_sockaddr(l->pair, NETNS_B, NETLOAD_PORT_TCP, &sa);
	setsockopt(l->tcp_listen, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l->tcp_listen, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(l->tcp_listen, NETLOAD_MAX_TCP)) {
		err = -errno;
		return set_err(errbuf, "tcp listener: %s", strerror(-err)), err;
	}
	/* the listen backlog holds every stream, so connect-then-accept cannot block */
	for (i = 0; i < l->cfg.tcp_streams; i++) {
		err = tcp_connect_one(l, i);
		if (err)
			return set_err(errbuf, "tcp stream %u: %s", i, strerror(-err)), err;
		l->ntcp++;
	}
	return 0;
}

/* tcp_pump - poll one side's streams and move data; returns bytes moved */
static uint64_t tcp_pump(struct netload *l, enum netns_side side, uint8_t *buf)
{
	struct pollfd pfd[NETLOAD_MAX_TCP];
	short ev = side == NETNS_A ? POLLOUT : POLLIN;
	uint64_t bytes = 0;
	unsigned int i;
	ssize_t n;

	for (i = 0; i < l->ntcp; i++)
		pfd[i] = (struct pollfd){ .fd = l->tcp_done[side][i] ? -1 : l->tcp_fd[side][i],
					  .events = ev };
	if (poll(pfd, l->ntcp, (int)(NETLOAD_POLL_NS / NSEC_PER_MSEC)) <= 0)
		return 0;
	for (i = 0; i < l->ntcp; i++) {
		if (!(pfd[i].revents & (ev | POLLERR | POLLHUP)))
			continue;
		if (side == NETNS_A)
			n = send(pfd[i].fd, buf, TCP_CHUNK, MSG_NOSIGNAL);
		else
			n = recv(pfd[i].fd, buf, TCP_CHUNK, 0);
		if (n > 0)
			bytes += (uint64_t)n;
		else if (n == 0 || (errno != EAGAIN && errno != EINTR))
			l->tcp_done[side][i] = true;	/* reset or closed: stop polling it */
	}
	return bytes;
}

/* tcp_count - bytes moved at the time of the call, when it is inside the window */
static uint64_t tcp_count(const struct netload *l, uint64_t bytes)
{
	return bytes && netload_in_window(l, now_ns()) ? bytes : 0;
}

void *netload_tcp(void *arg)
{
	struct netload *l = arg;
	uint8_t buf[TCP_CHUNK];

	memset(buf, 0, sizeof(buf));
	while (!atomic_load_explicit(&l->stop_send, memory_order_relaxed))
		l->st.tcp_sent += tcp_count(l, tcp_pump(l, NETNS_A, buf));
	return NULL;
}

void *netload_tcp_sink(void *arg)
{
	struct netload *l = arg;
	uint8_t buf[TCP_CHUNK];

	while (!atomic_load(&l->stop_all))
		l->st.tcp_received += tcp_count(l, tcp_pump(l, NETNS_B, buf));
	return NULL;
}
