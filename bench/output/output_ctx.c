// SPDX-License-Identifier: GPL-2.0
/*
 * output_ctx.c - the execution contexts and the causes of softirq delay as every output
 * lists them (output_ctx_each, output_wait_tasks_order), and their sections of the terminal table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "output.h"
#include "common.h"

/* The workqueue context's names: the pool kinds of match.h. */
static const char *const pool_kind_names[] = {
	[POOL_UNKNOWN] = "unknown", [POOL_PERCPU] = "percpu", [POOL_PERCPU_HI] = "percpu_hi",
	[POOL_UNBOUND] = "unbound", [POOL_BH] = "bh", [POOL_BH_HI] = "bh_hi",
	[POOL_RESCUER] = "rescuer",
};
#define NPOOL_KINDS ARRAY_SIZE(pool_kind_names)

void output_ctx_row_of(const struct result *r, const struct ctx_group *g, struct ctx_row *row,
		char *buf, size_t len)
{
	memset(row, 0, sizeof(*row));
	row->kind = g->kind;
	/* cut at 63 characters, as every name of intervals.csv (NAME_LEN) */
	row->name = g->kind == CTX_TASKLET ?
		    symtab_name(&r->syms, r->m.funcs[g->name].addr, buf, len < 64 ? len : 64) :
		    ctx_name(&r->m, g);
	row->where = ctx_where_names[g->where];
	row->count = g->count;
	row->long_runs = g->long_runs;
	row->work = g->work;
	row->budget_full = g->budget_full;
	row->budget = g->budget;
	row->delay = &g->delay;
	row->runtime = &g->runtime;
}

struct ctx_key {
	uint8_t kind, where;
	uint64_t count;
	uint32_t idx;
};

static int ctx_cmp(const void *a, const void *b)
{
	const struct ctx_key *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind - y->kind;
	if (x->where != y->where)
		return x->where - y->where;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* wq_contexts - the workqueue groups merged per pool kind, in pool kind order */
static int wq_contexts(const struct result *r, ctx_visit fn, void *ctx)
{
	struct hist *h = malloc(2 * sizeof(*h));
	struct ctx_row row;
	size_t k;
	uint32_t i;

	if (!h)
		return -ENOMEM;
	for (k = 0; k < NPOOL_KINDS; k++) {
		uint64_t long_runs = 0;
		bool any = false;

		hist_init(&h[0]);
		hist_init(&h[1]);
		for (i = 0; i < r->m.ngroups; i++) {
			const struct wq_group *g = r->m.groups[i];

			if (POOL_KIND(g->pool) != k)
				continue;
			any = true;
			hist_merge(&h[0], &g->delay);
			hist_merge(&h[1], &g->runtime);
		}
		if (!any)
			continue;
		for (i = 0; i < HIST_BUCKETS; i++)
			if (hist_bucket_lo(i) > SIRQ_LONG_NS)
				long_runs += h[1].bucket[i];
		memset(&row, 0, sizeof(row));
		row.kind = CTX_WORKQUEUE;
		row.name = pool_kind_names[k];
		row.where = "";
		row.count = h[0].count;
		row.long_runs = long_runs;
		row.delay = &h[0];
		row.runtime = &h[1];
		fn(ctx, r, &row);
	}
	free(h);
	return 0;
}

int output_ctx_each(const struct result *r, ctx_visit fn, void *ctx)
{
	struct ctx_key *k = calloc(r->m.nctx ? r->m.nctx : 1, sizeof(*k));
	struct ctx_row row;
	char name[128];
	uint32_t i;
	int ret;

	if (!k)
		return -ENOMEM;
	for (i = 0; i < r->m.nctx; i++) {
		k[i].kind = r->m.ctx[i]->kind;
		k[i].where = r->m.ctx[i]->where;
		k[i].count = r->m.ctx[i]->count;
		k[i].idx = i;
	}
	qsort(k, r->m.nctx, sizeof(*k), ctx_cmp);
	for (i = 0; i < r->m.nctx; i++) {
		output_ctx_row_of(r, r->m.ctx[k[i].idx], &row, name, sizeof(name));
		fn(ctx, r, &row);
	}
	free(k);
	ret = wq_contexts(r, fn, ctx);
	return ret;
}

static int task_cmp(const void *a, const void *b, void *arg)
{
	const struct sirq_wait *w = arg;
	const struct wait_task *x = &w->task[*(const uint32_t *)a];
	const struct wait_task *y = &w->task[*(const uint32_t *)b];

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->comm, y->comm);
}

uint32_t *output_wait_tasks_order(const struct sirq_wait *w)
{
	uint32_t *idx = calloc(w->ntasks ? w->ntasks : 1, sizeof(*idx)), i;

	if (!idx)
		return NULL;
	for (i = 0; i < w->ntasks; i++)
		idx[i] = i;
	qsort_r(idx, w->ntasks, sizeof(*idx), task_cmp, (void *)w);
	return idx;
}

/*
 * The contexts table as printed: softirqs left to their own table, and the rows of
 * fewer than min_count runs of each context folded into one "other" row. A first pass
 * (measure) finds the name column's width.
 */
struct ctx_table {
	FILE *f;
	const struct table_opts *o;
	bool measure;
	int name_w;
	uint32_t nfold[CTX_NR];		/* rows folded, per context */
	int kind;			/* the context of the rows folded so far; -1: none */
	uint64_t count, long_runs;
	struct hist *h;			/* [0] delay, [1] runtime of the rows folded */
};

static void ctx_print(struct ctx_table *t, const char *kind, const char *name, const char *where,
		      uint64_t count, const struct hist *delay, const struct hist *runtime,
		      uint64_t long_runs)
{
	char c[64];

	fprintf(t->f, "%-12s %-*s %-12s %9llu |", kind, t->name_w,
		fmt_cut(name, t->name_w, c, sizeof(c)), where, (unsigned long long)count);
	table_stats(t->f, delay, t->o);
	table_runtime(t->f, runtime, t->o);
	fprintf(t->f, " %5llu\n", (unsigned long long)long_runs);
}

static void ctx_flush(struct ctx_table *t)
{
	char name[32];

	if (t->kind < 0)
		return;
	snprintf(name, sizeof(name), "(%u others)", t->nfold[t->kind]);
	ctx_print(t, ctx_kind_names[t->kind], name, "", t->count, &t->h[0], &t->h[1],
		  t->long_runs);
	t->kind = -1;
	t->count = t->long_runs = 0;
	hist_init(&t->h[0]);
	hist_init(&t->h[1]);
}

static void ctx_line(void *ctx, const struct result *r __unused, const struct ctx_row *row)
{
	struct ctx_table *t = ctx;
	bool tiny = row->count < t->o->min_count;
	int len = (int)strlen(row->name);

	if (row->kind == CTX_SOFTIRQ)
		return;
	if (t->measure) {
		t->nfold[row->kind] += tiny;
		if (len > t->name_w)
			t->name_w = len;
		return;
	}
	/* one small row alone stays itself: "other" is for two or more */
	tiny &= t->nfold[row->kind] > 1;
	if (t->kind >= 0 && t->kind != (int)row->kind)
		ctx_flush(t);
	if (!tiny) {
		ctx_print(t, ctx_kind_names[row->kind], row->name, row->where, row->count,
			  row->delay, row->runtime, row->long_runs);
		return;
	}
	t->kind = row->kind;
	t->count += row->count;
	t->long_runs += row->long_runs;
	hist_merge(&t->h[0], row->delay);
	hist_merge(&t->h[1], row->runtime);
}

static void napi_line(void *ctx, const struct result *r __unused, const struct ctx_row *row)
{
	FILE *f = ctx;

	if (row->kind != CTX_NAPI_POLL)
		return;
	fprintf(f, "%-22.22s %-12s %9llu %10llu %10.1f %6u %10llu\n", row->name, row->where,
		(unsigned long long)row->count, (unsigned long long)row->work,
		row->count ? (double)row->work / (double)row->count : 0.0, row->budget,
		(unsigned long long)row->budget_full);
}

void output_contexts(const struct result *r, FILE *f, const struct table_opts *o)
{
	struct ctx_table t = { .f = f, .o = o, .measure = true, .name_w = 4, .kind = -1 };
	char name[32];
	uint32_t i;
	bool napi = false;
	int k;

	t.h = malloc(2 * sizeof(*t.h));
	if (!t.h)
		return;
	hist_init(&t.h[0]);
	hist_init(&t.h[1]);
	output_ctx_each(r, ctx_line, &t);
	for (k = 0; k < CTX_NR; k++) {
		int len = snprintf(name, sizeof(name), "(%u others)", t.nfold[k]);

		if (t.nfold[k] > 1 && len > t.name_w)
			t.name_w = len;
	}
	t.name_w = t.name_w > 32 ? 32 : t.name_w;
	t.measure = false;
	fprintf(f, "\nCONTEXTS, times in %s   where deferred work ran besides softirqs (the SOFTIRQ "
		"table);\n      delay: tasklet raise -> tasklet_entry, thread sched_wakeup -> switch "
		"in, workqueue\n      queue_work -> execute_start (none for napi_poll, hardirq); "
		"rows of fewer than %u runs\n      folded into one per context\n", table_unit(o),
		o->min_count);
	fprintf(f, "%-12s %-*s %-12s %9s |", "context", t.name_w, "name", "where", "runs");
	table_stats_head(f, o);
	table_runtime_head(f, o);
	fprintf(f, " %5s\n", ">2ms");
	output_ctx_each(r, ctx_line, &t);
	ctx_flush(&t);
	free(t.h);
	for (i = 0; i < r->m.nctx; i++)
		napi |= r->m.ctx[i]->kind == CTX_NAPI_POLL;
	if (!napi)
		return;
	fprintf(f, "\nNAPI POLLS   work done against the budget, per device and context\n");
	fprintf(f, "%-22s %-12s %9s %10s %10s %6s %10s\n", "device", "where", "polls", "packets",
		"per poll", "budget", "budget used up");
	output_ctx_each(r, napi_line, f);
}

static void wait_vector(const struct sirq_wait *w, int vec, FILE *f, const struct table_opts *o)
{
	uint32_t *order = output_wait_tasks_order(w), i;
	char b[4][24];
	int k;

	fprintf(f, "%s: %llu delays, %s in all; raised in", softirq_names[vec],
		(unsigned long long)w->delays, fmt_ns(w->delay_ns, b[0], 24));
	for (k = 0; k < ORIG_NR; k++)
		fprintf(f, "%s %s %.0f%%", k ? "," : "", sirq_origin_names[k],
			w->delays ? 100.0 * (double)w->origin[k] / (double)w->delays : 0.0);
	fprintf(f, "\n  %-15s %7s %9s | %*s %*s %*s\n", "cause", "share", "delays", table_w(o),
		"p50", table_w(o), "p99", table_w(o), "max");
	for (k = 0; k < WAIT_NR; k++) {
		const struct hist *h = &w->cause[k];

		if (!w->cause_ns[k])
			continue;
		fprintf(f, "  %-15s %6.1f%% %9llu | %*s %*s %*s\n", sirq_cause_names[k],
			w->delay_ns ? 100.0 * (double)w->cause_ns[k] / (double)w->delay_ns : 0.0,
			(unsigned long long)h->count,
			table_w(o), table_lat(hist_percentile(h, 0.5), o, b[1], 24),
			table_w(o), table_lat(hist_percentile(h, 0.99), o, b[2], 24),
			table_w(o), table_lat(h->max, o, b[3], 24));
	}
	if (!order || !w->ntasks) {
		free(order);
		return;
	}
	fprintf(f, "  BH disabled by:");
	for (i = 0; i < w->ntasks && i < 5; i++) {
		const struct wait_task *t = &w->task[order[i]];

		fprintf(f, "%s %s %s (%llu delays, max %s)", i ? "," : "", t->comm,
			fmt_ns(t->total_ns, b[0], 24), (unsigned long long)t->delays,
			fmt_ns(t->max_ns, b[1], 24));
	}
	if (w->ntasks > 5 || w->other_tasks.delays)
		fprintf(f, ", and %u more", w->ntasks > 5 ? w->ntasks - 5 : 0);
	fputc('\n', f);
	free(order);
}

void output_wait(const struct result *r, FILE *f, const struct table_opts *o)
{
	bool any = false;
	int v;

	for (v = 0; v < NR_SOFTIRQS; v++)
		any |= r->m.wait[v] && r->m.wait[v]->delays;
	if (!any)
		return;
	fprintf(f, "\nWHY SOFTIRQS WAITED, times in %s   each delay (raise -> entry, one CPU) split "
		"into causes that\n      add up to it; share of the vector's total delay, and the "
		"part per delay where the cause\n      was present\n", table_unit(o));
	for (v = 0; v < NR_SOFTIRQS; v++)
		if (r->m.wait[v] && r->m.wait[v]->delays)
			wait_vector(r->m.wait[v], v, f, o);
	if (r->m.n.wait_inconsistent)
		fprintf(f, "%llu delays not split: their time accounts did not add up (lost or "
			"reordered events)\n", (unsigned long long)r->m.n.wait_inconsistent);
}
