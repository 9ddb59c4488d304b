// SPDX-License-Identifier: GPL-2.0
/*
 * test_sirq_wait.c - why a softirq waited: synthetic event sequences in which every
 * cause of a delay is known, and the split must give each exactly and add up to the
 * delay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match.h"

#define F_HI (TRACE_FL_HARDIRQ | 0x01)		/* in a hard irq, irqs off */
#define F_SIRQ (TRACE_FL_SOFTIRQ | 0x01)	/* in a softirq handler */
#define F_BH (TRACE_FL_BH_OFF | 0x01)		/* a task inside local_bh_disable() */

static int setup(void **state)
{
	struct matcher *m = malloc(sizeof(*m));

	if (!m || matcher_init(m, 2, 0, 0, NULL, NULL))
		return -1;
	match_comm(m, 15, "ksoftirqd/1", 11);
	match_comm(m, 77, "iperf3", 6);
	match_comm(m, 88, "deferbench", 10);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	matcher_free(*state);
	free(*state);
	return 0;
}

/* sums_up - the causes of every vector add up to its delays, and the split is complete */
static void sums_up(const struct matcher *m)
{
	uint64_t sum;
	int v, k;

	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!m->wait[v])
			continue;
		for (sum = 0, k = 0; k < WAIT_NR; k++)
			sum += m->wait[v]->cause_ns[k];
		assert_int_equal(sum, m->wait[v]->delay_ns);
	}
	assert_int_equal(m->n.wait_inconsistent, 0);
}

/* hard irqs, a higher-priority vector, and the irq exit path */
static void test_hardirq_and_higher(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_irq_entry(m, 0, 1000, 25, "virtio0", 7);
	match_softirq_raise(m, 0, 1010, SIRQ_NET_RX, F_HI, 50);
	match_softirq_raise(m, 0, 1015, SIRQ_TIMER, F_HI, 50);
	match_irq_exit(m, 0, 1030, 25);
	/* irq exit: TIMER (higher priority) first; a timer interrupt inside it */
	match_softirq_entry(m, 0, 1040, SIRQ_TIMER, 50);
	match_irq_entry(m, 0, 1100, -1, NULL, 0);
	match_irq_exit(m, 0, 1120, -1);
	match_softirq_exit(m, 0, 1150, SIRQ_TIMER, 50);
	match_softirq_entry(m, 0, 1160, SIRQ_NET_RX, 50);
	match_softirq_exit(m, 0, 1170, SIRQ_NET_RX, 50);
	w = m->wait[SIRQ_NET_RX];
	assert_non_null(w);
	assert_int_equal(w->delays, 1);
	assert_int_equal(w->delay_ns, 150);
	/* 1010-1030 in irq 25, 1100-1120 in the timer interrupt */
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 40);
	/* TIMER ran 1040-1150 less its 20 ns interrupt */
	assert_int_equal(w->cause_ns[WAIT_SIRQ_HIGHER], 90);
	/* 1030-1040 (irq exit) and 1150-1160 (the loop): neither BH nor ksoftirqd */
	assert_int_equal(w->cause_ns[WAIT_OTHER], 20);
	assert_int_equal(w->cause_ns[WAIT_SIRQ_LOWER], 0);
	assert_int_equal(w->cause_ns[WAIT_BH_DISABLED], 0);
	assert_int_equal(w->origin[ORIG_HARDIRQ], 1);
	assert_int_equal(w->origin_ns[ORIG_HARDIRQ], 150);
	/* TIMER's own delay: 15 ns of irq 25, 10 of irq exit */
	w = m->wait[SIRQ_TIMER];
	assert_int_equal(w->delay_ns, 25);
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 15);
	assert_int_equal(w->cause_ns[WAIT_OTHER], 10);
	/* per delay, the part of each cause */
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause[WAIT_SIRQ_HIGHER].count, 1);
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause[WAIT_SIRQ_HIGHER].max, 90);
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause[WAIT_KSOFTIRQD_WAIT].count, 0);
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause[WAIT_RAISED_IN].count, 0);
	sums_up(m);
}

/*
 * raised inside a lower-priority handler, then inside its own: both times it waits for
 * the rest of the handler it was raised in, which no vector can interrupt (no inversion)
 */
static void test_raised_in_handler(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 1, 1990, SIRQ_RCU, F_HI, 0);
	match_softirq_entry(m, 1, 2000, SIRQ_RCU, 0);
	/* an interrupt during RCU's handler raises NET_RX */
	match_irq_entry(m, 1, 2040, 30, "eth0", 4);
	match_softirq_raise(m, 1, 2050, SIRQ_NET_RX, F_HI | TRACE_FL_SOFTIRQ, 0);
	match_irq_exit(m, 1, 2060, 30);
	match_softirq_exit(m, 1, 2100, SIRQ_RCU, 0);
	match_softirq_entry(m, 1, 2105, SIRQ_NET_RX, 0);
	/* NET_RX raises itself (budget used up) and runs again after the loop restarts */
	match_softirq_raise(m, 1, 2110, SIRQ_NET_RX, F_SIRQ, 0);
	match_softirq_exit(m, 1, 2130, SIRQ_NET_RX, 0);
	match_softirq_entry(m, 1, 2135, SIRQ_NET_RX, 0);
	match_softirq_exit(m, 1, 2140, SIRQ_NET_RX, 0);
	w = m->wait[SIRQ_NET_RX];
	assert_int_equal(w->delays, 2);
	assert_int_equal(w->delay_ns, 55 + 25);
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 10);
	/* RCU's run 2060-2100 after the raise, then NET_RX's own 2110-2130 */
	assert_int_equal(w->cause_ns[WAIT_RAISED_IN], 40 + 20);
	assert_int_equal(w->cause[WAIT_RAISED_IN].count, 2);
	assert_int_equal(w->cause_ns[WAIT_SIRQ_LOWER], 0);
	/* 2100-2105 and 2130-2135 between handlers */
	assert_int_equal(w->cause_ns[WAIT_OTHER], 10);
	assert_int_equal(w->origin[ORIG_HARDIRQ], 1);
	assert_int_equal(w->origin[ORIG_SOFTIRQ], 1);
	sums_up(m);
}

/* re-raised at the end of its run, then a lower vector that was pending runs first */
static void test_lower_after_reraise(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 0, 100, SIRQ_RCU, F_HI, 0);
	match_softirq_raise(m, 0, 101, SIRQ_NET_RX, F_HI, 0);
	match_softirq_entry(m, 0, 105, SIRQ_NET_RX, 0);
	match_softirq_raise(m, 0, 110, SIRQ_NET_RX, F_SIRQ, 0);
	match_softirq_exit(m, 0, 130, SIRQ_NET_RX, 0);
	match_softirq_entry(m, 0, 132, SIRQ_RCU, 0);
	match_softirq_exit(m, 0, 150, SIRQ_RCU, 0);
	match_softirq_entry(m, 0, 155, SIRQ_NET_RX, 0);
	w = m->wait[SIRQ_NET_RX];
	assert_int_equal(w->delays, 2);
	/* the second wait: its own run 110-130, RCU 132-150, the loop 2 + 5 */
	assert_int_equal(w->cause_ns[WAIT_RAISED_IN], 20);
	assert_int_equal(w->cause_ns[WAIT_SIRQ_LOWER], 18);
	assert_int_equal(w->cause_ns[WAIT_OTHER], 4 + 7);
	/* RCU waited behind NET_RX's first run (higher), not in it: raised before it */
	w = m->wait[SIRQ_RCU];
	assert_int_equal(w->cause_ns[WAIT_SIRQ_HIGHER], 25);
	assert_int_equal(w->cause_ns[WAIT_RAISED_IN], 0);
	sums_up(m);
}

/* raised from a task: ksoftirqd is woken, runs another vector first, then this one */
static void test_ksoftirqd_wait_and_run(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 1, 90, SIRQ_RCU, F_HI, 300);
	match_softirq_raise(m, 1, 100, SIRQ_SCHED, 0x01, 300);
	match_sched_wakeup(m, 100, 15, "ksoftirqd/1", 11);
	/* other tasks run until ksoftirqd gets the CPU at 150 */
	match_sched_switch(m, 1, 150, 300, 15, "ksoftirqd/1", 11);
	match_softirq_entry(m, 1, 160, SIRQ_RCU, 15);
	match_softirq_exit(m, 1, 200, SIRQ_RCU, 15);
	match_softirq_entry(m, 1, 210, SIRQ_SCHED, 15);
	match_softirq_exit(m, 1, 220, SIRQ_SCHED, 15);
	match_sched_switch(m, 1, 225, 15, 300, "iperf3", 6);
	w = m->wait[SIRQ_SCHED];
	assert_int_equal(w->delay_ns, 110);
	assert_int_equal(w->cause_ns[WAIT_KSOFTIRQD_WAIT], 50);
	/* RCU's handler in ksoftirqd, and ksoftirqd's own 150-160 and 200-210 */
	assert_int_equal(w->cause_ns[WAIT_KSOFTIRQD_RUN], 40 + 20);
	assert_int_equal(w->cause_ns[WAIT_SIRQ_LOWER], 0);
	assert_int_equal(w->origin[ORIG_TASK], 1);
	/* ksoftirqd's time after the switch out is not counted again */
	match_softirq_raise(m, 1, 300, SIRQ_SCHED, 0x01, 300);
	match_softirq_entry(m, 1, 330, SIRQ_SCHED, 15);
	assert_int_equal(w->cause_ns[WAIT_KSOFTIRQD_WAIT], 50 + 30);
	sums_up(m);
}

/* the vector ran inline in deferbench's own capture thread: that part is named */
static void test_own_threads(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 0, 500, SIRQ_NET_RX, 0x01, 88);
	match_irq_entry(m, 0, 560, 25, "virtio0", 7);
	match_irq_exit(m, 0, 570, 25);
	match_softirq_entry(m, 0, 575, SIRQ_NET_RX, 88);
	w = m->wait[SIRQ_NET_RX];
	assert_int_equal(w->delay_ns, 75);
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 10);
	assert_int_equal(w->cause_ns[WAIT_OWN], 65);
	assert_int_equal(w->cause_ns[WAIT_OTHER], 0);
	sums_up(m);
}

/* a task's local_bh_disable() section holds NET_RX back: the task is named */
static void test_bh_disabled_task(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 0, 3000, SIRQ_NET_RX, F_BH, 77);
	match_irq_entry(m, 0, 3100, 25, "virtio0", 7);
	match_irq_exit(m, 0, 3110, 25);
	/* local_bh_enable() runs the softirq in the same task */
	match_softirq_entry(m, 0, 3300, SIRQ_NET_RX, 77);
	match_softirq_exit(m, 0, 3310, SIRQ_NET_RX, 77);
	/* a second section of a task never seen by name */
	match_softirq_raise(m, 0, 4000, SIRQ_NET_RX, F_BH, 4242);
	match_softirq_entry(m, 0, 4050, SIRQ_NET_RX, 4242);
	w = m->wait[SIRQ_NET_RX];
	assert_int_equal(w->delay_ns, 300 + 50);
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 10);
	assert_int_equal(w->cause_ns[WAIT_BH_DISABLED], 290 + 50);
	assert_int_equal(w->origin[ORIG_TASK_BH_OFF], 2);
	assert_int_equal(w->ntasks, 2);
	assert_string_equal(w->task[0].comm, "iperf3");
	assert_int_equal(w->task[0].delays, 1);
	assert_int_equal(w->task[0].total_ns, 290);
	assert_int_equal(w->task[0].max_ns, 290);
	assert_string_equal(w->task[1].comm, "pid 4242");
	assert_int_equal(w->task[1].total_ns, 50);
	sums_up(m);
}

/* the section ends, then the vector is left to ksoftirqd */
static void test_bh_then_ksoftirqd(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	/* an interrupt of a BH-disabled task raises TIMER */
	match_softirq_raise(m, 1, 4000, SIRQ_TIMER, F_HI | TRACE_FL_BH_OFF, 77);
	/* local_bh_enable() at 4200 runs RCU, then TIMER goes to ksoftirqd */
	match_softirq_raise(m, 1, 4100, SIRQ_RCU, F_BH, 77);
	match_softirq_entry(m, 1, 4200, SIRQ_RCU, 77);
	match_softirq_exit(m, 1, 4250, SIRQ_RCU, 77);
	match_softirq_entry(m, 1, 4400, SIRQ_TIMER, 15);
	match_softirq_exit(m, 1, 4401, SIRQ_TIMER, 15);
	w = m->wait[SIRQ_TIMER];
	assert_int_equal(w->delay_ns, 400);
	assert_int_equal(w->cause_ns[WAIT_BH_DISABLED], 200);
	assert_int_equal(w->cause_ns[WAIT_SIRQ_LOWER], 50);
	assert_int_equal(w->cause_ns[WAIT_KSOFTIRQD_WAIT], 150);
	assert_int_equal(w->origin[ORIG_HARDIRQ], 1);
	assert_string_equal(w->task[0].comm, "iperf3");
	/* the context split sees the same run in ksoftirqd */
	assert_int_equal(sirq_group_get(m, 1, SIRQ_TIMER)->ksoftirqd, 1);
	sums_up(m);
}

/* raised from a task with bottom halves on: woken ksoftirqd runs it */
static void test_task_raise_to_ksoftirqd(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_softirq_raise(m, 1, 100, SIRQ_SCHED, 0x01, 300);
	match_softirq_entry(m, 1, 180, SIRQ_SCHED, 15);
	w = m->wait[SIRQ_SCHED];
	assert_int_equal(w->origin[ORIG_TASK], 1);
	assert_int_equal(w->cause_ns[WAIT_KSOFTIRQD_WAIT], 80);
	assert_int_equal(w->ntasks, 0);
	sums_up(m);
}

/* accounts that cannot add up (a lost exit) are counted, never forced into causes */
static void test_inconsistent(void **state)
{
	struct matcher *m = *state;

	match_softirq_raise(m, 0, 100, SIRQ_BLOCK, F_HI, 0);
	match_irq_entry(m, 0, 50, 25, "virtio0", 7);
	match_irq_exit(m, 0, 300, 25);
	match_softirq_entry(m, 0, 200, SIRQ_BLOCK, 0);
	assert_int_equal(m->n.wait_inconsistent, 1);
	assert_null(m->wait[SIRQ_BLOCK]);
	/* the delay itself is still measured */
	assert_int_equal(sirq_group_get(m, 0, SIRQ_BLOCK)->delay.count, 1);
}

static void test_origin_of(void **state)
{
	(void)state;
	assert_int_equal(sirq_origin_of(0x09), ORIG_HARDIRQ);
	assert_int_equal(sirq_origin_of(0x19), ORIG_HARDIRQ);
	assert_int_equal(sirq_origin_of(0x89), ORIG_HARDIRQ);
	assert_int_equal(sirq_origin_of(0x11), ORIG_SOFTIRQ);
	assert_int_equal(sirq_origin_of(0x91), ORIG_SOFTIRQ);
	assert_int_equal(sirq_origin_of(0x81), ORIG_TASK_BH_OFF);
	assert_int_equal(sirq_origin_of(0x01), ORIG_TASK);
	assert_int_equal(sirq_origin_of(0x41), ORIG_HARDIRQ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_hardirq_and_higher, setup, teardown),
		cmocka_unit_test_setup_teardown(test_raised_in_handler, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lower_after_reraise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ksoftirqd_wait_and_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_own_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bh_disabled_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bh_then_ksoftirqd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_task_raise_to_ksoftirqd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inconsistent, setup, teardown),
		cmocka_unit_test(test_origin_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
