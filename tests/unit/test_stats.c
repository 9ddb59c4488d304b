// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - medians, bootstrap intervals, Mann-Whitney U and Student's t against
 * values worked out by hand or taken from tables.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static void test_median(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 };

	(void)state;
	assert_near(median(odd, 3), 3, 0);
	assert_near(median(even, 4), 2.5, 0);
	assert_true(isnan(median(odd, 0)));
	assert_near(odd[0], 5, 0);	/* input untouched */
}

static void test_quantile(void **state)
{
	const double s[] = { 10, 20, 30, 40, 50 };

	(void)state;
	assert_near(quantile_sorted(s, 5, 0), 10, 0);
	assert_near(quantile_sorted(s, 5, 0.5), 30, 0);
	assert_near(quantile_sorted(s, 5, 0.9), 46, 1e-9);	/* R type 7 */
	assert_near(quantile_sorted(s, 5, 1), 50, 0);
}

/*
 * With three values per side a resampled median is the smallest value with probability
 * 7/27 (> 2.5%), so the 95% interval is exactly [min(b)/max(a), max(b)/min(a)].
 */
static void test_bootstrap_three(void **state)
{
	const double a[] = { 100, 110, 90 }, b[] = { 200, 190, 210 };
	struct ratio_ci ci;

	(void)state;
	assert_int_equal(bootstrap_ratio_ci(a, 3, b, 3, 0.95, 10000, 42, &ci), 0);
	assert_near(ci.ratio, 2.0, 1e-12);
	assert_near(ci.lo, 190.0 / 110.0, 1e-12);
	assert_near(ci.hi, 210.0 / 90.0, 1e-12);
}

static void test_bootstrap_deterministic(void **state)
{
	const double a[] = { 100, 104, 97, 101, 99, 103, 98 };
	const double b[] = { 120, 118, 125, 119, 122, 121, 117 };
	struct ratio_ci x, y, z;

	(void)state;
	assert_int_equal(bootstrap_ratio_ci(a, 7, b, 7, 0.95, 5000, 7, &x), 0);
	assert_int_equal(bootstrap_ratio_ci(a, 7, b, 7, 0.95, 5000, 7, &y), 0);
	assert_near(x.lo, y.lo, 0);
	assert_near(x.hi, y.hi, 0);
	assert_true(x.lo > 1.1 && x.hi < 1.3 && x.lo <= x.ratio && x.ratio <= x.hi);
	assert_int_equal(bootstrap_ratio_ci(a, 7, b, 7, 0.95, 5000, 8, &z), 0);
	assert_true(z.lo > 1.1 && z.hi < 1.3);
}

static void test_bootstrap_invalid(void **state)
{
	const double a[] = { 0, 0, 0 }, b[] = { 1, 2, 3 };
	struct ratio_ci ci;

	(void)state;
	assert_int_not_equal(bootstrap_ratio_ci(a, 3, b, 3, 0.95, 1000, 1, &ci), 0);
	assert_int_not_equal(bootstrap_ratio_ci(b, 0, b, 3, 0.95, 1000, 1, &ci), 0);
}

/* Exact U distribution: 3 vs 3 fully separated, P(U = 0) = 1/C(6,3) = 1/20. */
static void test_mann_whitney_exact(void **state)
{
	const double lo[] = { 1, 2, 3 }, hi[] = { 4, 5, 6 };
	const double lo5[] = { 1, 2, 3, 4, 5 }, hi5[] = { 6, 7, 8, 9, 10 };
	const double mix[] = { 1, 4, 5 }, mix2[] = { 2, 3, 6 };
	double u;

	(void)state;
	assert_near(mann_whitney(lo, 3, hi, 3, &u), 0.1, 1e-12);
	assert_near(u, 0, 0);
	assert_near(mann_whitney(hi, 3, lo, 3, &u), 0.1, 1e-12);
	assert_near(u, 9, 0);
	assert_near(mann_whitney(lo5, 5, hi5, 5, &u), 2.0 / 252, 1e-12);
	/* U = 4 of 9 for {1,4,5} vs {2,3,6}: P(U <= 4) = 10/20, two-sided p = 1 */
	assert_near(mann_whitney(mix, 3, mix2, 3, &u), 1.0, 1e-12);
	assert_near(u, 4, 0);
	/* 4 vs 4 separated: 2 / C(8,4) = 2/70 */
	assert_near(mann_whitney((double[]){ 1, 2, 3, 4 }, 4, (double[]){ 5, 6, 7, 8 }, 4, &u),
		    2.0 / 70, 1e-12);
}

/*
 * With ties the normal approximation, tie-corrected and continuity-corrected: {1,1,2,2}
 * vs {1,2,2,2}, U = 6 of 16, mean 8; ties of sizes 3 and 5 give
 * var = 4 * 4 / 12 * (9 - (24 + 120) / 56) = 60/7, z = (2 - 0.5) / sqrt(60/7) = 0.51235,
 * p = 2 * (1 - Phi(z)) = 0.608408 (without the tie correction it would be 0.665).
 */
static void test_mann_whitney_ties(void **state)
{
	const double a[] = { 1, 1, 2, 2 }, b[] = { 1, 2, 2, 2 };
	double u, p;

	(void)state;
	p = mann_whitney(a, 4, b, 4, &u);
	assert_near(u, 6, 0);		/* 1 win, 10 ties of 16 pairs: 1 + 10/2 */
	assert_near(p, 0.6084078, 1e-6);
	assert_near(mann_whitney(b, 4, a, 4, &u), 0.6084078, 1e-6);	/* symmetric */
	assert_near(u, 10, 0);
}

/* Student's t quantiles from standard tables. */
static void test_t_quantile(void **state)
{
	(void)state;
	assert_near(t_quantile(0.975, 1), 12.7062, 1e-3);
	assert_near(t_quantile(0.975, 4), 2.7764, 1e-4);
	assert_near(t_quantile(0.995, 10), 3.1693, 1e-4);
	assert_near(t_quantile(0.975, 1e6), 1.95996, 1e-4);
	assert_near(t_quantile(0.025, 4), -2.7764, 1e-4);
	assert_near(t_cdf(0, 3), 0.5, 1e-12);
	assert_near(t_quantile(0.9999, 4), 13.0337, 1e-3);
}

/*
 * log values {0, 0.1, 0.2} and {0.5, 0.6, 0.7}: difference 0.5, each variance 0.01,
 * se = sqrt(0.02 / 3), Welch df = 4: interval exp(0.5 +- 2.7764 * 0.08165).
 */
static void test_welch(void **state)
{
	const double a[] = { 1, exp(0.1), exp(0.2) };
	const double b[] = { exp(0.5), exp(0.6), exp(0.7) };
	double half = 2.776445 * sqrt(0.02 / 3);
	struct ratio_ci ci;

	(void)state;
	assert_int_equal(welch_log_ratio_ci(a, 3, b, 3, 0.95, 0, &ci), 0);
	assert_near(ci.ratio, exp(0.5), 1e-12);
	assert_near(ci.lo, exp(0.5 - half), 1e-5);
	assert_near(ci.hi, exp(0.5 + half), 1e-5);
	/* identical values: only the floor on the spread keeps the interval open */
	assert_int_equal(welch_log_ratio_ci(a, 1, b, 3, 0.95, 0, &ci), -EINVAL);
	assert_int_equal(welch_log_ratio_ci((double[]){ 5, 5 }, 2, (double[]){ 5, 5 }, 2, 0.95,
					    0.01, &ci), 0);
	assert_true(ci.lo < 1 && ci.hi > 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_bootstrap_three),
		cmocka_unit_test(test_bootstrap_deterministic),
		cmocka_unit_test(test_bootstrap_invalid),
		cmocka_unit_test(test_mann_whitney_exact),
		cmocka_unit_test(test_mann_whitney_ties),
		cmocka_unit_test(test_t_quantile),
		cmocka_unit_test(test_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
