// SPDX-License-Identifier: GPL-2.0
/*
 * test_output.c - summary.json and the CSV files, written and read back with the
 * same libraries a consumer would use (json-c, libcsv): the statistics, the histogram
 * buckets (they add up to each group's count), intervals.csv (its intervals add up to
 * the whole capture), and losses: the kernel's per-CPU counters, parsed from the stats
 * text, make a capture lossy, and every output says so.
 */
#include <csv.h>
#include <json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "result.h"
#include "ivfile.h"
#include "outdir.h"
#include "result_files.h"
#include "msg.h"
#include "file.h"
#include "fixture.h"

#define MS (1000 * 1000ULL)
#define US 1000ULL

static char dir[64];
static int setup(void **state);
static int teardown(void **state);

/*
 * build_events - 100 NET_RX softirqs from 10 us on, raised 100 us apart on
 * alternating CPUs with delays of 1..100 us, and one work item of events_unbound; in
 * time order, each event announced to the matcher's interval clock as the decoder
 * does; interval_ns and the interval callback as the capture passes them
 */
static void build_events(struct result *r, uint64_t interval_ns, ival_cb cb, void *ctx)
{
	struct matcher *m = &r->m;
	int i;

	assert_int_equal(result_init(r, 2, 1000, interval_ns, cb, ctx), 0);
	r->end_ts = 1000 + 2 * NSEC_PER_SEC;
	snprintf(r->meta.kernel, sizeof(r->meta.kernel), "6.18-test");
	snprintf(r->meta.command, sizeof(r->meta.command), "deferbench record \"quoted\", comma");
	for (i = 0; i < 100; i++) {
		uint64_t t = 10000 + i * 100 * US;

		match_tick(m, t);
		match_softirq_raise(m, i % 2, t, SIRQ_NET_RX, 0, 0);
		match_tick(m, t + (i + 1) * US);
		match_softirq_entry(m, i % 2, t + (i + 1) * US, SIRQ_NET_RX, 1);
		match_tick(m, t + (i + 2) * US);
		match_softirq_exit(m, i % 2, t + (i + 2) * US, SIRQ_NET_RX, 0);
		if (i)
			continue;
		match_comm(m, 7, "kworker/u4:1", 12);
		match_tick(m, 50 * US);
		match_wq_queue(m, 0, 50 * US, 1, 0x1000, 0xffffffff81000010ULL, "events_unbound", 15);
		match_wq_activate(m, 0, 50 * US, 0x1000);
		match_tick(m, 80 * US);
		match_wq_start(m, 1, 80 * US, 7, false, 0x1000, 0xffffffff81000010ULL);
		match_tick(m, 90 * US);
		match_wq_end(m, 1, 90 * US, 7, false, 0x1000);
	}
}

static void build(struct result *r)
{
	build_events(r, 0, NULL, NULL);
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
	assert_int_equal(summary_write(&r, path), 0);
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
	assert_int_equal(tables_write(&r, dir), 0);
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

/* bucket_sums - histograms.csv's bucket counts added up per group and metric */
struct bucket_sum {
	char key[400];		/* kind,name,cpu,function,pool,metric */
	long long count;
};

struct bucket_read {
	char field[16][64];
	int col, row, nsums;
	long long lo_prev;
	int unsorted;
	struct bucket_sum sums[64];
};

static void bucket_field(void *s, size_t len, void *data)
{
	struct bucket_read *b = data;

	if (b->col < 16)
		snprintf(b->field[b->col++], 64, "%.*s", (int)len, (const char *)s);
}

static void bucket_row(int ch, void *data)
{
	struct bucket_read *b = data;
	char key[400];
	int i;

	(void)ch;
	if (b->row++ && b->col == 9) {
		snprintf(key, sizeof(key), "%s,%s,%s,%s,%s,%s", b->field[0], b->field[1],
			 b->field[2], b->field[3], b->field[4], b->field[5]);
		for (i = 0; i < b->nsums && strcmp(b->sums[i].key, key); i++)
			;
		if (i == b->nsums && b->nsums < 64) {
			memcpy(b->sums[b->nsums++].key, key, sizeof(key));
			b->lo_prev = -1;
		}
		if (i < 64) {
			b->unsorted += atoll(b->field[6]) <= b->lo_prev;
			b->lo_prev = atoll(b->field[6]);
			b->sums[i].count += atoll(b->field[8]);
		}
	}
	b->col = 0;
}

static long long bucket_sum(const struct bucket_read *b, const char *key)
{
	int i;

	for (i = 0; i < b->nsums; i++)
		if (!strcmp(b->sums[i].key, key))
			return b->sums[i].count;
	fail_msg("histograms.csv has no group %s", key);
	return -1;
}

/* test_histogram_buckets - every histogram's buckets add up to its group's count */
static void test_histogram_buckets(void **state)
{
	struct bucket_read *b = calloc(1, sizeof(*b));
	struct csv_parser p;
	struct result r;
	char path[128], buf[4096];
	size_t n;
	FILE *f;

	(void)state;
	assert_non_null(b);
	build(&r);
	snprintf(path, sizeof(path), "%s/histograms.csv", dir);
	assert_int_equal(histograms_write(&r, path), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(csv_init(&p, CSV_STRICT | CSV_APPEND_NULL), 0);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		assert_int_equal(csv_parse(&p, buf, n, bucket_field, bucket_row, b), n);
	csv_fini(&p, bucket_field, bucket_row, b);
	csv_free(&p);
	fclose(f);
	/* 100 softirqs on both CPUs, 50 on each; one work item */
	assert_int_equal(bucket_sum(b, "softirq,NET_RX,-1,,,delay"), 100);
	assert_int_equal(bucket_sum(b, "softirq,NET_RX,-1,,,runtime"), 100);
	assert_int_equal(bucket_sum(b, "softirq,NET_RX,0,,,delay"), 50);
	assert_int_equal(bucket_sum(b, "softirq,NET_RX,1,,,delay"), 50);
	assert_int_equal(bucket_sum(b, "workqueue,events_unbound,,0xffffffff81000010,unbound4,delay"), 1);
	assert_int_equal(bucket_sum(b, "workqueue,events_unbound,,0xffffffff81000010,unbound4,runtime"), 1);
	assert_int_equal(b->unsorted, 0);	/* buckets in ascending order in each group */
	free(b);
	result_free(&r);
}

/*
 * test_intervals_csv - 2 ms intervals of a capture whose softirqs run over its first
 * 10 ms: each interval's rows at its own start, their counts adding up to the
 * capture's 100; the reader gives them back
 */
static void test_intervals_csv(void **state)
{
	struct ival_writer *iw;
	struct ival_row *rows;
	struct csv_read c;
	struct result r;
	char path[128], err[ERRBUF_LEN];
	uint64_t total = 0;
	size_t n, i;

	(void)state;
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	iw = intervals_csv_open(path, &r);
	assert_non_null(iw);
	build_events(&r, 2 * NSEC_PER_MSEC, intervals_csv_cb, iw);
	result_finish(&r);
	assert_int_equal(intervals_csv_close(iw), 0);

	read_csv(path, &c);
	assert_string_equal(c.first[0], "interval");
	assert_string_equal(c.first[13], "buckets");
	assert_int_equal(c.bad_width, 0);
	assert_int_equal(ivfile_load(path, "delay", &rows, &n, err), 0);
	for (i = 0; i < n; i++) {
		if (!rows[i].softirq)
			continue;
		assert_string_equal(rows[i].name, "NET_RX");
		/* intervals start at multiples of 2 ms; the softirqs fill 0..10 ms */
		assert_true(fabs(rows[i].t_s / 0.002 - round(rows[i].t_s / 0.002)) < 1e-6);
		assert_true(rows[i].t_s < 0.011);
		assert_true(rows[i].count > 0 && rows[i].p50 <= rows[i].max);
		total += rows[i].count;
	}
	assert_true(n >= 6);	/* 5 or 6 intervals of softirqs, 1 of the work item */
	assert_int_equal(total, 100);
	free(rows);
	result_free(&r);
}

/* test_bucket_text - the buckets column of intervals.csv adds up to the count column */
static void test_bucket_text(void **state)
{
	struct ival_writer *iw;
	struct result r;
	char path[128], line[8192];
	long long sum, count;
	int rows = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/intervals.csv", dir);
	iw = intervals_csv_open(path, &r);
	build_events(&r, 2 * NSEC_PER_MSEC, intervals_csv_cb, iw);
	result_finish(&r);
	assert_int_equal(intervals_csv_close(iw), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));	/* header */
	while (fgets(line, sizeof(line), f)) {
		char *q = strrchr(line, ','), *tok, *save = NULL;
		int k;

		/* count is the 8th field; the buckets, "lo:n lo:n", the last (quoted) */
		for (k = 0, tok = line; k < 7 && tok; k++)
			tok = strchr(tok, ',') + 1;
		count = atoll(tok);
		sum = 0;
		for (tok = strtok_r(q + 2, " \"\n", &save); tok; tok = strtok_r(NULL, " \"\n", &save))
			sum += atoll(strchr(tok, ':') + 1);
		assert_int_equal(sum, count);
		rows++;
	}
	fclose(f);
	assert_true(rows >= 10);
	result_free(&r);
}

static const char stats_text[] =
	"entries: 12\n"
	"overrun: 3\n"
	"commit overrun: 4\n"
	"bytes: 4096\n"
	"oldest event ts:  3878.101010\n"
	"now ts:  3879.524547\n"
	"dropped events: 5\n"
	"read events: 4242\n";

/* test_stats_parse - the kernel's per_cpu/cpuN/stats, as the capture reads it */
static void test_stats_parse(void **state)
{
	struct cpu_loss l;

	(void)state;
	memset(&l, 0, sizeof(l));
	result_cpu_loss_parse(stats_text, &l);
	assert_int_equal(l.entries, 12);
	assert_int_equal(l.overrun, 3);
	assert_int_equal(l.commit_overrun, 4);
	assert_int_equal(l.dropped, 5);
	assert_int_equal(l.read_events, 4242);
	assert_int_equal(l.missed_in_band, 0);
	result_cpu_loss_parse("", &l);			/* nothing known: nothing changed */
	assert_int_equal(l.dropped, 5);
}

/* lossy_outputs - r is lossy with lost events, and every file and the table say so */
static void lossy_outputs(struct result *r, uint64_t lost)
{
	char path[128], *text = NULL;
	json_object *root, *cap;
	struct csv_read c;
	size_t len = 0;
	FILE *f;
	int i;

	/* a new directory for each: output files are never written over */
	assert_int_equal(teardown(NULL), 0);
	assert_int_equal(setup(NULL), 0);
	assert_true(r->lossy);
	assert_int_equal(r->lost_events, lost);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	output_print(r, f, NULL);
	fclose(f);
	if (!strstr(text, "[LOSSY: figures below undercount]"))
		fail_msg("the table does not say LOSSY:\n%s", text);
	free(text);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_int_equal(summary_write(r, path), 0);
	root = json_object_from_file(path);
	cap = member(root, "capture");
	assert_true(json_object_get_boolean(member(cap, "lossy")));
	assert_int_equal(json_object_get_int64(member(cap, "lost_events")), (int64_t)lost);
	json_object_put(root);
	assert_int_equal(tables_write(r, dir), 0);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, i ? "workqueue.csv" : "softirq.csv");
		read_csv(path, &c);
		assert_string_equal(c.first[c.cols0 - 1], "lossy");
		assert_string_equal(c.first[c.cols0 - 3], "lost_events");
		assert_string_equal(c.cell[c.cols0 - 1], "1");	/* on every row: the last one */
		assert_int_equal(atoll(c.cell[c.cols0 - 3]), lost);
	}
}

/*
 * test_lossy - each kernel counter alone makes a capture lossy (overrun, commit overrun,
 * dropped events, as parsed from the stats text, and the in-band missed-event marks),
 * the kernel's and the in-band count of the same losses are not added; none is lossless
 */
static void test_lossy(void **state)
{
	struct result r;

	(void)state;
	build(&r);
	assert_false(r.lossy);
	assert_int_equal(r.lost_events, 0);
	result_free(&r);

	build_events(&r, 0, NULL, NULL);
	r.loss[1].overrun = 3;
	result_finish(&r);
	lossy_outputs(&r, 3);
	result_free(&r);

	build_events(&r, 0, NULL, NULL);
	r.loss[0].commit_overrun = 2;
	result_finish(&r);
	lossy_outputs(&r, 2);
	result_free(&r);

	build_events(&r, 0, NULL, NULL);
	result_cpu_loss_parse(stats_text, &r.loss[0]);	/* 3 + 4 + 5, entries and reads are no loss */
	result_finish(&r);
	lossy_outputs(&r, 12);
	result_free(&r);

	build_events(&r, 0, NULL, NULL);
	r.loss[1].missed_in_band = 7;
	result_finish(&r);
	lossy_outputs(&r, 7);
	result_free(&r);

	/* the same losses seen both ways: the larger, not the sum */
	build_events(&r, 0, NULL, NULL);
	r.loss[0].dropped = 5;
	r.loss[1].missed_in_band = 4;
	result_finish(&r);
	lossy_outputs(&r, 5);
	result_free(&r);
}

/*
 * test_results_are_ours - every file the result writers make is one outdir.c knows as
 * deferbench's own: --force may replace it, and leftovers of a killed run are removed
 * (a writer's new file unknown there made both refuse)
 */
static void test_results_are_ours(void **state)
{
	char sub[160], path[192];
	struct result r;
	struct stat st;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/ours", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	build(&r);
	snprintf(path, sizeof(path), "%s/summary.json", sub);
	assert_int_equal(summary_write(&r, path), 0);
	assert_int_equal(tables_write(&r, sub), 0);
	result_free(&r);
	assert_int_equal(outdir_results_remove(sub), 0);
	assert_int_equal(stat(sub, &st), -1);
}

/* record --slowest, --stacks and --keep-worst's files are deferbench's too */
static void test_detail_results_are_ours(void **state)
{
	static const char *const names[] = {
		"summary.json", "slowest.csv", "stacks.csv", "stacks.folded",
		"raw/formats/ftrace/kernel_stack", "worst/NET_RX/raw/cpu0.dat",
		"worst/NET_RX/raw/capture.json", "worst/NET_RX/raw/formats/ftrace/kernel_stack",
	};
	char sub[160];
	struct stat st;
	size_t i;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/detail", dir);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(fixture_write(sub, names[i], "x\n"));
	assert_int_equal(outdir_results_remove(sub), 0);
	assert_int_equal(stat(sub, &st), -1);
	/* a vector's directory is named as the kernel names vectors, nothing else */
	assert_non_null(fixture_write(sub, "worst/net_rx/raw/cpu0.dat", "x\n"));
	assert_int_not_equal(outdir_results_remove(sub), 0);
	assert_int_equal(stat(sub, &st), 0);
}

/* print - the table of r as o says, into a string the caller frees */
static char *print(const struct result *r, const struct table_opts *o)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	output_print(r, f, o);
	fclose(f);
	return text;
}

/* wq_items - n items of wq/func, each delayed by delay_us (queue_work -> execute_start) */
static void wq_items(struct matcher *m, const char *wq, uint64_t func, int n, uint64_t t0,
		     uint64_t delay_us)
{
	int i;

	for (i = 0; i < n; i++) {
		uint64_t t = t0 + i * 1000 * US, work = 0x9000 + func % 0x100;

		match_tick(m, t);
		match_wq_queue(m, 0, t, 1, work, func, wq, (int)strlen(wq));
		match_tick(m, t + delay_us * US);
		match_wq_start(m, 1, t + delay_us * US, 7, false, work, func);
		match_tick(m, t + (delay_us + 1) * US);
		match_wq_end(m, 1, t + (delay_us + 1) * US, 7, false, work);
	}
}

/*
 * test_table - the terminal table: one unit per column, us by default and whole ns with
 * --ns; a cut name ends in '~'; groups of fewer than min_count items folded into one
 * "other" row that names its largest delay, and none folded at --min-count 1
 */
static void test_table(void **state)
{
	struct table_opts us = { .min_count = TABLE_MIN_COUNT };
	struct table_opts ns_all = { .ns = true, .min_count = 1 };
	const char *longname = "a_workqueue_name_longer_than_24";
	struct result r;
	char *text;

	(void)state;
	build_events(&r, 0, NULL, NULL);	/* events_unbound: one item, 30 us */
	wq_items(&r.m, longname, 0xffffffff81000020ULL, 12, 20 * MS, 5);
	wq_items(&r.m, "tiny_a", 0xffffffff81000030ULL, 2, 40 * MS, 7);
	wq_items(&r.m, "tiny_b", 0xffffffff81000040ULL, 3, 60 * MS, 900);
	result_finish(&r);

	text = print(&r, &us);
	assert_non_null(strstr(text, "WORKQUEUE, by p99 delay, times in us"));
	assert_non_null(strstr(text, "a_workqueue_name_longer~ "));
	assert_null(strstr(text, longname));
	assert_non_null(strstr(text, "(3 groups, < 10 items each)"));
	assert_non_null(strstr(text, "other's largest delay, 900.0 us: tiny_b"));
	/* NET_RX delays of 1..100 us: the max in us with one decimal, no unit in the cell */
	assert_non_null(strstr(text, "   100.0 |"));
	assert_null(strstr(text, "100.0us"));
	free(text);

	text = print(&r, &ns_all);
	assert_non_null(strstr(text, "times in ns"));
	assert_null(strstr(text, "items each)"));
	assert_null(strstr(text, "other's largest"));
	assert_non_null(strstr(text, "events_unbound"));
	assert_non_null(strstr(text, "tiny_a"));
	/* events_unbound's one delay, 30 us, in whole ns */
	assert_non_null(strstr(text, "     30000"));
	free(text);
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
	return path_rm_rf(dir);
}

/* Each test writes into a directory of its own: output files are never rewritten. */
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_json_roundtrip),
		T(test_csv_roundtrip),
		T(test_histogram_buckets),
		T(test_intervals_csv),
		T(test_bucket_text),
		T(test_stats_parse),
		T(test_lossy),
		T(test_results_are_ours),
		T(test_detail_results_are_ours),
		T(test_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
