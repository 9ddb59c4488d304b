// SPDX-License-Identifier: GPL-2.0
/*
 * hboot.c - the two-level bootstrap of a percentile (see hboot.h).
 */
#include "hboot.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cumhist.h"
#include "stats.h"

/* Replicates per repetition for the within-repetition variance. */
#define WITHIN_ITERS 200

/* rnd - uniform in [0, n) (n small: modulo bias below 2^-40) */
static inline uint32_t rnd(uint64_t *rng, uint32_t n)
{
	return (uint32_t)(stats_splitmix64(rng) % n);
}

/*
 * An accumulator over the domain that remembers the range it touched, so that clearing
 * and scanning it costs what the data use, not the whole domain.
 */
struct acc {
	uint64_t *c;
	uint32_t lo, hi;	/* touched: [lo, hi), lo > hi when empty */
};

static void acc_clear(struct acc *a)
{
	if (a->lo < a->hi)
		memset(a->c + a->lo, 0, (a->hi - a->lo) * sizeof(*a->c));
	a->lo = UINT32_MAX;
	a->hi = 0;
}

/* acc_add - an interval's counts; its indices are ascending (hboot.h) */
static void acc_add(struct acc *a, const struct hb_ival *iv)
{
	const uint32_t *idx = iv->idx;
	const uint64_t *cnt = iv->cnt;
	uint64_t *c = a->c;
	uint32_t i, n = iv->n;

	if (!n)
		return;
	if (idx[0] < a->lo)
		a->lo = idx[0];
	if (idx[n - 1] + 1 > a->hi)
		a->hi = idx[n - 1] + 1;
	for (i = 0; i < n; i++)
		c[idx[i]] += cnt[i];
}

/* acc_quantile - nearest-rank q-percentile of total samples counted in a */
static double acc_quantile(const double *val, const struct acc *a, uint64_t total, double q)
{
	uint64_t rank, above, seen = 0;
	uint32_t i;

	if (!total || a->lo >= a->hi)
		return NAN;
	rank = (uint64_t)ceil(q * (double)total);
	if (rank < 1)
		rank = 1;
	/* high percentiles are near the top: count down from there */
	above = total - rank;	/* samples strictly above the one we want */
	for (i = a->hi; i-- > a->lo;) {
		seen += a->c[i];
		if (seen > above)
			return val[i];
	}
	return val[a->lo];
}

static int acc_init(struct acc *a, uint32_t n)
{
	a->c = calloc(n ? n : 1, sizeof(*a->c));
	a->lo = UINT32_MAX;
	a->hi = 0;
	return a->c ? 0 : -ENOMEM;
}

/* block_len - circular blocks of about cbrt(n) intervals (n^(1/3): Hall et al. 1995) */
static uint32_t block_len(uint32_t n)
{
	uint32_t l = (uint32_t)lround(cbrt((double)n));

	return l < 1 ? 1 : l;
}

/*
 * A side's intervals as units of a cumulative histogram (cumhist.h): a replicate of the
 * two-level bootstrap sets weights on them - a repetition drawn, then its intervals in
 * circular blocks - and reads the percentile of the weighted merge, instead of adding
 * every bucket of every drawn interval (the draws, and so the replicates, are the same)
 */
struct ivunits {
	struct hb_rep *u;	/* one unit per interval */
	uint32_t *first;	/* repetition r's units start at first[r] */
	uint32_t *w, *on, non;
	struct cumhist ch;
};

static void units_free(struct ivunits *iu)
{
	cumhist_free(&iu->ch);
	free(iu->u);
	free(iu->first);
	free(iu->w);
	memset(iu, 0, sizeof(*iu));
}

/* units_build - the intervals of s over the domain range [lo, hi) (widened to theirs) */
static int units_build(const struct hb_side *s, uint32_t lo, uint32_t hi,
		       struct ivunits *iu)
{
	uint32_t r, i, n = 0;

	memset(iu, 0, sizeof(*iu));
	for (r = 0; r < s->n; r++)
		n += s->rep[r].n;
	iu->u = calloc(n ? n : 1, sizeof(*iu->u));
	iu->first = calloc(s->n + 1, sizeof(*iu->first));
	iu->w = calloc(2 * (size_t)(n ? n : 1), sizeof(*iu->w));
	if (!iu->u || !iu->first || !iu->w)
		goto nomem;
	iu->on = iu->w + (n ? n : 1);
	for (r = 0, n = 0; r < s->n; r++) {
		iu->first[r] = n;
		for (i = 0; i < s->rep[r].n; i++)
			iu->u[n++] = (struct hb_rep){ &s->rep[r].iv[i], 1, 0 };
	}
	iu->first[s->n] = n;
	if (cumhist_build(&iu->ch, iu->u, n, lo, hi))
		goto nomem;
	return 0;
nomem:
	units_free(iu);
	return -ENOMEM;
}

static void units_clear(struct ivunits *iu)
{
	uint32_t i;

	for (i = 0; i < iu->non; i++)
		iu->w[iu->on[i]] = 0;
	iu->non = 0;
}

static inline void units_add(struct ivunits *iu, uint32_t u)
{
	if (!iu->w[u]++)
		iu->on[iu->non++] = u;
}

/* units_resample_rep - repetition r's n intervals in circular blocks (resample_rep) */
static void units_resample_rep(struct ivunits *iu, const struct hb_rep *rep, uint32_t r,
			       uint64_t *rng)
{
	uint32_t n = rep->n, l = block_len(n), first = iu->first[r], got = 0, x, j;

	while (got < n) {
		x = rnd(rng, n);
		for (j = 0; j < l && got < n; j++, got++) {
			units_add(iu, first + x);
			if (++x == n)	/* circular: (start + j) % n */
				x = 0;
		}
	}
}

/* units_quantile - the q-percentile of the weighted merge; NaN when it is empty */
static double units_quantile(const struct hb_domain *dom, struct ivunits *iu,
			     double q)
{
	uint32_t k = cumhist_quantile(&iu->ch, iu->w, iu->on, iu->non, q);

	return k == UINT32_MAX ? NAN : dom->val[k];
}

/* resample_side - one replicate of a side's statistic */
static double resample_side(const struct hb_domain *dom, const struct hb_side *s,
			    const uint32_t *with_data, uint32_t nwith, struct ivunits *iu,
			    double q, uint64_t *rng)
{
	uint32_t k, r;

	units_clear(iu);
	for (k = 0; k < nwith; k++) {
		r = with_data[rnd(rng, nwith)];
		units_resample_rep(iu, &s->rep[r], r, rng);
	}
	return units_quantile(dom, iu, q);
}

uint64_t hb_count(const struct hb_side *s)
{
	uint64_t n = 0;
	uint32_t r, i;

	for (r = 0; r < s->n; r++)
		for (i = 0; i < s->rep[r].n; i++)
			n += s->rep[r].iv[i].total;
	return n;
}

/* rep_stat - the statistic of one repetition's intervals merged */
static double rep_stat(const struct hb_domain *dom, const struct hb_rep *r, struct acc *acc,
		       double q)
{
	uint64_t total = 0;
	uint32_t i;

	acc_clear(acc);
	for (i = 0; i < r->n; i++) {
		acc_add(acc, &r->iv[i]);
		total += r->iv[i].total;
	}
	return acc_quantile(dom->val, acc, total, q);
}

double hb_stat(const struct hb_domain *dom, const struct hb_side *s, double q)
{
	uint64_t total = 0;
	struct acc acc;
	uint32_t r, i;
	double v;

	if (acc_init(&acc, dom->n))
		return NAN;
	for (r = 0; r < s->n; r++)
		for (i = 0; i < s->rep[r].n; i++) {
			acc_add(&acc, &s->rep[r].iv[i]);
			total += s->rep[r].iv[i].total;
		}
	v = acc_quantile(dom->val, &acc, total, q);
	free(acc.c);
	return v;
}

/* reps_with_data - indices of the repetitions that have samples; returns how many */
static uint32_t reps_with_data(const struct hb_side *s, uint32_t *out)
{
	uint32_t r, i, n = 0;

	for (r = 0; r < s->n; r++) {
		uint64_t t = 0;

		for (i = 0; i < s->rep[r].n; i++)
			t += s->rep[r].iv[i].total;
		if (t)
			out[n++] = r;
	}
	return n;
}

static double var_of(const double *x, size_t n)
{
	double m = 0, v = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (i = 0; i < n; i++)
		v += (x[i] - m) * (x[i] - m);
	return v / (double)(n - 1);
}

int hb_variance(const struct hb_domain *dom, const struct hb_side *s, const struct hb_opts *o,
		struct hb_var *v)
{
	uint64_t rng = o->seed ^ 0x77697468696eULL;
	double *lv, *w, within = 0, ivals = 0;
	struct ivunits iu = { 0 };
	uint32_t r, k, i, nr = 0;
	int ret = 0;

	memset(v, 0, sizeof(*v));
	lv = calloc(s->n ? s->n : 1, sizeof(*lv));
	w = calloc(WITHIN_ITERS, sizeof(*w));
	if (!lv || !w || units_build(s, UINT32_MAX, 0, &iu)) {
		ret = -ENOMEM;
		goto out;
	}
	for (r = 0; r < s->n; r++) {
		const struct hb_rep *rep = &s->rep[r];
		double x;

		/* the repetition's own statistic: each of its intervals once */
		units_clear(&iu);
		for (i = 0; i < rep->n; i++)
			units_add(&iu, iu.first[r] + i);
		x = units_quantile(dom, &iu, o->q);
		if (!(x > 0))
			continue;
		lv[nr++] = log(x);
		ivals += rep->n;
		for (k = 0; k < WITHIN_ITERS; k++) {
			units_clear(&iu);
			units_resample_rep(&iu, rep, r, &rng);
			x = units_quantile(dom, &iu, o->q);
			w[k] = x > 0 ? log(x) : 0;
		}
		within += var_of(w, WITHIN_ITERS);
	}
	if (nr) {
		v->reps = nr;
		v->within = within / nr;
		v->ivals = ivals / nr;
		/* the spread of repetition levels beyond what their own noise explains */
		v->between = fmax(0, var_of(lv, nr) - v->within);
	}
out:
	units_free(&iu);
	free(lv);
	free(w);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int hb_ratio(const struct hb_domain *dom, const struct hb_side *base,
	     const struct hb_side *new, const struct hb_opts *o, struct hb_ratio *r)
{
	struct ivunits ub = { 0 }, un = { 0 };
	uint32_t *wb, *wn, nb, nn, lo = UINT32_MAX, hi = 0, i;
	uint64_t rng = o->seed;
	unsigned int k;
	int ret;

	memset(r, 0, sizeof(*r));
	r->base = hb_stat(dom, base, o->q);
	r->new = hb_stat(dom, new, o->q);
	if (!(r->base > 0) || !(r->new > 0) || !o->iters)
		return -EINVAL;
	for (i = 0; i < base->n; i++)
		cumhist_range(&base->rep[i], 1, &lo, &hi);
	for (i = 0; i < new->n; i++)
		cumhist_range(&new->rep[i], 1, &lo, &hi);
	wb = calloc(base->n + new->n + 2, sizeof(*wb));
	r->d = calloc(o->iters, sizeof(*r->d));
	if (!wb || !r->d || units_build(base, lo, hi, &ub) || units_build(new, lo, hi, &un)) {
		ret = -ENOMEM;
		goto out;
	}
	wn = wb + base->n + 1;
	nb = reps_with_data(base, wb);
	nn = reps_with_data(new, wn);
	ret = -EINVAL;
	if (!nb || !nn)
		goto out;
	for (k = 0; k < o->iters; k++) {
		double b = resample_side(dom, base, wb, nb, &ub, o->q, &rng);
		double n = resample_side(dom, new, wn, nn, &un, o->q, &rng);

		/* a replicate of 0 (only zero-latency samples drawn) counts as the smallest value */
		r->d[k] = log(fmax(n, dom->val[0] > 0 ? dom->val[0] : 1)) -
			  log(fmax(b, dom->val[0] > 0 ? dom->val[0] : 1));
	}
	qsort(r->d, o->iters, sizeof(*r->d), cmp_double);
	r->iters = o->iters;
	ret = hb_variance(dom, base, o, &r->vbase);
	ret = ret ?: hb_variance(dom, new, o, &r->vnew);
out:
	units_free(&ub);
	units_free(&un);
	free(wb);
	if (ret) {
		free(r->d);
		r->d = NULL;
	}
	return ret;
}

/*
 * strata_of - the blocks of s grouped by stratum: order[] lists them stratum by stratum,
 * first[k] is where stratum k starts in it (first[nk] = n); returns nk, the strata
 */
static uint32_t strata_of(const struct hb_side *s, uint32_t *order, uint32_t *first)
{
	uint32_t i, k, nk = 0, top = 0;

	for (i = 0; i < s->n; i++)
		top = s->rep[i].stratum > top ? s->rep[i].stratum : top;
	for (k = 0; k <= top; k++) {
		uint32_t at = nk ? first[nk] : 0, m = 0;

		for (i = 0; i < s->n; i++)
			if (s->rep[i].stratum == k)
				order[at + m++] = i;
		if (!m)
			continue;
		first[nk++] = at;
		first[nk] = at + m;
	}
	if (!nk)
		first[0] = 0;
	return nk;
}

int hb_ratio_paired(const struct hb_domain *dom, const struct hb_side *base,
		    const struct hb_side *new, const struct hb_opts *o, struct hb_ratio *r)
{
	double floor_v = dom->val[0] > 0 ? dom->val[0] : 1;
	struct cumhist cb = { 0 }, cn = { 0 };
	uint32_t *w = NULL, *on, *order, *first, lo = UINT32_MAX, hi = 0, n = base->n, nk;
	uint64_t rng = o->seed;
	unsigned int k;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	if (base->n != new->n || !base->n || !o->iters)
		return -EINVAL;
	r->base = hb_stat(dom, base, o->q);
	r->new = hb_stat(dom, new, o->q);
	if (!(r->base > 0) || !(r->new > 0))
		return -EINVAL;
	cumhist_range(base->rep, n, &lo, &hi);
	cumhist_range(new->rep, n, &lo, &hi);
	w = calloc(4 * (size_t)n + 1, sizeof(*w));
	r->d = calloc(o->iters, sizeof(*r->d));
	if (!w || !r->d || cumhist_build(&cb, base->rep, n, lo, hi) ||
	    cumhist_build(&cn, new->rep, n, lo, hi))
		goto out;
	on = w + n;
	order = on + n;
	first = order + n;
	nk = strata_of(base, order, first);
	for (k = 0; k < o->iters; k++) {
		uint32_t non = 0, s, j, ib, in;
		double qb, qn;

		for (j = 0; j < n; j++)
			w[j] = 0;
		/* each stratum's blocks drawn from that stratum alone (hboot.h) */
		for (s = 0; s < nk; s++) {
			uint32_t m = first[s + 1] - first[s];

			for (j = 0; j < m; j++) {
				uint32_t b = order[first[s] + rnd(&rng, m)];

				if (!w[b]++)
					on[non++] = b;
			}
		}
		ib = cumhist_quantile(&cb, w, on, non, o->q);
		in = cumhist_quantile(&cn, w, on, non, o->q);
		qb = ib == UINT32_MAX ? floor_v : dom->val[ib];
		qn = in == UINT32_MAX ? floor_v : dom->val[in];
		/* a side that drew only empty blocks counts as its smallest value */
		r->d[k] = log(fmax(qn, floor_v)) - log(fmax(qb, floor_v));
	}
	qsort(r->d, o->iters, sizeof(*r->d), cmp_double);
	r->iters = o->iters;
	ret = 0;
out:
	cumhist_free(&cb);
	cumhist_free(&cn);
	free(w);
	if (ret) {
		free(r->d);
		r->d = NULL;
	}
	return ret;
}

void hb_ratio_free(struct hb_ratio *r)
{
	free(r->d);
	r->d = NULL;
}

/* shift_stat - the largest |mean before - mean after| over split points, and where */
static double shift_stat(const double *x, uint32_t n, uint32_t *at)
{
	double total = 0, left = 0, best = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		total += x[i];
	/* at least two intervals on each side of a split */
	for (i = 2; i + 2 <= n; i++) {
		double d;

		left = 0;
		for (uint32_t j = 0; j < i; j++)
			left += x[j];
		d = fabs(left / i - (total - left) / (n - i));
		if (d > best) {
			best = d;
			*at = i;
		}
	}
	return best;
}

void hb_side_ends(const struct hb_side *s, struct hb_side *early, struct hb_side *late)
{
	uint32_t i;

	early->n = late->n = s->n;
	for (i = 0; i < s->n; i++) {
		const struct hb_rep *r = &s->rep[i];
		uint32_t m = r->n < 2 ? 0 : r->n < 6 ? 1 : r->n / 3;

		early->rep[i] = (struct hb_rep){ r->iv, m, r->stratum };
		late->rep[i] = (struct hb_rep){ r->iv + (r->n - m), m, r->stratum };
	}
}

double hb_level_shift(const struct hb_domain *dom, const struct hb_rep *r, double q,
		      unsigned int iters, uint64_t seed, uint32_t *at, double *shift)
{
	double *x, *y, obs, p = 1;
	uint32_t i, n = 0, ge = 0, dummy;
	struct acc acc = { 0 };
	uint64_t rng = seed;
	unsigned int k;

	*at = 0;
	*shift = 0;
	if (r->n < 4)
		return 1;
	acc_init(&acc, dom->n);
	x = calloc(2 * (size_t)r->n, sizeof(*x));
	if (!acc.c || !x)
		goto out;
	y = x + r->n;
	for (i = 0; i < r->n; i++) {
		struct hb_rep one = { &r->iv[i], 1 };
		double v = r->iv[i].total ? rep_stat(dom, &one, &acc, q) : NAN;

		if (v > 0)
			x[n++] = log(v);
	}
	if (n < 4)
		goto out;
	obs = shift_stat(x, n, at);
	*shift = obs;
	for (k = 0; k < iters; k++) {
		memcpy(y, x, n * sizeof(*y));
		for (i = n - 1; i > 0; i--) {	/* Fisher-Yates */
			uint32_t j = rnd(&rng, i + 1);
			double t = y[i];

			y[i] = y[j];
			y[j] = t;
		}
		ge += shift_stat(y, n, &dummy) >= obs;
	}
	p = (ge + 1.0) / (iters + 1.0);
out:
	free(acc.c);
	free(x);
	return p;
}
