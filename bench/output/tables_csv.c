// SPDX-License-Identifier: GPL-2.0
/*
 * tables_csv.c - softirq.csv, workqueue.csv, contexts.csv and softirq_wait.csv (columns
 * in docs/results-format.md), through libcsv.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "csvw.h"
#include "detail_out.h"
#include "output.h"
#include "result_files.h"
#include "common.h"

/*
 * table_open - a table at path with its header: the columns head, the statistics of
 * each histogram in stats (both NULL-terminated), then the capture's columns
 */
static int table_open(struct csvw *w, const char *path, const char *const *head,
		      const char *const *stats)
{
	static const char *const capture[] = { "lost_events", "unmatched", "lossy", NULL };
	int ret = csvw_open(w, path);

	if (ret)
		return ret;
	csvw_header(w, head);
	for (; *stats; stats++)
		csvw_stats_header(w, *stats);
	csvw_header(w, capture);
	csvw_end(w);
	return 0;
}

/* capture_cols - the capture's loss and unmatched counts, on every row */
static void capture_cols(struct csvw *w, const struct result *r)
{
	csvw_u64(w, r->lost_events);
	csvw_u64(w, matcher_unmatched(&r->m));
	csvw_u64(w, r->lossy);
}

static void sirq_row(void *ctx, const struct result *r, const struct sirq_group *g,
		     int vec, int cpu)
{
	struct csvw *w = ctx;

	csvw_str(w, softirq_names[vec]);
	csvw_i64(w, cpu);
	csvw_u64(w, g->entries);
	csvw_u64(w, g->ksoftirqd);
	csvw_u64(w, g->long_runs);
	csvw_stats(w, &g->delay);
	csvw_stats(w, &g->runtime);
	capture_cols(w, r);
	csvw_end(w);
}

static int write_softirq(const struct result *r, const char *path)
{
	static const char *const head[] = { "vector", "cpu", "count", "ksoftirqd_count",
					    "long_runs", NULL };
	struct csvw w;
	int ret;

	ret = table_open(&w, path, head, (const char *const[]){ "delay", "runtime", NULL });
	if (ret)
		return ret;
	ret = result_sirq_each(r, sirq_row, &w);
	return csvw_close(&w) ?: ret;
}

static int write_workqueue(const struct result *r, const char *path)
{
	static const char *const head[] = { "workqueue", "function", "pool", "count", NULL };
	uint32_t *order = result_wq_order(r), i;
	char fn[128], pool[32];
	struct csvw w;
	int ret;

	if (!order)
		return -ENOMEM;
	ret = table_open(&w, path, head, (const char *const[]){ "delay", "activate_wait",
								 "worker_wait", "runtime", NULL });
	if (ret) {
		free(order);
		return ret;
	}
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[order[i]];

		csvw_str(&w, r->m.wq_names[g->wq]);
		csvw_str(&w, result_wq_func(r, g, fn, sizeof(fn)));
		csvw_str(&w, match_pool_name(g->pool, pool, sizeof(pool)));
		csvw_u64(&w, g->delay.count);
		csvw_stats(&w, &g->delay);
		csvw_stats(&w, &g->activate_wait);
		csvw_stats(&w, &g->worker_wait);
		csvw_stats(&w, &g->runtime);
		capture_cols(&w, r);
		csvw_end(&w);
	}
	free(order);
	return csvw_close(&w);
}

static void ctx_csv_row(void *ctx, const struct result *r, const struct ctx_row *row)
{
	struct csvw *w = ctx;

	csvw_str(w, ctx_kind_names[row->kind]);
	csvw_str(w, row->name);
	csvw_str(w, row->where);
	csvw_u64(w, row->count);
	csvw_u64(w, row->long_runs);
	csvw_u64(w, row->work);
	csvw_u64(w, row->budget_full);
	csvw_u64(w, row->budget);
	csvw_stats(w, row->delay);
	csvw_stats(w, row->runtime);
	capture_cols(w, r);
	csvw_end(w);
}

static int write_contexts(const struct result *r, const char *path)
{
	static const char *const head[] = { "context", "name", "where", "count", "long_runs",
					    "work", "budget_full", "budget", NULL };
	struct csvw w;
	int ret;

	ret = table_open(&w, path, head, (const char *const[]){ "delay", "runtime", NULL });
	if (ret)
		return ret;
	ret = output_ctx_each(r, ctx_csv_row, &w);
	return csvw_close(&w) ?: ret;
}

/* write_wait - one row per vector and cause: softirq_wait.csv */
static int write_wait(const struct result *r, const char *path)
{
	static const char *const head[] = { "vector", "cause", "delays", "total_ns", "share",
					    NULL };
	struct csvw w;
	int v, k, ret;

	ret = table_open(&w, path, head, (const char *const[]){ "part", NULL });
	if (ret)
		return ret;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		const struct sirq_wait *sw = r->m.wait[v];

		for (k = 0; sw && sw->delays && k < WAIT_NR; k++) {
			csvw_str(&w, softirq_names[v]);
			csvw_str(&w, sirq_cause_names[k]);
			csvw_u64(&w, sw->cause[k].count);
			csvw_u64(&w, sw->cause_ns[k]);
			csvw_dbl(&w, sw->delay_ns ? (double)sw->cause_ns[k] / sw->delay_ns : 0);
			csvw_stats(&w, &sw->cause[k]);
			capture_cols(&w, r);
			csvw_end(&w);
		}
	}
	return csvw_close(&w);
}

int tables_write(const struct result *r, const char *dir)
{
	static const struct {
		const char *name;
		int (*write)(const struct result *r, const char *path);
	} files[] = {
		{ "softirq.csv", write_softirq },
		{ "workqueue.csv", write_workqueue },
		{ "contexts.csv", write_contexts },
		{ "softirq_wait.csv", write_wait },
		{ "histograms.csv", histograms_write },
	};
	char path[PATH_MAX];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i].name);
		ret = files[i].write(r, path);
		if (ret)
			return ret;
	}
	return detail_write_csv(r, dir);
}
