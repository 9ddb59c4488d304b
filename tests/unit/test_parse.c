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
#include "cli.h"
#include "msg.h"
#include "cpulist.h"
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
	assert_int_equal(cpulist_parse("0-1", &set, "0-3", err), 0);
	assert_int_equal(CPU_COUNT(&set), 2);
	assert_int_equal(cpulist_parse("0,2-3", &set, "0-3", err), 0);
	assert_string_equal(cpulist_format(&set, buf, sizeof(buf)), "0,2-3");
	assert_int_equal(cpulist_parse("5", &set, "0-3", err), -EINVAL);
	assert_non_null(strstr(err, "not online"));
	assert_int_equal(cpulist_parse("1-0", &set, "0-3", err), -EINVAL);
	assert_int_equal(cpulist_parse("0,", &set, "0-3", err), -EINVAL);
	assert_int_equal(cpulist_parse("a", &set, "0-3", err), -EINVAL);
	assert_int_equal(cpulist_parse("", &set, "0-3", err), -EINVAL);
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
	assert_int_equal(a.cap.buffer_kb, 8192);
	assert_true(a.raw);
	assert_string_equal(a.cmd[0], "sh");
	assert_string_equal(a.cmd[2], "true");
	/* options after the command belong to the command */
	assert_int_equal(record_parse_args(argc_of(cmd_opts), cmd_opts, &a, err), 0);
	assert_string_equal(a.cmd[1], "-x");
	assert_int_equal(a.duration_ns, 0);
	assert_int_equal(a.cap.buffer_kb, 4096);
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
		assert_int_equal(a.cap.slowest, 0);
		assert_int_equal(a.cap.stack_vecs, 0);
		assert_int_equal(a.keep_worst_ns, 0);
		assert_int_equal(record_parse_args(argc_of(stacks), stacks, &a, err), 0);
		assert_int_equal(a.cap.stack_vecs, STACK_VECS_DEFAULT);
		assert_int_equal(a.cap.slowest, SLOWEST_DEFAULT);
		assert_int_equal(a.keep_worst_ns, KEEP_WORST_DEFAULT_NS);
		assert_int_equal(record_parse_args(argc_of(some), some, &a, err), 0);
		assert_int_equal(a.cap.stack_vecs, (1u << SIRQ_NET_RX) | (1u << SIRQ_TIMER));
		assert_int_equal(a.cap.slowest, 3);
		assert_int_equal(record_parse_args(argc_of(window), window, &a, err), 0);
		assert_int_equal(a.keep_worst_ns, 2 * NSEC_PER_MSEC);
		assert_int_equal(a.cap.slowest, SLOWEST_DEFAULT);
		assert_int_equal(record_parse_args(argc_of(bad_vec), bad_vec, &a, err), -EINVAL);
		assert_non_null(strstr(err, "--stacks"));
		assert_int_equal(record_parse_args(argc_of(bad_n), bad_n, &a, err), -EINVAL);
		assert_non_null(strstr(err, "--slowest"));
		assert_int_equal(record_parse_args(argc_of(bad_win), bad_win, &a, err), -EINVAL);
		assert_int_equal(record_parse_args(argc_of(no_out), no_out, &a, err), -EINVAL);
		assert_non_null(strstr(err, "-o DIR"));
	}
}

/* record's refused values, in the words the table gives every command */
static void test_record_messages(void **state)
{
	char err[ERRBUF_LEN];
	struct record_args a;
	char *abc[] = { "record", "-b", "abc", NULL };
	char *low[] = { "record", "--buffer-kb", "16", NULL };
	char *high[] = { "record", "-b", "2097152", NULL };
	char *ival[] = { "record", "-i", "1ms", NULL };
	char *cpus[] = { "record", "--capture-cpus", "abc", NULL };
	char *both[] = { "record", "--sched-all", "--no-sched", NULL };
	char *nodir[] = { "record", "-S", "s.db", NULL };
	char *ok[] = { "record", "-f", "-S", "s.db", "-o", "d", "-b", "64", "-i", "10ms", NULL };

	(void)state;
	assert_int_equal(record_parse_args(argc_of(abc), abc, &a, err), -EINVAL);
	assert_string_equal(err, "--buffer-kb: 'abc' is not a non-negative integer");
	assert_int_equal(record_parse_args(argc_of(low), low, &a, err), -EINVAL);
	assert_string_equal(err, "--buffer-kb: 16 is out of range [64, 1048576]");
	assert_int_equal(record_parse_args(argc_of(high), high, &a, err), -EINVAL);
	assert_string_equal(err, "--buffer-kb: 2097152 is out of range [64, 1048576]");
	assert_int_equal(record_parse_args(argc_of(ival), ival, &a, err), -EINVAL);
	assert_string_equal(err, "--interval: 1ms is shorter than 10ms");
	assert_int_equal(record_parse_args(argc_of(cpus), cpus, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--capture-cpus: "));
	assert_int_equal(record_parse_args(argc_of(both), both, &a, err), -EINVAL);
	assert_non_null(strstr(err, "contradict"));
	assert_int_equal(record_parse_args(argc_of(nodir), nodir, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--store needs -o DIR"));
	assert_int_equal(record_parse_args(argc_of(ok), ok, &a, err), 0);
	assert_true(a.force);
	assert_string_equal(a.store, "s.db");
	assert_int_equal(a.cap.buffer_kb, 64);
	assert_int_equal(a.cap.interval_ns, 10 * NSEC_PER_MSEC);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_record_args),
		cmocka_unit_test(test_record_messages),
		cmocka_unit_test(test_analyze_args),
		cmocka_unit_test(test_ts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
