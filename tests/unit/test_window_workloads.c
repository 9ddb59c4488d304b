// SPDX-License-Identifier: GPL-2.0
/*
 * test_window_workloads.c - every workload honours the measurement window: with a
 * window announced and never opened it records nothing at all (histograms, counters,
 * probes); opened after a warm-up, its counts, histograms and rates cover the window
 * only. Real threads and clocks, so the bounds leave room for a busy machine; what is
 * exact (sent == received, one sample per operation) is checked exactly. Workloads
 * that need root (SCHED_FIFO, cyclictest, network namespaces) are skipped without it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "workload.h"

#define WARM_MS 200
#define WINDOW_MS 400

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static double counter(const struct wl_run *w, const char *name)
{
	int i;

	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, name))
			return w->metrics.counter[i].value;
	fail_msg("%s: no counter %s", w->ops->name, name);
	return -1;
}

static uint64_t samples(const struct wl_run *w, const char *metric)
{
	int i;

	for (i = 0; i < w->metrics.nmetrics; i++)
		if (!strcmp(w->metrics.metric[i].name, metric))
			return w->metrics.metric[i].hist.count;
	fail_msg("%s: no metric %s", w->ops->name, metric);
	return 0;
}

/* within - lo <= v <= hi, with the figure in the message when not */
static void within(const char *what, double v, double lo, double hi)
{
	if (v < lo || v > hi)
		fail_msg("%s = %g, expected within [%g, %g]", what, v, lo, hi);
}

/* has_child - does this process have a child (cyclictest) right now? */
static bool has_child(void)
{
	return waitpid(-1, NULL, WNOHANG) == 0;
}

/*
 * start_announced - workload name with options "k=v"..., its window announced, started;
 * NULL (the test skipped) when setup needs what this machine or user does not have
 */
static struct wl_run *start_announced(const char *name, const char *const *kv)
{
	struct wl_run *w = wl_new(workload_find(name));
	char errbuf[ERRBUF_LEN], key[64];

	assert_non_null(w);
	for (; kv && *kv; kv++) {
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		assert_int_equal(wl_set_option(w, key, eq + 1, errbuf), 0);
	}
	assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), 0);
	if (wl_setup(w, errbuf) || wl_start(w, errbuf))
		fail_msg("%s: %s", name, errbuf);
	return w;
}

/* run_window - warm up, open the window (unless open is false), measure, stop */
static struct wl_run *run_window(const char *name, const char *const *kv, bool open)
{
	struct wl_run *w = start_announced(name, kv);

	sleep_ms(WARM_MS);
	if (open)
		assert_int_equal(wl_measure_from(w, now_ns()), 0);
	sleep_ms(WINDOW_MS);
	wl_stop(w);
	assert_null(wl_error(w));
	return w;
}

/* assert_nothing - no sample in any metric, the rate achieved 0, no time measured */
static void assert_nothing(const struct wl_run *w)
{
	int i;

	for (i = 0; i < w->metrics.nmetrics; i++)
		if (w->metrics.metric[i].hist.count)
			fail_msg("%s: %llu %s samples before the window", w->ops->name,
				 (unsigned long long)w->metrics.metric[i].hist.count,
				 w->metrics.metric[i].name);
	for (i = 0; i < w->metrics.ncounters; i++)
		if (!strcmp(w->metrics.counter[i].name, "rate_achieved"))
			assert_true(w->metrics.counter[i].value == 0);
	assert_true(wl_window_s(w) == 0);
	assert_true(wl_warmup_s(w) > 0);
}

static const char *const tty_opts[] = { "rate=1000", NULL };
static const char *const block_opts[] = { "rate=200", "dir=/var/tmp", NULL };
static const char *const hog_opts[] = { "threads=1", "duty=50", NULL };
static const char *const timer_loads[] = { "probe=no", "threads=1", "periods=1ms",
					   "wheel_rate=100", NULL };

static void test_never_opened(void **state __unused)
{
	struct wl_run *w;

	w = run_window("tty", tty_opts, false);
	assert_nothing(w);
	assert_true(counter(w, "sent") == 0 && counter(w, "received") == 0);
	assert_true(counter(w, "lost") == 0 && counter(w, "late") == 0);
	wl_free(w);

	w = run_window("block", block_opts, false);
	assert_nothing(w);
	assert_true(counter(w, "ops") == 0 && counter(w, "bytes") == 0);
	wl_free(w);

	w = run_window("hog", hog_opts, false);
	assert_nothing(w);
	assert_true(counter(w, "share_t0") == 0 && counter(w, "gaps") == 0);
	wl_free(w);

	w = run_window("timer", timer_loads, false);
	assert_nothing(w);
	assert_true(counter(w, "load_wakeups") == 0 && counter(w, "wheel_expiries") == 0);
	assert_true(counter(w, "load_rate_achieved") == 0);
	wl_free(w);
}

/* tty: the writer decides, the reader follows: sent and received are the same messages */
static void test_tty(void **state __unused)
{
	struct wl_run *w = run_window("tty", tty_opts, true);
	double sent = counter(w, "sent");

	within("tty window_s", wl_window_s(w), WINDOW_MS / 1e3, WINDOW_MS / 1e3 + 0.1);
	within("tty warmup_s", wl_warmup_s(w), WARM_MS / 1e3, WARM_MS / 1e3 + 0.1);
	within("tty sent", sent, 0.85 * WINDOW_MS, 1.05 * WINDOW_MS + 100);
	assert_true(counter(w, "received") == sent);
	assert_true(counter(w, "lost") == 0);
	assert_int_equal(samples(w, "delivery"), (uint64_t)sent);
	assert_int_equal(samples(w, "write_to_read"), (uint64_t)sent);
	within("tty rate_achieved", counter(w, "rate_achieved"), 850, 1050);
	wl_free(w);
}

static void test_block(void **state __unused)
{
	struct wl_run *w = run_window("block", block_opts, true);
	double ops = counter(w, "ops");

	/* 200/s: 80 in the window, fewer if fsync is slow here, never the warm-up's 40 more */
	within("block ops", ops, 1, 0.2 * WINDOW_MS * 1.05 + 2);
	assert_int_equal(samples(w, "op"), (uint64_t)ops);
	assert_int_equal(samples(w, "sync"), (uint64_t)ops);
	assert_true(counter(w, "bytes") == ops * 4096);
	wl_free(w);
}

/* hog: the share is CPU time over the window; a 50% duty cannot exceed about half */
static void test_hog(void **state __unused)
{
	static const char *const spin[] = { "threads=1", NULL };
	struct wl_run *w = run_window("hog", hog_opts, true);

	within("hog duty=50 share", counter(w, "share_t0"), 0.02, 0.6);
	wl_free(w);
	w = run_window("hog", spin, true);
	within("hog duty=100 share", counter(w, "share_t0"), 0.02, 1.02);
	wl_free(w);
}

static void test_timer_loads(void **state __unused)
{
	struct wl_run *w = run_window("timer", timer_loads, true);
	double n = counter(w, "load_wakeups");

	/* 1000/s over the window; a load thread skips what it missed, so at most that */
	within("timer load_wakeups", n, 1, 1.05 * WINDOW_MS + 2);
	assert_int_equal(samples(w, "load_wakeup"), (uint64_t)n);
	assert_true(counter(w, "load_rate_achieved") == n / wl_window_s(w));
	assert_int_equal(samples(w, "wheel_wakeup"), (uint64_t)counter(w, "wheel_expiries"));
	wl_free(w);
}

/* cyclictest cannot cut its histogram: it is started when the window opens */
static void test_timer_probe(void **state __unused)
{
	static const char *const probe[] = { "threads=0", "wheel_rate=0", NULL };
	struct wl_run *w;
	double asked;

	if (geteuid() || (access("/usr/bin/cyclictest", X_OK) &&
			  access("/usr/local/bin/cyclictest", X_OK)))
		skip();
	w = start_announced("timer", probe);
	sleep_ms(WARM_MS);
	assert_false(has_child());		/* not during the warm-up */
	assert_int_equal(wl_measure_from(w, now_ns()), 0);
	assert_true(has_child());
	sleep_ms(WINDOW_MS);
	wl_stop(w);
	assert_null(wl_error(w));
	asked = counter(w, "probe_rate_asked");
	within("cyclictest cycles", counter(w, "cycles"), 1,
	       asked * wl_window_s(w) * 1.02 + 8);
	assert_int_equal(samples(w, "wakeup"), (uint64_t)counter(w, "cycles"));
	wl_free(w);

	/* never opened: never started, and that is no error */
	w = start_announced("timer", probe);
	sleep_ms(WARM_MS);
	assert_false(has_child());
	wl_stop(w);
	assert_null(wl_error(w));
	assert_true(counter(w, "cycles") == 0);
	wl_free(w);
}

static void test_audio(void **state __unused)
{
	static const char *const opts[] = { "mlock=no", NULL };
	struct wl_run *w;
	double periods;

	if (geteuid())
		skip();
	w = run_window("audio", opts, false);
	assert_nothing(w);
	assert_true(counter(w, "periods") == 0 && counter(w, "xruns") == 0);
	assert_true(counter(w, "dropped") == 0);
	wl_free(w);

	w = run_window("audio", opts, true);
	periods = counter(w, "periods");
	/* 375 periods/s: 150 in the window; dropped ones are not periods */
	within("audio periods + dropped", periods + counter(w, "dropped"),
	       0.85 * 0.375 * WINDOW_MS, 0.375 * WINDOW_MS + 3);
	assert_int_equal(samples(w, "wakeup"), (uint64_t)periods);
	wl_free(w);
}

static void test_net(void **state __unused)
{
	static const char *const opts[] = { "rate=1000", NULL };
	struct wl_run *w;
	double sent;

	if (geteuid() || system("unshare -n true 2>/dev/null"))
		skip();
	w = run_window("net", opts, false);
	assert_nothing(w);
	assert_true(counter(w, "sent") == 0 && counter(w, "received") == 0);
	assert_true(counter(w, "echoed") == 0 && counter(w, "lost") == 0);
	wl_free(w);

	w = run_window("net", opts, true);
	sent = counter(w, "sent");
	within("net sent", sent, 0.85 * WINDOW_MS, 1.02 * WINDOW_MS + 2);
	/* each request is in or out for all three threads alike */
	assert_true(counter(w, "received") + counter(w, "lost") == sent);
	assert_true(counter(w, "echoed") >= counter(w, "received"));
	assert_true(counter(w, "echoed") <= sent);
	assert_int_equal(samples(w, "rtt"), (uint64_t)counter(w, "received"));
	assert_int_equal(samples(w, "send_lag"), (uint64_t)sent);
	within("net rate_achieved", counter(w, "rate_achieved"), 850, 1020);
	wl_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_opened),
		cmocka_unit_test(test_tty),
		cmocka_unit_test(test_block),
		cmocka_unit_test(test_hog),
		cmocka_unit_test(test_timer_loads),
		cmocka_unit_test(test_timer_probe),
		cmocka_unit_test(test_audio),
		cmocka_unit_test(test_net),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
