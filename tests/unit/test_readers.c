// SPDX-License-Identifier: GPL-2.0
/*
 * test_readers.c - summary.json, histograms.csv, workload files, intervals.csv,
 * run.json and cell.json: good files load, malformed ones fail with a message naming
 * the file and the field.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fixture.h"
#include "ivfile.h"
#include "result_files.h"
#include "rundata.h"
#include "rundir.h"
#include "workload.h"
#include "synth.h"
#include "msg.h"

#define STATS(c, p50, p99, max) \
	"{\"count\": " #c ", \"min\": 100, \"mean\": 500.5, \"stddev\": 20, \"p50\": " #p50 \
	", \"p90\": " #p50 ", \"p99\": " #p99 ", \"p999\": " #p99 ", \"max\": " #max "}"

/* thread_wakeup: one ksoftirqd thread and two worker pools */
#define WAKEUP \
	"  \"thread_wakeup\": { \"ksoftirqd\": [ { \"cpu\": 1, \"wakeup_ns\": " \
	STATS(5, 4000, 9000, 9500) " } ],\n" \
	"    \"workers\": [ { \"pool\": \"unbound10\", \"wakeup_ns\": " \
	STATS(1500, 3000, 7000, 8000) " },\n" \
	"      { \"pool\": \"cpu1H\", \"wakeup_ns\": " STATS(7, 5000, 6000, 6000) " } ] },\n"

static const char good_summary[] =
	"{ \"schema\": \"deferbench/1\",\n"
	"  \"meta\": { \"kernel\": \"6.18.0\", \"hostname\": \"vm\", \"cpus\": 2,"
	" \"duration_s\": 5.0, \"started\": \"2026-12-03T05:30:00Z\", \"version\": \"0.1.0\" },\n"
	"  \"capture\": { \"events\": 10, \"lost_events\": 0, \"lossy\": false,"
	" \"late_events\": 0, \"unmatched\": 3 },\n"
	WAKEUP
	"  \"softirq\": [ { \"vector\": \"NET_RX\", \"cpu\": -1, \"count\": 3,"
	" \"ksoftirqd_count\": 1, \"long_runs\": 0, \"delay_ns\": " STATS(3, 1000, 2000, 2000)
	", \"runtime_ns\": " STATS(3, 500, 600, 600) " } ],\n"
	"  \"workqueue\": [ { \"workqueue\": \"events\", \"function\": \"vmstat_update\","
	" \"pool\": \"cpu0\", \"count\": 2, \"delay_ns\": " STATS(2, 1000, 1000, 1000)
	", \"activate_wait_ns\": " STATS(0, 0, 0, 0) ", \"worker_wait_ns\": " STATS(0, 0, 0, 0)
	", \"runtime_ns\": " STATS(0, 0, 0, 0) " } ]\n}\n";

static void test_summary_good(void **state)
{
	struct record rec = { 0 };
	char err[ERRBUF_LEN], *d = fixture_dir();

	(void)state;
	assert_int_equal(summary_load(fixture_write(d, "summary.json", good_summary), &rec, err),
			 0);
	assert_int_equal(rec.nsirq, 1);
	assert_string_equal(rec.sirq[0].vector, "NET_RX");
	assert_int_equal(rec.sirq[0].cpu, -1);
	assert_int_equal(rec.sirq[0].st[SM_DELAY].p99, 2000);
	assert_int_equal(rec.nwq, 1);
	assert_string_equal(rec.wq[0].func, "vmstat_update");
	assert_int_equal(rec.cap.unmatched, 3);
	assert_false(rec.cap.lossy);
	record_free(&rec);
	fixture_free(d);
}

/* replace the first occurrence of from by to in good_summary, then load into rec */
static int load_mutated_rec(const char *from, const char *to, char *err, struct record *rec)
{
	char text[sizeof(good_summary) + 256], *p, *d = fixture_dir();
	int ret;

	p = strstr(good_summary, from);
	assert_non_null(p);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(p - good_summary), good_summary, to,
		 p + strlen(from));
	memset(rec, 0, sizeof(*rec));
	ret = summary_load(fixture_write(d, "summary.json", text), rec, err);
	fixture_free(d);
	return ret;
}

static int load_mutated(const char *from, const char *to, char *err)
{
	struct record rec;
	int ret;

	ret = load_mutated_rec(from, to, err, &rec);
	record_free(&rec);
	return ret;
}

static void test_summary_malformed(void **state)
{
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_mutated("\"p99\": 2000", "\"q99\": 2000", err), -EINVAL);
	assert_non_null(strstr(err, "field 'softirq[0].delay_ns.p99' missing"));
	assert_non_null(strstr(err, "summary.json"));
	assert_int_equal(load_mutated("\"cpu\": -1", "\"cpu\": \"all\"", err), -EINVAL);
	assert_non_null(strstr(err, "field 'softirq[0].cpu' is a string (\"all\"), expected a "
			       "whole number"));
	assert_int_equal(load_mutated("deferbench/1", "deferbench/2", err), -EINVAL);
	assert_non_null(strstr(err, "field 'schema' is 'deferbench/2'"));
	assert_int_equal(load_mutated("\"lossy\": false", "\"lossy\": 0", err), -EINVAL);
	assert_non_null(strstr(err, "field 'capture.lossy'"));
	assert_int_equal(load_mutated("\"count\": 3,", "\"count\": -3,", err), -EINVAL);
	assert_non_null(strstr(err, "field 'softirq[0].count' is negative"));
	assert_int_equal(load_mutated("\"p50\": 1000, \"p90\": 1000, \"p99\": 2000",
				      "\"p50\": 3000, \"p90\": 3000, \"p99\": 2000", err), -EINVAL);
	assert_non_null(strstr(err, "inconsistent"));
	assert_int_equal(load_mutated("} ]\n}", "} ]\n", err), -EINVAL);
	assert_non_null(strstr(err, "not JSON"));
}

static void test_summary_wakeup(void **state)
{
	const struct wake_data *w;
	struct record rec;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_mutated_rec(WAKEUP, WAKEUP, err, &rec), 0);	/* unchanged */
	assert_true(rec.has_wakeup);
	assert_int_equal(rec.nwake[WK_KSOFTIRQD], 1);
	assert_int_equal(rec.nwake[WK_WORKER], 2);
	w = record_wakeup(&rec, WK_KSOFTIRQD, "1");
	assert_non_null(w);
	assert_int_equal(w->cpu, 1);
	assert_int_equal(w->st.count, 5);
	assert_int_equal(w->st.p99, 9000);
	w = record_wakeup(&rec, WK_WORKER, "cpu1H");
	assert_non_null(w);
	assert_int_equal(w->cpu, -1);
	assert_int_equal(w->st.max, 6000);
	assert_non_null(record_wakeup(&rec, WK_WORKER, "unbound10"));
	assert_null(record_wakeup(&rec, WK_WORKER, "1"));	/* kinds do not mix */
	assert_null(record_wakeup(&rec, WK_KSOFTIRQD, "0"));
	record_free(&rec);
}

/* a summary.json from before thread_wakeup existed is read, without it */
static void test_summary_wakeup_absent(void **state)
{
	struct record rec;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_mutated_rec(WAKEUP, "", err, &rec), 0);
	assert_false(rec.has_wakeup);
	assert_int_equal(rec.nwake[WK_KSOFTIRQD] + rec.nwake[WK_WORKER], 0);
	assert_null(record_wakeup(&rec, WK_WORKER, "unbound10"));
	assert_int_equal(rec.nsirq, 1);
	record_free(&rec);
	/* present but empty (recorded with --no-sched) */
	assert_int_equal(load_mutated_rec(WAKEUP, "\"thread_wakeup\": { \"ksoftirqd\": [],"
					  " \"workers\": [] },", err, &rec), 0);
	assert_true(rec.has_wakeup);
	assert_int_equal(rec.nwake[WK_KSOFTIRQD] + rec.nwake[WK_WORKER], 0);
	record_free(&rec);
}

static void test_summary_wakeup_malformed(void **state)
{
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_mutated("\"thread_wakeup\": {", "\"thread_wakeup\": [], \"x\": {",
				      err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup' is an array ([]), expected an object"));
	assert_non_null(strstr(err, "summary.json"));
	assert_int_equal(load_mutated("\"workers\"", "\"worker\"", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.workers' missing"));
	assert_int_equal(load_mutated("\"ksoftirqd\": [", "\"ksoftirqd\": 0, \"k\": [", err),
			 -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.ksoftirqd' is a whole number (0), "
			       "expected an array"));
	assert_int_equal(load_mutated("\"ksoftirqd\": [ {", "\"ksoftirqd\": [ 3, {", err),
			 -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.ksoftirqd[0]' is not an object"));
	assert_int_equal(load_mutated("\"cpu\": 1,", "\"cpu\": -1,", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.ksoftirqd[0].cpu' is -1, outside"));
	assert_int_equal(load_mutated("\"cpu\": 1,", "\"cpu\": \"1\",", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.ksoftirqd[0].cpu' is a string"));
	assert_int_equal(load_mutated("\"p99\": 9000", "\"p98\": 9000", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.ksoftirqd[0].wakeup_ns.p99' missing"));
	assert_int_equal(load_mutated("\"p50\": 4000", "\"p50\": 9900", err), -EINVAL);
	assert_non_null(strstr(err, "thread_wakeup.ksoftirqd[0].wakeup_ns"));
	assert_non_null(strstr(err, "inconsistent"));
	assert_int_equal(load_mutated("\"pool\": \"cpu1H\"", "\"pool\": 12", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.workers[1].pool' is a whole number (12)"));
	assert_int_equal(load_mutated("\"pool\": \"cpu1H\"", "\"pool\": \"\"", err), -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.workers[1].pool' is empty"));
	assert_int_equal(load_mutated("\"pool\": \"cpu1H\"", "\"pool\": \"unbound10\"", err),
			 -EINVAL);
	assert_non_null(strstr(err, "field 'thread_wakeup.workers[1].pool' repeats "
			       "'unbound10' of entry 0"));
}

static const char hist_hdr[] = "kind,name,cpu,function,pool,metric,lo_ns,hi_ns,count\n";

static int load_hist(const char *rows, char *err, struct record *rec)
{
	char text[2048], *d = fixture_dir();
	int ret;

	memset(rec, 0, sizeof(*rec));
	assert_int_equal(summary_load(fixture_write(d, "summary.json", good_summary), rec, err),
			 0);
	snprintf(text, sizeof(text), "%s%s", hist_hdr, rows);
	ret = histograms_load(fixture_write(d, "histograms.csv", text), rec, err);
	fixture_free(d);
	return ret;
}

/* 1000 and 2000 ns are bucket boundaries: [1000, 1008) and [2000, 2016) */
static const char good_rows[] =
	"softirq,NET_RX,-1,,,delay,1000,1008,2\n"
	"softirq,NET_RX,-1,,,delay,2000,2016,1\n"
	"softirq,NET_RX,-1,,,runtime,500,504,3\n"
	"workqueue,events,,vmstat_update,cpu0,delay,1000,1008,2\n";

static void test_histograms(void **state)
{
	struct record rec;
	struct hist h;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_hist(good_rows, err, &rec), 0);
	assert_true(rec.has_hist);
	assert_int_equal(rec.sirq[0].h[SM_DELAY].n, 2);
	hist_init(&h);
	buckets_to_hist(&rec.sirq[0].h[SM_DELAY], &rec.sirq[0].st[SM_DELAY], &h);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.min, 100);		/* exact figures from summary.json */
	assert_int_equal(h.max, 2000);
	assert_int_equal(hist_percentile(&h, 0.5), 1004);
	record_free(&rec);
}

static void test_histograms_malformed(void **state)
{
	struct record rec;
	char err[ERRBUF_LEN];

	(void)state;
	assert_int_equal(load_hist("softirq,NET_RX,-1,,,delay,1001,1009,3\n", err, &rec),
			 -EINVAL);
	assert_non_null(strstr(err, "row 2: [1001, 1009) is not a bucket"));
	record_free(&rec);
	assert_int_equal(load_hist("softirq,TIMER,-1,,,delay,1000,1008,3\n", err, &rec),
			 -EINVAL);
	assert_non_null(strstr(err, "no softirq group 'TIMER'"));
	record_free(&rec);
	assert_int_equal(load_hist("softirq,NET_RX,-1,,,delay,1000,1008,x\n", err, &rec),
			 -EINVAL);
	assert_non_null(strstr(err, "column 'count': 'x' is not a non-negative integer"));
	record_free(&rec);
	assert_int_equal(load_hist("softirq,NET_RX,-1,,,delay,1000,1008\n", err, &rec),
			 -EINVAL);
	assert_non_null(strstr(err, "8 fields, the header has 9"));
	record_free(&rec);
	/* buckets that do not add up to the count in summary.json */
	assert_int_equal(load_hist("softirq,NET_RX,-1,,,delay,1000,1008,1\n", err, &rec),
			 -EINVAL);
	assert_non_null(strstr(err, "buckets hold 1 values, summary.json says 3"));
	record_free(&rec);
}

static void test_csv_missing_column(void **state)
{
	struct record rec = { 0 };
	char err[ERRBUF_LEN], *d = fixture_dir();

	(void)state;
	assert_int_equal(summary_load(fixture_write(d, "summary.json", good_summary), &rec, err),
			 0);
	assert_int_equal(histograms_load(fixture_write(d, "histograms.csv",
				"kind,name,cpu,function,pool,metric,lo_ns,count\n"), &rec, err),
			 -EINVAL);
	assert_non_null(strstr(err, "column 'hi_ns' missing"));
	assert_int_equal(histograms_load(fixture_write(d, "histograms.csv",
				"kind,name\n\"soft,irq\",\"unterminated\n"), &rec, err), -EINVAL);
	assert_int_equal(histograms_load(fixture_path(d, "nonexistent.csv"), &rec, err),
			 -ENOENT);
	record_free(&rec);
	fixture_free(d);
}

static void test_workload(void **state)
{
	static const char json[] =
		"{\"schema\": \"deferbench-workload/1\", \"workload\": \"net\", \"seed\": 1,"
		" \"duration_s\": 2.0, \"options\": {\"rate\": \"1000\"},"
		" \"metrics\": [{\"name\": \"rtt\", \"unit\": \"ns\", \"desc\": \"round trip\","
		" \"count\": 2, \"min\": 1000, \"mean\": 1500, \"stddev\": 500, \"p50\": 1004,"
		" \"p90\": 2008, \"p99\": 2008, \"p999\": 2008, \"max\": 2010}],"
		" \"counters\": {\"sent\": 3, \"received\": 2}}";
	struct wl_data wl = { 0 };
	char err[ERRBUF_LEN], *d = fixture_dir(), j[4096];

	(void)state;
	snprintf(j, sizeof(j), "%s", fixture_write(d, "workload.json", json));
	assert_int_equal(workload_load(j, fixture_write(d, "workload-hist.csv",
			 "metric,lo_ns,hi_ns,count\nrtt,1000,1008,1\nrtt,2000,2016,1\n"), &wl, err), 0);
	assert_string_equal(wl.workload, "net");
	assert_int_equal(wl.nm, 1);
	assert_int_equal(wl.m[0].h.n, 2);
	assert_int_equal(wl.ncounter, 2);
	assert_string_equal(wl.counter[1].key, "received");
	assert_string_equal(wl.counter[1].val, "2");
	record_workload_free(&wl);
	assert_int_equal(workload_load(j, fixture_write(d, "workload-hist.csv",
			 "metric,lo_ns,hi_ns,count\nlatency,1000,1008,2\n"), &wl, err), -EINVAL);
	assert_non_null(strstr(err, "metric 'latency' is not in workload.json"));
	record_workload_free(&wl);
	fixture_free(d);
}

static void test_intervals(void **state)
{
	static const char text[] =
		"interval,t_s,kind,name,function,pool,metric,count,min_ns,mean_ns,p50_ns,"
		"p99_ns,max_ns,buckets\n"
		"0,0.000,softirq,NET_RX,,,delay,10,100,500,400,900,1000,\"100:5 400:5\"\n"
		"0,0.000,softirq,NET_RX,,,runtime,10,100,500,400,900,1000,\"100:10\"\n"
		"1,1.000,workqueue,events,vmstat_update,cpu0,delay,2,100,150,100,200,200,\"\"\n";
	struct ival_row *rows = NULL;
	char err[ERRBUF_LEN], *d = fixture_dir();
	size_t n = 0;

	(void)state;
	assert_int_equal(ivfile_load(fixture_write(d, "intervals.csv", text), "delay", &rows,
					&n, err), 0);
	assert_int_equal(n, 2);
	assert_true(rows[0].softirq);
	assert_int_equal(rows[0].p99, 900);
	assert_false(rows[1].softirq);
	assert_string_equal(rows[1].func, "vmstat_update");
	free(rows);
	fixture_free(d);
}

static void test_run_synthetic(void **state)
{
	struct synth_opts o;
	struct run run;
	char err[ERRBUF_LEN], *d = fixture_dir(), path[4096];

	(void)state;
	synth_defaults(&o);
	o.samples = 500;
	o.partial = true;
	o.failed_cell = "tty--default--r2";
	snprintf(path, sizeof(path), "%s/run", d);
	assert_int_equal(synth_run(path, &o), 0);
	assert_int_equal(run_load(path, &run, err), 0);
	assert_int_equal(run.ncells, 27);
	assert_false(run.complete);
	assert_int_equal(run.npartial, 1);
	assert_string_equal(run.meta[RM_HZ], "250");
	assert_string_equal(run.meta[RM_KERNEL], "6.18.0-synth");
	assert_true(run.cells[0].ok);
	assert_true(run.cells[0].rec.has_hist);
	assert_true(run.cells[0].rec.wl.present);
	assert_int_equal(run.cells[0].nknobs, 2);
	assert_false(run.cells[10].ok);		/* tty--default--r2 */
	assert_string_equal(run.cells[10].status, "failed");
	run_free(&run);
	/* a cell directory alone is a record: workload and config from its cell.json */
	snprintf(path, sizeof(path), "%s/run/cells/net--threaded-napi--r1", d);
	assert_int_equal(run_load(path, &run, err), 0);
	assert_true(run.is_record);
	assert_string_equal(run.cells[0].config, "threaded-napi");
	run_free(&run);
	fixture_free(d);
}

static void test_run_malformed(void **state)
{
	static const char head[] = "{\"schema\": \"deferbench-run/1\", \"meta\": {\"kernel\": "
		"\"6.18\", \"hostname\": \"vm\", \"cpus\": 2}, \"scenario\": \"s\", "
		"\"complete\": true, \"cells\": [";
	char err[ERRBUF_LEN], text[1024], *d = fixture_dir();
	struct run run;

	(void)state;
	assert_int_equal(run_load(d, &run, err), -ENOENT);
	assert_non_null(strstr(err, "neither a run directory"));
	snprintf(text, sizeof(text), "%s{\"workload\": \"net\", \"config\": \"a\", \"rep\": 1,"
		 " \"dir\": \"cells/.partial-net--a--r1\"}]}", head);
	fixture_write(d, "run.json", text);
	assert_int_equal(run_load(d, &run, err), -EINVAL);
	assert_non_null(strstr(err, "field 'cells[0].dir'"));
	assert_non_null(strstr(err, "unfinished"));
	snprintf(text, sizeof(text), "%s{\"workload\": \"net\", \"config\": \"a\", \"rep\": 1,"
		 " \"dir\": \"cells/x\"}]}", head);
	fixture_write(d, "run.json", text);
	fixture_write(d, "cells/x/cell.json", "{\"schema\": \"deferbench-cell/1\", \"workload\":"
		      " \"net\", \"config\": \"b\", \"rep\": 1, \"knobs\": {}, \"status\": \"ok\"}");
	assert_int_equal(run_load(d, &run, err), -EINVAL);
	assert_non_null(strstr(err, "says net/b/r1 but run.json lists it as net/a/r1"));
	snprintf(text, sizeof(text), "%s{\"workload\": \"net\", \"config\": \"a\", \"rep\": 0,"
		 " \"dir\": \"cells/x\"}]}", head);
	fixture_write(d, "run.json", text);
	assert_int_equal(run_load(d, &run, err), -EINVAL);
	assert_non_null(strstr(err, "field 'cells[0].rep' is 0, outside"));
	fixture_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_good),
		cmocka_unit_test(test_summary_malformed),
		cmocka_unit_test(test_summary_wakeup),
		cmocka_unit_test(test_summary_wakeup_absent),
		cmocka_unit_test(test_summary_wakeup_malformed),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_histograms_malformed),
		cmocka_unit_test(test_csv_missing_column),
		cmocka_unit_test(test_workload),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_run_synthetic),
		cmocka_unit_test(test_run_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
