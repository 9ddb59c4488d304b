// SPDX-License-Identifier: GPL-2.0
/*
 * test_hist.c - the histogram's error bound against exact percentiles, its layout,
 * merging and statistics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <math.h>
#include <cmocka.h>

#include "hist.h"

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t xorshift(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* nearest-rank percentile of a sorted array, the definition hist_percentile follows */
static uint64_t exact_pct(const uint64_t *v, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * n);

	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static void check_against_exact(uint64_t *v, size_t n)
{
	static const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999 };
	struct hist *h = malloc(sizeof(*h));
	size_t i;

	hist_init(h);
	for (i = 0; i < n; i++)
		hist_add(h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		uint64_t e = exact_pct(v, n, qs[i]), g = hist_percentile(h, qs[i]);
		double err = e ? fabs((double)g - (double)e) / (double)e : (double)g;

		if (err > 0.01)
			fail_msg("q=%g exact %llu hist %llu error %.4f", qs[i],
				 (unsigned long long)e, (unsigned long long)g, err);
		/* the documented bound is tighter than the 1% requirement */
		assert_true(err <= 1.0 / 128 + 1e-12);
	}
	assert_int_equal(h->min, v[0]);
	assert_int_equal(h->max, v[n - 1]);
	assert_int_equal(hist_percentile(h, 1.0), v[n - 1]);
	assert_int_equal(hist_percentile(h, 0.0), v[0]);
	free(h);
}

static void test_error_bound_uniform_log(void **state)
{
	size_t n = 200000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	/* log-uniform from 1 ns to ~100 s: every octave of the range is exercised */
	for (i = 0; i < n; i++)
		v[i] = (uint64_t)exp((double)(xorshift() % 1000000) / 1000000.0 * log(1e11)) ;
	check_against_exact(v, n);
	free(v);
}

static void test_error_bound_latency_like(void **state)
{
	size_t n = 100000, i;
	uint64_t *v = malloc(n * sizeof(*v));

	(void)state;
	/* a body around 5 us with a heavy tail, the shape of real wakeup latency */
	for (i = 0; i < n; i++) {
		uint64_t base = 4000 + xorshift() % 2000;

		v[i] = xorshift() % 100 == 0 ? base * (10 + xorshift() % 1000) : base;
	}
	check_against_exact(v, n);
	free(v);
}

static void test_small_values_exact(void **state)
{
	struct hist h;
	uint64_t i;

	(void)state;
	hist_init(&h);
	for (i = 0; i < 128; i++)
		hist_add(&h, i);
	for (i = 0; i < 128; i++)
		assert_int_equal(hist_bucket_lo(hist_index(i)), i);
	assert_int_equal(hist_percentile(&h, 0.5), 63);
}

static void test_layout_contiguous(void **state)
{
	unsigned int i;

	(void)state;
	/* buckets tile the range without gaps or overlaps, and index() inverts lo() */
	for (i = 0; i + 1 < HIST_BUCKETS; i++) {
		assert_int_equal(hist_bucket_lo(i) + hist_bucket_width(i), hist_bucket_lo(i + 1));
		assert_int_equal(hist_index(hist_bucket_lo(i)), i);
		assert_int_equal(hist_index(hist_bucket_lo(i) + hist_bucket_width(i) - 1), i);
		/* width at most 1/64 of the lower bound above the linear part */
		if (i >= HIST_LINEAR)
			assert_true(hist_bucket_width(i) * 64 <= hist_bucket_lo(i));
	}
	/* 100 s fits; anything larger lands in the last bucket */
	assert_true(hist_index(100ULL * 1000000000ULL) < HIST_BUCKETS - 1);
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

static void test_merge_and_stats(void **state)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)), *all = malloc(sizeof(*all));
	uint64_t i;

	(void)state;
	hist_init(a);
	hist_init(b);
	hist_init(all);
	for (i = 1; i <= 1000; i++) {
		hist_add(i % 2 ? a : b, i * 1000);
		hist_add(all, i * 1000);
	}
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof(*a));
	assert_int_equal(a->count, 1000);
	assert_true(fabs(hist_mean(a) - 500500.0) < 1e-6);
	/* population stddev of 1000..1000000 step 1000 */
	assert_true(fabs(hist_stddev(a) - 288674.990) < 0.01);
	hist_add_n(b, 77, 3);
	assert_int_equal(b->count, 503);
	assert_int_equal(b->min, 77);
	free(a);
	free(b);
	free(all);
}

static void test_empty(void **state)
{
	struct hist h;
	struct hist_stats st;

	(void)state;
	hist_init(&h);
	hist_get_stats(&h, &st);
	assert_int_equal(st.count, 0);
	assert_int_equal(st.min, 0);
	assert_int_equal(st.p99, 0);
	assert_true(st.mean == 0.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_bound_uniform_log),
		cmocka_unit_test(test_error_bound_latency_like),
		cmocka_unit_test(test_small_values_exact),
		cmocka_unit_test(test_layout_contiguous),
		cmocka_unit_test(test_merge_and_stats),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
