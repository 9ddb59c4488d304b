// SPDX-License-Identifier: GPL-2.0
/*
 * top_view.c - one interval of deferbench top as text or as a JSON line (top_view.h).
 */
#include "top_view.h"

#include <errno.h>
#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "jsonw.h"
#include "output.h"
#include "common.h"

const char *const top_sort_names[TS_NR] = {
	[TS_ITEMS] = "items", [TS_DELAY] = "p99", [TS_MAX] = "max", [TS_CPU] = "cpu",
	[TS_INFLIGHT] = "inflight", [TS_NAME] = "name",
};

static int by_key(const void *a, const void *b, void *arg)
{
	const struct top_wq *x = a, *y = b;
	enum top_sort s = *(enum top_sort *)arg;
	uint64_t vx, vy;
	int c;

	switch (s) {
	case TS_ITEMS: vx = x->items; vy = y->items; break;
	case TS_DELAY: vx = x->delay_p99; vy = y->delay_p99; break;
	case TS_MAX: vx = x->delay_max; vy = y->delay_max; break;
	case TS_CPU: vx = x->cpu_ns; vy = y->cpu_ns; break;
	case TS_INFLIGHT: vx = x->in_flight; vy = y->in_flight; break;
	default: vx = vy = 0; break;
	}
	/* the folded rows last; largest first; then by name, stable between refreshes */
	if (!x->folded != !y->folded)
		return x->folded ? 1 : -1;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	c = strcmp(x->wq, y->wq);
	c = c ?: strcmp(x->func, y->func);
	return c ?: strcmp(x->pool, y->pool);
}

void top_sort_rows(struct top_snap *s, enum top_sort sort)
{
	qsort_r(s->wq, s->nwq, sizeof(*s->wq), by_key, &sort);
}

static double per_s(uint64_t n, const struct top_snap *s)
{
	double d = (double)(s->end_ns - s->start_ns) / 1e9;

	return d > 0 ? (double)n / d : 0.0;
}

/* lat_or_dash - a latency in the view's unit, or "-" when there was no sample */
static const char *lat_or_dash(const struct top_view *v, uint64_t ns, uint64_t count,
			       char *buf, size_t len)
{
	return count ? table_lat(ns, &v->table, buf, len) : "-";
}

static void text_header(FILE *f, const struct top_snap *s, const struct top_view *v)
{
	fprintf(f, "deferbench top   interval %.3f-%.3f s (trace clock mono)   %d CPUs   %llu "
		"events   group: %s   sort: %s\n", s->start_ns / 1e9, s->end_ns / 1e9, v->ncpus,
		(unsigned long long)s->events, top_group_names[v->group], top_sort_names[v->sort]);
	if (v->keys)
		fprintf(f, "keys: q quit, s next sort, g next grouping\n");
	/* a lossy interval undercounts: say so first, and only then */
	if (v->lost_total)
		fprintf(f, "LOST %llu events in this interval, %llu since the start: the figures "
			"undercount\n", (unsigned long long)v->lost_interval,
			(unsigned long long)v->lost_total);
}

static void text_wq(FILE *f, const struct top_snap *s, const struct top_view *v)
{
	char b[3][24], thr[32], c[3][32], name[32];
	size_t i, n = v->rows && v->rows < s->nwq ? v->rows : s->nwq;
	double ival = (double)(s->end_ns - s->start_ns);
	int w = table_w(&v->table);

	thr[0] = '>';
	fmt_ns(v->thresh_us * NSEC_PER_USEC, thr + 1, sizeof(thr) - 1);
	fprintf(f, "\nWORKQUEUES, times in %s   delay = queue_work -> execute_start; CPU = runtimes "
		"that ended;\n      %s = ran longer than cpu_intensive_thresh_us\n",
		table_unit(&v->table), thr);
	/* the function and pool columns only when rows are kept apart by them */
	fprintf(f, "%-20s ", "workqueue");
	if (v->group != TOP_BY_WQ)
		fprintf(f, "%-26s ", "function");
	if (v->group == TOP_BY_POOL)
		fprintf(f, "%-10s ", "pool");
	fprintf(f, "%8s %5s %7s %8s %5s | %*s %*s %*s\n", "items/s", "infl", "CPU%", thr, "resc",
		w, "p50", w, "p99", w, "max");
	for (i = 0; i < n; i++) {
		const struct top_wq *r = &s->wq[i];

		if (r->folded)
			snprintf(name, sizeof(name), "other (%u rows)", r->folded);
		fprintf(f, "%-20s ", fmt_cut(r->folded ? name : r->wq, 20, c[0], sizeof(c[0])));
		if (v->group != TOP_BY_WQ)
			fprintf(f, "%-26s ", fmt_cut(r->func, 26, c[1], sizeof(c[1])));
		if (v->group == TOP_BY_POOL)
			fprintf(f, "%-10s ", fmt_cut(r->pool, 10, c[2], sizeof(c[2])));
		fprintf(f, "%8.1f %5llu %6.1f%% %8llu %5llu | %*s %*s %*s\n", per_s(r->items, s),
			(unsigned long long)r->in_flight, ival > 0 ? 100.0 * r->cpu_ns / ival : 0.0,
			(unsigned long long)r->over_thresh, (unsigned long long)r->rescued,
			w, lat_or_dash(v, r->delay_p50, r->items, b[0], 24),
			w, lat_or_dash(v, r->delay_p99, r->items, b[1], 24),
			w, lat_or_dash(v, r->delay_max, r->items, b[2], 24));
	}
	if (n < s->nwq)
		fprintf(f, "... %zu more rows\n", s->nwq - n);
	if (s->nwq && s->wq[s->nwq - 1].folded)
		fprintf(f, "other: %u rows of fewer than %u items and none in flight (--min-count 1 "
			"shows them)\n", s->wq[s->nwq - 1].folded, v->table.min_count);
	if (s->unattributed)
		fprintf(f, "%llu items since the start ran without a queue_work seen (queued "
			"before it, or a flush barrier): not in the rows\n",
			(unsigned long long)s->unattributed);
}

static void text_ctx(FILE *f, const struct top_snap *s, const struct top_view *v, bool sirq)
{
	char b[4][24], cut[32];
	const char *unit = table_unit(&v->table);
	int w = table_w(&v->table);
	size_t i;

	if (sirq)
		fprintf(f, "\nSOFTIRQS, times in %s   delay = raise -> entry, runtime = entry -> exit\n"
			"%-10s %-10s %9s %8s | %*s %*s %*s | %*s %5s\n", unit, "vector", "context",
			"runs/s", "ksirqd%", w, "p50", w, "p99", w, "max", w, "run p99", ">2ms");
	else
		fprintf(f, "\nOTHER CONTEXTS, times in %s   threads (napi, irq, backlog_napi, "
			"ktimers, rcuc, irq_work):\n      wakeup -> running; tasklets: raise -> "
			"entry; napi polls: runtime only\n%-12s %-22s %-12s "
			"%9s | %*s %*s %*s | %*s %5s\n", unit, "context", "name", "where", "runs/s",
			w, "p50", w, "p99", w, "max", w, "run p99", ">2ms");
	for (i = 0; i < s->nctx; i++) {
		const struct top_ctx *c = &s->ctx[i];
		bool is_sirq = !strcmp(c->context, "softirq");

		if (is_sirq != sirq)
			continue;
		if (sirq)
			fprintf(f, "%-10s %-10s %9.1f %7.1f%% |", c->name, c->where,
				per_s(c->runs, s), 100.0 * c->ksoftirqd_share);
		else
			fprintf(f, "%-12s %-22s %-12s %9.1f |", c->context,
				fmt_cut(c->name, 22, cut, sizeof(cut)), c->where, per_s(c->runs, s));
		fprintf(f, " %*s %*s %*s | %*s %5llu\n",
			w, lat_or_dash(v, c->delay_p50, c->delays, b[0], 24),
			w, lat_or_dash(v, c->delay_p99, c->delays, b[1], 24),
			w, lat_or_dash(v, c->delay_max, c->delays, b[2], 24),
			w, lat_or_dash(v, c->runtime_p99, c->runs, b[3], 24),
			(unsigned long long)c->long_runs);
	}
}

void top_print_text(FILE *f, const struct top_snap *s, const struct top_view *v)
{
	size_t i;
	bool other = false;

	if (v->clear)
		fputs("\033[H\033[2J", f);
	text_header(f, s, v);
	text_wq(f, s, v);
	text_ctx(f, s, v, true);
	for (i = 0; i < s->nctx; i++)
		other |= strcmp(s->ctx[i].context, "softirq") != 0;
	if (other)
		text_ctx(f, s, v, false);
	if (!v->clear)
		fputc('\n', f);
}

static json_object *json_ctx(const struct top_ctx *c, const struct top_snap *s, bool sirq)
{
	json_object *o = json_object_new_object();

	if (sirq) {
		json_object_object_add(o, "vector", json_object_new_string(c->name));
		json_object_object_add(o, "context", json_object_new_string(c->where));
		json_object_object_add(o, "ksoftirqd_share",
				       json_object_new_double(c->ksoftirqd_share));
	} else {
		json_object_object_add(o, "context", json_object_new_string(c->context));
		json_object_object_add(o, "name", json_object_new_string(c->name));
		json_object_object_add(o, "where", json_object_new_string(c->where));
	}
	jsonw_u64(o, "runs", c->runs);
	json_object_object_add(o, "runs_per_s", json_object_new_double(per_s(c->runs, s)));
	jsonw_u64(o, "delays", c->delays);
	jsonw_u64(o, "delay_p50_ns", c->delay_p50);
	jsonw_u64(o, "delay_p99_ns", c->delay_p99);
	jsonw_u64(o, "delay_max_ns", c->delay_max);
	jsonw_u64(o, "runtime_p99_ns", c->runtime_p99);
	jsonw_u64(o, "long_runs", c->long_runs);
	return o;
}

int top_print_json(FILE *f, const struct top_snap *s, const struct top_view *v)
{
	json_object *o = json_object_new_object(), *wq = json_object_new_array();
	json_object *sirq = json_object_new_array(), *ctx = json_object_new_array();
	const char *text;
	size_t i;

	jsonw_u64(o, "interval", s->interval);
	jsonw_u64(o, "start_ns", s->start_ns);
	jsonw_u64(o, "end_ns", s->end_ns);
	json_object_object_add(o, "duration_s",
			       json_object_new_double((double)(s->end_ns - s->start_ns) / 1e9));
	jsonw_u64(o, "events", s->events);
	jsonw_u64(o, "lost_events", v->lost_total);
	jsonw_u64(o, "lost_events_interval", v->lost_interval);
	jsonw_u64(o, "started_without_queue", s->unattributed);
	json_object_object_add(o, "group", json_object_new_string(top_group_names[v->group]));
	jsonw_u64(o, "cpu_intensive_thresh_us", v->thresh_us);
	for (i = 0; i < s->nwq; i++) {
		const struct top_wq *w = &s->wq[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "workqueue", json_object_new_string(w->wq));
		if (v->group != TOP_BY_WQ)
			json_object_object_add(e, "function", json_object_new_string(w->func));
		if (v->group == TOP_BY_POOL)
			json_object_object_add(e, "pool", json_object_new_string(w->pool));
		jsonw_u64(e, "items", w->items);
		json_object_object_add(e, "items_per_s", json_object_new_double(per_s(w->items, s)));
		jsonw_u64(e, "in_flight", w->in_flight);
		jsonw_u64(e, "cpu_ns", w->cpu_ns);
		jsonw_u64(e, "over_thresh", w->over_thresh);
		jsonw_u64(e, "rescued", w->rescued);
		jsonw_u64(e, "delay_p50_ns", w->delay_p50);
		jsonw_u64(e, "delay_p99_ns", w->delay_p99);
		jsonw_u64(e, "delay_max_ns", w->delay_max);
		json_object_array_add(wq, e);
	}
	for (i = 0; i < s->nctx; i++) {
		bool is_sirq = !strcmp(s->ctx[i].context, "softirq");

		json_object_array_add(is_sirq ? sirq : ctx, json_ctx(&s->ctx[i], s, is_sirq));
	}
	json_object_object_add(o, "workqueues", wq);
	json_object_object_add(o, "softirqs", sirq);
	json_object_object_add(o, "contexts", ctx);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text) {
		json_object_put(o);
		return -ENOMEM;
	}
	fprintf(f, "%s\n", text);
	json_object_put(o);
	return 0;
}
