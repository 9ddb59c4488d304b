// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpd.c - E-divisive change points on synthetic series whose truth is known: a
 * step found where it is, stationary noise flagged at the nominal rate, one outlier
 * never taken for a change; and kernel release order.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cpd.h"
#include "kver.h"
#include "stats.h"

/* gauss - a standard normal value (Box-Muller on stats_splitmix64) */
static double gauss(uint64_t *rng)
{
	double u = ((double)(stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(stats_splitmix64(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static void noise(double *x, size_t n, double mean, double sd, uint64_t *rng)
{
	size_t i;

	for (i = 0; i < n; i++)
		x[i] = mean + sd * gauss(rng);
}

static struct cpd_opts opts(void)
{
	struct cpd_opts o;

	cpd_opts_default(&o);
	return o;
}

static void test_step_found(void **state)
{
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	uint64_t rng = 1;
	double x[30];
	size_t n;

	(void)state;
	noise(x, 30, 10, 1, &rng);
	noise(x + 17, 13, 14, 1, &rng);		/* +4 sd from index 17 */
	assert_int_equal(cpd_edivisive(x, 30, NULL, 0, &o, cp, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 17);
	assert_true(cp[0].p <= 0.002);		/* nothing permuted beats it */
}

/* ten runs, the step after the sixth: the size of the history test */
static void test_short_step(void **state)
{
	const double x[] = { 100, 104, 97, 101, 99, 103, 140, 137, 143, 139 };
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	size_t n;

	(void)state;
	assert_int_equal(cpd_edivisive(x, 10, NULL, 0, &o, cp, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(cp[0].index, 6);
	assert_true(cp[0].p < 0.05);
}

static void test_two_steps(void **state)
{
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	uint64_t rng = 7;
	double x[45];
	size_t n;

	(void)state;
	noise(x, 15, 10, 1, &rng);
	noise(x + 15, 15, 16, 1, &rng);
	noise(x + 30, 15, 11, 1, &rng);
	assert_int_equal(cpd_edivisive(x, 45, NULL, 0, &o, cp, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(cp[0].index, 15);
	assert_int_equal(cp[1].index, 30);
}

/*
 * Stationary noise: the first permutation test controls the chance of any change point
 * at sig, so about 5% of 200 series may have one (binomial: 10 expected, sd 3.1).
 */
static void test_false_alarm_rate(void **state)
{
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	uint64_t rng = 99;
	size_t i, n, flagged = 0;
	double x[20];

	(void)state;
	o.perms = 199;
	for (i = 0; i < 200; i++) {
		noise(x, 20, 50, 5, &rng);
		o.seed = i + 1;
		assert_int_equal(cpd_edivisive(x, 20, NULL, 0, &o, cp, &n), 0);
		flagged += n > 0;
	}
	print_message("stationary noise: %zu of 200 series flagged at sig 0.05\n", flagged);
	assert_true(flagged >= 2 && flagged <= 20);
}

/* one wild value, wherever it is, is not a change */
static void test_one_outlier(void **state)
{
	const size_t where[] = { 0, 1, 7, 13, 18, 19 };
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	size_t i, n, flagged = 0;
	uint64_t rng = 3;
	double x[20];

	(void)state;
	for (i = 0; i < sizeof(where) / sizeof(*where); i++) {
		noise(x, 20, 100, 3, &rng);
		x[where[i]] = 1000;
		assert_int_equal(cpd_edivisive(x, 20, NULL, 0, &o, cp, &n), 0);
		flagged += n;
	}
	assert_int_equal(flagged, 0);
}

static void test_prune_small(void **state)
{
	const double x[] = { 100, 101, 99, 100, 104, 105, 103, 104, 200, 201, 199, 200 };
	struct cpd_point cp[] = { { .index = 4 }, { .index = 8 } };

	(void)state;
	/* 100 -> 104 is 4%: dropped; 104 -> 200 stays (and is then measured from 102) */
	assert_int_equal(cpd_prune_small(x, 12, cp, 2, 0.10), 1);
	assert_int_equal(cp[0].index, 8);
	assert_int_equal(cpd_prune_small(x, 12, cp, 1, 1.5), 0);
}

static void test_bad_input(void **state)
{
	const double nan_in[] = { 1, 2, NAN, 4, 5 }, x[] = { 1, 2, 3 };
	struct cpd_opts o = opts();
	struct cpd_point cp[16];
	size_t n = 99;

	(void)state;
	assert_int_equal(cpd_edivisive(nan_in, 5, NULL, 0, &o, cp, &n), -EINVAL);
	assert_int_equal(cpd_edivisive(x, 3, NULL, 0, &o, cp, &n), 0);	/* too short: none */
	assert_int_equal(n, 0);
	o.min_size = 1;
	assert_int_equal(cpd_edivisive(x, 3, NULL, 0, &o, cp, &n), -EINVAL);
	o = opts();
	o.alpha = 2;
	assert_int_equal(cpd_edivisive(x, 3, NULL, 0, &o, cp, &n), -EINVAL);
}

static void test_kver_order(void **state)
{
	/* each before the next */
	const char *const order[] = {
		"5.15.0", "6.9", "6.10-rc1", "6.10-rc7", "6.10", "6.10.3", "6.17",
		"6.18.0-rc2", "6.18-rc3-next-20251010", "6.18", "6.18.44-fc-v1147", "banana",
	};
	size_t i;

	(void)state;
	for (i = 0; i + 1 < sizeof(order) / sizeof(*order); i++) {
		assert_true(kver_cmp(order[i], order[i + 1]) < 0);
		assert_true(kver_cmp(order[i + 1], order[i]) > 0);
	}
	assert_int_equal(kver_cmp_release("6.18-rc2", "6.18.0-rc2"), 0);
	assert_int_equal(kver_cmp_release("6.18.44-a", "6.18.44-b"), 0);
	assert_true(kver_cmp("6.18.44-a", "6.18.44-b") < 0);
	assert_int_equal(kver_cmp("6.18", "6.18"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_step_found),
		cmocka_unit_test(test_short_step),
		cmocka_unit_test(test_two_steps),
		cmocka_unit_test(test_false_alarm_rate),
		cmocka_unit_test(test_one_outlier),
		cmocka_unit_test(test_prune_small),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_kver_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
