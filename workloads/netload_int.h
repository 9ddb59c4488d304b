/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netload_int.h - private to netload*.c: socket setup and thread bodies. Every thread
 * takes the struct netload and owns the counters of netload_stats it writes.
 */
#ifndef DEFERBENCH_NETLOAD_INT_H
#define DEFERBENCH_NETLOAD_INT_H

#include "netload.h"

/* how often a blocked receive comes back to look at the stop flags */
#define NETLOAD_POLL_NS (50 * NSEC_PER_MSEC)

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
