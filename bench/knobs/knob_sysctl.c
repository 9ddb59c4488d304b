// SPDX-License-Identifier: GPL-2.0
/*
 * knob_sysctl.c - the network core's sysctls (sysctl.net.core.<name>,
 * /proc/sys/net/core/): busy polling and the budget of a NET_RX softirq.
 */
#include "knobs.h"

#include <stdio.h>
#include <string.h>

#include "msg.h"

static const struct knob_type sysctl_types[] = {
	{ "sysctl.net.core.busy_poll", &knob_sysctl_ops, KNOB_SYSCTL, "busy_poll", KV_INT, 0,
	  1000000, KNOB_EARLY, "busy-poll time for poll/select (us, 0 = off)" },
	{ "sysctl.net.core.busy_read", &knob_sysctl_ops, KNOB_SYSCTL, "busy_read", KV_INT, 0,
	  1000000, KNOB_EARLY, "busy-poll time for socket reads (us, 0 = off)" },
	{ "sysctl.net.core.netdev_budget", &knob_sysctl_ops, KNOB_SYSCTL, "netdev_budget",
	  KV_INT, 1, 1000000, KNOB_EARLY, "packets one NET_RX softirq may process" },
	{ "sysctl.net.core.netdev_budget_usecs", &knob_sysctl_ops, KNOB_SYSCTL,
	  "netdev_budget_usecs", KV_INT, 1, 10000000, KNOB_EARLY,
	  "time one NET_RX softirq may run (us)" },
	{ "sysctl.net.core.dev_weight", &knob_sysctl_ops, KNOB_SYSCTL, "dev_weight", KV_INT, 1,
	  1000000, KNOB_EARLY, "packets per NAPI poll of the backlog" },
	{ .pattern = NULL },
};

static int sysctl_parse(const char *rest, struct knob *k, char *errbuf)
{
	char list[200];

	k->type = knob_type_find(&knob_sysctl_ops, KNOB_SYSCTL, rest);
	if (!k->type)
		return set_err(errbuf, "'net.core.%s' is not a sysctl deferbench changes (known: "
			       "net.core.{%s})", rest,
			       knob_attrs(&knob_sysctl_ops, KNOB_SYSCTL, list, sizeof(list)));
	return 0;
}

static void sysctl_path(const struct knob *k, char *path, char *rpath, size_t len)
{
	snprintf(path, len, "/proc/sys/net/core/%s", k->type->attr);
	snprintf(rpath, len, "%s", path);
}

const struct knob_ops knob_sysctl_ops = {
	.prefix = "sysctl.net.core.",
	.types = sysctl_types,
	.parse = sysctl_parse,
	.path = sysctl_path,
};
