// SPDX-License-Identifier: GPL-2.0
/*
 * hswap.c - the label-swap test of a percentile ratio on paired blocks (hswap.h).
 *
 * A swap moves whole blocks between the sides, so each side's percentile is that of a
 * weighted merge of the blocks' cumulative histograms (cumhist.h). Under a shifted
 * null the new blocks count at their values divided by exp(c): the sides then mix two
 * scales, and the percentile is searched over the candidate values of both, each
 * knowing the last bucket of either scale at or below it.
 */
#include "hswap.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cumhist.h"
#include "stats.h"

/* The three nulls: the ratio at the upper margin, at 1, at the lower margin. */
enum { SH_UP, SH_ONE, SH_DOWN, SH_NR };

/* The candidate percentile values under one shift, on the base scale, ascending. */
struct scale {
	double *y;
	int32_t *ib, *in;	/* last base / new bucket (relative) at or below y; -1: none */
	uint32_t n;
};

static int scale_build(const double *val, uint32_t lo, uint32_t w, double c,
		       struct scale *s)
{
	double f = exp(-c);
	uint32_t i = 0, j = 0;

	s->n = 0;
	s->y = calloc(2 * (size_t)w + 1, sizeof(*s->y));
	s->ib = calloc(2 * (size_t)w + 1, sizeof(*s->ib));
	s->in = calloc(2 * (size_t)w + 1, sizeof(*s->in));
	if (!s->y || !s->ib || !s->in)
		return -ENOMEM;
	while (i < w || j < w) {
		double a = i < w ? val[lo + i] : INFINITY, b = j < w ? val[lo + j] * f : INFINITY;
		double y = fmin(a, b);

		while (i < w && val[lo + i] <= y)
			i++;
		while (j < w && val[lo + j] * f <= y)
			j++;
		s->y[s->n] = y;
		s->ib[s->n] = (int32_t)i - 1;
		s->in[s->n++] = (int32_t)j - 1;
	}
	return 0;
}

static void scale_free(struct scale *s)
{
	free(s->y);
	free(s->ib);
	free(s->in);
}

/*
 * side_below - the samples at or below candidate k of one side: block i gives its base
 * phase to side 0 and its new phase to side 1, unless swapped (sw[i])
 */
static uint64_t side_below(const struct cumhist *cb, const struct cumhist *cn,
			   const uint8_t *sw, int side, const struct scale *s, uint32_t k)
{
	const uint64_t *rb = s->ib[k] >= 0 ? cb->c + (size_t)s->ib[k] * cb->n : NULL;
	const uint64_t *rn = s->in[k] >= 0 ? cn->c + (size_t)s->in[k] * cn->n : NULL;
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < cb->n; i++) {
		bool from_new = (sw[i] != 0) != (side != 0);

		if (from_new)
			sum += rn ? rn[i] : 0;
		else
			sum += rb ? rb[i] : 0;
	}
	return sum;
}

/* side_quantile - the nearest-rank q-percentile of one side of a labelling; NaN: empty */
static double side_quantile(const struct cumhist *cb, const struct cumhist *cn,
			    const uint8_t *sw, int side, const struct scale *s, double q)
{
	uint64_t total = 0, rank;
	uint32_t i, a = 0, b = s->n - 1;

	for (i = 0; i < cb->n; i++)
		total += ((sw[i] != 0) != (side != 0)) ? cn->total[i] : cb->total[i];
	if (!total || !s->n)
		return NAN;
	rank = (uint64_t)ceil(q * (double)total);
	if (rank < 1)
		rank = 1;
	while (a < b) {
		uint32_t mid = a + (b - a) / 2;

		if (side_below(cb, cn, sw, side, s, mid) >= rank)
			b = mid;
		else
			a = mid + 1;
	}
	return s->y[a];
}

/* stat - log(percentile(side 1) / percentile(side 0)) of a labelling */
static double stat(const struct cumhist *cb, const struct cumhist *cn, const uint8_t *sw,
		   const struct scale *s, double q, double floor_v)
{
	double a = side_quantile(cb, cn, sw, 0, s, q), b = side_quantile(cb, cn, sw, 1, s, q);

	return log(fmax(isnan(b) ? floor_v : b, floor_v)) -
	       log(fmax(isnan(a) ? floor_v : a, floor_v));
}

/* tail_blocks - the blocks of a side with samples at or above its percentile */
static uint32_t tail_blocks(struct cumhist *ch, double q, uint32_t *w, uint32_t *on)
{
	uint32_t i, k, n = 0;

	for (i = 0; i < ch->n; i++) {
		w[i] = 1;
		on[i] = i;
	}
	k = cumhist_quantile(ch, w, on, ch->n, q);
	if (k == UINT32_MAX)
		return 0;
	k -= ch->lo;
	for (i = 0; i < ch->n; i++)
		n += ch->total[i] > (k ? cumhist_unit_below(ch, i, k - 1) : 0);
	return n;
}

/*
 * share - the p-value of k swaps of total at least as far out as the observed statistic
 * (below: at most). Random swaps count the identity as one more, (k + 1) / (total + 1);
 * when none of them reached it, that is only a bound, and the tail beyond it is read
 * from a normal fitted to the swaps' statistics (as the bootstrap's tails are,
 * verdict.c), so that the small levels of a large family can be reached: without it no
 * tail of more than 12 blocks could be claimed in a family of over 50 metrics
 */
static double share(unsigned long k, unsigned long total, bool exact, double obs,
		    double mean, double sd, bool below)
{
	double z, p;

	if (exact)
		return (double)k / total;
	if (k || !(sd > 0))
		return (k + 1.0) / (total + 1.0);
	z = (obs - mean) / sd;
	p = 0.5 * erfc((below ? -z : z) / M_SQRT2);
	return fmin(fmax(p, 1e-300), 1.0 / (total + 1.0));
}

int hswap_test(const struct hb_domain *dom, const struct hb_side *base,
	       const struct hb_side *new, double q, double m, unsigned int iters,
	       uint64_t seed, struct hswap *out)
{
	static const double sign[SH_NR] = { [SH_UP] = 1, [SH_ONE] = 0, [SH_DOWN] = -1 };
	double floor_v = dom->val[0] > 0 ? dom->val[0] : 1, obs[SH_NR];
	struct cumhist cb = { 0 }, cn = { 0 };
	struct scale sc[SH_NR] = { 0 };
	double pu[SH_NR], pl[SH_NR];
	uint32_t lo = UINT32_MAX, hi = 0, n = base->n, *w = NULL, i;
	unsigned long ge[SH_NR] = { 0 }, le[SH_NR] = { 0 }, total, r;
	double sum[SH_NR] = { 0 }, sum2[SH_NR] = { 0 };
	uint64_t rng = seed ^ 0x73776170ULL;
	bool exact = n <= HSWAP_EXACT;
	uint8_t *sw = NULL;
	int k, ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (base->n != new->n || !n)
		return -EINVAL;
	cumhist_range(base->rep, n, &lo, &hi);
	cumhist_range(new->rep, n, &lo, &hi);
	if (lo >= hi)
		return -EINVAL;
	sw = calloc(n, 1);
	w = calloc(2 * (size_t)n, sizeof(*w));
	if (!sw || !w || cumhist_build(&cb, base->rep, n, lo, hi) ||
	    cumhist_build(&cn, new->rep, n, lo, hi) || cumhist_dense(&cb) || cumhist_dense(&cn))
		goto out;
	for (k = 0; k < SH_NR; k++)
		if (scale_build(dom->val, lo, hi - lo, sign[k] * m, &sc[k]))
			goto out;
	for (k = 0; k < SH_NR; k++)
		obs[k] = stat(&cb, &cn, sw, &sc[k], q, floor_v);
	total = exact ? 1UL << n : iters;
	for (r = 0; r < total; r++) {
		for (i = 0; i < n; i++)
			sw[i] = exact ? (r >> i) & 1 : stats_splitmix64(&rng) & 1;
		for (k = 0; k < SH_NR; k++) {
			double t = stat(&cb, &cn, sw, &sc[k], q, floor_v);

			/* ties count against the claim: a p-value never below its true one */
			ge[k] += t >= obs[k] - 1e-12;
			le[k] += t <= obs[k] + 1e-12;
			sum[k] += t;
			sum2[k] += t * t;
		}
	}
	out->swaps = (uint32_t)total;
	for (k = 0; k < SH_NR; k++) {
		double mean = sum[k] / total, var = sum2[k] / total - mean * mean;
		double sd = var > 0 ? sqrt(var) : 0;

		/* exact: the identity is among the swaps counted; random: added as one more */
		pu[k] = share(ge[k], total, exact, obs[k], mean, sd, false);
		pl[k] = share(le[k], total, exact, obs[k], mean, sd, true);
	}
	out->p[CLAIM_WORSE] = pu[SH_UP];
	out->p[CLAIM_BETTER] = pl[SH_DOWN];
	out->p[CLAIM_SAME] = fmax(pl[SH_UP], pu[SH_DOWN]);
	out->p[CLAIM_HIGHER] = pu[SH_ONE];
	out->p[CLAIM_LOWER] = pl[SH_ONE];
	out->tail_blocks[0] = tail_blocks(&cb, q, w, w + n);
	out->tail_blocks[1] = tail_blocks(&cn, q, w, w + n);
	ret = 0;
out:
	for (k = 0; k < SH_NR; k++)
		scale_free(&sc[k]);
	cumhist_free(&cb);
	cumhist_free(&cn);
	free(sw);
	free(w);
	return ret;
}
