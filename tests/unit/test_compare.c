// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c - verdicts: judge() on hand-made repetition values, and compare_runs()
 * on synthetic run directories written by tests/lib/synth.c.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "rundir.h"
#include "fixture.h"
#include "synth.h"

static struct judge_opts jo(void)
{
	struct judge_opts o;

	judge_opts_default(&o);
	return o;
}

static void test_judge_identical(void **state)
{
	const double v[] = { 100e3, 101e3, 99e3, 100.5e3, 99.5e3 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(v, 5, v, 5, &o, &j);
	assert_int_equal(j.v, V_NO_CHANGE);
	assert_true(fabs(j.ratio - 1) < 1e-12);
	assert_true(j.lo <= 1 && j.hi >= 1);
}

static void test_judge_doubled(void **state)
{
	const double b[] = { 100e3, 102e3, 98e3 }, n[] = { 200e3, 203e3, 197e3 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(b, 3, n, 3, &o, &j);
	assert_int_equal(j.v, V_WORSE);
	assert_true(j.ratio > 1.9 && j.lo > 1.1);
	judge(n, 3, b, 3, &o, &j);
	assert_int_equal(j.v, V_BETTER);
	assert_true(j.hi < 1 / 1.1);
}

static void test_judge_noisy(void **state)
{
	const double b[] = { 100e3, 180e3, 60e3 }, n[] = { 150e3, 90e3, 240e3 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(b, 3, n, 3, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_true(j.lo < 1 && j.hi > 1.1);
}

/* small but certain: a 5% change with tight repetitions is not beyond a 10% threshold */
static void test_judge_small_change(void **state)
{
	const double b[] = { 100e3, 100.2e3, 99.8e3, 100.1e3, 99.9e3, 100e3 };
	const double n[] = { 105e3, 105.2e3, 104.8e3, 105.1e3, 104.9e3, 105e3 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(b, 6, n, 6, &o, &j);
	assert_int_equal(j.v, V_NO_CHANGE);
	o.threshold = 0.02;
	judge(b, 6, n, 6, &o, &j);
	assert_int_equal(j.v, V_WORSE);
}

static void test_judge_too_few(void **state)
{
	const double b[] = { 100e3 }, n[] = { 300e3 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(b, 1, n, 1, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_true(fabs(j.ratio - 3) < 1e-12);	/* shown, not judged */
	assert_true(isnan(j.lo));
	judge((const double[]){ 1, 2 }, 2, (const double[]){ 5, 6 }, 2, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);	/* min_reps is 3 */
}

/* a value of 0 on either side: no ratio to judge, whatever else is known */
static void test_judge_zero(void **state)
{
	const double z[] = { 0, 0, 0 }, x[] = { 1, 2, 3 }, y[] = { 0, 1, 2 };
	struct judge_opts o = jo();
	struct judgement j;

	(void)state;
	judge(z, 3, x, 3, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_string_equal(j.why, "a value is 0: no ratio");
	assert_true(isnan(j.ratio) && isnan(j.lo));	/* a base median of 0: no ratio at all */
	judge(x, 3, y, 3, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_string_equal(j.why, "a value is 0: no ratio");
	assert_true(fabs(j.ratio - 0.5) < 1e-12);	/* medians 2 and 1: shown */
	assert_true(isnan(j.lo));
}

/*
 * 10% higher, within 1% noise: confidently higher, but the interval [1.068, 1.133]
 * reaches below 1.1: cannot tell, and the reason says which way; the mirror image is
 * "lower, but maybe by less"
 */
static void test_judge_maybe_less(void **state)
{
	const double b[] = { 100e3, 102e3, 98e3, 101e3, 99e3, 100e3 };
	struct judge_opts o = jo();
	struct judgement j;
	double n[6];
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		n[i] = b[i] * 1.10 * (i % 2 ? 1.01 : 0.99);
	judge(b, 6, n, 6, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_string_equal(j.why, "higher, but maybe by less than the threshold");
	assert_true(j.lo > 1 && j.lo < 1.1 && j.hi > 1.1);
	judge(n, 6, b, 6, &o, &j);
	assert_int_equal(j.v, V_CANNOT_TELL);
	assert_string_equal(j.why, "lower, but maybe by less than the threshold");
	assert_true(j.hi < 1 && j.hi > 1 / 1.1 && j.lo < 1 / 1.1);
}

/* synthetic runs, written once per test into a temporary directory */
struct runs {
	char *dir;
	struct run base, new;
	struct cmp_result res;
};

static int load_pair(struct runs *r, const struct synth_opts *b, const struct synth_opts *n)
{
	char err[ERRBUF_LEN], path[4096];

	r->dir = fixture_dir();
	snprintf(path, sizeof(path), "%s/base", r->dir);
	assert_int_equal(synth_run(path, b), 0);
	assert_int_equal(run_load(path, &r->base, err), 0);
	snprintf(path, sizeof(path), "%s/new", r->dir);
	assert_int_equal(synth_run(path, n), 0);
	assert_int_equal(run_load(path, &r->new, err), 0);
	return 0;
}

static void free_pair(struct runs *r)
{
	cmp_result_free(&r->res);
	run_free(&r->base);
	run_free(&r->new);
	fixture_free(r->dir);
}

static const struct cmp_row *find_row(const struct cmp_result *res, const char *wl,
				      const char *cfg, const char *id)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].workload, wl) && !strcmp(res->rows[i].config, cfg) &&
		    !strcmp(res->rows[i].id, id))
			return &res->rows[i];
	return NULL;
}

static void small(struct synth_opts *o)
{
	static const char *const wls[] = { "net", NULL };
	static const char *const cfgs[] = { "default", "threaded", NULL };

	synth_defaults(o);
	o->workloads = wls;
	o->configs = cfgs;
	o->samples = 3000;
	o->duration_s = 2;
	o->rep_noise = 0.01;
}

static void test_compare_itself(void **state)
{
	struct cmp_opts co = { 0 };
	struct synth_opts o;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];

	(void)state;
	small(&o);
	load_pair(&r, &o, &o);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_false(cmp_regressed(&r.res));
	assert_int_equal(r.res.count[V_WORSE] + r.res.count[V_BETTER], 0);
	assert_true(r.res.count[V_NO_CHANGE] > 0);
	assert_int_equal(r.res.nenv, 0);
	assert_int_equal(r.res.matched, 2);
	free_pair(&r);
}

static void test_compare_doubled(void **state)
{
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	const struct cmp_row *row;
	char err[ERRBUF_LEN];

	(void)state;
	small(&b);
	small(&n);
	n.seed = 2;
	n.slowdown = 2;
	n.kernel = "6.19.0-new";
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_true(cmp_regressed(&r.res));
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_WORSE);
	assert_true(row->j.ratio > 1.8 && row->j.ratio < 2.2);
	/* max is shown beside the judged percentiles, never judged */
	row = find_row(&r.res, "net", "default", "workload:rtt:max");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_INFO);
	assert_false(row->judged);
	assert_true(r.res.nenv >= 1);
	assert_string_equal(r.res.env[0].field, "kernel");
	free_pair(&r);
}

static void test_compare_lossy(void **state)
{
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	const struct cmp_row *row;
	char err[ERRBUF_LEN];

	(void)state;
	small(&b);
	small(&n);
	n.lossy_cell = "net--default--r2";
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "default", "softirq:*, wq:*, wakeup:*");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_LOSSY);
	assert_int_equal(r.res.count[V_LOSSY], 1);
	/* no trace-derived metric of the lossy cell is judged; the workload's own is */
	assert_null(find_row(&r.res, "net", "default", "softirq:TIMER:delay:p50"));
	assert_non_null(find_row(&r.res, "net", "default", "workload:rtt:p50"));
	/* the other configuration is compared as usual */
	assert_non_null(find_row(&r.res, "net", "threaded", "softirq:TIMER:delay:p50"));
	assert_false(cmp_regressed(&r.res));
	free_pair(&r);
}

static void test_compare_failed_cell(void **state)
{
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	const struct cmp_row *row;
	char err[ERRBUF_LEN];

	(void)state;
	small(&b);
	small(&n);
	n.failed_cell = "net--threaded--r3";
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "threaded", "*");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_INCOMPLETE);
	assert_null(find_row(&r.res, "net", "threaded", "workload:rtt:p50"));
	free_pair(&r);
}

static void test_compare_disjoint(void **state)
{
	static const char *const other[] = { "tty", NULL };
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	char err[ERRBUF_LEN];

	(void)state;
	small(&b);
	small(&n);
	n.workloads = other;
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), -EINVAL);
	assert_non_null(strstr(err, "share no workload"));
	free_pair(&r);
}

static void test_compare_patterns(void **state)
{
	static const char *const pat[] = { "workload:*:p50" };
	struct cmp_opts co = { .judge_patterns = pat, .npatterns = 1 };
	struct synth_opts o;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];
	size_t i;

	(void)state;
	small(&o);
	load_pair(&r, &o, &o);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	for (i = 0; i < r.res.nrows; i++)
		if (r.res.rows[i].judged)
			assert_string_equal(r.res.rows[i].id, "workload:rtt:p50");
	assert_int_equal(r.res.njudged, 2);
	free_pair(&r);
}

/* thread wakeup p99s are shown for information, and judged only when selected */
static void test_compare_wakeup(void **state)
{
	static const char *const pat[] = { "wakeup:*:p99" };
	struct cmp_opts co = { 0 };
	const struct cmp_row *row;
	struct synth_opts o;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];

	(void)state;
	small(&o);
	load_pair(&r, &o, &o);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "default", "wakeup:worker:unbound2:p99");
	assert_non_null(row);
	assert_false(row->judged);
	assert_int_equal(row->j.v, V_INFO);
	assert_int_equal(row->nb, 3);
	assert_true(fabs(row->j.ratio - 1) < 1e-12);
	assert_null(find_row(&r.res, "net", "default", "wakeup:worker:unbound2:p50"));
	/* 155 wakeups per repetition are too few for a p99: left out, as everywhere */
	assert_null(find_row(&r.res, "net", "default", "wakeup:ksoftirqd:0:p99"));
	cmp_result_free(&r.res);

	co.judge_patterns = pat;
	co.npatterns = 1;
	co.j.min_tail = 1;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "threaded", "wakeup:ksoftirqd:1:p99");
	assert_non_null(row);
	assert_true(row->judged);
	assert_true(fabs(row->j.ratio - 1) < 1e-12);
	/*
	 * the same values on both sides, but a p99 of 155 wakeups scatters by more than
	 * 10% between repetitions: the interval (symmetric around 1 for identical sides)
	 * reaches past both thresholds, so cannot tell, never a verdict
	 */
	assert_int_equal(row->j.v, V_CANNOT_TELL);
	assert_true(row->j.lo < 1 / 1.1 && row->j.hi > 1.1);
	assert_non_null(strstr(row->j.why, "spans 1 and a threshold"));
	row = find_row(&r.res, "net", "threaded", "wakeup:worker:cpu0H:p99");
	assert_non_null(row);
	assert_true(row->judged);
	/* the max of a judged wakeup histogram is shown beside it */
	row = find_row(&r.res, "net", "threaded", "wakeup:worker:cpu0H:max");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_INFO);
	/* 2 configurations x (2 ksoftirqd threads + 4 pools) */
	assert_int_equal(r.res.njudged, 12);
	assert_false(cmp_regressed(&r.res));
	free_pair(&r);
}

/* a workload x configuration on one side only: one incomplete row, saying which side */
static void test_compare_one_sided(void **state)
{
	static const char *const bcfg[] = { "default", "threaded", NULL };
	static const char *const ncfg[] = { "default", "other", NULL };
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	const struct cmp_row *row;
	char err[ERRBUF_LEN];
	size_t i;

	(void)state;
	small(&b);
	small(&n);
	b.configs = bcfg;
	n.configs = ncfg;
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_int_equal(r.res.matched, 1);
	row = find_row(&r.res, "net", "threaded", "*");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_INCOMPLETE);
	assert_string_equal(row->j.why, "only in the base run");
	row = find_row(&r.res, "net", "other", "*");
	assert_non_null(row);
	assert_int_equal(row->j.v, V_INCOMPLETE);
	assert_string_equal(row->j.why, "only in the new run");
	assert_int_equal(r.res.count[V_INCOMPLETE], 2);
	/* nothing else of them is compared; the shared configuration is */
	for (i = 0; i < r.res.nrows; i++)
		if (strcmp(r.res.rows[i].config, "default"))
			assert_string_equal(r.res.rows[i].id, "*");
	assert_non_null(find_row(&r.res, "net", "default", "workload:rtt:p50"));
	assert_false(cmp_regressed(&r.res));
	free_pair(&r);
}

/* env_find - the difference listed for field, or NULL */
static const struct env_diff *env_find(const struct cmp_result *res, const char *field)
{
	size_t i;

	for (i = 0; i < res->nenv; i++)
		if (!strcmp(res->env[i].field, field))
			return &res->env[i];
	return NULL;
}

/* a configuration of the same name that set other knob values: listed, both ways */
static void test_compare_knob_diffs(void **state)
{
	static const char *const knobs[] = { "wq.writeback.nice=5", "sched.ksoftirqd=fifo:2", NULL };
	const struct env_diff *e;
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct runs r = { 0 };
	char err[ERRBUF_LEN];

	(void)state;
	small(&b);
	small(&n);
	n.knobs = knobs;
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	e = env_find(&r.res, "default knob wq.writeback.nice");
	assert_non_null(e);
	assert_string_equal(e->base, "0");
	assert_string_equal(e->new, "5");
	e = env_find(&r.res, "threaded knob sched.ksoftirqd");
	assert_non_null(e);
	assert_string_equal(e->base, "(not set)");
	assert_string_equal(e->new, "fifo:2");
	assert_null(env_find(&r.res, "default knob net.threaded"));	/* the same value */
	assert_null(env_find(&r.res, "kernel"));
	cmp_result_free(&r.res);

	/* the other way round: set in base only */
	assert_int_equal(compare_runs(&r.new, &r.base, &co, &r.res, err), 0);
	e = env_find(&r.res, "default knob sched.ksoftirqd");
	assert_non_null(e);
	assert_string_equal(e->base, "fifo:2");
	assert_string_equal(e->new, "(not set)");
	free_pair(&r);
}

/* judged - rows judged with enough repetitions on both sides */
static size_t judged(const struct cmp_result *res, unsigned int min_reps)
{
	size_t i, n = 0;

	for (i = 0; i < res->nrows; i++)
		n += res->rows[i].judged && strcmp(res->rows[i].id, "*") &&
		     res->rows[i].nb >= min_reps && res->rows[i].nn >= min_reps;
	return n;
}

/*
 * the confidence is for the whole comparison: with k judged metrics each interval is
 * at 1 - 0.05 / k, so the same metric's interval widens as more metrics are judged,
 * and a difference decided alone can be undecided among many
 */
static void test_compare_multiple(void **state)
{
	static const char *const one[] = { "workload:rtt:p50" };
	struct cmp_opts co = { 0 };
	const struct cmp_row *row;
	struct synth_opts b, n;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];
	double lo_one, hi_one;
	size_t k;

	(void)state;
	small(&b);
	small(&n);
	n.seed = 7;
	n.slowdown = 1.3;
	b.rep_noise = n.rep_noise = 0.03;
	load_pair(&r, &b, &n);
	co.j = jo();
	co.judge_patterns = one;
	co.npatterns = 1;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_int_equal(r.res.njudged, 2);		/* rtt p50 of 2 configurations */
	assert_true(fabs(r.res.metric_confidence - (1 - 0.05 / 2)) < 1e-12);
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_non_null(row);
	lo_one = row->j.lo;
	hi_one = row->j.hi;
	assert_int_equal(row->j.v, V_WORSE);
	cmp_result_free(&r.res);

	co.judge_patterns = NULL;
	co.npatterns = 0;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	k = judged(&r.res, co.j.min_reps);
	assert_true(k > 20);
	assert_int_equal(r.res.njudged, k);
	assert_true(fabs(r.res.metric_confidence - (1 - 0.05 / (double)k)) < 1e-12);
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_non_null(row);
	assert_true(row->j.lo < lo_one && row->j.hi > hi_one);
	assert_int_equal(row->j.v, V_CANNOT_TELL);
	free_pair(&r);
}

/* older summary.json files (no thread_wakeup) compare as before, without wakeup rows */
static void test_compare_wakeup_absent(void **state)
{
	struct cmp_opts co = { 0 };
	struct synth_opts o;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];
	size_t i;

	(void)state;
	small(&o);
	o.no_wakeup = true;
	load_pair(&r, &o, &o);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	for (i = 0; i < r.res.nrows; i++)
		assert_null(strstr(r.res.rows[i].id, "wakeup"));
	assert_non_null(find_row(&r.res, "net", "default", "workload:rtt:p99"));
	free_pair(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_identical),
		cmocka_unit_test(test_judge_doubled),
		cmocka_unit_test(test_judge_noisy),
		cmocka_unit_test(test_judge_small_change),
		cmocka_unit_test(test_judge_too_few),
		cmocka_unit_test(test_judge_zero),
		cmocka_unit_test(test_judge_maybe_less),
		cmocka_unit_test(test_compare_itself),
		cmocka_unit_test(test_compare_doubled),
		cmocka_unit_test(test_compare_lossy),
		cmocka_unit_test(test_compare_failed_cell),
		cmocka_unit_test(test_compare_disjoint),
		cmocka_unit_test(test_compare_patterns),
		cmocka_unit_test(test_compare_wakeup),
		cmocka_unit_test(test_compare_wakeup_absent),
		cmocka_unit_test(test_compare_one_sided),
		cmocka_unit_test(test_compare_knob_diffs),
		cmocka_unit_test(test_compare_multiple),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
