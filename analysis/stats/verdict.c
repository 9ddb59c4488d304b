// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - three outcomes against a margin, Holm over a family (see verdict.h).
 */
#include "verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* count_le - replicates <= x in sorted d */
static unsigned int count_le(const double *d, unsigned int n, double x)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (d[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* count_ge - replicates >= x in sorted d */
static unsigned int count_ge(const double *d, unsigned int n, double x)
{
	unsigned int lo = 0, hi = n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (d[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n - lo;
}

/* normal_tail - P(X > x) for X normal */
static double normal_tail(double x, double mean, double sd)
{
	return sd > 0 ? 0.5 * erfc((x - mean) / (sd * M_SQRT2)) : (x < mean ? 1 : 0);
}

/*
 * tail_p - the p-value of k replicates of n on the wrong side: (k + 1) / (n + 1); when
 * none are (k = 0) the empirical value is only a bound, and the tail is read from a
 * normal fitted to the replicates instead (below = the wrong side is below x)
 */
static double tail_p(unsigned int k, unsigned int n, double x, bool below, double mean,
		     double sd)
{
	double p;

	if (k)
		return (k + 1.0) / (n + 1.0);
	p = below ? 1 - normal_tail(x, mean, sd) : normal_tail(x, mean, sd);
	return fmin(fmax(p, 1e-300), 1.0 / (n + 1.0));
}

static bool expands(const struct expansion *x)
{
	return x && x->n >= 2 && x->df > 0;
}

double verdict_expand_p(double p, const struct expansion *x)
{
	if (!expands(x) || !(p > 0) || p >= 1)
		return p;
	/* the lower tail at minus the score: no cancellation for tiny p */
	return t_cdf(-verdict_z_upper(p) * sqrt((x->n - 1) / x->n), x->df);
}

double verdict_expand_level(double a, const struct expansion *x)
{
	if (!expands(x) || !(a > 0) || a >= 0.5)
		return a;
	return 0.5 * erfc(sqrt(x->n / (x->n - 1)) * t_quantile(1 - a, x->df) / M_SQRT2);
}

void verdict_claims(const double *d, unsigned int n, double m, const struct expansion *x,
		    struct claims *c)
{
	double mean = 0, sd = 0;
	unsigned int i;
	int k;

	for (i = 0; i < n; i++)
		mean += d[i];
	mean /= n ? n : 1;
	for (i = 0; i < n; i++)
		sd += (d[i] - mean) * (d[i] - mean);
	sd = n > 1 ? sqrt(sd / (n - 1)) : 0;
	c->p[CLAIM_WORSE] = tail_p(count_le(d, n, m), n, m, true, mean, sd);
	c->p[CLAIM_BETTER] = tail_p(count_ge(d, n, -m), n, -m, false, mean, sd);
	c->p[CLAIM_SAME] = fmax(tail_p(count_ge(d, n, m), n, m, false, mean, sd),
				tail_p(count_le(d, n, -m), n, -m, true, mean, sd));
	c->p[CLAIM_HIGHER] = tail_p(count_le(d, n, 0), n, 0, true, mean, sd);
	c->p[CLAIM_LOWER] = tail_p(count_ge(d, n, 0), n, 0, false, mean, sd);
	for (k = 0; k < CLAIM_NR; k++)
		c->p[k] = verdict_expand_p(c->p[k], x);
	c->best = CLAIM_WORSE;
	for (k = 1; k <= CLAIM_SAME; k++)
		if (c->p[k] < c->p[c->best])
			c->best = (enum claim)k;
}

void verdict_interval(const double *d, unsigned int n, double a, const struct expansion *x,
		      double *lo, double *hi)
{
	double e = verdict_expand_level(a, x);

	*lo = exp(stats_quantile_sorted(d, n, e));
	*hi = exp(stats_quantile_sorted(d, n, 1 - e));
}

int verdict_holm(const double *p, size_t n, double alpha, bool *reject, double *level)
{
	size_t *order, i, j, k;
	int rejected = 0;
	bool go = true;

	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		order[i] = i;
		reject[i] = false;
	}
	/* insertion sort by p: families are small (tens) */
	for (i = 1; i < n; i++) {
		k = order[i];
		for (j = i; j > 0 && p[order[j - 1]] > p[k]; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	for (i = 0; i < n; i++) {
		double l = alpha / (double)(n - i);

		if (level)
			level[order[i]] = go ? l : alpha / (double)(n - i);
		if (go && p[order[i]] <= l) {
			reject[order[i]] = true;
			rejected++;
		} else {
			go = false;	/* step-down: everything after the first failure stands */
		}
	}
	free(order);
	return rejected;
}

int verdict_holm_with(const double *p, size_t n, double alpha, size_t i, double pi,
		      double *level)
{
	size_t *order, r, j, k;
	int ret = 0;

	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	/* i first among equals: a tie is no reason to hold it to a smaller level */
	order[0] = i;
	for (j = 0, k = 1; j < n; j++)
		if (j != i)
			order[k++] = j;
	for (j = 2; j < n; j++) {
		size_t x = order[j];

		for (k = j; k > 1 && p[order[k - 1]] > p[x]; k--)
			order[k] = order[k - 1];
		order[k] = x;
	}
	/* i's place: after every other p below pi */
	for (r = 0; r + 1 < n && p[order[r + 1]] < pi; r++)
		order[r] = order[r + 1];
	order[r] = i;
	for (j = 0; j < n; j++) {
		double l = alpha / (double)(n - j), x = order[j] == i ? pi : p[order[j]];

		if (order[j] == i) {
			if (level)
				*level = l;
			ret = x <= l;
			break;
		}
		if (x > l) {
			if (level)
				*level = alpha / (double)(n - r);
			break;
		}
	}
	free(order);
	return ret;
}

/* Acklam's rational approximation of the normal quantile (relative error < 1.2e-9) */
double verdict_z_upper(double a)
{
	static const double c1[] = { -3.969683028665376e+01, 2.209460984245205e+02,
				     -2.759285104469687e+02, 1.383577518672690e+02,
				     -3.066479806614716e+01, 2.506628277459239e+00 };
	static const double c2[] = { -5.447609879822406e+01, 1.615858368580409e+02,
				     -1.556989798598866e+02, 6.680131188771972e+01,
				     -1.328068155288572e+01 };
	static const double c3[] = { -7.784894002430293e-03, -3.223964580411365e-01,
				     -2.400758277161838e+00, -2.549732539343734e+00,
				     4.374664141464968e+00, 2.938163982698783e+00 };
	static const double c4[] = { 7.784695709041462e-03, 3.224671290700398e-01,
				     2.445134137142996e+00, 3.754408661907416e+00 };
	double p = 1 - a, q, r;

	if (!(a < 1))
		return -INFINITY;
	if (!(a > 0))
		return INFINITY;
	if (p < 0.02425) {
		q = sqrt(-2 * log(p));
		return (((((c3[0] * q + c3[1]) * q + c3[2]) * q + c3[3]) * q + c3[4]) * q + c3[5]) /
		       ((((c4[0] * q + c4[1]) * q + c4[2]) * q + c4[3]) * q + 1);
	}
	/* the upper tail from a itself: 1 - (1 - a) loses a tiny a to rounding */
	if (a < 0.02425) {
		q = sqrt(-2 * log(a));
		return -(((((c3[0] * q + c3[1]) * q + c3[2]) * q + c3[3]) * q + c3[4]) * q + c3[5]) /
			((((c4[0] * q + c4[1]) * q + c4[2]) * q + c4[3]) * q + 1);
	}
	q = p - 0.5;
	r = q * q;
	return (((((c1[0] * r + c1[1]) * r + c1[2]) * r + c1[3]) * r + c1[4]) * r + c1[5]) * q /
	       (((((c2[0] * r + c2[1]) * r + c2[2]) * r + c2[3]) * r + c2[4]) * r + 1);
}

long verdict_reps_needed(const struct hb_var *b, const struct hb_var *n, double vboot,
			 double d0, double m, double a, bool base_fixed)
{
	double vb = b->between + b->within, vn = n->between + n->within;
	double room = fabs(fabs(d0) - m), z = verdict_z_upper(a), target, model;
	long k;

	if (!b->reps || !n->reps)
		return -1;
	/* the components give the shape; the bootstrap's own spread gives the size */
	model = vb / b->reps + vn / n->reps;
	if (vboot > 0 && model > 0) {
		vb *= vboot / model;
		vn *= vboot / model;
	}
	if (room < 1e-3)
		return -1;
	target = (room / z) * (room / z);	/* the variance the claim needs */
	for (k = 0; k <= 10000; k++) {
		double nb = b->reps + (base_fixed ? 0 : k), nn = n->reps + k;

		if (vb / nb + vn / nn <= target)
			return k;
		if (base_fixed && vb / nb > target)
			return -1;	/* the baseline's own uncertainty is already too large */
	}
	return -1;
}
