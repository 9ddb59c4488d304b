// SPDX-License-Identifier: GPL-2.0
/*
 * test_cyclictest_json.c - reading cyclictest --json (rt-tests 2.4) back into a
 * histogram, overflows included.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cyclictest.h"
#include "msg.h"

/* trimmed from a real cyclictest 2.40 run: -t 2 -h 100 */
static const char two_threads[] =
	"{ \"file_version\": 1, \"rt_test_version:\": \"2.40\", \"num_threads\": 2,\n"
	"  \"thread\": {\n"
	"    \"0\": { \"histogram\": { \"8\": 1, \"12\": 91, \"13\": 422 },\n"
	"             \"cycles\": 519, \"min\": 8, \"max\": 159, \"avg\": 13.1, \"cpu\": 0 },\n"
	"    \"1\": { \"histogram\": { \"7\": 1, \"99\": 2 },\n"
	"             \"cycles\": 3, \"min\": 7, \"max\": 99, \"avg\": 68.3, \"cpu\": 1 } } }";

static void test_two_threads_with_overflow(void **state __unused)
{
	char err[ERRBUF_LEN];
	uint64_t cycles, over;
	struct hist h;

	hist_init(&h);
	assert_int_equal(cyclictest_parse_json(two_threads, &h, &cycles, &over, err), 0);
	assert_int_equal(cycles, 522);
	assert_int_equal(over, 5);		/* 519 - (1 + 91 + 422) */
	assert_int_equal(h.count, 522);
	assert_int_equal(h.min, 7000);
	assert_int_equal(h.max, 159000);	/* the overflows, at thread 0's max */
	assert_int_equal(h.bucket[hist_index(13000)], 422);
	assert_int_equal(h.bucket[hist_index(159000)], 5);
}

static void test_malformed(void **state __unused)
{
	char err[ERRBUF_LEN];
	uint64_t cycles, over;
	struct hist h;

	hist_init(&h);
	assert_int_equal(cyclictest_parse_json("{", &h, &cycles, &over, err), -EINVAL);
	assert_non_null(strstr(err, "does not parse"));
	assert_int_equal(cyclictest_parse_json("{\"x\": 1}", &h, &cycles, &over, err),
			 -EINVAL);
	assert_non_null(strstr(err, "no \"thread\""));
	assert_int_equal(cyclictest_parse_json(
		"{\"thread\": {\"0\": {\"histogram\": {\"a\": 1}, \"cycles\": 1, \"max\": 1}}}",
		&h, &cycles, &over, err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread.0.histogram'"));
	/* more in the histogram than cycles */
	assert_int_equal(cyclictest_parse_json(
		"{\"thread\": {\"0\": {\"histogram\": {\"1\": 5}, \"cycles\": 1, \"max\": 1}}}",
		&h, &cycles, &over, err), -EINVAL);
}

static void test_empty_run(void **state __unused)
{
	char err[ERRBUF_LEN];
	uint64_t cycles, over;
	struct hist h;

	hist_init(&h);
	assert_int_equal(cyclictest_parse_json(
		"{\"thread\": {\"0\": {\"histogram\": {}, \"cycles\": 0, \"min\": 1000000,"
		" \"max\": 0}}}", &h, &cycles, &over, err), 0);
	assert_int_equal(cycles, 0);
	assert_int_equal(h.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads_with_overflow),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_empty_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
