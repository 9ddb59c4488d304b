// SPDX-License-Identifier: GPL-2.0
/*
 * test_output.c - summary.json and the CSV files, written and read back with the
 * same libraries a consumer would use (json-c, libcsv).
 */
#include <csv.h>
#include <json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "result.h"
#include "result_files.h"
#include "util.h"

#define US 1000ULL

static char dir[64];

static void build(struct result *r)
{
	struct matcher *m = &r->m;
	int i;

	assert_int_equal(result_init(r, 2, 1000, 0, NULL, NULL), 0);
	r->end_ts = 1000 + 2 * NSEC_PER_SEC;
	snprintf(r->meta.kernel, sizeof(r->meta.kernel), "6.18-test");
	snprintf(r->meta.command, sizeof(r->meta.command), "deferbench record \"quoted\", comma");
	for (i = 0; i < 100; i++) {
		uint64_t t = 10000 + i * 100 * US;

		match_softirq_raise(m, i % 2, t, SIRQ_NET_RX, 0, 0);
		match_softirq_entry(m, i % 2, t + (i + 1) * US, SIRQ_NET_RX, 1);
		match_softirq_exit(m, i % 2, t + (i + 2) * US, SIRQ_NET_RX, 0);
	}
	match_comm(m, 7, "kworker/u4:1", 12);
	match_wq_queue(m, 0, 50 * US, 0x1000, 0xffffffff81000010ULL, "events_unbound", 15);
	match_wq_activate(m, 0, 50 * US, 0x1000);
	match_wq_start(m, 1, 80 * US, 7, false, 0x1000, 0xffffffff81000010ULL);
	match_wq_end(m, 1, 90 * US, 7, false, 0x1000);
	result_finish(r);
}

static json_object *member(json_object *o, const char *k)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

static void test_json_roundtrip(void **state)
{
	struct result r;
	char path[128];
	json_object *root, *sirq, *row, *wq;
	size_t i;
	int all = 0;

	(void)state;
	build(&r);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_int_equal(result_write_json(&r, path), 0);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_string_equal(json_object_get_string(member(root, "schema")), "deferbench/1");
	assert_string_equal(json_object_get_string(member(member(root, "meta"), "command")),
			    "deferbench record \"quoted\", comma");
	assert_int_equal(json_object_get_int(member(member(root, "meta"), "cpus")), 2);
	assert_false(json_object_get_boolean(member(member(root, "capture"), "lossy")));
	assert_int_equal(json_object_get_int(member(member(root, "capture"), "events")), 304);
	sirq = member(root, "softirq");
	/* one all-CPU row and one per CPU */
	assert_int_equal(json_object_array_length(sirq), 3);
	for (i = 0; i < json_object_array_length(sirq); i++) {
		row = json_object_array_get_idx(sirq, i);
		assert_string_equal(json_object_get_string(member(row, "vector")), "NET_RX");
		if (json_object_get_int(member(row, "cpu")) != -1)
			continue;
		all++;
		assert_int_equal(json_object_get_int(member(row, "count")), 100);
		/* delays 1..100 us: nearest-rank p50 is 50 us, within 1% */
		assert_in_range(json_object_get_int(member(member(row, "delay_ns"), "p50")),
				49500, 50500);
		assert_int_equal(json_object_get_int(member(member(row, "delay_ns"), "max")),
				 100 * US);
		assert_int_equal(json_object_get_int(member(member(row, "runtime_ns"), "min")), US);
	}
	assert_int_equal(all, 1);
	wq = json_object_array_get_idx(member(root, "workqueue"), 0);
	assert_string_equal(json_object_get_string(member(wq, "workqueue")), "events_unbound");
	assert_string_equal(json_object_get_string(member(wq, "pool")), "unbound4");
	/* no symbols loaded: the address stands in for the name */
	assert_string_equal(json_object_get_string(member(wq, "function")), "0xffffffff81000010");
	assert_int_equal(json_object_get_int(member(member(wq, "delay_ns"), "max")), 30 * US);
	json_object_put(root);
	result_free(&r);
}

struct csv_read {
	int row, col, cols0;
	char first[64][64];	/* the header */
	char cell[64][64];	/* the current row */
	int rows;
	int bad_width;
	long long delay_count_sum;
};

static void on_field(void *s, size_t len, void *data)
{
	struct csv_read *c = data;
	char *dst = c->row == 0 ? c->first[c->col] : c->cell[c->col];

	if (c->col < 64) {
		snprintf(dst, 64, "%.*s", (int)len, (const char *)s);
		c->col++;
	}
}

static void on_row(int ch, void *data)
{
	struct csv_read *c = data;
	int i;

	(void)ch;
	if (c->row == 0) {
		c->cols0 = c->col;
	} else {
		if (c->col != c->cols0)
			c->bad_width++;
		for (i = 0; i < c->col; i++)
			if (!strcmp(c->first[i], "delay_count"))
				c->delay_count_sum += atoll(c->cell[i]);
		c->rows++;
	}
	c->row++;
	c->col = 0;
}

static void read_csv(const char *path, struct csv_read *c)
{
	struct csv_parser p;
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	memset(c, 0, sizeof(*c));
	assert_int_equal(csv_init(&p, CSV_STRICT | CSV_APPEND_NULL), 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		assert_int_equal(csv_parse(&p, buf, n, on_field, on_row, c), n);
	csv_fini(&p, on_field, on_row, c);
	csv_free(&p);
	fclose(f);
}

static void test_csv_roundtrip(void **state)
{
	struct csv_read c;
	struct result r;
	char path[128];

	(void)state;
	build(&r);
	assert_int_equal(result_write_csv(&r, dir), 0);
	snprintf(path, sizeof(path), "%s/softirq.csv", dir);
	read_csv(path, &c);
	assert_string_equal(c.first[0], "vector");
	assert_string_equal(c.first[5], "delay_count");
	assert_int_equal(c.cols0, 5 + 2 * 9 + 3);
	assert_int_equal(c.rows, 3);
	assert_int_equal(c.bad_width, 0);
	/* the all-CPU row plus the per-CPU rows: 100 + 50 + 50 */
	assert_int_equal(c.delay_count_sum, 200);
	snprintf(path, sizeof(path), "%s/workqueue.csv", dir);
	read_csv(path, &c);
	assert_int_equal(c.cols0, 4 + 4 * 9 + 3);
	assert_int_equal(c.rows, 1);
	snprintf(path, sizeof(path), "%s/histograms.csv", dir);
	read_csv(path, &c);
	assert_string_equal(c.first[8], "count");
	assert_int_equal(c.bad_width, 0);
	assert_true(c.rows > 100);
	result_free(&r);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/deferbench-test-output.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rm_rf(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_csv_roundtrip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
