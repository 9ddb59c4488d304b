// SPDX-License-Identifier: GPL-2.0
/*
 * test_pace.c - the pacing arithmetic every paced workload relies on: deadlines on
 * an exact grid, lateness measured from the deadline (no coordinated omission), and
 * the dropping of whole missed slots for real-time streams.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "wl_thread.h"
#include "common.h"

static void test_deadlines_on_grid(void **state __unused)
{
	struct pace p;

	pace_init(&p, 1000, 250000);
	assert_int_equal(pace_next(&p), 1000);
	assert_int_equal(pace_next(&p), 251000);
	assert_int_equal(pace_next(&p), 501000);
	assert_int_equal(p.k, 3);
	assert_int_equal(pace_deadline(&p, 1000000), 1000 + 250000000000ULL);
}

/* a fractional period (128 frames at 48 kHz) does not drift over a million periods */
static void test_fractional_period_no_drift(void **state __unused)
{
	struct pace p;
	double period = 128 * 1e9 / 48000;	/* 2666666.67 ns */

	pace_init(&p, 0, period);
	assert_int_equal(pace_deadline(&p, 3), 8000000);
	assert_int_equal(pace_deadline(&p, 1), 2666667);
	/* 3 million periods are exactly 8000 s */
	assert_int_equal(pace_deadline(&p, 3000000), 8000ULL * 1000000000ULL);
}

static void test_rate_to_period(void **state __unused)
{
	assert_true(period_from_rate(1000) == 1e6);
	assert_true(period_from_rate(3) > 333333333.3 && period_from_rate(3) < 333333333.4);
}

static void test_late(void **state __unused)
{
	assert_int_equal(pace_late(1000, 1500), 500);
	assert_int_equal(pace_late(1000, 1000), 0);
	assert_int_equal(pace_late(1000, 900), 0);	/* early counts as on time */
}

/*
 * No coordinated omission: an operation that could only start 3.5 periods late keeps
 * its own deadline, and so do the ones queued behind it.
 */
static void test_backlog_keeps_deadlines(void **state __unused)
{
	struct pace p;
	uint64_t now = 3500, d;
	int i;

	pace_init(&p, 0, 1000);
	for (i = 0; i < 4; i++) {
		d = pace_next(&p);
		assert_int_equal(d, (uint64_t)i * 1000);
		assert_int_equal(pace_late(d, now), now - (uint64_t)i * 1000);
		now += 10;	/* each operation is short: the backlog drains */
	}
}

/* a stream drops only the slots entirely over: the current one is run, late */
static void test_skip(void **state __unused)
{
	struct pace p;

	pace_init(&p, 0, 1000);
	p.k = 1;				/* period 0 ran */
	assert_int_equal(wl_pace_skip(&p, 1500), 0);	/* in slot 1: run it late */
	assert_int_equal(p.k, 1);
	assert_int_equal(wl_pace_skip(&p, 2000), 1);	/* slot 1 over: dropped */
	assert_int_equal(p.k, 2);
	assert_int_equal(wl_pace_skip(&p, 5999), 3);	/* slots 2, 3, 4 over */
	assert_int_equal(p.k, 5);
	assert_int_equal(wl_pace_skip(&p, 100), 0);	/* clock before the slot */
}

/* dropped slots are counted only from the measurement window on (audio's 'dropped') */
static void test_count_from(void **state __unused)
{
	struct pace p;

	pace_init(&p, 0, 1000);
	assert_int_equal(pace_count_from(&p, 2, 5, 0), 3);	/* 2000, 3000, 4000 */
	assert_int_equal(pace_count_from(&p, 2, 5, 3000), 2);	/* a deadline at t is in */
	assert_int_equal(pace_count_from(&p, 2, 5, 3001), 1);
	assert_int_equal(pace_count_from(&p, 2, 5, UINT64_MAX), 0);	/* not open yet */
	assert_int_equal(pace_count_from(&p, 5, 5, 0), 0);
}

/*
 * A gap of lost packets before one due at 10000, 1000 apart (9000, 8000, 7000, ...):
 * only those due at or after the window's start count (audio's 'lost_packets').
 */
static void test_count_before(void **state __unused)
{
	assert_int_equal(pace_count_before(10000, 1000, 3, 0), 3);
	assert_int_equal(pace_count_before(10000, 1000, 3, 8000), 2);	/* 9000, 8000 */
	assert_int_equal(pace_count_before(10000, 1000, 3, 8001), 1);
	assert_int_equal(pace_count_before(10000, 1000, 3, 9500), 0);
	assert_int_equal(pace_count_before(10000, 1000, 3, 10000), 0);
	assert_int_equal(pace_count_before(10000, 1000, 3, UINT64_MAX), 0);
	/* fractional period (2666666.67 ns): lost ones at 5333333.3, 2666666.7, 0 */
	assert_int_equal(pace_count_before(8000000, 128 * 1e9 / 48000, 5, 2666000), 2);
	assert_int_equal(pace_count_before(8000000, 128 * 1e9 / 48000, 5, 2667000), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadlines_on_grid),
		cmocka_unit_test(test_fractional_period_no_drift),
		cmocka_unit_test(test_rate_to_period),
		cmocka_unit_test(test_late),
		cmocka_unit_test(test_backlog_keeps_deadlines),
		cmocka_unit_test(test_skip),
		cmocka_unit_test(test_count_from),
		cmocka_unit_test(test_count_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
