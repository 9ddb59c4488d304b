// SPDX-License-Identifier: GPL-2.0
/*
 * evidence.c - a metric's interval histograms in two sets of repetitions (evidence.h).
 */
#include "evidence.h"
#include "moved.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "grow.h"

/* visit - called for each bucket list of a repetition: interval iv (0 when pooled) */
typedef int (*visit_fn)(void *ctx, uint32_t iv, const struct bucketlist *bl);

static bool series_is(const struct ival_series *s, const struct metric_key *k)
{
	switch (k->src) {
	case MS_WORKLOAD:
		return s->src == IV_WORKLOAD && !strcmp(s->name, k->name);
	case MS_SOFTIRQ:
		return s->src == IV_SOFTIRQ && s->metric == k->sub && !strcmp(s->name, k->name);
	case MS_WQ:
		return s->src == IV_WQ && s->metric == k->sub && !strcmp(s->name, k->name) &&
		       !strcmp(s->func, k->func) && (!k->pool[0] || !strcmp(s->pool, k->pool));
	case MS_CONTEXT:
		/* the key names the context in name and its name in func; the file the reverse */
		return s->src == IV_CONTEXT && s->metric == k->sub && !strcmp(s->func, k->name) &&
		       !strcmp(s->name, k->func) && !strcmp(s->pool, k->pool);
	default:
		return false;
	}
}

/* series_in_work - a series of one of the groups of work w, for sub-metric sub */
static bool series_in_work(const struct ival_series *s, const struct wl_work *w, int sub)
{
	char gid[METRIC_ID_LEN];

	switch (s->src) {
	case IV_SOFTIRQ:
		if (s->metric != sub)
			return false;
		snprintf(gid, sizeof(gid), "softirq:%s", s->name);
		break;
	case IV_WQ:
		if (s->metric != (sub == SM_DELAY ? WM_DELAY : WM_RUNTIME))
			return false;
		snprintf(gid, sizeof(gid), "wq:%s:%s", s->name, s->func);
		break;
	case IV_CONTEXT:
		if (s->metric != sub)
			return false;
		snprintf(gid, sizeof(gid), "context:%s:%s@%s", s->func, s->name, s->pool);
		break;
	default:
		return false;
	}
	return metric_work_member(w, gid);
}

/* key_series - series s holds (part of) k's histogram in rec */
static bool key_series(const struct record *rec, const struct ival_series *s,
		       const struct metric_key *k)
{
	const struct wl_work *w = metric_work(rec, k);

	if (k->src == MS_MOVED)
		return moved_series(s, k);
	return k->src == MS_WORK ? w && series_in_work(s, w, k->sub) : series_is(s, k);
}

/* has_series - the record kept per-interval histograms for k's kind of metric */
static bool has_series(const struct record *rec, const struct metric_key *k)
{
	return k->src == MS_WORKLOAD ? rec->has_wl_ivals : rec->has_ivals;
}

/* uses_series - k's histograms in rec come from intervals, not the pooled file */
static bool uses_series(const struct record *rec, const struct metric_key *k)
{
	size_t i;

	for (i = 0; has_series(rec, k) && i < rec->nser; i++)
		if (key_series(rec, &rec->ser[i], k) && rec->ser[i].n)
			return true;
	return false;
}

/* work_visit - the pooled histograms of k's work groups, as interval 0 */
static long work_visit(const struct record *rec, const struct metric_key *k, visit_fn fn,
		       void *ctx)
{
	const struct wl_work *w = metric_work(rec, k);
	char gid[METRIC_ID_LEN];
	long n = 0;
	size_t i;
	int ret;

	if (!w)
		return 0;
	for (i = 0; i < rec->nsirq; i++) {
		snprintf(gid, sizeof(gid), "softirq:%s", rec->sirq[i].vector);
		if (rec->sirq[i].cpu == -1 && rec->sirq[i].h[k->sub].n && metric_work_member(w, gid)) {
			if ((ret = fn(ctx, 0, &rec->sirq[i].h[k->sub])))
				return ret;
			n = 1;
		}
	}
	for (i = 0; i < rec->nwq; i++) {
		const struct bucketlist *bl = &rec->wq[i].h[k->sub == SM_DELAY ? WM_DELAY : WM_RUNTIME];

		snprintf(gid, sizeof(gid), "wq:%s:%s", rec->wq[i].wq, rec->wq[i].func);
		if (bl->n && metric_work_member(w, gid)) {
			if ((ret = fn(ctx, 0, bl)))
				return ret;
			n = 1;
		}
	}
	for (i = 0; i < rec->nctx; i++) {
		snprintf(gid, sizeof(gid), "context:%s:%s@%s", rec->ctx[i].context,
			 rec->ctx[i].name, rec->ctx[i].where);
		if (rec->ctx[i].h[k->sub].n && metric_work_member(w, gid)) {
			if ((ret = fn(ctx, 0, &rec->ctx[i].h[k->sub])))
				return ret;
			n = 1;
		}
	}
	return n;
}

/*
 * rep_visit - every bucket list of k in rec: its interval series, or, when the record
 * kept none, its pooled histogram as interval 0. Returns the intervals visited (0: the
 * metric is absent), or -errno from fn.
 */
static long rep_visit(const struct record *rec, const struct metric_key *k, visit_fn fn,
		      void *ctx)
{
	const struct wl_metric_data *m;
	const struct sirq_data *g;
	uint32_t n = 0;
	size_t i, j;
	int ret;

	for (i = 0; has_series(rec, k) && i < rec->nser; i++) {
		if (!key_series(rec, &rec->ser[i], k))
			continue;
		for (j = 0; j < rec->ser[i].n; j++)
			if ((ret = fn(ctx, (uint32_t)j, &rec->ser[i].iv[j])))
				return ret;
		if (rec->ser[i].n > n)
			n = (uint32_t)rec->ser[i].n;
	}
	if (n)
		return n;
	/* no intervals kept for this metric (cyclictest's, or an older file): pooled */
	switch (k->src) {
	case MS_WORKLOAD:
		m = record_wl_metric(rec, k->name);
		return m && m->h.n ? ((ret = fn(ctx, 0, &m->h)) ? ret : 1) : 0;
	case MS_SOFTIRQ:
		g = record_sirq(rec, k->name, -1);
		return g && g->h[k->sub].n ? ((ret = fn(ctx, 0, &g->h[k->sub])) ? ret : 1) : 0;
	case MS_WQ:
		for (i = 0; i < rec->nwq; i++) {
			const struct wq_data *w = &rec->wq[i];

			if (strcmp(w->wq, k->name) || strcmp(w->func, k->func) ||
			    (k->pool[0] && strcmp(w->pool, k->pool)) || !w->h[k->sub].n)
				continue;
			if ((ret = fn(ctx, 0, &w->h[k->sub])))
				return ret;
			n = 1;
		}
		return n;
	case MS_CONTEXT: {
		const struct ctx_data *c = record_ctx(rec, k->name, k->func, k->pool);

		return c && c->h[k->sub].n ? ((ret = fn(ctx, 0, &c->h[k->sub])) ? ret : 1) : 0;
	}
	case MS_WORK:
		return work_visit(rec, k, fn, ctx);
	case MS_MOVED: {
		const struct bucketlist *bl[64];
		size_t nl = moved_lists(rec, k, bl, NULL, ARRAY_SIZE(bl));

		for (i = 0; i < nl && i < ARRAY_SIZE(bl); i++) {
			if (!bl[i]->n)
				continue;
			if ((ret = fn(ctx, 0, bl[i])))
				return ret;
			n = 1;
		}
		return n;
	}
	default:
		return 0;
	}
}

/* Pass 1: the bucket lower bounds in use and the sizes of everything. */
struct census {
	uint64_t *lo;
	size_t nlo, caplo;
	size_t nbuckets;
};

static int census_visit(void *ctx, uint32_t iv __unused,
			const struct bucketlist *bl)
{
	struct census *c = ctx;
	size_t i;

	for (i = 0; i < bl->n; i++) {
		if (GROW(c->lo, c->caplo, c->nlo + 1))
			return -ENOMEM;
		c->lo[c->nlo++] = bl->b[i].lo;
	}
	c->nbuckets += bl->n;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Pass 2: fill the intervals of one repetition. */
struct filler {
	struct evidence *e;
	const uint64_t *lo;		/* the domain's lower bounds */
	struct hb_rep *rep;
};

static uint32_t domain_index(const uint64_t *lo, uint32_t n, uint64_t v)
{
	uint32_t a = 0, b = n;

	while (a < b) {
		uint32_t m = a + (b - a) / 2;

		if (lo[m] < v)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

static int fill_visit(void *ctx, uint32_t iv, const struct bucketlist *bl)
{
	struct filler *f = ctx;
	struct hb_ival *x = &f->rep->iv[iv];
	size_t i;

	/* slots reserved by fill_rep; several pools of a metric append to one interval */
	for (i = 0; i < bl->n; i++) {
		x->idx[x->n] = domain_index(f->lo, f->e->dom.n, bl->b[i].lo);
		x->cnt[x->n] = bl->b[i].count;
		x->total += bl->b[i].count;
		x->n++;
	}
	return 0;
}

/*
 * Intervals of one repetition share its slots of idx/cnt only when they are filled in
 * order; a metric of several pools visits interval k once per pool, so each interval's
 * slots are reserved first (count_visit) and filled afterwards.
 */
struct counter {
	uint32_t *per_iv;		/* buckets per interval */
	uint32_t n;
};

static int count_visit(void *ctx, uint32_t iv, const struct bucketlist *bl)
{
	struct counter *c = ctx;

	if (iv < c->n)
		c->per_iv[iv] += (uint32_t)bl->n;
	return 0;
}

/* tidy - an interval's buckets ascending, duplicates (several pools) summed */
static void tidy(struct hb_ival *x)
{
	uint32_t i, j, n = 0;

	for (i = 1; i < x->n; i++) {	/* insertion sort: lists come nearly sorted */
		uint32_t ki = x->idx[i];
		uint64_t ci = x->cnt[i];

		for (j = i; j > 0 && x->idx[j - 1] > ki; j--) {
			x->idx[j] = x->idx[j - 1];
			x->cnt[j] = x->cnt[j - 1];
		}
		x->idx[j] = ki;
		x->cnt[j] = ci;
	}
	for (i = 0; i < x->n; i++) {
		if (n && x->idx[n - 1] == x->idx[i]) {
			x->cnt[n - 1] += x->cnt[i];
			continue;
		}
		x->idx[n] = x->idx[i];
		x->cnt[n++] = x->cnt[i];
	}
	x->n = n;
}

static int fill_rep(struct evidence *e, const struct record *rec, const struct metric_key *k,
		    struct hb_rep *rep, uint32_t nivals, const uint64_t *lo, size_t *used)
{
	struct counter c = { calloc(nivals ? nivals : 1, sizeof(uint32_t)), nivals };
	struct filler f = { e, lo, rep };
	uint32_t i;
	long r;

	if (!c.per_iv)
		return -ENOMEM;
	rep_visit(rec, k, count_visit, &c);
	for (i = 0; i < nivals; i++) {
		rep->iv[i].idx = e->idx + *used;
		rep->iv[i].cnt = e->cnt + *used;
		*used += c.per_iv[i];
	}
	free(c.per_iv);
	r = rep_visit(rec, k, fill_visit, &f);
	for (i = 0; r >= 0 && i < nivals; i++)
		tidy(&rep->iv[i]);
	return r < 0 ? (int)r : 0;
}

static bool usable_cell(const struct cell *c, const struct metric_key *k)
{
	return c->ok && !(metric_trace_derived(k) && c->rec.cap.lossy);
}

/* pairable - every usable cell of both sides is a block of the same segment group */
static bool pairable(const struct cellset *const sets[2], const struct metric_key *k)
{
	const char *seg = NULL;
	size_t s, i;

	for (s = 0; s < 2; s++) {
		if (!sets[s])
			return false;
		for (i = 0; i < sets[s]->n; i++) {
			const struct cell *c = sets[s]->cell[i];

			if (!usable_cell(c, k))
				continue;
			if (!c->alt || (seg && strcmp(seg, c->segment)))
				return false;
			seg = c->segment;
		}
	}
	return seg != NULL;
}

/* block_cell - the usable cell of block b in set, or NULL */
static const struct cell *block_cell(const struct cellset *set, unsigned int b,
				     const struct metric_key *k)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->cell[i]->rep == b && usable_cell(set->cell[i], k))
			return set->cell[i];
	return NULL;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

/*
 * select_cells - the cells each side contributes, in order: unpaired, every usable cell
 * as the set lists them; paired, the blocks both sides have, ascending, one cell each
 */
static void select_cells(const struct cellset *const sets[2], const struct metric_key *k,
			 bool paired, const struct cell **sel, size_t *n)
{
	unsigned int blocks[STATS_MAX_N];
	size_t s, i, nb = 0;

	n[0] = n[1] = 0;
	if (!paired) {
		for (s = 0; s < 2; s++)
			for (i = 0; sets[s] && i < sets[s]->n; i++)
				if (usable_cell(sets[s]->cell[i], k))
					sel[s * STATS_MAX_N + n[s]++] = sets[s]->cell[i];
		return;
	}
	for (i = 0; i < sets[0]->n; i++)
		if (usable_cell(sets[0]->cell[i], k) && block_cell(sets[1], sets[0]->cell[i]->rep, k))
			blocks[nb++] = sets[0]->cell[i]->rep;
	qsort(blocks, nb, sizeof(*blocks), cmp_uint);
	for (i = 0; i < nb; i++) {
		if (i && blocks[i] == blocks[i - 1])
			continue;
		sel[n[0]++] = block_cell(sets[0], blocks[i], k);
		sel[STATS_MAX_N + n[1]++] = block_cell(sets[1], blocks[i], k);
	}
}

int evidence_build(const struct cellset *base, const struct cellset *new,
		   const struct metric_key *k, struct evidence *e)
{
	const struct cellset *const sets[2] = { base, new };
	const struct cell **sel = NULL;
	struct census cz = { 0 };
	size_t nreps = 0, nivals = 0, used = 0, i, s, u, nsel[2];
	uint32_t *niv = NULL;
	long r;
	int ret = -ENOMEM;

	memset(e, 0, sizeof(*e));
	if (k->src == MS_WAKEUP)
		return 0;	/* statistics only: nothing to resample */
	/* census: lower bounds, intervals per repetition */
	niv = calloc(2 * STATS_MAX_N, sizeof(*niv));
	sel = calloc(2 * STATS_MAX_N, sizeof(*sel));
	if (!niv || !sel)
		goto out;
	e->paired = pairable(sets, k);
	select_cells(sets, k, e->paired, sel, nsel);
	for (s = 0; s < 2; s++)
		for (i = 0; i < nsel[s]; i++) {
			r = rep_visit(&sel[s * STATS_MAX_N + i]->rec, k, census_visit, &cz);
			if (r < 0)
				goto out;
			niv[s * STATS_MAX_N + i] = (uint32_t)r;
			nivals += (size_t)r;
			/* paired: a block without data keeps its place (empty) */
			nreps += r > 0 || e->paired;
		}
	qsort(cz.lo, cz.nlo, sizeof(*cz.lo), cmp_u64);
	for (i = 0, u = 0; i < cz.nlo; i++)
		if (!u || cz.lo[i] != cz.lo[u - 1])
			cz.lo[u++] = cz.lo[i];
	e->val = calloc(u ? u : 1, sizeof(*e->val));
	e->reps = calloc(nreps ? nreps : 1, sizeof(*e->reps));
	e->ivals = calloc(nivals ? nivals : 1, sizeof(*e->ivals));
	e->idx = calloc(cz.nbuckets ? cz.nbuckets : 1, sizeof(*e->idx));
	e->cnt = calloc(cz.nbuckets ? cz.nbuckets : 1, sizeof(*e->cnt));
	if (!e->val || !e->reps || !e->ivals || !e->idx || !e->cnt)
		goto out;
	for (i = 0; i < u; i++) {
		/* a bucket stands for its midpoint, as hist_percentile() reports it */
		uint64_t w = hist_bucket_width(hist_index(cz.lo[i]));

		e->val[i] = (double)cz.lo[i] + (w > 1 ? (double)(w / 2) : 0);
	}
	e->dom.val = e->val;
	e->dom.n = (uint32_t)u;
	nreps = nivals = 0;
	for (s = 0; s < 2; s++) {
		e->side[s].rep = e->reps + nreps;
		for (i = 0; i < nsel[s]; i++) {
			const struct cell *c = sel[s * STATS_MAX_N + i];
			uint32_t n = niv[s * STATS_MAX_N + i];
			struct hb_rep *rep;

			if (!n && !e->paired)
				continue;
			rep = &e->reps[nreps++];
			rep->iv = e->ivals + nivals;
			rep->n = n;
			rep->stratum = e->paired ? c->seg_first : 0;
			nivals += n;
			e->side[s].n++;
			e->pooled_only[s] += n && !uses_series(&c->rec, k);
			ret = fill_rep(e, &c->rec, k, rep, n, cz.lo, &used);
			if (ret)
				goto out;
		}
		e->count[s] = hb_count(&e->side[s]);
	}
	ret = 0;
out:
	free(niv);
	free(sel);
	free(cz.lo);
	if (ret)
		evidence_free(e);
	return ret;
}

void evidence_free(struct evidence *e)
{
	free(e->val);
	free(e->reps);
	free(e->ivals);
	free(e->idx);
	free(e->cnt);
	memset(e, 0, sizeof(*e));
}
