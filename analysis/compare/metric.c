// SPDX-License-Identifier: GPL-2.0
/*
 * metric.c - metric keys, per-record values and cellsets (see metric.h).
 */
#include "metric.h"
#include "grow.h"
#include "moved.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mstat_names[MST_NR] = {
	[MST_P50] = "p50", [MST_P90] = "p90", [MST_P99] = "p99", [MST_P999] = "p999",
	[MST_MAX] = "max",
};
const double mstat_q[MST_NR] = { 0.5, 0.9, 0.99, 0.999, 1.0 };

void metric_id(const struct metric_key *k, char *buf, size_t len)
{
	switch (k->src) {
	case MS_WORKLOAD:
		snprintf(buf, len, "workload:%s:%s", k->name, mstat_names[k->stat]);
		break;
	case MS_SOFTIRQ:
		snprintf(buf, len, "softirq:%s:%s:%s", k->name, sirq_metric_names[k->sub],
			 mstat_names[k->stat]);
		break;
	case MS_WQ:
		snprintf(buf, len, "wq:%s:%s%s%s:%s:%s", k->name, k->func, k->pool[0] ? "@" : "",
			 k->pool, wq_metric_names[k->sub], mstat_names[k->stat]);
		break;
	case MS_WAKEUP:
		snprintf(buf, len, "wakeup:%s:%s:%s", wake_kind_names[k->sub], k->name,
			 mstat_names[k->stat]);
		break;
	case MS_CONTEXT:
		snprintf(buf, len, "context:%s:%s%s%s:%s:%s", k->name, k->func, k->pool[0] ? "@" : "",
			 k->pool, sirq_metric_names[k->sub], mstat_names[k->stat]);
		break;
	case MS_WORK:
		snprintf(buf, len, "work:%s:%s:%s", k->name, sirq_metric_names[k->sub],
			 mstat_names[k->stat]);
		break;
	case MS_MOVED:
		snprintf(buf, len, "moved:%s:%s:%s:%s", k->name, k->func, sirq_metric_names[k->sub],
			 mstat_names[k->stat]);
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
	*v = k->stat == MST_MAX ? (double)h->max : (double)hist_percentile(h, mstat_q[k->stat]);
	free(h);
	return ret;
}

bool metric_usable(enum mstat stat, uint64_t count, unsigned int min_tail)
{
	if (stat == MST_MAX)
		return count > 0;
	return (double)count * (1 - mstat_q[stat]) >= (double)min_tail - 1e-9 && count > 0;
}

/* build - the sets of the run's traced cells, or of its control cells */
static int build(const struct run *run, struct cellsets *cs, bool control)
{
	size_t i;

	memset(cs, 0, sizeof(*cs));
	cs->s = calloc(run->ncells ? run->ncells : 1, sizeof(*cs->s));
	if (!cs->s)
		return -ENOMEM;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		struct cellset *s;

		if (c->control != control)
			continue;
		s = (struct cellset *)cellsets_find(cs, c->workload, c->config);
		if (!s) {
			s = &cs->s[cs->n++];
			strcpy(s->workload, c->workload);
			strcpy(s->config, c->config);
		}
		if (s->n == STATS_MAX_N)
			return -E2BIG;
		s->cell[s->n++] = c;
	}
	return 0;
}

int cellsets_build(const struct run *run, struct cellsets *cs)
{
	return build(run, cs, false);
}

int cellsets_build_control(const struct run *run, struct cellsets *cs)
{
	return build(run, cs, true);
}

void cellsets_free(struct cellsets *cs)
{
	free(cs->s);
	memset(cs, 0, sizeof(*cs));
}

const struct cellset *cellsets_find(const struct cellsets *cs, const char *workload,
				    const char *config)
{
	size_t i;

	for (i = 0; i < cs->n; i++)
		if (!strcmp(cs->s[i].workload, workload) && !strcmp(cs->s[i].config, config))
			return &cs->s[i];
	return NULL;
}

const struct cellset *cellsets_reference(const struct cellsets *cs, const char *workload)
{
	const struct cellset *s = cellsets_find(cs, workload, "default");
	size_t i;

	if (!s)
		s = cellsets_find(cs, workload, "baseline");
	for (i = 0; !s && i < cs->n; i++)
		if (!strcmp(cs->s[i].workload, workload))
			s = &cs->s[i];
	return s;
}

size_t cellset_ok(const struct cellset *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		n += s->cell[i]->ok;
	return n;
}

/* pooled - every usable repetition's histogram of k; verdict: the cells a verdict reads */
static int pooled(const struct cellset *s, const struct metric_key *k, struct hist *h,
		  bool verdict)
{
	size_t i;
	int ret, used = 0;

	for (i = 0; i < s->n; i++) {
		if (!s->cell[i]->ok)
			continue;
		if (verdict && metric_trace_derived(k) && s->cell[i]->rec.cap.lossy)
			continue;
		ret = metric_hist(&s->cell[i]->rec, k, h);
		if (ret == -ENOENT)
			continue;
		if (ret)
			return ret;
		used++;
	}
	return used ? 0 : -ENOENT;
}

int cellset_pooled(const struct cellset *s, const struct metric_key *k, struct hist *h)
{
	return pooled(s, k, h, false);
}

int cellset_pooled_verdict(const struct cellset *s, const struct metric_key *k,
			   struct hist *h)
{
	return pooled(s, k, h, true);
}

int keylist_add(struct keylist *kl, const struct metric_key *k)
{
	size_t i;

	for (i = 0; i < kl->n; i++)
		if (kl->k[i].stat == k->stat && metric_same_group(&kl->k[i], k))
			return 0;
	if (GROW(kl->k, kl->cap, kl->n + 1))
		return -ENOMEM;
	kl->k[kl->n++] = *k;
	return 0;
}

void keylist_free(struct keylist *kl)
{
	free(kl->k);
	memset(kl, 0, sizeof(*kl));
}

/* add_all_stats - k for every statistic */
static int add_all_stats(struct keylist *kl, struct metric_key *k)
{
	int s, ret = 0;

	for (s = 0; !ret && s < MST_NR; s++) {
		k->stat = (enum mstat)s;
		ret = keylist_add(kl, k);
	}
	return ret;
}

static int collect_record(const struct record *rec, bool per_pool, struct keylist *kl)
{
	struct metric_key k;
	size_t i;
	int m, ret = 0;

	for (i = 0; !ret && i < rec->wl.nm; i++) {
		k = (struct metric_key){ .src = MS_WORKLOAD };
		snprintf(k.name, sizeof(k.name), "%s", rec->wl.m[i].name);
		ret = add_all_stats(kl, &k);
	}
	for (i = 0; !ret && i < rec->nsirq; i++)
		for (m = 0; !ret && m < SM_NR && rec->sirq[i].cpu == -1; m++) {
			k = (struct metric_key){ .src = MS_SOFTIRQ, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->sirq[i].vector);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->nwq; i++)
		for (m = 0; !ret && m < WM_NR; m++) {
			k = (struct metric_key){ .src = MS_WQ, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wq[i].wq);
			snprintf(k.func, sizeof(k.func), "%s", rec->wq[i].func);
			if (per_pool)
				snprintf(k.pool, sizeof(k.pool), "%s", rec->wq[i].pool);
			ret = add_all_stats(kl, &k);
		}
	for (m = 0; !ret && m < WK_NR; m++)
		for (i = 0; !ret && i < rec->nwake[m]; i++) {
			k = (struct metric_key){ .src = MS_WAKEUP, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wake[m][i].name);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->nctx; i++)
		for (m = 0; !ret && m < SM_NR; m++) {
			k = (struct metric_key){ .src = MS_CONTEXT, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->ctx[i].context);
			snprintf(k.func, sizeof(k.func), "%s", rec->ctx[i].name);
			snprintf(k.pool, sizeof(k.pool), "%s", rec->ctx[i].where);
			ret = add_all_stats(kl, &k);
		}
	for (i = 0; !ret && i < rec->wl.nwork; i++)
		for (m = 0; !ret && m < SM_NR; m++) {
			struct hist *h = malloc(sizeof(*h));

			k = (struct metric_key){ .src = MS_WORK, .sub = m };
			snprintf(k.name, sizeof(k.name), "%s", rec->wl.work[i].name);
			if (!h)
				return -ENOMEM;
			hist_init(h);
			/* only a work the record has samples of */
			if (!work_hist(rec, &rec->wl.work[i], m, h) && h->count)
				ret = add_all_stats(kl, &k);
			free(h);
		}
	return ret;
}

int keylist_collect(const struct cellset *s, bool per_pool, struct keylist *kl)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < s->n; i++)
		if (s->cell[i]->ok)
			ret = collect_record(&s->cell[i]->rec, per_pool, kl);
	return ret;
}
