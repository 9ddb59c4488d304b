// SPDX-License-Identifier: GPL-2.0
/*
 * test_load_args.c - the command line of 'deferbench load'.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "msg.h"

#define ARGV(...) ((char *[]){ "load", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "load", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(a, err, ...) load_parse_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), a, err)

static struct load_args args;

static void test_forms(void **state __unused)
{
	char err[ERRBUF_LEN];

	assert_int_equal(PARSE(&args, err, "tty", "--rate", "500", "size=32", "--priority=5",
			       "-d", "2s", "-o", "/tmp/r"), 0);
	assert_string_equal(args.name, "tty");
	assert_int_equal(args.nopts, 3);
	assert_string_equal(args.key[0], "rate");
	assert_string_equal(args.val[0], "500");
	assert_string_equal(args.key[1], "size");
	assert_string_equal(args.val[1], "32");
	assert_string_equal(args.key[2], "priority");
	assert_string_equal(args.val[2], "5");
	assert_int_equal(args.duration_ns, 2 * NSEC_PER_SEC);
	assert_string_equal(args.outdir, "/tmp/r");
	assert_int_equal(args.seed, 1);
}

static void test_global_opts_before_name(void **state __unused)
{
	char err[ERRBUF_LEN];

	assert_int_equal(PARSE(&args, err, "-d500ms", "--seed=7", "--output", "o", "hog"), 0);
	assert_string_equal(args.name, "hog");
	assert_int_equal(args.duration_ns, 500 * NSEC_PER_MSEC);
	assert_int_equal(args.seed, 7);
	assert_string_equal(args.outdir, "o");
	assert_int_equal(args.nopts, 0);
}

static void test_defaults_and_list(void **state __unused)
{
	char err[ERRBUF_LEN];

	assert_int_equal(PARSE(&args, err, "timer"), 0);
	assert_int_equal(args.duration_ns, LOAD_DEFAULT_DURATION_NS);
	assert_null(args.outdir);
	assert_int_equal(PARSE(&args, err, "--list"), 0);
	assert_true(args.list);
	assert_null(args.name);
	assert_int_equal(PARSE(&args, err, "--list", "audio"), 0);
	assert_string_equal(args.name, "audio");
}

static void expect_err(int ret, const char *err, const char *want)
{
	assert_int_equal(ret, -EINVAL);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
}

static void test_errors(void **state __unused)
{
	char err[ERRBUF_LEN];

	expect_err(load_parse_args(1, ARGV(NULL), &args, err), err, "no workload named");
	expect_err(PARSE(&args, err, "tty", "-d"), err, "--duration needs a value");
	expect_err(PARSE(&args, err, "tty", "-d", "0"), err, "must be positive");
	expect_err(PARSE(&args, err, "tty", "-d", "fast"), err, "--duration");
	expect_err(PARSE(&args, err, "tty", "--seed", "-1"), err, "--seed");
	expect_err(PARSE(&args, err, "tty", "--rate"), err, "--rate needs a value");
	expect_err(PARSE(&args, err, "tty", "rate"), err, "unexpected argument 'rate'");
	expect_err(PARSE(&args, err, "-x", "tty"), err, "unknown option '-x'");
	expect_err(PARSE(&args, err, "rate=1", "tty"), err, "before the workload name");
	expect_err(PARSE(&args, err, "tty", "=1"), err, "bad workload option name");
}

/*
 * -i, --interval is load's; after the workload's name, --interval is the workload's
 * when it has an option of that name (timer), as before load had one
 */
static void test_interval(void **state __unused)
{
	char err[ERRBUF_LEN];

	assert_int_equal(PARSE(&args, err, "tty", "-i", "100ms"), 0);
	assert_int_equal(args.intervals_ns, 100 * NSEC_PER_MSEC);
	assert_int_equal(PARSE(&args, err, "tty", "--interval=200ms"), 0);
	assert_int_equal(args.intervals_ns, 200 * NSEC_PER_MSEC);
	assert_int_equal(args.nopts, 0);
	assert_int_equal(PARSE(&args, err, "timer", "--period", "2ms", "-i", "50ms"), 0);
	assert_int_equal(args.intervals_ns, 50 * NSEC_PER_MSEC);
	assert_int_equal(args.nopts, 1);
	assert_string_equal(args.key[0], "period");
	assert_string_equal(args.val[0], "2ms");
	/* timer's old --interval stays timer's, whose message says it is now period */
	assert_int_equal(PARSE(&args, err, "timer", "--interval", "2ms"), 0);
	assert_int_equal(args.nopts, 1);
	assert_string_equal(args.key[0], "interval");
	assert_int_equal(PARSE(&args, err, "--interval", "300ms", "timer"), 0);
	assert_int_equal(args.intervals_ns, 300 * NSEC_PER_MSEC);
	assert_int_equal(args.nopts, 0);
	/* the old spelling, with a note */
	assert_int_equal(PARSE(&args, err, "timer", "--intervals", "100ms"), 0);
	assert_int_equal(args.intervals_ns, 100 * NSEC_PER_MSEC);
	expect_err(PARSE(&args, err, "tty", "-i", "10us"), err,
		   "--interval: 10us is shorter than 1ms");
	expect_err(PARSE(&args, err, "tty", "-i", "soon"), err,
		   "--interval: 'soon' is not a duration");
	expect_err(PARSE(&args, err, "tty", "-o", ""), err, "--output: the value is empty");
	expect_err(PARSE(&args, err, "tty", "--seed", "x"), err,
		   "--seed: 'x' is not a non-negative integer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_global_opts_before_name),
		cmocka_unit_test(test_defaults_and_list),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
