// SPDX-License-Identifier: GPL-2.0
/*
 * output_csv.c - softirq.csv, workqueue.csv, histograms.csv and intervals.csv
 * (columns in docs/results-format.md), all through libcsv.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "csvw.h"
#include "output.h"
#include "util.h"

/* capture_cols - the capture's loss and unmatched counts, on every row */
static void capture_cols_header(struct csvw *w)
{
	static const char *const head[] = { "lost_events", "unmatched", "lossy", NULL };

	csvw_header(w, head);
}

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

	ret = csvw_open(&w, path);
	if (ret)
		return ret;
	csvw_header(&w, head);
	csvw_stats_header(&w, "delay");
	csvw_stats_header(&w, "runtime");
	capture_cols_header(&w);
	csvw_end(&w);
	ret = sirq_each(r, sirq_row, &w);
	return csvw_close(&w) ?: ret;
}

static int write_workqueue(const struct result *r, const char *path)
{
	static const char *const head[] = { "workqueue", "function", "pool", "count", NULL };
	uint32_t *order = wq_order(r), i;
	char fn[128], pool[32];
	struct csvw w;
	int ret;

	if (!order)
		return -ENOMEM;
	ret = csvw_open(&w, path);
	if (ret) {
		free(order);
		return ret;
	}
	csvw_header(&w, head);
	csvw_stats_header(&w, "delay");
	csvw_stats_header(&w, "activate_wait");
	csvw_stats_header(&w, "worker_wait");
	csvw_stats_header(&w, "runtime");
	capture_cols_header(&w);
	csvw_end(&w);
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[order[i]];

		csvw_str(&w, r->m.wq_names[g->wq]);
		csvw_str(&w, wq_func_name(r, g, fn, sizeof(fn)));
		csvw_str(&w, pool_name(g->pool, pool, sizeof(pool)));
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

/* hist_rows - one histograms.csv row per non-empty bucket */
static void hist_rows(struct csvw *w, const char *kind, const char *name, const char *cpu,
		      const char *fn, const char *pool, const char *metric, const struct hist *h)
{
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS && h->count; i++) {
		if (!h->bucket[i])
			continue;
		csvw_str(w, kind);
		csvw_str(w, name);
		csvw_str(w, cpu);
		csvw_str(w, fn);
		csvw_str(w, pool);
		csvw_str(w, metric);
		csvw_u64(w, hist_bucket_lo(i));
		csvw_u64(w, hist_bucket_lo(i) + hist_bucket_width(i));
		csvw_u64(w, h->bucket[i]);
		csvw_end(w);
	}
}

static void hist_sirq(void *ctx, const struct result *r __unused, const struct sirq_group *g,
		      int vec, int cpu)
{
	struct csvw *w = ctx;
	char c[16];

	snprintf(c, sizeof(c), "%d", cpu);
	hist_rows(w, "softirq", softirq_names[vec], c, "", "", "delay", &g->delay);
	hist_rows(w, "softirq", softirq_names[vec], c, "", "", "runtime", &g->runtime);
}

static int write_histograms(const struct result *r, const char *path)
{
	static const char *const head[] = { "kind", "name", "cpu", "function", "pool", "metric",
					    "lo_ns", "hi_ns", "count", NULL };
	char fn[128], pool[32];
	struct csvw w;
	uint32_t i;
	int ret;

	ret = csvw_open(&w, path);
	if (ret)
		return ret;
	csvw_header(&w, head);
	csvw_end(&w);
	ret = sirq_each(r, hist_sirq, &w);
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[i];
		const char *wq = r->m.wq_names[g->wq];

		wq_func_name(r, g, fn, sizeof(fn));
		pool_name(g->pool, pool, sizeof(pool));
		hist_rows(&w, "workqueue", wq, "", fn, pool, "delay", &g->delay);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "activate_wait", &g->activate_wait);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "worker_wait", &g->worker_wait);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "runtime", &g->runtime);
	}
	return csvw_close(&w) ?: ret;
}

int result_write_csv(const struct result *r, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/softirq.csv", dir);
	ret = write_softirq(r, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/workqueue.csv", dir);
	ret = write_workqueue(r, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/histograms.csv", dir);
	return write_histograms(r, path);
}

int result_write_dir(const struct result *r, const char *dir)
{
	char path[PATH_MAX];
	int ret;

	snprintf(path, sizeof(path), "%s/summary.json", dir);
	ret = result_write_json(r, path);
	if (ret)
		return ret;
	return result_write_csv(r, dir);
}

struct ival_writer {
	struct csvw w;
	const struct result *r;
};

struct ival_writer *ival_writer_open(const char *path, const struct result *r)
{
	static const char *const head[] = { "interval", "t_s", "kind", "name", "function", "pool",
					    "metric", "count", "min_ns", "mean_ns", "p50_ns",
					    "p99_ns", "max_ns", "buckets", NULL };
	struct ival_writer *iw = calloc(1, sizeof(*iw));

	if (!iw)
		return NULL;
	if (csvw_open(&iw->w, path)) {
		free(iw);
		return NULL;
	}
	iw->r = r;
	csvw_header(&iw->w, head);
	csvw_end(&iw->w);
	return iw;
}

/* buckets_text - "lo:count lo:count ..." of a histogram, malloc'ed */
static char *buckets_text(const struct hist *h)
{
	size_t cap = 256, len = 0;
	char *s = malloc(cap), *ns;
	unsigned int i;

	if (!s)
		return NULL;
	s[0] = '\0';
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (cap - len < 48) {
			ns = realloc(s, cap *= 2);
			if (!ns) {
				free(s);
				return NULL;
			}
			s = ns;
		}
		len += snprintf(s + len, cap - len, "%s%llu:%llu", len ? " " : "",
				(unsigned long long)hist_bucket_lo(i),
				(unsigned long long)h->bucket[i]);
	}
	return s;
}

static void ival_row(struct ival_writer *iw, uint64_t interval, const char *kind,
		     const char *name, const char *fn, const char *pool, const char *metric,
		     const struct hist *h)
{
	struct csvw *w = &iw->w;
	char *b;

	if (!h || !h->count)
		return;
	b = buckets_text(h);
	csvw_u64(w, interval);
	csvw_dbl(w, interval * (iw->r->meta.interval_ns / 1e9));
	csvw_str(w, kind);
	csvw_str(w, name);
	csvw_str(w, fn);
	csvw_str(w, pool);
	csvw_str(w, metric);
	csvw_u64(w, h->count);
	csvw_u64(w, h->min);
	csvw_dbl(w, hist_mean(h));
	csvw_u64(w, hist_percentile(h, 0.5));
	csvw_u64(w, hist_percentile(h, 0.99));
	csvw_u64(w, h->max);
	csvw_str(w, b ? b : "");
	csvw_end(w);
	free(b);
}

void ival_writer_cb(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
		    const struct hist *delay, const struct hist *runtime)
{
	struct ival_writer *iw = ctx;
	const struct result *r = iw->r;
	char fn[128], pool[32];

	if (kind == IVAL_SOFTIRQ) {
		ival_row(iw, interval, "softirq", softirq_names[key], "", "", "delay", delay);
		ival_row(iw, interval, "softirq", softirq_names[key], "", "", "runtime", runtime);
		return;
	}
	{
		const struct wq_group *g = r->m.groups[key];
		const char *wq = r->m.wq_names[g->wq];

		wq_func_name(r, g, fn, sizeof(fn));
		pool_name(g->pool, pool, sizeof(pool));
		ival_row(iw, interval, "workqueue", wq, fn, pool, "delay", delay);
		ival_row(iw, interval, "workqueue", wq, fn, pool, "runtime", runtime);
	}
}

int ival_writer_close(struct ival_writer *iw)
{
	int ret;

	if (!iw)
		return 0;
	ret = csvw_close(&iw->w);
	free(iw);
	return ret;
}
