// SPDX-License-Identifier: GPL-2.0
/*
 * rd_intervals.c - intervals.csv rows of one metric, for latency-over-time plots.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "rundata.h"

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

	if (strcmp(kind, "softirq") && strcmp(kind, "workqueue"))
		return csvr_fail(r, "column 'kind': '%s' is neither softirq nor workqueue", kind);
	v->softirq = !strcmp(kind, "softirq");
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
			return rd_errno(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
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
