// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_sys.c - knobs on this machine: check that a knob can be applied, resolve it to
 * files or threads, write, read back and compare.
 */
#include "knobs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "msg.h"
#include "file.h"
#include "parse.h"

#define LO_QUEUES "/sys/class/net/lo/queues"

/* file_path - the file a single-file knob writes; "" for others */
static void file_path(const struct knob *k, char *buf, size_t len)
{
	const struct knob_type *t = k->type;

	buf[0] = '\0';
	switch (t->cls) {
	case KNOB_WQ_ATTR:
		snprintf(buf, len, WQ_SYSFS_DIR "/%s/%s", k->obj, t->attr);
		break;
	case KNOB_WQ_UNBOUND:
		snprintf(buf, len, WQ_SYSFS_DIR "/cpumask");
		break;
	case KNOB_WQ_PARAM:
		snprintf(buf, len, WQ_PARAM_DIR "/%s", t->attr);
		break;
	case KNOB_SYSCTL:
		snprintf(buf, len, "/proc/sys/net/core/%s", t->attr);
		break;
	default:
		break;
	}
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
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
		if (exists(path))
			off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", de->d_name);
	}
	closedir(d);
	return off ? buf : "none";
}

/* check_wq - the workqueue is WQ_SYSFS and has the attribute */
static int check_wq(const struct knob *k, const char *path, char *errbuf)
{
	char dir[TGT_PATH_MAX], list[256], per_cpu[8] = "";

	snprintf(dir, sizeof(dir), WQ_SYSFS_DIR "/%s/per_cpu", k->obj);
	if (read_file(dir, per_cpu, sizeof(per_cpu)))
		return set_err(errbuf, "workqueue '%s' has no sysfs attributes (not WQ_SYSFS); "
			       "tunable here: %s. Other unbound workqueues follow wq.cpumask and "
			       "param.default_affinity_scope", k->obj,
			       list_tunable_wqs(list, sizeof(list)));
	if (!exists(path))
		return set_err(errbuf, "workqueue '%s' has no '%s'%s", k->obj, k->type->attr,
			       !strcmp(per_cpu, "1") ? " (it is per-CPU: only max_active is tunable)" : "");
	return 0;
}

/* check_param - a module parameter must exist and be writable (0644, not 0444) */
static int check_param(const char *path, char *errbuf)
{
	struct stat st;

	if (stat(path, &st))
		return set_err(errbuf, "%s: %s", path, strerror(errno));
	if (!(st.st_mode & S_IWUSR))
		return set_err(errbuf, "%s is read-only on this kernel", path);
	return 0;
}

static bool ksoftirqd_thread(const struct thread_info *ti, void *arg)
{
	const struct knob *k = arg;
	char want[32];

	if (k->cpu < 0)
		return !strncmp(ti->comm, "ksoftirqd/", 10);
	snprintf(want, sizeof(want), "ksoftirqd/%d", k->cpu);
	return !strcmp(ti->comm, want);
}

int knob_check(const struct knob *k, char *errbuf)
{
	char path[TGT_PATH_MAX];

	file_path(k, path, sizeof(path));
	switch (k->type->cls) {
	case KNOB_WQ_ATTR:
		return check_wq(k, path, errbuf);
	case KNOB_WQ_PARAM:
		return check_param(path, errbuf);
	case KNOB_WQ_UNBOUND:
	case KNOB_SYSCTL:
		return exists(path) ? 0 : set_err(errbuf, "%s does not exist here", path);
	case KNOB_NETDEV:
		return exists(LO_QUEUES "/rx-0/rps_cpus") ? 0 :
			set_err(errbuf, "loopback has no RPS here (CONFIG_RPS off?)");
	case KNOB_SCHED_KSOFTIRQD:
		if (threads_find(ksoftirqd_thread, (void *)k, NULL, NULL) <= 0)
			return set_err(errbuf, "no thread %s", k->cpu < 0 ? "ksoftirqd/*" : k->name + 6);
		return 0;
	case KNOB_SCHED_NAPI:
		return 0;	/* the workloads create them */
	}
	return 0;
}

int knobs_check_set(const struct knob *ks, int n, char *errbuf)
{
	char buf[KNOB_VALUE_MAX], list[128];
	cpu_set_t unbound, mask;
	int i;

	if (read_file(WQ_SYSFS_DIR "/cpumask", buf, sizeof(buf)) ||
	    cpumask_parse_hex(buf, &unbound, NULL))
		CPU_ZERO(&unbound);
	for (i = 0; i < n; i++)
		if (ks[i].type->cls == KNOB_WQ_UNBOUND)
			cpumask_parse_hex(ks[i].value, &unbound, NULL);
	if (!CPU_COUNT(&unbound))
		return 0;	/* no workqueue sysfs: knob_check() says so */
	for (i = 0; i < n; i++) {
		if (ks[i].type->cls != KNOB_WQ_ATTR || strcmp(ks[i].type->attr, "cpumask"))
			continue;
		cpumask_parse_hex(ks[i].value, &mask, NULL);
		CPU_AND(&mask, &mask, &unbound);
		if (!CPU_COUNT(&mask))
			return set_err(errbuf, "%s = %s has no CPU in the unbound cpumask (%s, CPUs "
				       "%s): the kernel would silently use the whole unbound mask",
				       ks[i].name, ks[i].value, cpumask_format_hex(&unbound, buf, sizeof(buf)),
				       cpulist_format(&unbound, list, sizeof(list)));
	}
	return 0;
}

/* file_target - one target for path, its current value saved */
static int file_target(const struct knob *k, const char *path, struct knob_target *t,
		       char *errbuf)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->kind = TGT_FILE;
	t->type = k->type;
	snprintf(t->knob, sizeof(t->knob), "%s", k->name);
	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->rpath, sizeof(t->rpath), "%s", path);
	/* the unbound mask the user asked for; cpumask shows it minus isolated CPUs */
	if (k->type->cls == KNOB_WQ_UNBOUND && exists(WQ_SYSFS_DIR "/cpumask_requested"))
		snprintf(t->rpath, sizeof(t->rpath), WQ_SYSFS_DIR "/cpumask_requested");
	ret = target_read(t, t->orig, sizeof(t->orig));
	if (ret)
		set_err(errbuf, "reading %s: %s", t->rpath, strerror(-ret));
	return ret;
}

/* lo_targets - one target per loopback rx queue */
static int lo_targets(const struct knob *k, struct knob_target **out, int *n, char *errbuf)
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
		ret = file_target(k, path, &t[cnt], errbuf);
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

int knob_resolve(const struct knob *k, unsigned long long since_ticks,
		 struct knob_target **out, int *n, char *errbuf)
{
	char path[TGT_PATH_MAX];
	int ret;

	*out = NULL;
	*n = 0;
	switch (k->type->cls) {
	case KNOB_SCHED_KSOFTIRQD:
	case KNOB_SCHED_NAPI:
		return thread_targets(k, since_ticks, out, n, errbuf);
	case KNOB_NETDEV:
		return lo_targets(k, out, n, errbuf);
	default:
		break;
	}
	ret = knob_check(k, errbuf);
	if (ret)
		return ret;
	*out = calloc(1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	file_path(k, path, sizeof(path));
	ret = file_target(k, path, *out, errbuf);
	if (ret) {
		free(*out);
		*out = NULL;
		return ret;
	}
	*n = 1;
	return 0;
}

int target_read(const struct knob_target *t, char *val, size_t len)
{
	char raw[256];
	int ret;

	if (t->kind == TGT_THREAD)
		return thread_sched_read(t, val, len);
	ret = read_file(t->rpath, raw, sizeof(raw));
	if (ret)
		return ret;
	return knob_value_canon(t->type, raw, val, len, NULL) ? -EINVAL : 0;
}

/* check_unbound_effective - the kernel applies wq.cpumask minus isolated CPUs */
static int check_unbound_effective(const struct knob_target *t, const char *want,
				   char *errbuf)
{
	char now[KNOB_VALUE_MAX] = "?", iso[KNOB_VALUE_MAX] = "?";

	read_file(WQ_SYSFS_DIR "/cpumask", now, sizeof(now));
	if (knob_value_equal(t->type, now, want))
		return 0;
	read_file(WQ_SYSFS_DIR "/cpumask_isolated", iso, sizeof(iso));
	set_err(errbuf, "wq.cpumask: asked %s, the kernel uses %s (isolated CPUs: %s)",
		want, now, iso);
	return -EIO;
}

int target_write(const struct knob_target *t, const char *val, char *errbuf)
{
	char now[KNOB_VALUE_MAX], desc[TGT_PATH_MAX + 32];
	int ret;

	ret = target_read(t, now, sizeof(now));
	if (ret == -ESRCH)
		return ret;
	if (ret || !knob_value_equal(t->type, now, val)) {
		ret = t->kind == TGT_THREAD ? thread_sched_write(t, val, errbuf)
					     : write_file(t->path, val);
		if (ret == -ESRCH)
			return ret;
		if (ret) {
			if (t->kind == TGT_FILE)
				set_err(errbuf, "writing '%s' to %s: %s", val, t->path, strerror(-ret));
			return ret;
		}
		ret = target_read(t, now, sizeof(now));
	}
	if (ret) {
		set_err(errbuf, "reading back %s: %s", target_describe(t, desc, sizeof(desc)),
			strerror(-ret));
		return ret;
	}
	if (!knob_value_equal(t->type, now, val)) {
		set_err(errbuf, "%s: wrote '%s', the kernel shows '%s'",
			target_describe(t, desc, sizeof(desc)), val, now);
		return -EIO;
	}
	if (t->type->cls == KNOB_WQ_UNBOUND)
		return check_unbound_effective(t, val, errbuf);
	return 0;
}

int target_restore(const struct knob_target *t, char *errbuf)
{
	int ret = target_write(t, t->orig, errbuf);

	return ret == -ESRCH ? 0 : ret;
}

bool target_same(const struct knob_target *t, const struct knob_target *u)
{
	if (t->kind != u->kind)
		return false;
	if (t->kind == TGT_FILE)
		return !strcmp(t->path, u->path);
	return t->pid == u->pid && t->start == u->start;
}

const char *target_describe(const struct knob_target *t, char *buf, size_t len)
{
	if (t->kind == TGT_FILE)
		snprintf(buf, len, "%s", t->path);
	else
		snprintf(buf, len, "%s (pid %d)", t->comm, t->pid);
	return buf;
}

/* lo_queue_path - LO_QUEUES/rx-N/rps_cpus with a plain queue name */
static bool lo_queue_path(const char *path)
{
	const char *q = path + strlen(LO_QUEUES "/");
	const char *slash;
	char name[KNOB_OBJ_MAX];

	if (strncmp(path, LO_QUEUES "/rx-", strlen(LO_QUEUES "/rx-")))
		return false;
	slash = strchr(q, '/');
	if (!slash || strcmp(slash, "/rps_cpus") || (size_t)(slash - q) >= sizeof(name))
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(slash - q), q);
	return knob_safe_name(name);
}

bool target_allowed(const struct knob_target *t)
{
	char path[TGT_PATH_MAX];
	struct knob k;

	if (knob_parse_name(t->knob, &k, NULL) || k.type != t->type)
		return false;
	if (t->kind == TGT_THREAD) {
		if (k.type->val != KV_SCHED)
			return false;
		return !strncmp(t->comm, k.type->cls == KNOB_SCHED_NAPI ? "napi/" : "ksoftirqd/",
				k.type->cls == KNOB_SCHED_NAPI ? 5 : 10);
	}
	if (k.type->cls == KNOB_NETDEV)
		return lo_queue_path(t->path) && !strcmp(t->path, t->rpath);
	file_path(&k, path, sizeof(path));
	if (!path[0] || strcmp(path, t->path))
		return false;
	return !strcmp(t->rpath, t->path) ||
	       (k.type->cls == KNOB_WQ_UNBOUND && !strcmp(t->rpath, WQ_SYSFS_DIR "/cpumask_requested"));
}
