/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netns_int.h - private to netns.c, netns_link.c and netns_knob.c: the steps
 * netns_pair_open() runs in order. Each returns 0 or -errno and names what failed
 * in errbuf; each undoes nothing itself (netns_pair_close() removes everything).
 */
#ifndef DEFERBENCH_NETNS_INT_H
#define DEFERBENCH_NETNS_INT_H

/* private to workloads/net/: its files define DEFERBENCH_ALLOW_NETNS_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_NETNS_INT_H
#error "netns_int.h is private to workloads/net/; include its public header"
#endif

#include "netns.h"

/* netns_link.c: rtnetlink through libnl-route-3, from sockets inside the namespaces */
int netns_link_create(struct netns_pair *p, char *errbuf);	/* the veth, one end per ns */
int netns_link_configure(struct netns_pair *p, char *errbuf);	/* lo, addresses, up, neighbours */
int netns_link_delete(struct netns_pair *p);			/* both ends, synchronously */

/* netns_knob.c: ethtool, sysfs and /proc/sys/net inside the namespaces, read back */
int netns_knob_quiet(struct netns_pair *p, char *errbuf);	/* no IPv6 chatter on the veth */
int netns_knob_offloads(struct netns_pair *p, char *errbuf);	/* gro, tso */
int netns_knob_napi(struct netns_pair *p, char *errbuf);	/* threaded, rps_cpus */

#endif
