// SPDX-License-Identifier: GPL-2.0
/*
 * wq_pools.c - the workqueue worker pools as /proc shows them. A kworker's name says
 * its pool and the workqueue it last ran work for:
 *   kworker/3:1-events      per-CPU pool of CPU 3       -> cpu3
 *   kworker/3:0H-kblockd    per-CPU high-priority pool  -> cpu3H
 *   kworker/u8:2-writeback  unbound pool 8              -> unbound8
 *   kworker/R-writeback     rescuer of a workqueue      -> rescuer
 * Each pool's nice and CPUs are those of its workers.
 */
#include "knobs_show.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "knobs.h"
#include "cpulist.h"
#include "parse.h"

#define MAX_POOLS 256
#define WQS_LEN 96

struct pool {
	char name[24];
	int workers;
	int nice;
	cpu_set_t cpus;
	char wqs[WQS_LEN];	/* workqueues its workers last served */
	int more;		/* names that did not fit */
};

struct pools {
	struct pool p[MAX_POOLS];
	int n;
};

static bool is_kworker(const struct thread_info *ti, void *arg __unused)
{
	return !strncmp(ti->comm, "kworker/", 8);
}

/* pool_of - "cpu3H" and "kblockd" from "kworker/3:0H-kblockd"; false if unknown */
static bool pool_of(const char *comm, char *pool, size_t plen, const char **wq)
{
	const char *p = comm + 8, *colon, *dash;
	char *end;
	long id;

	dash = strchr(p, '-');
	*wq = dash ? dash + 1 : "";
	if (!strncmp(p, "R-", 2)) {
		snprintf(pool, plen, "rescuer");
		return true;
	}
	colon = strchr(p, ':');
	if (!colon || (dash && dash < colon))
		return false;
	if (*p == 'u') {
		id = strtol(p + 1, &end, 10);
		if (end != colon)
			return false;
		snprintf(pool, plen, "unbound%ld", id);
		return true;
	}
	id = strtol(p, &end, 10);
	if (end != colon)
		return false;
	strtol(colon + 1, &end, 10);
	snprintf(pool, plen, "cpu%ld%s", id, *end == 'H' ? "H" : "");
	return true;
}

/* add_wq - append a workqueue name once; count those that do not fit */
static void add_wq(struct pool *p, const char *wq)
{
	size_t len = strlen(p->wqs), n = strlen(wq);
	const char *s;

	if (!*wq)
		return;
	for (s = p->wqs; (s = strstr(s, wq)); s += n)
		if ((s == p->wqs || s[-1] == ' ') && (s[n] == ',' || !s[n]))
			return;
	if (len + n + 3 >= WQS_LEN) {
		p->more++;
		return;
	}
	snprintf(p->wqs + len, WQS_LEN - len, "%s%s", len ? ", " : "", wq);
}

static int add_worker(const struct thread_info *ti, void *arg)
{
	struct pools *ps = arg;
	char name[24];
	const char *wq;
	cpu_set_t set;
	struct pool *p;
	int i;

	if (!pool_of(ti->comm, name, sizeof(name), &wq))
		return 0;
	for (i = 0; i < ps->n && strcmp(ps->p[i].name, name); i++)
		;
	if (i == ps->n) {
		if (ps->n == MAX_POOLS)
			return 0;
		p = &ps->p[ps->n++];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%s", name);
		errno = 0;
		p->nice = getpriority(PRIO_PROCESS, ti->pid);
	}
	p = &ps->p[i];
	p->workers++;
	if (!sched_getaffinity(ti->pid, sizeof(set), &set))
		CPU_OR(&p->cpus, &p->cpus, &set);
	add_wq(p, wq);
	return 0;
}

static int by_pool(const void *a, const void *b)
{
	return strverscmp(((const struct pool *)a)->name, ((const struct pool *)b)->name);
}

int wq_pools_show(FILE *f)
{
	struct pools *ps = calloc(1, sizeof(*ps));
	char list[64];
	int i, ret;

	if (!ps)
		return -ENOMEM;
	fprintf(f, "\nworker pools (from kworker thread names; workqueues last served):\n");
	ret = knob_threads_find(is_kworker, NULL, add_worker, ps);
	qsort(ps->p, ps->n, sizeof(ps->p[0]), by_pool);
	if (ps->n)
		fprintf(f, "  %-12s %-7s %-4s %-8s %s\n", "POOL", "WORKERS", "NICE", "CPUS",
			"WORKQUEUES");
	for (i = 0; i < ps->n; i++)
		fprintf(f, "  %-12s %-7d %-4d %-8s %s%s%.0d%s\n", ps->p[i].name, ps->p[i].workers,
			ps->p[i].nice, cpulist_format(&ps->p[i].cpus, list, sizeof(list)),
			ps->p[i].wqs, ps->p[i].more ? " (+" : "", ps->p[i].more,
			ps->p[i].more ? " more)" : "");
	if (!ps->n)
		fprintf(f, "  none found%s\n", ret < 0 ? " (cannot read /proc)" : "");
	free(ps);
	return ret < 0 ? ret : 0;
}
