// SPDX-License-Identifier: GPL-2.0
/*
 * test_match.c - the event matcher on synthetic event sequences.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match.h"

#define US 1000ULL
#define WORK 0xffff888001234560ULL
#define FUNC 0xffffffff81100000ULL
#define FUNC2 0xffffffff81200000ULL

static int setup(void **state)
{
	struct matcher *m = malloc(sizeof(*m));

	if (!m || matcher_init(m, 2, 0, 0, NULL, NULL))
		return -1;
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	matcher_free(*state);
	free(*state);
	return 0;
}

static void comm(struct matcher *m, int pid, const char *name)
{
	match_comm(m, pid, name, strlen(name));
}

static struct wq_group *only_group(struct matcher *m)
{
	assert_int_equal(m->ngroups, 1);
	return m->groups[0];
}

static void test_several_raises_one_entry(void **state)
{
	struct matcher *m = *state;
	struct sirq_group *g;

	match_softirq_raise(m, 0, 100 * US, SIRQ_NET_RX, 0, 0);
	match_softirq_raise(m, 0, 150 * US, SIRQ_NET_RX, 0, 0);
	match_softirq_raise(m, 0, 180 * US, SIRQ_NET_RX, 0, 0);
	match_softirq_entry(m, 0, 200 * US, SIRQ_NET_RX, 1234);
	match_softirq_exit(m, 0, 230 * US, SIRQ_NET_RX, 0);
	g = sirq_group_get(m, 0, SIRQ_NET_RX);
	/* the earliest pending raise is the one that waited */
	assert_int_equal(g->delay.count, 1);
	assert_int_equal(g->delay.min, 100 * US);
	assert_int_equal(g->runtime.min, 30 * US);
	assert_int_equal(g->entries, 1);
	assert_int_equal(g->ksoftirqd, 0);
	assert_int_equal(matcher_unmatched(m), 0);
}

static void test_reraise_during_handler(void **state)
{
	struct matcher *m = *state;
	struct sirq_group *g;

	match_softirq_raise(m, 1, 10 * US, SIRQ_TIMER, 0, 0);
	match_softirq_entry(m, 1, 20 * US, SIRQ_TIMER, 0);
	/* raised again while its handler runs: that raise is for the next entry */
	match_softirq_raise(m, 1, 25 * US, SIRQ_TIMER, 0, 0);
	match_softirq_exit(m, 1, 30 * US, SIRQ_TIMER, 0);
	match_softirq_entry(m, 1, 32 * US, SIRQ_TIMER, 0);
	match_softirq_exit(m, 1, 33 * US, SIRQ_TIMER, 0);
	g = sirq_group_get(m, 1, SIRQ_TIMER);
	assert_int_equal(g->delay.count, 2);
	assert_int_equal(g->delay.min, 7 * US);
	assert_int_equal(g->delay.max, 10 * US);
	assert_int_equal(g->runtime.count, 2);
	/* per CPU: CPU 0 saw nothing */
	assert_null(sirq_group_get(m, 0, SIRQ_TIMER));
}

static void test_raise_on_other_cpu_is_separate(void **state)
{
	struct matcher *m = *state;

	match_softirq_raise(m, 0, 10 * US, SIRQ_SCHED, 0, 0);
	match_softirq_entry(m, 1, 20 * US, SIRQ_SCHED, 0);
	assert_int_equal(m->n.sirq_entry_no_raise, 1);
	matcher_finish(m);
	assert_int_equal(m->n.sirq_raise_open, 1);
	assert_int_equal(m->n.sirq_entry_open, 1);
}

static void test_ksoftirqd(void **state)
{
	struct matcher *m = *state;
	struct sirq_group *g;

	comm(m, 15, "ksoftirqd/1");
	match_softirq_raise(m, 1, 10 * US, SIRQ_RCU, 0, 0);
	match_softirq_entry(m, 1, 3010 * US, SIRQ_RCU, 15);
	match_softirq_exit(m, 1, 6010 * US, SIRQ_RCU, 0);
	match_softirq_raise(m, 1, 7000 * US, SIRQ_RCU, 0, 0);
	match_softirq_entry(m, 1, 7001 * US, SIRQ_RCU, 999);
	match_softirq_exit(m, 1, 7002 * US, SIRQ_RCU, 0);
	g = sirq_group_get(m, 1, SIRQ_RCU);
	assert_int_equal(g->entries, 2);
	assert_int_equal(g->ksoftirqd, 1);
	/* 3 ms run: longer than MAX_SOFTIRQ_TIME */
	assert_int_equal(g->long_runs, 1);
	/* ksoftirqd/1's pid on CPU 0 is not "in ksoftirqd" for CPU 0 */
	match_softirq_raise(m, 0, 8000 * US, SIRQ_RCU, 0, 0);
	match_softirq_entry(m, 0, 8001 * US, SIRQ_RCU, 15);
	assert_int_equal(sirq_group_get(m, 0, SIRQ_RCU)->ksoftirqd, 0);
}

static void test_exit_without_entry(void **state)
{
	struct matcher *m = *state;

	match_softirq_exit(m, 0, 5 * US, SIRQ_BLOCK, 0);
	assert_int_equal(m->n.sirq_exit_no_entry, 1);
	match_softirq_raise(m, 0, 6 * US, SIRQ_BLOCK, 0, 0);
	match_softirq_entry(m, 0, 7 * US, SIRQ_BLOCK, 0);
	/* an exit of another vector does not close this entry */
	match_softirq_exit(m, 0, 8 * US, SIRQ_TIMER, 0);
	assert_int_equal(m->n.sirq_exit_no_entry, 2);
	assert_int_equal(matcher_unmatched(m), 2);
}

static void test_work_requeued_while_running(void **state)
{
	struct matcher *m = *state;
	struct wq_group *g;

	comm(m, 10, "kworker/u4:1");
	comm(m, 11, "kworker/u4:2");
	match_wq_queue(m, 0, 100 * US, 1, WORK, FUNC, "events_unbound", 15);
	match_wq_activate(m, 0, 100 * US + 200, WORK);
	match_wq_start(m, 1, 110 * US, 10, false, WORK, FUNC);
	/* queued again while the first execution runs */
	match_wq_queue(m, 0, 120 * US, 1, WORK, FUNC, "events_unbound", 15);
	match_wq_activate(m, 0, 120 * US + 100, WORK);
	match_wq_end(m, 1, 130 * US, 10, false, WORK);
	match_wq_start(m, 0, 150 * US, 11, false, WORK, FUNC);
	match_wq_end(m, 0, 155 * US, 11, false, WORK);
	g = only_group(m);
	assert_string_equal(m->wq_names[g->wq], "events_unbound");
	assert_int_equal(POOL_KIND(g->pool), POOL_UNBOUND);
	assert_int_equal(POOL_NUM(g->pool), 4);
	assert_int_equal(g->delay.count, 2);
	assert_int_equal(g->delay.min, 10 * US);
	assert_int_equal(g->delay.max, 30 * US);
	assert_int_equal(g->runtime.count, 2);
	assert_int_equal(g->runtime.min, 5 * US);
	assert_int_equal(g->runtime.max, 20 * US);
	/* activated inside queue_work: no hold-back */
	assert_int_equal(g->activate_wait.max, 0);
	assert_int_equal(g->worker_wait.min, 10 * US);
	assert_int_equal(matcher_unmatched(m), 0);
	assert_int_equal(m->n.wq_superseded, 0);
}

static void test_max_active_holdback(void **state)
{
	struct matcher *m = *state;
	struct wq_group *g;

	comm(m, 20, "kworker/0:2");
	match_wq_queue(m, 0, 100 * US, 1, WORK, FUNC, "writeback", 9);
	/* held back: another item's completion activates it later */
	match_wq_start(m, 0, 101 * US, 20, false, WORK + 64, FUNC2);
	match_wq_end(m, 0, 140 * US, 20, false, WORK + 64);
	match_wq_activate(m, 0, 140 * US + 50, WORK);
	match_wq_start(m, 0, 145 * US, 20, false, WORK, FUNC);
	match_wq_end(m, 0, 146 * US, 20, false, WORK);
	g = only_group(m);
	assert_int_equal(g->activate_wait.count, 1);
	assert_int_equal(g->activate_wait.min, 40 * US + 50);
	assert_int_equal(g->worker_wait.min, 5 * US - 50);
	assert_int_equal(g->delay.min, 45 * US);
	assert_int_equal(POOL_KIND(g->pool), POOL_PERCPU);
	/* the item started without a queue event is unmatched, and named */
	assert_int_equal(m->n.wq_start_no_queue, 1);
	assert_int_equal(m->nfuncs, 2);
}

static void test_unmatched_and_barriers(void **state)
{
	struct matcher *m = *state;

	m->barrier_func = FUNC2;
	comm(m, 30, "kworker/1:1H");
	match_wq_start(m, 1, 10 * US, 30, false, WORK, FUNC2);
	match_wq_end(m, 1, 11 * US, 30, false, WORK);
	assert_int_equal(m->n.wq_barriers, 1);
	assert_int_equal(m->n.wq_start_no_queue, 0);
	match_wq_end(m, 1, 12 * US, 30, false, WORK);
	assert_int_equal(m->n.wq_end_no_start, 1);
	match_wq_activate(m, 1, 13 * US, WORK + 8);
	assert_int_equal(m->n.wq_activate_no_queue, 1);
	/* queued twice without running: cancelled or re-grabbed, not unmatched */
	match_wq_queue(m, 1, 14 * US, 1, WORK, FUNC, "events", 6);
	match_wq_queue(m, 1, 15 * US, 1, WORK, FUNC, "events", 6);
	assert_int_equal(m->n.wq_superseded, 1);
	assert_int_equal(matcher_unmatched(m), 2);
	matcher_finish(m);
	assert_int_equal(m->n.wq_queued_open, 1);
}

static void test_bh_and_pools(void **state)
{
	struct matcher *m = *state;
	uint32_t pool;
	char buf[32];
	int cpu;

	/* BH work runs in softirq on top of whatever task was interrupted */
	comm(m, 40, "kworker/0:1");
	match_wq_queue(m, 0, 10 * US, 1, WORK, FUNC, "events_bh", 9);
	match_wq_activate(m, 0, 10 * US, WORK);
	match_wq_start(m, 0, 12 * US, 40, true, WORK, FUNC);
	match_wq_end(m, 0, 13 * US, 40, true, WORK);
	assert_int_equal(POOL_KIND(only_group(m)->pool), POOL_BH);
	assert_string_equal(match_pool_name(only_group(m)->pool, buf, sizeof(buf)), "bh0");
	assert_int_equal(match_comm_classify("kworker/3:2H", &pool, &cpu), COMM_KWORKER);
	assert_string_equal(match_pool_name(pool, buf, sizeof(buf)), "cpu3H");
	assert_int_equal(match_comm_classify("kworker/u17:0-events_unbound", &pool, &cpu),
			 COMM_KWORKER);
	assert_string_equal(match_pool_name(pool, buf, sizeof(buf)), "unbound17");
	assert_int_equal(match_comm_classify("kworker/R-kblockd", &pool, &cpu), COMM_KWORKER);
	assert_int_equal(POOL_KIND(pool), POOL_RESCUER);
	assert_int_equal(match_comm_classify("ksoftirqd/12", &pool, &cpu), COMM_KSOFTIRQD);
	assert_int_equal(cpu, 12);
	assert_int_equal(match_comm_classify("kworker/dying", &pool, &cpu), COMM_OTHER);
	assert_int_equal(match_comm_classify("bash", &pool, &cpu), COMM_OTHER);
	/* an unknown worker is reported as such, not guessed */
	match_wq_queue(m, 1, 20 * US, 1, WORK + 8, FUNC, "events", 6);
	match_wq_start(m, 1, 21 * US, 777, false, WORK + 8, FUNC);
	assert_int_equal(POOL_KIND(m->groups[1]->pool), POOL_UNKNOWN);
}

static void test_missed_events_reset(void **state)
{
	struct matcher *m = *state;

	match_softirq_raise(m, 0, 10 * US, SIRQ_NET_TX, 0, 0);
	match_missed(m, 0, 42);
	/* the raise may have been consumed by an entry we lost: do not pair across */
	match_softirq_entry(m, 0, 20 * US, SIRQ_NET_TX, 0);
	assert_int_equal(m->n.sirq_entry_no_raise, 1);
	assert_int_equal(m->n.missed_events, 42);
	match_missed(m, 1, -1);
	assert_int_equal(m->n.missed_unknown, 1);
}

static void test_thread_wakeup(void **state)
{
	struct matcher *m = *state;
	static const char ks[16] = "ksoftirqd/1", kw[16] = "kworker/u4:1", sh[16] = "bash";

	match_sched_wakeup(m, 100, 15, ks, 16);
	match_sched_switch(m, 0, 150, 0, 15, ks, 16);
	assert_non_null(m->ksoftirqd_wake[1]);
	assert_int_equal(m->ksoftirqd_wake[1]->count, 1);
	assert_int_equal(m->ksoftirqd_wake[1]->min, 50);
	/* woken while still running: the wakeup ends at its switch-out, no sample */
	match_sched_wakeup(m, 200, 10, kw, 16);
	match_sched_switch(m, 0, 210, 10, 0, "swapper/0", 10);
	match_sched_switch(m, 0, 300, 0, 10, kw, 16);
	assert_int_equal(m->nwake, 0);
	match_sched_wakeup(m, 400, 10, kw, 16);
	match_sched_switch(m, 0, 470, 0, 10, kw, 16);
	assert_int_equal(m->nwake, 1);
	assert_int_equal(POOL_KIND(m->wake[0]->pool), POOL_UNBOUND);
	assert_int_equal(m->wake[0]->wake.min, 70);
	/* other tasks are not timed */
	match_sched_wakeup(m, 500, 77, sh, 16);
	match_sched_switch(m, 0, 900, 0, 77, sh, 16);
	assert_int_equal(m->nwake, 1);
	/* the idle tasks (pid 0, swapper/N) are not tracked */
	match_sched_switch(m, 0, 950, 77, 0, "swapper/1", 10);
	assert_null(map_get(&m->comms, 0));
	assert_int_equal(m->n.events[EV_SCHED_SWITCH], 6);
	assert_int_equal(m->n.events[EV_SCHED_WAKEUP], 4);
}

struct ival_seen {
	int calls;
	int ctx_calls;		/* the TIMER vector's inline context, reported beside it */
	int wait_calls;		/* its delays split into causes, per interval */
	uint64_t wait_count[8];
	uint64_t interval[8];
	uint64_t count[8];
};

static void ival_cb_fn(void *ctx, uint64_t interval, enum ival_kind kind, uint32_t key,
		       const struct hist *delay, const struct hist *runtime)
{
	struct ival_seen *s = ctx;

	(void)runtime;
	if (kind == IVAL_CONTEXT) {
		s->ctx_calls++;
		return;
	}
	if (kind == IVAL_WAIT) {
		assert_int_equal(key, SIRQ_TIMER);
		if (s->wait_calls < 8)
			s->wait_count[s->wait_calls] = delay->count;
		s->wait_calls++;
		return;
	}
	assert_int_equal(kind, IVAL_SOFTIRQ);
	assert_int_equal(key, SIRQ_TIMER);
	if (s->calls < 8) {
		s->interval[s->calls] = interval;
		s->count[s->calls] = delay->count;
	}
	s->calls++;
}

/*
 * issue 10.4: a longer name must not be compared past the end of a shorter stored one
 * (an over-read AddressSanitizer reports; make test runs this under it)
 */
static void test_wq_names(void **state)
{
	struct matcher *m = *state;
	char raw[80];

	match_wq_queue(m, 0, 10 * US, 1, WORK, FUNC, "events\0", 7);
	match_wq_queue(m, 0, 11 * US, 1, WORK + 8, FUNC, "events_unbound\0", 15);
	match_wq_queue(m, 0, 12 * US, 1, WORK + 16, FUNC, "events_freezable_power_efficient", 32);
	match_wq_queue(m, 0, 13 * US, 1, WORK + 24, FUNC, "events", 6);
	assert_int_equal(m->nwq, 3);
	assert_string_equal(m->wq_names[0], "events");
	assert_string_equal(m->wq_names[1], "events_unbound");
	/* a damaged capture's name: cut, and no control character reaches the terminal */
	memset(raw, 'x', sizeof(raw));
	raw[0] = '\x1b';
	match_wq_queue(m, 0, 14 * US, 1, WORK + 32, FUNC, raw, sizeof(raw));
	assert_int_equal(m->nwq, 4);
	assert_int_equal(strlen(m->wq_names[3]), 63);
	assert_int_equal(m->wq_names[3][0], '?');
}

static void test_intervals(void **state)
{
	struct ival_seen seen = { 0 };
	struct matcher m;
	uint64_t t0 = 1000000000ULL, ts;
	int i;

	(void)state;
	assert_int_equal(matcher_init(&m, 1, t0, 1000000000ULL, ival_cb_fn, &seen), 0);
	/* 3 events in interval 0, none in 1, 2 in interval 2 */
	for (i = 0; i < 5; i++) {
		ts = t0 + (i < 3 ? i * 100 * US : 2000000000ULL + i * 100 * US);
		match_tick(&m, ts);
		match_softirq_raise(&m, 0, ts, SIRQ_TIMER, 0, 0);
		match_softirq_entry(&m, 0, ts + US, SIRQ_TIMER, 0);
		match_softirq_exit(&m, 0, ts + 2 * US, SIRQ_TIMER, 0);
	}
	matcher_finish(&m);
	assert_int_equal(seen.calls, 2);
	assert_int_equal(seen.ctx_calls, 2);
	assert_int_equal(seen.interval[0], 0);
	assert_int_equal(seen.count[0], 3);
	assert_int_equal(seen.interval[1], 2);
	assert_int_equal(seen.count[1], 2);
	/* each interval's delays split into causes, for each arm of an alternating run */
	assert_int_equal(seen.wait_calls, 2);
	assert_int_equal(seen.wait_count[0], 3);
	assert_int_equal(seen.wait_count[1], 2);
	/* the whole-run histogram holds everything */
	assert_int_equal(sirq_group_get(&m, 0, SIRQ_TIMER)->delay.count, 5);
	matcher_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_several_raises_one_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reraise_during_handler, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raise_on_other_cpu_is_separate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ksoftirqd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exit_without_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_work_requeued_while_running, setup, teardown),
		cmocka_unit_test_setup_teardown(test_max_active_holdback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmatched_and_barriers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bh_and_pools, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missed_events_reset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_thread_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wq_names, setup, teardown),
		cmocka_unit_test(test_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
