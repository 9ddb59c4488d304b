// SPDX-License-Identifier: GPL-2.0
/*
 * test_args.c - the argument parsers of report, compare, baseline, history, export, run,
 * knobs and tune, without running the commands; the messages of refused values, and the old
 * spellings that still work with a note (record, top and load: test_parse.c, test_top.c,
 * test_load_args.c).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cli.h"
#include "msg.h"
#define DEFERBENCH_ALLOW_TUNE_INT_H
#include "tune_int.h"

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

static FILE *err_file;
static int err_saved = -1;

/* stderr_begin, stderr_end - what a parser printed on stderr in between */
static void stderr_begin(void)
{
	fflush(stderr);
	err_file = tmpfile();
	assert_non_null(err_file);
	err_saved = dup(STDERR_FILENO);
	assert_true(err_saved >= 0);
	assert_true(dup2(fileno(err_file), STDERR_FILENO) >= 0);
}

static const char *stderr_end(void)
{
	static char buf[4096];
	size_t n;

	fflush(stderr);
	dup2(err_saved, STDERR_FILENO);
	close(err_saved);
	rewind(err_file);
	n = fread(buf, 1, sizeof(buf) - 1, err_file);
	buf[n] = '\0';
	fclose(err_file);
	return buf;
}

#define EXPECT_MSG(ret, err, want) do {						\
	assert_int_equal((ret), -EINVAL);						\
	if (!strstr((err), (want)))							\
		fail_msg("message '%s' lacks '%s'", (err), (want));			\
} while (0)

/* Refused values keep the words the parsers used before the tables. */
static void test_messages(void **state)
{
	struct compare_args c;
	struct history_args h;
	struct export_args e;
	struct run_args r;
	struct knobs_args k;
	char err[ERRBUF_LEN];

	(void)state;
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "-t", "abc", "b", "n"), err,
		   "--threshold: 'abc' is not a number");
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "--confidence", "1.5", "b", "n"),
		   err, "--confidence: 1.5 is out of range [0.5, 0.999]");
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "--min-reps", "1", "b", "n"), err,
		   "--min-reps: 1 is out of range [2, ");
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "b", "n", "-m"), err,
		   "--metric needs a value (PATTERN)");
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "--bogus", "b", "n"), err,
		   "unknown option '--bogus'");
	EXPECT_MSG(PARSE(compare_parse, &c, err, "compare", "-x", "b", "n"), err,
		   "unknown option '-x'");
	EXPECT_MSG(PARSE(history_parse, &h, err, "history", "--permutations", "12"), err,
		   "--permutations: 12 is out of range [99, 99999]");
	EXPECT_MSG(PARSE(history_parse, &h, err, "history", "-c", "0.1"), err,
		   "--confidence: 0.1 is out of range [0.5, 0.999]");
	EXPECT_MSG(PARSE(export_parse, &e, err, "export", "--lava", "--kcidb", "r"), err,
		   "give one of --kcidb, --lava, --result-txt");
	EXPECT_MSG(PARSE(export_parse, &e, err, "export", "--lava", "--min-tail", "x", "r"),
		   err, "--min-tail: 'x' is not a non-negative integer");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--until-decided=soon", "s.ini"), err,
		   "--until-decided: 'soon' is not a duration");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "-o", "", "s.ini"), err,
		   "--output: the value is empty");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--blocks", "0", "s.ini"), err,
		   "--blocks: 0 is out of range [1, 200]");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--blocks", "201", "s.ini"), err,
		   "--blocks: 201 is out of range [1, 200]");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--blocks", "5", "--quick", "s.ini"),
		   err, "--blocks with --quick");
	EXPECT_MSG(PARSE(knobs_parse_args, &k, err, "knobs", "set", "-d", "0", "a=1"), err,
		   "--duration: ");
	EXPECT_MSG(PARSE(knobs_parse_args, &k, err, "knobs", "show", "-d", "1s"), err,
		   "--duration goes with 'set'");
	/* alone, it shows the settings */
	k.verb = KNOBS_SET;
	assert_int_equal(PARSE(knobs_parse_args, &k, err, "knobs"), 0);
	assert_int_equal(k.verb, KNOBS_SHOW);
}

/* The letters and names of one meaning each, where they are new. */
static void test_new_spellings(void **state)
{
	struct history_args h;
	struct baseline_args b;
	struct run_args r;
	struct knobs_args k;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(PARSE(history_parse, &h, err, "history", "-S", "s.db", "-t", "5",
			       "-c", "0.99", "--scenario", "quick"), 0);
	assert_string_equal(history_db(&h), "s.db");
	assert_true(fabs(h.det.threshold - 0.05) < 1e-12);
	assert_true(h.det.cpd.sig == 0.01);
	assert_string_equal(h.scenario, "quick");
	/* --confidence 0.95 is exactly the default level, not 1 - 0.95 in binary */
	assert_int_equal(PARSE(history_parse, &h, err, "history", "--confidence", "0.95"), 0);
	assert_true(h.det.cpd.sig == 0.05);
	assert_int_equal(PARSE(history_parse, &h, err, "history", "add", "--store", "x.db",
			       "r"), 0);
	assert_string_equal(h.db, "x.db");
	assert_int_equal(PARSE(baseline_parse, &b, err, "baseline", "-D", "/b",
			       "--accept-incomplete", "save", "run"), 0);
	assert_string_equal(b.root, "/b");
	assert_true(b.accept_incomplete);
	/* -f replaces output: save's old -f is refused with where its meaning went */
	assert_int_not_equal(PARSE(baseline_parse, &b, err, "baseline", "-f", "save", "run"), 0);
	assert_non_null(strstr(err, "--accept-incomplete"));
	assert_int_equal(PARSE(baseline_parse, &b, err, "baseline", "-f", "calibrate", "s.ini"),
			 0);
	assert_true(b.force);
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "-n", "--quick", "s.ini"), 0);
	/* the scenario's settings given as options: a layer of key = value over the file */
	assert_true(r.o.dry_run);
	assert_string_equal(opts_layer_get(&r.o.set, "quick"), "yes");
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "--until-decided", "s.ini"), 0);
	assert_string_equal(opts_layer_get(&r.o.set, "until_decided"), "10m");
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "--until-decided=2m", "s.ini"),
			 0);
	assert_string_equal(opts_layer_get(&r.o.set, "until_decided"), "2m");
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "--blocks", "45", "-b", "8192",
			       "--no-sched", "--design", "alternate", "s.ini"), 0);
	assert_int_equal(r.o.set.n, 4);
	assert_string_equal(opts_layer_get(&r.o.set, "blocks"), "45");
	assert_string_equal(opts_layer_get(&r.o.set, "buffer_kb"), "8192");
	assert_string_equal(opts_layer_get(&r.o.set, "sched_events"), "no");
	assert_string_equal(opts_layer_get(&r.o.set, "design"), "alternate");
	assert_null(opts_layer_get(&r.o.set, "quick"));
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "--slowest", "s.ini"), 0);
	assert_string_equal(opts_layer_get(&r.o.set, "slowest"), "10");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--no-sched", "--sched-all", "s.ini"),
		   err, "--no-sched and --sched-all contradict each other");
	EXPECT_MSG(PARSE(run_parse_args, &r, err, "run", "--design", "both", "s.ini"), err,
		   "--design: 'both' is none of cells, alternate");
	assert_int_equal(PARSE(knobs_parse_args, &k, err, "knobs", "set", "-d", "3s", "a=1"), 0);
	assert_int_equal(k.verb, KNOBS_SET);
	assert_int_equal(k.hold_ns, 3 * NSEC_PER_SEC);
	assert_int_equal(k.nassign, 1);
}

/* Old spellings still work, each with a note on stderr, and nothing else printed. */
static void test_old_spellings(void **state)
{
	struct history_args h;
	struct baseline_args b;
	struct run_args r;
	struct knobs_args k;
	char err[ERRBUF_LEN];
	const char *out;

	(void)state;
	stderr_begin();
	assert_int_equal(PARSE(history_parse, &h, err, "history", "--db", "a.db", "-s", "q",
			       "--significance", "0.01"), 0);
	out = stderr_end();
	assert_string_equal(h.db, "a.db");
	assert_string_equal(h.scenario, "q");
	assert_true(h.det.cpd.sig == 0.01);
	assert_non_null(strstr(out, "'--db' is deprecated and goes away in the next release: "
			       "use -S, --store"));
	assert_non_null(strstr(out, "'-s' is deprecated"));
	assert_non_null(strstr(out, "'--significance' is deprecated"));
	stderr_begin();
	assert_int_equal(PARSE(history_parse, &h, err, "history", "-d", "b.db"), 0);
	out = stderr_end();
	assert_string_equal(h.db, "b.db");
	assert_non_null(strstr(out, "(-d means --duration)"));
	stderr_begin();
	assert_int_equal(PARSE(baseline_parse, &b, err, "baseline", "-d", "/b", "-n", "v1",
			       "path"), 0);
	out = stderr_end();
	assert_string_equal(b.root, "/b");
	assert_string_equal(b.name, "v1");
	assert_non_null(strstr(out, "'-d' is deprecated"));
	assert_non_null(strstr(out, "'-n' is deprecated"));
	stderr_begin();
	assert_int_equal(PARSE(run_parse_args, &r, err, "run", "-q", "s.ini"), 0);
	out = stderr_end();
	assert_string_equal(opts_layer_get(&r.o.set, "quick"), "yes");
	assert_non_null(strstr(out, "use --quick"));
	stderr_begin();
	assert_int_equal(PARSE(knobs_parse_args, &k, err, "knobs", "set", "-t", "2s", "a=1"), 0);
	assert_int_equal(k.hold_ns, 2 * NSEC_PER_SEC);
	assert_int_equal(PARSE(knobs_parse_args, &k, err, "knobs", "set", "--time=1s", "a=1"),
			 0);
	assert_int_equal(k.hold_ns, NSEC_PER_SEC);
	out = stderr_end();
	assert_non_null(strstr(out, "'-t' is deprecated"));
	assert_non_null(strstr(out, "'--time' is deprecated"));
	/* the new spellings print nothing */
	stderr_begin();
	assert_int_equal(PARSE(history_parse, &h, err, "history", "-S", "a.db", "-c", "0.9"), 0);
	assert_int_equal(PARSE(baseline_parse, &b, err, "baseline", "path", "-D", "/b"), 0);
	out = stderr_end();
	assert_string_equal(out, "");
}

/*
 * tune's own latency: --latency, --latency-cmd, --latency-format (--metric means a
 * PATTERN in compare and history; tune's --metric FILE is its old spelling)
 */
static void test_tune_latency(void **state)
{
	struct tune_args t;
	char err[ERRBUF_LEN];
	const char *out;

	(void)state;
	assert_int_equal(PARSE(tune_parse_args, &t, err, "tune", "--latency", "/tmp/l.txt",
			       "--latency-format", "ping", "--", "sleep", "9"), 0);
	assert_string_equal(t.metric, "/tmp/l.txt");
	assert_string_equal(t.metric_format, "ping");
	assert_string_equal(t.cmd[0], "sleep");
	assert_int_equal(PARSE(tune_parse_args, &t, err, "tune", "--latency-cmd",
			       "ping -D 10.0.0.1", "--live"), 0);
	assert_string_equal(t.metric_cmd, "ping -D 10.0.0.1");
	assert_null(t.metric);
	assert_int_not_equal(PARSE(tune_parse_args, &t, err, "tune", "--latency", "a",
				   "--latency-cmd", "b", "--live"), 0);
	assert_non_null(strstr(err, "--latency and --latency-cmd: choose one"));
	assert_int_not_equal(PARSE(tune_parse_args, &t, err, "tune", "--latency-cmd", "b",
				   "--probe", "net", "--live"), 0);
	assert_non_null(strstr(err, "--latency-cmd and --probe"));
	assert_int_not_equal(PARSE(tune_parse_args, &t, err, "tune", "--latency-format",
				   "fio", "--live"), 0);
	assert_non_null(strstr(err, "--latency-format: of which latency?"));
	assert_int_not_equal(PARSE(tune_parse_args, &t, err, "tune", "--metric-cmd", "b",
				   "--live"), 0);
	assert_non_null(strstr(err, "unknown option '--metric-cmd'"));
	stderr_begin();
	assert_int_equal(PARSE(tune_parse_args, &t, err, "tune", "--metric", "x.csv", "--",
			       "true"), 0);
	out = stderr_end();
	assert_string_equal(t.metric, "x.csv");
	assert_non_null(strstr(out, "'--metric' is deprecated and goes away in the next "
			       "release: use --latency (in compare and history --metric is a "
			       "PATTERN of metrics)"));
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
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_new_spellings),
		cmocka_unit_test(test_old_spellings),
		cmocka_unit_test(test_tune_latency),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
