// SPDX-License-Identifier: GPL-2.0
/*
 * rd_buckets.c - histogram buckets: histograms.csv into the groups of a record, and
 * bucket lists back into struct hist.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvread.h"
#include "rundata.h"
#include "util.h"

int bucketlist_add(struct bucketlist *bl, uint64_t lo, uint64_t hi, uint64_t count)
{
	if (bl->n == bl->cap) {
		size_t cap = bl->cap ? 2 * bl->cap : 32;
		struct bucket *b = realloc(bl->b, cap * sizeof(*b));

		if (!b)
			return -ENOMEM;
		bl->b = b;
		bl->cap = cap;
	}
	bl->b[bl->n++] = (struct bucket){ lo, hi, count };
	return 0;
}

void bucketlist_free(struct bucketlist *bl)
{
	free(bl->b);
	memset(bl, 0, sizeof(*bl));
}

uint64_t bucketlist_count(const struct bucketlist *bl)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < bl->n; i++)
		n += bl->b[i].count;
	return n;
}

void buckets_to_hist(const struct bucketlist *bl, const struct hist_stats *exact,
		     struct hist *h)
{
	bool was_empty = h->count == 0;
	size_t i;

	for (i = 0; i < bl->n; i++) {
		const struct bucket *b = &bl->b[i];

		hist_add_n(h, b->lo + (b->hi > b->lo ? (b->hi - b->lo) / 2 : 0), b->count);
	}
	if (!exact || !was_empty || exact->count != h->count || !h->count)
		return;
	h->min = exact->min;
	h->max = exact->max;
	h->sum = (uint64_t)llround(exact->mean * (double)exact->count);
	h->sumsq = (exact->stddev * exact->stddev + exact->mean * exact->mean) *
		   (double)exact->count;
}

bool bucket_valid(uint64_t lo, uint64_t hi)
{
	unsigned int i = hist_index(lo);

	if (hist_bucket_lo(i) != lo)
		return false;
	return i == HIST_BUCKETS - 1 || hi == lo + hist_bucket_width(i);
}

/* check_bucket - [lo, hi) must be one bucket of the log-linear layout (hist.h) */
int csvr_check_bucket(const struct csvr *r, uint64_t lo, uint64_t hi)
{
	if (!bucket_valid(lo, hi))
		return csvr_fail(r, "[%llu, %llu) is not a bucket of the histogram layout "
				 "(hist.h)", (unsigned long long)lo, (unsigned long long)hi);
	return 0;
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

	m = metric_index(sirq_metric_names, SM_NR, csvr_str(r, HC_METRIC));
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

	m = metric_index(wq_metric_names, WM_NR, csvr_str(r, HC_METRIC));
	if (m < 0)
		return NULL;
	for (i = 0; i < rec->nwq; i++) {
		const struct wq_group *g = &rec->wq[i];

		if (!strcmp(g->wq, csvr_str(r, HC_NAME)) &&
		    !strcmp(g->func, csvr_str(r, HC_FUNC)) &&
		    !strcmp(g->pool, csvr_str(r, HC_POOL)))
			return &rec->wq[i].h[m];
	}
	return NULL;
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
		return rd_errno(r->errbuf, -ENOMEM, "%s: out of memory", r->path);
	return 0;
}

/* check_totals - every histogram's buckets must add up to its count in summary.json */
static int check_totals(const char *path, const struct record *rec, char *errbuf)
{
	size_t i, m;

	for (i = 0; i < rec->nsirq; i++)
		for (m = 0; m < SM_NR; m++)
			if (bucketlist_count(&rec->sirq[i].h[m]) != rec->sirq[i].st[m].count)
				return rd_err(errbuf, "malformed result file %s: softirq %s cpu "
					      "%d %s: buckets hold %llu values, summary.json "
					      "says %llu", path, rec->sirq[i].vector,
					      rec->sirq[i].cpu, sirq_metric_names[m],
					      (unsigned long long)bucketlist_count(&rec->sirq[i].h[m]),
					      (unsigned long long)rec->sirq[i].st[m].count);
	for (i = 0; i < rec->nwq; i++)
		for (m = 0; m < WM_NR; m++)
			if (bucketlist_count(&rec->wq[i].h[m]) != rec->wq[i].st[m].count)
				return rd_err(errbuf, "malformed result file %s: workqueue "
					      "%s/%s/%s %s: buckets hold %llu values, "
					      "summary.json says %llu", path, rec->wq[i].wq,
					      rec->wq[i].func, rec->wq[i].pool, wq_metric_names[m],
					      (unsigned long long)bucketlist_count(&rec->wq[i].h[m]),
					      (unsigned long long)rec->wq[i].st[m].count);
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
