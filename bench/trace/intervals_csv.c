// SPDX-License-Identifier: GPL-2.0
/*
 * intervals_csv.c - intervals.csv: per-interval statistics of every group, written
 * while the capture runs (the matcher's interval callback) and read back, one metric
 * at a time, for latency-over-time plots (columns in docs/results-format.md).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "csvw.h"
#include "output.h"
#include "result_files.h"
#include "util.h"

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
	if (kind == IVAL_CONTEXT) {
		struct ctx_row row;

		/* as in histograms.csv: function holds the context, pool the place */
		ctx_row_of(r, r->m.ctx[key], &row, fn, sizeof(fn));
		ival_row(iw, interval, "context", row.name, ctx_kind_names[row.kind], row.where,
			 "delay", delay);
		ival_row(iw, interval, "context", row.name, ctx_kind_names[row.kind], row.where,
			 "runtime", runtime);
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

	if (strcmp(csvr_str(r, IC_METRIC), il->metric))
		return 0;
	if (il->n == il->cap) {
		size_t cap = il->cap ? 2 * il->cap : 256;
		struct ival_row *p = realloc(il->rows, cap * sizeof(*p));

		if (!p)
			return set_errno(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
		il->rows = p;
		il->cap = cap;
	}
	memset(&il->rows[il->n], 0, sizeof(il->rows[0]));
	return ival_parse(r, &il->rows[il->n++]);
}

int intervals_load(const char *path, const char *metric, struct ival_row **rows,
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
