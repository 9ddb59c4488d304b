// SPDX-License-Identifier: GPL-2.0
/*
 * test_parse.c - strict parsers and the record/analyze argument parsers (no root).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "detail.h"
#include "fixture.h"
#include "outdir.h"
#include "cli.h"
#include "msg.h"
#include "parse.h"
#include "file.h"

/* touch - create an empty file */
static int __attribute__((unused)) touch(const char *path)
{
	FILE *f = fopen(path, "w");

	return f ? fclose(f) : -1;
}

static void test_duration(void **state)
{
	char err[ERRBUF_LEN];
	uint64_t ns;

	(void)state;
	assert_int_equal(parse_duration_ns("10s", &ns, err), 0);
	assert_int_equal(ns, 10 * NSEC_PER_SEC);
	assert_int_equal(parse_duration_ns("500ms", &ns, err), 0);
	assert_int_equal(ns, 500 * NSEC_PER_MSEC);
	assert_int_equal(parse_duration_ns("1.5s", &ns, err), 0);
	assert_int_equal(ns, 1500 * NSEC_PER_MSEC);
	assert_int_equal(parse_duration_ns("2m", &ns, err), 0);
	assert_int_equal(ns, 120 * NSEC_PER_SEC);
	assert_int_equal(parse_duration_ns("250us", &ns, err), 0);
	assert_int_equal(ns, 250 * NSEC_PER_USEC);
	assert_int_equal(parse_duration_ns("3", &ns, err), 0);
	assert_int_equal(ns, 3 * NSEC_PER_SEC);
	assert_int_equal(parse_duration_ns("abc", &ns, err), -EINVAL);
	assert_non_null(strstr(err, "not a duration"));
	assert_int_equal(parse_duration_ns("10x", &ns, err), -EINVAL);
	assert_non_null(strstr(err, "unknown unit"));
	assert_int_equal(parse_duration_ns("-1s", &ns, err), -EINVAL);
	assert_int_equal(parse_duration_ns("0", &ns, err), -EINVAL);
	assert_int_equal(parse_duration_ns("", &ns, err), -EINVAL);
	assert_int_equal(parse_duration_ns("1e30s", &ns, err), -EINVAL);
	/* issue 10.13: only decimal numbers, as the help says */
	assert_int_equal(parse_duration_ns("1e3s", &ns, err), -EINVAL);
	assert_non_null(strstr(err, "decimal"));
	assert_int_equal(parse_duration_ns("1e3", &ns, err), -EINVAL);
	assert_int_equal(parse_duration_ns("0x10s", &ns, err), -EINVAL);
	assert_non_null(strstr(err, "decimal"));
	assert_int_equal(parse_duration_ns("1.2.3s", &ns, err), -EINVAL);
	assert_int_equal(parse_duration_ns(".5s", &ns, err), 0);
	assert_int_equal(ns, 500 * NSEC_PER_MSEC);
}

static void test_numbers(void **state)
{
	char err[ERRBUF_LEN];
	uint64_t v;
	double d;
	bool b;
	int i;

	(void)state;
	assert_int_equal(parse_u64("4096", 64, 8192, &v, err), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(parse_u64("12x", 0, 100, &v, err), -EINVAL);
	assert_int_equal(parse_u64("-5", 0, 100, &v, err), -EINVAL);
	assert_int_equal(parse_u64(" 5", 0, 100, &v, err), -EINVAL);
	assert_int_equal(parse_u64("101", 0, 100, &v, err), -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	/* issue 10.11: a number too large for 64 bits says so */
	assert_int_equal(parse_u64("99999999999999999999", 64, 1048576, &v, err), -EINVAL);
	assert_non_null(strstr(err, "too large"));
	/* decimal only: "010" is ten, not eight, and "0x10" is no number */
	assert_int_equal(parse_u64("010", 0, 100, &v, err), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_u64("0x10", 0, 100, &v, err), -EINVAL);
	assert_int_equal(parse_int("-20", -20, 19, &i, err), 0);
	assert_int_equal(i, -20);
	assert_int_equal(parse_int("-21", -20, 19, &i, err), -EINVAL);
	assert_int_equal(parse_double("0.25", 0, 1, &d, err), 0);
	assert_int_equal(parse_double("nan", 0, 1, &d, err), -EINVAL);
	assert_int_equal(parse_bool("on", &b, err), 0);
	assert_true(b);
	assert_int_equal(parse_bool("maybe", &b, err), -EINVAL);
	assert_int_equal(parse_size("64k", 1, 1 << 30, &v, err), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(parse_size("3T", 1, 1 << 30, &v, err), -EINVAL);
}

static void test_cpulist(void **state)
{
	char err[ERRBUF_LEN], buf[64];
	cpu_set_t set;

	(void)state;
	assert_int_equal(parse_cpulist("0-1", &set, "0-3", err), 0);
	assert_int_equal(CPU_COUNT(&set), 2);
	assert_int_equal(parse_cpulist("0,2-3", &set, "0-3", err), 0);
	assert_string_equal(cpulist_format(&set, buf, sizeof(buf)), "0,2-3");
	assert_int_equal(parse_cpulist("5", &set, "0-3", err), -EINVAL);
	assert_non_null(strstr(err, "not online"));
	assert_int_equal(parse_cpulist("1-0", &set, "0-3", err), -EINVAL);
	assert_int_equal(parse_cpulist("0,", &set, "0-3", err), -EINVAL);
	assert_int_equal(parse_cpulist("a", &set, "0-3", err), -EINVAL);
	assert_int_equal(parse_cpulist("", &set, "0-3", err), -EINVAL);
}

static int argc_of(char **argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static void test_record_args(void **state)
{
	char err[ERRBUF_LEN];
	struct record_args a;
	char *ok[] = { "record", "-d", "5s", "-o", "/tmp/x", "--buffer-kb", "8192", "--raw",
		       "--", "sh", "-c", "true", NULL };
	char *cmd_opts[] = { "record", "sleep", "-x", NULL };
	char *bad_dur[] = { "record", "-d", "soon", NULL };
	char *bad_buf[] = { "record", "-b", "16", NULL };
	char *unknown[] = { "record", "--frobnicate", NULL };
	char *missing[] = { "record", "-d", NULL };
	char *raw_no_out[] = { "record", "--raw", NULL };
	char *short_ival[] = { "record", "-i", "1ms", NULL };
	char *help[] = { "record", "--help", NULL };

	(void)state;
	assert_int_equal(record_parse_args(argc_of(ok), ok, &a, err), 0);
	assert_int_equal(a.duration_ns, 5 * NSEC_PER_SEC);
	assert_string_equal(a.out_dir, "/tmp/x");
	assert_int_equal(a.buffer_kb, 8192);
	assert_true(a.raw);
	assert_string_equal(a.cmd[0], "sh");
	assert_string_equal(a.cmd[2], "true");
	/* options after the command belong to the command */
	assert_int_equal(record_parse_args(argc_of(cmd_opts), cmd_opts, &a, err), 0);
	assert_string_equal(a.cmd[1], "-x");
	assert_int_equal(a.duration_ns, 0);
	assert_int_equal(a.buffer_kb, 4096);
	assert_int_equal(record_parse_args(argc_of(bad_dur), bad_dur, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--duration"));
	assert_int_equal(record_parse_args(argc_of(bad_buf), bad_buf, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--buffer-kb"));
	assert_int_equal(record_parse_args(argc_of(unknown), unknown, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--frobnicate"));
	assert_int_equal(record_parse_args(argc_of(missing), missing, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--duration needs a value"));
	assert_int_equal(record_parse_args(argc_of(raw_no_out), raw_no_out, &a, err), -EINVAL);
	assert_int_equal(record_parse_args(argc_of(short_ival), short_ival, &a, err), -EINVAL);
	assert_int_equal(record_parse_args(argc_of(help), help, &a, err), 1);
	/* issue 25: stacks, the slowest events, the trace around the worst delays */
	{
		char *plain[] = { "record", "-d", "1s", NULL };
		char *stacks[] = { "record", "--stacks", "-o", "/tmp/x", "--keep-worst", NULL };
		char *some[] = { "record", "--stacks=net_rx,TIMER", "--slowest=3", NULL };
		char *window[] = { "record", "-o", "/tmp/x", "--keep-worst=2ms", NULL };
		char *bad_vec[] = { "record", "--stacks=NETRX", NULL };
		char *bad_n[] = { "record", "--slowest=0", NULL };
		char *bad_win[] = { "record", "-o", "/tmp/x", "--keep-worst=2s", NULL };
		char *no_out[] = { "record", "--keep-worst", NULL };

		assert_int_equal(record_parse_args(argc_of(plain), plain, &a, err), 0);
		assert_int_equal(a.slowest, 0);
		assert_int_equal(a.stack_vecs, 0);
		assert_int_equal(a.keep_worst_ns, 0);
		assert_int_equal(record_parse_args(argc_of(stacks), stacks, &a, err), 0);
		assert_int_equal(a.stack_vecs, STACK_VECS_DEFAULT);
		assert_int_equal(a.slowest, SLOWEST_DEFAULT);
		assert_int_equal(a.keep_worst_ns, KEEP_WORST_DEFAULT_NS);
		assert_int_equal(record_parse_args(argc_of(some), some, &a, err), 0);
		assert_int_equal(a.stack_vecs, (1u << SIRQ_NET_RX) | (1u << SIRQ_TIMER));
		assert_int_equal(a.slowest, 3);
		assert_int_equal(record_parse_args(argc_of(window), window, &a, err), 0);
		assert_int_equal(a.keep_worst_ns, 2 * NSEC_PER_MSEC);
		assert_int_equal(a.slowest, SLOWEST_DEFAULT);
		assert_int_equal(record_parse_args(argc_of(bad_vec), bad_vec, &a, err), -EINVAL);
		assert_non_null(strstr(err, "--stacks"));
		assert_int_equal(record_parse_args(argc_of(bad_n), bad_n, &a, err), -EINVAL);
		assert_non_null(strstr(err, "--slowest"));
		assert_int_equal(record_parse_args(argc_of(bad_win), bad_win, &a, err), -EINVAL);
		assert_int_equal(record_parse_args(argc_of(no_out), no_out, &a, err), -EINVAL);
		assert_non_null(strstr(err, "-o DIR"));
	}
}

static void test_analyze_args(void **state)
{
	char err[ERRBUF_LEN];
	struct analyze_args a;
	char *ok[] = { "analyze", "/tmp/cap", "-o", "/tmp/out", "--force", NULL };
	char *none[] = { "analyze", NULL };
	char *extra[] = { "analyze", "a", "b", NULL };

	(void)state;
	assert_int_equal(analyze_parse_args(argc_of(ok), ok, &a, err), 0);
	assert_string_equal(a.in_dir, "/tmp/cap");
	assert_string_equal(a.out_dir, "/tmp/out");
	assert_true(a.force);
	assert_int_equal(analyze_parse_args(argc_of(none), none, &a, err), -EINVAL);
	assert_int_equal(analyze_parse_args(argc_of(extra), extra, &a, err), -EINVAL);
	/* a trace.dat window, in trace-cmd's seconds, to the nanosecond */
	{
		char *win[] = { "analyze", "t.dat", "--start", "2481.750123456", "--end",
				"2482", "--buffer", "x", "-i", "500ms", NULL };
		char *back[] = { "analyze", "t.dat", "--start", "3", "--end", "2", NULL };
		char *bad[] = { "analyze", "t.dat", "--start", "1.5s", NULL };

		assert_int_equal(analyze_parse_args(argc_of(win), win, &a, err), 0);
		assert_int_equal(a.start_ns, 2481750123456ULL);
		assert_int_equal(a.end_ns, 2482 * NSEC_PER_SEC);
		assert_string_equal(a.buffer, "x");
		assert_int_equal(a.interval_ns, 500 * NSEC_PER_MSEC);
		assert_int_equal(analyze_parse_args(argc_of(back), back, &a, err), -EINVAL);
		assert_int_equal(analyze_parse_args(argc_of(bad), bad, &a, err), -EINVAL);
		assert_non_null(strstr(err, "--start"));
	}
}

static void test_ts(void **state)
{
	char err[ERRBUF_LEN];
	uint64_t v;

	(void)state;
	assert_int_equal(parse_ts_ns("0.000000001", &v, err), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_ts_ns("12.5", &v, err), 0);
	assert_int_equal(v, 12500000000ULL);
	/* digits past nanoseconds are dropped, not rounded */
	assert_int_equal(parse_ts_ns("1.0000000019", &v, err), 0);
	assert_int_equal(v, 1000000001ULL);
	assert_int_equal(parse_ts_ns("", &v, err), -EINVAL);
	assert_int_equal(parse_ts_ns("-1", &v, err), -EINVAL);
	assert_int_equal(parse_ts_ns("1e3", &v, err), -EINVAL);
	assert_int_equal(parse_ts_ns("99999999999999999999", &v, err), -EINVAL);
}

/* mkfile - dir/name with some text, parents created */
static void mkfile(const char *dir, const char *name)
{
	char path[1024], parent[1024], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(parent, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("x\n", f);
	assert_int_equal(fclose(f), 0);
}

static bool exists(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void test_outdir(void **state)
{
	char tmpl[] = "/tmp/deferbench-test-outdir.XXXXXX", path[700], err[ERRBUF_LEN];
	char staging[600];
	char *d = mkdtemp(tmpl);

	(void)state;
	assert_non_null(d);
	/* absent and empty directories are fine */
	snprintf(path, sizeof(path), "%s/new", d);
	assert_int_equal(outdir_check(path, false, NULL, err), 0);
	assert_int_equal(outdir_check(d, false, NULL, err), 0);
	/* a directory with foreign files is never replaced, even with --force */
	mkfile(d, "notes.txt");
	assert_int_equal(outdir_check(d, true, NULL, err), -EINVAL);
	assert_non_null(strstr(err, "notes.txt"));
	assert_int_equal(unlink(fixture_path(d, "notes.txt")), 0);
	/* earlier results need --force */
	mkfile(d, "summary.json");
	mkfile(d, "raw/cpu0.dat");
	mkfile(d, "raw/formats/irq/softirq_raise");
	mkfile(d, "plots/x.png");
	/* record --stacks and --keep-worst's files are deferbench's too */
	mkfile(d, "stacks.csv");
	mkfile(d, "stacks.folded");
	mkfile(d, "slowest.csv");
	mkfile(d, "raw/formats/ftrace/kernel_stack");
	mkfile(d, "worst/NET_RX/raw/cpu0.dat");
	mkfile(d, "worst/NET_RX/raw/formats/ftrace/kernel_stack");
	assert_int_equal(outdir_check(d, false, NULL, err), -EINVAL);
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(outdir_check(d, true, NULL, err), 0);
	/* staging then commit replaces the results */
	assert_int_equal(outdir_stage(d, staging, sizeof(staging), err), 0);
	mkfile(staging, "softirq.csv");
	assert_int_equal(outdir_commit(d, staging, err), 0);
	assert_true(exists(d, "softirq.csv"));
	assert_false(exists(d, "summary.json"));
	assert_false(exists(d, "raw"));
	assert_false(exists(d, "worst"));
	assert_int_not_equal(access(staging, F_OK), 0);
	/* a trailing slash stages beside the directory, never inside it */
	snprintf(path, sizeof(path), "%s/", d);
	assert_int_equal(outdir_stage(path, staging, sizeof(staging), err), 0);
	assert_null(strstr(staging, "/.partial"));
	assert_int_equal(outdir_commit(path, staging, err), 0);
	assert_int_not_equal(access(staging, F_OK), 0);
	assert_int_equal(rm_rf(d), 0);
}

/* issue 10.1: a summary.json among other files does not make them results */
static void test_outdir_force_foreign(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN], staging[600], kept[600];
	const char *const foreign[] = { "thesis.tex", "sub/data.bin", "raw/notes.txt",
					"plots/keep/me.png", ".hidden", "summary.json.bak" };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(foreign); i++) {
		mkfile(d, "summary.json");
		mkfile(d, "raw/capture.json");
		mkfile(d, foreign[i]);
		assert_int_equal(outdir_check(d, true, NULL, err), -EINVAL);
		assert_non_null(strstr(err, "did not write"));
		assert_int_equal(rm_rf(d), 0);
		assert_int_equal(mkdir(d, 0700), 0);
	}
	/* a symbolic link, even with a result's name, is not followed nor removed */
	mkfile(d, "summary.json");
	assert_int_equal(symlink("/etc/passwd", fixture_path(d, "softirq.csv")), 0);
	assert_int_equal(outdir_check(d, true, NULL, err), -EINVAL);
	assert_int_equal(unlink(fixture_path(d, "softirq.csv")), 0);
	/* a foreign file that appears during the run: the new results are kept aside */
	assert_int_equal(outdir_check(d, true, NULL, err), 0);
	assert_int_equal(outdir_stage(d, staging, sizeof(staging), err), 0);
	mkfile(staging, "summary.json");
	mkfile(d, "thesis.tex");
	snprintf(kept, sizeof(kept), "%s", staging);
	assert_int_not_equal(outdir_commit(d, staging, err), 0);
	assert_true(exists(d, "thesis.tex"));
	assert_int_equal(staging[0], '\0');	/* kept: abort must not remove it */
	assert_non_null(strstr(err, kept));	/* the message says where they are */
	assert_int_equal(rm_rf(kept), 0);
	fixture_free(d);
}

/* issue 10.2: the output directory is, holds or lies in an input */
static void test_outdir_inputs(void **state)
{
	char *d = fixture_dir(), err[ERRBUF_LEN], cap[700], raw[700], out[700];
	const char *inputs[] = { raw, NULL };

	(void)state;
	snprintf(cap, sizeof(cap), "%s/cap", d);
	snprintf(raw, sizeof(raw), "%s/cap/raw", d);
	mkfile(d, "cap/summary.json");
	mkfile(d, "cap/raw/cpu0.dat");
	assert_int_equal(outdir_check(cap, true, inputs, err), -EINVAL);
	assert_non_null(strstr(err, "input"));
	snprintf(out, sizeof(out), "%s/cap/", d);
	assert_int_equal(outdir_check(out, true, inputs, err), -EINVAL);
	snprintf(out, sizeof(out), "%s/cap/../cap", d);
	assert_int_equal(outdir_check(out, true, inputs, err), -EINVAL);
	assert_int_equal(outdir_check(raw, true, inputs, err), -EINVAL);
	snprintf(out, sizeof(out), "%s/cap/raw/formats", d);
	assert_int_equal(outdir_check(out, true, inputs, err), -EINVAL);
	/* beside the raw capture is fine */
	snprintf(out, sizeof(out), "%s/cap/again", d);
	assert_int_equal(outdir_check(out, true, inputs, err), 0);
	snprintf(out, sizeof(out), "%s/other", d);
	assert_int_equal(outdir_check(out, true, inputs, err), 0);
	assert_true(exists(d, "cap/raw/cpu0.dat"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_record_args),
		cmocka_unit_test(test_analyze_args),
		cmocka_unit_test(test_ts),
		cmocka_unit_test(test_outdir),
		cmocka_unit_test(test_outdir_force_foreign),
		cmocka_unit_test(test_outdir_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
