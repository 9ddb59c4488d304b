// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_show.c - `deferbench knobs show`: every tunable workqueue and its attributes,
 * the unbound cpumask, the workqueue parameters, softirq and NAPI threads, and the
 * worker pools as the kworker thread names reveal them (what wq_dump.py shows with
 * drgn, as far as sysfs and /proc can tell without it).
 */
#include "knobs_show.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "knobs.h"
#include "cpulist.h"
#include "parse.h"
#include "file.h"

static const char *const wq_attrs[] = {
	"per_cpu", "nice", "cpumask", "affinity_scope", "affinity_strict", "max_active",
};

/* attr - a sysfs attribute's value, or "-" */
static const char *attr(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_file(path, buf, len))
		snprintf(buf, len, "-");
	return buf;
}

/* mask_cpus - "3 (0-1)": a hex mask and its CPU list */
static const char *mask_cpus(const char *hex, char *buf, size_t len)
{
	char list[128];
	cpu_set_t set;

	if (knob_cpumask_parse_hex(hex, &set, NULL))
		snprintf(buf, len, "%s", hex);
	else
		snprintf(buf, len, "%s (%s)", hex, CPU_COUNT(&set) ?
			 cpulist_format(&set, list, sizeof(list)) : "none");
	return buf;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static void show_workqueues(FILE *f)
{
	char dir[TGT_PATH_MAX], v[ARRAY_SIZE(wq_attrs)][64], m[96];
	struct dirent **de;
	int n, i, shown = 0;
	size_t a;

	fprintf(f, "workqueues with sysfs attributes (%s):\n", WQ_SYSFS_DIR);
	n = scandir(WQ_SYSFS_DIR, &de, NULL, by_name);
	if (n < 0) {
		fprintf(f, "  none: %s\n", strerror(errno));
		return;
	}
	fprintf(f, "  %-18s %-7s %-4s %-10s %-16s %-6s %s\n", "NAME", "PER_CPU", "NICE",
		"CPUMASK", "AFFINITY_SCOPE", "STRICT", "MAX_ACTIVE");
	for (i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), WQ_SYSFS_DIR "/%.63s", de[i]->d_name);
		if (knob_safe_name(de[i]->d_name) && strcmp(attr(dir, "max_active", v[0], 64), "-")) {
			for (a = 0; a < ARRAY_SIZE(wq_attrs); a++)
				attr(dir, wq_attrs[a], v[a], sizeof(v[a]));
			fprintf(f, "  %-18s %-7s %-4s %-10s %-16s %-6s %s\n", de[i]->d_name, v[0], v[1],
				strcmp(v[2], "-") ? mask_cpus(v[2], m, sizeof(m)) : "-", v[3], v[4], v[5]);
			shown++;
		}
		free(de[i]);
	}
	free(de);
	if (!shown)
		fprintf(f, "  none\n");
	fprintf(f, "  (set with wq.NAME.ATTR; workqueues without WQ_SYSFS are not listed)\n");
}

static void show_unbound(FILE *f)
{
	char v[64], m[96];

	fprintf(f, "\nunbound cpumask (wq.cpumask):\n");
	fprintf(f, "  effective %s\n", mask_cpus(attr(WQ_SYSFS_DIR, "cpumask", v, sizeof(v)), m,
						 sizeof(m)));
	if (strcmp(attr(WQ_SYSFS_DIR, "cpumask_requested", v, sizeof(v)), "-"))
		fprintf(f, "  requested %s\n", mask_cpus(v, m, sizeof(m)));
	if (strcmp(attr(WQ_SYSFS_DIR, "cpumask_isolated", v, sizeof(v)), "-"))
		fprintf(f, "  isolated  %s\n", mask_cpus(v, m, sizeof(m)));
}

/* is_param_knob - a parameter deferbench may change */
static bool is_param_knob(const char *name)
{
	const struct knob_type *t;

	for (t = knob_param_ops.types; t->pattern; t++)
		if (!strcmp(t->attr, name))
			return true;
	return false;
}

static void show_params(FILE *f)
{
	char path[TGT_PATH_MAX], v[64];
	struct dirent **de;
	struct stat st;
	int n, i;

	fprintf(f, "\nworkqueue parameters (%s):\n", WQ_PARAM_DIR);
	n = scandir(WQ_PARAM_DIR, &de, NULL, by_name);
	if (n < 0) {
		fprintf(f, "  none: %s\n", strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), WQ_PARAM_DIR "/%.63s", de[i]->d_name);
		if (knob_safe_name(de[i]->d_name) && !stat(path, &st) && S_ISREG(st.st_mode)) {
			bool knob = is_param_knob(de[i]->d_name);

			fprintf(f, "  %-26s %-10s %s%s%s\n", de[i]->d_name,
				attr(WQ_PARAM_DIR, de[i]->d_name, v, sizeof(v)),
				st.st_mode & S_IWUSR ? "rw" : "ro", knob ? "  knob param." : "",
				knob ? de[i]->d_name : "");
		}
		free(de[i]);
	}
	free(de);
}

static bool softirq_or_napi(const struct thread_info *ti, void *arg __unused)
{
	return !strncmp(ti->comm, "ksoftirqd/", 10) || !strncmp(ti->comm, "napi/", 5);
}

/* print_thread - name, pid, policy, allowed CPUs */
static int print_thread(const struct thread_info *ti, void *arg)
{
	struct knob_target t = { .kind = TGT_THREAD, .pid = ti->pid, .start = ti->start };
	char pol[32] = "?", list[128] = "?";
	cpu_set_t set;

	snprintf(t.comm, sizeof(t.comm), "%s", ti->comm);
	knob_thread_sched_read(&t, pol, sizeof(pol));
	if (!sched_getaffinity(ti->pid, sizeof(set), &set))
		cpulist_format(&set, list, sizeof(list));
	fprintf(arg, "  %-18s pid %-7d %-10s cpus %s\n", ti->comm, ti->pid, pol, list);
	return 0;
}

static void show_threads(FILE *f)
{
	fprintf(f, "\nsoftirq and NAPI threads (sched.ksoftirqd, sched.napi):\n");
	if (knob_threads_find(softirq_or_napi, NULL, print_thread, f) <= 0)
		fprintf(f, "  none\n");
}

int knobs_show(FILE *f)
{
	show_workqueues(f);
	show_unbound(f);
	show_params(f);
	show_threads(f);
	knob_rt_show(f);
	wq_pools_show(f);
	return 0;
}
