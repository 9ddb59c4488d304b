// SPDX-License-Identifier: GPL-2.0
/*
 * ivfile.c - per-interval histogram files (see ivfile.h).
 */
#include "ivfile.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "grow.h"
#include "msg.h"
#include "parse.h"

int ivfile_open(struct ivfile *f, const char *path)
{
	static const char *const head[] = { "interval", "t_s", "kind", "name", "function", "pool",
					    "metric", "count", "min_ns", "mean_ns", "p50_ns",
					    "p99_ns", "max_ns", "buckets", NULL };
	int ret = csvw_open(&f->w, path);

	if (ret)
		return ret;
	csvw_header(&f->w, head);
	csvw_end(&f->w);
	return 0;
}

/* buckets_text - "lo:count lo:count ..." of a histogram, malloc'ed */
static char *buckets_text(const struct hist *h)
{
	size_t cap = 0, len = 0;
	char *s = NULL;
	unsigned int i;

	if (GROW(s, cap, 256))
		return NULL;
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (GROW(s, cap, len + 48)) {
			free(s);
			return NULL;
		}
		len += snprintf(s + len, cap - len, "%s%llu:%llu", len ? " " : "",
				(unsigned long long)hist_bucket_lo(i),
				(unsigned long long)h->bucket[i]);
	}
	return s;
}

void ivfile_row(struct ivfile *f, uint64_t interval, double t_s, const char *kind,
		const char *name, const char *fn, const char *pool, const char *metric,
		const struct hist *h)
{
	struct csvw *w = &f->w;
	char *b;

	if (!h || !h->count)
		return;
	b = buckets_text(h);
	if (!b && !w->err)
		w->err = -ENOMEM;	/* a row without its buckets would mislead */
	csvw_u64(w, interval);
	csvw_dbl(w, t_s);
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

int ivfile_close(struct ivfile *f)
{
	return csvw_close(&f->w);
}
enum { IC_T, IC_KIND, IC_NAME, IC_FUNC, IC_POOL, IC_METRIC, IC_COUNT, IC_P50, IC_P99, IC_MAX };
static const char *const ival_cols[] = {
	"t_s", "kind", "name", "function", "pool", "metric", "count", "p50_ns", "p99_ns",
	"max_ns", NULL
};

struct iload {
	const char *metric;
	struct ival_row *rows;
	size_t n, cap;
};

static int ival_parse(const struct csvr *r, struct ival_row *v)
{
	const char *kind = csvr_str(r, IC_KIND);
	int ret;

	if (strcmp(kind, "softirq") && strcmp(kind, "workqueue") && strcmp(kind, "context"))
		return csvr_fail(r, "column 'kind': '%s' is not softirq, workqueue or context",
				 kind);
	v->softirq = !strcmp(kind, "softirq");
	v->context = !strcmp(kind, "context");
	ret = csvr_double(r, IC_T, &v->t_s);
	ret = ret ?: csvr_strcpy(r, IC_NAME, v->name, sizeof(v->name));
	ret = ret ?: csvr_strcpy(r, IC_FUNC, v->func, sizeof(v->func));
	ret = ret ?: csvr_strcpy(r, IC_POOL, v->pool, sizeof(v->pool));
	ret = ret ?: csvr_u64(r, IC_COUNT, &v->count);
	ret = ret ?: csvr_u64(r, IC_P50, &v->p50);
	ret = ret ?: csvr_u64(r, IC_P99, &v->p99);
	ret = ret ?: csvr_u64(r, IC_MAX, &v->max);
	if (!ret && v->t_s < 0)
		return csvr_fail(r, "column 't_s': negative time");
	return ret;
}

static int ival_row_cb(const struct csvr *r, void *ctx)
{
	struct iload *il = ctx;

	/* the causes of softirq delay per interval are not plotted over time */
	if (strcmp(csvr_str(r, IC_METRIC), il->metric) ||
	    !strcmp(csvr_str(r, IC_KIND), "softirq_wait"))
		return 0;
	if (GROW(il->rows, il->cap, il->n + 1))
		return errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	return ival_parse(r, &il->rows[il->n++]);
}

int ivfile_load(const char *path, const char *metric, struct ival_row **rows,
		   size_t *n, char *errbuf)
{
	struct iload il = { .metric = metric };
	int ret;

	ret = csvr_read(path, ival_cols, ival_row_cb, &il, errbuf);
	if (ret) {
		free(il.rows);
		return ret;
	}
	*rows = il.rows;
	*n = il.n;
	return 0;
}

enum { SC_INTERVAL, SC_KIND, SC_NAME, SC_FUNC, SC_POOL, SC_METRIC, SC_BUCKETS };
static const char *const series_cols[] = {
	"interval", "kind", "name", "function", "pool", "metric", "buckets", NULL
};

/* name_index - s in names[0..n), or -1 */
static int name_index(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static int series_row(const struct csvr *r, void *ctx)
{
	const char *kind = csvr_str(r, SC_KIND), *metric = csvr_str(r, SC_METRIC);
	char name[NAME_LEN], func[FUNC_LEN], pool[NAME_LEN], err[ERRBUF_LEN];
	struct record *rec = ctx;
	struct ival_series *s;
	struct bucketlist *bl;
	enum ival_src src;
	uint64_t k;
	int m, ret, cpu;

	if (!strcmp(kind, "softirq")) {
		src = IV_SOFTIRQ;
		m = name_index(record_sirq_metric_names, SM_NR, metric);
	} else if (!strcmp(kind, "workqueue")) {
		src = IV_WQ;
		m = name_index(record_wq_metric_names, WM_NR, metric);
	} else if (!strcmp(kind, "workload")) {
		src = IV_WORKLOAD;
		m = strcmp(metric, "latency") ? -1 : 0;
	} else if (!strcmp(kind, "context")) {
		src = IV_CONTEXT;
		m = name_index(record_sirq_metric_names, SM_NR, metric);
	} else if (!strcmp(kind, "softirq_wait")) {
		src = IV_WAIT;
		m = name_index(record_wait_metric_names, IW_NR, metric);
	} else if (!strcmp(kind, "wakeup")) {
		/* metric: the kind of thread, named in the row's name */
		src = IV_WAKEUP;
		m = strcmp(metric, "wakeup") ? -1 :
		    name_index(record_wake_kind_names, WK_NR, csvr_str(r, SC_NAME));
		if (m < 0 && !strcmp(metric, "wakeup"))
			return csvr_fail(r, "column 'name': '%s' is not ksoftirqd or worker",
					 csvr_str(r, SC_NAME));
		/* a ksoftirqd's pool is its CPU, as summary.json's thread_wakeup */
		if (m == WK_KSOFTIRQD &&
		    parse_int(csvr_str(r, SC_POOL), 0, INT_MAX, &cpu, err))
			return csvr_fail(r, "column 'pool': a ksoftirqd's CPU: %s", err);
	} else {
		return csvr_fail(r, "column 'kind': '%s' is not softirq, workqueue, context, "
				 "softirq_wait, wakeup or workload", kind);
	}
	if (m < 0)
		return csvr_fail(r, "column 'metric': '%s' is not a %s metric", metric, kind);
	ret = csvr_u64(r, SC_INTERVAL, &k);
	ret = ret ?: csvr_strcpy(r, SC_NAME, name, sizeof(name));
	ret = ret ?: csvr_strcpy(r, SC_FUNC, func, sizeof(func));
	ret = ret ?: csvr_strcpy(r, SC_POOL, pool, sizeof(pool));
	if (ret)
		return ret;
	s = record_series(rec, src, name, func, pool, m, true);
	bl = s ? record_series_at(s, k) : NULL;
	if (!bl)
		return k >= (1U << 24) ? csvr_fail(r, "column 'interval': %llu is out of range",
						   (unsigned long long)k) :
		       errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	if (bl->n)
		return csvr_fail(r, "interval %llu of this group and metric appears twice",
				 (unsigned long long)k);
	if (bucketlist_parse(csvr_str(r, SC_BUCKETS), bl, err))
		return csvr_fail(r, "column 'buckets': %s", err);
	return 0;
}

int ivfile_load_series(const char *path, struct record *rec, char *errbuf)
{
	return csvr_read(path, series_cols, series_row, rec, errbuf);
}
