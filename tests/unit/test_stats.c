// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - medians, quantiles and Student's t against values worked out by hand
 * or taken from tables.
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
	assert_near(stats_median(odd, 3), 3, 0);
	assert_near(stats_median(even, 4), 2.5, 0);
	assert_true(isnan(stats_median(odd, 0)));
	assert_near(odd[0], 5, 0);	/* input untouched */
}

static void test_quantile(void **state)
{
	const double s[] = { 10, 20, 30, 40, 50 };

	(void)state;
	assert_near(stats_quantile_sorted(s, 5, 0), 10, 0);
	assert_near(stats_quantile_sorted(s, 5, 0.5), 30, 0);
	assert_near(stats_quantile_sorted(s, 5, 0.9), 46, 1e-9);	/* R type 7 */
	assert_near(stats_quantile_sorted(s, 5, 1), 50, 0);
}

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median),
		cmocka_unit_test(test_quantile),
		cmocka_unit_test(test_t_quantile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
