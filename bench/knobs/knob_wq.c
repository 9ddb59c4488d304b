// SPDX-License-Identifier: GPL-2.0
/*
 * knob_wq.c - the workqueue's knobs in sysfs, one class: the attributes of a WQ_SYSFS
 * workqueue (wq.<workqueue>.<attribute>, /sys/devices/virtual/workqueue/<wq>/) and the
 * unbound cpumask every unbound workqueue uses (wq.cpumask), with the checks that need
 * a configuration's knobs together.
 */
#include "knobs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "file.h"
#include "cpulist.h"
#include "parse.h"

static const struct knob_type wq_types[] = {
	{ "wq.<workqueue>.nice", &knob_wq_ops, KNOB_WQ_ATTR, "nice", KV_INT, -20, 19,
	  KNOB_EARLY, "nice of the workqueue's workers (-20..19)" },
	{ "wq.<workqueue>.cpumask", &knob_wq_ops, KNOB_WQ_ATTR, "cpumask", KV_MASK, 0, 0,
	  KNOB_EARLY, "CPUs the workers may run on (hex mask)" },
	{ "wq.<workqueue>.affinity_scope", &knob_wq_ops, KNOB_WQ_ATTR, "affinity_scope",
	  KV_SCOPE, 0, 0, KNOB_EARLY,
	  "worker pool sharing: default, cpu, smt, cache_shard, cache, numa, system" },
	{ "wq.<workqueue>.affinity_strict", &knob_wq_ops, KNOB_WQ_ATTR, "affinity_strict",
	  KV_BOOL, 0, 1, KNOB_EARLY, "1: workers never leave their affinity scope" },
	{ "wq.<workqueue>.max_active", &knob_wq_ops, KNOB_WQ_ATTR, "max_active", KV_INT, 1,
	  WQ_MAX_ACTIVE_LIMIT, KNOB_EARLY, "work items in flight (1..2048)" },
	{ "wq.cpumask", &knob_wq_ops, KNOB_WQ_UNBOUND, "cpumask", KV_MASK, 0, 0, KNOB_EARLY,
	  "CPUs every unbound workqueue may use (hex mask)" },
	{ .pattern = NULL },
};

/* wq_parse - wq.cpumask, or wq.<workqueue>.<attribute> */
static int wq_parse(const char *rest, struct knob *k, char *errbuf)
{
	const char *dot = strrchr(rest, '.');
	char list[160];
	size_t n;

	if (!strcmp(rest, "cpumask")) {
		k->type = knob_type_find(&knob_wq_ops, KNOB_WQ_UNBOUND, NULL);
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
	k->type = knob_type_find(&knob_wq_ops, KNOB_WQ_ATTR, dot + 1);
	if (!k->type)
		return set_err(errbuf, "unknown workqueue attribute '%s' (known: %s)", dot + 1,
			       knob_attrs(&knob_wq_ops, KNOB_WQ_ATTR, list, sizeof(list)));
	return 0;
}

/* wq_path - the attribute's file; the unbound mask is read back as requested */
static void wq_path(const struct knob *k, char *path, char *rpath, size_t len)
{
	if (k->type->cls == KNOB_WQ_UNBOUND) {
		snprintf(path, len, WQ_SYSFS_DIR "/cpumask");
		/* the unbound mask the user asked for; cpumask shows it minus isolated CPUs */
		snprintf(rpath, len, WQ_SYSFS_DIR "/cpumask_requested");
		return;
	}
	snprintf(path, len, WQ_SYSFS_DIR "/%s/%s", k->obj, k->type->attr);
	snprintf(rpath, len, "%s", path);
}

/* list_tunable_wqs - "writeback, blkcg_punt_bio": the WQ_SYSFS workqueues with nice */
static const char *list_tunable_wqs(char *buf, size_t len)
{
	char path[TGT_PATH_MAX];
	struct dirent *de;
	size_t off = 0;
	DIR *d;

	buf[0] = '\0';
	d = opendir(WQ_SYSFS_DIR);
	if (!d)
		return "none (no " WQ_SYSFS_DIR ")";
	while ((de = readdir(d)) && off < len) {
		if (!knob_safe_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), WQ_SYSFS_DIR "/%.63s/max_active", de->d_name);
		if (!access(path, F_OK))
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", de->d_name);
	}
	closedir(d);
	return off ? buf : "none";
}

/* wq_check - the unbound mask's file exists; a workqueue is WQ_SYSFS and has the attribute */
static int wq_check(const struct knob *k, char *errbuf)
{
	char dir[TGT_PATH_MAX], path[TGT_PATH_MAX], rpath[TGT_PATH_MAX], list[256];
	char per_cpu[8] = "";

	wq_path(k, path, rpath, sizeof(path));
	if (k->type->cls == KNOB_WQ_UNBOUND)
		return access(path, F_OK) ? set_err(errbuf, "%s does not exist here", path) : 0;
	snprintf(dir, sizeof(dir), WQ_SYSFS_DIR "/%s/per_cpu", k->obj);
	if (read_file(dir, per_cpu, sizeof(per_cpu)))
		return set_err(errbuf, "workqueue '%s' has no sysfs attributes (not WQ_SYSFS); "
			       "tunable here: %s. Other unbound workqueues follow wq.cpumask and "
			       "param.default_affinity_scope", k->obj,
			       list_tunable_wqs(list, sizeof(list)));
	if (access(path, F_OK))
		return set_err(errbuf, "workqueue '%s' has no '%s'%s", k->obj, k->type->attr,
			       !strcmp(per_cpu, "1") ? " (it is per-CPU: only max_active is tunable)" : "");
	return 0;
}

/* wq_written - the kernel applies wq.cpumask minus isolated CPUs: it must not differ */
static int wq_written(const struct knob_target *t, const char *want, char *errbuf)
{
	char now[KNOB_VALUE_MAX] = "?", iso[KNOB_VALUE_MAX] = "?";

	if (t->type->cls != KNOB_WQ_UNBOUND)
		return 0;
	read_file(WQ_SYSFS_DIR "/cpumask", now, sizeof(now));
	if (knob_value_equal(t->type, now, want))
		return 0;
	read_file(WQ_SYSFS_DIR "/cpumask_isolated", iso, sizeof(iso));
	set_err(errbuf, "wq.cpumask: asked %s, the kernel uses %s (isolated CPUs: %s)",
		want, now, iso);
	return -EIO;
}

int knobs_check_set(const struct knob *ks, int n, char *errbuf)
{
	char buf[KNOB_VALUE_MAX], list[128];
	cpu_set_t unbound, mask;
	int i;

	if (read_file(WQ_SYSFS_DIR "/cpumask", buf, sizeof(buf)) ||
	    knob_cpumask_parse_hex(buf, &unbound, NULL))
		CPU_ZERO(&unbound);
	for (i = 0; i < n; i++)
		if (ks[i].type->cls == KNOB_WQ_UNBOUND)
			knob_cpumask_parse_hex(ks[i].value, &unbound, NULL);
	if (!CPU_COUNT(&unbound))
		return 0;	/* no workqueue sysfs: knob_check() says so */
	for (i = 0; i < n; i++) {
		if (ks[i].type->cls != KNOB_WQ_ATTR || strcmp(ks[i].type->attr, "cpumask"))
			continue;
		knob_cpumask_parse_hex(ks[i].value, &mask, NULL);
		CPU_AND(&mask, &mask, &unbound);
		if (!CPU_COUNT(&mask))
			return set_err(errbuf, "%s = %s has no CPU in the unbound cpumask (%s, CPUs "
				       "%s): the kernel would silently use the whole unbound mask",
				       ks[i].name, ks[i].value,
				       knob_cpumask_format_hex(&unbound, buf, sizeof(buf)),
				       cpulist_format(&unbound, list, sizeof(list)));
	}
	return 0;
}

const struct knob_ops knob_wq_ops = {
	.prefix = "wq.",
	.types = wq_types,
	.parse = wq_parse,
	.check = wq_check,
	.path = wq_path,
	.written = wq_written,
};
