// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - the terminal table, and helpers the file writers share.
 */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "detail_out.h"

static const struct table_opts table_default = { .min_count = TABLE_MIN_COUNT };

static const struct table_opts *table_opts_or_default(const struct table_opts *o)
{
	return o ? o : &table_default;
}

/*
 * print_cost - what the capture itself cost: CPU time of its reader and analysis threads
 * per second captured and per million events, and the event rate each CPU's tracing
 * carried (the kernel's per-CPU "read events")
 */
static void print_cost(const struct result *r, FILE *f)
{
	double dur = result_duration_s(r), cpu = r->meta.capture_cpu_s;
	uint64_t ev = r->m.n.events_total;
	int c;

	fprintf(f, "capture cost: %.3f s CPU (readers and analysis): %.2f%% of one CPU, "
		"%.3f s per million events", cpu, dur > 0 ? 100 * cpu / dur : 0.0,
		ev ? cpu * 1e6 / (double)ev : 0.0);
	if (r->meta.sched_events[0])
		fprintf(f, "; sched events: %s", r->meta.sched_events);
	fprintf(f, "\nevents/s per CPU:");
	for (c = 0; c < r->ncpus && dur > 0; c++)
		fprintf(f, " cpu%d %.0f", c, (double)r->loss[c].read_events / dur);
	fprintf(f, " (all: %.0f)\n", dur > 0 ? (double)ev / dur : 0.0);
}

static void print_capture(const struct result *r, FILE *f)
{
	const struct match_counts *n = &r->m.n;
	uint64_t sirq_um = n->sirq_entry_no_raise + n->sirq_exit_no_entry + n->sirq_entry_no_exit;

	fprintf(f, "deferbench: %.3f s on %d CPUs, kernel %s, trace_clock %s\n",
		result_duration_s(r), r->ncpus, r->meta.kernel, r->meta.trace_clock);
	uint64_t irq_um = n->tasklet_exit_no_entry + n->irq_exit_no_entry;
	char more[64] = "";

	/* the irq and tasklet pairs only when there are some: older captures had none */
	if (irq_um)
		snprintf(more, sizeof(more), ", irq/tasklet %llu", (unsigned long long)irq_um);
	fprintf(f, "events %llu   lost %llu%s   unmatched %llu (softirq %llu, workqueue %llu%s)   "
		"in flight at end %llu\n",
		(unsigned long long)n->events_total, (unsigned long long)r->lost_events,
		r->lossy ? " [LOSSY: figures below undercount]" : "",
		(unsigned long long)matcher_unmatched(&r->m), (unsigned long long)sirq_um,
		(unsigned long long)(matcher_unmatched(&r->m) - sirq_um - irq_um), more,
		(unsigned long long)(n->sirq_raise_open + n->sirq_entry_open +
				     n->wq_queued_open + n->wq_running_open));
	print_cost(r, f);
	if (n->wq_barriers || n->wq_superseded)
		fprintf(f, "workqueue: %llu flush barriers (run without queue_work), %llu items "
			"queued again before they ran\n", (unsigned long long)n->wq_barriers,
			(unsigned long long)n->wq_superseded);
	if (n->late_events)
		fprintf(f, "warning: %llu events arrived out of order (reader starved?)\n",
			(unsigned long long)n->late_events);
}

/* softirq_where - the vector's rows by where it ran, when it ran in more than one place */
static void softirq_where(const struct result *r, int vec, FILE *f, const struct table_opts *o)
{
	const struct ctx_group *g;
	unsigned int nwhere = 0;
	uint32_t i;

	for (i = 0; i < r->m.nctx; i++)
		if (r->m.ctx[i]->kind == CTX_SOFTIRQ && r->m.ctx[i]->name == (uint32_t)vec) {
			nwhere++;
			/* one place, but a thread: ktimers/N or an irq/ thread */
			nwhere += r->m.ctx[i]->where != WHERE_INLINE &&
				  r->m.ctx[i]->where != WHERE_KSOFTIRQD;
		}
	if (nwhere < 2)
		return;
	for (i = 0; i < r->m.nctx; i++) {
		g = r->m.ctx[i];
		if (g->kind != CTX_SOFTIRQ || g->name != (uint32_t)vec)
			continue;
		fprintf(f, "  %-10s %9llu %7s %9llu |", ctx_where_names[g->where],
			(unsigned long long)g->count, "", (unsigned long long)g->delay.count);
		table_stats(f, &g->delay, o);
		table_runtime(f, &g->runtime, o);
		fprintf(f, " %5llu\n", (unsigned long long)g->long_runs);
	}
}

static void print_softirq(const struct result *r, FILE *f, const struct table_opts *o)
{
	struct sirq_group *g = malloc(sizeof(*g));
	int v;

	if (!g)
		return;
	fprintf(f, "\nSOFTIRQ, all CPUs, times in %s   delay = raise -> entry, runtime = entry -> "
		"exit;\n      a vector that ran in more than one place (inline, ksoftirqd, ktimers, an irq "
		"thread)\n      has a row for each\n",
		table_unit(o));
	fprintf(f, "%-12s %9s %7s %9s |", "vector", "runs", "ksirqd%", "delays");
	table_stats_head(f, o);
	table_runtime_head(f, o);
	fprintf(f, " %5s\n", ">2ms");
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!result_sirq_all(r, v, g))
			continue;
		fprintf(f, "%-12s %9llu %6.1f%% %9llu |", softirq_names[v],
			(unsigned long long)g->entries,
			g->entries ? 100.0 * g->ksoftirqd / g->entries : 0.0,
			(unsigned long long)g->delay.count);
		table_stats(f, &g->delay, o);
		table_runtime(f, &g->runtime, o);
		fprintf(f, " %5llu\n", (unsigned long long)g->long_runs);
		softirq_where(r, v, f, o);
	}
	free(g);
}

/* The workqueue table's rows: the groups of at least min_count items, then one "other". */
struct wq_table {
	uint32_t *order;		/* the groups shown, by p99 delay */
	uint32_t n, folded;		/* shown; folded into "other" */
	int worst, longest;		/* the folded groups of the largest delay and the
					 * longest run; -1: none */
	struct hist *other;		/* [0] delay, [1] runtime of the folded groups */
	char other_name[64];
	int wq_w, fn_w;
};

static int wq_table_build(const struct result *r, const struct table_opts *o,
			  unsigned int limit, struct wq_table *t)
{
	uint32_t *order = result_wq_order(r), i, tiny = 0;
	char fn[128];
	size_t len;

	memset(t, 0, sizeof(*t));
	t->worst = t->longest = -1;
	t->order = order;
	t->other = malloc(2 * sizeof(*t->other));
	if (!order || !t->other)
		return -ENOMEM;
	hist_init(&t->other[0]);
	hist_init(&t->other[1]);
	t->wq_w = strlen("workqueue");
	t->fn_w = strlen("function");
	for (i = 0; i < r->m.ngroups; i++)
		tiny += r->m.groups[i]->delay.count < o->min_count;
	for (i = 0; i < r->m.ngroups; i++) {
		const struct wq_group *g = r->m.groups[order[i]];

		/* one small group alone stays itself: "other" is for two or more */
		if (g->delay.count < o->min_count && tiny > 1) {
			hist_merge(&t->other[0], &g->delay);
			hist_merge(&t->other[1], &g->runtime);
			if (t->worst < 0 || g->delay.max > r->m.groups[t->worst]->delay.max)
				t->worst = (int)order[i];
			if (t->longest < 0 || g->runtime.max > r->m.groups[t->longest]->runtime.max)
				t->longest = (int)order[i];
			t->folded++;
			continue;
		}
		order[t->n++] = order[i];
		if (t->n > limit)
			continue;
		len = strlen(r->m.wq_names[g->wq]);
		t->wq_w = len > (size_t)t->wq_w ? (int)len : t->wq_w;
		len = strlen(result_wq_func(r, g, fn, sizeof(fn)));
		t->fn_w = len > (size_t)t->fn_w ? (int)len : t->fn_w;
	}
	snprintf(t->other_name, sizeof(t->other_name), "(%u groups, < %u items each)", t->folded,
		 o->min_count);
	if (t->folded && strlen(t->other_name) > (size_t)t->fn_w)
		t->fn_w = (int)strlen(t->other_name);
	t->wq_w = t->wq_w > 24 ? 24 : t->wq_w;
	t->fn_w = t->fn_w > 40 ? 40 : t->fn_w;
	return 0;
}

static void wq_table_free(struct wq_table *t)
{
	free(t->order);
	free(t->other);
}

/* other_line - which folded group the "other" row's largest figure came from */
static void other_line(const struct result *r, const char *what, const struct wq_group *g,
		       uint64_t ns, const struct table_opts *o, FILE *f)
{
	char b[24], fn[128], pool[32];

	fprintf(f, "  other's %s, %s %s: %s %s (%s)\n", what, table_lat(ns, o, b, sizeof(b)),
		table_unit(o), r->m.wq_names[g->wq], result_wq_func(r, g, fn, sizeof(fn)),
		match_pool_name(g->pool, pool, sizeof(pool)));
}

static void print_workqueue(const struct result *r, FILE *f, unsigned int limit,
			    const struct table_opts *o)
{
	char fn[128], pool[32], c[2][64];
	struct wq_table t;
	uint32_t i;

	if (wq_table_build(r, o, limit, &t)) {
		wq_table_free(&t);
		return;
	}
	fprintf(f, "\nWORKQUEUE, by p99 delay, times in %s   delay = queue_work -> execute_start, "
		"runtime = execute_start -> execute_end\n", table_unit(o));
	fprintf(f, "%-*s %-*s %-9s %8s |", t.wq_w, "workqueue", t.fn_w, "function", "pool",
		"count");
	table_stats_head(f, o);
	table_runtime_head(f, o);
	fputc('\n', f);
	for (i = 0; i < t.n && i < limit; i++) {
		const struct wq_group *g = r->m.groups[t.order[i]];

		fprintf(f, "%-*s %-*s %-9s %8llu |", t.wq_w,
			fmt_cut(r->m.wq_names[g->wq], t.wq_w, c[0], sizeof(c[0])), t.fn_w,
			fmt_cut(result_wq_func(r, g, fn, sizeof(fn)), t.fn_w, c[1], sizeof(c[1])),
			match_pool_name(g->pool, pool, sizeof(pool)),
			(unsigned long long)g->delay.count);
		table_stats(f, &g->delay, o);
		table_runtime(f, &g->runtime, o);
		fputc('\n', f);
	}
	if (t.folded) {
		fprintf(f, "%-*s %-*s %-9s %8llu |", t.wq_w, "other", t.fn_w,
			fmt_cut(t.other_name, t.fn_w, c[1], sizeof(c[1])), "",
			(unsigned long long)t.other[0].count);
		table_stats(f, &t.other[0], o);
		table_runtime(f, &t.other[1], o);
		fputc('\n', f);
	}
	if (t.worst >= 0 && t.other[0].count)
		other_line(r, "largest delay", r->m.groups[t.worst],
			   r->m.groups[t.worst]->delay.max, o, f);
	if (t.longest >= 0 && t.other[1].count)
		other_line(r, "longest run", r->m.groups[t.longest],
			   r->m.groups[t.longest]->runtime.max, o, f);
	if (t.n > limit)
		fprintf(f, "... %u more groups of at least %u items in workqueue.csv\n",
			t.n - limit, o->min_count);
	output_queued_print(r, f);
	wq_table_free(&t);
}

static void print_wakeup(const struct result *r, FILE *f, const struct table_opts *o)
{
	char name[32];
	uint32_t i;
	int c;

	bool any = r->m.nwake > 0;

	for (c = 0; c < r->ncpus; c++)
		any |= r->m.ksoftirqd_wake[c] != NULL;
	if (!any)
		return;
	fprintf(f, "\nTHREAD WAKEUP, times in %s   sched_wakeup -> sched_switch in, of the threads "
		"that run deferred work\n", table_unit(o));
	fprintf(f, "%-18s %9s |", "thread", "wakeups");
	table_stats_head(f, o);
	fputc('\n', f);
	for (c = 0; c < r->ncpus; c++) {
		if (!r->m.ksoftirqd_wake[c])
			continue;
		snprintf(name, sizeof(name), "ksoftirqd/%d", c);
		fprintf(f, "%-18s %9llu |", name,
			(unsigned long long)r->m.ksoftirqd_wake[c]->count);
		table_stats(f, r->m.ksoftirqd_wake[c], o);
		fputc('\n', f);
	}
	for (i = 0; i < r->m.nwake; i++) {
		char pool[24];

		snprintf(name, sizeof(name), "kworker %s", match_pool_name(r->m.wake[i]->pool, pool,
								     sizeof(pool)));
		fprintf(f, "%-18s %9llu |", name, (unsigned long long)r->m.wake[i]->wake.count);
		table_stats(f, &r->m.wake[i]->wake, o);
		fputc('\n', f);
	}
}

void output_print(const struct result *r, FILE *f, const struct table_opts *o)
{
	int k;

	o = table_opts_or_default(o);
	print_capture(r, f);
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			fprintf(f, "note: this kernel has no %s event; its figures are absent\n",
				ev_names[k].id);
	print_softirq(r, f, o);
	print_workqueue(r, f, 25, o);
	print_wakeup(r, f, o);
	output_contexts(r, f, o);
	output_wait(r, f, o);
	output_bh_print(r, f, o);
	output_stacks(r, f, o);
	output_slowest(r, f, o);
}
