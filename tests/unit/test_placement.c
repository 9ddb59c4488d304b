// SPDX-License-Identifier: GPL-2.0
/*
 * test_placement.c - did a knob move the work it targets (analysis/compare/placement.c)?
 * Each knob's target work, counted by place in records made up as an arm's phases are
 * (workqueue rows by pool, softirq rows with their ksoftirqd runs, execution contexts),
 * and the verdict with its figure: the share of the work that ran elsewhere. No root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

static struct wq_data wqs[2][8];
static struct sirq_data sirqs[2][8];
static struct ctx_data ctxs[2][8];
static struct record recs[2];

static void reset(void)
{
	memset(wqs, 0, sizeof(wqs));
	memset(sirqs, 0, sizeof(sirqs));
	memset(ctxs, 0, sizeof(ctxs));
	memset(recs, 0, sizeof(recs));
	for (int a = 0; a < 2; a++) {
		recs[a].wq = wqs[a];
		recs[a].sirq = sirqs[a];
		recs[a].ctx = ctxs[a];
	}
}

static void wq(int arm, const char *name, const char *func, const char *pool, uint64_t n)
{
	struct wq_data *w = &wqs[arm][recs[arm].nwq++];

	snprintf(w->wq, sizeof(w->wq), "%s", name);
	snprintf(w->func, sizeof(w->func), "%s", func);
	snprintf(w->pool, sizeof(w->pool), "%s", pool);
	w->count = n;
}

static void sirq(int arm, const char *vec, int cpu, uint64_t n, uint64_t ks)
{
	struct sirq_data *s = &sirqs[arm][recs[arm].nsirq++];

	snprintf(s->vector, sizeof(s->vector), "%s", vec);
	s->cpu = cpu;
	s->count = n;
	s->ksoftirqd_count = ks;
}

static void ctx(int arm, const char *kind, const char *name, const char *where, uint64_t n)
{
	struct ctx_data *c = &ctxs[arm][recs[arm].nctx++];

	snprintf(c->context, sizeof(c->context), "%s", kind);
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->where, sizeof(c->where), "%s", where);
	c->count = n;
	recs[arm].has_contexts = true;
}

/* judge - knob = value between recs[0] (the reference) and recs[1]; its line in line */
static enum placement_verdict judge(const char *knob, const char *value, struct placement *p,
				    char *line, size_t len)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->knob, sizeof(p->knob), "%s", knob);
	snprintf(p->value, sizeof(p->value), "%s", value);
	placement_target(knob, &p->t);
	placement_count(&recs[0], &p->t, &p->ref);
	placement_count(&recs[1], &p->t, &p->arm);
	placement_judge(p);
	placement_describe(p, line, len);
	return p->v;
}

/* the unbound cpumask narrowed to CPU 0: flush_to_ldisc in a new pool, all of it */
static void test_cpumask_moves(void **state)
{
	struct placement p;
	char line[1024];

	(void)state;
	reset();
	wq(0, "events_unbound", "flush_to_ldisc", "unbound2", 400);
	wq(0, "events", "vmstat_shepherd", "cpu0", 3);	/* per-CPU: not its target */
	wq(1, "events_unbound", "flush_to_ldisc", "unbound14", 398);
	wq(1, "events", "vmstat_shepherd", "cpu1", 3);
	assert_int_equal(judge("wq.cpumask", "1", &p, line, sizeof(line)), PLV_MOVED);
	assert_float_equal(p.moved, 1.0, 1e-12);
	assert_int_equal(p.ref.total, 400);
	assert_string_equal(line, "wq.cpumask = 1: moved: 100% of the work of every unbound "
			    "workqueue ran elsewhere than in the reference (unbound2 100% there, "
			    "unbound14 100% here; 400 and 398 items)");

	/* the default affinity scope: system is the one cache domain of two CPUs here */
	reset();
	wq(0, "events_unbound", "flush_to_ldisc", "unbound2", 400);
	wq(1, "events_unbound", "flush_to_ldisc", "unbound2", 420);
	assert_int_equal(judge("param.default_affinity_scope", "system", &p, line, sizeof(line)),
			 PLV_SAME);
	assert_float_equal(p.moved, 0, 1e-12);
	assert_non_null(strstr(line, "had no effect on the work it targets: 0% of the work of "
			       "every unbound workqueue ran elsewhere"));
}

/* the nice of a workqueue none of whose work ran */
static void test_no_work(void **state)
{
	struct placement p;
	char line[1024];

	(void)state;
	reset();
	wq(0, "events_unbound", "flush_to_ldisc", "unbound2", 400);
	wq(1, "events_unbound", "flush_to_ldisc", "unbound2", 400);
	assert_int_equal(judge("wq.blkcg_punt_bio.nice", "-5", &p, line, sizeof(line)),
			 PLV_NO_WORK);
	assert_string_equal(line, "wq.blkcg_punt_bio.nice = -5: had no effect on the work it "
			    "targets: none of the work of workqueue blkcg_punt_bio ran in either "
			    "arm");
	assert_true(isnan(p.moved));

	/* writeback at nice -10: a pool of its own, the same work there */
	wq(0, "writeback", "wb_workfn", "unbound3", 20);
	wq(1, "writeback", "wb_workfn", "unbound9", 18);
	wq(1, "writeback", "wb_workfn", "unbound3", 2);		/* queued before the switch */
	assert_int_equal(judge("wq.writeback.nice", "-10", &p, line, sizeof(line)), PLV_MOVED);
	assert_float_equal(p.moved, 0.9, 1e-12);
	assert_non_null(strstr(line, "(unbound3 100% there, unbound9 90%, unbound3 10% here;"));

	/* too few to tell */
	reset();
	wq(0, "writeback", "wb_workfn", "unbound3", 2);
	wq(1, "writeback", "wb_workfn", "unbound9", 3);
	assert_int_equal(judge("wq.writeback.nice", "-10", &p, line, sizeof(line)), PLV_TOO_FEW);
	assert_non_null(strstr(line, "(2 and 3 items of the work of workqueue writeback; 5 "
			       "needed in each arm)"));
}

/* a share under the threshold is the same places; over it, moved */
static void test_threshold(void **state)
{
	struct placement p;
	char line[1024];

	(void)state;
	reset();
	wq(0, "kblockd", "blk_mq_run_work_fn", "cpu0H", 50);
	wq(0, "kblockd", "blk_mq_run_work_fn", "cpu1H", 50);
	wq(1, "kblockd", "blk_mq_run_work_fn", "cpu0H", 54);
	wq(1, "kblockd", "blk_mq_run_work_fn", "cpu1H", 46);
	assert_int_equal(judge("wq.kblockd.cpumask", "1", &p, line, sizeof(line)), PLV_SAME);
	assert_float_equal(p.moved, 0.04, 1e-12);
	reset();
	wq(0, "kblockd", "blk_mq_run_work_fn", "cpu0H", 50);
	wq(0, "kblockd", "blk_mq_run_work_fn", "cpu1H", 50);
	wq(1, "kblockd", "blk_mq_run_work_fn", "cpu0H", 60);
	wq(1, "kblockd", "blk_mq_run_work_fn", "cpu1H", 40);
	assert_int_equal(judge("wq.kblockd.cpumask", "1", &p, line, sizeof(line)), PLV_MOVED);
	assert_float_equal(p.moved, PLACEMENT_MOVED, 1e-12);
}

/* ksoftirqd's priority: moved only when some of the work ran in ksoftirqd */
static void test_ksoftirqd(void **state)
{
	struct placement p;
	char line[1024];

	(void)state;
	reset();
	sirq(0, "NET_RX", -1, 1000, 0);
	sirq(0, "NET_RX", 0, 600, 0);		/* per CPU: not the all-CPU row */
	sirq(1, "NET_RX", -1, 1000, 0);
	assert_int_equal(judge("sched.ksoftirqd", "fifo:1", &p, line, sizeof(line)), PLV_SAME);
	assert_non_null(strstr(line, "had no effect on the work it targets"));
	sirq(1, "TIMER", -1, 100, 30);
	assert_int_equal(judge("sched.ksoftirqd", "fifo:1", &p, line, sizeof(line)), PLV_MOVED);
	assert_int_equal(p.prio_items, 30);
	assert_non_null(strstr(line, "; 30 ran in ksoftirqd, at the knob's setting"));
	/* one CPU's ksoftirqd: that CPU's rows */
	sirq(1, "TIMER", 1, 50, 30);
	sirq(0, "TIMER", 1, 50, 0);
	assert_int_equal(judge("sched.ksoftirqd.1", "fifo:1", &p, line, sizeof(line)), PLV_MOVED);
	assert_int_equal(p.ref.total, 50);
	assert_non_null(strstr(p.t.desc, "CPU 1"));
}

/* threaded NAPI: the veth's polls from softirq to thread; RPS by CPU, seen or not */
static void test_napi_rps(void **state)
{
	struct placement p;
	char line[1024];

	(void)state;
	reset();
	ctx(0, "napi_poll", "dbv4242-0a", "softirq", 500);
	ctx(0, "napi_poll", "dbv4242-0b", "softirq", 500);
	ctx(0, "napi_poll", "eth0", "softirq", 30);		/* not the run's veth */
	ctx(1, "napi_poll", "dbv4242-0a", "thread", 495);
	ctx(1, "napi_poll", "dbv4242-0b", "thread", 490);
	ctx(1, "napi_poll", "dbv4242-0b", "softirq", 15);
	ctx(1, "napi_poll", "eth0", "softirq", 30);
	assert_int_equal(judge("opt.net.napi", "threaded", &p, line, sizeof(line)), PLV_MOVED);
	assert_float_equal(p.moved, 0.985, 1e-12);
	assert_int_equal(p.ref.total, 1000);
	assert_int_equal(judge("netdev.eth0.threaded", "1", &p, line, sizeof(line)), PLV_SAME);
	assert_non_null(strstr(line, "the NAPI polls of eth0"));

	/* an alternating run's phases keep no per-CPU softirq rows: not seen, never "no effect" */
	reset();
	sirq(0, "NET_RX", -1, 1000, 0);
	sirq(1, "NET_RX", -1, 1000, 0);
	assert_int_equal(judge("netdev.lo.rps_cpus", "2", &p, line, sizeof(line)), PLV_UNSEEN);
	sirq(0, "NET_RX", 0, 1000, 0);
	sirq(1, "NET_RX", 0, 500, 0);
	sirq(1, "NET_RX", 1, 500, 0);
	assert_int_equal(judge("netdev.lo.rps_cpus", "2", &p, line, sizeof(line)), PLV_MOVED);
	assert_float_equal(p.moved, 0.5, 1e-12);
	assert_non_null(strstr(line, "(CPU 0 100% there, CPU 0 50%, CPU 1 50% here;"));
	/* napi without contexts recorded */
	reset();
	assert_int_equal(judge("sched.napi", "fifo:50", &p, line, sizeof(line)), PLV_UNSEEN);
}

/* knobs that change how much or when, not where; many places summed into "other" */
static void test_not_placement(void **state)
{
	struct placement p;
	char line[1024], pool[16];
	int i;

	(void)state;
	reset();
	assert_int_equal(judge("wq.writeback.max_active", "4", &p, line, sizeof(line)),
			 PLV_NOT_PLACEMENT);
	assert_int_equal(judge("sysctl.net.core.busy_poll", "50", &p, line, sizeof(line)),
			 PLV_NOT_PLACEMENT);
	assert_int_equal(judge("param.cpu_intensive_thresh_us", "100", &p, line, sizeof(line)),
			 PLV_NOT_PLACEMENT);
	assert_int_equal(judge("netdev.eth0.gro_flush_timeout", "20000", &p, line, sizeof(line)),
			 PLV_NOT_PLACEMENT);
	assert_int_equal(judge("opt.net.rate", "1000", &p, line, sizeof(line)),
			 PLV_NOT_PLACEMENT);

	memset(&p, 0, sizeof(p));
	placement_target("wq.cpumask", &p.t);
	for (i = 0; i < 20; i++) {
		struct record r = { 0 };
		struct wq_data w = { .count = 1 };

		snprintf(pool, sizeof(pool), "unbound%d", i);
		snprintf(w.pool, sizeof(w.pool), "%s", pool);
		r.wq = &w;
		r.nwq = 1;
		placement_count(&r, &p.t, &p.ref);
	}
	assert_int_equal(p.ref.n, PLACEMENT_MAX);
	assert_int_equal(p.ref.total, 20);
	assert_string_equal(p.ref.p[PLACEMENT_MAX - 1].where, "other");
	assert_int_equal(p.ref.p[PLACEMENT_MAX - 1].count, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpumask_moves),
		cmocka_unit_test(test_no_work),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_ksoftirqd),
		cmocka_unit_test(test_napi_rps),
		cmocka_unit_test(test_not_placement),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
