// SPDX-License-Identifier: GPL-2.0
/*
 * test_wl_output.c - workload.json and workload-hist.csv, read back: the fields of
 * docs/results-format.md, quoting done by the libraries.
 */
#include <errno.h>
#include <json.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload.h"
#include "msg.h"
#include "file.h"

struct cfg {
	uint64_t rate;
	char s[WL_STR_MAX];
};

static const struct opt_desc opts[] = {
	OPT_U64(0, NULL, cfg, rate, "N", 1, 1000, "rate", .key = "rate", .def = "100"),
	OPT_STRING_BUF(0, NULL, cfg, s, "TEXT", "text", .key = "label",
		       .def = "a \"quoted\", label"),
	OPT_END(),
};

static int setup(struct wl_run *w, char *errbuf __unused)
{
	int m = wl_metric_add(w, "odd,name\"", "ns", "desc with \"quotes\"");
	int i;

	for (i = 1; i <= 100; i++)
		hist_add(&w->metrics.metric[m].hist, (uint64_t)i * 1000);
	wl_metric_add(w, "empty", "ns", "never recorded");
	wl_rate(w, wl_counter_add(w, "ops"), 100);
	return 0;
}

static int start(struct wl_run *w __unused, char *errbuf __unused) { return 0; }
static void stop(struct wl_run *w) { w->metrics.counter[0].value = 100; }
static void teardown(struct wl_run *w __unused) { }

static const struct workload_ops ops = {
	.name = "out", .help = "test", .options = opts, .cfg_size = sizeof(struct cfg),
	.setup = setup, .start = start, .stop = stop, .teardown = teardown,
};

static struct json_object *get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no key %s", key);
	return v;
}

static void test_write_and_read_back(void **state __unused)
{
	char dir[] = "/tmp/deferbench-test.XXXXXX", path[PATH_MAX], line[256];
	struct json_object *root, *m0, *c;
	struct wl_run *w = wl_new(&ops);
	char errbuf[ERRBUF_LEN];
	int rows = 0;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_start(w, errbuf), 0);
	w->start_ns = 1000;
	wl_stop(w);
	w->stop_ns = w->start_ns + 2 * NSEC_PER_SEC;
	assert_int_equal(wl_write_results(w, dir), 0);

	snprintf(path, sizeof(path), "%s/workload.json", dir);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(get(root, "schema")),
			    "deferbench-workload/1");
	assert_string_equal(json_object_get_string(get(root, "workload")), "out");
	assert_string_equal(json_object_get_string(get(get(root, "options"), "label")),
			    "a \"quoted\", label");
	assert_int_equal(json_object_get_int64(get(root, "seed")), 1);
	assert_true(json_object_get_double(get(root, "duration_s")) == 2.0);
	assert_true(json_object_get_double(get(root, "warmup_s")) == 0);
	m0 = json_object_array_get_idx(get(root, "metrics"), 0);
	assert_string_equal(json_object_get_string(get(m0, "name")), "odd,name\"");
	assert_int_equal(json_object_get_int64(get(m0, "count")), 100);
	assert_int_equal(json_object_get_int64(get(m0, "min")), 1000);
	assert_int_equal(json_object_get_int64(get(m0, "max")), 100000);
	assert_true(labs(json_object_get_int64(get(m0, "p50")) - 50000) < 500);
	assert_non_null(get(m0, "p90"));
	assert_non_null(get(m0, "p999"));
	assert_non_null(get(m0, "stddev"));
	assert_non_null(get(m0, "mean"));
	assert_int_equal(json_object_get_int64(get(json_object_array_get_idx(
		get(root, "metrics"), 1), "count")), 0);
	c = get(root, "counters");
	assert_int_equal(json_object_get_int64(get(c, "ops")), 100);
	assert_int_equal(json_object_get_int64(get(c, "rate_asked")), 100);
	assert_non_null(get(c, "rate_achieved"));
	json_object_put(root);

	snprintf(path, sizeof(path), "%s/workload-hist.csv", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "\"metric\",\"lo_ns\",\"hi_ns\",\"count\"\n");
	while (fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi, n;

		assert_int_equal(strncmp(line, "\"odd,name\"\"\",", 13), 0);
		assert_int_equal(sscanf(line + 13, "%llu,%llu,%llu", &lo, &hi, &n), 3);
		assert_true(lo < hi && n > 0);
		rows += (int)n;
	}
	fclose(f);
	assert_int_equal(rows, 100);	/* every sample in some bucket, "empty" absent */
	wl_free(w);
	assert_int_equal(path_rm_rf(dir), 0);
}

/* with a measurement window: duration_s is the window, warmup_s the time before it */
static void test_window_fields(void **state __unused)
{
	char dir[] = "/tmp/deferbench-test.XXXXXX", path[PATH_MAX];
	struct json_object *root;
	struct wl_run *w = wl_new(&ops);
	char errbuf[ERRBUF_LEN];

	assert_non_null(mkdtemp(dir));
	assert_int_equal(wl_measure_from(w, WL_MEASURE_LATER), 0);
	assert_int_equal(wl_setup(w, errbuf), 0);
	assert_int_equal(wl_start(w, errbuf), 0);
	wl_stop(w);
	w->start_ns = 1000;
	w->window_ns = w->start_ns + NSEC_PER_SEC / 2;
	w->stop_ns = w->start_ns + 2 * NSEC_PER_SEC;
	assert_int_equal(wl_write_results(w, dir), 0);
	snprintf(path, sizeof(path), "%s/workload.json", dir);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_get_double(get(root, "duration_s")) == 1.5);
	assert_true(json_object_get_double(get(root, "warmup_s")) == 0.5);
	json_object_put(root);
	wl_free(w);
	assert_int_equal(path_rm_rf(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_and_read_back),
		cmocka_unit_test(test_window_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
