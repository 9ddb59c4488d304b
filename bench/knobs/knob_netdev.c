// SPDX-License-Identifier: GPL-2.0
/*
 * knob_netdev.c - network device attributes (netdev.lo.rps_cpus): loopback's only, one
 * file per receive queue; deferbench changes no host NIC, and the net workload sets
 * up its own veth pair through its options.
 */
#include "knobs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "msg.h"

#define LO_QUEUES "/sys/class/net/lo/queues"

static const struct knob_type netdev_types[] = {
	{ "netdev.lo.rps_cpus", &knob_netdev_ops, KNOB_NETDEV, "rps_cpus", KV_MASK0, 0, 0,
	  KNOB_EARLY, "RPS CPUs of loopback (hex mask, 0 = off)" },
	{ .pattern = NULL },
};

/* netdev_parse - netdev.lo.rps_cpus: host devices other than lo are refused */
static int netdev_parse(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');

	if (!dot)
		return set_err(errbuf, "expected netdev.lo.rps_cpus");
	if ((size_t)(dot - rest) != 2 || strncmp(rest, "lo", 2))
		return set_err(errbuf, "deferbench changes no host network device but lo; the net "
			       "workload configures its own veth pair through its options "
			       "(opt.<workload>.<option> in a [config])");
	strcpy(k->obj, "lo");
	if (!strcmp(dot + 1, "threaded"))
		return set_err(errbuf, "loopback has no NAPI instance to thread; use the net "
			       "workload's NAPI option instead");
	k->type = knob_type_find(&knob_netdev_ops, KNOB_NETDEV, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown device attribute '%s' (known: rps_cpus)", dot + 1);
	return 0;
}

static int netdev_check(const struct knob *k __unused, char *errbuf)
{
	return access(LO_QUEUES "/rx-0/rps_cpus", F_OK) ?
		set_err(errbuf, "loopback has no RPS here (CONFIG_RPS off?)") : 0;
}

/* netdev_resolve - one target per loopback rx queue */
static int netdev_resolve(const struct knob *k, unsigned long long since_ticks __unused,
			  struct knob_target **out, int *n, char *errbuf)
{
	char path[TGT_PATH_MAX];
	struct knob_target *t = NULL, *nt;
	struct dirent *de;
	int cnt = 0, ret = 0;
	DIR *d;

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

/* netdev_allowed - LO_QUEUES/rx-N/rps_cpus with a plain queue name */
static bool netdev_allowed(const struct knob *k __unused, const struct knob_target *t)
{
	const char *q = t->path + strlen(LO_QUEUES "/");
	const char *slash;
	char name[KNOB_OBJ_MAX];

	if (t->kind != TGT_FILE || strcmp(t->path, t->rpath) ||
	    strncmp(t->path, LO_QUEUES "/rx-", strlen(LO_QUEUES "/rx-")))
		return false;
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
	.resolve = netdev_resolve,
	.allowed = netdev_allowed,
};
