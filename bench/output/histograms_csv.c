// SPDX-License-Identifier: GPL-2.0
/*
 * histograms_csv.c - histograms.csv, the buckets of every histogram of a capture:
 * written from struct result, read back into the groups of a struct record
 * (kind,name,cpu,function,pool,metric,lo_ns,hi_ns,count; docs/results-format.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "csvw.h"
#include "output.h"
#include "result_files.h"
#include "msg.h"

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

/* hist_ctx - a context's rows: the function column holds the context, pool the place */
static void hist_ctx(void *ctx, const struct result *r __unused, const struct ctx_row *row)
{
	hist_rows(ctx, "context", row->name, "", ctx_kind_names[row->kind], row->where, "delay",
		  row->delay);
	hist_rows(ctx, "context", row->name, "", ctx_kind_names[row->kind], row->where,
		  "runtime", row->runtime);
}

int histograms_write(const struct result *r, const char *path)
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
	ret = result_sirq_each(r, hist_sirq, &w);
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[i];
		const char *wq = r->m.wq_names[g->wq];

		result_wq_func(r, g, fn, sizeof(fn));
		match_pool_name(g->pool, pool, sizeof(pool));
		hist_rows(&w, "workqueue", wq, "", fn, pool, "delay", &g->delay);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "activate_wait", &g->activate_wait);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "worker_wait", &g->worker_wait);
		hist_rows(&w, "workqueue", wq, "", fn, pool, "runtime", &g->runtime);
	}
	ret = ret ?: output_ctx_each(r, hist_ctx, &w);
	return csvw_close(&w) ?: ret;
}

enum { HC_KIND, HC_NAME, HC_CPU, HC_FUNC, HC_POOL, HC_METRIC, HC_LO, HC_HI, HC_COUNT };
static const char *const hist_cols[] = {
	"kind", "name", "cpu", "function", "pool", "metric", "lo_ns", "hi_ns", "count", NULL
};

struct hload {
	struct record *rec;
	struct bucketlist *last;	/* rows come grouped: remember the last group */
	char last_key[NAME_LEN * 3 + FUNC_LEN + 16];
};

static int metric_index(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return (int)i;
	return -1;
}

static struct bucketlist *find_sirq(const struct csvr *r, struct record *rec)
{
	int cpu, m;
	size_t i;

	m = metric_index(record_sirq_metric_names, SM_NR, csvr_str(r, HC_METRIC));
	if (m < 0 || csvr_int(r, HC_CPU, -1, 65535, &cpu))
		return NULL;
	for (i = 0; i < rec->nsirq; i++)
		if (rec->sirq[i].cpu == cpu && !strcmp(rec->sirq[i].vector, csvr_str(r, HC_NAME)))
			return &rec->sirq[i].h[m];
	return NULL;
}

static struct bucketlist *find_wq(const struct csvr *r, struct record *rec)
{
	size_t i;
	int m;

	m = metric_index(record_wq_metric_names, WM_NR, csvr_str(r, HC_METRIC));
	if (m < 0)
		return NULL;
	for (i = 0; i < rec->nwq; i++) {
		const struct wq_data *g = &rec->wq[i];

		if (!strcmp(g->wq, csvr_str(r, HC_NAME)) &&
		    !strcmp(g->func, csvr_str(r, HC_FUNC)) &&
		    !strcmp(g->pool, csvr_str(r, HC_POOL)))
			return &rec->wq[i].h[m];
	}
	return NULL;
}

static struct bucketlist *find_ctx(const struct csvr *r, struct record *rec)
{
	const struct ctx_data *g;
	int m;

	m = metric_index(record_sirq_metric_names, SM_NR, csvr_str(r, HC_METRIC));
	if (m < 0)
		return NULL;
	g = record_ctx(rec, csvr_str(r, HC_FUNC), csvr_str(r, HC_NAME), csvr_str(r, HC_POOL));
	return g ? (struct bucketlist *)&g->h[m] : NULL;
}

static struct bucketlist *find_group(const struct csvr *r, struct hload *hl)
{
	const char *kind = csvr_str(r, HC_KIND);
	char key[sizeof(hl->last_key)];

	snprintf(key, sizeof(key), "%s|%s|%s|%s|%s|%s", kind, csvr_str(r, HC_NAME),
		 csvr_str(r, HC_CPU), csvr_str(r, HC_FUNC), csvr_str(r, HC_POOL),
		 csvr_str(r, HC_METRIC));
	if (hl->last && !strcmp(key, hl->last_key))
		return hl->last;
	hl->last = NULL;
	if (!strcmp(kind, "softirq"))
		hl->last = find_sirq(r, hl->rec);
	else if (!strcmp(kind, "workqueue"))
		hl->last = find_wq(r, hl->rec);
	else if (!strcmp(kind, "context"))
		hl->last = find_ctx(r, hl->rec);
	strcpy(hl->last_key, key);
	return hl->last;
}

static int hist_row(const struct csvr *r, void *ctx)
{
	struct bucketlist *bl;
	uint64_t lo, hi, n;
	int ret;

	ret = csvr_u64(r, HC_LO, &lo);
	ret = ret ?: csvr_u64(r, HC_HI, &hi);
	ret = ret ?: csvr_u64(r, HC_COUNT, &n);
	ret = ret ?: csvr_check_bucket(r, lo, hi);
	if (ret)
		return ret;
	bl = find_group(r, ctx);
	if (!bl)
		return csvr_fail(r, "no %s group '%s' (cpu '%s', function '%s', pool '%s', "
				 "metric '%s') in summary.json", csvr_str(r, HC_KIND),
				 csvr_str(r, HC_NAME), csvr_str(r, HC_CPU), csvr_str(r, HC_FUNC),
				 csvr_str(r, HC_POOL), csvr_str(r, HC_METRIC));
	if (bucketlist_add(bl, lo, hi, n))
		return errno_msg(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	return 0;
}

/* check_totals - every histogram's buckets must add up to its count in summary.json */
static int check_totals(const char *path, const struct record *rec, char *errbuf)
{
	size_t i, m;

	for (i = 0; i < rec->nsirq; i++)
		for (m = 0; m < SM_NR; m++)
			if (bucketlist_count(&rec->sirq[i].h[m]) != rec->sirq[i].st[m].count)
				return set_err(errbuf, "malformed result file %s: softirq %s cpu "
					      "%d %s: buckets hold %llu values, summary.json "
					      "says %llu", path, rec->sirq[i].vector,
					      rec->sirq[i].cpu, record_sirq_metric_names[m],
					      (unsigned long long)bucketlist_count(&rec->sirq[i].h[m]),
					      (unsigned long long)rec->sirq[i].st[m].count);
	for (i = 0; i < rec->nwq; i++)
		for (m = 0; m < WM_NR; m++)
			if (bucketlist_count(&rec->wq[i].h[m]) != rec->wq[i].st[m].count)
				return set_err(errbuf, "malformed result file %s: workqueue "
					      "%s/%s/%s %s: buckets hold %llu values, "
					      "summary.json says %llu", path, rec->wq[i].wq,
					      rec->wq[i].func, rec->wq[i].pool, record_wq_metric_names[m],
					      (unsigned long long)bucketlist_count(&rec->wq[i].h[m]),
					      (unsigned long long)rec->wq[i].st[m].count);
	for (i = 0; i < rec->nctx; i++)
		for (m = 0; m < SM_NR; m++)
			if (bucketlist_count(&rec->ctx[i].h[m]) != rec->ctx[i].st[m].count)
				return set_err(errbuf, "malformed result file %s: context "
					      "%s/%s/%s %s: buckets hold %llu values, "
					      "summary.json says %llu", path, rec->ctx[i].context,
					      rec->ctx[i].name, rec->ctx[i].where,
					      record_sirq_metric_names[m],
					      (unsigned long long)bucketlist_count(&rec->ctx[i].h[m]),
					      (unsigned long long)rec->ctx[i].st[m].count);
	return 0;
}

int histograms_load(const char *path, struct record *rec, char *errbuf)
{
	struct hload hl = { .rec = rec };
	int ret;

	ret = csvr_read(path, hist_cols, hist_row, &hl, errbuf);
	if (ret)
		return ret;
	rec->has_hist = true;
	return check_totals(path, rec, errbuf);
}
