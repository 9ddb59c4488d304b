// SPDX-License-Identifier: GPL-2.0
/*
 * netns_knob.c - per-device knobs of the veth pair, each written inside its own
 * namespace and read back: GRO and TSO (ethtool ioctl), NAPI threading and RPS (sysfs), IPv6
 * (per-namespace sysctl). Nothing here is visible from, or changes, the root namespace.
 *
 * sysfs shows a network device only to a sysfs instance mounted from inside the
 * device's namespace. Rather than a private mount namespace with sysfs mounted on
 * /sys, a helper thread inside the namespace creates a *detached* sysfs mount with
 * fsopen()/fsmount(): a file descriptor to a mount that is attached nowhere, that no
 * other process sees, and that disappears when closed. The netns-aware sysctls of
 * /proc/sys/net resolve against the namespace of the task that looks them up, so the
 * same helper thread opens those.
 *
 * On 6.18 the netdev generic netlink family also has a per-NAPI "threaded" attribute
 * (napi-set, NETDEV_A_NAPI_THREADED), but no per-device one and no libnl wrapper;
 * the per-device sysfs file is the interface 'threaded' mode is defined by.
 */
#define DEFERBENCH_ALLOW_NETNS_INT_H
#include "netns_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "msg.h"
#include "cpulist.h"
#include "parse.h"

/* write_at - write a whole value to a file under @dirfd (sysfs: one write) */
static int write_at(int dirfd, const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

/* read_at - a small file under @dirfd, NUL-terminated, one trailing newline removed */
static int read_at(int dirfd, const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err = 0;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		err = -errno;
	close(fd);
	if (err)
		return err;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* write_check - write @val, read it back, and insist the kernel kept it */
static int write_check(int dirfd, const char *path, const char *val, char *errbuf)
{
	char back[64];
	int err;

	err = write_at(dirfd, path, val);
	if (err)
		return set_err(errbuf, "cannot write %s to %s: %s", val, path, strerror(-err)), err;
	err = read_at(dirfd, path, back, sizeof(back));
	if (err)
		return set_err(errbuf, "cannot read back %s: %s", path, strerror(-err)), err;
	if (strcmp(back, val))
		return set_err(errbuf, "%s reads %s after writing %s", path, back, val), -EIO;
	return 0;
}

struct quiet_args {
	char *errbuf;
};

/* ipv6_off - in the namespace: disable IPv6 so that no RS/MLD/DAD packet joins the load */
static int ipv6_off(void *arg)
{
	struct quiet_args *a = arg;
	int dirfd, err;

	dirfd = open("/proc/sys/net/ipv6/conf", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return errno == ENOENT ? 0 : -errno;	/* no IPv6 at all: already quiet */
	err = write_check(dirfd, "default/disable_ipv6", "1", a->errbuf);
	if (!err)
		err = write_check(dirfd, "all/disable_ipv6", "1", a->errbuf);
	close(dirfd);
	return err;
}

int netns_knob_quiet(struct netns_pair *p, char *errbuf)
{
	struct quiet_args a = { errbuf };
	int side, err;

	for (side = NETNS_A; side <= NETNS_B; side++) {
		err = netns_run(p, side, ipv6_off, &a);
		if (err)
			return err;
	}
	return 0;
}

/* ethtool_value - one legacy ethtool get/set (SIOCETHTOOL) on @ifname */
static int ethtool_value(int fd, const char *ifname, uint32_t cmd, uint32_t *val)
{
	struct ethtool_value ev = { .cmd = cmd, .data = *val };
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&ev;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		return -errno;
	*val = ev.data;
	return 0;
}

/* ethtool_check - set one offload through a socket of its namespace, read it back */
static int ethtool_check(int fd, const char *ifname, const char *name, uint32_t set,
			 uint32_t get, bool want, char *errbuf)
{
	uint32_t v = want;
	int err;

	err = ethtool_value(fd, ifname, set, &v);
	if (!err)
		err = ethtool_value(fd, ifname, get, &v);
	if (err)
		return set_err(errbuf, "ethtool %s on %s: %s", name, ifname, strerror(-err)), err;
	if (!v != !want)
		return set_err(errbuf, "%s: %s stays %s", ifname, name, v ? "on" : "off"), -EIO;
	return 0;
}

/*
 * netns_knob_offloads - GRO and TSO of both ends. Both decide which path a packet
 * takes into the peer (drivers/net/veth.c, veth_xmit): veth's own NAPI exists only
 * with GRO (or XDP), and even then veth_skb_is_eligible_for_gro() hands a packet to it
 * only when the *sending* device has TSO off (or, for UDP only, when the receiver has
 * rx-gro-list/rx-udp-gro-forwarding). Otherwise veth_xmit() uses __netif_rx(): the
 * per-CPU backlog, always polled in NET_RX softirq, whatever 'threaded' says. TSO is
 * on by default, so with the veth defaults threaded NAPI creates its kthreads and
 * they stay idle.
 */
int netns_knob_offloads(struct netns_pair *p, char *errbuf)
{
	int side, fd, err;

	for (side = NETNS_A; side <= NETNS_B; side++) {
		fd = netns_socket(p, side, AF_INET, SOCK_DGRAM, 0);
		if (fd < 0)
			return set_err(errbuf, "socket: %s", strerror(-fd)), fd;
		err = ethtool_check(fd, p->ifname[side], "gro", ETHTOOL_SGRO, ETHTOOL_GGRO,
				    p->opts.gro, errbuf);
		if (!err)
			err = ethtool_check(fd, p->ifname[side], "tso", ETHTOOL_STSO, ETHTOOL_GTSO,
					    p->opts.tso, errbuf);
		close(fd);
		if (err)
			return err;
	}
	return 0;
}

/* sysfs_mount - in the namespace: a detached sysfs mount that shows its devices */
static int sysfs_mount(void *arg __unused)
{
	int fs, mnt, err;

	fs = fsopen("sysfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		err = -errno;
		close(fs);
		return err;
	}
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	err = mnt < 0 ? -errno : mnt;
	close(fs);
	return err;
}

/* side_napi - threaded and rps_cpus of one end, in its namespace's sysfs */
static int side_napi(struct netns_pair *p, enum netns_side side, int sysfs, char *errbuf)
{
	char path[96], mask[128], back[128];
	cpu_set_t got;
	int err;

	snprintf(path, sizeof(path), "class/net/%s/threaded", p->ifname[side]);
	/* written either way: a running pair switches between the two (netns_set_napi) */
	err = write_check(sysfs, path, p->opts.napi == NETNS_NAPI_THREADED ? "1" : "0", errbuf);
	if (err || !CPU_COUNT(&p->opts.rps))
		return err;

	snprintf(path, sizeof(path), "class/net/%s/queues/rx-0/rps_cpus", p->ifname[side]);
	err = netns_mask_format(&p->opts.rps, mask, sizeof(mask));
	if (!err)
		err = write_at(sysfs, path, mask);
	if (!err)
		err = read_at(sysfs, path, back, sizeof(back));
	if (err)
		return set_err(errbuf, "rps_cpus of %s: %s", p->ifname[side], strerror(-err)), err;
	if (netns_mask_parse(back, &got) || !CPU_EQUAL(&got, &p->opts.rps))
		return set_err(errbuf, "%s reads %s after writing %s", path, back, mask), -EIO;
	return 0;
}

/*
 * napi_sched - SCHED_FIFO prio (0: SCHED_OTHER) for the napi/ kthreads of this pair,
 * read back. They belong to the pair's devices and die with them: nothing to restore.
 */
static int napi_sched(const pid_t *pids, int n, int prio, char *errbuf)
{
	int policy = prio ? SCHED_FIFO : SCHED_OTHER;
	struct sched_param sp = { .sched_priority = prio };
	int i;

	for (i = 0; i < n; i++) {
		if (sched_setscheduler(pids[i], policy, &sp))
			return set_err(errbuf, "%s %d for napi thread %d: %s",
				       prio ? "SCHED_FIFO" : "SCHED_OTHER", prio, (int)pids[i],
				       strerror(errno)), -errno;
		if (sched_getscheduler(pids[i]) != policy || sched_getparam(pids[i], &sp) ||
		    sp.sched_priority != prio)
			return set_err(errbuf, "napi thread %d is not %s %d after setting it",
				       (int)pids[i], prio ? "SCHED_FIFO" : "SCHED_OTHER", prio), -EIO;
	}
	return 0;
}

/*
 * napi_threads_settle - the pair's napi/ kthreads once there are at least min and at
 * most max of them: the kernel starts and stops them when 'threaded' is written, and
 * may take a moment to let a stopped one go (bounded: about 200 ms). Returns how many,
 * or -errno.
 */
static int napi_threads_settle(const struct netns_pair *p, pid_t *pids, int npids, int min,
			       int max)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int tries, n = 0;

	for (tries = 0; tries < 100; tries++) {
		n = netns_napi_threads(p, pids, npids);
		if (n < 0 || (n >= min && n <= max))
			return n;
		nanosleep(&ts, NULL);
	}
	return n;
}

int netns_knob_napi(struct netns_pair *p, char *errbuf)
{
	bool threaded = p->opts.napi == NETNS_NAPI_THREADED;
	int side, sysfs, err = 0, n;
	pid_t pids[8];

	for (side = NETNS_A; side <= NETNS_B && !err; side++) {
		sysfs = netns_run(p, side, sysfs_mount, NULL);
		if (sysfs < 0)
			return set_err(errbuf, "cannot mount sysfs in the namespace: %s",
				       strerror(-sysfs)), sysfs;
		err = side_napi(p, side, sysfs, errbuf);
		close(sysfs);
	}
	if (err)
		return err;
	/* the point of threaded mode: kthreads, one per NAPI (veth: one per end); none else */
	n = napi_threads_settle(p, pids, (int)ARRAY_SIZE(pids), threaded ? 2 : 0,
				threaded ? (int)ARRAY_SIZE(pids) : 0);
	if (n < 0)
		return set_err(errbuf, "cannot list the napi/ kthreads: %s", strerror(-n)), n;
	if (threaded && n < 2)
		return set_err(errbuf, "threaded NAPI is set but %d napi/ kthreads exist", n), -ESRCH;
	if (!threaded && n)
		return set_err(errbuf, "NAPI is back in softirq but %d napi/ kthreads are still "
			       "there", n), -EBUSY;
	return threaded ? napi_sched(pids, n < 8 ? n : 8, p->opts.napi_prio, errbuf) : 0;
}

struct threaded_args {
	const char *ifname;
	char val[16];
};

/* read_threaded - in the namespace: what class/net/DEV/threaded reads */
static int read_threaded(void *arg)
{
	struct threaded_args *a = arg;
	char path[96];
	int sysfs, err;

	sysfs = sysfs_mount(NULL);
	if (sysfs < 0)
		return sysfs;
	snprintf(path, sizeof(path), "class/net/%s/threaded", a->ifname);
	err = read_at(sysfs, path, a->val, sizeof(a->val));
	close(sysfs);
	return err;
}

int netns_napi_check(const struct netns_pair *p, char *errbuf)
{
	bool threaded = p->opts.napi == NETNS_NAPI_THREADED;
	struct threaded_args a;
	pid_t pids[8];
	int side, err, n;

	for (side = NETNS_A; side <= NETNS_B; side++) {
		a.ifname = p->ifname[side];
		err = netns_run(p, side, read_threaded, &a);
		if (err)
			return set_err(errbuf, "cannot read class/net/%s/threaded: %s",
				       a.ifname, strerror(-err)), err;
		if (strcmp(a.val, threaded ? "1" : "0"))
			return set_err(errbuf, "class/net/%s/threaded reads %s, not %s: napi=%s "
				       "was undone", a.ifname, a.val, threaded ? "1" : "0",
				       netns_napi_name(p->opts.napi)), -EIO;
	}
	n = netns_napi_threads(p, pids, (int)ARRAY_SIZE(pids));
	if (n < 0)
		return set_err(errbuf, "cannot list the napi/ threads: %s", strerror(-n)), n;
	if (threaded && n < 2)
		return set_err(errbuf, "napi=threaded, but %d napi/%s* kthreads exist", n,
			       p->ifname[NETNS_A]), -ESRCH;
	if (!threaded && n)
		return set_err(errbuf, "napi=softirq, but %d napi/%s* kthreads exist", n,
			       p->ifname[NETNS_A]), -EIO;
	return 0;
}

int netns_rps_parse(const char *s, cpu_set_t *set, const char *online_override, char *errbuf)
{
	char why[ERRBUF_LEN];

	CPU_ZERO(set);
	if (!strcmp(s, "off"))
		return 0;
	if (cpulist_parse(s, set, online_override, why))
		return set_err(errbuf, "net option 'rps': %s (or 'off')", why);
	return 0;
}

int netns_mask_format(const cpu_set_t *set, char *buf, size_t len)
{
	int words = (CPU_SETSIZE + 31) / 32, w, cpu, n, off = 0;
	bool started = false;
	uint32_t v;

	for (w = words - 1; w >= 0; w--) {
		for (v = 0, cpu = 0; cpu < 32; cpu++)
			if (CPU_ISSET(w * 32 + cpu, set))
				v |= 1U << cpu;
		if (!started && !v && w)
			continue;
		n = snprintf(buf + off, len - off, started ? ",%08x" : "%x", v);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += n;
		started = true;
	}
	return 0;
}

int netns_mask_parse(const char *s, cpu_set_t *set)
{
	size_t ngroups = 1, g = 0, digits = 0;
	const char *c;
	uint32_t v = 0;

	for (c = s; *c; c++)
		ngroups += *c == ',';
	if (ngroups * 32 > CPU_SETSIZE)
		return -EINVAL;
	CPU_ZERO(set);
	for (c = s;; c++) {
		if (*c == ',' || !*c) {
			if (!digits)
				return -EINVAL;
			for (int b = 0; b < 32; b++)
				if (v & (1U << b))
					CPU_SET((ngroups - 1 - g) * 32 + b, set);
			if (!*c)
				return 0;
			g++, v = 0, digits = 0;
		} else if (isxdigit((unsigned char)*c) && ++digits <= 8) {
			v = v << 4 | (uint32_t)(isdigit((unsigned char)*c) ? *c - '0' :
						(tolower((unsigned char)*c) - 'a' + 10));
		} else {
			return -EINVAL;
		}
	}
}
