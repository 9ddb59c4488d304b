// SPDX-License-Identifier: GPL-2.0
/*
 * rundata.c - a run's cells and inputs in memory (rundata.h), and their release; a
 * cell's record is record.c's, its histograms' bucket lists bucket.c's. The files
 * themselves are read by their owners.
 */
#include "rundata.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "grow.h"
#include "msg.h"

const char *const run_meta_names[RM_NR] = {
	[RM_KERNEL] = "kernel", [RM_HOSTNAME] = "hostname", [RM_CPUS] = "cpus",
	[RM_CPU_MODEL] = "cpu_model", [RM_PREEMPT] = "preempt", [RM_HZ] = "hz",
	[RM_NOHZ] = "nohz", [RM_CMDLINE] = "cmdline", [RM_GOVERNOR] = "governor",
	[RM_VERSION] = "version", [RM_STARTED] = "started", [RM_THREADIRQS] = "threadirqs",
	[RM_RT_BH_LOCK] = "rt_bh_lock", [RM_SCHED_EXT] = "sched_ext",
};

void run_cell_free(struct cell *c)
{
	free(c->opts);
	record_free(&c->rec);
	free(c->knobs);
	c->opts = NULL;
	c->knobs = NULL;
}

void run_inputs_free(char **inputs)
{
	size_t i;

	for (i = 0; inputs && inputs[i]; i++)
		free(inputs[i]);
	free(inputs);
}

char **run_inputs(const struct run *run)
{
	/* what a record directory holds that record_load() reads, and its capture */
	static const char *const rec[] = {
		"summary.json", "softirq.csv", "workqueue.csv", "histograms.csv", "contexts.csv",
		"softirq_wait.csv", "intervals.csv", "workload.json", "workload-hist.csv",
		"workload-intervals.csv", "cell.json", "raw",
	};
	static const char *const top[] = { "run.json", "scenario.ini" };
	const char *const *names = run->is_record ? rec : top;
	size_t n = run->is_record ? ARRAY_SIZE(rec) : ARRAY_SIZE(top), i, k = 0;
	char **v = calloc(n + run->ncells + 1, sizeof(*v));

	for (i = 0; v && i < n; i++)
		if (asprintf(&v[k++], "%s/%s", run->dir, names[i]) < 0)
			goto error;
	for (i = 0; v && !run->is_record && i < run->ncells; i++)
		if (!(v[k++] = strdup(run->cells[i].dir)))
			goto error;
	return v;
error:
	v[k - 1] = NULL;
	run_inputs_free(v);
	errno = ENOMEM;
	return NULL;
}

void run_free(struct run *run)
{
	size_t i;

	for (i = 0; i < run->ncells; i++)
		run_cell_free(&run->cells[i]);
	free(run->cells);
	memset(run, 0, sizeof(*run));
}
