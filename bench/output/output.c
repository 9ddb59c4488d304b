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

bool sirq_all(const struct result *r, int vec, struct sirq_group *out)
{
	bool any = false;
	int c;

	memset(out, 0, sizeof(*out));
	hist_init(&out->delay);
	hist_init(&out->runtime);
	for (c = 0; c < r->ncpus; c++) {
		const struct sirq_group *g = sirq_group_get(&r->m, c, vec);

		if (!g)
			continue;
		any = true;
		out->entries += g->entries;
		out->ksoftirqd += g->ksoftirqd;
		out->long_runs += g->long_runs;
		hist_merge(&out->delay, &g->delay);
		hist_merge(&out->runtime, &g->runtime);
	}
	return any;
}

int sirq_each(const struct result *r, sirq_visit fn, void *ctx)
{
	struct sirq_group *all = malloc(sizeof(*all));
	int v, c;

	if (!all)
		return -ENOMEM;
	for (v = 0; v < NR_SOFTIRQS; v++) {
		if (!sirq_all(r, v, all))
			continue;
		fn(ctx, r, all, v, -1);
		for (c = 0; c < r->ncpus; c++)
			if (sirq_group_get(&r->m, c, v))
				fn(ctx, r, sirq_group_get(&r->m, c, v), v, c);
	}
	free(all);
	return 0;
}

struct order_key {
	uint64_t p99;
	uint64_t count;
	uint32_t idx;
};

static int order_cmp(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;

	if (x->p99 != y->p99)
		return x->p99 > y->p99 ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

uint32_t *wq_order(const struct result *r)
{
	uint32_t n = r->m.ngroups, i;
	struct order_key *k = calloc(n ? n : 1, sizeof(*k));
	uint32_t *idx = calloc(n ? n : 1, sizeof(*idx));

	if (!k || !idx) {
		free(k);
		free(idx);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		k[i].p99 = hist_percentile(&r->m.groups[i]->delay, 0.99);
		k[i].count = r->m.groups[i]->delay.count;
		k[i].idx = i;
	}
	qsort(k, n, sizeof(*k), order_cmp);
	for (i = 0; i < n; i++)
		idx[i] = k[i].idx;
	free(k);
	return idx;
}

const char *wq_func_name(const struct result *r, const struct wq_group *g, char *buf, size_t len)
{
	return symtab_name(&r->syms, r->m.funcs[g->func].addr, buf, len);
}

void print_stats(FILE *f, const struct hist *h)
{
	struct hist_stats st;
	char b[6][24];

	hist_get_stats(h, &st);
	if (!st.count) {
		fprintf(f, " %8s %8s %8s %8s %8s", "-", "-", "-", "-", "-");
		return;
	}
	fprintf(f, " %8s %8s %8s %8s %8s", fmt_ns(st.p50, b[0], 24), fmt_ns(st.p90, b[1], 24),
		fmt_ns(st.p99, b[2], 24), fmt_ns(st.p999, b[3], 24), fmt_ns(st.max, b[4], 24));
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

static void print_softirq(const struct result *r, FILE *f)
{
	struct sirq_group *g = malloc(sizeof(*g));
	char b[24];
	int v;

	if (!g)
		return;
	fprintf(f, "\nSOFTIRQ, all CPUs   delay = raise -> entry, runtime = entry -> exit\n");
	fprintf(f, "%-8s %9s %7s %9s | %-44s | %-17s %5s\n", "vector", "runs", "ksirqd%",
		"delays", "delay p50      p90      p99    p99.9      max", "runtime p50   p99", ">2ms");
	for (v = 0; v < NR_SOFTIRQS; v++) {
		struct hist_stats rt;

		if (!sirq_all(r, v, g))
			continue;
		hist_get_stats(&g->runtime, &rt);
		fprintf(f, "%-8s %9llu %6.1f%% %9llu |", softirq_names[v],
			(unsigned long long)g->entries,
			g->entries ? 100.0 * g->ksoftirqd / g->entries : 0.0,
			(unsigned long long)g->delay.count);
		print_stats(f, &g->delay);
		fprintf(f, " | %8s", rt.count ? fmt_ns(rt.p50, b, sizeof(b)) : "-");
		fprintf(f, " %8s %5llu\n", rt.count ? fmt_ns(rt.p99, b, sizeof(b)) : "-",
			(unsigned long long)g->long_runs);
	}
	free(g);
}

static void print_workqueue(const struct result *r, FILE *f, unsigned int limit)
{
	uint32_t *order = wq_order(r), i;
	char fn[128], pool[32], b[24];

	if (!order)
		return;
	fprintf(f, "\nWORKQUEUE, by p99 delay   delay = queue_work -> execute_start, "
		"runtime = execute_start -> execute_end\n");
	fprintf(f, "%-18s %-28s %-9s %8s | %-44s | %s\n", "workqueue", "function", "pool", "count",
		"delay p50      p90      p99    p99.9      max", "runtime p50   p99");
	for (i = 0; i < r->m.ngroups && i < limit; i++) {
		const struct wq_group *g = r->m.groups[order[i]];
		struct hist_stats rt;

		hist_get_stats(&g->runtime, &rt);
		fprintf(f, "%-18.18s %-28.28s %-9s %8llu |", r->m.wq_names[g->wq],
			wq_func_name(r, g, fn, sizeof(fn)), pool_name(g->pool, pool, sizeof(pool)),
			(unsigned long long)g->delay.count);
		print_stats(f, &g->delay);
		fprintf(f, " | %8s", rt.count ? fmt_ns(rt.p50, b, sizeof(b)) : "-");
		fprintf(f, " %8s\n", rt.count ? fmt_ns(rt.p99, b, sizeof(b)) : "-");
	}
	if (r->m.ngroups > limit)
		fprintf(f, "... %u more groups in workqueue.csv\n", r->m.ngroups - limit);
	free(order);
}

static void print_wakeup(const struct result *r, FILE *f)
{
	char name[32];
	uint32_t i;
	int c;

	bool any = r->m.nwake > 0;

	for (c = 0; c < r->ncpus; c++)
		any |= r->m.ksoftirqd_wake[c] != NULL;
	if (!any)
		return;
	fprintf(f, "\nTHREAD WAKEUP   sched_wakeup -> sched_switch in, of the threads that run "
		"deferred work\n");
	fprintf(f, "%-18s %9s | %-44s\n", "thread", "wakeups",
		"p50      p90      p99    p99.9      max");
	for (c = 0; c < r->ncpus; c++) {
		if (!r->m.ksoftirqd_wake[c])
			continue;
		snprintf(name, sizeof(name), "ksoftirqd/%d", c);
		fprintf(f, "%-18s %9llu |", name,
			(unsigned long long)r->m.ksoftirqd_wake[c]->count);
		print_stats(f, r->m.ksoftirqd_wake[c]);
		fputc('\n', f);
	}
	for (i = 0; i < r->m.nwake; i++) {
		char pool[24];

		snprintf(name, sizeof(name), "kworker %s", pool_name(r->m.wake[i]->pool, pool,
								     sizeof(pool)));
		fprintf(f, "%-18s %9llu |", name, (unsigned long long)r->m.wake[i]->wake.count);
		print_stats(f, &r->m.wake[i]->wake);
		fputc('\n', f);
	}
}

void result_print(const struct result *r, FILE *f)
{
	int k;

	print_capture(r, f);
	for (k = 0; k < EV_NR; k++)
		if (r->meta.missing[k])
			fprintf(f, "note: this kernel has no %s event; its figures are absent\n",
				ev_names[k].id);
	print_softirq(r, f);
	print_workqueue(r, f, 25);
	print_wakeup(r, f);
	print_contexts(r, f);
	print_wait(r, f);
	print_stacks(r, f);
	print_slowest(r, f);
}
