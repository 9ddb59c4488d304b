// SPDX-License-Identifier: GPL-2.0
/*
 * aggr.c - pooled and per-repetition figures of a cellset (see aggr.h).
 */
#include "aggr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc.h"

static void spread_of(const double *v, size_t n, struct spread *s)
{
	size_t i;

	s->med = stats_median(v, n);
	s->min = s->max = n ? v[0] : NAN;
	for (i = 1; i < n; i++) {
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
}

/* rep_values - each repetition's p50, p99 and max of k's histogram */
static void rep_values(const struct cellset *s, const struct metric_key *k, struct figure *f)
{
	static const enum mstat which[3] = { MST_P50, MST_P99, MST_MAX };
	struct spread *out[3] = { &f->p50, &f->p99, &f->max };
	double v[3][STATS_MAX_N];
	struct metric_key kk = *k;
	uint64_t count;
	size_t i, n = 0;
	int w;

	for (i = 0; i < s->n; i++) {
		const struct cell *c = s->cell[i];

		if (!c->ok) {
			f->incomplete_reps++;
			continue;
		}
		f->lost += c->rec.cap.lost_events;
		f->unmatched += c->rec.cap.unmatched;
		f->lossy_reps += c->rec.cap.lossy;
		kk.stat = MST_P50;
		if (metric_value(&c->rec, &kk, &v[0][n], &count) || !count)
			continue;
		for (w = 1; w < 3; w++) {
			kk.stat = which[w];
			metric_value(&c->rec, &kk, &v[w][n], &count);
		}
		n++;
	}
	f->with_data = n;
	for (w = 0; w < 3; w++)
		spread_of(v[w], n, out[w]);
}

int aggr_figure_get(const struct cellset *s, const struct metric_key *k, struct figure *f)
{
	struct hist *h;

	memset(f, 0, sizeof(*f));
	f->reps = s->n;
	f->p25 = f->p75 = NAN;
	rep_values(s, k, f);
	if (!f->with_data)
		return -ENOENT;
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	hist_init(h);
	/* the pooled figures are the ones the verdicts read: the same cells, unclamped */
	if (!cellset_pooled_verdict(s, k, h) && h->count) {
		f->pooled_ok = true;
		hist_get_stats(h, &f->pooled);
		f->pooled.p50 = hist_percentile_mid(h, 0.50);
		f->pooled.p90 = hist_percentile_mid(h, 0.90);
		f->pooled.p99 = hist_percentile_mid(h, 0.99);
		f->pooled.p999 = hist_percentile_mid(h, 0.999);
		f->p25 = (double)hist_percentile_mid(h, 0.25);
		f->p75 = (double)hist_percentile_mid(h, 0.75);
	}
	free(h);
	return 0;
}

const char *aggr_fmt_spread(const struct spread *s, char *buf, size_t len)
{
	char a[32], b[32], c[32];

	if (isnan(s->med))
		snprintf(buf, len, "-");
	else if (s->min == s->max)
		snprintf(buf, len, "%s", fmt_us(s->med, a, sizeof(a)));
	else
		snprintf(buf, len, "%s [%s-%s]", fmt_us(s->med, a, sizeof(a)),
			 fmt_us(s->min, b, sizeof(b)), fmt_us(s->max, c, sizeof(c)));
	return buf;
}

const char *aggr_fmt_pooled(const struct figure *f, enum mstat st, char *buf, size_t len)
{
	const struct spread *sp = st == MST_P50 ? &f->p50 : &f->p99;
	char a[32], b[32], c[32];
	double v;

	if (!f->pooled_ok)
		return aggr_fmt_spread(sp, buf, len);
	v = (double)(st == MST_P50 ? f->pooled.p50 : f->pooled.p99);
	if (isnan(sp->min) || sp->min == sp->max)
		snprintf(buf, len, "%s", fmt_us(v, a, sizeof(a)));
	else
		snprintf(buf, len, "%s [%s-%s]", fmt_us(v, a, sizeof(a)),
			 fmt_us(sp->min, b, sizeof(b)), fmt_us(sp->max, c, sizeof(c)));
	return buf;
}

const char *aggr_fmt_pct(double frac, char *buf, size_t len)
{
	double p = frac * 100;

	snprintf(buf, len, p < 100 ? "%.3g" : "%.0f", p);
	return buf;
}

const char *aggr_fmt_flags(const struct figure *f, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (f->lossy_reps)
		off += snprintf(buf, len, "LOSSY %u/%zu", f->lossy_reps, f->reps);
	if (f->incomplete_reps && off < len)
		snprintf(buf + off, len - off, "%s%u incomplete", off ? ", " : "",
			 f->incomplete_reps);
	return buf;
}

void aggr_sirq_totals(const struct cellset *s, const char *vector, uint64_t *runs,
		 uint64_t *ksoftirqd, uint64_t *long_runs)
{
	const struct sirq_data *g;
	size_t i;

	*runs = *ksoftirqd = *long_runs = 0;
	for (i = 0; i < s->n; i++) {
		if (!s->cell[i]->ok)
			continue;
		g = record_sirq(&s->cell[i]->rec, vector, -1);
		if (!g)
			continue;
		*runs += g->count;
		*ksoftirqd += g->ksoftirqd_count;
		*long_runs += g->long_runs;
	}
}

int aggr_cellset_pooled_all(const struct cellset *s, enum msrc src, int sub, struct hist *h)
{
	size_t i, g;

	for (i = 0; i < s->n; i++) {
		const struct record *r = &s->cell[i]->rec;

		if (!s->cell[i]->ok)
			continue;
		if (!r->has_hist)
			return -ENODATA;
		for (g = 0; src == MS_SOFTIRQ && g < r->nsirq; g++)
			if (r->sirq[g].cpu == -1)
				buckets_to_hist(&r->sirq[g].h[sub], NULL, h);
		for (g = 0; src == MS_WQ && g < r->nwq; g++)
			buckets_to_hist(&r->wq[g].h[sub], NULL, h);
	}
	return h->count ? 0 : -ENOENT;
}

struct ranked {
	struct metric_key k;
	uint64_t count;
};

static int by_count(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->count < y->count) - (x->count > y->count);
}

size_t aggr_top_groups(const struct cellset *s, enum msrc src, int sub, bool per_pool,
		  struct metric_key *out, size_t max)
{
	struct keylist kl = { 0 };
	struct ranked *r;
	size_t i, j, n = 0;
	uint64_t count;
	double v;

	if (keylist_collect(s, per_pool, &kl))
		goto out;
	r = calloc(kl.n ? kl.n : 1, sizeof(*r));
	if (!r)
		goto out;
	for (i = 0; i < kl.n; i++) {
		if (kl.k[i].src != src || kl.k[i].sub != sub || kl.k[i].stat != MST_P50)
			continue;
		r[n].k = kl.k[i];
		for (j = 0; j < s->n; j++)
			if (s->cell[j]->ok && !metric_value(&s->cell[j]->rec, &kl.k[i], &v, &count))
				r[n].count += count;
		n += r[n].count > 0;
	}
	qsort(r, n, sizeof(*r), by_count);
	for (i = 0; i < n && i < max; i++)
		out[i] = r[i].k;
	free(r);
out:
	keylist_free(&kl);
	return n < max ? n : max;
}
