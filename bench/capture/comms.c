// SPDX-License-Identifier: GPL-2.0
/*
 * comms.c - task names from /proc for the capture: the kernel threads alive when it
 * starts (workers already running never appear in a sched_switch), and, while it runs,
 * the tasks the events name only by pid.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFERBENCH_ALLOW_CAPTURE_INT_H
#include "capture_int.h"
#include "parse.h"
#include "file.h"
#include "grow.h"

/*
 * comms_resolve - the matcher's comm_resolve, in the analysis thread: a task's name from
 * /proc (scheduler events are filtered to the threads of deferred work, so an ordinary
 * task that held bottom halves off was never seen by name), each pid tried once; the
 * names found go to raw/comms at the end, so that analyze names the same tasks
 */
bool comms_resolve(void *ctx, int pid, char *comm)
{
	struct capture *c = ctx;
	char path[64], buf[64], *p;
	int created;

	if (!map_put(&c->comm_tried, (uint64_t)pid, &created) || !created)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	if (read_file(path, buf, sizeof(buf)))
		return false;	/* gone already: it stays "pid N" */
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = '?';	/* one name per line in raw/comms */
	snprintf(comm, TASK_COMM_LEN, "%.15s", buf);
	if (GROW(c->named, c->named_cap, c->nnamed + 1))
		return true;	/* named now, just not kept for analyze */
	c->named[c->nnamed].pid = pid;
	snprintf(c->named[c->nnamed].comm, sizeof(c->named[0].comm), "%s", comm);
	c->nnamed++;
	return true;
}

/*
 * comms_snapshot - kernel workers and ksoftirqd threads alive now. Workers that
 * were already running when the capture started never appear in a sched_switch.
 */
int comms_snapshot(struct comm_entry **out, size_t *n)
{
	struct comm_entry *v = NULL;
	struct dirent *de;
	size_t cap = 0;
	DIR *d;

	*n = 0;
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[64], comm[64];
		uint32_t pool;
		int pid, cpu;

		if (parse_int(de->d_name, 1, INT32_MAX, &pid, NULL))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (read_file(path, comm, sizeof(comm)) ||
		    match_comm_classify(comm, &pool, &cpu) == COMM_OTHER)
			continue;
		if (GROW(v, cap, *n + 1)) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		v[*n].pid = pid;
		snprintf(v[*n].comm, sizeof(v[*n].comm), "%.15s", comm);
		(*n)++;
	}
	closedir(d);
	*out = v;
	return 0;
}
