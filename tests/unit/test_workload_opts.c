// SPDX-License-Identifier: GPL-2.0
/*
 * test_workload_opts.c - workload options (types, bounds, messages), the registry's
 * tables, and the driver's lifecycle on a fake workload. No root needed.
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload.h"
#include "msg.h"

/* a fake workload with one option of every type, counting its lifecycle calls */
struct fake_cfg {
	uint64_t u;
	int i;
	double d;
	uint64_t dur;
	uint64_t size;
	bool b;
	int e;
	cpu_set_t cpus;
	char s[WL_STR_MAX];
};

static const char *const fake_choices[] = { "alpha", "beta" };

static const struct opt_desc fake_options[] = {
	OPT_U64(0, NULL, fake_cfg, u, "N", 1, 100, "u64", .key = "u", .def = "10"),
	OPT_INT(0, NULL, fake_cfg, i, "N", -20, 19, "int", .key = "i", .def = "0"),
	OPT_DOUBLE(0, NULL, fake_cfg, d, "X", 0, 1, "double", .key = "d", .def = "0.5"),
	OPT_DURATION(0, NULL, fake_cfg, dur, "DUR", 50000, NSEC_PER_SEC, "duration", .key = "dur",
		     .def = "1ms"),
	OPT_SIZE(0, NULL, fake_cfg, size, 512, 1 << 20, "size", .key = "size", .def = "4k"),
	OPT_BOOL(0, NULL, fake_cfg, b, "bool", .key = "b", .def = "no"),
	OPT_ENUM(0, NULL, fake_cfg, e, "WORD", fake_choices, 2, "enum", .key = "e", .def = "beta"),
	OPT_CPUSET(0, NULL, fake_cfg, cpus, "cpus", .key = "cpus", .def = "0"),
	OPT_STRING_BUF(0, NULL, fake_cfg, s, "TEXT", "string", .key = "s", .def = "x"),
	OPT_END(),
};

static int n_setup, n_start, n_stop, n_teardown, fail_setup, fail_start;

static int fake_setup(struct wl_run *w, char *errbuf)
{
	n_setup++;
	wl_metric_add(w, "lat", "ns", "test");
	wl_rate(w, wl_counter_add(w, "ops"), 100);
	if (fail_setup)
		return set_err(errbuf, "fake: refused");
	return 0;
}

static int fake_start(struct wl_run *w __unused, char *errbuf __unused)
{
	n_start++;
	return fail_start ? -EPERM : 0;
}

static void fake_stop(struct wl_run *w)
{
	n_stop++;
	w->metrics.counter[0].value = 42;
	hist_add(&w->metrics.metric[0].hist, 1000);
}

static void fake_teardown(struct wl_run *w __unused)
{
	n_teardown++;
}

static const struct workload_ops fake_workload = {
	.name = "fake", .help = "test", .options = fake_options,
	.cfg_size = sizeof(struct fake_cfg), .priv_size = 8,
	.setup = fake_setup, .start = fake_start, .stop = fake_stop,
	.teardown = fake_teardown,
};

static int reset_counts(void **state __unused)
{
	n_setup = n_start = n_stop = n_teardown = fail_setup = fail_start = 0;
	return 0;
}

static void test_defaults(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	struct fake_cfg *c;

	assert_non_null(w);
	c = w->cfg;
	assert_int_equal(c->u, 10);
	assert_int_equal(c->dur, 1000000);
	assert_int_equal(c->size, 4096);
	assert_int_equal(c->e, 1);
	assert_true(CPU_ISSET(0, &c->cpus));
	assert_string_equal(c->s, "x");
	assert_int_equal(w->seed, 1);
	wl_free(w);
}

/* expect_bad - the option is refused and the message names it and says why */
static void expect_bad(struct wl_run *w, const char *key, const char *val, const char *why)
{
	char errbuf[ERRBUF_LEN] = "";

	assert_int_equal(wl_set_option(w, key, val, errbuf), -EINVAL);
	if (!strstr(errbuf, why) || !strstr(errbuf, key))
		fail_msg("%s=%s: message '%s' lacks '%s'", key, val, errbuf, why);
}

static void test_bounds(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	struct fake_cfg *c = w->cfg;
	char errbuf[ERRBUF_LEN];

	expect_bad(w, "u", "0", "out of range [1, 100]");
	expect_bad(w, "u", "101", "out of range");
	expect_bad(w, "u", "abc", "not a non-negative integer");
	expect_bad(w, "u", "12x", "not a non-negative integer");
	expect_bad(w, "u", "", "not a non-negative integer");
	expect_bad(w, "u", "-1", "not a non-negative integer");
	expect_bad(w, "i", "-21", "out of range [-20, 19]");
	expect_bad(w, "d", "1.5", "out of range");
	expect_bad(w, "d", "nan", "not a number");
	expect_bad(w, "dur", "10us", "out of range [50us, 1s]");
	expect_bad(w, "dur", "2s", "out of range");
	expect_bad(w, "dur", "5parsecs", "unknown unit");
	expect_bad(w, "size", "100", "out of range");
	expect_bad(w, "size", "2M", "out of range");
	expect_bad(w, "b", "maybe", "not a boolean");
	expect_bad(w, "e", "gamma", "'gamma' is none of alpha, beta");
	expect_bad(w, "cpus", "1023", "not online");
	expect_bad(w, "cpus", "x", "not a CPU list");
	/* a refused value leaves the previous one */
	assert_int_equal(c->u, 10);
	assert_int_equal(wl_set_option(w, "u", "100", errbuf), 0);
	assert_int_equal(c->u, 100);
	assert_int_equal(wl_set_option(w, "i", "-20", errbuf), 0);
	assert_int_equal(c->i, -20);
	assert_int_equal(wl_set_option(w, "dur", "1.5ms", errbuf), 0);
	assert_int_equal(c->dur, 1500000);
	assert_int_equal(wl_set_option(w, "size", "1M", errbuf), 0);
	assert_int_equal(c->size, 1 << 20);
	assert_int_equal(wl_set_option(w, "e", "alpha", errbuf), 0);
	assert_int_equal(c->e, 0);
	assert_int_equal(wl_set_option(w, "b", "yes", errbuf), 0);
	assert_true(c->b);
	assert_int_equal(wl_set_option(w, "cpus", "all", errbuf), 0);
	assert_true(CPU_COUNT(&c->cpus) >= 1);
	wl_free(w);
}

static void test_unknown_lists_options(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	char errbuf[ERRBUF_LEN], longs[WL_STR_MAX + 8];

	assert_int_equal(wl_set_option(w, "nope", "1", errbuf), -EINVAL);
	assert_non_null(strstr(errbuf, "no option 'nope'"));
	assert_non_null(strstr(errbuf, "u, i, d, dur, size, b, e, cpus, s"));
	memset(longs, 'a', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	expect_bad(w, "s", longs, "longer than");
	wl_free(w);
}

static void test_value_round_trip(void **state __unused)
{
	const struct opt_desc *o;
	struct wl_run *w = wl_new(&fake_workload);
	char val[256], again[256], errbuf[ERRBUF_LEN];

	wl_set_option(w, "dur", "2500us", errbuf);
	wl_set_option(w, "size", "3000", errbuf);
	for (o = fake_options; o->type != OPTION_END; o++) {
		assert_int_equal(wl_option_value(w, o, val, sizeof(val)), 0);
		assert_int_equal(wl_set_option(w, o->key, val, errbuf), 0);
		wl_option_value(w, o, again, sizeof(again));
		assert_string_equal(val, again);
	}
	wl_option_value(w, wl_option_find(&fake_workload, "dur"), val, sizeof(val));
	assert_string_equal(val, "2500us");
	wl_option_value(w, wl_option_find(&fake_workload, "size"), val, sizeof(val));
	assert_string_equal(val, "3000");
	wl_free(w);
}

/* every registered workload: defaults parse, names unique, bounds sane, values round-trip */
static void test_registry_tables(void **state __unused)
{
	const struct workload_ops *const *r;
	const struct opt_desc *o, *q;
	char val[256], errbuf[ERRBUF_LEN];

	assert_non_null(workload_find("timer"));
	assert_non_null(workload_find("audio"));
	assert_null(workload_find("nope"));
	for (r = workload_registry; *r; r++) {
		struct wl_run *w = wl_new(*r);

		assert_non_null(w);
		assert_non_null((*r)->help);
		for (o = (*r)->options; o->type != OPTION_END; o++) {
			/* a key of files and of load's --KEY, never a spelling of its own */
			assert_non_null(o->key);
			assert_true(!o->name && !o->letter);
			assert_true(o->help && o->help[0]);
			assert_true(o->type == OPTION_INT || o->min <= o->max);
			assert_true(o->fmin <= o->fmax);
			assert_true(o->off < (*r)->cfg_size);
			for (q = o + 1; q->type != OPTION_END; q++)
				assert_string_not_equal(o->key, q->key);
			/* no clash with deferbench load's own options */
			assert_string_not_equal(o->key, "duration");
			assert_string_not_equal(o->key, "output");
			assert_string_not_equal(o->key, "seed");
			assert_string_not_equal(o->key, "list");
			assert_string_not_equal(o->key, "help");
			assert_int_equal(wl_option_value(w, o, val, sizeof(val)), 0);
			if (wl_set_option(w, o->key, val, errbuf))
				fail_msg("%s.%s=%s: %s", (*r)->name, o->key, val, errbuf);
		}
		wl_free(w);
	}
}

/*
 * every primary metric fits the results' table, and each work:NAME one names a work
 * group of its own workload (a renamed group would leave compare with nothing to judge)
 */
static void test_primary_names_work(void **state __unused)
{
	const struct workload_ops *const *r;
	const char *const *p;
	size_t n, i, k;

	for (r = workload_registry; *r; r++) {
		for (n = 0; (*r)->work && (*r)->work[n]; n++) {
			assert_true((*r)->work[n]->nmember >= 1);
			assert_true((*r)->work[n]->nmember <= WORK_MEMBERS);
		}
		assert_true(n <= WORK_MAX);
		for (i = 0, p = (*r)->primary; p && *p; p++, i++) {
			const char *name = *p + 5, *end = strchr(name, ':');

			if (strncmp(*p, "work:", 5))
				continue;
			assert_non_null(end);
			for (k = 0; k < n; k++)
				if (strlen((*r)->work[k]->name) == (size_t)(end - name) &&
				    !strncmp((*r)->work[k]->name, name, end - name))
					break;
			if (k == n)
				fail_msg("%s: primary %s names no work group", (*r)->name, *p);
		}
		assert_true(i <= PRIMARY_MAX);
	}
	/* block judges its two workqueues apart: kblockd's rate hid writeback's pool */
	r = workload_registry;
	while (*r && strcmp((*r)->name, "block"))
		r++;
	assert_non_null(*r);
	assert_string_equal((*r)->work[0]->name, "kblockd");
	assert_string_equal((*r)->work[1]->name, "writeback");
	assert_null((*r)->work[2]);
}

static void test_lifecycle(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	char errbuf[ERRBUF_LEN];

	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_set_option(w, "u", "5", errbuf), -EINVAL);	/* too late */
	assert_int_equal(wl_start(w, errbuf), 0);
	assert_false(wl_stopping(w));
	wl_stop(w);
	assert_true(wl_stopping(w));
	wl_stop(w);
	wl_teardown(w);
	wl_teardown(w);
	assert_int_equal(n_stop, 1);
	assert_int_equal(n_teardown, 1);
	/* rate counters appear after stop */
	assert_int_equal(w->metrics.ncounters, 3);
	assert_string_equal(w->metrics.counter[1].name, "rate_asked");
	assert_true(w->metrics.counter[2].value > 0);
	wl_free(w);
	assert_int_equal(n_teardown, 1);
}

static void test_failed_setup_tears_down(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	char errbuf[ERRBUF_LEN];

	fail_setup = 1;
	assert_int_equal(wl_setup(w, errbuf), -EINVAL);
	assert_string_equal(errbuf, "fake: refused");
	assert_int_not_equal(wl_start(w, errbuf), 0);	/* start needs a setup */
	wl_free(w);
	assert_int_equal(n_start, 0);
	assert_int_equal(n_stop, 0);
	assert_int_equal(n_teardown, 1);
}

static void test_failed_start_stops(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);
	char errbuf[ERRBUF_LEN];

	fail_start = 1;
	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_start(w, errbuf), -EPERM);
	assert_non_null(strstr(errbuf, "fake: start failed"));
	assert_int_equal(n_stop, 1);	/* partial start undone at once */
	wl_free(w);
	assert_int_equal(n_stop, 1);
	assert_int_equal(n_teardown, 1);
}

static void test_free_without_setup(void **state __unused)
{
	wl_free(wl_new(&fake_workload));
	wl_free(NULL);
	assert_int_equal(n_setup + n_stop + n_teardown, 0);
}

static void test_fail_first_wins(void **state __unused)
{
	struct wl_run *w = wl_new(&fake_workload);

	assert_null(wl_error(w));
	wl_fail(w, -EIO, "first %d", 1);
	wl_fail(w, -EPERM, "second");
	assert_string_equal(wl_error(w), "first 1");
	assert_int_equal(w->err, -EIO);
	wl_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_defaults, reset_counts),
		cmocka_unit_test_setup(test_bounds, reset_counts),
		cmocka_unit_test_setup(test_unknown_lists_options, reset_counts),
		cmocka_unit_test_setup(test_value_round_trip, reset_counts),
		cmocka_unit_test_setup(test_registry_tables, reset_counts),
		cmocka_unit_test_setup(test_primary_names_work, reset_counts),
		cmocka_unit_test_setup(test_lifecycle, reset_counts),
		cmocka_unit_test_setup(test_failed_setup_tears_down, reset_counts),
		cmocka_unit_test_setup(test_failed_start_stops, reset_counts),
		cmocka_unit_test_setup(test_free_without_setup, reset_counts),
		cmocka_unit_test_setup(test_fail_first_wins, reset_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
