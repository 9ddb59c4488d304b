// SPDX-License-Identifier: GPL-2.0
/*
 * test_compare.c - compare_runs() on synthetic run directories written by
 * tests/lib/synth.c: what is judged, in which family, and the verdicts on a known
 * truth (the statistics themselves: test_verdict.c).
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
#include <unistd.h>
#include <cmocka.h>

#include "advise.h"
#include "compare.h"
#include "rundir.h"
#include "fixture.h"
#include "synth.h"
#include "msg.h"

/*
 * The host's spread between runs, calibrated from three runs of small() (below): two
 * runs of it compared with this are judged with the runs as the unit (a t-test on the
 * runs' figures); test_compare_default_floor shows what two runs get without a
 * calibration. Metrics of other workloads are uncalibrated.
 */
static struct noise calibrated;
static void small(struct synth_opts *o);

static struct judge_opts jo(void)
{
	struct judge_opts o;

	judge_opts_default(&o);
	o.noise = &calibrated;
	return o;
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
	o->duration_s = 8;
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
	/* identical data: never a difference, in either family */
	assert_int_equal(r.res.count[V_WORSE] + r.res.count[V_BETTER], 0);
	assert_int_equal(r.res.advisory[V_WORSE] + r.res.advisory[V_BETTER], 0);
	assert_int_equal(r.res.nenv, 0);
	assert_int_equal(r.res.matched, 2);
	/* the fallback primary metrics of a net workload (results without a list) */
	assert_true(find_row(&r.res, "net", "default", "workload:rtt:p99")->primary);
	assert_true(find_row(&r.res, "net", "default", "softirq:NET_RX:delay:p99")->primary);
	assert_false(find_row(&r.res, "net", "default", "workload:rtt:p50")->primary);
	assert_int_equal(r.res.nprimary, 4);
	cmp_result_free(&r.res);
	/*
	 * 3 repetitions cannot show a p99 within 10%, but within a margin as wide as
	 * their spread "no change" is decided: an equivalence, not an absence of evidence
	 */
	co.j.threshold = 1.0;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_int_equal(r.res.count[V_NO_CHANGE], 4);
	free_pair(&r);
}

/*
 * a doubled latency between two runs of a calibrated host: "worse" on the medians (the
 * runs as the unit, against their calibrated spread); the p99s, whose spread three
 * calibration runs leave wide, may stay undecided, so the p50 is the primary metric here
 */
static void test_compare_doubled(void **state)
{
	static const char *const p50[] = { "workload:rtt:p50" };
	struct synth_opts b, n;
	struct cmp_opts co = { .primary = p50, .nprimary = 1 };
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
	assert_true(row->j.runs_unit);
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

/*
 * Two separate runs without a calibration: the spread inside each run says nothing of how
 * far apart runs are, so every margin is at least the default floor - x2 on p50 and p90,
 * x6 above - and a doubled p50 is not "worse" on the spread inside the runs alone; a
 * five-fold one is
 */
static void test_compare_default_floor(void **state)
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
	load_pair(&r, &b, &n);
	judge_opts_default(&co.j);
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_non_null(row);
	assert_true(row->j.margin_default);
	assert_true(fabs(row->j.margin - DEFAULT_FLOOR_MID) < 1e-12);
	assert_int_not_equal(row->j.v, V_WORSE);
	row = find_row(&r.res, "net", "default", "workload:rtt:p99");
	assert_true(fabs(row->j.margin - DEFAULT_FLOOR_TAIL) < 1e-12);
	cmp_result_free(&r.res);
	/* one run compared with itself is one run: the threshold */
	assert_int_equal(compare_runs(&r.base, &r.base, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_false(row->j.margin_default);
	assert_true(fabs(row->j.margin - 0.10) < 1e-12);
	free_pair(&r);

	small(&n);
	n.seed = 2;
	n.slowdown = 5;
	load_pair(&r, &b, &n);
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "default", "workload:rtt:p50");
	assert_int_equal(row->j.v, V_WORSE);
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

/* --metric names the primary metrics: only they decide, the defaults stay advisory */
static void test_compare_patterns(void **state)
{
	static const char *const pat[] = { "workload:*:p50" };
	struct cmp_opts co = { .primary = pat, .nprimary = 1 };
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
		if (r.res.rows[i].primary)
			assert_string_equal(r.res.rows[i].id, "workload:rtt:p50");
	assert_int_equal(r.res.nprimary, 2);	/* 2 configurations */
	assert_true(r.res.nadvisory > 2);
	assert_false(cmp_regressed(&r.res));
	free_pair(&r);
}

/* thread wakeup p99s are shown for information, never judged: no histograms to resample */
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

	/* named primary, they are still information: nothing decides the exit status */
	co.primary = pat;
	co.nprimary = 1;
	co.j.min_tail = 1;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	row = find_row(&r.res, "net", "threaded", "wakeup:ksoftirqd:1:p99");
	assert_non_null(row);
	assert_false(row->primary);
	assert_int_equal(row->j.v, V_INFO);
	assert_int_equal(r.res.nprimary, 0);
	assert_false(cmp_regressed(&r.res));
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * family_levels - the levels Holm held a family's members to, ascending: every metric
 * judged is a member, held to its side claim's level unless it was decided "no change"
 * (at alpha alone: *same counts those) or a direction (its own closed test)
 */
static size_t family_levels(const struct cmp_result *res, bool primary, double *lv, size_t max,
			    size_t *same)
{
	size_t i, n = 0;

	*same = 0;
	for (i = 0; i < res->nrows && n < max; i++) {
		const struct cmp_row *r = &res->rows[i];

		if (!r->judged || r->primary != primary || isnan(r->j.p))
			continue;
		if (r->j.v == V_NO_CHANGE) {
			assert_true(fabs(r->j.level - 0.05) < 1e-12);
			(*same)++;
			continue;
		}
		if (r->j.v == V_HIGHER || r->j.v == V_LOWER)
			continue;
		lv[n++] = r->j.level;
	}
	qsort(lv, n, sizeof(*lv), cmp_double);
	return n;
}

/*
 * holm_levels - lv[0..k) are Holm's levels in a family of m: each alpha / (m - rank),
 * the i-th smallest of rank i or more
 */
static void holm_levels(const double *lv, size_t k, size_t m)
{
	size_t i;

	for (i = 0; i < k; i++) {
		double j = 0.05 / lv[i];

		assert_true(fabs(j - round(j)) < 1e-6);
		assert_true(round(j) >= 1 && round(j) <= (double)m);
		assert_true(lv[i] >= 0.05 / (double)(m - i) - 1e-12);
	}
}

/*
 * the correction for many metrics covers each family: every metric judged is one of
 * Holm's hypotheses, held to alpha/m, alpha/(m-1), ..., alpha by the rank of its side
 * claim, whatever its data say (a family counted from its side claims alone let 3.5%
 * of simulated A/A families through where 0.5% belonged); a "no change" claim stands on
 * its own at alpha (an equivalence test per metric)
 */
static void test_compare_families(void **state)
{
	static const char *const one[] = { "workload:rtt:p99" };
	struct cmp_opts co = { 0 };
	struct synth_opts b, n;
	struct runs r = { 0 };
	char err[ERRBUF_LEN];
	double lv[512];
	size_t k, same;

	(void)state;
	small(&b);
	small(&n);
	n.seed = 7;
	n.slowdown = 1.3;
	load_pair(&r, &b, &n);
	co.j = jo();
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	k = family_levels(&r.res, true, lv, 512, &same);
	assert_true(k + same <= r.res.nprimary);
	assert_true(r.res.nprimary >= 4 && k >= 2);
	holm_levels(lv, k, r.res.nprimary);
	k = family_levels(&r.res, false, lv, 512, &same);
	assert_true(k + same <= r.res.nadvisory);
	assert_true(r.res.nadvisory > 20);
	holm_levels(lv, k, r.res.nadvisory);
	cmp_result_free(&r.res);

	/* one primary metric in 2 configurations: a family of 2 */
	co.primary = one;
	co.nprimary = 1;
	assert_int_equal(compare_runs(&r.base, &r.new, &co, &r.res, err), 0);
	assert_int_equal(r.res.nprimary, 2);
	k = family_levels(&r.res, true, lv, 512, &same);
	holm_levels(lv, k, 2);
	free_pair(&r);
}

/* noise.json numbers out of range: runs, alpha, looks, then a floor's floor, sd, runs */
static const struct {
	const char *v[6];
	const char *field;
} noise_mutants[] = {
	{ { "3", "0.05", "1", "1e308", "0.1", "3" }, "floors[0]" },
	{ { "3", "0.05", "1", "-0.5", "0.1", "3" }, "floors[0]" },
	{ { "3", "0.05", "1", "\"0.2\"", "0.1", "3" }, "floor" },
	{ { "3", "0.05", "1", "0.2", "50", "3" }, "sd" },
	{ { "3", "0.05", "1", "0.2", "-0.1", "3" }, "sd" },
	{ { "3", "0.05", "1", "0.2", "0.1", "2" }, "runs" },
	{ { "3", "0.05", "1", "0.2", "0.1", "4" }, "runs" },
	{ { "-1", "0.05", "1", "0.2", "0.1", "3" }, "runs" },
	{ { "18446744073709551616", "0.05", "1", "0.2", "0.1", "3" }, "runs" },
	{ { "3.5", "0.05", "1", "0.2", "0.1", "3" }, "runs" },
	{ { "3", "0", "1", "0.2", "0.1", "3" }, "alpha" },
	{ { "3", "0.7", "1", "0.2", "0.1", "3" }, "alpha" },
	{ { "3", "1e308", "1", "0.2", "0.1", "3" }, "alpha" },
	{ { "3", "0.05", "0", "0.2", "0.1", "3" }, "looks" },
	{ { "3", "0.05", "1000", "0.2", "0.1", "3" }, "looks" },
};

static void test_noise_roundtrip(void **state)
{
	char path[] = "/tmp/deferbench-test-noise-XXXXXX";
	struct noise n = { .runs = 3, .alpha = 0.05, .looks = 4 }, m = { 0 };
	char err[ERRBUF_LEN];
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(n.host, sizeof(n.host), "h");
	assert_int_equal(noise_add(&n, "tty", "baseline", "workload:delivery:p99", 0.1, 3, 0.25),
			 0);
	assert_int_equal(noise_add(&n, "tty", "baseline", "workload:delivery:p99", 0.2, 3, 0.5),
			 0);
	assert_int_equal(noise_add(&n, "net", "baseline", "wq:x:y:delay:p50", 2.5, 3, 131.6), 0);
	assert_int_equal(noise_save(path, &n), 0);
	assert_int_equal(noise_load(path, &m, err), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.looks, 4);
	assert_true(fabs(noise_floor(&m, "tty", "baseline", "workload:delivery:p99") - 0.5) < 1e-9);
	assert_true(fabs(noise_find(&m, "tty", "baseline", "workload:delivery:p99")->sd - 0.2) <
		    1e-9);
	assert_int_equal(noise_find(&m, "tty", "baseline", "workload:delivery:p99")->runs, 3);
	assert_true(fabs(noise_floor(&m, "net", "baseline", "wq:x:y:delay:p50") - 131.6) < 1e-9);
	assert_true(isnan(noise_floor(&m, "net", "baseline", "workload:rtt:p99")));
	noise_free(&m);

	/* a schema 1 file is read; its metrics have no spread (uncalibrated) */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{ \"schema\": \"" NOISE_SCHEMA_1 "\", \"host\": \"h\", \"kernel\": \"k\", "
	      "\"scenario\": \"s\", \"created\": \"c\", \"runs\": 2, \"alpha\": 0.05, "
	      "\"looks\": 1, \"floors\": [ { \"workload\": \"tty\", \"config\": \"b\", "
	      "\"metric\": \"workload:delivery:p99\", \"floor\": 0.5, \"pairs\": 1 } ] }\n", f);
	fclose(f);
	assert_int_equal(noise_load(path, &m, err), 0);
	assert_int_equal(noise_find(&m, "tty", "b", "workload:delivery:p99")->runs, 0);
	noise_free(&m);

	/*
	 * the mutation corpus: every number out of its range, one field at a time, is
	 * refused with the field named (never a silently changed margin)
	 */
	for (size_t i = 0; i < ARRAY_SIZE(noise_mutants); i++) {
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "{ \"schema\": \"" NOISE_SCHEMA "\", \"runs\": %s, \"alpha\": %s, "
			"\"looks\": %s, \"floors\": [ { \"workload\": \"tty\", \"config\": \"b\", "
			"\"metric\": \"workload:delivery:p99\", \"floor\": %s, \"sd\": %s, "
			"\"runs\": %s } ] }\n", noise_mutants[i].v[0], noise_mutants[i].v[1],
			noise_mutants[i].v[2], noise_mutants[i].v[3], noise_mutants[i].v[4],
			noise_mutants[i].v[5]);
		fclose(f);
		err[0] = '\0';
		if (!noise_load(path, &m, err))
			fail_msg("noise.json mutant %zu (%s) accepted", i, noise_mutants[i].field);
		if (!strstr(err, noise_mutants[i].field))
			fail_msg("noise.json mutant %zu: '%s' does not name %s", i, err,
				 noise_mutants[i].field);
		noise_free(&m);
	}
	noise_free(&n);
	unlink(path);
}

/*
 * test_advise_load_groups - a configuration that starts a background load is a
 * condition, not a choice: it is advised only against the others under the same load
 */
static void test_advise_load_groups(void **state)
{
	static const char *const cfgs[] = { "default", "fast", "hog", "hog-nice", NULL };
	struct synth_opts o;
	struct runs r = { 0 };
	struct judge_opts jo;
	struct advice a;
	char err[ERRBUF_LEN];
	size_t i, groups = 0;

	(void)state;
	small(&o);
	o.configs = cfgs;
	load_pair(&r, &o, &o);
	judge_opts_default(&jo);
	assert_int_equal(advise_run(&r.base, &jo, &a, err), 0);
	for (i = 0; i < a.n; i++) {
		const struct adv_workload *w = &a.wl[i];

		if (strcmp(w->workload, "net"))
			continue;
		groups++;
		assert_int_equal(w->ncfg, 1);
		if (w->loads[0]) {
			assert_string_equal(w->loads, "hog");
			assert_string_equal(w->ref->config, "hog");
			assert_string_equal(w->cfg[0].s->config, "hog-nice");
		} else {
			assert_string_equal(w->ref->config, "default");
			assert_string_equal(w->cfg[0].s->config, "fast");
		}
	}
	assert_int_equal(groups, 2);
	advise_free(&a);
	free_pair(&r);
}

/*
 * test_advise_one_family - the answers of one advise are read together: every
 * configuration of every workload is judged in one Holm family for the run, its n
 * members held to alpha/n, alpha/(n-1), ..., alpha (a family per workload gave each
 * workload its own alpha, and an A/A of five workloads a claim in about one run in five)
 */
static void test_advise_one_family(void **state)
{
	static const char *const wls[] = { "net", "tty", NULL };
	struct synth_opts o;
	struct runs r = { 0 };
	struct judge_opts jo;
	struct advice a;
	char err[ERRBUF_LEN];
	size_t i, c, k, n = 0, per[2] = { 0 };
	double lv[128];

	(void)state;
	small(&o);
	o.workloads = wls;
	load_pair(&r, &o, &o);
	judge_opts_default(&jo);
	jo.threshold = 0.001;	/* too narrow for "no change": each metric claims a side */
	assert_int_equal(advise_run(&r.base, &jo, &a, err), 0);
	assert_int_equal(a.n, 2);
	for (i = 0; i < a.n; i++)
		for (c = 0; c < a.wl[i].ncfg; c++)
			for (k = 0; k < a.wl[i].nprim; k++) {
				const struct judgement *j = &a.wl[i].cfg[c].j[k];

				if (isnan(j->p))
					continue;
				assert_int_not_equal(j->v, V_NO_CHANGE);
				assert_true(n < 128);
				lv[n++] = j->level;
				per[i]++;
			}
	assert_true(per[0] >= 2 && per[1] >= 2);
	qsort(lv, n, sizeof(*lv), cmp_double);
	for (i = 0; i < n; i++)
		assert_true(fabs(lv[i] - 0.05 / (double)(n - i)) < 1e-12);
	advise_free(&a);
	free_pair(&r);
}

/*
 * test_advise_many_primaries - patterns that match more ids than PRIMARY_MAX (tune's
 * workload:*:p[59]0) are all judged: advise once kept the first 8 and dropped the rest
 */
static void test_advise_many_primaries(void **state)
{
	struct synth_opts o;
	struct runs r = { 0 };
	struct judge_opts jo;
	struct advice a;
	char err[ERRBUF_LEN];
	size_t i;

	(void)state;
	small(&o);
	load_pair(&r, &o, &o);
	for (i = 0; i < r.base.ncells; i++) {
		struct primary_list *p = &r.base.cells[i].primary;

		p->n = 2;
		snprintf(p->id[0], sizeof(p->id[0]), "*:p[59]0");
		snprintf(p->id[1], sizeof(p->id[1]), "*:p99");
	}
	judge_opts_default(&jo);
	assert_int_equal(advise_run(&r.base, &jo, &a, err), 0);
	assert_true(a.n > 0);
	for (i = 0; i < a.n; i++)
		assert_true(a.wl[i].nprim > PRIMARY_MAX);
	advise_free(&a);
	free_pair(&r);
}

/*
 * calibrate_spread - the spread between runs: the sd of the runs' logs, and the change a
 * t-test of two runs at alpha would just call beyond chance
 */
static void test_noise_spread(void **state)
{
	const double v[] = { 100, 110, 121 };	/* logs 0.0953 apart */
	double sd, floor;

	(void)state;
	assert_int_equal(calibrate_spread(v, 3, 0.05, &sd, &floor), 0);
	assert_true(fabs(sd - log(1.1)) < 1e-9);
	/* expm1(t_2(0.975) sd sqrt(2)) = expm1(4.3027 x 0.09531 x 1.41421) */
	assert_true(fabs(floor - expm1(4.302653 * log(1.1) * M_SQRT2)) < 1e-4);
	assert_int_equal(calibrate_spread(v, 2, 0.05, &sd, &floor), -EINVAL);
	assert_int_equal(calibrate_spread((const double[]){ 1, 0, 2 }, 3, 0.05, &sd, &floor),
			 -EINVAL);
}

/*
 * judge_eval_sets - two sets of runs, the runs the unit: pairs that all doubled are
 * decided beyond a 10% margin; one run a side cannot be judged; unpaired sets use
 * Welch's t
 */
static void test_sets(void **state)
{
	const double b[] = { 100, 104, 97, 101 }, n[] = { 200, 212, 190, 205 };
	struct judgement j, *jp = &j;
	double *d = NULL;
	struct judge_opts o;

	(void)state;
	judge_opts_default(&o);
	assert_int_equal(judge_eval_sets(b, 4, n, 4, true, 0.10, &o, &j), 0);
	assert_true(j.runs_unit && j.paired);
	assert_true(j.ratio > 1.9 && j.ratio < 2.1);
	assert_int_equal(judge_family(&jp, &d, 1, &o), 0);
	assert_int_equal(j.v, V_WORSE);
	assert_true(j.lo > 1.1);
	/* Welch's: the same figures, not paired */
	assert_int_equal(judge_eval_sets(b, 4, n, 4, false, 0.10, &o, &j), 0);
	assert_int_equal(judge_family(&jp, &d, 1, &o), 0);
	assert_int_equal(j.v, V_WORSE);
	/* a side of one run: no spread, no verdict */
	assert_int_equal(judge_eval_sets(b, 1, n, 4, false, 0.10, &o, &j), 0);
	assert_true(isnan(j.p));
	assert_non_null(strstr(j.why, "need 2 on each side"));
	/* runs without a figure (0) do not count */
	assert_int_equal(judge_eval_sets((const double[]){ 100, 0, 101 }, 3,
					 (const double[]){ 100, 99, 0 }, 3, true, 0.10, &o, &j), 0);
	assert_true(isnan(j.p));
}

static int calibrate_setup(void **state)
{
	struct run runs[3];
	struct synth_opts o;
	struct judge_opts j;
	char err[ERRBUF_LEN], path[4096], *dir = fixture_dir();
	int i, ret = 0;

	(void)state;
	for (i = 0; i < 3 && !ret; i++) {
		small(&o);
		o.seed = 101 + (uint64_t)i;
		snprintf(path, sizeof(path), "%s/cal%d", dir, i);
		ret = synth_run(path, &o) || run_load(path, &runs[i], err);
	}
	judge_opts_default(&j);
	ret = ret ?: calibrate_noise(runs, 3, &j, &calibrated, err);
	for (i = 0; i < 3; i++)
		run_free(&runs[i]);
	fixture_free(dir);
	return ret ? -1 : 0;
}

static int calibrate_teardown(void **state)
{
	(void)state;
	noise_free(&calibrated);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_itself),
		cmocka_unit_test(test_compare_doubled),
		cmocka_unit_test(test_compare_default_floor),
		cmocka_unit_test(test_compare_lossy),
		cmocka_unit_test(test_compare_failed_cell),
		cmocka_unit_test(test_compare_disjoint),
		cmocka_unit_test(test_compare_patterns),
		cmocka_unit_test(test_compare_wakeup),
		cmocka_unit_test(test_compare_wakeup_absent),
		cmocka_unit_test(test_compare_one_sided),
		cmocka_unit_test(test_compare_knob_diffs),
		cmocka_unit_test(test_compare_families),
		cmocka_unit_test(test_noise_roundtrip),
		cmocka_unit_test(test_noise_spread),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_advise_load_groups),
		cmocka_unit_test(test_advise_many_primaries),
		cmocka_unit_test(test_advise_one_family),
	};

	return cmocka_run_group_tests(tests, calibrate_setup, calibrate_teardown);
}
