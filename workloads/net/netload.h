/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netload.h - the network load itself, over a netns_pair, independent of the workload
 * driver: a paced UDP request/response stream that measures round trips, plus optional
 * bulk load (a UDP flood and TCP streams) from namespace A to namespace B.
 *
 * Threads (all in the root namespace, using sockets created inside the namespaces):
 *   rr-send   A: sends request i at t0 + i/rate (absolute CLOCK_MONOTONIC deadlines)
 *   rr-recv   A: receives responses, records RTT = t_recv - t_sched
 *   rr-echo   B: echoes every request back, stamping when it received it
 *   flood     A: UDP datagrams at flood_rate;  flood-sink  B: reads and drops them
 *   tcp       A: writes to tcp_streams sockets; tcp-sink   B: reads and drops
 *
 * Measured from the *scheduled* send time, a request that leaves late (the sender was
 * preempted, the CPU busy) carries its lateness into its RTT: the schedule never waits
 * for the system, so a stall cannot hide behind fewer samples (no coordinated omission).
 *
 * Measurement window (cfg.window): a request is in it when it is due at or after the
 * window's start. rr-send decides, once per request, and publishes the sequence number
 * of its first request in the window; rr-recv and rr-echo count from that one on, so
 * sent, echoed and received always cover the same requests. Flood datagrams are in it
 * by their due time too; what is only seen on arrival (flood_received, tcp bytes,
 * foreign datagrams, receive errors) is counted when it arrives inside the window.
 *
 * Conventions: 0 / -errno, errbuf (ERRBUF_LEN, may be NULL) names what failed.
 * A zeroed struct netload is stopped; netload_stop is safe twice and after a failed
 * start.
 */
#ifndef DEFERBENCH_NETLOAD_H
#define DEFERBENCH_NETLOAD_H

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "ivhist.h"
#include "netns.h"
#include "netrr.h"
#include "common.h"

#define NETLOAD_MAX_TCP 64
#define NETLOAD_MAX_RATE 1000000ULL		/* requests per second */
#define NETLOAD_MAX_FLOOD 10000000ULL		/* datagrams per second */
#define NETLOAD_MAX_BUSY_POLL 100000U		/* us */

/* Ports: the namespaces are private, so fixed numbers cannot collide. */
#define NETLOAD_PORT_RR 7007
#define NETLOAD_PORT_FLOOD 7008
#define NETLOAD_PORT_TCP 7009

struct netload_cfg {
	uint64_t rate;			/* requests per second, 1..NETLOAD_MAX_RATE */
	uint64_t size;			/* request and response payload, NETRR_HDR_LEN.. */
	unsigned int busy_poll_us;	/* SO_BUSY_POLL on the request/response sockets */
	uint64_t flood_rate;		/* datagrams per second, 0 = no flood */
	uint64_t flood_size;		/* flood payload bytes */
	unsigned int tcp_streams;	/* 0..NETLOAD_MAX_TCP */
	cpu_set_t cpus;			/* rr threads; empty = unpinned */
	cpu_set_t load_cpus;		/* flood and tcp threads; empty = unpinned */
	uint32_t cookie;		/* tags this run's requests */
	/*
	 * The measurement window's start (CLOCK_MONOTONIC), read atomically while the load
	 * runs (the workload driver's wl_run.window_ns); NULL = the whole run.
	 */
	const uint64_t *window;
	uint64_t interval_ns;		/* per-interval histograms of the four latencies; 0: none */
};

/* Everything measured (in the window); each field is written by one thread, read after stop. */
struct netload_stats {
	struct hist rtt;	/* t_recv (client) - t_sched */
	struct hist send_lag;	/* t_sent - t_sched: how late the sender got to it */
	struct hist fwd;	/* t_echo - t_sent: request, send() to responder's recv() */
	struct hist back;	/* t_recv - t_echo: response, responder to client's recv() */
	/* the same per interval of the request's t_sched (cfg.interval_ns) */
	struct ivhist rtt_iv, send_lag_iv, fwd_iv, back_iv;
	uint64_t sent, send_errors, late;
	uint64_t echoed, echo_errors;
	uint64_t received, duplicates, stale, bad, lost;
	uint64_t t0, t_end;	/* first deadline; when the sender stopped */
	uint64_t flood_sent, flood_send_errors, flood_received;
	uint64_t tcp_sent, tcp_received;	/* bytes */
};

enum netload_thread { NL_SEND, NL_RECV, NL_ECHO, NL_FLOOD, NL_FLOOD_SINK, NL_TCP,
		      NL_TCP_SINK, NL_NTHREADS };

struct netload {
	struct netload_cfg cfg;
	const struct netns_pair *pair;
	bool started;
	int rr_fd[2], flood_fd[2], tcp_listen;
	int tcp_fd[2][NETLOAD_MAX_TCP];
	bool tcp_done[2][NETLOAD_MAX_TCP];	/* closed or reset: no longer polled */
	unsigned int ntcp;		/* connected streams */
	pthread_t thr[NL_NTHREADS];
	bool thr_live[NL_NTHREADS];
	struct netrr_track track;	/* rr-recv's, allocated before it starts */
	atomic_bool stop_send;		/* rr-send, flood, tcp */
	atomic_bool stop_all;		/* everything, once the responses drained */
	_Atomic uint64_t first_seq;	/* rr-send's first request in the window, or UINT64_MAX */
	_Atomic uint64_t sent_final;	/* published by stop for rr-recv's drain */
	_Atomic uint64_t drain_until;	/* 0 while running */
	struct netload_stats st;
};

/* netload_check - cross-option checks the per-option bounds cannot express */
int netload_check(const struct netload_cfg *c, char *errbuf);
/*
 * netload_start - sockets, connections and threads; the load runs when it returns.
 * @l is overwritten: it must be stopped (zeroed, or after netload_stop). @p must stay
 * open until netload_stop returns. On failure everything started is stopped again.
 */
int netload_start(struct netload *l, const struct netns_pair *p, const struct netload_cfg *c,
		  char *errbuf);
/*
 * netload_stop - stop sending, let outstanding responses arrive (up to a grace of
 * NETLOAD_DRAIN_NS), join every thread, close every socket and compute st.lost.
 */
#define NETLOAD_DRAIN_NS (200 * NSEC_PER_MSEC)
void netload_stop(struct netload *l);
/* netload_stats_free - the interval histograms of st (after stop; safe twice) */
void netload_stats_free(struct netload_stats *st);

#endif
