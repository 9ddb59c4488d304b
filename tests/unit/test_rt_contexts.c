// SPDX-License-Identifier: GPL-2.0
/*
 * test_rt_contexts.c - the execution contexts of the kernels users run now (PREEMPT_RT
 * since 6.12, forced-threaded interrupts, backlog NAPI threads, BH workqueues): each
 * test feeds the matcher the event sequence the kernel functions it names emit, in
 * their order (read in Linux 6.18: kernel/softirq.c, net/core/dev.c, kernel/rcu/tree.c,
 * kernel/irq_work.c, kernel/irq/manage.c, kernel/workqueue.c), and checks that the work
 * is filed under the context that ran it. No RT kernel boots on the development VM:
 * these sequences, and the synthesized captures of tests/synth/, are how these
 * contexts are tested (docs/figures.md says which parts met a real RT kernel).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match.h"
#include "run_meta.h"

#define F_HI (TRACE_FL_HARDIRQ | 0x01)		/* in a hard irq, irqs off */
#define F_SIRQ (TRACE_FL_SOFTIRQ | 0x01)	/* serving a softirq */
#define F_BH TRACE_FL_BH_OFF			/* a task inside local_bh_disable() */
#define FUNC 0xffffffff81400000ULL
#define WORK 0xffff888001000000ULL

static int setup(void **state)
{
	struct matcher *m = malloc(sizeof(*m));

	if (!m || matcher_init(m, 2, 0, 0, NULL, NULL))
		return -1;
	match_comm(m, 14, "ksoftirqd/0", 11);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	matcher_free(*state);
	free(*state);
	return 0;
}

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

/* run - sched_wakeup of pid at woken, switched in at in, out at out (on cpu) */
static void run(struct matcher *m, int cpu, int pid, const char *comm, uint64_t woken,
		uint64_t in, uint64_t out)
{
	char c[16] = { 0 };

	strncpy(c, comm, 15);
	match_sched_wakeup(m, woken, pid, c, 16);
	match_sched_switch(m, cpu, in, 0, pid, c, 16);
	match_sched_switch(m, cpu, out, pid, 0, "swapper/0", 16);
}

static void test_classify(void **state)
{
	uint32_t pool;
	int cpu;

	(void)state;
	assert_int_equal(match_comm_classify("backlog_napi/1", &pool, &cpu), COMM_BACKLOG_NAPI);
	/* a comm is 15 characters: the CPU number may be cut, never the name */
	assert_int_equal(match_comm_classify("backlog_napi/12", &pool, &cpu), COMM_BACKLOG_NAPI);
	assert_int_equal(match_comm_classify("ktimers/0", &pool, &cpu), COMM_KTIMERS);
	assert_int_equal(match_comm_classify("rcuc/3", &pool, &cpu), COMM_RCUC);
	assert_int_equal(match_comm_classify("irq_work/1", &pool, &cpu), COMM_IRQ_WORK);
	assert_int_equal(match_comm_classify("rcuop/0", &pool, &cpu), COMM_OTHER);
	assert_int_equal(match_comm_classify("ktimers/x", &pool, &cpu), COMM_OTHER);
	assert_int_equal(match_comm_classify("rcu_exp_par_gp_", &pool, &cpu), COMM_OTHER);
	assert_true(comm_is_thread_ctx(COMM_KTIMERS));
	assert_false(comm_is_thread_ctx(COMM_KSOFTIRQD));
	assert_int_equal(ctx_kind_from_name("backlog_napi"), CTX_BACKLOG_NAPI);
	assert_int_equal(ctx_kind_from_name("irq_work"), CTX_IRQ_WORK);
}

/*
 * backlog NAPI (6.10, the default on PREEMPT_RT): enqueue_to_backlog() for another CPU
 * -> napi_schedule_rps() -> ____napi_schedule() wakes that CPU's backlog_napi/N thread
 * (wake_up_process); run_backlog_napi() -> napi_threaded_poll_loop() polls the backlog
 * (napi->dev NULL: "(no_device)") between local_bh_disable() and local_bh_enable(), not
 * in a softirq: BH_OFF set, SOFTIRQ clear. Not a busy poll.
 */
static void test_backlog_napi(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *th, *poll;

	match_sched_wakeup(m, 1000, 31, "backlog_napi/1\0", 16);
	match_sched_switch(m, 1, 1040, 0, 31, "backlog_napi/1\0", 16);
	match_napi_poll(m, 1, 1070, 31, F_BH, "(no_device)", 12, 5, 64);
	match_sched_switch(m, 1, 1090, 31, 0, "swapper/1", 16);
	th = find(m, CTX_BACKLOG_NAPI, WHERE_NONE, "backlog_napi/1");
	assert_non_null(th);
	assert_int_equal(th->delay.min, 40);
	assert_int_equal(th->runtime.min, 50);
	poll = find(m, CTX_NAPI_POLL, WHERE_BACKLOG, "(no_device)");
	assert_non_null(poll);
	/* from the switch-in: napi_threaded_poll_loop() starts there */
	assert_int_equal(poll->runtime.min, 30);
	assert_int_equal(poll->work, 5);
	assert_null(find(m, CTX_NAPI_POLL, WHERE_BUSY_POLL, NULL));
	/* not a kworker pool */
	assert_int_equal(m->nwake, 0);
}

/*
 * ktimers (forced-threaded kernels: PREEMPT_RT, or threadirqs): the tick's
 * run_local_timers() -> raise_timer_softirq() -> raise_ktimers_thread() traces
 * softirq_raise in the hard irq; __irq_exit_rcu() -> wake_timersd() wakes ktimers/N;
 * run_ktimerd() -> __do_softirq() runs TIMER in that thread.
 */
static void test_ktimers(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_irq_entry(m, 0, 100, -1, NULL, 0);
	match_softirq_raise(m, 0, 105, SIRQ_TIMER, F_HI, 0);
	match_irq_exit(m, 0, 110, -1);
	match_sched_wakeup(m, 112, 20, "ktimers/0\0\0\0\0\0\0", 16);
	match_sched_switch(m, 0, 130, 0, 20, "ktimers/0\0\0\0\0\0\0", 16);
	match_softirq_entry(m, 0, 135, SIRQ_TIMER, 20);
	match_softirq_exit(m, 0, 160, SIRQ_TIMER, 20);
	match_sched_switch(m, 0, 170, 20, 0, "swapper/0", 16);
	g = find(m, CTX_SOFTIRQ, WHERE_KTIMERS, "TIMER");
	assert_non_null(g);
	assert_int_equal(g->delay.min, 30);
	assert_int_equal(g->runtime.min, 25);
	/* not inline, not ksoftirqd */
	assert_null(find(m, CTX_SOFTIRQ, WHERE_INLINE, "TIMER"));
	g = find(m, CTX_KTIMERS, WHERE_NONE, "ktimers/0");
	assert_non_null(g);
	assert_int_equal(g->delay.min, 18);
	assert_int_equal(g->runtime.min, 40);
	/* the vector's own figures hold it too */
	assert_int_equal(sirq_group_get(m, 0, SIRQ_TIMER)->entries, 1);
	assert_int_equal(sirq_group_get(m, 0, SIRQ_TIMER)->ksoftirqd, 0);
}

/*
 * rcuc (RT forces use_softirq off, rcutree_init): rcu_sched_clock_irq() ->
 * invoke_rcu_core() -> invoke_rcu_core_kthread() wakes rcuc/N from the tick, and
 * rcu_cpu_kthread() runs rcu_core() there: no softirq event at all.
 * irq_work (PREEMPT_RT): irq_work_run() / irq_work_tick() -> wake_irq_workd() wakes
 * irq_work/N, run_irq_workd() runs the lazy list.
 */
static void test_rcuc_and_irq_work(void **state)
{
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_irq_entry(m, 1, 200, -1, NULL, 0);
	match_irq_exit(m, 1, 210, -1);
	run(m, 1, 21, "rcuc/1", 205, 260, 300);
	run(m, 1, 22, "irq_work/1", 305, 315, 318);
	g = find(m, CTX_RCUC, WHERE_NONE, "rcuc/1");
	assert_non_null(g);
	assert_int_equal(g->count, 1);
	assert_int_equal(g->delay.min, 55);
	assert_int_equal(g->runtime.min, 40);
	g = find(m, CTX_IRQ_WORK, WHERE_NONE, "irq_work/1");
	assert_non_null(g);
	assert_int_equal(g->delay.min, 10);
	assert_int_equal(g->runtime.min, 3);
	assert_int_equal(m->nwake, 0);
	assert_int_equal(matcher_unmatched(m), 0);
}

/*
 * An irq thread's softirqs: irq_forced_thread_fn() calls the handler between
 * local_bh_disable() and local_bh_enable(); what the handler raised (napi_schedule() ->
 * NET_RX, from the thread with BH off) runs at that local_bh_enable() -> __do_softirq()
 * in the irq thread.
 */
static void test_irq_thread_softirq(void **state)
{
	static const char it[16] = "irq/25-eth0";
	struct matcher *m = *state;
	const struct ctx_group *g;

	match_sched_wakeup(m, 400, 44, it, 16);
	match_sched_switch(m, 0, 420, 0, 44, it, 16);
	match_softirq_raise(m, 0, 430, SIRQ_NET_RX, F_BH, 44);
	match_softirq_entry(m, 0, 450, SIRQ_NET_RX, 44);
	match_napi_poll(m, 0, 470, 44, F_SIRQ | F_BH, "eth0", 5, 2, 64);
	match_softirq_exit(m, 0, 480, SIRQ_NET_RX, 44);
	match_sched_switch(m, 0, 490, 44, 0, "swapper/0", 16);
	g = find(m, CTX_SOFTIRQ, WHERE_IRQ_THREAD, "NET_RX");
	assert_non_null(g);
	assert_int_equal(g->delay.min, 20);
	assert_int_equal(g->runtime.min, 30);
	assert_null(find(m, CTX_SOFTIRQ, WHERE_INLINE, "NET_RX"));
	/* the rest of the handler's BH-disabled section: the thread ran all along */
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause_ns[WAIT_BH_DISABLED], 20);
	assert_int_equal(m->wait[SIRQ_NET_RX]->cause_ns[WAIT_BH_PREEMPTED], 0);
	assert_non_null(find(m, CTX_IRQ_THREAD, WHERE_NONE, "irq/25-eth0"));
}

/*
 * PREEMPT_RT's preemptible BH sections: __local_bh_disable_ip() takes softirq_ctrl.lock
 * (CONFIG_PREEMPT_RT_NEEDS_BH_LOCK) or, since 6.18, only migrate_disable(); the task
 * stays preemptible. A NET_RX raised inside it waits for its local_bh_enable() ->
 * __local_bh_enable_ip() -> __do_softirq(), also while an RT thread preempts it.
 */
static void test_bh_preempted(void **state)
{
	struct matcher *m = *state;
	const struct sirq_wait *w;

	match_comm(m, 500, "iperf3", 6);
	match_sched_switch(m, 0, 50, 0, 500, "iperf3", 6);
	match_softirq_raise(m, 0, 100, SIRQ_NET_RX, F_BH, 500);
	/* an irq thread preempts the holder for 300 ns, a hard irq of 20 inside it */
	match_sched_switch(m, 0, 200, 500, 44, "irq/25-eth0\0\0\0\0", 16);
	match_irq_entry(m, 0, 300, 25, "eth0", 4);
	match_irq_exit(m, 0, 320, 25);
	match_sched_switch(m, 0, 500, 44, 500, "iperf3", 6);
	match_softirq_entry(m, 0, 700, SIRQ_NET_RX, 500);
	match_softirq_exit(m, 0, 710, SIRQ_NET_RX, 500);
	w = m->wait[SIRQ_NET_RX];
	assert_non_null(w);
	assert_int_equal(w->delay_ns, 600);
	assert_int_equal(w->cause_ns[WAIT_HARDIRQ], 20);
	assert_int_equal(w->cause_ns[WAIT_BH_PREEMPTED], 280);
	assert_int_equal(w->cause_ns[WAIT_BH_DISABLED], 300);
	/* the holder is named with both parts */
	assert_int_equal(w->ntasks, 1);
	assert_string_equal(w->task[0].comm, "iperf3");
	assert_int_equal(w->task[0].total_ns, 580);
	/* a holder still off the CPU when another task runs the softirqs (6.18 without the
	 * BH lock): the window ends at that first handler */
	match_softirq_raise(m, 1, 1000, SIRQ_TIMER, F_BH, 500);
	match_sched_switch(m, 1, 1100, 500, 600, "nginx", 5);
	match_softirq_entry(m, 1, 1400, SIRQ_TIMER, 600);
	match_softirq_exit(m, 1, 1410, SIRQ_TIMER, 600);
	w = m->wait[SIRQ_TIMER];
	assert_int_equal(w->cause_ns[WAIT_BH_DISABLED], 100);
	assert_int_equal(w->cause_ns[WAIT_BH_PREEMPTED], 300);
	assert_int_equal(m->n.wait_inconsistent, 0);
}

/*
 * BH workqueues (6.9): __queue_work() -> kick_pool() -> kick_bh_pool() raises HI for
 * the highpri BH pool and TASKLET for the other; tasklet_hi_action() and tasklet_action()
 * start with workqueue_softirq_action(highpri) -> bh_worker(). The items are told apart
 * by the vector whose handler ran them, and their wait is tied to that vector's.
 */
static void test_bh_pools(void **state)
{
	struct matcher *m = *state;
	const struct wq_group *g;
	const struct bh_tie *t;
	char buf[16];

	match_irq_entry(m, 0, 1000, 30, "xhci", 4);
	match_wq_queue(m, 0, 1010, 0, WORK, FUNC, "events_bh_highpri", 17);
	match_wq_activate(m, 0, 1010, WORK);
	match_softirq_raise(m, 0, 1011, SIRQ_HI, F_HI, 0);
	match_irq_exit(m, 0, 1020, 30);
	match_softirq_entry(m, 0, 1030, SIRQ_HI, 0);
	match_wq_start(m, 0, 1040, 0, true, WORK, FUNC);
	match_wq_end(m, 0, 1060, 0, true, WORK);
	match_softirq_exit(m, 0, 1070, SIRQ_HI, 0);
	assert_int_equal(m->ngroups, 1);
	g = m->groups[0];
	assert_int_equal(POOL_KIND(g->pool), POOL_BH_HI);
	assert_string_equal(match_pool_name(g->pool, buf, sizeof(buf)), "bh0H");
	t = g->bh;
	assert_non_null(t);
	assert_int_equal(t->vec, SIRQ_HI);
	assert_int_equal(t->items, 1);
	assert_int_equal(t->before.min, 20);
	assert_int_equal(t->inside.min, 10);
	/* the run's wait (raise 1011 -> entry 1030): 9 ns of the irq, 10 of irq exit */
	assert_int_equal(t->split, 1);
	assert_int_equal(t->run_delay_ns, 19);
	assert_int_equal(t->cause_ns[WAIT_HARDIRQ], 9);
	assert_int_equal(t->cause_ns[WAIT_OTHER], 10);
	/* the other pool: from TASKLET, queued inside the run (no wait before it) */
	match_softirq_raise(m, 1, 2000, SIRQ_TASKLET, F_SIRQ, 0);
	match_softirq_entry(m, 1, 2010, SIRQ_TASKLET, 0);
	match_wq_queue(m, 1, 2020, 0, WORK + 64, FUNC + 64, "events_bh", 9);
	match_wq_start(m, 1, 2025, 0, true, WORK + 64, FUNC + 64);
	match_wq_end(m, 1, 2030, 0, true, WORK + 64);
	match_softirq_exit(m, 1, 2040, SIRQ_TASKLET, 0);
	g = m->groups[1];
	assert_string_equal(match_pool_name(g->pool, buf, sizeof(buf)), "bh1");
	assert_int_equal(g->bh->vec, SIRQ_TASKLET);
	assert_int_equal(g->bh->before.max, 0);
	assert_int_equal(g->bh->inside.min, 5);
	assert_int_equal(g->bh->split, 0);
}

/* workqueue_queue_work's cpu: the pool's CPU (-1: unbound); req_cpu: queue_work_on() */
static void test_queued_remote(void **state)
{
	struct matcher *m = *state;
	const struct wq_group *g;

	match_comm(m, 40, "kworker/1:1", 11);
	/* queue_work_on(1, ...) from CPU 0 */
	match_wq_queue(m, 0, 10, 1, WORK, FUNC, "events", 6);
	match_wq_queue_cpu(m, 0, 1, 1);
	match_wq_start(m, 1, 20, 40, false, WORK, FUNC);
	match_wq_end(m, 1, 30, 40, false, WORK);
	/* queue_work() on CPU 1: WORK_CPU_UNBOUND (NR_CPUS), the local pool */
	match_wq_queue(m, 1, 40, 1, WORK, FUNC, "events", 6);
	match_wq_queue_cpu(m, 1, 8192, 1);
	match_wq_start(m, 1, 50, 40, false, WORK, FUNC);
	/* a kernel whose format lacks the fields: not counted */
	match_wq_end(m, 1, 55, 40, false, WORK);
	match_wq_queue(m, 1, 60, 1, WORK, FUNC, "events", 6);
	match_wq_start(m, 1, 70, 40, false, WORK, FUNC);
	g = m->groups[0];
	assert_int_equal(g->delay.count, 3);
	assert_int_equal(g->queued_known, 2);
	assert_int_equal(g->queued_remote, 1);
	assert_int_equal(g->queued_req, 1);
}

/*
 * run.json's view of how deferred work runs, from what the kernel exposes (no debugfs):
 * force_irqthreads() on PREEMPT_RT or with threadirqs, PREEMPT_RT_NEEDS_BH_LOCK (6.18;
 * absent before, when the BH lock was always there), sched_ext's sysfs state
 */
static void test_run_meta(void **state)
{
	static const char rt618[] = "CONFIG_PREEMPT_RT=y\n# CONFIG_PREEMPT_RT_NEEDS_BH_LOCK "
				    "is not set\nCONFIG_IRQ_FORCED_THREADING=y\n";
	static const char dyn[] = "CONFIG_PREEMPT_NONE=y\nCONFIG_PREEMPT_DYNAMIC=y\n"
				  "CONFIG_IRQ_FORCED_THREADING=y\n";
	struct run_meta m;

	(void)state;
	memset(&m, 0, sizeof(m));
	run_meta_kernel(&m, rt618, "#1 SMP PREEMPT_RT", NULL, "quiet");
	assert_string_equal(m.preempt, "rt");
	assert_string_equal(m.threadirqs, "yes");
	assert_string_equal(m.rt_bh_lock, "no");
	run_meta_kernel(&m, "CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT_RT_NEEDS_BH_LOCK=y\n", "",
			NULL, "");
	assert_string_equal(m.rt_bh_lock, "yes");
	run_meta_kernel(&m, "CONFIG_PREEMPT_RT=y\n", "", NULL, "");
	assert_string_equal(m.rt_bh_lock, "yes (before 6.18)");
	/* the development VM: dynamic, none, no threadirqs */
	run_meta_kernel(&m, dyn, "#1 SMP PREEMPT_DYNAMIC", NULL, "console=ttyS0 quiet");
	assert_string_equal(m.preempt, "none");
	assert_string_equal(m.threadirqs, "no");
	assert_string_equal(m.rt_bh_lock, "");
	run_meta_kernel(&m, dyn, "", NULL, "quiet threadirqs preempt=full");
	assert_string_equal(m.preempt, "full");
	assert_string_equal(m.threadirqs, "yes");
	/* a word, not a part of one */
	run_meta_kernel(&m, dyn, "", NULL, "nothreadirqs");
	assert_string_equal(m.threadirqs, "no");
	run_meta_sched_ext(&m, NULL, NULL);
	assert_string_equal(m.sched_ext, "none");
	run_meta_sched_ext(&m, "enabled\n", "rusty\n");
	assert_string_equal(m.sched_ext, "enabled (rusty)");
	run_meta_sched_ext(&m, "disabled\n", NULL);
	assert_string_equal(m.sched_ext, "disabled");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test_setup_teardown(test_backlog_napi, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ktimers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rcuc_and_irq_work, setup, teardown),
		cmocka_unit_test_setup_teardown(test_irq_thread_softirq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bh_preempted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bh_pools, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queued_remote, setup, teardown),
		cmocka_unit_test(test_run_meta),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
