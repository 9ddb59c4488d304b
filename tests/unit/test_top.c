// SPDX-License-Identifier: GPL-2.0
/*
 * test_top.c - deferbench top without a kernel: its argument parser, one interval taken
 * from a matcher fed a synthetic sequence (top_snap), and the JSON line of it.
 */
#include <json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "top_view.h"
#include "msg.h"

#define US 1000ULL
#define MS 1000000ULL
#define F1 0xffffffff81000010ULL
#define F2 0xffffffff81000020ULL

static int argc_of(char **argv)
{
	int n = 0;

	while (argv[n])
		n++;
	return n;
}

static void test_parse(void **state)
{
	char err[ERRBUF_LEN];
	struct top_args a;
	char *def[] = { "top", NULL };
	char *all[] = { "top", "-i", "500ms", "-d", "5s", "--once", "--json", "-s", "p99",
			"-g", "pool", "-n", "10", "-b", "8192", NULL };
	char *bad_sort[] = { "top", "-s", "fast", NULL };
	char *bad_group[] = { "top", "-g", "cpu", NULL };
	char *short_ival[] = { "top", "-i", "10ms", NULL };
	char *short_dur[] = { "top", "-d", "500ms", NULL };
	char *extra[] = { "top", "now", NULL };

	(void)state;
	assert_int_equal(top_parse_args(argc_of(def), def, &a, err), 0);
	assert_int_equal(a.cap.interval_ns, NSEC_PER_SEC);
	assert_int_equal(a.duration_ns, 0);
	assert_int_equal(a.sort, TS_ITEMS);
	assert_int_equal(a.group, TOP_BY_WQ);
	assert_false(a.once);
	assert_int_equal(top_parse_args(argc_of(all), all, &a, err), 0);
	assert_int_equal(a.cap.interval_ns, 500 * MS);
	assert_int_equal(a.duration_ns, 5 * NSEC_PER_SEC);
	assert_true(a.once && a.json);
	assert_int_equal(a.sort, TS_DELAY);
	assert_int_equal(a.group, TOP_BY_POOL);
	assert_int_equal(a.rows, 10);
	assert_int_equal(a.cap.buffer_kb, 8192);
	assert_int_equal(top_parse_args(argc_of(bad_sort), bad_sort, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--sort"));
	assert_int_equal(top_parse_args(argc_of(bad_group), bad_group, &a, err), -EINVAL);
	assert_non_null(strstr(err, "--group"));
	assert_int_equal(top_parse_args(argc_of(short_ival), short_ival, &a, err), -EINVAL);
	assert_int_equal(top_parse_args(argc_of(short_dur), short_dur, &a, err), -EINVAL);
	assert_int_equal(top_parse_args(argc_of(extra), extra, &a, err), -EINVAL);
	/* the words of the refusals; the capture options record has; -n is --rows' old -n */
	{
		char *ival[] = { "top", "-i", "10ms", NULL };
		char *cap[] = { "top", "--rows", "5", "--no-sched", "--capture-cpus", "0", NULL };
		char *old[] = { "top", "-n", "7", NULL };

		assert_int_equal(top_parse_args(argc_of(bad_sort), bad_sort, &a, err), -EINVAL);
		assert_string_equal(err, "--sort: 'fast' is none of items, p99, max, cpu, "
				    "inflight, name");
		assert_int_equal(top_parse_args(argc_of(ival), ival, &a, err), -EINVAL);
		assert_string_equal(err, "--interval: 10ms is shorter than 100ms");
		assert_int_equal(top_parse_args(argc_of(cap), cap, &a, err), 0);
		assert_int_equal(a.rows, 5);
		assert_int_equal(a.cap.sched, CAPTURE_SCHED_NO);
		assert_string_equal(a.cap.cpus, "0");
		assert_int_equal(top_parse_args(argc_of(old), old, &a, err), 0);
		assert_int_equal(a.rows, 7);
	}
}

struct seen {
	struct result *r;
	enum top_group group;
	unsigned int min_count;
	uint64_t events_before;
	struct top_snap *snap[4];
	int n;
};

static void on_end(void *ctx, const struct matcher *m, uint64_t interval)
{
	struct seen *s = ctx;

	(void)m;
	if (s->n < 4)
		s->snap[s->n++] = top_snap_take(s->r, interval, s->group, s->min_count,
						&s->events_before);
}

/* feed - one interval of work on two workqueues and NET_RX, then the next one starts */
static void feed(struct result *r)
{
	struct matcher *m = &r->m;

	match_comm(m, 10, "kworker/u4:1", 12);
	match_comm(m, 11, "kworker/0:1", 11);
	match_comm(m, 12, "kworker/R-kblockd", 17);
	match_comm(m, 15, "ksoftirqd/0", 11);
	m->long_work_ns = 10 * MS;
	/* events_unbound/F1 twice on the unbound pool, once by the rescuer */
	match_wq_queue(m, 0, 100 * US, 1, 0x1000, F1, "events_unbound", 14);
	match_wq_start(m, 1, 120 * US, 10, false, 0x1000, F1);
	match_wq_end(m, 1, 130 * US, 10, false, 0x1000);
	match_wq_queue(m, 0, 200 * US, 1, 0x1000, F1, "events_unbound", 14);
	match_wq_start(m, 1, 240 * US, 10, false, 0x1000, F1);
	match_wq_end(m, 1, 20 * MS, 10, false, 0x1000);
	match_wq_queue(m, 0, 300 * US, 1, 0x2000, F1, "events_unbound", 14);
	match_wq_start(m, 0, 310 * US, 12, false, 0x2000, F1);
	match_wq_end(m, 0, 320 * US, 12, false, 0x2000);
	/* events/F2: one item still queued, one still running at the end */
	match_wq_queue(m, 0, 400 * US, 1, 0x3000, F2, "events", 6);
	match_wq_queue(m, 0, 410 * US, 1, 0x4000, F2, "events", 6);
	match_wq_start(m, 0, 420 * US, 11, false, 0x4000, F2);
	/* NET_RX: three inline runs, one in ksoftirqd */
	match_softirq_raise(m, 0, 500 * US, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 510 * US, SIRQ_NET_RX, 0);
	match_softirq_exit(m, 0, 520 * US, SIRQ_NET_RX, 0);
	match_softirq_raise(m, 0, 600 * US, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 620 * US, SIRQ_NET_RX, 0);
	match_softirq_exit(m, 0, 630 * US, SIRQ_NET_RX, 0);
	match_softirq_raise(m, 0, 700 * US, SIRQ_NET_RX, TRACE_FL_HARDIRQ, 0);
	match_softirq_entry(m, 0, 730 * US, SIRQ_NET_RX, 0);
	match_softirq_exit(m, 0, 740 * US, SIRQ_NET_RX, 0);
	match_softirq_raise(m, 0, 800 * US, SIRQ_NET_RX, TRACE_FL_SOFTIRQ, 0);
	match_softirq_entry(m, 0, 900 * US, SIRQ_NET_RX, 15);
	match_softirq_exit(m, 0, 910 * US, SIRQ_NET_RX, 15);
	/* the first event of the next interval closes this one */
	match_tick(m, NSEC_PER_SEC + 1);
}

static const struct top_wq *wq_of(const struct top_snap *s, const char *wq, const char *pool)
{
	size_t i;

	for (i = 0; i < s->nwq; i++)
		if (!strcmp(s->wq[i].wq, wq) && !strcmp(s->wq[i].pool, pool))
			return &s->wq[i];
	return NULL;
}

static void take(struct seen *s, struct result *r, enum top_group group,
		 unsigned int min_count)
{
	memset(s, 0, sizeof(*s));
	s->r = r;
	s->group = group;
	s->min_count = min_count;
	assert_int_equal(result_init(r, 2, 0, NSEC_PER_SEC, NULL, NULL), 0);
	r->m.on_interval_end = on_end;
	r->m.ival_end_ctx = s;
	feed(r);
	assert_int_equal(s->n, 1);
	assert_non_null(s->snap[0]);
}

static void test_snap_per_workqueue(void **state)
{
	struct result r;
	struct seen s;
	const struct top_wq *w;
	const struct top_snap *t;
	size_t i;

	(void)state;
	take(&s, &r, TOP_BY_WQ, 0);
	t = s.snap[0];
	assert_int_equal(t->interval, 0);
	assert_int_equal(t->end_ns, NSEC_PER_SEC);
	assert_int_equal(t->nwq, 2);
	w = wq_of(t, "events_unbound", "");
	assert_non_null(w);
	assert_int_equal(w->items, 3);
	assert_int_equal(w->rescued, 1);
	assert_int_equal(w->cpu_ns, 10 * US + (20 * MS - 240 * US) + 10 * US);
	assert_int_equal(w->over_thresh, 1);
	assert_int_equal(w->in_flight, 0);
	assert_int_equal(w->delay_max, 40 * US);
	w = wq_of(t, "events", "");
	assert_int_equal(w->items, 1);
	/* one queued, one running */
	assert_int_equal(w->in_flight, 2);
	/* softirq rows per context, with the vector's ksoftirqd share */
	assert_int_equal(t->nctx, 2);
	for (i = 0; i < t->nctx; i++) {
		assert_string_equal(t->ctx[i].name, "NET_RX");
		assert_true(t->ctx[i].ksoftirqd_share > 0.24 && t->ctx[i].ksoftirqd_share < 0.26);
		if (!strcmp(t->ctx[i].where, "inline")) {
			assert_int_equal(t->ctx[i].runs, 3);
			assert_int_equal(t->ctx[i].delay_max, 30 * US);
		} else {
			assert_string_equal(t->ctx[i].where, "ksoftirqd");
			assert_int_equal(t->ctx[i].delay_p50, 100 * US);
		}
	}
	top_snap_free(s.snap[0]);
	result_free(&r);
}

static void test_snap_per_pool_and_json(void **state)
{
	struct top_view v = { .group = TOP_BY_POOL, .sort = TS_ITEMS, .ncpus = 2,
			      .thresh_us = 10000 };
	struct result r;
	struct seen s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	json_object *o, *wq, *e;

	(void)state;
	take(&s, &r, TOP_BY_POOL, 0);
	assert_int_equal(wq_of(s.snap[0], "events_unbound", "unbound4")->items, 2);
	assert_int_equal(wq_of(s.snap[0], "events_unbound", "rescuer")->items, 1);
	/* per pool only the running item is in flight: a queued one has no pool */
	assert_int_equal(wq_of(s.snap[0], "events", "cpu0")->in_flight, 1);
	top_sort_rows(s.snap[0], TS_ITEMS);
	assert_string_equal(s.snap[0]->wq[0].pool, "unbound4");
	f = open_memstream(&buf, &len);
	assert_int_equal(top_print_json(f, s.snap[0], &v), 0);
	fclose(f);
	/* one line, one object */
	assert_ptr_equal(strchr(buf, '\n'), buf + len - 1);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "workqueues", &wq));
	e = json_object_array_get_idx(wq, 0);
	assert_true(json_object_object_get_ex(e, "pool", NULL));
	assert_true(json_object_object_get_ex(e, "items_per_s", NULL));
	assert_true(json_object_object_get_ex(o, "softirqs", NULL));
	assert_true(json_object_object_get_ex(o, "lost_events", NULL));
	json_object_put(o);
	free(buf);
	top_snap_free(s.snap[0]);
	result_free(&r);
}

/*
 * test_snap_fold - per pool, the rows of fewer than min_count items and none in flight
 * fold into one "other" row, which sorts last and says what it holds; a row with items
 * in flight is never folded
 */
static void test_snap_fold(void **state)
{
	struct top_view v = { .group = TOP_BY_POOL, .sort = TS_ITEMS, .ncpus = 2,
			      .thresh_us = 10000, .table = { .min_count = 3 } };
	const struct top_wq *w;
	struct top_snap *t;
	struct result r;
	struct seen s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	take(&s, &r, TOP_BY_POOL, 3);
	t = s.snap[0];
	/* unbound4 (2 items) and rescuer (1) fold; events on cpu0 has one in flight */
	assert_int_equal(t->nwq, 2);
	assert_null(wq_of(t, "events_unbound", "unbound4"));
	assert_non_null(wq_of(t, "events", "cpu0"));
	w = wq_of(t, "other", "");
	assert_non_null(w);
	assert_int_equal(w->folded, 2);
	assert_int_equal(w->items, 3);
	assert_int_equal(w->rescued, 1);
	assert_int_equal(w->delay_max, 40 * US);
	/* more items than the row kept, and still last */
	top_sort_rows(t, TS_ITEMS);
	assert_string_equal(t->wq[1].wq, "other");
	f = open_memstream(&buf, &len);
	top_print_text(f, t, &v);
	fclose(f);
	assert_non_null(strstr(buf, "other (2 rows)"));
	assert_non_null(strstr(buf, "other: 2 rows of fewer than 3 items and none in flight"));
	assert_non_null(strstr(buf, "times in us"));
	/* the largest delay, 40 us, in the view's unit without a unit in the cell */
	assert_non_null(strstr(buf, " 40.0\n"));
	free(buf);
	top_snap_free(t);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_snap_per_workqueue),
		cmocka_unit_test(test_snap_per_pool_and_json),
		cmocka_unit_test(test_snap_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
