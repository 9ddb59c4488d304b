// SPDX-License-Identifier: GPL-2.0
/*
 * test_window_workloads.c - every workload honours the measurement window: with a
 * window announced and never opened it records nothing at all (histograms, counters,
 * probes); opened after a warm-up, its counts, histograms and rates cover the window
 * only. Real threads and clocks, on a machine that may be busy (these run everywhere,
 * beside anything), so nothing here is a performance figure:
 *  - the window's length and the rates over it are checked against this test's own
 *    clock reads around opening and stopping;
 *  - operations are paced on absolute deadlines, so a count is never above what was
 *    due in the window (the warm-up's operations would exceed it), and at least a
 *    quarter of it, or, where the workload's histogram fills as it runs, the window
 *    stays open until a few operations are in;
 *  - what is exact (sent == received, one sample per operation) is checked exactly;
 *  - the hog's share is its thread's CPU time over the window, read from the kernel;
 *    a 50% duty sleeps every period, a 100% duty never does.
 * Workloads that need root (SCHED_FIFO, cyclictest, network namespaces) are skipped
 * without it.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "workload.h"
#include "msg.h"
#include "sys.h"

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
		fail_msg("%s = %.9g, expected within [%.9g, %.9g]", what, v, lo, hi);
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

/* The test's own clock reads around a window: opened in [from, from1], stopped in [s0, s1]. */
struct win {
	uint64_t start0;	/* before the workload was started */
	uint64_t from, from1;	/* just before and after wl_measure_from() */
	uint64_t s0, s1;	/* just before and after wl_stop() */
};

/* live_count - samples of a metric the workload adds to as it runs (a racy read) */
static uint64_t live_count(const struct wl_run *w, const char *metric)
{
	int i;

	for (i = 0; i < w->metrics.nmetrics; i++)
		if (!strcmp(w->metrics.metric[i].name, metric))
			return __atomic_load_n(&w->metrics.metric[i].hist.count, __ATOMIC_RELAXED);
	fail_msg("%s: no metric %s", w->ops->name, metric);
	return 0;
}

/*
 * run_window - warm up, open the window (unless open is false), measure for
 * WINDOW_MS, and longer if metric (may be NULL; its histogram must fill as the workload
 * runs) has fewer than min samples yet (10 s at most), stop
 */
static struct wl_run *run_window_until(const char *name, const char *const *kv, bool open,
				       const char *metric, uint64_t min, struct win *t)
{
	struct wl_run *w;
	int waited = 0;

	t->start0 = now_ns();
	w = start_announced(name, kv);
	sleep_ms(WARM_MS);
	t->from = now_ns();
	if (open)
		assert_int_equal(wl_measure_from(w, t->from), 0);
	t->from1 = now_ns();
	sleep_ms(WINDOW_MS);
	while (open && metric && live_count(w, metric) < min && waited++ < 500)
		sleep_ms(20);
	t->s0 = now_ns();
	wl_stop(w);
	t->s1 = now_ns();
	assert_null(wl_error(w));
	return w;
}

static struct wl_run *run_window(const char *name, const char *const *kv, bool open,
				 struct win *t)
{
	return run_window_until(name, kv, open, NULL, 0, t);
}

/*
 * check_window - the window runs from t->from to the stop, the warm-up from the start
 * to t->from: both within this test's clock reads
 */
static void check_window(const struct wl_run *w, const struct win *t)
{
	within("window_s", wl_window_s(w), (double)(t->s0 - t->from1) / 1e9,
	       (double)(t->s1 - t->from) / 1e9);
	within("warmup_s", wl_warmup_s(w), WARM_MS / 1e3, (double)(t->from1 - t->start0) / 1e9);
}

/*
 * check_count - n operations paced at rate (per thread, threads of them) over the
 * window: never more than were due, at least a quarter of that; the achieved rate
 * (counter rate) is n over the window as this test timed it
 */
static void check_count(const struct wl_run *w, const struct win *t, const char *what,
			double n, double rate, int threads, const char *rate_counter)
{
	double due = rate * wl_window_s(w);

	within(what, n, due / 4, due + threads);
	if (rate_counter)
		within(rate_counter, counter(w, rate_counter), n * 1e9 / (double)(t->s1 - t->from),
		       n * 1e9 / (double)(t->s0 - t->from1));
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
	struct win t;

	w = run_window("tty", tty_opts, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "sent") == 0 && counter(w, "received") == 0);
	assert_true(counter(w, "lost") == 0 && counter(w, "late") == 0);
	wl_free(w);

	w = run_window("block", block_opts, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "ops") == 0 && counter(w, "bytes") == 0);
	wl_free(w);

	w = run_window("hog", hog_opts, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "share_t0") == 0 && counter(w, "gaps") == 0);
	wl_free(w);

	w = run_window("timer", timer_loads, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "load_wakeups") == 0 && counter(w, "wheel_expiries") == 0);
	assert_true(counter(w, "load_rate_achieved") == 0);
	wl_free(w);
}

/* tty: the writer decides, the reader follows: sent and received are the same messages */
static void test_tty(void **state __unused)
{
	struct win t;
	struct wl_run *w = run_window_until("tty", tty_opts, true, "delivery", 50, &t);
	double sent = counter(w, "sent");

	check_window(w, &t);
	check_count(w, &t, "tty sent", sent, 1000, 1, "rate_achieved");
	assert_true(counter(w, "received") == sent);
	assert_true(counter(w, "lost") == 0);
	assert_int_equal(samples(w, "delivery"), (uint64_t)sent);
	assert_int_equal(samples(w, "write_to_read"), (uint64_t)sent);
	wl_free(w);
}

/* block: fsync takes what the disk takes; the window stays open until 10 are in */
static void test_block(void **state __unused)
{
	struct win t;
	struct wl_run *w = run_window_until("block", block_opts, true, "op", 10, &t);
	double ops = counter(w, "ops");

	check_window(w, &t);
	/* 200/s: 80 due in 400 ms; the warm-up's 40 more would exceed it */
	within("block ops", ops, 10, 200 * wl_window_s(w) + 1);
	assert_int_equal(samples(w, "op"), (uint64_t)ops);
	assert_int_equal(samples(w, "sync"), (uint64_t)ops);
	assert_true(counter(w, "bytes") == ops * 4096);
	wl_free(w);
}

/* thread_tid - the tid of this process's thread called name */
static pid_t thread_tid(const char *name)
{
	char path[300], comm[32] = "";
	struct dirent *de;
	pid_t tid = -1;
	DIR *d = opendir("/proc/self/task");
	FILE *f;

	assert_non_null(d);
	while (tid < 0 && (de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", de->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strncmp(comm, name, strlen(name)) &&
		    comm[strlen(name)] == '\n')
			tid = atoi(de->d_name);
		if (f)
			fclose(f);
	}
	closedir(d);
	if (tid < 0)
		fail_msg("no thread %s", name);
	return tid;
}

/* thread_cpu_ns - CPU time of thread tid of this process, from its CPU clock */
static uint64_t thread_cpu_ns(pid_t tid)
{
	/* the kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) */
	clockid_t clk = (clockid_t)((~(unsigned int)tid << 3) | 6);
	struct timespec ts;

	assert_int_equal(clock_gettime(clk, &ts), 0);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* voluntary - how often thread tid of this process gave up the CPU itself (slept) */
static long voluntary(pid_t tid)
{
	char path[64], line[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * hog_window - one hog thread with opts, its share over the window against the CPU
 * time the kernel counted for its thread in the window; returns the share and, in
 * *sleeps, how often the thread slept in the window and, in *cpu, its CPU time there.
 *
 * The hog's window runs from 'from' to the moment its thread sees the stop, and its
 * CPU time from the moment it saw the window open: this test cannot read its clocks
 * at those instants, only around them, and on a busy machine it may be preempted
 * between any two reads. So the share is checked against bounds made of what was
 * read: the thread's CPU time in the window is c1 - c0, less what it spun before it
 * was told of the window (at most opened - from), plus what it ran after c1 (at most
 * the wall time from t1 to t3); the window's length lies between t1 - from and
 * t3 - from.
 */
static double hog_window(const char *const *opts, long *sleeps, uint64_t *cpu)
{
	struct wl_run *w = start_announced("hog", opts);
	uint64_t from, opened, c0, c1, t1, t3;
	double share, lo, hi;
	long v0;
	pid_t tid;

	sleep_ms(WARM_MS);
	tid = thread_tid("db-hog-0");
	v0 = voluntary(tid);
	from = now_ns();
	c0 = thread_cpu_ns(tid);
	assert_int_equal(wl_measure_from(w, from), 0);
	opened = now_ns();
	sleep_ms(WINDOW_MS);
	t1 = now_ns();
	c1 = thread_cpu_ns(tid);
	*sleeps = voluntary(tid) - v0;
	wl_stop(w);
	t3 = now_ns();
	assert_null(wl_error(w));
	share = counter(w, "share_t0");
	lo = ((double)(c1 - c0) - (double)(opened - from)) / (double)(t3 - from);
	hi = ((double)(c1 - c0) + (double)(t3 - t1)) / (double)(t1 - from);
	/* 0.005: the clocks' reads themselves */
	within("hog share_t0 against its thread's CPU time", share, lo - 0.005, hi + 0.005);
	wl_free(w);
	*cpu = c1 - c0;
	return share;
}

/*
 * hog: the share is CPU time over the window; a 50% duty sleeps every period, a
 * spinner never does
 */
static void test_hog(void **state __unused)
{
	static const char *const spin[] = { "threads=1", NULL };
	const double on = 5e6;	/* duty=50 of the 10 ms period */
	uint64_t cpu;
	long sleeps;

	/* never above half the CPU, plus the partial period at each end */
	within("hog duty=50 share", hog_window(hog_opts, &sleeps, &cpu), 0,
	       0.5 + 2 * on / (WINDOW_MS * 1e6));
	/*
	 * 40 periods in the window, at most one sleep each; every spin that ran takes at
	 * most 'on' of CPU and is followed by a sleep, so the CPU time counted needs at
	 * least cpu / on sleeps (less the part periods at the ends) however busy the
	 * machine (a preempted hog skips periods and runs fewer)
	 */
	within("hog duty=50 sleeps", sleeps, (double)cpu / on - 3, WINDOW_MS / 10 + 2);
	/*
	 * a spinner never sleeps on its own: only preemption takes its CPU (a page fault
	 * waiting on the address space's lock, shared with this test, is the one
	 * voluntary switch it may see)
	 */
	within("hog duty=100 share", hog_window(spin, &sleeps, &cpu), 0, 1.02);
	within("hog duty=100 sleeps", sleeps, 0, 3);
}

/* timer loads skip the deadlines they missed: at most what was due */
static void test_timer_loads(void **state __unused)
{
	struct win t;
	struct wl_run *w = run_window("timer", timer_loads, true, &t);
	double n = counter(w, "load_wakeups");

	check_window(w, &t);
	check_count(w, &t, "timer load_wakeups", n, 1000, 1, "load_rate_achieved");
	assert_int_equal(samples(w, "load_wakeup"), (uint64_t)n);
	check_count(w, &t, "timer wheel_expiries", counter(w, "wheel_expiries"), 100, 1,
		    "wheel_rate_achieved");
	assert_int_equal(samples(w, "wheel_wakeup"), (uint64_t)counter(w, "wheel_expiries"));
	wl_free(w);
}

/* cyclictest cannot cut its histogram: it is started when the window opens */
static void test_timer_probe(void **state __unused)
{
	static const char *const probe[] = { "threads=0", "wheel_rate=0", NULL };
	struct wl_run *w;
	double asked;
	uint64_t from;

	if (geteuid() || (access("/usr/bin/cyclictest", X_OK) &&
			  access("/usr/local/bin/cyclictest", X_OK)))
		skip();
	w = start_announced("timer", probe);
	sleep_ms(WARM_MS);
	assert_false(has_child());		/* not during the warm-up */
	from = now_ns();
	assert_int_equal(wl_measure_from(w, from), 0);
	assert_true(has_child());
	sleep_ms(WINDOW_MS);
	wl_stop(w);
	assert_null(wl_error(w));
	asked = counter(w, "probe_rate_asked");
	/*
	 * at most its rate from the window on; at least one cycle: a child exec'd when the
	 * window opens, and how soon it runs depends on the machine (beside a CPU load its
	 * start took most of the window once), so no share of the rate is asked of it
	 */
	within("cyclictest cycles", counter(w, "cycles"), 1,
	       asked * (double)(now_ns() - from) / 1e9 + 8);
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
	struct win t;
	double periods;

	if (geteuid())
		skip();
	w = run_window("audio", opts, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "periods") == 0 && counter(w, "xruns") == 0);
	assert_true(counter(w, "dropped") == 0);
	wl_free(w);

	w = run_window("audio", opts, true, &t);
	check_window(w, &t);
	periods = counter(w, "periods");
	/* 375 periods/s, each run or dropped (its slot passed): all of them are counted,
	 * the first and last may straddle the window's edges */
	within("audio periods + dropped", periods + counter(w, "dropped"),
	       375 * wl_window_s(w) - 2, 375 * wl_window_s(w) + 1);
	assert_int_equal(samples(w, "wakeup"), (uint64_t)periods);
	wl_free(w);
}

static void test_net(void **state __unused)
{
	static const char *const opts[] = { "rate=1000", NULL };
	struct wl_run *w;
	struct win t;
	double sent;

	if (geteuid() || system("unshare -n true 2>/dev/null"))
		skip();
	w = run_window("net", opts, false, &t);
	assert_nothing(w);
	assert_true(counter(w, "sent") == 0 && counter(w, "received") == 0);
	assert_true(counter(w, "echoed") == 0 && counter(w, "lost") == 0);
	wl_free(w);

	w = run_window("net", opts, true, &t);
	check_window(w, &t);
	sent = counter(w, "sent");
	check_count(w, &t, "net sent", sent, 1000, 1, "rate_achieved");
	/* each request is in or out for all three threads alike */
	assert_true(counter(w, "received") + counter(w, "lost") == sent);
	assert_true(counter(w, "echoed") >= counter(w, "received"));
	assert_true(counter(w, "echoed") <= sent);
	assert_int_equal(samples(w, "rtt"), (uint64_t)counter(w, "received"));
	assert_int_equal(samples(w, "send_lag"), (uint64_t)sent);
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
