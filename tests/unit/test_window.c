// SPDX-License-Identifier: GPL-2.0
/*
 * test_window.c - the driver's measurement window: its arithmetic on made-up instants,
 * the rules of wl_measure_from(), and what a workload records with it, through a fake
 * workload whose "operations" the test records itself with deadlines it chooses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "workload.h"
#include "msg.h"
#include "sys.h"

/* a run with made-up instants: nothing started, only the fields the arithmetic reads */
static struct wl_run fake_run(uint64_t start, uint64_t window, uint64_t stop)
{
	struct wl_run w;

	memset(&w, 0, sizeof(w));
	w.start_ns = start;
	w.window_ns = window;
	w.stop_ns = stop;
	return w;
}

static void test_bounds_whole_run(void **state __unused)
{
	struct wl_run w = fake_run(1000, 0, 3000);
	uint64_t from, until;

	wl_window_bounds(&w, &from, &until);
	assert_int_equal(from, 1000);
	assert_int_equal(until, 3000);
	assert_true(wl_window_s(&w) == 2000 / 1e9);
	assert_true(wl_warmup_s(&w) == 0);
	assert_true(wl_in_window(&w, 0));	/* everything is recorded */
}

static void test_bounds_opened(void **state __unused)
{
	struct wl_run w = fake_run(1000, 1500, 3000);
	uint64_t from, until;

	wl_window_bounds(&w, &from, &until);
	assert_int_equal(from, 1500);
	assert_int_equal(until, 3000);
	assert_true(wl_window_s(&w) == 1500 / 1e9);
	assert_true(wl_warmup_s(&w) == 500 / 1e9);
	assert_false(wl_in_window(&w, 1499));
	assert_true(wl_in_window(&w, 1500));
}

/* announced and never opened (a run stopped during its warm-up): nothing measured */
static void test_bounds_never_opened(void **state __unused)
{
	struct wl_run w = fake_run(1000, WL_MEASURE_LATER, 3000);
	uint64_t from, until;

	wl_window_bounds(&w, &from, &until);
	assert_int_equal(from, 3000);
	assert_int_equal(until, 3000);
	assert_true(wl_window_s(&w) == 0);
	assert_true(wl_warmup_s(&w) == 2000 / 1e9);
	assert_false(wl_in_window(&w, UINT64_MAX - 1));
}

/* a window start outside [start, stop] is clamped: the interval is never negative */
static void test_bounds_clamped(void **state __unused)
{
	struct wl_run w = fake_run(1000, 500, 3000);
	uint64_t from, until;

	wl_window_bounds(&w, &from, &until);
	assert_int_equal(from, 1000);
	w = fake_run(1000, 4000, 3000);
	wl_window_bounds(&w, &from, &until);
	assert_int_equal(from, 3000);
	assert_true(wl_window_s(&w) == 0);
	w = fake_run(0, 0, 0);			/* never started */
	assert_true(wl_window_s(&w) == 0);
}

/* the fake workload: no thread; the test records operations through fake_op() */
struct fake_priv {
	int m, c;
	int measured;		/* measure hook calls */
	uint64_t measured_at;	/* now_ns() in the hook */
	bool fail;		/* the hook fails, as a probe that cannot start */
};

static int fake_setup(struct wl_run *w, char *errbuf __unused)
{
	struct fake_priv *p = w->priv;

	p->m = wl_metric_add(w, "op", "ns", "fake");
	p->c = wl_counter_add(w, "ops");
	wl_rate(w, p->c, 1000);
	return 0;
}

static int fake_start(struct wl_run *w __unused, char *errbuf __unused)
{
	return 0;
}

static void fake_stop(struct wl_run *w __unused)
{
}

static void fake_measure(struct wl_run *w)
{
	struct fake_priv *p = w->priv;

	p->measured++;
	p->measured_at = now_ns();
	if (p->fail)
		wl_fail(w, -ENOEXEC, "fake: the probe would not start");
}

static const struct workload_ops fake_workload = {
	.name = "fake",
	.help = "test",
	.cfg_size = 0,
	.priv_size = sizeof(struct fake_priv),
	.setup = fake_setup,
	.start = fake_start,
	.stop = fake_stop,
	.teardown = fake_stop,
	.measure = fake_measure,
};

/* fake_op - what a workload does with an operation due at deadline, done at done */
static void fake_op(struct wl_run *w, uint64_t deadline, uint64_t done)
{
	struct fake_priv *p = w->priv;

	if (!wl_in_window(w, deadline))
		return;
	hist_add(&w->metrics.metric[p->m].hist, done - deadline);
	w->metrics.counter[p->c].value++;
}

static struct wl_run *fake_new(bool announce)
{
	struct wl_run *w = wl_new(&fake_workload);
	char errbuf[ERRBUF_LEN];

	assert_non_null(w);
	if (announce)
		assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), 0);
	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_start(w, errbuf), 0);
	return w;
}

static double counter(const struct wl_run *w, const char *name)
{
	int i;

	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, name))
			return w->metrics.counter[i].value;
	fail_msg("no counter %s", name);
	return -1;
}

/* sleep_ms - at least ms milliseconds */
static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* within - lo <= v <= hi, with the figures in the message when not */
static void within(const char *what, double v, double lo, double hi)
{
	if (v < lo || v > hi)
		fail_msg("%s = %.9g, expected within [%.9g, %.9g]", what, v, lo, hi);
}

/*
 * before the window opens nothing is recorded; from its start on, everything due. The
 * window's length and the rate over it are checked against this test's own clock
 * reads around the calls (not against the driver's formula): the window runs from the
 * instant it was opened at to the stop, and the rate counts over it, not over the
 * 20 ms of warm-up before it.
 */
static void test_records_from_window(void **state __unused)
{
	struct wl_run *w = fake_new(true);
	struct fake_priv *p = w->priv;
	uint64_t t0 = now_ns(), from, s0, s1;

	fake_op(w, t0 - 1000, t0);			/* warm-up: not recorded */
	assert_int_equal(p->measured, 0);
	sleep_ms(20);
	t0 = now_ns();
	assert_int_equal(wl_measure_from(w, t0 - NSEC_PER_SEC), 0);	/* past: taken as now */
	from = w->window_ns;
	assert_true(from >= t0 && from <= now_ns());
	assert_int_equal(p->measured, 1);
	fake_op(w, from - 1, from + 10);		/* due just before: out */
	fake_op(w, from, from + 20);			/* due at the start: in */
	fake_op(w, from + 5000, from + 5300);
	sleep_ms(20);
	s0 = now_ns();
	wl_stop(w);
	s1 = now_ns();
	assert_int_equal(w->metrics.metric[p->m].hist.count, 2);
	assert_int_equal(w->metrics.metric[p->m].hist.min, 20);
	assert_int_equal(w->metrics.metric[p->m].hist.max, 300);
	assert_true(counter(w, "ops") == 2);
	within("window_s", wl_window_s(w), (double)(s0 - from) / 1e9, (double)(s1 - from) / 1e9);
	within("warmup_s", wl_warmup_s(w), 0.020, (double)(from - w->start_ns) / 1e9);
	/* the rate is over the window, not over the run */
	within("rate_achieved", counter(w, "rate_achieved"), 2e9 / (double)(s1 - from),
	       2e9 / (double)(s0 - from));
	assert_true(counter(w, "rate_asked") == 1000);
	wl_free(w);
}

/* the default: the whole run, as 'deferbench load' has always measured */
static void test_default_whole_run(void **state __unused)
{
	uint64_t t0 = now_ns(), t1, s0, s1;
	struct wl_run *w = fake_new(false);
	struct fake_priv *p = w->priv;

	t1 = now_ns();
	fake_op(w, w->start_ns - 1000, w->start_ns);	/* due before start returned: in */
	sleep_ms(10);
	s0 = now_ns();
	wl_stop(w);
	s1 = now_ns();
	assert_true(counter(w, "ops") == 1);
	assert_int_equal(p->measured, 0);
	within("window_s", wl_window_s(w), (double)(s0 - t1) / 1e9, (double)(s1 - t0) / 1e9);
	assert_true(wl_warmup_s(w) == 0);
	within("rate_achieved", counter(w, "rate_achieved"), 1e9 / (double)(s1 - t0),
	       1e9 / (double)(s0 - t1));
	wl_free(w);
}

/* misuse is refused and changes nothing */
static void test_rules(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	struct fake_priv *p;

	/* before start: only an announcement */
	assert_int_equal(wl_measure_from(w, now_ns()), -EINVAL);
	assert_int_equal(w->window_ns, 0);
	wl_free(w);

	/* a run already recording cannot get a window: in-flight counts would split */
	w = fake_new(false);
	p = w->priv;
	assert_int_equal(wl_measure_from(w, now_ns()), -EINVAL);
	assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), -EINVAL);
	assert_int_equal(w->window_ns, 0);
	assert_int_equal(p->measured, 0);
	wl_free(w);

	/* opened once; not again, not after stop */
	w = fake_new(true);
	p = w->priv;
	assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), -EINVAL);
	assert_int_equal(wl_measure_from(w, now_ns()), 0);
	assert_int_equal(wl_measure_from(w, now_ns()), -EINVAL);
	assert_int_equal(p->measured, 1);
	wl_stop(w);
	assert_int_equal(wl_measure_from(w, now_ns()), -EINVAL);
	wl_free(w);

	/* announced, stopped before it opened */
	w = fake_new(true);
	wl_stop(w);
	assert_int_equal(wl_measure_from(w, now_ns()), -EINVAL);
	assert_true(wl_window_s(w) == 0);
	assert_true(counter(w, "rate_achieved") == 0);
	wl_free(w);
}

/* a future start: the call returns at it, the hook runs at it */
static void test_future_start(void **state __unused)
{
	struct wl_run *w = fake_new(true);
	struct fake_priv *p = w->priv;
	uint64_t t = now_ns() + 30 * NSEC_PER_MSEC;

	assert_int_equal(wl_measure_from(w, t), 0);
	assert_int_equal(w->window_ns, t);
	assert_true(now_ns() >= t);
	assert_true(p->measured_at >= t);
	wl_free(w);
}

/*
 * two windows for one instant (a segment's workload and its load): set both, then begin
 * each; both start at that instant whatever the first one's wait, each hook runs once
 * at its begin, and a begin without a window set, or a second one, is refused
 */
static void test_measure_at_begin(void **state __unused)
{
	struct wl_run *a = fake_new(true), *b = fake_new(true), *whole = fake_new(false);
	struct fake_priv *pa = a->priv, *pb = b->priv;
	uint64_t at = now_ns() + 20 * NSEC_PER_MSEC;

	assert_int_equal(wl_measure_begin(a), -EINVAL);		/* announced, not set */
	assert_int_equal(wl_measure_begin(whole), -EINVAL);	/* the whole run: no window */
	assert_int_equal(wl_measure_at(a, at), 0);
	assert_int_equal(wl_measure_at(b, at), 0);
	assert_true(now_ns() < at);				/* setting does not wait */
	assert_int_equal(pa->measured + pb->measured, 0);
	assert_int_equal(wl_measure_begin(a), 0);
	assert_true(now_ns() >= at && pa->measured_at >= at);
	assert_int_equal(wl_measure_begin(b), 0);
	assert_int_equal(a->window_ns, at);
	assert_int_equal(b->window_ns, at);			/* not moved by a's wait */
	assert_int_equal(pa->measured, 1);
	assert_int_equal(pb->measured, 1);
	assert_int_equal(wl_measure_begin(a), -EINVAL);		/* once */
	assert_int_equal(wl_measure_at(a, now_ns()), -EINVAL);
	assert_int_equal(pa->measured, 1);
	wl_stop(b);
	assert_int_equal(wl_measure_begin(b), -EINVAL);
	wl_free(a);
	wl_free(b);
	wl_free(whole);
}

/* a hook that fails is a run-time failure: returned, and in wl_error() */
static void test_hook_failure(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	struct fake_priv *p = w->priv;
	char errbuf[ERRBUF_LEN];

	p->fail = true;
	assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), 0);
	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_start(w, errbuf), 0);
	assert_int_equal(wl_measure_from(w, now_ns()), -ENOEXEC);
	assert_non_null(wl_error(w));
	assert_non_null(strstr(wl_error(w), "would not start"));
	wl_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_whole_run),
		cmocka_unit_test(test_bounds_opened),
		cmocka_unit_test(test_bounds_never_opened),
		cmocka_unit_test(test_bounds_clamped),
		cmocka_unit_test(test_records_from_window),
		cmocka_unit_test(test_default_whole_run),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_future_start),
		cmocka_unit_test(test_measure_at_begin),
		cmocka_unit_test(test_hook_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
