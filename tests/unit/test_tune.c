// SPDX-License-Identifier: GPL-2.0
/*
 * test_tune.c - what deferbench tune tries (analysis/compare/tune.c): the groups of a
 * survey ranked by the wait they carry, the candidates they suggest within --allow, and
 * the parsers of --try and --allow. No root, no machine: the facts are given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tune.h"
#include "msg.h"

static char err[ERRBUF_LEN];

/* sysfs - writeback and blkcg_punt_bio have WQ_SYSFS attributes, as on the VM */
static bool sysfs(const char *wq, void *ctx)
{
	(void)ctx;
	return !strcmp(wq, "writeback") || !strcmp(wq, "blkcg_punt_bio");
}

/* a survey: NET_RX waits most, then writeback, flush_to_ldisc (unbound), and TIMER */
static void survey(struct record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->sirq = calloc(3, sizeof(*rec->sirq));
	rec->wq = calloc(3, sizeof(*rec->wq));
	rec->nsirq = 3;
	rec->nwq = 3;
	strcpy(rec->sirq[0].vector, "NET_RX");
	rec->sirq[0].cpu = -1;
	rec->sirq[0].count = 1000;
	rec->sirq[0].ksoftirqd_count = 300;
	rec->sirq[0].st[SM_DELAY] = (struct hist_stats){ .count = 1000, .mean = 50000 };
	strcpy(rec->sirq[1].vector, "TIMER");
	rec->sirq[1].cpu = -1;
	rec->sirq[1].count = 100;
	rec->sirq[1].st[SM_DELAY] = (struct hist_stats){ .count = 100, .mean = 1000 };
	strcpy(rec->sirq[2].vector, "NET_RX");
	rec->sirq[2].cpu = 0;		/* per CPU: not ranked (the all-CPU row is) */
	rec->sirq[2].st[SM_DELAY] = (struct hist_stats){ .count = 1000, .mean = 90000 };
	strcpy(rec->wq[0].wq, "writeback");
	strcpy(rec->wq[0].func, "wb_workfn");
	strcpy(rec->wq[0].pool, "unbound3");
	rec->wq[0].st[WM_DELAY] = (struct hist_stats){ .count = 20, .mean = 1000000 };
	strcpy(rec->wq[1].wq, "events_unbound");
	strcpy(rec->wq[1].func, "flush_to_ldisc");
	strcpy(rec->wq[1].pool, "unbound2");
	rec->wq[1].st[WM_DELAY] = (struct hist_stats){ .count = 500, .mean = 20000 };
	strcpy(rec->wq[2].wq, "events_unbound");	/* another pool: merged */
	strcpy(rec->wq[2].func, "flush_to_ldisc");
	strcpy(rec->wq[2].pool, "unbound5");
	rec->wq[2].st[WM_DELAY] = (struct hist_stats){ .count = 500, .mean = 20000 };
}

static void test_rank(void **state)
{
	struct tune_group top[TUNE_TOP];
	struct record rec;
	size_t n;

	(void)state;
	survey(&rec);
	n = tune_rank(&rec, top, TUNE_TOP);
	assert_int_equal(n, 4);
	assert_string_equal(top[0].id, "softirq:NET_RX:delay:p90");	/* 0.05 s */
	assert_string_equal(top[1].id, "wq:writeback:wb_workfn:delay:p90");	/* 0.02 s */
	assert_string_equal(top[2].id, "wq:events_unbound:flush_to_ldisc:delay:p90");
	assert_int_equal(top[2].count, 1000);		/* two pools merged */
	assert_true(top[2].unbound);
	assert_float_equal(top[0].ksoftirqd_share, 0.3, 1e-9);
	assert_int_equal(tune_rank(&rec, top, 1), 1);
	record_free(&rec);
}

static void test_candidates(void **state)
{
	struct tune_facts f = { .sysfs = sysfs, .first_cpu = 0 };
	struct tune_cand c[TUNE_MAX_CANDS];
	struct tune_group top[TUNE_TOP];
	struct record rec;
	size_t ntop, n, i;

	(void)state;
	survey(&rec);
	ntop = tune_rank(&rec, top, TUNE_TOP);
	n = tune_candidates(top, ntop, TUNE_ALLOW_DEFAULT, &f, c, TUNE_MAX_CANDS);
	/* writeback (sysfs) at nice -10, the two scopes, ksoftirqd; no cpumask by default */
	assert_int_equal(n, 4);
	assert_string_equal(c[0].name, "writeback-nice-10");
	assert_string_equal(c[0].knob[0], "wq.writeback.nice");
	assert_string_equal(c[0].value[0], "-10");
	assert_string_equal(c[1].name, "scope-cpu");
	assert_string_equal(c[2].name, "scope-system");
	assert_string_equal(c[3].name, "ksoftirqd-fifo");
	for (i = 0; i < n; i++)
		assert_int_not_equal(c[i].cls, TC_CPUMASK);
	/* cpumask only when allowed; napi only for the net probe */
	n = tune_candidates(top, ntop, 1U << TC_CPUMASK, &f, c, TUNE_MAX_CANDS);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].knob[0], "wq.cpumask");
	assert_string_equal(c[0].value[0], "1");
	assert_int_equal(tune_candidates(top, ntop, 1U << TC_NAPI, &f, c, TUNE_MAX_CANDS), 0);
	f.probe = "net";
	n = tune_candidates(top, ntop, 1U << TC_NAPI, &f, c, TUNE_MAX_CANDS);
	assert_int_equal(n, 1);
	assert_string_equal(c[0].knob[0], "opt.probe.napi");
	/* the machine's busiest NAPI device: threaded, and for a NIC its interrupts deferred */
	f.probe = NULL;
	f.napi_dev = "eth1";
	f.napi_hw = true;
	n = tune_candidates(top, ntop, 1U << TC_NAPI, &f, c, TUNE_MAX_CANDS);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].name, "eth1-threaded");
	assert_string_equal(c[0].knob[0], "netdev.eth1.threaded");
	assert_string_equal(c[0].value[0], "1");
	assert_string_equal(c[1].name, "eth1-defer-irqs");
	assert_int_equal(c[1].nknobs, 2);
	assert_string_equal(c[1].knob[0], "netdev.eth1.napi_defer_hard_irqs");
	assert_string_equal(c[1].knob[1], "netdev.eth1.gro_flush_timeout");
	assert_string_equal(c[1].value[1], "200000");
	/* a veth threaded already: nothing to try of it */
	f.napi_hw = false;
	f.napi_threaded = true;
	assert_int_equal(tune_candidates(top, ntop, 1U << TC_NAPI, &f, c, TUNE_MAX_CANDS), 0);
	f.napi_dev = NULL;
	/* nothing allowed that applies: no candidate */
	assert_int_equal(tune_candidates(top, 1, 1U << TC_NICE, &f, c, TUNE_MAX_CANDS), 0);
	record_free(&rec);
}

static bool only_veth0(const char *dev, void *ctx)
{
	(void)ctx;
	return !strcmp(dev, "veth0") || !strcmp(dev, "eth9");
}

/* the device with most NAPI polls wherever they ran, among those this machine has */
static void test_napi_device(void **state)
{
	struct ctx_data ctx[5] = {
		{ .context = "napi_poll", .name = "veth0", .where = "softirq", .count = 40 },
		{ .context = "napi_poll", .name = "(no_device)", .where = "softirq", .count = 900 },
		{ .context = "napi_poll", .name = "eth9", .where = "softirq", .count = 50 },
		{ .context = "softirq", .name = "NET_RX", .where = "inline", .count = 5000 },
		{ .context = "napi_poll", .name = "veth0", .where = "thread", .count = 30 },
	};
	struct record rec = { .ctx = ctx, .nctx = 5 };
	char dev[16];

	(void)state;
	assert_true(tune_napi_device(&rec, only_veth0, NULL, dev, sizeof(dev)));
	assert_string_equal(dev, "veth0");	/* 70 polls in two places beat eth9's 50 */
	rec.nctx = 2;
	ctx[0].count = 0;
	assert_false(tune_napi_device(&rec, only_veth0, NULL, dev, sizeof(dev)));
	assert_string_equal(dev, "");
}

static void test_parsers(void **state)
{
	struct tune_cand c;
	unsigned int mask;

	(void)state;
	assert_int_equal(tune_try_parse("wq.writeback.nice=-10,wq.cpumask=1", 2, &c, err), 0);
	assert_string_equal(c.name, "try-2");
	assert_int_equal(c.nknobs, 2);
	assert_string_equal(c.knob[1], "wq.cpumask");
	assert_string_equal(c.value[1], "1");
	assert_int_not_equal(tune_try_parse("wq.writeback.nice", 1, &c, err), 0);
	assert_non_null(strstr(err, "KNOB=VALUE"));
	assert_int_not_equal(tune_try_parse("=3", 1, &c, err), 0);
	assert_int_not_equal(tune_try_parse("a=1,b=2,c=3,d=4,e=5", 1, &c, err), 0);
	assert_int_equal(tune_allow_parse("nice,scope", &mask, err), 0);
	assert_int_equal(mask, (1U << TC_NICE) | (1U << TC_SCOPE));
	assert_int_equal(tune_allow_parse("all", &mask, err), 0);
	assert_int_equal(mask, (1U << TC_NR) - 1);
	assert_int_not_equal(tune_allow_parse("nice,everything", &mask, err), 0);
	assert_non_null(strstr(err, "'everything'"));
	assert_int_not_equal(tune_allow_parse("", &mask, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_napi_device),
		cmocka_unit_test(test_parsers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
