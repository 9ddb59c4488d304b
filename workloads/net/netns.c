// SPDX-License-Identifier: GPL-2.0
/*
 * netns.c - two anonymous network namespaces joined by a veth pair (see netns.h for
 * why they cannot leak), threads that run inside them, and the pure helpers that name
 * and address an instance.
 */
#include "netns.h"
#define DEFERBENCH_ALLOW_NETNS_INT_H
#include "netns_int.h"

#include <arpa/inet.h>
#include <limits.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "names.h"
#include "msg.h"
#include "parse.h"
#include "file.h"

struct ns_call {
	int nsfd;		/* namespace to join; -1: unshare a new one */
	int (*fn)(void *arg);
	void *arg;
	int ret;
};

/* ns_thread - join (or create) the namespace, then run the call; the thread dies after */
static void *ns_thread(void *data)
{
	struct ns_call *c = data;
	int err = c->nsfd < 0 ? unshare(CLONE_NEWNET) : setns(c->nsfd, CLONE_NEWNET);

	c->ret = err ? -errno : c->fn(c->arg);
	return NULL;
}

/*
 * ns_call_run - one helper thread per call. A thread, not the caller, changes namespace
 * so that the caller's own namespace never changes, even if fn fails halfway. Signals
 * are blocked in it: SIGINT/SIGTERM belong to the thread that polls stop_requested.
 */
static int ns_call_run(struct ns_call *c)
{
	sigset_t all, old;
	pthread_t t;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t, NULL, ns_thread, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return -err;
	pthread_join(t, NULL);
	return c->ret;
}

int netns_run(const struct netns_pair *p, enum netns_side side, int (*fn)(void *arg),
	      void *arg)
{
	struct ns_call c = { .fn = fn, .arg = arg };

	if (side > NETNS_B || !p->have_ns[side])
		return -EBADF;
	c.nsfd = p->nsfd[side];
	return ns_call_run(&c);
}

/* open_own_ns - in the new namespace: the fd that becomes its only reference */
static int open_own_ns(void *arg __unused)
{
	int fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* ns_create - an anonymous netns: no name, no bind mount, held by the returned fd */
static int ns_create(void)
{
	struct ns_call c = { .nsfd = -1, .fn = open_own_ns };

	return ns_call_run(&c);
}

struct sock_args {
	int domain, type, protocol;
};

static int open_socket(void *arg)
{
	struct sock_args *a = arg;
	int fd = socket(a->domain, a->type | SOCK_CLOEXEC, a->protocol);

	return fd < 0 ? -errno : fd;
}

int netns_socket(const struct netns_pair *p, enum netns_side side, int domain, int type,
		 int protocol)
{
	struct sock_args a = { domain, type, protocol };

	return netns_run(p, side, open_socket, &a);
}

void netns_sockaddr(const struct netns_pair *p, enum netns_side side, uint16_t port,
		    struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons(port);
	sa->sin_addr = p->addr[side];
}

int netns_udp_bind(const struct netns_pair *p, enum netns_side side, uint16_t port)
{
	struct sockaddr_in sa;
	int fd, err;

	fd = netns_socket(p, side, AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return fd;
	netns_sockaddr(p, side, port, &sa);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int netns_udp_connect(const struct netns_pair *p, enum netns_side from, uint16_t port)
{
	struct sockaddr_in sa;
	int fd, err;

	fd = netns_socket(p, from, AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return fd;
	netns_sockaddr(p, !from, port, &sa);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

const char *netns_ifname(const struct netns_pair *p, enum netns_side side)
{
	return p->ifname[side];
}

int netns_set_napi(struct netns_pair *p, enum netns_napi mode, int prio, char *errbuf)
{
	if (mode == NETNS_NAPI_THREADED && !p->opts.gro)
		return set_err(errbuf, "napi=threaded needs gro: veth has no NAPI of its own "
			       "without it");
	if (prio < 0 || prio > 99)
		return set_err(errbuf, "napi_prio must be 0..99");
	p->opts.napi = mode;
	p->opts.napi_prio = mode == NETNS_NAPI_THREADED ? prio : 0;
	return netns_knob_napi(p, errbuf);
}

int netns_busy_poll(int fd, unsigned int usec)
{
	int v = (int)usec;

	if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &v, sizeof(v)))
		return -errno;
	return 0;
}

int netns_pair_open(struct netns_pair *p, const struct netns_opts *o, char *errbuf)
{
	static atomic_uint next_instance;
	char ab[2][INET_ADDRSTRLEN];
	int err, side;

	memset(p, 0, sizeof(*p));
	p->opts = *o;
	p->instance = atomic_fetch_add(&next_instance, 1) % 100;
	p->prefixlen = 30;
	err = netns_names(getpid(), p->instance, p->ifname[NETNS_A], p->ifname[NETNS_B]);
	if (err)
		return set_err(errbuf, "veth names do not fit IFNAMSIZ"), err;
	netns_addrs(getpid(), p->instance, &p->addr[NETNS_A], &p->addr[NETNS_B]);
	if (o->napi == NETNS_NAPI_THREADED && !o->gro)
		return set_err(errbuf, "napi=threaded needs gro: veth has no NAPI of its own without it");
	if (o->napi_prio < 0 || o->napi_prio > 99 ||
	    (o->napi_prio && o->napi != NETNS_NAPI_THREADED))
		return set_err(errbuf, "napi_prio must be 1..99, and needs napi=threaded");
	if (o->napi == NETNS_NAPI_THREADED && o->tso)
		warn_msg("napi=threaded with tso=on: local TCP/UDP bypasses veth's NAPI (per-CPU "
			 "backlog, NET_RX softirq): the napi threads will not poll it, and the run "
			 "fails its NAPI check");

	for (side = NETNS_A; side <= NETNS_B; side++) {
		err = ns_create();
		if (err < 0) {
			set_err(errbuf, "cannot create a network namespace: %s", strerror(-err));
			goto error;
		}
		p->nsfd[side] = err;
		p->have_ns[side] = true;
	}
	err = netns_knob_quiet(p, errbuf);
	if (!err)
		err = netns_link_create(p, errbuf);
	if (!err)
		err = netns_knob_offloads(p, errbuf);
	if (!err)
		err = netns_link_configure(p, errbuf);
	if (!err)
		err = netns_knob_napi(p, errbuf);
	if (err)
		goto error;
	debug_msg("netns: %s %s <-> %s %s, napi=%s", p->ifname[NETNS_A],
		  inet_ntop(AF_INET, &p->addr[NETNS_A], ab[NETNS_A], sizeof(ab[0])),
		  p->ifname[NETNS_B],
		  inet_ntop(AF_INET, &p->addr[NETNS_B], ab[NETNS_B], sizeof(ab[0])),
		  netns_napi_name(o->napi));
	return 0;
error:
	netns_pair_close(p);
	return err;
}

void netns_pair_close(struct netns_pair *p)
{
	int side, err;

	if (p->have_veth) {
		err = netns_link_delete(p);
		if (err)
			warn_msg("netns: cannot delete %s (%s); it goes with its namespace",
				 p->ifname[NETNS_A], strerror(-err));
		p->have_veth = false;
	}
	for (side = NETNS_A; side <= NETNS_B; side++) {
		if (!p->have_ns[side])
			continue;
		close(p->nsfd[side]);
		p->have_ns[side] = false;
	}
}

/* napi_comm_prefix - what "napi/<dev>-<id>" looks like once cut to 15 characters */
static void napi_comm_prefix(const char *ifname, char *buf, size_t len)
{
	snprintf(buf, len, "napi/%s-", ifname);
	if (strlen(buf) > 15)
		buf[15] = '\0';
}

/* comm_of - the comm of a pid (no newline); -errno when it is gone */
static int comm_of(const char *pid, char *buf, size_t len)
{
	char path[32];

	if (snprintf(path, sizeof(path), "/proc/%.16s/comm", pid) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	return read_file(path, buf, len);
}

int netns_napi_threads(const struct netns_pair *p, pid_t *pids, int max)
{
	char pre[2][32], comm[32];
	struct dirent *de;
	int n = 0, side, pid;
	DIR *d;

	for (side = NETNS_A; side <= NETNS_B; side++)
		napi_comm_prefix(p->ifname[side], pre[side], sizeof(pre[side]));
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (parse_int(de->d_name, 1, INT_MAX, &pid, NULL) ||
		    comm_of(de->d_name, comm, sizeof(comm)))
			continue;
		for (side = NETNS_A; side <= NETNS_B; side++) {
			if (strncmp(comm, pre[side], strlen(pre[side])))
				continue;
			if (n < max)
				pids[n] = pid;
			n++;
			break;
		}
	}
	closedir(d);
	return n;
}

int netns_napi_switches(pid_t pid, uint64_t *n)
{
	char path[48], buf[2048], *v;
	uint64_t sum = 0, x;
	int err, found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	err = read_file(path, buf, sizeof(buf));
	if (err)
		return err == -ENOENT ? -ESRCH : err;
	for (v = buf; (v = strstr(v, "ctxt_switches:\t")); found++) {
		v += strlen("ctxt_switches:\t");
		x = strtoull(v, NULL, 10);
		sum += x;
	}
	if (found != 2)
		return -EPROTO;		/* voluntary_ and nonvoluntary_ctxt_switches */
	*n = sum;
	return 0;
}

int netns_names(pid_t pid, unsigned int instance, char a[IFNAMSIZ], char b[IFNAMSIZ])
{
	int na = snprintf(a, IFNAMSIZ, NAME_VETH_PREFIX "%d-%ua", (int)pid, instance);
	int nb = snprintf(b, IFNAMSIZ, NAME_VETH_PREFIX "%d-%ub", (int)pid, instance);

	if (na < 0 || nb < 0 || na >= IFNAMSIZ || nb >= IFNAMSIZ)
		return -ENAMETOOLONG;
	return 0;
}

void netns_addrs(pid_t pid, unsigned int instance, struct in_addr *a, struct in_addr *b)
{
	uint32_t k = (uint32_t)(((uint64_t)pid * 100 + instance) & ((1U << 22) - 1));
	uint32_t base;

	if (!k)		/* 10.0.0.0/30 holds the network address of 10/8: skip it */
		k = 1;
	base = (10U << 24) | (k << 2);
	a->s_addr = htonl(base + 1);
	b->s_addr = htonl(base + 2);
}

const char *netns_napi_name(enum netns_napi mode)
{
	static const char *const names[] = {
		[NETNS_NAPI_SOFTIRQ] = "softirq",
		[NETNS_NAPI_THREADED] = "threaded",
	};

	return (unsigned int)mode < ARRAY_SIZE(names) ? names[mode] : NULL;
}
