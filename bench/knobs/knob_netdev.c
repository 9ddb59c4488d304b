// SPDX-License-Identifier: GPL-2.0
/*
 * knob_netdev.c - network device attributes in /sys/class/net/<dev>/:
 *   netdev.<dev>.threaded              NAPI polls in napi/<dev>-N kernel threads (0, 1)
 *   netdev.<dev>.napi_defer_hard_irqs  polls that find nothing before the device's
 *                                      interrupt is enabled again (0 = off)
 *   netdev.<dev>.gro_flush_timeout     ns a GRO batch may be held, and the timer that
 *                                      polls again while interrupts stay off (0 = off)
 *   netdev.lo.rps_cpus                 RPS CPUs of loopback, one file per receive queue
 * for any device in deferbench's network namespace (sysfs shows no other): a real NIC or
 * a veth. A device the kernel refuses a value for (no NAPI instance: loopback, a veth
 * without GRO) is refused with the kernel's reason. A device gone by the time a value
 * is put back (a veth deleted) has nothing left to restore.
 */
#include "knobs.h"

#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "grow.h"
#include "msg.h"

#define NET_DIR "/sys/class/net"
#define LO_QUEUES NET_DIR "/lo/queues"

static const struct knob_type netdev_types[] = {
	{ "netdev.<dev>.threaded", &knob_netdev_ops, KNOB_NETDEV, "threaded", KV_INT, 0, 2,
	  KNOB_EARLY, "NAPI polls of the device in napi/ kernel threads (0 off, 1 on; 2 busy "
	  "polling threads where the kernel has them)" },
	{ "netdev.<dev>.napi_defer_hard_irqs", &knob_netdev_ops, KNOB_NETDEV,
	  "napi_defer_hard_irqs", KV_INT, 0, 2147483647, KNOB_EARLY,
	  "empty NAPI polls before the device's interrupt is enabled again (0 = off)" },
	{ "netdev.<dev>.gro_flush_timeout", &knob_netdev_ops, KNOB_NETDEV, "gro_flush_timeout",
	  KV_INT, 0, 10000000000L, KNOB_EARLY,
	  "ns a GRO batch may wait, and the poll timer while interrupts stay deferred "
	  "(0 = off)" },
	{ "netdev.lo.rps_cpus", &knob_netdev_ops, KNOB_NETDEV, "rps_cpus", KV_MASK0, 0, 0,
	  KNOB_EARLY, "RPS CPUs of loopback (hex mask, 0 = off)" },
	{ .pattern = NULL },
};

static bool is_rps(const struct knob *k)
{
	return !strcmp(k->type->attr, "rps_cpus");
}

/* dev_name_ok - a name a network device can have: a path component of IFNAMSIZ */
static bool dev_name_ok(const char *s, size_t n)
{
	char name[KNOB_OBJ_MAX];

	if (!n || n >= IFNAMSIZ)
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)n, s);
	return knob_safe_name(name) && !strchr(name, ':');
}

/* netdev_parse - DEV.ATTR (DEV may hold dots: a VLAN eth0.100) */
static int netdev_parse(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');
	char list[160];

	if (!dot || !dev_name_ok(rest, (size_t)(dot - rest)))
		return set_err(errbuf, "expected netdev.<device>.<attribute> with a device name "
			       "of at most %d characters (netdev.eth1.threaded)", IFNAMSIZ - 1);
	snprintf(k->obj, sizeof(k->obj), "%.*s", (int)(dot - rest), rest);
	k->type = knob_type_find(&knob_netdev_ops, KNOB_NETDEV, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown device attribute '%s' (known: %s)", dot + 1,
			       knob_attrs(&knob_netdev_ops, KNOB_NETDEV, list, sizeof(list)));
	if (is_rps(k) && strcmp(k->obj, "lo"))
		return set_err(errbuf, "rps_cpus is loopback's only (netdev.lo.rps_cpus)");
	return 0;
}

/* devices - "eth0, lo, veth1": the devices of this namespace, for a message */
static const char *devices(char *buf, size_t len)
{
	struct dirent *de;
	size_t off = 0;
	DIR *d = opendir(NET_DIR);

	buf[0] = '\0';
	while (d && (de = readdir(d)) && off < len)
		if (de->d_name[0] != '.')
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						de->d_name);
	if (d)
		closedir(d);
	return buf;
}

static void netdev_path(const struct knob *k, char *path, char *rpath, size_t len)
{
	snprintf(path, len, NET_DIR "/%s/%s", k->obj, k->type->attr);
	snprintf(rpath, len, "%s", path);
}

static int netdev_check(const struct knob *k, char *errbuf)
{
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX], list[256];

	if (is_rps(k))
		return access(LO_QUEUES "/rx-0/rps_cpus", F_OK) ?
			set_err(errbuf, "loopback has no RPS here (CONFIG_RPS off?)") : 0;
	snprintf(path, sizeof(path), NET_DIR "/%s", k->obj);
	if (access(path, F_OK))
		return set_err(errbuf, "no network device '%s' in deferbench's network namespace "
			       "(here: %s)", k->obj, devices(list, sizeof(list)));
	netdev_path(k, path, rpath, sizeof(path));
	return access(path, F_OK) ? set_err(errbuf, "%s has no %s (this kernel is too old for "
					    "it?)", k->obj, k->type->attr) : 0;
}

/* gone - the device whose file path is has been removed: nothing to write or restore */
static bool gone(const char *path)
{
	char dev[TGT_PATH_MAX];
	const char *slash = strchr(path + strlen(NET_DIR "/"), '/');

	if (!slash)
		return false;
	snprintf(dev, sizeof(dev), "%.*s", (int)(slash - path), path);
	return access(dev, F_OK) && errno == ENOENT;
}

static int netdev_read(const struct knob_target *t, char *val, size_t len)
{
	char raw[256];
	int ret = read_file(t->rpath, raw, sizeof(raw));

	if (ret == -ENOENT && gone(t->rpath))
		return -ESRCH;
	if (ret)
		return ret;
	return knob_value_canon(t->type, raw, val, len, NULL) ? -EINVAL : 0;
}

/* netdev_write - the kernel's reason when it refuses, with what usually lies behind it */
static int netdev_write(const struct knob_target *t, const char *val, char *errbuf)
{
	int ret = write_file(t->path, val);

	if (ret == -ENOENT && gone(t->path))
		return -ESRCH;
	if (ret)
		set_err(errbuf, "writing '%s' to %s: the kernel refused: %s%s", val, t->path,
			strerror(-ret), ret == -EOPNOTSUPP && !strcmp(t->type->attr, "threaded") ?
			" (the device has no NAPI instance to thread: loopback has none; a veth "
			"needs GRO on and its link up, ethtool -K DEV gro on)" : "");
	return ret;
}

/* netdev_resolve - one file, or one per loopback rx queue for rps_cpus */
static int netdev_resolve(const struct knob *k, unsigned long long since_ticks __unused,
			  struct knob_target **out, int *n, char *errbuf)
{
	char path[TGT_PATH_MAX], rpath[TGT_PATH_MAX];
	struct knob_target *t = NULL, *nt;
	struct dirent *de;
	int cnt = 0, ret;
	DIR *d;

	ret = netdev_check(k, errbuf);
	if (ret)
		return ret;
	if (!is_rps(k)) {
		t = calloc(1, sizeof(*t));
		if (!t)
			return -ENOMEM;
		netdev_path(k, path, rpath, sizeof(path));
		ret = knob_file_target(k, path, rpath, t, errbuf);
		if (ret) {
			free(t);
			return ret;
		}
		*out = t;
		*n = 1;
		return 0;
	}
	d = opendir(LO_QUEUES);
	if (!d)
		return set_err(errbuf, LO_QUEUES ": %s", strerror(errno));
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "rx-", 3) || !knob_safe_name(de->d_name))
			continue;
		nt = grow_array(t, (size_t)cnt, sizeof(*t));
		if (!nt) {
			ret = -ENOMEM;
			break;
		}
		t = nt;
		snprintf(path, sizeof(path), LO_QUEUES "/%.63s/rps_cpus", de->d_name);
		ret = knob_file_target(k, path, path, &t[cnt], errbuf);
		if (ret)
			break;
		cnt++;
	}
	closedir(d);
	if (ret) {
		free(t);
		return ret;
	}
	*out = t;
	*n = cnt;
	return 0;
}

/*
 * netdev_allowed - a journal's target is NET_DIR/<device>/<attribute of a known type>,
 * or LO_QUEUES/rx-N/rps_cpus: nothing else is ever written by restore
 */
static bool netdev_allowed(const struct knob *k, const struct knob_target *t)
{
	char want[TGT_PATH_MAX], rpath[TGT_PATH_MAX], name[KNOB_OBJ_MAX];
	const char *q, *slash;

	if (t->kind != TGT_FILE || strcmp(t->path, t->rpath))
		return false;
	if (!is_rps(k)) {
		netdev_path(k, want, rpath, sizeof(want));
		return !strcmp(t->path, want);
	}
	if (strncmp(t->path, LO_QUEUES "/rx-", strlen(LO_QUEUES "/rx-")))
		return false;
	q = t->path + strlen(LO_QUEUES "/");
	slash = strchr(q, '/');
	if (!slash || strcmp(slash, "/rps_cpus") || (size_t)(slash - q) >= sizeof(name))
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(slash - q), q);
	return knob_safe_name(name);
}

const struct knob_ops knob_netdev_ops = {
	.prefix = "netdev.",
	.types = netdev_types,
	.parse = netdev_parse,
	.check = netdev_check,
	.path = netdev_path,
	.resolve = netdev_resolve,
	.read = netdev_read,
	.write = netdev_write,
	.allowed = netdev_allowed,
};
