/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netns.h - a veth pair between two anonymous network namespaces, for network load
 * that never leaves the machine and never touches the root namespace.
 *
 *     netns A (side NETNS_A)                 netns B (side NETNS_B)
 *     lo, dbv<pid>-<n>a  10.x.y.z+1/30 <==> dbv<pid>-<n>b  10.x.y.z+2/30, lo
 *
 * Lifetime. Each namespace is created by a short-lived helper thread that calls
 * unshare(CLONE_NEWNET) and opens /proc/thread-self/ns/net; after the thread exits,
 * that file descriptor is the only reference the namespace has. Nothing is bind-mounted
 * (unlike 'ip netns add'), so nothing can outlive the process: when it exits, even on
 * SIGKILL, the kernel closes the descriptors and the sockets, the namespaces die, and a
 * dying namespace unregisters its devices, which takes the veth pair (both ends) with
 * it. netns_pair_close() still deletes the veth explicitly, so that its NAPI threads are
 * gone when it returns rather than when the kernel's netns cleanup work gets to it.
 *
 * Sockets remember the namespace they were created in. netns_socket() creates one from
 * a helper thread that setns()'d into the namespace; the calling thread, and the rest
 * of the process, stay in the root namespace and can use the socket from anywhere.
 * Device knobs live in the namespace's own sysfs view, reached through a detached sysfs
 * mount (fsopen/fsmount from a thread inside the namespace): no mount is ever attached
 * to a mount tree.
 *
 * Nothing outside the two namespaces is changed: no sysctl, no sysfs file and no device
 * of the root namespace. Busy polling is therefore per socket (SO_BUSY_POLL): the
 * net.core.busy_poll/busy_read sysctls are global, not per namespace.
 *
 * Conventions: 0 / -errno; functions that can fail in interesting ways fill errbuf
 * (ERRBUF_LEN bytes, may be NULL). A zeroed struct netns_pair is closed: closing it,
 * closing twice and closing after a failed open are all safe.
 */
#ifndef DEFERBENCH_NETNS_H
#define DEFERBENCH_NETNS_H

#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum netns_side { NETNS_A = 0, NETNS_B = 1 };

enum netns_napi {
	NETNS_NAPI_SOFTIRQ,	/* NAPI polls run in NET_RX softirq (the default) */
	NETNS_NAPI_THREADED,	/* /sys/class/net/DEV/threaded = 1: napi/DEV-N kthreads */
};

struct netns_opts {
	enum netns_napi napi;
	bool gro;		/* GRO on both ends; veth needs it for its own NAPI */
	bool tso;		/* TSO on both ends; on, veth skips its NAPI for local
				 * traffic (see netns_knob.c): keep it off */
	cpu_set_t rps;		/* rx-0/rps_cpus on both ends; empty leaves RPS off */
	int napi_prio;		/* threaded: SCHED_FIFO priority of the napi/ kthreads,
				 * 0 leaves them SCHED_OTHER */
};

struct netns_pair {
	int nsfd[2];			/* valid when have_ns[side] */
	bool have_ns[2];
	bool have_veth;
	unsigned int instance;		/* per-process counter, part of names and addresses */
	char ifname[2][IFNAMSIZ];
	int ifindex[2];			/* in the device's own namespace */
	struct in_addr addr[2];		/* network byte order */
	unsigned int prefixlen;		/* 30 */
	struct netns_opts opts;
};

/*
 * netns_pair_open - create both namespaces and the veth pair, address it, apply and
 * read back every knob of @o. @p is overwritten: it must be closed (zeroed, or after
 * netns_pair_close). On failure everything created so far is removed again.
 */
int netns_pair_open(struct netns_pair *p, const struct netns_opts *o, char *errbuf);
/* netns_pair_close - delete the veth, drop the namespaces; safe twice and when zeroed. */
void netns_pair_close(struct netns_pair *p);

/*
 * netns_socket - a socket(domain, type | SOCK_CLOEXEC, protocol) that lives in the
 * namespace of @side. Returns the fd (the caller closes it) or -errno.
 */
int netns_socket(const struct netns_pair *p, enum netns_side side, int domain, int type,
		 int protocol);
/* netns_sockaddr - the IPv4 address of @side's veth end, with @port. */
void netns_sockaddr(const struct netns_pair *p, enum netns_side side, uint16_t port,
		    struct sockaddr_in *sa);
/* netns_udp_bind - a UDP socket of @side bound to its veth address and @port; fd or -errno */
int netns_udp_bind(const struct netns_pair *p, enum netns_side side, uint16_t port);
/* netns_udp_connect - a UDP socket of @from connected to the other side's @port */
int netns_udp_connect(const struct netns_pair *p, enum netns_side from, uint16_t port);
/* netns_ifname - the name of @side's veth end (valid until close). */
const char *netns_ifname(const struct netns_pair *p, enum netns_side side);

/*
 * netns_link_drops - packets @side's veth end dropped so far, tx + rx. A veth drops on
 * transmit when the peer's NAPI ring (256 packets) is full: the NAPI poll, softirq or
 * thread, did not keep up.
 */
int netns_link_drops(const struct netns_pair *p, enum netns_side side, uint64_t *drops);

/*
 * netns_run - run fn(arg) in a new thread that joined @side's namespace, wait for it
 * and return what fn returned (or -errno if the thread could not start or setns).
 * For anything that must be done from inside: opening sockets, sysfs, /proc/sys/net.
 */
int netns_run(const struct netns_pair *p, enum netns_side side, int (*fn)(void *arg),
	      void *arg);

/*
 * netns_napi_threads - pids of the napi/<dev>-N kthreads serving this pair's devices
 * (at most @max stored). Returns how many exist, or -errno. The kernel truncates
 * thread names to 15 characters, so a long device name matches on its prefix.
 */
int netns_napi_threads(const struct netns_pair *p, pid_t *pids, int max);

/*
 * netns_napi_switches - how many times thread @pid has been switched out (voluntary
 * and not): a napi/ kthread sleeps after each round of polls, so this grows by one
 * at least each time it polled. 0, -ESRCH when it is gone, or -errno.
 */
int netns_napi_switches(pid_t pid, uint64_t *n);

/*
 * netns_napi_check - the pair polls where opts.napi says, as far as the devices show
 * it: 'threaded' of both ends reads back 1 (napi=threaded) or 0, and napi/ kthreads
 * exist (at least one per end) or none does. 0, or -errno with errbuf saying what
 * differs. Whether the threads did the polling is the caller's to see (they ran).
 */
int netns_napi_check(const struct netns_pair *p, char *errbuf);

/*
 * netns_set_napi - switch a running pair's NAPI between softirq and threaded (and the
 * napi/ kthreads' SCHED_FIFO priority, 0 = SCHED_OTHER), both ends, and check it took:
 * two kthreads when threaded, none when not. 0 or -errno with errbuf.
 */
int netns_set_napi(struct netns_pair *p, enum netns_napi mode, int prio, char *errbuf);

/* netns_busy_poll - SO_BUSY_POLL on a socket: busy-wait @usec on a blocking receive. */
int netns_busy_poll(int fd, unsigned int usec);

/* Pure helpers, unit-tested. */

/* netns_names - "dbv<pid>-<n>a" / "...b"; -ENAMETOOLONG if they would not fit IFNAMSIZ */
int netns_names(pid_t pid, unsigned int instance, char a[IFNAMSIZ], char b[IFNAMSIZ]);
/*
 * netns_addrs - the /30 of an instance inside 10.0.0.0/8: a = base + 1, b = base + 2,
 * base = 10.0.0.0 + 4 * ((pid * 100 + instance) mod 2^22), skipping 10.0.0.0/30.
 */
void netns_addrs(pid_t pid, unsigned int instance, struct in_addr *a, struct in_addr *b);
/* netns_mask_format - a CPU set as the kernel's hex mask ("3", "1,00000000") */
int netns_mask_format(const cpu_set_t *set, char *buf, size_t len);
/* netns_mask_parse - the kernel's hex mask ("00000003", "0001,00000000") to a set */
int netns_mask_parse(const char *s, cpu_set_t *set);
/*
 * netns_rps_parse - "off" (an empty set: RPS stays off) or a list of online CPUs, as
 * cpulist_parse (online_override for tests); -EINVAL with a message naming "rps".
 */
int netns_rps_parse(const char *s, cpu_set_t *set, const char *online_override, char *errbuf);
/* netns_napi_name - the name of @mode; NULL when out of range */
const char *netns_napi_name(enum netns_napi mode);

#endif
