// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - report_write() on synthetic runs, without plots (no gnuplot needed):
 * the thread wakeup table, tables/wakeup.csv and its finding, files from before
 * thread_wakeup, and the clearing of an earlier report's plots/ and tables/.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fixture.h"
#include "report.h"
#include "rundir.h"
#include "synth.h"
#include "msg.h"
#include "file.h"

static void small(struct synth_opts *o)
{
	static const char *const wls[] = { "net", NULL };
	static const char *const cfgs[] = { "default", "threaded", NULL };

	synth_defaults(o);
	o->workloads = wls;
	o->configs = cfgs;
	o->samples = 3000;
	o->duration_s = 2;
}

/* report - write the synthetic run dir/run and report it into dir/out */
static void report(const char *dir, const struct synth_opts *o)
{
	struct report_opts ro = { .plots = false, .top_wq = 10 };
	char err[ERRBUF_LEN], path[4096], out[4096];
	struct run run;

	snprintf(path, sizeof(path), "%s/run", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	ro.outdir = out;
	assert_int_equal(synth_run(path, o), 0);
	assert_int_equal(run_load(path, &run, err), 0);
	if (report_write(&run, &ro, err))
		fail_msg("report_write: %s", err);
	run_free(&run);
}

/* slurp - a file of the report, NUL-terminated; the caller frees it */
static char *slurp(const char *dir, const char *name)
{
	char *text;
	size_t len;

	text = read_file_alloc(fixture_path(dir, name), &len);
	assert_non_null(text);
	return text;
}

static size_t lines_of(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void test_report_wakeup(void **state)
{
	struct synth_opts o;
	char *d = fixture_dir(), *md, *csv;

	(void)state;
	small(&o);
	report(d, &o);
	md = slurp(d, "out/report.md");
	assert_non_null(strstr(md, "### net: thread wakeup (sched\\_wakeup -\\> running)"));
	assert_non_null(strstr(md, "| config | thread | reps | wakeups | p50 (us) | p99 (us) | "
			       "max (us) | lost | unmatched | flags |"));
	/* per configuration: ksoftirqd by CPU, then the pools in version order */
	assert_non_null(strstr(md, "| default | ksoftirqd/0 | 3/3 | 465 | "));
	assert_non_null(strstr(md, "| default | ksoftirqd/1 | 3/3 | 465 | "));
	assert_true(strstr(md, "| default | kworker cpu0 | 3/3 | 960 |") <
		    strstr(md, "| default | kworker cpu0H | 3/3 |"));
	assert_true(strstr(md, "| default | kworker cpu1 | 3/3 |") <
		    strstr(md, "| default | kworker unbound2 | 3/3 | 4560 |"));
	assert_non_null(strstr(md, "| threaded | kworker unbound2 | 3/3 | 4560 |"));
	/* the finding: unbound2 is every repetition's worst pool with enough wakeups */
	assert_non_null(strstr(md, "- net, thread wakeup: highest worker-pool p99 (pools with "
			       "1000 wakeups or more) with "));
	assert_non_null(strstr(md, "most often unbound2"));
	/* threaded scales every latency by 0.75: the reference is the slowest */
	assert_non_null(strstr(md, "with default, the reference configuration, "));
	/* p50 and p99 as median [lowest-highest] over the repetitions */
	assert_non_null(strstr(strstr(md, "| default | kworker unbound2 | 3/3 | 4560 | "), " ["));
	assert_non_null(strstr(md, "tables/wakeup.csv"));
	csv = slurp(d, "out/tables/wakeup.csv");
	assert_non_null(strstr(csv, "\"workload\",\"config\",\"thread\",\"cpu\",\"pool\","
				"\"reps\",\"reps_with_data\",\"wakeups\",\"rep_p50_median_ns\""));
	assert_non_null(strstr(csv, "\"net\",\"default\",\"ksoftirqd\",1,\"\",3,3,465,"));
	assert_non_null(strstr(csv, "\"net\",\"threaded\",\"worker\",-1,\"cpu0H\",3,3,2760,"));
	assert_int_equal(lines_of(csv), 1 + 2 * 6);
	free(csv);
	free(md);
	fixture_free(d);
}

/* summary.json files from before thread_wakeup: said, not an error, no finding */
static void test_report_wakeup_absent(void **state)
{
	struct synth_opts o;
	char *d = fixture_dir(), *md, *csv;

	(void)state;
	small(&o);
	o.no_wakeup = true;
	report(d, &o);
	md = slurp(d, "out/report.md");
	assert_non_null(strstr(md, "### net: thread wakeup"));
	assert_non_null(strstr(md, "No thread wakeup data: these summary.json files were "
			       "written before deferbench recorded it."));
	assert_null(strstr(md, "| kworker"));
	assert_null(strstr(md, "net, thread wakeup:"));
	assert_non_null(strstr(md, "### net: own latency, rtt"));
	csv = slurp(d, "out/tables/wakeup.csv");
	assert_int_equal(lines_of(csv), 1);
	free(csv);
	free(md);
	fixture_free(d);
}

static bool exists(const char *dir, const char *name)
{
	struct stat st;

	return !lstat(fixture_path(dir, name), &st);
}

/* plots/ and tables/ lose only the report's own kinds of regular files */
static void test_report_clears_stale(void **state)
{
	static const char *const gone[] = { "out/plots/pctl-old-rtt.png",
		"out/plots/pctl-old-rtt.svg", "out/plots/pctl-old-rtt.gp",
		"out/plots/pctl-old-rtt-0.dat", "out/plots/pctl-old-rtt.log",
		"out/tables/old.csv" };
	static const char *const kept[] = { "out/plots/notes.txt", "out/plots/.hidden.png",
		"out/plots/sub/deep.png", "out/tables/README", "out/keep.png", "elsewhere.png" };
	char *d = fixture_dir(), target[4096], *text;
	struct synth_opts o;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gone); i++)
		fixture_write(d, gone[i], "old\n");
	for (i = 0; i < ARRAY_SIZE(kept); i++)
		fixture_write(d, kept[i], "keep\n");
	mkdir(fixture_path(d, "out/plots/dir.png"), 0755);
	snprintf(target, sizeof(target), "%s", fixture_path(d, "elsewhere.png"));
	assert_int_equal(symlink(target, fixture_path(d, "out/plots/link.png")), 0);
	small(&o);
	report(d, &o);
	for (i = 0; i < ARRAY_SIZE(gone); i++)
		if (exists(d, gone[i]))
			fail_msg("%s survived the report", gone[i]);
	for (i = 0; i < ARRAY_SIZE(kept); i++)
		if (!exists(d, kept[i]))
			fail_msg("%s was removed", kept[i]);
	assert_true(exists(d, "out/plots/dir.png"));
	assert_true(exists(d, "out/plots/link.png"));	/* a link is not the report's */
	text = slurp(d, "elsewhere.png");
	assert_string_equal(text, "keep\n");
	free(text);
	assert_true(exists(d, "out/tables/wakeup.csv"));	/* and the new tables are there */
	assert_true(exists(d, "out/report.md"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_wakeup),
		cmocka_unit_test(test_report_wakeup_absent),
		cmocka_unit_test(test_report_clears_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
