// SPDX-License-Identifier: GPL-2.0
/*
 * netload.c - start and stop the network load: sockets first (so that a failure
 * leaves no thread behind), then threads, pinned and with signals blocked; stop in the
 * order that lets every sent request be answered before anything is torn down.
 */
#define DEFERBENCH_ALLOW_NETLOAD_INT_H
#include "netload_int.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netrr.h"
#include "msg.h"
#include "sys.h"

int netload_check(const struct netload_cfg *c, char *errbuf)
{
	if (!c->rate || c->rate > NETLOAD_MAX_RATE)
		return set_err(errbuf, "rate must be 1..%llu", NETLOAD_MAX_RATE);
	if (c->size < NETRR_HDR_LEN || c->size > NETRR_MAX_LEN)
		return set_err(errbuf, "size must be %d..%d bytes (the header is %d)",
			       NETRR_HDR_LEN, NETRR_MAX_LEN, NETRR_HDR_LEN);
	if (c->flood_rate > NETLOAD_MAX_FLOOD)
		return set_err(errbuf, "flood must be 0..%llu datagrams/s", NETLOAD_MAX_FLOOD);
	if (c->flood_rate && (!c->flood_size || c->flood_size > NETRR_MAX_LEN))
		return set_err(errbuf, "flood_size must be 1..%d bytes", NETRR_MAX_LEN);
	if (c->tcp_streams > NETLOAD_MAX_TCP)
		return set_err(errbuf, "tcp must be 0..%d streams", NETLOAD_MAX_TCP);
	if (c->busy_poll_us > NETLOAD_MAX_BUSY_POLL)
		return set_err(errbuf, "busy_poll must be 0..%u us", NETLOAD_MAX_BUSY_POLL);
	return 0;
}

int netload_rcvtimeo(int fd, uint64_t ns)
{
	struct timeval tv = { .tv_sec = ns / NSEC_PER_SEC,
			      .tv_usec = (ns % NSEC_PER_SEC) / NSEC_PER_USEC };

	return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ? -errno : 0;
}

/* fds_init - every descriptor slot to -1, so that any failure can close "all" */
static void fds_init(struct netload *l)
{
	int s;

	l->tcp_listen = -1;
	for (s = 0; s < 2; s++) {
		l->rr_fd[s] = l->flood_fd[s] = -1;
		memset(l->tcp_fd[s], -1, sizeof(l->tcp_fd[s]));
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void fds_close(struct netload *l)
{
	int s, i;

	close_fd(&l->tcp_listen);
	for (s = 0; s < 2; s++) {
		close_fd(&l->rr_fd[s]);
		close_fd(&l->flood_fd[s]);
		for (i = 0; i < NETLOAD_MAX_TCP; i++)
			close_fd(&l->tcp_fd[s][i]);
	}
}

/*
 * spawn - start one thread, pinned to @cpus when not empty, with every signal blocked:
 * the process's stop signals must reach the thread that polls stop_requested.
 */
static int spawn(struct netload *l, enum netload_thread t, void *(*fn)(void *),
		 const cpu_set_t *cpus, char *errbuf)
{
	static const char *const names[NL_NTHREADS] = {
		[NL_SEND] = "rr-send", [NL_RECV] = "rr-recv", [NL_ECHO] = "rr-echo",
		[NL_FLOOD] = "flood", [NL_FLOOD_SINK] = "flood-sink",
		[NL_TCP] = "tcp", [NL_TCP_SINK] = "tcp-sink",
	};
	sigset_t all, old;
	pthread_attr_t attr;
	char comm[16];
	int err;

	pthread_attr_init(&attr);
	if (CPU_COUNT(cpus))
		pthread_attr_setaffinity_np(&attr, sizeof(*cpus), cpus);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&l->thr[t], &attr, fn, l);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err)
		return set_err(errbuf, "cannot start thread %s: %s", names[t], strerror(err)), -err;
	l->thr_live[t] = true;
	snprintf(comm, sizeof(comm), "db-%s", names[t]);
	pthread_setname_np(l->thr[t], comm);
	return 0;
}

static void join(struct netload *l, enum netload_thread t)
{
	if (!l->thr_live[t])
		return;
	pthread_join(l->thr[t], NULL);
	l->thr_live[t] = false;
}

/* start_threads - responders and sinks before the senders that feed them */
static int start_threads(struct netload *l, char *errbuf)
{
	const cpu_set_t *rr = &l->cfg.cpus, *bulk = &l->cfg.load_cpus;
	int err;

	err = spawn(l, NL_ECHO, netload_rr_echo, rr, errbuf);
	if (!err)
		err = spawn(l, NL_RECV, netload_rr_recv, rr, errbuf);
	if (!err && l->cfg.flood_rate)
		err = spawn(l, NL_FLOOD_SINK, netload_flood_sink, bulk, errbuf);
	if (!err && l->ntcp)
		err = spawn(l, NL_TCP_SINK, netload_tcp_sink, bulk, errbuf);
	if (!err && l->cfg.flood_rate)
		err = spawn(l, NL_FLOOD, netload_flood, bulk, errbuf);
	if (!err && l->ntcp)
		err = spawn(l, NL_TCP, netload_tcp, bulk, errbuf);
	if (!err)
		err = spawn(l, NL_SEND, netload_rr_send, rr, errbuf);
	return err;
}

int netload_start(struct netload *l, const struct netns_pair *p, const struct netload_cfg *c,
		  char *errbuf)
{
	int err;

	memset(l, 0, sizeof(*l));
	err = netload_check(c, errbuf);
	if (err)
		return err;
	l->cfg = *c;
	l->pair = p;
	atomic_init(&l->first_seq, UINT64_MAX);
	fds_init(l);
	hist_init(&l->st.rtt);
	hist_init(&l->st.send_lag);
	hist_init(&l->st.fwd);
	hist_init(&l->st.back);
	ivhist_init(&l->st.rtt_iv, c->interval_ns);
	ivhist_init(&l->st.send_lag_iv, c->interval_ns);
	ivhist_init(&l->st.fwd_iv, c->interval_ns);
	ivhist_init(&l->st.back_iv, c->interval_ns);
	l->started = true;
	err = netload_rr_open(l, errbuf);
	if (!err && c->flood_rate)
		err = netload_flood_open(l, errbuf);
	if (!err && c->tcp_streams)
		err = netload_tcp_open(l, errbuf);
	if (!err)
		err = start_threads(l, errbuf);
	if (err)
		netload_stop(l);
	return err;
}

void netload_stop(struct netload *l)
{
	int t;

	if (!l->started)
		return;
	atomic_store(&l->stop_send, true);
	join(l, NL_SEND);
	join(l, NL_FLOOD);
	join(l, NL_TCP);
	/* the sender is joined: its count is final, the receiver may now drain to it */
	atomic_store(&l->sent_final, l->st.sent);
	atomic_store(&l->drain_until, now_ns() + NETLOAD_DRAIN_NS);
	join(l, NL_RECV);
	atomic_store(&l->stop_all, true);
	for (t = 0; t < NL_NTHREADS; t++)
		join(l, t);
	fds_close(l);
	netrr_track_free(&l->track);
	l->st.lost = netrr_lost(l->st.sent, l->st.received);
	ivhist_finish(&l->st.rtt_iv);
	ivhist_finish(&l->st.send_lag_iv);
	ivhist_finish(&l->st.fwd_iv);
	ivhist_finish(&l->st.back_iv);
	l->started = false;
}

void netload_stats_free(struct netload_stats *st)
{
	ivhist_free(&st->rtt_iv);
	ivhist_free(&st->send_lag_iv);
	ivhist_free(&st->fwd_iv);
	ivhist_free(&st->back_iv);
}
