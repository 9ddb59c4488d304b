/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netload_int.h - private to netload*.c: socket setup and thread bodies. Every thread
 * takes the struct netload and owns the counters of netload_stats it writes.
 */
#ifndef DEFERBENCH_NETLOAD_INT_H
#define DEFERBENCH_NETLOAD_INT_H

/* private to workloads/net/: its files define DEFERBENCH_ALLOW_NETLOAD_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_NETLOAD_INT_H
#error "netload_int.h is private to workloads/net/; include its public header"
#endif

#include "netload.h"
#include "common.h"

/* how often a blocked receive comes back to look at the stop flags */
#define NETLOAD_POLL_NS (50 * NSEC_PER_MSEC)

/* netload_in_window - is something due (or seen) at t inside the measurement window? */
static inline bool netload_in_window(const struct netload *l, uint64_t t)
{
	return !l->cfg.window || t >= __atomic_load_n(l->cfg.window, __ATOMIC_RELAXED);
}

/* netload_window - the window's start (0: the whole run), for per-interval histograms */
static inline uint64_t netload_window(const struct netload *l)
{
	return l->cfg.window ? __atomic_load_n(l->cfg.window, __ATOMIC_RELAXED) : 0;
}

/* netload_rr.c */
int netload_rr_open(struct netload *l, char *errbuf);
void *netload_rr_send(void *arg);
void *netload_rr_recv(void *arg);
void *netload_rr_echo(void *arg);

/* netload_bulk.c */
int netload_flood_open(struct netload *l, char *errbuf);
int netload_tcp_open(struct netload *l, char *errbuf);
void *netload_flood(void *arg);
void *netload_flood_sink(void *arg);
void *netload_tcp(void *arg);
void *netload_tcp_sink(void *arg);

/* netload.c */
int netload_rcvtimeo(int fd, uint64_t ns);

#endif
