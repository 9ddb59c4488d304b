// SPDX-License-Identifier: GPL-2.0
/*
 * moved.c - work matched across execution contexts and pool kinds (see moved.h).
 */
#include "moved.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grow.h"

enum { MW_FUNC, MW_SOFTIRQ, MW_NAPI, MW_NR };
static const char *const what_names[MW_NR] = { "func", "softirq", "napi" };
/* the context whose groups hold each what (func: also the workqueue groups) */
static const char *const what_ctx[MW_NR] = { "tasklet", "softirq", "napi_poll" };

/* pool_class - "cpu0" percpu, "cpu0H" percpu_hi, "unbound3", "bh0", "bh0H", "rescuer" */
static const char *pool_class(const char *pool)
{
	size_t n = strlen(pool);
	bool hi = n && pool[n - 1] == 'H';

	if (!strncmp(pool, "cpu", 3))
		return hi ? "percpu_hi" : "percpu";
	if (!strncmp(pool, "unbound", 7))
		return "unbound";
	if (!strncmp(pool, "bh", 2))
		return hi ? "bh_hi" : "bh";
	if (!strcmp(pool, "rescuer"))
		return "rescuer";
	return "unknown";
}

const char *moved_class(const char *kind, const char *where)
{
	if (!strcmp(kind, "wq"))
		return pool_class(where);
	if (!strcmp(kind, "tasklet"))
		return !strcmp(where, "HI") ? "tasklet_hi" : "tasklet";
	if (!strcmp(kind, "softirq"))
		return !strcmp(where, "ktimers") || !strcmp(where, "irq_thread") ? where :
		       "softirq";
	if (!strcmp(kind, "napi_poll")) {
		if (!strcmp(where, "thread"))
			return "napi_thread";
		if (!strcmp(where, "backlog_napi") || !strcmp(where, "busy_poll"))
			return where;
		return "softirq";
	}
	return NULL;
}

static int what_of(const char *name)
{
	int w;

	for (w = 0; w < MW_NR; w++)
		if (!strcmp(name, what_names[w]))
			return w;
	return -1;
}

/* wq_sub - the workqueue metric of a moved key's sub-metric */
static int wq_sub(int sub)
{
	return sub == SM_RUNTIME ? WM_RUNTIME : WM_DELAY;
}

size_t moved_lists(const struct record *rec, const struct metric_key *k,
		   const struct bucketlist **bl, const struct hist_stats **st, size_t max)
{
	int w = what_of(k->name);
	size_t i, n = 0;

	if (k->src != MS_MOVED || w < 0)
		return 0;
	for (i = 0; w == MW_FUNC && i < rec->nwq; i++) {
		if (strcmp(rec->wq[i].func, k->func))
			continue;
		if (n < max && bl)
			bl[n] = &rec->wq[i].h[wq_sub(k->sub)];
		if (n < max && st)
			st[n] = &rec->wq[i].st[wq_sub(k->sub)];
		n++;
	}
	for (i = 0; i < rec->nctx; i++) {
		if (strcmp(rec->ctx[i].context, what_ctx[w]) || strcmp(rec->ctx[i].name, k->func))
			continue;
		if (n < max && bl)
			bl[n] = &rec->ctx[i].h[k->sub];
		if (n < max && st)
			st[n] = &rec->ctx[i].st[k->sub];
		n++;
	}
	return n;
}

int moved_hist(const struct record *rec, const struct metric_key *k, struct hist *h)
{
	const struct bucketlist *bl[64];
	size_t n = moved_lists(rec, k, bl, NULL, ARRAY_SIZE(bl)), i;

	if (!n)
		return -ENOENT;
	if (!rec->has_hist)
		return -ENODATA;
	for (i = 0; i < n && i < ARRAY_SIZE(bl); i++)
		buckets_to_hist(bl[i], NULL, h);
	return 0;
}

bool moved_series(const struct ival_series *s, const struct metric_key *k)
{
	int w = what_of(k->name);

	if (k->src != MS_MOVED || w < 0)
		return false;
	if (w == MW_FUNC && s->src == IV_WQ)
		return s->metric == wq_sub(k->sub) && !strcmp(s->func, k->func);
	/* a context's series: its name in name, the context in func (intervals.csv) */
	return s->src == IV_CONTEXT && s->metric == k->sub && !strcmp(s->func, what_ctx[w]) &&
	       !strcmp(s->name, k->func);
}

const char *moved_place_of(const char *const *cls, const uint64_t *count, size_t n,
			   double *share)
{
	uint64_t best = 0, total = 0, c;
	const char *place = "";
	size_t i, j;

	for (i = 0; i < n; i++)
		total += count[i];
	/* the groups of one class (a function in two pools of one kind) add up */
	for (i = 0; i < n; i++) {
		for (c = 0, j = 0; j < n; j++)
			c += strcmp(cls[i], cls[j]) ? 0 : count[j];
		if (c > best) {
			best = c;
			place = cls[i];
		}
	}
	*share = total ? (double)best / (double)total : 0;
	return place;
}

/* One work of a comparison: its groups' classes and counts on each side. */
#define PLACES_MAX 16
struct work {
	int what;
	char name[FUNC_LEN];
	const char *cls[2][PLACES_MAX];
	uint64_t count[2][PLACES_MAX];
	size_t n[2];
};

struct works {
	struct work *w;
	size_t n, cap;
};

static int work_add(struct works *ws, int what, const char *name, int side, const char *cls,
		    uint64_t count)
{
	struct work *w = NULL;
	size_t i;

	for (i = 0; i < ws->n && !w; i++)
		if (ws->w[i].what == what && !strcmp(ws->w[i].name, name))
			w = &ws->w[i];
	if (!w) {
		if (GROW(ws->w, ws->cap, ws->n + 1))
			return -ENOMEM;
		w = &ws->w[ws->n++];
		memset(w, 0, sizeof(*w));
		w->what = what;
		snprintf(w->name, sizeof(w->name), "%s", name);
	}
	for (i = 0; i < w->n[side]; i++)
		if (!strcmp(w->cls[side][i], cls)) {
			w->count[side][i] += count;
			return 0;
		}
	if (w->n[side] < PLACES_MAX) {
		w->cls[side][w->n[side]] = cls;
		w->count[side][w->n[side]++] = count;
	}
	return 0;
}

/* works_record - the works of one record with the class and count of each group */
static int works_record(struct works *ws, const struct record *rec, int side)
{
	const char *cls;
	size_t i;
	int w, ret = 0;

	for (i = 0; !ret && i < rec->nwq; i++)
		ret = work_add(ws, MW_FUNC, rec->wq[i].func, side, pool_class(rec->wq[i].pool),
			       rec->wq[i].count);
	for (i = 0; !ret && i < rec->nctx; i++) {
		const struct ctx_data *c = &rec->ctx[i];

		for (w = 0; w < MW_NR && strcmp(c->context, what_ctx[w]); w++)
			;
		cls = w < MW_NR ? moved_class(c->context, c->where) : NULL;
		if (cls)
			ret = work_add(ws, w, c->name, side, cls, c->count);
	}
	return ret;
}

static int list_add(struct moved_list *l, const struct moved *m)
{
	if (GROW(l->m, l->cap, l->n + 1))
		return -ENOMEM;
	l->m[l->n++] = *m;
	return 0;
}

int moved_find(const struct cellset *bs, const struct cellset *ns, struct moved_list *out)
{
	const struct cellset *set[2] = { bs, ns };
	struct works ws = { 0 };
	size_t i, s;
	int ret = 0;

	for (s = 0; s < 2; s++)
		for (i = 0; !ret && i < set[s]->n; i++)
			if (set[s]->cell[i]->ok)
				ret = works_record(&ws, &set[s]->cell[i]->rec, (int)s);
	for (i = 0; !ret && i < ws.n; i++) {
		const struct work *w = &ws.w[i];
		struct moved m = { .key = { .src = MS_MOVED } };
		const char *from, *to;

		if (!w->n[0] || !w->n[1])
			continue;
		from = moved_place_of(w->cls[0], w->count[0], w->n[0], &m.from_share);
		to = moved_place_of(w->cls[1], w->count[1], w->n[1], &m.to_share);
		if (!*from || !*to || !strcmp(from, to))
			continue;
		snprintf(m.workload, sizeof(m.workload), "%s", bs->workload);
		snprintf(m.config, sizeof(m.config), "%s", bs->config);
		snprintf(m.key.name, sizeof(m.key.name), "%s", what_names[w->what]);
		snprintf(m.key.func, sizeof(m.key.func), "%s", w->name);
		/* a NAPI poll is asked for by no event: its run is its figure */
		m.key.sub = w->what == MW_NAPI ? SM_RUNTIME : SM_DELAY;
		snprintf(m.from, sizeof(m.from), "%s", from);
		snprintf(m.to, sizeof(m.to), "%s", to);
		for (s = 0; s < w->n[0]; s++)
			m.nbase += w->count[0][s];
		for (s = 0; s < w->n[1]; s++)
			m.nnew += w->count[1][s];
		ret = list_add(out, &m);
	}
	free(ws.w);
	return ret;
}

void moved_list_free(struct moved_list *l)
{
	free(l->m);
	memset(l, 0, sizeof(*l));
}

int moved_keys_record(const struct record *rec, struct keylist *kl)
{
	static const enum mstat stats[] = { MST_P50, MST_P99 };
	struct works ws = { 0 };
	size_t i, s;
	int ret;

	ret = works_record(&ws, rec, 0);
	for (i = 0; !ret && i < ws.n; i++)
		for (s = 0; !ret && s < ARRAY_SIZE(stats); s++) {
			struct metric_key k = { .src = MS_MOVED, .stat = stats[s] };

			snprintf(k.name, sizeof(k.name), "%s", what_names[ws.w[i].what]);
			snprintf(k.func, sizeof(k.func), "%s", ws.w[i].name);
			k.sub = ws.w[i].what == MW_NAPI ? SM_RUNTIME : SM_DELAY;
			ret = keylist_add(kl, &k);
		}
	free(ws.w);
	return ret;
}
