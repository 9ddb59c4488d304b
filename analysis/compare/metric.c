// SPDX-License-Identifier: GPL-2.0
/*
 * metric.c - metric keys and their values in one record (see metric.h).
 */
#include "metric.h"
#include "grow.h"
#include "moved.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const metric_stat_names[MST_NR] = {
	[MST_P50] = "p50", [MST_P90] = "p90", [MST_P99] = "p99", [MST_P999] = "p999",
	[MST_MAX] = "max",
};
const double metric_stat_q[MST_NR] = { 0.5, 0.9, 0.99, 0.999, 1.0 };

void metric_id(const struct metric_key *k, char *buf, size_t len)
{
	switch (k->src) {
	case MS_WORKLOAD:
		snprintf(buf, len, "workload:%s:%s", k->name, metric_stat_names[k->stat]);
		break;
	case MS_SOFTIRQ:
		snprintf(buf, len, "softirq:%s:%s:%s", k->name, record_sirq_metric_names[k->sub],
			 metric_stat_names[k->stat]);
		break;
	case MS_WQ:
		snprintf(buf, len, "wq:%s:%s%s%s:%s:%s", k->name, k->func, k->pool[0] ? "@" : "",
			 k->pool, record_wq_metric_names[k->sub], metric_stat_names[k->stat]);
		break;
	case MS_WAKEUP:
		snprintf(buf, len, "wakeup:%s:%s:%s", record_wake_kind_names[k->sub], k->name,
			 metric_stat_names[k->stat]);
		break;
	case MS_CONTEXT:
		snprintf(buf, len, "context:%s:%s%s%s:%s:%s", k->name, k->func, k->pool[0] ? "@" : "",
			 k->pool, record_sirq_metric_names[k->sub], metric_stat_names[k->stat]);
		break;
	case MS_WORK:
		snprintf(buf, len, "work:%s:%s:%s", k->name, record_sirq_metric_names[k->sub],
			 metric_stat_names[k->stat]);
		break;
	case MS_MOVED:
		snprintf(buf, len, "moved:%s:%s:%s:%s", k->name, k->func, record_sirq_metric_names[k->sub],
			 metric_stat_names[k->stat]);
		break;
	}
}

const struct wl_work *metric_work(const struct record *rec, const struct metric_key *k)
{
	size_t i;

	for (i = 0; k->src == MS_WORK && i < rec->wl.nwork; i++)
		if (!strcmp(rec->wl.work[i].name, k->name))
			return &rec->wl.work[i];
	return NULL;
}

bool metric_work_member(const struct wl_work *w, const char *gid)
{
	size_t i;

	for (i = 0; i < w->nmember; i++)
		if (!fnmatch(w->member[i], gid, 0))
			return true;
	return false;
}

/* work_hist - the histograms of every group of work w in rec merged into h */
static int work_hist(const struct record *rec, const struct wl_work *w, int sub,
		     struct hist *h)
{
	char gid[METRIC_ID_LEN];
	size_t i, found = 0;

	for (i = 0; i < rec->nsirq; i++) {
		if (rec->sirq[i].cpu != -1)
			continue;
		snprintf(gid, sizeof(gid), "softirq:%s", rec->sirq[i].vector);
		if (metric_work_member(w, gid)) {
			buckets_to_hist(&rec->sirq[i].h[sub], NULL, h);
			found++;
		}
	}
	for (i = 0; sub == SM_DELAY && i < rec->nwq; i++) {
		snprintf(gid, sizeof(gid), "wq:%s:%s", rec->wq[i].wq, rec->wq[i].func);
		if (metric_work_member(w, gid)) {
			buckets_to_hist(&rec->wq[i].h[WM_DELAY], NULL, h);
			found++;
		}
	}
	for (i = 0; sub == SM_RUNTIME && i < rec->nwq; i++) {
		snprintf(gid, sizeof(gid), "wq:%s:%s", rec->wq[i].wq, rec->wq[i].func);
		if (metric_work_member(w, gid)) {
			buckets_to_hist(&rec->wq[i].h[WM_RUNTIME], NULL, h);
			found++;
		}
	}
	for (i = 0; i < rec->nctx; i++) {
		snprintf(gid, sizeof(gid), "context:%s:%s@%s", rec->ctx[i].context, rec->ctx[i].name,
			 rec->ctx[i].where);
		if (metric_work_member(w, gid)) {
			buckets_to_hist(&rec->ctx[i].h[sub], NULL, h);
			found++;
		}
	}
	return found ? 0 : -ENOENT;
}

bool metric_same_group(const struct metric_key *a, const struct metric_key *b)
{
	return a->src == b->src && a->sub == b->sub && !strcmp(a->name, b->name) &&
	       !strcmp(a->func, b->func) && !strcmp(a->pool, b->pool);
}

static bool wq_match(const struct wq_data *g, const struct metric_key *k)
{
	return !strcmp(g->wq, k->name) && !strcmp(g->func, k->func) &&
	       (!k->pool[0] || !strcmp(g->pool, k->pool));
}

int metric_hist(const struct record *rec, const struct metric_key *k, struct hist *h)
{
	const struct wl_metric_data *m;
	const struct sirq_data *g;
	const struct ctx_data *c;
	size_t i, found = 0;

	switch (k->src) {
	case MS_WORKLOAD:
		m = record_wl_metric(rec, k->name);
		if (!m)
			return -ENOENT;
		if (m->st.count && !m->h.n)
			return -ENODATA;
		buckets_to_hist(&m->h, &m->st, h);
		return 0;
	case MS_SOFTIRQ:
		g = record_sirq(rec, k->name, -1);
		if (!g)
			return -ENOENT;
		if (!rec->has_hist)
			return -ENODATA;
		buckets_to_hist(&g->h[k->sub], &g->st[k->sub], h);
		return 0;
	case MS_WQ:
		if (!rec->has_hist)
			return -ENODATA;
		for (i = 0; i < rec->nwq; i++)
			if (wq_match(&rec->wq[i], k)) {
				buckets_to_hist(&rec->wq[i].h[k->sub], &rec->wq[i].st[k->sub], h);
				found++;
			}
		return found ? 0 : -ENOENT;
	case MS_WAKEUP:
		return record_wakeup(rec, k->sub, k->name) ? -ENODATA : -ENOENT;
	case MS_CONTEXT:
		c = record_ctx(rec, k->name, k->func, k->pool);
		if (!c)
			return -ENOENT;
		if (!rec->has_hist)
			return -ENODATA;
		buckets_to_hist(&c->h[k->sub], &c->st[k->sub], h);
		return 0;
	case MS_WORK:
		if (!metric_work(rec, k))
			return -ENOENT;
		if (!rec->has_hist)
			return -ENODATA;
		return work_hist(rec, metric_work(rec, k), k->sub, h);
	case MS_MOVED:
		return moved_hist(rec, k, h);
	}
	return -EINVAL;
}

static double stat_of(const struct hist_stats *st, enum mstat s)
{
	const uint64_t v[MST_NR] = { st->p50, st->p90, st->p99, st->p999, st->max };

	return (double)v[s];
}

/* single_stats - the file's own statistics when k names exactly one histogram */
static const struct hist_stats *single_stats(const struct record *rec,
					     const struct metric_key *k, int *ngroups)
{
	const struct hist_stats *st = NULL;
	const struct wl_metric_data *m;
	const struct sirq_data *g;
	const struct wake_data *w;
	size_t i;

	*ngroups = 0;
	if (k->src == MS_MOVED) {
		/* one group: its own exact figures; several: merged from their buckets */
		*ngroups = (int)moved_lists(rec, k, NULL, &st, 1);
		return *ngroups == 1 ? st : NULL;
	}
	if (k->src == MS_WORK) {
		/* always merged: the groups of the work that happen to be there */
		*ngroups = metric_work(rec, k) ? 2 : 0;
		return NULL;
	}
	if (k->src == MS_WORKLOAD) {
		m = record_wl_metric(rec, k->name);
		*ngroups = !!m;
		return m ? &m->st : NULL;
	}
	if (k->src == MS_SOFTIRQ) {
		g = record_sirq(rec, k->name, -1);
		*ngroups = !!g;
		return g ? &g->st[k->sub] : NULL;
	}
	if (k->src == MS_WAKEUP) {
		w = record_wakeup(rec, k->sub, k->name);
		*ngroups = !!w;
		return w ? &w->st : NULL;
	}
	if (k->src == MS_CONTEXT) {
		const struct ctx_data *c = record_ctx(rec, k->name, k->func, k->pool);

		*ngroups = !!c;
		return c ? &c->st[k->sub] : NULL;
	}
	for (i = 0; i < rec->nwq; i++)
		if (wq_match(&rec->wq[i], k)) {
			st = &rec->wq[i].st[k->sub];
			(*ngroups)++;
		}
	return *ngroups == 1 ? st : NULL;
}

int metric_value(const struct record *rec, const struct metric_key *k, double *v,
		 uint64_t *count)
{
	const struct hist_stats *st;
	struct hist *h;
	int n, ret;

	st = single_stats(rec, k, &n);
	if (!n)
		return -ENOENT;
	if (st) {
		*v = stat_of(st, k->stat);
		*count = st->count;
		return 0;
	}
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	hist_init(h);
	ret = metric_hist(rec, k, h);
	*count = h->count;
	*v = k->stat == MST_MAX ? (double)h->max : (double)hist_percentile(h, metric_stat_q[k->stat]);
	free(h);
	return ret;
}

bool metric_usable(enum mstat stat, uint64_t count, unsigned int min_tail)
{
	if (stat == MST_MAX)
		return count > 0;
	return (double)count * (1 - metric_stat_q[stat]) >= (double)min_tail - 1e-9 && count > 0;
}
