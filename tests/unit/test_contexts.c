// SPDX-License-Identifier: GPL-2.0
/*
 * test_contexts.c - the execution contexts of deferred work (match_ctx.c): the pairing
 * rules of softirqs inline or in ksoftirqd, tasklets, NAPI polls, napi/ and irq/
 * threads, hard interrupt handlers, on synthetic event sequences.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match.h"

#define FUNC 0xffffffff81300000ULL
#define F_SIRQ (TRACE_FL_SOFTIRQ | 0x01)

static int setup(void **state)
{
	struct matcher *m = malloc(sizeof(*m));

	if (!m || matcher_init(m, 2, 0, 0, NULL, NULL))
		return -1;
	match_comm(m, 15, "ksoftirqd/1", 11);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	matcher_free(*state);
	free(*state);
	return 0;
}

/* find - the context group (kind, where, name), or NULL */
static const struct ctx_group *find(const struct matcher *m, enum ctx_kind kind,
				    enum ctx_where where, const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nctx; i++) {
		const struct ctx_group *g = m->ctx[i];

		if (g->kind == kind && g->where == where &&
		    (!name || !strcmp(ctx_name(m, g), name)))
			return g;
	}
	return NULL;
}

static void test_softirq_inline_and_ksoftirqd(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *in, *ks;

	match_softirq_raise(m, 1, 100, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 1, 110, SIRQ_NET_RX, 0);
	match_softirq_exit(m, 1, 140, SIRQ_NET_RX, 0);
	match_softirq_raise(m, 1, 200, SIRQ_NET_RX, F_SIRQ, 0);
	match_softirq_entry(m, 1, 2700, SIRQ_NET_RX, 15);
	match_softirq_exit(m, 1, 5000, SIRQ_NET_RX, 15);
	/* ksoftirqd/1 on CPU 0 is not CPU 0's ksoftirqd */
	match_softirq_raise(m, 0, 6000, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 6007, SIRQ_NET_RX, 15);
	in = find(m, CTX_SOFTIRQ, WHERE_INLINE, "NET_RX");
	ks = find(m, CTX_SOFTIRQ, WHERE_KSOFTIRQD, "NET_RX");
	assert_non_null(in);
	assert_non_null(ks);
	/* each context its own delay histogram */
	assert_int_equal(in->count, 2);
	assert_int_equal(in->delay.count, 2);
	assert_int_equal(in->delay.min, 7);
	assert_int_equal(in->delay.max, 10);
	assert_int_equal(in->runtime.count, 1);
	assert_int_equal(ks->count, 1);
	assert_int_equal(ks->delay.min, 2500);
	assert_int_equal(ks->runtime.min, 2300);
	assert_int_equal(ks->long_runs, 0);
}

static void test_tasklet(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_softirq_raise(m, 0, 100, SIRQ_TASKLET, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 150, SIRQ_TASKLET, 0);
	match_tasklet_entry(m, 0, 160, FUNC);
	match_tasklet_exit(m, 0, 190, FUNC);
	match_tasklet_entry(m, 0, 195, FUNC);
	match_tasklet_exit(m, 0, 200, FUNC);
	match_softirq_exit(m, 0, 210, SIRQ_TASKLET, 0);
	g = find(m, CTX_TASKLET, WHERE_TASKLET, NULL);
	assert_non_null(g);
	assert_int_equal(m->funcs[g->name].addr, FUNC);
	assert_int_equal(g->count, 2);
	/* from the raise the enclosing softirq consumed */
	assert_int_equal(g->delay.min, 60);
	assert_int_equal(g->delay.max, 95);
	assert_int_equal(g->runtime.min, 5);
	assert_int_equal(g->runtime.max, 30);
	/* HI tasklets are told apart; an exit without entry is unmatched */
	match_softirq_raise(m, 0, 300, SIRQ_HI, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 301, SIRQ_HI, 0);
	match_tasklet_entry(m, 0, 302, FUNC);
	match_softirq_exit(m, 0, 303, SIRQ_HI, 0);
	match_tasklet_exit(m, 0, 304, FUNC);
	assert_non_null(find(m, CTX_TASKLET, WHERE_HI, NULL));
	assert_int_equal(m->n.tasklet_exit_no_entry, 1);
	/* a tasklet outside a softirq run */
	match_tasklet_entry(m, 1, 400, FUNC);
	assert_int_equal(m->n.tasklet_no_softirq, 1);
	assert_int_equal(matcher_unmatched(m), 1);
}

static void test_napi_threaded(void **state)
{
	static const char napi[16] = "napi/veth0-8193";
	struct matcher *m = *state;
	const struct ctx_group *th, *poll;

	match_sched_wakeup(m, 1000, 200, napi, 16);
	match_sched_switch(m, 0, 1050, 0, 200, napi, 16);
	match_napi_poll(m, 0, 1080, 200, 0x80, "veth0", 6, 3, 64);
	match_napi_poll(m, 0, 1100, 200, 0x80, "veth0", 6, 64, 64);
	match_sched_switch(m, 0, 1120, 200, 0, "swapper/0", 16);
	/* named by the device it polls (comms are cut at 15 characters) */
	th = find(m, CTX_NAPI_THREAD, WHERE_NONE, "veth0");
	poll = find(m, CTX_NAPI_POLL, WHERE_THREAD, "veth0");
	assert_non_null(th);
	assert_non_null(poll);
	/* wakeup -> running, and the time it ran */
	assert_int_equal(th->count, 1);
	assert_int_equal(th->delay.min, 50);
	assert_int_equal(th->runtime.min, 70);
	/* polls: from the switch-in, then poll to poll; work against budget */
	assert_int_equal(poll->count, 2);
	assert_int_equal(poll->runtime.min, 20);
	assert_int_equal(poll->runtime.max, 30);
	assert_int_equal(poll->work, 67);
	assert_int_equal(poll->budget_full, 1);
	assert_int_equal(poll->budget, 64);
	/* the kworker wakeup table is not where napi threads go */
	assert_int_equal(m->nwake, 0);
	/* a napi thread that never polls is named by its comm at the end */
	match_sched_wakeup(m, 2000, 201, "napi/veth1-8194", 16);
	match_sched_switch(m, 1, 2010, 0, 201, "napi/veth1-8194", 16);
	assert_null(find(m, CTX_NAPI_THREAD, WHERE_NONE, "napi/veth1-8194"));
	matcher_finish(m);
	th = find(m, CTX_NAPI_THREAD, WHERE_NONE, "napi/veth1-8194");
	assert_non_null(th);
	assert_int_equal(th->delay.min, 10);
}

static void test_napi_softirq_and_busy_poll(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_softirq_raise(m, 1, 1990, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 5);
	match_softirq_entry(m, 1, 2000, SIRQ_NET_RX, 5);
	match_napi_poll(m, 1, 2010, 5, F_SIRQ, "eth0", 5, 1, 64);
	match_napi_poll(m, 1, 2030, 5, F_SIRQ, "eth1", 5, 2, 64);
	match_softirq_exit(m, 1, 2040, SIRQ_NET_RX, 5);
	g = find(m, CTX_NAPI_POLL, WHERE_SOFTIRQ, "eth0");
	assert_int_equal(g->runtime.min, 10);
	g = find(m, CTX_NAPI_POLL, WHERE_SOFTIRQ, "eth1");
	assert_int_equal(g->runtime.min, 20);
	/* in ksoftirqd */
	match_softirq_raise(m, 1, 2100, SIRQ_NET_RX, F_SIRQ, 5);
	match_softirq_entry(m, 1, 2200, SIRQ_NET_RX, 15);
	match_napi_poll(m, 1, 2204, 15, F_SIRQ, "eth0", 5, 1, 64);
	assert_int_equal(find(m, CTX_NAPI_POLL, WHERE_KSOFTIRQD, "eth0")->runtime.min, 4);
	match_softirq_exit(m, 1, 2210, SIRQ_NET_RX, 15);
	/* a busy poll from a task: its first poll has no start, the next one has */
	match_sched_switch(m, 0, 2900, 0, 300, "app", 3);
	match_napi_poll(m, 0, 3000, 300, 0x81, "eth0", 5, 0, 8);
	match_napi_poll(m, 0, 3020, 300, 0x81, "eth0", 5, 1, 8);
	g = find(m, CTX_NAPI_POLL, WHERE_BUSY_POLL, "eth0");
	assert_int_equal(g->count, 2);
	assert_int_equal(g->runtime.count, 1);
	assert_int_equal(g->runtime.min, 20);
}

static void test_irq_thread_and_hardirq(void **state)
{
	static const char it[16] = "irq/25-virtio0";
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_irq_entry(m, 1, 10, 25, "virtio0\0\0\0", 10);
	match_irq_exit(m, 1, 15, 25);
	match_sched_wakeup(m, 16, 400, it, 16);
	match_sched_switch(m, 1, 40, 0, 400, it, 16);
	match_sched_switch(m, 1, 90, 400, 0, "swapper/1", 16);
	g = find(m, CTX_HARDIRQ, WHERE_NONE, "25:virtio0");
	assert_non_null(g);
	assert_int_equal(g->count, 1);
	assert_int_equal(g->runtime.min, 5);
	g = find(m, CTX_IRQ_THREAD, WHERE_NONE, "irq/25-virtio0");
	assert_non_null(g);
	assert_int_equal(g->delay.min, 24);
	assert_int_equal(g->runtime.min, 50);
	match_irq_entry(m, 0, 100, -1, NULL, 0);
	match_irq_exit(m, 0, 103, -1);
	assert_int_equal(find(m, CTX_HARDIRQ, WHERE_NONE, "local_timer")->runtime.min, 3);
	match_irq_exit(m, 0, 104, -1);
	assert_int_equal(m->n.irq_exit_no_entry, 1);
	assert_int_equal(m->n.events[EV_TIMER_IRQ_EXIT], 2);
}

static void test_classify(void **state)
{
	uint32_t pool;
	int cpu;

	(void)state;
	assert_int_equal(match_comm_classify("napi/veth0-8193", &pool, &cpu), COMM_NAPI);
	assert_int_equal(match_comm_classify("irq/25-virtio0-i", &pool, &cpu), COMM_IRQ_THREAD);
	assert_int_equal(match_comm_classify("irq/", &pool, &cpu), COMM_OTHER);
	assert_int_equal(match_comm_classify("irqbalance", &pool, &cpu), COMM_OTHER);
	assert_int_equal(match_comm_classify("napi/", &pool, &cpu), COMM_OTHER);
	assert_int_equal(ctx_kind_from_name("napi_thread"), CTX_NAPI_THREAD);
	assert_int_equal(ctx_kind_from_name("nope"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_softirq_inline_and_ksoftirqd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tasklet, setup, teardown),
		cmocka_unit_test_setup_teardown(test_napi_threaded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_napi_softirq_and_busy_poll, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_thread_and_hardirq, setup, teardown),
		cmocka_unit_test(test_classify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
