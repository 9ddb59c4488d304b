// SPDX-License-Identifier: GPL-2.0
/*
 * test_args.c - the argument parsers of report, compare, baseline, history and export,
 * without running the commands.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "msg.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(fn, a, err, ...) fn(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), a, err)

static void test_compare_defaults(void **state)
{
	struct compare_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "b", "n"), 0);
	assert_string_equal(a.base, "b");
	assert_string_equal(a.new, "n");
	assert_true(fabs(a.cmp.j.threshold - 0.10) < 1e-12);
	assert_true(fabs(a.cmp.j.confidence - 0.95) < 1e-12);
	assert_int_equal(a.cmp.j.min_reps, 2);
	assert_null(a.cmp.primary);
	assert_null(a.noise);
	assert_null(a.outdir);
}

static void test_compare_options(void **state)
{
	struct compare_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--threshold", "5",
			       "--confidence", "0.99", "-m", "workload:*", "--metric",
			       "softirq:NET_RX:*", "--min-reps", "5", "-o", "out", "b", "n"), 0);
	assert_true(fabs(a.cmp.j.threshold - 0.05) < 1e-12);
	assert_true(fabs(a.cmp.j.confidence - 0.99) < 1e-12);
	assert_int_equal(a.cmp.nprimary, 2);
	assert_string_equal(a.cmp.primary[1], "softirq:NET_RX:*");
	assert_int_equal(a.cmp.j.min_reps, 5);
	assert_string_equal(a.outdir, "out");
}

static void test_compare_errors(void **state)
{
	struct compare_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--threshold", "abc", "b",
			       "n"), -EINVAL);
	assert_non_null(strstr(err, "--threshold"));
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--confidence", "1.5", "b",
			       "n"), -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--min-reps", "1", "b", "n"),
			 -EINVAL);
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "b"), -EINVAL);
	assert_non_null(strstr(err, "need BASE and NEW"));
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--bogus", "b", "n"), -EINVAL);
	assert_int_equal(PARSE(compare_parse, &a, err, "compare", "--help"), 1);
}

static void test_report_args(void **state)
{
	struct report_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(report_parse, &a, err, "report", "dir"), 0);
	assert_string_equal(a.dir, "dir");
	assert_false(a.no_plots);
	assert_int_equal(a.top_wq, 8);
	assert_int_equal(PARSE(report_parse, &a, err, "report", "--no-plots", "--top-wq", "3",
			       "-o", "x", "dir"), 0);
	assert_true(a.no_plots);
	assert_int_equal(a.top_wq, 3);
	assert_int_equal(PARSE(report_parse, &a, err, "report", "--top-wq", "0", "d"), -EINVAL);
	assert_int_equal(PARSE(report_parse, &a, err, "report"), -EINVAL);
}

static void test_baseline_args(void **state)
{
	struct baseline_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "save", "--dir", "/b",
			       "--name", "v6.18", "run"), 0);
	assert_int_equal(a.verb, BL_SAVE);
	assert_string_equal(a.run, "run");
	assert_string_equal(a.root, "/b");
	assert_string_equal(a.name, "v6.18");
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "path", "-H", "lab1"), 0);
	assert_int_equal(a.verb, BL_PATH);
	assert_string_equal(a.host, "lab1");
	assert_string_equal(a.name, "default");
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "save"), -EINVAL);
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "show", "extra"), -EINVAL);
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "drop"), -EINVAL);
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "path", "--name", "../x"),
			 -EINVAL);
	assert_int_equal(PARSE(baseline_parse, &a, err, "baseline", "path", "--name", ".hid"),
			 -EINVAL);
}

static void test_history_args(void **state)
{
	struct history_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--db", "s.db", "-H", "lab1",
			       "-m", "workload:*:p99", "--regressions", "--permutations", "1999"), 0);
	assert_int_equal(a.verb, HV_SHOW);
	assert_string_equal(history_db(&a), "s.db");
	assert_string_equal(a.host, "lab1");
	assert_int_equal(a.npatterns, 1);
	assert_true(a.regressions);
	assert_int_equal(a.det.cpd.perms, 1999);
	assert_true(fabs(a.det.threshold - 0.10) < 1e-12);
	/* verbs; options may follow the paths */
	assert_int_equal(PARSE(history_parse, &a, err, "history", "add", "r1", "r2", "--db",
			       "x.db", "--replace"), 0);
	assert_int_equal(a.verb, HV_ADD);
	assert_int_equal(a.npaths, 2);
	assert_string_equal(a.paths[1], "r2");
	assert_true(a.replace);
	assert_int_equal(PARSE(history_parse, &a, err, "history", "merge", "a.db"), 0);
	assert_int_equal(a.verb, HV_MERGE);
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--help"), CLI_HELP);
	/* errors name what is wrong */
	assert_int_equal(PARSE(history_parse, &a, err, "history", "add"), -EINVAL);
	assert_non_null(strstr(err, "run directory"));
	assert_int_equal(PARSE(history_parse, &a, err, "history", "rm", "x"), -EINVAL);
	assert_non_null(strstr(err, "not a history command"));
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--threshold", "abc"), -EINVAL);
	assert_non_null(strstr(err, "--threshold"));
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--kernel", "6.18"), -EINVAL);
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--fleet", "--regressions"),
			 -EINVAL);
	assert_int_equal(PARSE(history_parse, &a, err, "history", "--bogus"), -EINVAL);
}

static void test_export_args(void **state)
{
	struct export_args a;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(export_parse, &a, err, "export", "run", "--kcidb", "--origin",
			       "lab_1", "--against", "base"), 0);
	assert_int_equal(a.format, EX_KCIDB);
	assert_string_equal(a.run, "run");
	assert_string_equal(a.origin, "lab_1");
	assert_string_equal(a.against, "base");
	assert_int_equal(PARSE(export_parse, &a, err, "export", "--lava", "run"), 0);
	assert_string_equal(a.origin, "deferbench");
	assert_null(a.against);
	assert_int_equal(PARSE(export_parse, &a, err, "export", "run"), -EINVAL);
	assert_non_null(strstr(err, "format"));
	assert_int_equal(PARSE(export_parse, &a, err, "export", "--lava", "--kcidb", "r"), -EINVAL);
	assert_int_equal(PARSE(export_parse, &a, err, "export", "--kcidb", "--origin", "Lab",
			       "r"), -EINVAL);
	assert_int_equal(PARSE(export_parse, &a, err, "export", "--kcidb", "--build-id", "x",
			       "r"), -EINVAL);
	assert_int_equal(PARSE(export_parse, &a, err, "export", "--kcidb", "a", "b"), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_defaults),
		cmocka_unit_test(test_compare_options),
		cmocka_unit_test(test_compare_errors),
		cmocka_unit_test(test_report_args),
		cmocka_unit_test(test_baseline_args),
		cmocka_unit_test(test_history_args),
		cmocka_unit_test(test_export_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
