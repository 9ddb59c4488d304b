// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c - report_write() on synthetic runs, without plots (no gnuplot needed):
 * the thread wakeup table, tables/wakeup.csv and its finding, files from before
 * thread_wakeup, and what the output writer lets a report replace (outw.h).
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
#include "outw.h"

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

	text = read_whole_file(fixture_path(dir, name), &len);
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
	assert_non_null(strstr(md, "| config | thread | repetitions | wakeups | p50 (us) | "
			       "p99 (us) | max (us) | lost | unmatched | flags |"));
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
	assert_non_null(strstr(md, "### net: own latency"));
	assert_non_null(strstr(md, "| rtt | default | 3/3 | "));
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

/* report_into - report run into out through the output writer; 0 or -errno */
static int report_into(const char *run_dir, const char *out, bool force, char *err)
{
	static const char *const names[] = { "report.md", "report.html", "tables", NULL };
	struct report_opts ro = { .plots = false, .top_wq = 10 };
	struct outw w;
	struct run run;
	char **in;
	int ret;

	assert_int_equal(run_load(run_dir, &run, err), 0);
	in = run_inputs(&run);
	assert_non_null(in);
	ret = outw_open(&w, out, &(struct outw_opts){ .kind = OUTW_INTO, .by = "report",
			.force = force, .inputs = (const char *const *)in, .names = names }, err);
	if (!ret) {
		ro.outdir = outw_dir(&w);
		ret = report_write(&run, &ro, err);
		ret = ret ?: outw_commit(&w, err);
		outw_abort(&w);
	}
	run_inputs_free(in);
	run_free(&run);
	return ret;
}

/*
 * An earlier report is replaced whole with --force, and only when every file of it is
 * the report's own, unchanged: a stale table goes, anything else refuses the report and
 * stays as it is (a file of the user's, a link, a changed table).
 */
static void test_report_replaces_own_only(void **state)
{
	char *d = fixture_dir(), run[4096], out[4096], err[ERRBUF_LEN], target[4096], *text;
	struct synth_opts o;

	(void)state;
	small(&o);
	snprintf(run, sizeof(run), "%s/run", d);
	snprintf(out, sizeof(out), "%s/out", d);
	assert_int_equal(synth_run(run, &o), 0);
	assert_int_equal(report_into(run, out, false, err), 0);
	assert_true(exists(d, "out/.deferbench-manifest.json"));
	/* again: refused without force, done with it */
	assert_int_equal(report_into(run, out, false, err), -EEXIST);
	assert_non_null(strstr(err, "pass --force"));
	fixture_write(d, "out/tables/stale.csv", "old\n");
	assert_int_equal(report_into(run, out, true, err), -EEXIST);
	assert_non_null(strstr(err, "stale.csv"));
	assert_int_equal(unlink(fixture_path(d, "out/tables/stale.csv")), 0);
	assert_int_equal(report_into(run, out, true, err), 0);
	/* a link planted among the tables is never written through nor removed */
	fixture_write(d, "elsewhere.csv", "keep\n");
	snprintf(target, sizeof(target), "%s", fixture_path(d, "elsewhere.csv"));
	assert_int_equal(symlink(target, fixture_path(d, "out/tables/link.csv")), 0);
	assert_int_equal(report_into(run, out, true, err), -EEXIST);
	assert_non_null(strstr(err, "symbolic link"));
	assert_true(exists(d, "out/tables/link.csv"));
	text = slurp(d, "elsewhere.csv");
	assert_string_equal(text, "keep\n");
	free(text);
	assert_int_equal(unlink(fixture_path(d, "out/tables/link.csv")), 0);
	/* a table changed by hand is no longer the report's */
	fixture_write(d, "out/tables/cells.csv", "mine\n");
	assert_int_equal(report_into(run, out, true, err), -EEXIST);
	assert_non_null(strstr(err, "changed since"));
	text = slurp(d, "out/tables/cells.csv");
	assert_string_equal(text, "mine\n");
	free(text);
	/* the run is the report's input: never its output */
	snprintf(out, sizeof(out), "%s/run/cells", d);
	assert_int_not_equal(report_into(run, out, true, err), 0);
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_wakeup),
		cmocka_unit_test(test_report_wakeup_absent),
		cmocka_unit_test(test_report_replaces_own_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
