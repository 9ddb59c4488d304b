// SPDX-License-Identifier: GPL-2.0
/*
 * test_moved.c - work that moved between execution contexts across kernels (moved.h):
 * the places of each kind of group, the moves found between two sets of records, and
 * compare judging a moved work's own wait through the same judge as every metric.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
#include "moved.h"
#include "rundir.h"
#include "fixture.h"
#include "synth.h"
#include "msg.h"

static void test_classes(void **state)
{
	(void)state;
	assert_string_equal(moved_class("wq", "cpu1"), "percpu");
	assert_string_equal(moved_class("wq", "cpu1H"), "percpu_hi");
	assert_string_equal(moved_class("wq", "unbound12"), "unbound");
	assert_string_equal(moved_class("wq", "bh0"), "bh");
	assert_string_equal(moved_class("wq", "bh3H"), "bh_hi");
	assert_string_equal(moved_class("tasklet", "HI"), "tasklet_hi");
	assert_string_equal(moved_class("tasklet", "TASKLET"), "tasklet");
	assert_string_equal(moved_class("softirq", "inline"), "softirq");
	assert_string_equal(moved_class("softirq", "ksoftirqd"), "softirq");
	assert_string_equal(moved_class("softirq", "ktimers"), "ktimers");
	assert_string_equal(moved_class("napi_poll", "thread"), "napi_thread");
	assert_string_equal(moved_class("napi_poll", "backlog_napi"), "backlog_napi");
	assert_null(moved_class("hardirq", ""));
}

/* A record of a few groups: enough for moved_find, which reads names and counts. */
struct rec_spec {
	const char *wq[4][3];		/* workqueue, function, pool */
	uint64_t wqn[4];
	const char *ctx[4][3];		/* context, name, where */
	uint64_t ctxn[4];
};

static void make_record(struct cell *c, const struct rec_spec *s)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->ok = true;
	c->rec.wq = calloc(4, sizeof(*c->rec.wq));
	c->rec.ctx = calloc(4, sizeof(*c->rec.ctx));
	assert_non_null(c->rec.wq);
	assert_non_null(c->rec.ctx);
	for (i = 0; i < 4 && s->wq[i][0]; i++) {
		struct wq_data *w = &c->rec.wq[c->rec.nwq++];

		snprintf(w->wq, sizeof(w->wq), "%s", s->wq[i][0]);
		snprintf(w->func, sizeof(w->func), "%s", s->wq[i][1]);
		snprintf(w->pool, sizeof(w->pool), "%s", s->wq[i][2]);
		w->count = s->wqn[i];
	}
	for (i = 0; i < 4 && s->ctx[i][0]; i++) {
		struct ctx_data *x = &c->rec.ctx[c->rec.nctx++];

		snprintf(x->context, sizeof(x->context), "%s", s->ctx[i][0]);
		snprintf(x->name, sizeof(x->name), "%s", s->ctx[i][1]);
		snprintf(x->where, sizeof(x->where), "%s", s->ctx[i][2]);
		x->count = s->ctxn[i];
	}
	c->rec.has_contexts = true;
}

static const struct moved *find(const struct moved_list *l, const char *what,
				const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->m[i].key.name, what) && !strcmp(l->m[i].key.func, name))
			return &l->m[i];
	return NULL;
}

/*
 * The conversions of the issue: a HI tasklet that became a BH-highpri work item, TIMER
 * from the softirq (inline and ksoftirqd alike) to ktimers, a device's NAPI polls from
 * the softirq to its napi thread; a function that stayed where it was, and one on one
 * side only, are no move.
 */
static void test_find(void **state)
{
	static const struct rec_spec base = {
		.wq = { { "events", "vmstat_update", "cpu0" }, { "events", "gone_fn", "cpu1" } },
		.wqn = { 40, 5 },
		.ctx = { { "tasklet", "usb_giveback_urb_bh", "HI" },
			 { "softirq", "TIMER", "inline" }, { "softirq", "TIMER", "ksoftirqd" },
			 { "napi_poll", "eth0", "softirq" } },
		.ctxn = { 300, 900, 100, 50 },
	};
	static const struct rec_spec new = {
		.wq = { { "events", "vmstat_update", "cpu1" },
			{ "events_bh_highpri", "usb_giveback_urb_bh", "bh0H" },
			{ "events_bh_highpri", "usb_giveback_urb_bh", "bh1H" } },
		.wqn = { 42, 200, 90 },
		.ctx = { { "softirq", "TIMER", "ktimers" }, { "softirq", "TIMER", "inline" },
			 { "napi_poll", "eth0", "thread" } },
		.ctxn = { 950, 30, 60 },
	};
	struct cell *c = calloc(2, sizeof(*c));
	struct cellset bs = { "net", "default", { &c[0] }, 1 };
	struct cellset ns = { "net", "default", { &c[1] }, 1 };
	struct moved_list l = { 0 };
	const struct moved *m;
	size_t i;

	(void)state;
	assert_non_null(c);
	make_record(&c[0], &base);
	make_record(&c[1], &new);
	assert_int_equal(moved_find(&bs, &ns, &l), 0);
	assert_int_equal(l.n, 3);
	m = find(&l, "func", "usb_giveback_urb_bh");
	assert_non_null(m);
	assert_string_equal(m->from, "tasklet_hi");
	assert_string_equal(m->to, "bh_hi");
	/* the two BH pools of one kind add up */
	assert_true(m->to_share == 1.0);
	assert_int_equal(m->nbase, 300);
	assert_int_equal(m->nnew, 290);
	assert_int_equal(m->key.src, MS_MOVED);
	assert_int_equal(m->key.sub, SM_DELAY);
	m = find(&l, "softirq", "TIMER");
	assert_non_null(m);
	assert_string_equal(m->from, "softirq");
	assert_string_equal(m->to, "ktimers");
	assert_true(fabs(m->to_share - 950.0 / 980) < 1e-9);
	m = find(&l, "napi", "eth0");
	assert_non_null(m);
	assert_string_equal(m->to, "napi_thread");
	/* a poll has no delay: its runtime is the figure */
	assert_int_equal(m->key.sub, SM_RUNTIME);
	/* cpu0 -> cpu1 is the same place; gone_fn is on one side only */
	assert_null(find(&l, "func", "vmstat_update"));
	assert_null(find(&l, "func", "gone_fn"));
	moved_list_free(&l);
	for (i = 0; i < 2; i++)
		run_cell_free(&c[i]);
	free(c);
}

static void small(struct synth_opts *o)
{
	static const char *const wls[] = { "net", NULL };
	static const char *const cfgs[] = { "default", NULL };

	synth_defaults(o);
	o->workloads = wls;
	o->configs = cfgs;
	o->samples = 3000;
	o->duration_s = 8;
	o->rep_noise = 0.01;
	o->reps = 5;
}

static const struct cmp_row *row(const struct cmp_result *res, const char *id)
{
	size_t i;

	for (i = 0; i < res->nrows; i++)
		if (!strcmp(res->rows[i].id, id))
			return &res->rows[i];
	return NULL;
}

/*
 * per-CPU -> unbound (WQ_PERCPU / system_dfl_wq, 6.17+): the function vanishes from
 * events and appears in events_dfl; its moved metric spans both and is judged like any
 * advisory metric: three times slower is worse, and the move is said with both sides
 */
static void test_compare_moved(void **state)
{
	struct synth_opts b, n;
	struct cmp_opts co = { 0 };
	struct cmp_result res;
	struct run base, new;
	char err[ERRBUF_LEN], path[4096], *dir = fixture_dir();
	const struct cmp_row *r;
	const struct moved *m;

	(void)state;
	small(&b);
	small(&n);
	n.moved = true;
	n.moved_slowdown = 3;
	n.seed = 2;
	snprintf(path, sizeof(path), "%s/base", dir);
	assert_int_equal(synth_run(path, &b), 0);
	assert_int_equal(run_load(path, &base, err), 0);
	snprintf(path, sizeof(path), "%s/new", dir);
	assert_int_equal(synth_run(path, &n), 0);
	assert_int_equal(run_load(path, &new, err), 0);
	judge_opts_default(&co.j);
	assert_int_equal(compare_runs(&base, &new, &co, &res, err), 0);
	assert_int_equal(res.moved.n, 1);
	m = find(&res.moved, "func", "vmstat_update");
	assert_non_null(m);
	assert_string_equal(m->from, "percpu");
	assert_string_equal(m->to, "unbound");
	r = row(&res, "moved:func:vmstat_update:delay:p50");
	assert_non_null(r);
	/* judged, advisory, by the judge: an interval and a verdict */
	assert_true(r->judged);
	assert_false(r->primary);
	assert_false(isnan(r->j.p));
	assert_true(r->j.ratio > 2.5 && r->j.ratio < 3.5);
	assert_int_equal(r->j.v, V_WORSE);
	/* the old and the new group on their own: one side each, not judged against */
	assert_non_null(row(&res, "wq:events_dfl:vmstat_update:delay:p50"));
	cmp_result_free(&res);
	/* the same place on both sides: no move */
	assert_int_equal(compare_runs(&new, &new, &co, &res, err), 0);
	assert_int_equal(res.moved.n, 0);
	assert_null(row(&res, "moved:func:vmstat_update:delay:p50"));
	cmp_result_free(&res);
	run_free(&base);
	run_free(&new);
	fixture_free(dir);
}

/* history stores a moved metric of every work, so that its series spans a move */
static void test_keys_record(void **state)
{
	static const struct rec_spec s = {
		.wq = { { "events", "vmstat_update", "cpu0" }, { "events", "vmstat_update", "cpu1" } },
		.wqn = { 40, 5 },
		.ctx = { { "tasklet", "usb_giveback_urb_bh", "HI" }, { "hardirq", "local_timer", "" } },
		.ctxn = { 300, 900 },
	};
	struct keylist kl = { 0 };
	char id[METRIC_ID_LEN];
	struct cell c;

	(void)state;
	make_record(&c, &s);
	assert_int_equal(moved_keys_record(&c.rec, &kl), 0);
	/* two works (hardirq is none), p50 and p99 each */
	assert_int_equal(kl.n, 4);
	metric_id(&kl.k[0], id, sizeof(id));
	assert_string_equal(id, "moved:func:vmstat_update:delay:p50");
	metric_id(&kl.k[3], id, sizeof(id));
	assert_string_equal(id, "moved:func:usb_giveback_urb_bh:delay:p99");
	keylist_free(&kl);
	run_cell_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_compare_moved),
		cmocka_unit_test(test_keys_record),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
