// SPDX-License-Identifier: GPL-2.0
/*
 * tdist.c - Student's t distribution: the small-sample expansion of the bootstrap
 * (verdict.c) and the t-tests of runs (judge.c) read it.
 *
 * The t CDF goes through the regularised incomplete beta function, evaluated with
 * Lentz's continued fraction; quantiles are found by bisection (the CDF is monotonic)
 * in a bracket grown from [-1, 1] until it holds the answer.
 */
#include <errno.h>
#include <math.h>

#include "stats.h"

/* betacf - continued fraction of the incomplete beta function (modified Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = fabs(d) < tiny ? tiny : d;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 500; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < eps)
			break;
	}
	return h;
}

/* ibeta - regularised incomplete beta I_x(a, b) */
static double ibeta(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double t_cdf(double t, double df)
{
	double tail = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double t_quantile(double p, double df)
{
	double lo, hi, mid;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* a bracket that holds the answer, then halvings to double precision */
	for (hi = 1; t_cdf(hi, df) < p; hi *= 4)
		;
	for (lo = -1; t_cdf(lo, df) > p; lo *= 4)
		;
	for (i = 0; i < 100 && hi - lo > 1e-12 * fmax(1, fabs(hi)); i++) {
		mid = (lo + hi) / 2;
		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}
