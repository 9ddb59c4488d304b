// SPDX-License-Identifier: GPL-2.0
/*
 * knobs_thread.c - kernel threads (ksoftirqd/N, napi/DEV-N, kworkers): find them in
 * /proc, and read and set their policy, priority and nice (knob_sched.c's knobs,
 * knobs show, the worker pools).
 *
 * A thread is named by pid *and* start time: after a crash, `deferbench restore` must
 * not change a process that merely reused the pid of a thread that has exited.
 */
#include "knobs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "file.h"
#include "grow.h"

#define PF_KTHREAD 0x00200000	/* include/linux/sched.h */

unsigned long long knob_boot_ticks(void)
{
	struct timespec ts;
	long hz = sysconf(_SC_CLK_TCK);

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * hz + (unsigned long long)ts.tv_nsec * hz / NSEC_PER_SEC;
}

int knob_thread_info_read(pid_t pid, struct thread_info *ti)
{
	unsigned long long flags = 0;
	char path[64], buf[1024], *open, *close, *p;
	int field, ret;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	ret = read_file(path, buf, sizeof(buf));
	if (ret)
		return ret == -ENOENT ? -ESRCH : ret;
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -EINVAL;
	memset(ti, 0, sizeof(*ti));
	ti->pid = pid;
	snprintf(ti->comm, sizeof(ti->comm), "%.*s", (int)(close - open - 1), open + 1);
	p = close + 1;
	for (field = 3; field <= 22 && p; field++) {
		p += strspn(p, " ");
		if (field == 3)
			ti->state = *p;
		if (field == 9)
			flags = strtoull(p, NULL, 10);
		if (field == 22)
			ti->start = strtoull(p, NULL, 10);
		p = strchr(p, ' ');
	}
	if (field <= 22)
		return -EINVAL;
	ti->kthread = flags & PF_KTHREAD;
	return 0;
}

int knob_threads_find(bool (*match)(const struct thread_info *ti, void *arg), void *arg,
		 int (*fn)(const struct thread_info *ti, void *arg), void *fnarg)
{
	struct thread_info ti;
	struct dirent *de;
	int count = 0, ret = 0;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || knob_thread_info_read((pid_t)pid, &ti))
			continue;
		if (!ti.kthread || !match(&ti, arg))
			continue;
		count++;
		ret = fn ? fn(&ti, fnarg) : 0;
		if (ret)
			break;
	}
	closedir(d);
	return ret ? ret : count;
}

/* same_thread - the target's pid still runs the thread that was saved */
static int same_thread(const struct knob_target *t)
{
	struct thread_info ti;

	if (knob_thread_info_read(t->pid, &ti) || ti.start != t->start || strcmp(ti.comm, t->comm))
		return -ESRCH;
	return 0;
}

int knob_thread_sched_read(const struct knob_target *t, char *val, size_t len)
{
	struct sched_param param;
	struct sched_spec sp = { 0 };

	if (same_thread(t))
		return -ESRCH;
	sp.policy = sched_getscheduler(t->pid);
	if (sp.policy < 0 || sched_getparam(t->pid, &param))
		return errno == ESRCH ? -ESRCH : -errno;
	sp.policy &= ~SCHED_RESET_ON_FORK;
	if (sp.policy == SCHED_FIFO || sp.policy == SCHED_RR) {
		sp.prio = param.sched_priority;
	} else {
		errno = 0;
		sp.nice = getpriority(PRIO_PROCESS, t->pid);
		if (errno)
			return -errno;
	}
	knob_sched_spec_format(&sp, val, len);
	return 0;
}

int knob_thread_sched_write(const struct knob_target *t, const char *val, char *errbuf)
{
	struct sched_param param = { 0 };
	struct sched_spec sp;

	if (knob_sched_spec_parse(val, &sp, errbuf))
		return -EINVAL;
	if (same_thread(t))
		return -ESRCH;
	param.sched_priority = sp.prio;
	if (sched_setscheduler(t->pid, sp.policy, &param)) {
		int e = errno;

		set_err(errbuf, "sched_setscheduler(%s, pid %d): %s", val, t->pid, strerror(e));
		return -e;
	}
	if (sp.policy != SCHED_FIFO && sp.policy != SCHED_RR &&
	    setpriority(PRIO_PROCESS, t->pid, sp.nice)) {
		int e = errno;

		set_err(errbuf, "setpriority(pid %d, %d): %s", t->pid, sp.nice, strerror(e));
		return -e;
	}
	return 0;
}

struct target_list {
	const struct knob *k;
	struct knob_target *t;
	int n;
};

/* add_thread - one target per thread, its current scheduling saved as orig */
static int add_thread(const struct thread_info *ti, void *arg)
{
	struct target_list *l = arg;
	struct knob_target *t, *nt;

	nt = grow_array(l->t, (size_t)l->n, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	l->t = nt;
	t = &nt[l->n];
	t->kind = TGT_THREAD;
	t->type = l->k->type;
	snprintf(t->knob, sizeof(t->knob), "%s", l->k->name);
	t->pid = ti->pid;
	t->start = ti->start;
	snprintf(t->comm, sizeof(t->comm), "%s", ti->comm);
	if (knob_thread_sched_read(t, t->orig, sizeof(t->orig)))
		return 0;	/* exited meanwhile: nothing to change */
	l->n++;
	return 0;
}

int knob_threads_targets(const struct knob *k,
			 bool (*match)(const struct thread_info *ti, void *arg), void *arg,
			 struct knob_target **out, int *n, char *errbuf)
{
	struct target_list l = { .k = k };
	int ret = knob_threads_find(match, arg, add_thread, &l);

	if (ret < 0) {
		free(l.t);
		set_err(errbuf, "scanning /proc for %s threads: %s", k->name, strerror(-ret));
		return ret;
	}
	*out = l.t;
	*n = l.n;
	return 0;
}
