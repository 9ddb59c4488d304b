// SPDX-License-Identifier: GPL-2.0
/*
 * intervals_csv.c - intervals.csv while the capture runs: the matcher's interval
 * callback, one row per group and metric through ivfile.h (which owns the format).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ivfile.h"
#include "output.h"
#include "result_files.h"
#include "common.h"

struct ival_writer {
	struct ivfile f;
	const struct result *r;
};

struct ival_writer *intervals_csv_open(const char *path, const struct result *r)
{
	struct ival_writer *iw = calloc(1, sizeof(*iw));

	if (!iw)
		return NULL;
	if (ivfile_open(&iw->f, path)) {
		free(iw);
		return NULL;
	}
	iw->r = r;
	return iw;
}

void intervals_csv_cb(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
		    const struct hist *delay, const struct hist *runtime)
{
	struct ival_writer *iw = ctx;
	const struct result *r = iw->r;
	double t_s = interval * (r->meta.interval_ns / 1e9);
	const struct wq_group *g;
	char fn[128], pool[32];
	const char *wq;

	if (kind == IVAL_SOFTIRQ) {
		ivfile_row(&iw->f, interval, t_s, "softirq", softirq_names[key], "", "", "delay",
			   delay);
		ivfile_row(&iw->f, interval, t_s, "softirq", softirq_names[key], "", "", "runtime",
			   runtime);
		return;
	}
	if (kind == IVAL_WAIT) {
		const struct sirq_wait_ival *w = r->m.ival_wait[key];
		int k;

		/* function holds the cause; "all" is every delay that was split */
		ivfile_row(&iw->f, interval, t_s, "softirq_wait", softirq_names[key], "all", "",
			   "delay", delay);
		for (k = 0; k < WAIT_NR && w; k++)
			ivfile_row(&iw->f, interval, t_s, "softirq_wait", softirq_names[key],
				   sirq_cause_names[k], "", "delay", &w->part[k]);
		/* the delays by where they were raised, as summary.json's raised_in */
		for (k = 0; k < ORIG_NR && w; k++)
			ivfile_row(&iw->f, interval, t_s, "softirq_wait", softirq_names[key],
				   sirq_origin_names[k], "", "origin", &w->origin[k]);
		/* each task's BH-disabled part (bh_disabled + bh_preempted), as bh_tasks */
		for (k = 0; k < WAIT_TASKS_MAX && w; k++)
			if (w->task[k])
				ivfile_row(&iw->f, interval, t_s, "softirq_wait",
					   softirq_names[key], r->m.wait[key]->task[k].comm, "",
					   "bh_task", w->task[k]);
		return;
	}
	if (kind == IVAL_WAKE_KSOFTIRQD || kind == IVAL_WAKE_WORKER) {
		/* as summary.json's thread_wakeup: pool holds the CPU or the worker pool */
		if (kind == IVAL_WAKE_KSOFTIRQD)
			snprintf(pool, sizeof(pool), "%u", key);
		else
			match_pool_name(r->m.wake[key]->pool, pool, sizeof(pool));
		ivfile_row(&iw->f, interval, t_s, "wakeup",
			   record_wake_kind_names[kind == IVAL_WAKE_KSOFTIRQD ? WK_KSOFTIRQD :
						  WK_WORKER], "", pool, "wakeup", delay);
		return;
	}
	if (kind == IVAL_CONTEXT) {
		struct ctx_row row;

		/* as in histograms.csv: function holds the context, pool the place */
		output_ctx_row_of(r, r->m.ctx[key], &row, fn, sizeof(fn));
		ivfile_row(&iw->f, interval, t_s, "context", row.name, ctx_kind_names[row.kind],
			   row.where, "delay", delay);
		ivfile_row(&iw->f, interval, t_s, "context", row.name, ctx_kind_names[row.kind],
			   row.where, "runtime", runtime);
		return;
	}
	g = r->m.groups[key];
	wq = r->m.wq_names[g->wq];
	result_wq_func(r, g, fn, sizeof(fn));
	match_pool_name(g->pool, pool, sizeof(pool));
	ivfile_row(&iw->f, interval, t_s, "workqueue", wq, fn, pool, "delay", delay);
	/* the parts of the delay of the items that were activated (max_active) */
	ivfile_row(&iw->f, interval, t_s, "workqueue", wq, fn, pool, "activate_wait",
		   g->ival_activate);
	ivfile_row(&iw->f, interval, t_s, "workqueue", wq, fn, pool, "worker_wait",
		   g->ival_worker);
	ivfile_row(&iw->f, interval, t_s, "workqueue", wq, fn, pool, "runtime", runtime);
}

int intervals_csv_close(struct ival_writer *iw)
{
	int ret;

	if (!iw)
		return 0;
	ret = ivfile_close(&iw->f);
	free(iw);
	return ret;
}
