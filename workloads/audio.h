/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audio.h - the hook between the audio workload's network mode and the network
 * plumbing of the net workload.
 *
 * In mode=net an audio period starts when a packet arrives instead of when a timer
 * fires, as with network audio (AES67, AVB-like streams): a sender thread of the audio
 * workload sends one UDP packet per period, paced on absolute CLOCK_MONOTONIC
 * deadlines and carrying its deadline, from one network namespace across a veth pair
 * into another, where the audio thread waits in recv(). The packet crosses the
 * veth's NET_RX softirq or threaded NAPI, which is what the mode measures.
 *
 * The audio workload owns the threads, the pacing and the measurement; the provider
 * owns only the path: it creates the namespaces, the veth pair (with the NAPI mode
 * asked) and two UDP sockets, each created inside its namespace (a socket keeps its
 * namespace, so the audio threads use both without setns()).
 *
 * The provider is workloads/net_audio.c, on the net workload's netns.c; tests may link
 * their own (tests/unit/test_audio_net.c).
 */
#ifndef DEFERBENCH_AUDIO_H
#define DEFERBENCH_AUDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct audio_net_link {
	/* in: what the audio workload asks for */
	uint64_t period_ns;	/* packets per second = 1e9 / period_ns */
	size_t payload;		/* bytes per packet, header included */
	bool napi_threaded;	/* NAPI polls in napi/ kthreads, not in NET_RX softirq */
	int napi_prio;		/* threaded: SCHED_FIFO priority of those kthreads, 0 = OTHER */
	/* out: filled by net_audio_open */
	int tx_fd;		/* UDP, connected to the receiver, in the sender's netns */
	int rx_fd;		/* UDP, bound, in the receiver's netns; blocking */
	int napi_threads;	/* napi/ kthreads of the path (0 in softirq mode) */
	char desc[128];		/* for messages: "veth db-a0/db-b0, napi=threaded" */
	void *priv;		/* the provider's, for net_audio_close */
};

/*
 * net_audio_open - build the path and both sockets. 0, or -errno with errbuf
 * (ERRBUF_LEN) naming what failed; on failure nothing is left behind.
 */
int net_audio_open(struct audio_net_link *l, char *errbuf);
/* net_audio_close - close both sockets, remove what open created; safe twice */
void net_audio_close(struct audio_net_link *l);

/* the packet header the sender writes at the start of each payload */
struct audio_net_hdr {
	uint64_t seq;
	uint64_t deadline_ns;	/* CLOCK_MONOTONIC: when the period starts */
};

#endif
