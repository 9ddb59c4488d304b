// SPDX-License-Identifier: GPL-2.0
/*
 * proctree.c - a command's whole process tree, followed through /proc (see proctree.h).
 */
#include "proctree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "file.h"
#include "grow.h"
#include "sys.h"

/* one process of /proc, with the member mark of the scan */
struct pt_entry {
	struct proctree_proc p;
	bool member;
};

int proctree_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1) ? -errno : 0;
}

/* read_stat - pid, ppid, session, state and comm of /proc/PID/stat; false when gone */
static bool read_stat(pid_t pid, struct proctree_proc *p)
{
	char path[64], buf[1024], *open, *close_p;
	int ppid, pgrp, sid;
	char state;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (read_file(path, buf, sizeof(buf)))
		return false;
	/* "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses */
	open = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open || !close_p || close_p < open ||
	    sscanf(close_p + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) != 4)
		return false;
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->sid = sid;
	p->zombie = state == 'Z' || state == 'X';
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)(close_p - open - 1), open + 1);
	return true;
}

/* load - every process of /proc into *all; -errno */
static int load(struct pt_entry **all, size_t *n)
{
	struct pt_entry *v = NULL;
	size_t cap = 0;
	struct dirent *de;
	DIR *d = opendir("/proc");

	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (GROW(v, cap, *n + 1)) {
			free(v);
			closedir(d);
			return -ENOMEM;
		}
		if (read_stat((pid_t)atoi(de->d_name), &v[*n].p))
			v[(*n)++].member = false;
	}
	closedir(d);
	*all = v;
	return 0;
}

/* mark - the members of sid's tree among all */
static void mark(struct pt_entry *all, size_t n, pid_t sid)
{
	pid_t self = getpid(), self_sid = getsid(0);
	bool changed = true;
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct proctree_proc *p = &all[i].p;

		p->ours = p->ppid == self;
		/* its session; or an orphan handed over from a session not deferbench's */
		all[i].member = p->pid != self && (p->sid == sid || (p->ours && p->sid != self_sid));
	}
	/* and whatever descends from a member, wherever it went */
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			if (all[i].member)
				continue;
			for (k = 0; k < n; k++)
				if (all[k].member && all[k].p.pid == all[i].p.ppid)
					break;
			if (k < n && all[i].p.pid != self) {
				all[i].member = true;
				changed = true;
			}
		}
	}
	for (i = 0; i < n; i++)
		all[i].p.detached = all[i].member && all[i].p.sid != sid;
}

int proctree_scan(pid_t sid, struct proctree_proc *out, size_t max, size_t *n)
{
	struct pt_entry *all = NULL;
	size_t nall, i;
	int ret = load(&all, &nall);

	*n = 0;
	if (ret)
		return ret;
	mark(all, nall, sid);
	for (i = 0; i < nall; i++) {
		if (!all[i].member)
			continue;
		if (*n < max)
			out[*n] = all[i].p;
		(*n)++;
	}
	free(all);
	return 0;
}

void proctree_signal(pid_t sid, int sig)
{
	struct proctree_proc m[256];
	size_t n = 0, i;

	kill(-sid, sig);
	if (proctree_scan(sid, m, sizeof(m) / sizeof(m[0]), &n))
		return;
	for (i = 0; i < n && i < sizeof(m) / sizeof(m[0]); i++)
		if (!m[i].zombie)
			kill(m[i].pid, sig);
}

int proctree_stop(pid_t sid, uint64_t timeout_ns)
{
	uint64_t deadline = now_ns() + timeout_ns;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct proctree_proc m[256];
	bool killed = false;
	size_t n, i, left;

	proctree_signal(sid, SIGTERM);
	for (;;) {
		if (proctree_scan(sid, m, sizeof(m) / sizeof(m[0]), &n))
			return -1;
		for (i = 0, left = 0; i < n && i < sizeof(m) / sizeof(m[0]); i++) {
			if (m[i].pid == sid)
				continue;	/* the leader: its status is the caller's */
			if (m[i].ours && waitpid(m[i].pid, NULL, WNOHANG) == m[i].pid)
				continue;	/* an orphan handed to deferbench, reaped */
			/* another member's zombie goes with its parent */
			left += !m[i].zombie || m[i].ours;
		}
		if (!left)
			return 0;
		if (now_ns() >= deadline) {
			if (killed)
				return (int)left;
			proctree_signal(sid, SIGKILL);
			killed = true;
			deadline = now_ns() + timeout_ns;
		}
		nanosleep(&ts, NULL);
	}
}
