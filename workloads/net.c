// SPDX-License-Identifier: GPL-2.0
/*
 * net.c - the "net" workload: a paced UDP request/response stream across a veth pair
 * between two private network namespaces, measuring round trips while the veth's NAPI
 * runs in NET_RX softirq or in napi/ kthreads, optionally under UDP flood and TCP bulk
 * load. The topology is netns.c, the traffic netload*.c; this file maps options to
 * them and results to the driver's metrics. See docs/net-workload.md.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "netload.h"
#include "netns.h"
#include "netrr.h"
#include "workload.h"
#include "msg.h"

struct net_cfg {
	uint64_t rate;
	uint64_t size;
	int napi;		/* enum netns_napi, index into napi_modes */
	int napi_prio;
	bool gro;
	bool tso;
	uint64_t busy_poll;
	char rps[WL_STR_MAX];	/* "off" or a cpulist: see netns_rps_parse */
	uint64_t flood;
	uint64_t flood_size;
	uint64_t tcp;
	cpu_set_t cpus;
	cpu_set_t load_cpus;
};

enum net_metric { M_RTT, M_SEND_LAG, M_FWD, M_BACK, M_NR };
enum net_counter { C_SENT, C_RECEIVED, C_LOST, C_LATE, C_DUPLICATES, C_STALE, C_ERRORS,
		   C_ECHOED, C_FLOOD_SENT, C_FLOOD_RECEIVED,
		   C_TCP_BYTES, C_NAPI_THREADS, C_DROPS_A, C_DROPS_B, C_NR };

#define NET_NAPI_MAX 8

struct net_priv {
	struct netns_pair pair;
	struct netload load;
	bool running;		/* load started and not yet reported */
	int metric[M_NR];
	int counter[C_NR];
	int napi_threads;
	uint64_t drops0[2];	/* veth drops when the window opened */
	int nnapi;		/* napi/ threads of the pair when the window opened */
	pid_t napi_pid[NET_NAPI_MAX];
	uint64_t napi_sw0[NET_NAPI_MAX];	/* and how often each had run by then */
};

static const char *const napi_modes[] = {
	[NETNS_NAPI_SOFTIRQ] = "softirq", [NETNS_NAPI_THREADED] = "threaded", NULL,
};

static const struct opt_desc net_options[] = {
	OPT_U64(0, NULL, net_cfg, rate, "N", 1, NETLOAD_MAX_RATE,
		"requests per second, each answered by the responder",
		.key = "rate", .def = "2000"),
	OPT_SIZE(0, NULL, net_cfg, size, NETRR_HDR_LEN, NETRR_MAX_LEN,
		 "UDP payload of requests and responses, bytes", .key = "size", .def = "64"),
	OPT_ENUM(0, NULL, net_cfg, napi, "WORD", napi_modes, ARRAY_SIZE(napi_modes) - 1,
		 "where the veth NAPI polls run: NET_RX softirq, or threaded (napi/ "
		 "kthreads)", .key = "napi", .def = "softirq"),
	OPT_INT(0, NULL, net_cfg, napi_prio, "N", 0, 99,
		"napi=threaded: SCHED_FIFO priority of the napi/ kthreads, 0 = "
		"SCHED_OTHER", .key = "napi_prio", .def = "0"),
	OPT_BOOL(0, NULL, net_cfg, gro,
		 "GRO on both veth ends: veth's own NAPI (needed by napi=threaded)",
		 .key = "gro", .def = "on"),
	OPT_BOOL(0, NULL, net_cfg, tso,
		 "TSO on both veth ends; on (the veth default) sends local traffic "
		 "through the per-CPU backlog instead of veth's NAPI", .key = "tso", .def = "off"),
	OPT_U64(0, NULL, net_cfg, busy_poll, "N", 0, NETLOAD_MAX_BUSY_POLL,
		"SO_BUSY_POLL microseconds on the request/response sockets, 0 = off",
		.key = "busy_poll", .def = "0"),
	OPT_STRING_BUF(0, NULL, net_cfg, rps, "TEXT",
		       "rps_cpus of both veth ends: off, or a list of online CPUs",
		       .key = "rps", .def = "off"),
	OPT_U64(0, NULL, net_cfg, flood, "N", 0, NETLOAD_MAX_FLOOD,
		"background UDP datagrams per second from A to B, 0 = none",
		.key = "flood", .def = "0"),
	OPT_SIZE(0, NULL, net_cfg, flood_size, 1, NETRR_MAX_LEN,
		 "UDP payload of the flood, bytes", .key = "flood_size", .def = "1024"),
	OPT_U64(0, NULL, net_cfg, tcp, "N", 0, NETLOAD_MAX_TCP,
		"background TCP bulk streams from A to B", .key = "tcp", .def = "0"),
	OPT_CPUSET(0, NULL, net_cfg, cpus,
		   "CPUs of the request/response threads", .key = "cpus", .def = "all"),
	OPT_CPUSET(0, NULL, net_cfg, load_cpus,
		   "CPUs of the flood and tcp threads", .key = "load_cpus", .def = "all"),
	OPT_END(),
};

/* load_cfg - the traffic engine's view of the options */
static void load_cfg(const struct wl_run *w, struct netload_cfg *lc)
{
	const struct net_cfg *c = w->cfg;

	memset(lc, 0, sizeof(*lc));
	lc->rate = c->rate;
	lc->size = c->size;
	lc->busy_poll_us = (unsigned int)c->busy_poll;
	lc->flood_rate = c->flood;
	lc->flood_size = c->flood_size;
	lc->tcp_streams = (unsigned int)c->tcp;
	lc->cpus = c->cpus;
	lc->load_cpus = c->load_cpus;
	lc->cookie = (uint32_t)(w->seed * 0x9e3779b97f4a7c15ULL >> 32) ^ (uint32_t)getpid();
	lc->window = &w->window_ns;
	lc->interval_ns = w->interval_ns;
}

/* add_metrics - what this workload reports; names and descriptions are literals */
static int add_metrics(struct wl_run *w, struct net_priv *pv)
{
	static const char *const counters[C_NR] = {
		"sent", "received", "lost", "late", "duplicates", "stale", "errors", "echoed",
		"flood_sent", "flood_received", "tcp_bytes",
		"napi_threads", "veth_drops_a", "veth_drops_b",
	};
	int i;

	pv->metric[M_RTT] = wl_metric_add(w, "rtt", "ns",
		"client recv() returned minus the request's scheduled send time, CLOCK_MONOTONIC");
	pv->metric[M_SEND_LAG] = wl_metric_add(w, "send_lag", "ns",
		"client send() called minus the request's scheduled send time");
	pv->metric[M_FWD] = wl_metric_add(w, "fwd", "ns",
		"responder recv() returned minus client send() called");
	pv->metric[M_BACK] = wl_metric_add(w, "back", "ns",
		"client recv() returned minus responder recv() returned (turnaround included)");
	for (i = 0; i < M_NR; i++)
		if (pv->metric[i] < 0)
			return pv->metric[i];
	for (i = 0; i < C_NR; i++) {
		pv->counter[i] = wl_counter_add(w, counters[i]);
		if (pv->counter[i] < 0)
			return pv->counter[i];
	}
	/* the driver adds rate_asked and rate_achieved (sent / run time) */
	wl_rate(w, pv->counter[C_SENT], (double)((const struct net_cfg *)w->cfg)->rate);
	return 0;
}

static int net_setup(struct wl_run *w, char *errbuf)
{
	const struct net_cfg *c = w->cfg;
	struct net_priv *pv = w->priv;
	struct netns_opts o = { .napi = (enum netns_napi)c->napi, .napi_prio = c->napi_prio,
				.gro = c->gro, .tso = c->tso };
	struct netload_cfg lc;
	pid_t pids[16];
	int err;

	load_cfg(w, &lc);
	err = netload_check(&lc, errbuf);	/* before any namespace exists */
	if (!err)
		err = netns_rps_parse(c->rps, &o.rps, NULL, errbuf);
	if (err)
		return err;
	err = add_metrics(w, pv);
	if (err)
		return set_err(errbuf, "net: too many metrics for the driver"), err;
	err = netns_pair_open(&pv->pair, &o, errbuf);
	if (err)
		return err;
	pv->napi_threads = netns_napi_threads(&pv->pair, pids, (int)ARRAY_SIZE(pids));
	return 0;
}

/* napi_base - the pair's napi/ threads and how often each has run: what napi_check compares */
static void napi_base(struct net_priv *pv)
{
	int i, n = netns_napi_threads(&pv->pair, pv->napi_pid, NET_NAPI_MAX);

	pv->nnapi = n < 0 ? 0 : n > NET_NAPI_MAX ? NET_NAPI_MAX : n;
	for (i = 0; i < pv->nnapi; i++)
		if (netns_napi_switches(pv->napi_pid[i], &pv->napi_sw0[i]))
			pv->napi_sw0[i] = UINT64_MAX;	/* gone already: napi_check says so */
}

/*
 * napi_check - the veth NAPI polled where napi= says (issue 23): 'threaded' of both
 * ends still reads what was written, and with napi=threaded the napi/ threads there
 * when the window opened are still there and, once both ends have received (requests
 * answered), each has run since. Polls in NET_RX softirq never wake them: a thread
 * that did not run means the cell, labelled threaded, measured softirq NAPI (or, with
 * tso=on, the per-CPU backlog: veth's NAPI was bypassed).
 */
static int napi_check(struct net_priv *pv, char *errbuf)
{
	const struct netload_stats *st = &pv->load.st;
	uint64_t sw;
	int i, err;

	err = netns_napi_check(&pv->pair, errbuf);
	if (err || pv->pair.opts.napi != NETNS_NAPI_THREADED || !st->received)
		return err;
	for (i = 0; i < pv->nnapi; i++) {
		err = netns_napi_switches(pv->napi_pid[i], &sw);
		if (err == -ESRCH || (!err && pv->napi_sw0[i] == UINT64_MAX))
			return set_err(errbuf, "napi=threaded: napi thread %d went away during "
				       "the run (the device's NAPI was re-made)",
				       (int)pv->napi_pid[i]), -ESRCH;
		if (err)
			return set_err(errbuf, "cannot read how often napi thread %d ran: %s",
				       (int)pv->napi_pid[i], strerror(-err)), err;
		if (sw == pv->napi_sw0[i])
			return set_err(errbuf, "napi=threaded: napi thread %d never ran while "
				       "both ends received (%llu responses): the polls ran in "
				       "NET_RX softirq%s", (int)pv->napi_pid[i],
				       (unsigned long long)st->received, pv->pair.opts.tso ?
				       " (with tso=on, local traffic bypasses veth's NAPI)" : ""),
				       -EIO;
	}
	return 0;
}

static int net_start(struct wl_run *w, char *errbuf)
{
	struct net_priv *pv = w->priv;
	struct netload_cfg lc;
	int err;

	napi_base(pv);
	load_cfg(w, &lc);
	err = netload_start(&pv->load, &pv->pair, &lc, errbuf);
	if (!err)
		pv->running = true;
	return err;
}

/* read_drops - both ends' drop counters; a failure is a warning, the figure then 0 */
static void read_drops(struct net_priv *pv, uint64_t drops[2])
{
	int side;

	for (side = NETNS_A; side <= NETNS_B; side++) {
		drops[side] = 0;
		if (netns_link_drops(&pv->pair, side, &drops[side]))
			warn_msg("net: cannot read the drop counters of %s",
				 netns_ifname(&pv->pair, side));
	}
}

/* net_measure - the window opened: the veth drop counters start from here */
static void net_measure(struct wl_run *w)
{
	struct net_priv *pv = w->priv;

	read_drops(pv, pv->drops0);
	napi_base(pv);
}

/* report - the engine's figures into the driver's metrics, once per run */
static void report(struct wl_run *w, struct net_priv *pv)
{
	const struct netload_stats *st = &pv->load.st;
	struct wl_counter *k = w->metrics.counter;
	char why[ERRBUF_LEN];
	uint64_t drops[2];
	int side;

	wl_metric_merge(w, pv->metric[M_RTT], &st->rtt, &st->rtt_iv);
	wl_metric_merge(w, pv->metric[M_SEND_LAG], &st->send_lag, &st->send_lag_iv);
	wl_metric_merge(w, pv->metric[M_FWD], &st->fwd, &st->fwd_iv);
	wl_metric_merge(w, pv->metric[M_BACK], &st->back, &st->back_iv);
	netload_stats_free(&pv->load.st);
	k[pv->counter[C_SENT]].value = (double)st->sent;
	k[pv->counter[C_RECEIVED]].value = (double)st->received;
	k[pv->counter[C_LOST]].value = (double)st->lost;
	k[pv->counter[C_LATE]].value = (double)st->late;
	k[pv->counter[C_DUPLICATES]].value = (double)st->duplicates;
	k[pv->counter[C_STALE]].value = (double)st->stale;
	k[pv->counter[C_ERRORS]].value = (double)(st->send_errors + st->echo_errors + st->bad);
	k[pv->counter[C_ECHOED]].value = (double)st->echoed;
	k[pv->counter[C_FLOOD_SENT]].value = (double)st->flood_sent;
	k[pv->counter[C_FLOOD_RECEIVED]].value = (double)st->flood_received;
	k[pv->counter[C_TCP_BYTES]].value = (double)st->tcp_received;
	k[pv->counter[C_NAPI_THREADS]].value = pv->napi_threads;
	read_drops(pv, drops);
	for (side = NETNS_A; side <= NETNS_B; side++)
		k[pv->counter[C_DROPS_A + side]].value = drops[side] > pv->drops0[side] ?
			(double)(drops[side] - pv->drops0[side]) : 0;
	if (napi_check(pv, why))
		wl_fail(w, -EIO, "net: %s", why);
}

static void net_stop(struct wl_run *w)
{
	struct net_priv *pv = w->priv;

	netload_stop(&pv->load);
	if (pv->running)
		report(w, pv);
	pv->running = false;
}

static void net_teardown(struct wl_run *w)
{
	struct net_priv *pv = w->priv;

	net_stop(w);
	netload_stats_free(&pv->load.st);
	netns_pair_close(&pv->pair);
}

/*
 * net_switch - napi or napi_prio switched while the load runs (the alternating design
 * compares softirq and threaded NAPI on one running pair): both ends follow w->cfg,
 * and netns_set_napi checks the kthreads came or went. napi_check at the end then
 * judges the last phase: a segment ends in a phase at least as long as the interval.
 */
static int net_switch(struct wl_run *w, const char *key __unused, char *errbuf)
{
	const struct net_cfg *c = w->cfg;
	struct net_priv *pv = w->priv;
	pid_t pids[16];
	int err;

	err = netns_set_napi(&pv->pair, (enum netns_napi)c->napi, c->napi_prio, errbuf);
	if (err)
		return err;
	pv->napi_threads = netns_napi_threads(&pv->pair, pids, (int)ARRAY_SIZE(pids));
	/* the threads are new ones (or none): napi_check at the end looks from here */
	napi_base(pv);
	return 0;
}

static const char *const net_live[] = { "napi", "napi_prio", NULL };

/*
 * the NET_RX work wherever the kernel runs it: the softirq (raise -> entry), or under
 * threaded NAPI the napi/ kthreads (wakeup -> running)
 */
static const struct wl_work net_rx_work = {
	"net_rx", "the receive work of NET_RX: softirq raise -> entry, or napi/ thread wakeup "
	"-> running under threaded NAPI", { "softirq:NET_RX", "context:napi_thread:*" }, 2,
};
static const struct wl_work *const net_work[] = { &net_rx_work, NULL };

/*
 * what compare judges net by: the round trip a client feels, and the NET_RX work that
 * carries it wherever it runs (so that softirq and threaded NAPI are judged on the same
 * work); p50 and p90 as well as p99, which a 2000/s rate decides in a minute or two
 */
static const char *const net_primary[] = {
	"workload:rtt:p50", "workload:rtt:p90", "workload:rtt:p99",
	"work:net_rx:delay:p50", "work:net_rx:delay:p90", "work:net_rx:delay:p99",
	NULL,
};

const struct workload_ops net_workload = {
	.name = "net",
	.needs_root = "it makes network namespaces and veth devices",
	.help = "UDP request/response RTT across a veth between two private netns "
		"(NAPI in softirq or threads), optional UDP flood and TCP load",
	.options = net_options,
	.primary = net_primary,
	.work = net_work,
	.cfg_size = sizeof(struct net_cfg),
	.priv_size = sizeof(struct net_priv),
	.setup = net_setup,
	.start = net_start,
	.stop = net_stop,
	.teardown = net_teardown,
	.measure = net_measure,
	.live = net_live,
	.switch_option = net_switch,
};
