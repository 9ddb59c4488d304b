/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the few statistics compare and report need, on small samples of
 * per-repetition values (tens at most), and Student's t.
 */
#ifndef DEFERBENCH_STATS_H
#define DEFERBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

#define STATS_MAX_N 256		/* repetitions per side */

/* median - of n values (not modified); NaN when n is 0. Even n: mean of the middle two. */
double stats_median(const double *v, size_t n);
/* stats_quantile_sorted - linear interpolation between order statistics (R type 7) */
double stats_quantile_sorted(const double *s, size_t n, double q);

/* t_quantile - the p-quantile of Student's t with df (> 0, may be fractional) freedom */
double t_quantile(double p, double df);
/* t_cdf - P(T <= t) for Student's t with df degrees of freedom */
double t_cdf(double t, double df);

/* stats_splitmix64 - the generator bootstrap uses; exposed for tests */
uint64_t stats_splitmix64(uint64_t *state);

#endif
