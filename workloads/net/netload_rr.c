// SPDX-License-Identifier: GPL-2.0
/*
 * netload_rr.c - the paced UDP request/response stream and its round-trip times.
 *
 * The client is two threads on one connected socket, so that sending never waits for
 * receiving: rr-send follows the schedule whatever the responses do, rr-recv takes
 * the receive timestamp as soon as recv() returns. Both block in the kernel (absolute
 * clock_nanosleep, blocking recv) rather than poll, so SO_BUSY_POLL applies to them.
 */
#define DEFERBENCH_ALLOW_NETLOAD_INT_H
#include "netload_int.h"

#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>

#include "netrr.h"
#include "msg.h"
#include "sys.h"

#define RR_RCVBUF (4 << 20)	/* room for bursts: losses should be the kernel's, not ours */

/* rr_sock_opts - receive timeout for the stop flags, a deep buffer, busy polling */
static int rr_sock_opts(const struct netload *l, int fd)
{
	int buf = RR_RCVBUF, err;

	/* FORCE: a per-socket override of rmem_max, rather than raising the sysctl */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)))
		debug_msg("net: SO_RCVBUFFORCE: %s; keeping the default", strerror(errno));
	err = netload_rcvtimeo(fd, NETLOAD_POLL_NS);
	if (!err && l->cfg.busy_poll_us)
		err = netns_busy_poll(fd, l->cfg.busy_poll_us);
	return err;
}

int netload_rr_open(struct netload *l, char *errbuf)
{
	int err;

	/* four seconds of sequence numbers: a later answer is stale, not a duplicate */
	err = netrr_track_init(&l->track, l->cfg.rate * 4);
	if (err)
		return set_err(errbuf, "net: no memory for the response window"), err;

	l->rr_fd[NETNS_B] = netns_udp_bind(l->pair, NETNS_B, NETLOAD_PORT_RR);
	if (l->rr_fd[NETNS_B] < 0)
		return set_err(errbuf, "responder socket: %s", strerror(-l->rr_fd[NETNS_B])),
		       l->rr_fd[NETNS_B];
	l->rr_fd[NETNS_A] = netns_udp_connect(l->pair, NETNS_A, NETLOAD_PORT_RR);
	if (l->rr_fd[NETNS_A] < 0)
		return set_err(errbuf, "client socket: %s", strerror(-l->rr_fd[NETNS_A])),
		       l->rr_fd[NETNS_A];
	err = rr_sock_opts(l, l->rr_fd[NETNS_A]);
	if (!err)
		err = rr_sock_opts(l, l->rr_fd[NETNS_B]);
	if (err)
		return set_err(errbuf, "request/response socket options (busy_poll=%u): %s",
			       l->cfg.busy_poll_us, strerror(-err)), err;
	return 0;
}

/* wait_until - absolute sleep to @t, in slices so that a stop is noticed; true if stopped */
static bool wait_until(struct netload *l, uint64_t t)
{
	struct timespec ts;
	uint64_t now;

	while (!atomic_load_explicit(&l->stop_send, memory_order_relaxed)) {
		now = now_ns();
		if (now >= t)
			return false;
		if (t - now > 100 * NSEC_PER_MSEC)
			now += 100 * NSEC_PER_MSEC;
		else
			now = t;
		ts.tv_sec = now / NSEC_PER_SEC;
		ts.tv_nsec = now % NSEC_PER_SEC;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return true;
}

/*
 * rr_counts - is request seq, due at t_sched, in the window? Decided here only: the
 * first one in is published before it is sent, receivers count from it on.
 */
static bool rr_counts(struct netload *l, uint64_t seq, uint64_t t_sched)
{
	uint64_t first = atomic_load_explicit(&l->first_seq, memory_order_relaxed);

	if (first != UINT64_MAX)	/* only this thread stores it */
		return seq >= first;
	if (!netload_in_window(l, t_sched))
		return false;
	atomic_store_explicit(&l->first_seq, seq, memory_order_release);
	return true;
}

/* rr_first - the first request in the window as rr-send published it */
static uint64_t rr_first(struct netload *l)
{
	return atomic_load_explicit(&l->first_seq, memory_order_acquire);
}

void *netload_rr_send(void *arg)
{
	struct netload *l = arg;
	struct netload_stats *st = &l->st;
	struct netrr_msg m = { .cookie = l->cfg.cookie };
	uint64_t rate = l->cfg.rate, i;
	size_t size = l->cfg.size;
	uint8_t buf[NETRR_MAX_LEN];
	bool in;

	memset(buf, 0, size);
	/* the default 50 us timer slack would be added to every deadline */
	prctl(PR_SET_TIMERSLACK, 1UL);
	st->t0 = now_ns() + NSEC_PER_MSEC;
	for (i = 0;; i++) {
		m.t_sched = netrr_deadline(st->t0, i, rate);
		if (wait_until(l, m.t_sched))
			break;
		m.seq = i;
		m.t_sent = now_ns();
		in = rr_counts(l, i, m.t_sched);
		netrr_encode(&m, buf, size);
		if (send(l->rr_fd[NETNS_A], buf, size, 0) < 0) {
			st->send_errors += in;
			continue;
		}
		if (!in)
			continue;
		st->sent++;
		hist_add(&st->send_lag, m.t_sent - m.t_sched);
		ivhist_add(&st->send_lag_iv, netload_window(l), m.t_sched, m.t_sent - m.t_sched);
		st->late += netrr_is_late(m.t_sched, m.t_sent, rate);
	}
	st->t_end = now_ns();
	return NULL;
}

/* drained - after stop: every response in, or the grace period over */
static bool drained(struct netload *l, uint64_t received, uint64_t now)
{
	uint64_t until = atomic_load(&l->drain_until);

	return until && (received >= atomic_load(&l->sent_final) || now >= until);
}

/* record - the three intervals of one response; t_echo sits between t_sent and now */
static void record(const struct netload *l, struct netload_stats *st,
		   const struct netrr_msg *m, uint64_t now)
{
	uint64_t t0 = netload_window(l);

	st->received++;
	hist_add(&st->rtt, now - m->t_sched);
	ivhist_add(&st->rtt_iv, t0, m->t_sched, now - m->t_sched);
	if (m->t_echo >= m->t_sent && now >= m->t_echo) {
		hist_add(&st->fwd, m->t_echo - m->t_sent);
		hist_add(&st->back, now - m->t_echo);
		ivhist_add(&st->fwd_iv, t0, m->t_sched, m->t_echo - m->t_sent);
		ivhist_add(&st->back_iv, t0, m->t_sched, now - m->t_echo);
	}
}

void *netload_rr_recv(void *arg)
{
	struct netload *l = arg;
	struct netload_stats *st = &l->st;
	struct netrr_track *tr = &l->track;
	uint8_t buf[NETRR_MAX_LEN];
	enum netrr_verdict v;
	struct netrr_msg m;
	uint64_t now;
	ssize_t n;

	for (;;) {
		n = recv(l->rr_fd[NETNS_A], buf, sizeof(buf), 0);
		now = now_ns();
		if (n >= 0 && !netrr_decode(buf, (size_t)n, l->cfg.cookie, &m)) {
			/* every response is tracked; those before the window are not counted */
			v = netrr_track_recv(tr, m.seq);
			if (m.seq >= rr_first(l)) {
				st->duplicates += v == NETRR_DUPLICATE;
				st->stale += v == NETRR_STALE;
				if (v != NETRR_DUPLICATE)
					record(l, st, &m, now);
			}
		} else if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
			/* foreign datagram, or an ICMP error reported on the socket */
			st->bad += netload_in_window(l, now);
		}
		if (drained(l, st->received, now))
			break;
	}
	return NULL;
}

void *netload_rr_echo(void *arg)
{
	struct netload *l = arg;
	struct netload_stats *st = &l->st;
	uint8_t buf[NETRR_MAX_LEN];
	struct sockaddr_in src;
	struct netrr_msg m;
	socklen_t slen;
	uint64_t t;
	ssize_t n;
	bool in;

	while (!atomic_load(&l->stop_all)) {
		slen = sizeof(src);
		n = recvfrom(l->rr_fd[NETNS_B], buf, sizeof(buf), 0, (struct sockaddr *)&src, &slen);
		t = now_ns();
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				st->echo_errors += netload_in_window(l, t);
			continue;
		}
		in = !netrr_decode(buf, (size_t)n, l->cfg.cookie, &m) && m.seq >= rr_first(l);
		if (netrr_stamp_echo(buf, (size_t)n, t))
			continue;
		if (sendto(l->rr_fd[NETNS_B], buf, (size_t)n, 0, (struct sockaddr *)&src, slen) < 0)
			st->echo_errors += in;
		else
			st->echoed += in;
	}
	return NULL;
}
