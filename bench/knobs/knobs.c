// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - knob names: the table of what deferbench may change, and pure validation
 * of "name = value" (no file is read but the online CPU list). Values: knobs_value.c.
 */
#include "knobs.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "parse.h"

const struct knob_type knob_types[] = {
	{ "wq.<workqueue>.nice", KNOB_WQ_ATTR, "nice", KV_INT, -20, 19, KNOB_EARLY,
	  "nice of the workqueue's workers (-20..19)" },
	{ "wq.<workqueue>.cpumask", KNOB_WQ_ATTR, "cpumask", KV_MASK, 0, 0, KNOB_EARLY,
	  "CPUs the workers may run on (hex mask)" },
	{ "wq.<workqueue>.affinity_scope", KNOB_WQ_ATTR, "affinity_scope", KV_SCOPE, 0, 0,
	  KNOB_EARLY, "worker pool sharing: default, cpu, smt, cache, numa, system" },
	{ "wq.<workqueue>.affinity_strict", KNOB_WQ_ATTR, "affinity_strict", KV_BOOL, 0, 1,
	  KNOB_EARLY, "1: workers never leave their affinity scope" },
	{ "wq.<workqueue>.max_active", KNOB_WQ_ATTR, "max_active", KV_INT, 1,
	  WQ_MAX_ACTIVE_LIMIT, KNOB_EARLY, "work items in flight (1..2048)" },
	{ "wq.cpumask", KNOB_WQ_UNBOUND, "cpumask", KV_MASK, 0, 0, KNOB_EARLY,
	  "CPUs every unbound workqueue may use (hex mask)" },
	{ "param.default_affinity_scope", KNOB_WQ_PARAM, "default_affinity_scope",
	  KV_SCOPE_NODFL, 0, 0, KNOB_EARLY,
	  "scope of workqueues left at 'default': cpu, smt, cache, numa, system" },
	{ "param.cpu_intensive_thresh_us", KNOB_WQ_PARAM, "cpu_intensive_thresh_us", KV_INT,
	  1, 100000000, KNOB_EARLY, "per-CPU work running longer is CPU intensive (us)" },
	{ "sched.ksoftirqd[.<cpu>]", KNOB_SCHED_KSOFTIRQD, NULL, KV_SCHED, 0, 0, KNOB_EARLY,
	  "scheduling of ksoftirqd/N (all CPUs, or one)" },
	{ "sched.napi", KNOB_SCHED_NAPI, NULL, KV_SCHED, 0, 0, KNOB_LATE,
	  "scheduling of the NAPI threads of the run's own veth pairs" },
	{ "sysctl.net.core.busy_poll", KNOB_SYSCTL, "busy_poll", KV_INT, 0, 1000000,
	  KNOB_EARLY, "busy-poll time for poll/select (us, 0 = off)" },
	{ "sysctl.net.core.busy_read", KNOB_SYSCTL, "busy_read", KV_INT, 0, 1000000,
	  KNOB_EARLY, "busy-poll time for socket reads (us, 0 = off)" },
	{ "sysctl.net.core.netdev_budget", KNOB_SYSCTL, "netdev_budget", KV_INT, 1, 1000000,
	  KNOB_EARLY, "packets one NET_RX softirq may process" },
	{ "sysctl.net.core.netdev_budget_usecs", KNOB_SYSCTL, "netdev_budget_usecs", KV_INT,
	  1, 10000000, KNOB_EARLY, "time one NET_RX softirq may run (us)" },
	{ "sysctl.net.core.dev_weight", KNOB_SYSCTL, "dev_weight", KV_INT, 1, 1000000,
	  KNOB_EARLY, "packets per NAPI poll of the backlog" },
	{ "netdev.lo.rps_cpus", KNOB_NETDEV, "rps_cpus", KV_MASK0, 0, 0, KNOB_EARLY,
	  "RPS CPUs of loopback (hex mask, 0 = off)" },
	{ .pattern = NULL },
};

const char *const knob_scope_names[] = {
	"default", "cpu", "smt", "cache", "numa", "system", NULL,
};

bool knob_safe_name(const char *s)
{
	const char *p;

	if (!s || !*s || strlen(s) >= KNOB_OBJ_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (p = s; *p; p++)
		if (*p == '/' || !isgraph((unsigned char)*p))
			return false;
	return true;
}

/* check_mask_online - a mask's CPUs must be online, and it must not be empty */
static int check_mask_online(const struct knob *k, const char *online, char *errbuf)
{
	cpu_set_t set, on, extra;
	char list[128], onl[128], hex[80];

	cpumask_parse_hex(k->value, &set, NULL);
	if (!CPU_COUNT(&set) && k->type->val == KV_MASK)
		return set_err(errbuf, "mask 0 selects no CPU");
	if (online ? cpulist_parse_raw(online, &on, NULL) : online_cpus(&on) < 0 ? -1 : 0)
		return set_err(errbuf, "cannot read the online CPUs");
	CPU_XOR(&extra, &set, &on);
	CPU_AND(&extra, &extra, &set);
	if (CPU_COUNT(&extra))
		return set_err(errbuf, "mask %s selects CPU %s, not online (online: %s, mask %s)",
			       k->value, cpulist_format(&extra, list, sizeof(list)),
			       cpulist_format(&on, onl, sizeof(onl)),
			       cpumask_format_hex(&on, hex, sizeof(hex)));
	return 0;
}

/* check_value - bounds and known names, after canonicalisation */
static int check_value(const struct knob *k, const char *online, char *errbuf)
{
	const struct knob_type *t = k->type;
	const char *const *n;
	long long v;

	switch (t->val) {
	case KV_INT:
		v = strtoll(k->value, NULL, 10);
		if (v < t->min || v > t->max)
			return set_err(errbuf, "%lld is out of range [%ld, %ld]", v, t->min, t->max);
		return 0;
	case KV_MASK:
	case KV_MASK0:
		return check_mask_online(k, online, errbuf);
	case KV_SCOPE:
	case KV_SCOPE_NODFL:
		if (t->val == KV_SCOPE_NODFL && !strcmp(k->value, "default"))
			return set_err(errbuf, "'default' is what this parameter defines; "
				       "use cpu, smt, cache, numa or system");
		for (n = knob_scope_names; *n; n++)
			if (!strcmp(*n, k->value))
				return 0;
		return set_err(errbuf, "unknown affinity scope '%s' (default, cpu, smt, cache, "
			       "numa, system)", k->value);
	default:
		return 0;
	}
}

/* find_type - the table entry of class cls with attribute attr (NULL: the first) */
static const struct knob_type *find_type(enum knob_class cls, const char *attr)
{
	const struct knob_type *t;

	for (t = knob_types; t->pattern; t++)
		if (t->cls == cls && (!attr || (t->attr && !strcmp(t->attr, attr))))
			return t;
	return NULL;
}

/* list_attrs - "a, b, c": the attributes of one class, for error messages */
static const char *list_attrs(enum knob_class cls, char *buf, size_t len)
{
	const struct knob_type *t;
	size_t off = 0;

	buf[0] = '\0';
	for (t = knob_types; t->pattern; t++)
		if (t->cls == cls && t->attr && off < len)
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", t->attr);
	return buf;
}

/* parse_wq_name - wq.cpumask, or wq.<workqueue>.<attribute> */
static int parse_wq_name(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');
	char list[160];
	size_t n;

	if (!strcmp(rest, "cpumask")) {
		k->type = find_type(KNOB_WQ_UNBOUND, NULL);
		return 0;
	}
	if (!dot)
		return set_err(errbuf, "expected wq.<workqueue>.<attribute> or wq.cpumask");
	n = (size_t)(dot - rest);
	if (n >= sizeof(k->obj))
		return set_err(errbuf, "workqueue name too long");
	memcpy(k->obj, rest, n);
	k->obj[n] = '\0';
	if (!knob_safe_name(k->obj))
		return set_err(errbuf, "'%s' is not a workqueue name", k->obj);
	k->type = find_type(KNOB_WQ_ATTR, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown workqueue attribute '%s' (known: %s)", dot + 1,
			       list_attrs(KNOB_WQ_ATTR, list, sizeof(list)));
	return 0;
}

/* parse_sched_name - sched.ksoftirqd, sched.ksoftirqd.<cpu>, sched.napi */
static int parse_sched_name(const char *rest, struct knob *k, char *errbuf)
{
	if (!strcmp(rest, "napi")) {
		k->type = find_type(KNOB_SCHED_NAPI, NULL);
		return 0;
	}
	if (!strncmp(rest, "napi.", 5))
		return set_err(errbuf, "sched.napi takes no device: it applies to the napi/* "
			       "threads the run's own workloads create, never a host NIC's");
	if (strncmp(rest, "ksoftirqd", 9) || (rest[9] && rest[9] != '.'))
		return set_err(errbuf, "expected sched.ksoftirqd, sched.ksoftirqd.<cpu> or sched.napi "
			       "(worker threads are tuned through their workqueue: wq.<wq>.nice)");
	k->type = find_type(KNOB_SCHED_KSOFTIRQD, NULL);
	if (rest[9] && parse_int(rest + 10, 0, CPU_SETSIZE - 1, &k->cpu, errbuf))
		return -EINVAL;
	return 0;
}

/* parse_netdev_name - netdev.lo.rps_cpus: host devices other than lo are refused */
static int parse_netdev_name(const char *rest, struct knob *k, char *errbuf)
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
	k->type = find_type(KNOB_NETDEV, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown device attribute '%s' (known: rps_cpus)", dot + 1);
	return 0;
}

/* parse_class - dispatch on the part before the first dot */
static int parse_class(const char *name, struct knob *k, char *errbuf)
{
	char list[200];

	if (!strncmp(name, "wq.", 3))
		return parse_wq_name(name + 3, k, errbuf);
	if (!strncmp(name, "sched.", 6))
		return parse_sched_name(name + 6, k, errbuf);
	if (!strncmp(name, "netdev.", 7))
		return parse_netdev_name(name + 7, k, errbuf);
	if (!strncmp(name, "param.", 6)) {
		k->type = find_type(KNOB_WQ_PARAM, name + 6);
		if (!k->type)
			return set_err(errbuf, "'%s' is not a workqueue parameter deferbench changes "
				       "(known: %s)", name + 6,
				       list_attrs(KNOB_WQ_PARAM, list, sizeof(list)));
		return 0;
	}
	if (!strncmp(name, "sysctl.net.core.", 16)) {
		k->type = find_type(KNOB_SYSCTL, name + 16);
		if (!k->type)
			return set_err(errbuf, "'%s' is not a sysctl deferbench changes (known: "
				       "net.core.{%s})", name + 7,
				       list_attrs(KNOB_SYSCTL, list, sizeof(list)));
		return 0;
	}
	return set_err(errbuf, "unknown knob '%s' (knobs start with wq., param., sched., "
		       "sysctl.net.core. or netdev.lo.)", name);
}

int knob_parse_name(const char *name, struct knob *k, char *errbuf)
{
	memset(k, 0, sizeof(*k));
	k->cpu = -1;
	if (!name || strlen(name) >= sizeof(k->name))
		return set_err(errbuf, "knob name too long");
	strcpy(k->name, name);
	return parse_class(name, k, errbuf);
}

int knob_parse(const char *name, const char *value, struct knob *k, const char *online,
	       char *errbuf)
{
	int ret;

	ret = knob_parse_name(name, k, errbuf);
	if (ret)
		return ret;
	if (!value || !*value)
		return set_err(errbuf, "empty value");
	ret = knob_value_canon(k->type, value, k->value, sizeof(k->value), errbuf);
	if (ret)
		return ret;
	return check_value(k, online, errbuf);
}
