// SPDX-License-Identifier: GPL-2.0
/*
 * net_audio.c - the network path of the audio workload's mode=net (audio.h): a netns
 * pair with NAPI in softirq or napi/ kthreads as asked, GRO on, TSO off, a sender
 * socket in namespace A connected to a receiver socket in namespace B.
 *
 * Linking: this file is an archive member of its own on purpose, referenced by nothing
 * but audio.o's calls to net_audio_open/net_audio_close. 'deferbench' pulls it in to
 * resolve those; a program that defines its own provider (the loopback stand-in of
 * tests/unit/test_audio_net.c) never pulls it, so the two cannot collide. This needs
 * audio.c to have no weak stubs of the two functions: a weak definition resolves the
 * reference, and the linker never pulls an archive member only to override it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "audio.h"
#include "netns.h"
#include "netrr.h"
#include "msg.h"

#define AUDIO_NET_PORT 7010
#define AUDIO_NET_RCVTIMEO_US 50000	/* the audio thread re-checks wl_stopping() */

struct audio_net_path {
	struct netns_pair pair;
};

/* audio_net_sockets - sender in A, receiver in B; the receiver blocks with a timeout */
static int audio_net_sockets(struct audio_net_link *l, struct netns_pair *p, char *errbuf)
{
	struct timeval tv = { .tv_usec = AUDIO_NET_RCVTIMEO_US };

	l->rx_fd = netns_udp_bind(p, NETNS_B, AUDIO_NET_PORT);
	if (l->rx_fd < 0)
		return set_err(errbuf, "audio: receiver socket: %s", strerror(-l->rx_fd)), l->rx_fd;
	if (setsockopt(l->rx_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		int err = -errno;

		return set_err(errbuf, "audio: SO_RCVTIMEO: %s", strerror(-err)), err;
	}
	l->tx_fd = netns_udp_connect(p, NETNS_A, AUDIO_NET_PORT);
	if (l->tx_fd < 0)
		return set_err(errbuf, "audio: sender socket: %s", strerror(-l->tx_fd)), l->tx_fd;
	return 0;
}

int net_audio_open(struct audio_net_link *l, char *errbuf)
{
	/* GRO on: veth has a NAPI of its own only with it; TSO off (netns_knob.c) */
	struct netns_opts o = {
		.napi = l->napi_threaded ? NETNS_NAPI_THREADED : NETNS_NAPI_SOFTIRQ,
		.napi_prio = l->napi_prio,
		.gro = true,
	};
	struct audio_net_path *ap;
	pid_t pids[16];
	int err;

	l->tx_fd = l->rx_fd = -1;
	l->napi_threads = 0;
	l->priv = NULL;
	if (l->payload > NETRR_MAX_LEN)
		return set_err(errbuf, "audio: %zu-byte packets exceed UDP", l->payload);
	ap = calloc(1, sizeof(*ap));
	if (!ap)
		return set_err(errbuf, "audio: out of memory"), -ENOMEM;
	l->priv = ap;
	err = netns_pair_open(&ap->pair, &o, errbuf);
	if (!err)
		err = audio_net_sockets(l, &ap->pair, errbuf);
	if (err) {
		net_audio_close(l);
		return err;
	}
	err = netns_napi_threads(&ap->pair, pids, (int)ARRAY_SIZE(pids));
	l->napi_threads = err > 0 ? err : 0;
	snprintf(l->desc, sizeof(l->desc), "veth %s/%s, napi=%s", netns_ifname(&ap->pair, NETNS_A),
		 netns_ifname(&ap->pair, NETNS_B), netns_napi_name(o.napi));
	return 0;
}

void net_audio_close(struct audio_net_link *l)
{
	struct audio_net_path *ap = l->priv;

	if (!ap)
		return;
	if (l->tx_fd >= 0)
		close(l->tx_fd);
	if (l->rx_fd >= 0)
		close(l->rx_fd);
	l->tx_fd = l->rx_fd = -1;
	netns_pair_close(&ap->pair);
	free(ap);
	l->priv = NULL;
}
