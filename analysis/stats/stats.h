/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the few statistics compare and report need, on small samples of
 * per-repetition values (tens at most).
 */
#ifndef DEFERBENCH_STATS_H
#define DEFERBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_MAX_N 256		/* repetitions per side */

/* median - of n values (not modified); NaN when n is 0. Even n: mean of the middle two. */
double median(const double *v, size_t n);
/* quantile_sorted - linear interpolation between order statistics (R type 7) */
double quantile_sorted(const double *s, size_t n, double q);

struct ratio_ci {
	double ratio;		/* median(b) / median(a) */
	double lo, hi;		/* percentile-bootstrap interval */
};

/*
 * bootstrap_ratio_ci - confidence interval of median(b)/median(a): resample a and b
 * (with replacement, independently) iters times with a splitmix64 generator seeded with
 * seed, and take the (1-conf)/2 and (1+conf)/2 quantiles of the resampled ratios
 * (nearest rank, so that the bounds are ratios that occurred). Deterministic for a given
 * seed and value order. -EINVAL when a side is empty or too large or a median is <= 0.
 */
int bootstrap_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		       double conf, unsigned int iters, uint64_t seed, struct ratio_ci *out);

/*
 * mann_whitney - two-sided p-value of the Mann-Whitney U test of a against b; *u is
 * U of a (the number of pairs with a > b, ties counting one half). Exact (by counting
 * rank arrangements) when there are no ties and na, nb <= 50; otherwise the normal
 * approximation with tie correction and continuity correction. NaN for an empty side.
 */
double mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

/*
 * welch_log_ratio_ci - interval of the ratio of geometric means, exp(mean(log b) -
 * mean(log a)), from Welch's t-interval on the logarithms. Each side's standard
 * deviation is at least min_sd (log units), so that identical values (percentiles read
 * from the same histogram bucket) do not claim infinite precision. Needs at least two
 * values per side, all > 0; -EINVAL otherwise.
 */
int welch_log_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
		       double conf, double min_sd, struct ratio_ci *out);

/* t_quantile - the p-quantile of Student's t with df (> 0, may be fractional) freedom */
double t_quantile(double p, double df);
/* t_cdf - P(T <= t) for Student's t with df degrees of freedom */
double t_cdf(double t, double df);

/* splitmix64 - the generator bootstrap uses; exposed for tests */
uint64_t splitmix64(uint64_t *state);

#endif
