// SPDX-License-Identifier: GPL-2.0
/*
 * rep_tables.c - the report's tables: as Markdown/HTML (the figures a reader needs)
 * and as CSV in tables/ (every group and statistic, for further analysis).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"
#include "parse.h"
#include "file.h"

static const char *const tab_names[TAB_NR] = {
	[TAB_WORKLOAD] = "workload.csv", [TAB_SOFTIRQ] = "softirq.csv",
	[TAB_WQ] = "workqueue.csv", [TAB_CELLS] = "cells.csv", [TAB_COUNTERS] = "counters.csv",
	[TAB_WAKEUP] = "wakeup.csv", [TAB_CONTEXTS] = "contexts.csv",
	[TAB_WAIT] = "softirq_wait.csv",
};

static const char *const fig_cols[] = {
	"reps", "reps_with_data", "count", "p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns",
	"mean_ns", "stddev_ns", "iqr_ns", "p99_minus_p50_ns", "rep_p50_median_ns",
	"rep_p50_min_ns", "rep_p50_max_ns", "rep_p99_median_ns", "rep_p99_min_ns",
	"rep_p99_max_ns", "lost_events", "unmatched", "lossy_reps", "incomplete_reps", NULL
};

static const char *const *const tab_keys[TAB_NR] = {
	[TAB_WORKLOAD] = (const char *const[]){ "workload", "config", "metric", NULL },
	[TAB_SOFTIRQ] = (const char *const[]){ "workload", "config", "vector", "metric",
		"runs", "ksoftirqd_runs", "long_runs", NULL },
	[TAB_WQ] = (const char *const[]){ "workload", "config", "workqueue", "function",
		"pool", "metric", NULL },
	[TAB_CELLS] = (const char *const[]){ "id", "workload", "config", "rep", "status",
		"error", "lossy", "events", "lost_events", "late_events", "unmatched",
		"duration_s", "knobs", NULL },
	[TAB_COUNTERS] = (const char *const[]){ "workload", "config", "counter", "reps",
		"median", "min", "max", NULL },
	/* statistics only (no buckets): the repetitions' spread, nothing pooled */
	[TAB_WAKEUP] = (const char *const[]){ "workload", "config", "thread", "cpu", "pool",
		"reps", "reps_with_data", "wakeups", "rep_p50_median_ns", "rep_p50_min_ns",
		"rep_p50_max_ns", "rep_p99_median_ns", "rep_p99_min_ns", "rep_p99_max_ns",
		"max_ns", "lost_events", "unmatched", "lossy_reps", "incomplete_reps", NULL },
	[TAB_CONTEXTS] = (const char *const[]){ "workload", "config", "context", "name",
		"where", "metric", "runs", NULL },
	/* summed over the repetitions; the p99 is the median of theirs */
	[TAB_WAIT] = (const char *const[]){ "workload", "config", "vector", "cause", "delays",
		"delay_ns", "cause_ns", "share", "rep_p99_median_ns", NULL },
};

/* tables with the figure columns (fig_cols) after their keys */
static const bool tab_figures[TAB_NR] = {
	[TAB_WORKLOAD] = true, [TAB_SOFTIRQ] = true, [TAB_WQ] = true, [TAB_CONTEXTS] = true,
};

int rep_tables_open(struct report_ctx *r)
{
	char p[PATH_MAX];
	int t, ret;

	for (t = 0; t < TAB_NR; t++) {
		ret = path_join(p, sizeof(p), r->tabledir, tab_names[t]);
		ret = ret ?: csvw_open(&r->tab[t], p);
		if (ret)
			return errno_msg(r->errbuf, ret, "%s: %s", p, strerror(-ret));
		csvw_header(&r->tab[t], tab_keys[t]);
		if (tab_figures[t])
			csvw_header(&r->tab[t], fig_cols);
		csvw_end(&r->tab[t]);
	}
	return 0;
}

int rep_tables_close(struct report_ctx *r)
{
	int t, ret = 0, e;

	for (t = 0; t < TAB_NR; t++) {
		e = csvw_close(&r->tab[t]);
		ret = ret ?: e;
	}
	if (ret)
		errno_msg(r->errbuf, ret, "%s: cannot write the CSV tables: %s", r->tabledir,
			 strerror(-ret));
	return ret;
}

void rep_csv_ns(struct csvw *w, double v)
{
	if (isnan(v))
		csvw_str(w, "");
	else
		csvw_u64(w, (uint64_t)llround(v));
}

/* csv_num - a number with decimals; an empty field when unknown (NaN) */
static void csv_num(struct csvw *w, double v)
{
	if (isnan(v))
		csvw_str(w, "");
	else
		csvw_dbl(w, v);
}

void rep_csv_spread(struct csvw *w, const struct figure *f)
{
	rep_csv_ns(w, f->p50.med);
	rep_csv_ns(w, f->p50.min);
	rep_csv_ns(w, f->p50.max);
	rep_csv_ns(w, f->p99.med);
	rep_csv_ns(w, f->p99.min);
	rep_csv_ns(w, f->p99.max);
}

void rep_csv_health(struct csvw *w, const struct figure *f)
{
	csvw_u64(w, f->lost);
	csvw_u64(w, f->unmatched);
	csvw_u64(w, f->lossy_reps);
	csvw_u64(w, f->incomplete_reps);
}

void rep_csv_figure(struct csvw *w, const struct figure *f)
{
	double nan = NAN;
	bool ok = f->pooled_ok;

	csvw_u64(w, f->reps);
	csvw_u64(w, f->with_data);
	rep_csv_ns(w, ok ? (double)f->pooled.count : nan);
	rep_csv_ns(w, ok ? (double)f->pooled.p50 : nan);
	rep_csv_ns(w, ok ? (double)f->pooled.p90 : nan);
	rep_csv_ns(w, ok ? (double)f->pooled.p99 : nan);
	rep_csv_ns(w, ok ? (double)f->pooled.p999 : nan);
	rep_csv_ns(w, f->max.max);
	csv_num(w, ok ? f->pooled.mean : nan);
	csv_num(w, ok ? f->pooled.stddev : nan);
	rep_csv_ns(w, f->p75 - f->p25);
	rep_csv_ns(w, ok ? (double)f->pooled.p99 - (double)f->pooled.p50 : nan);
	rep_csv_spread(w, f);
	rep_csv_health(w, f);
	csvw_end(w);
}

static void knobs_text(const struct cell *c, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < c->nknobs && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", c->knobs[i].key,
				c->knobs[i].val);
}

static void cell_csv(struct csvw *w, const struct cell *c, const char *knobs)
{
	const struct capture_data *cap = &c->rec.cap;

	csvw_str(w, c->id);
	csvw_str(w, c->workload);
	csvw_str(w, c->config);
	csvw_u64(w, c->rep);
	csvw_str(w, c->status);
	csvw_str(w, c->error);
	csvw_i64(w, c->ok ? cap->lossy : -1);
	csvw_u64(w, cap->events);
	csvw_u64(w, cap->lost_events);
	csvw_u64(w, cap->late_events);
	csvw_u64(w, cap->unmatched);
	csv_num(w, c->ok && !c->control ? cap->duration_s : NAN);	/* control: untraced */
	csvw_str(w, knobs);
	csvw_end(w);
}

/*
 * segment_rows - an alternating run's cells by segment: one directory per workload and
 * group of configurations, holding the blocks of each of them (its name is the
 * workload's and the group's reference configuration's); the CSV keeps every block
 */
static void segment_rows(struct report_ctx *r)
{
	static const char *const hdr[] = { "segment directory", "status", "events",
		"lost events", "unmatched", "configurations: blocks, knobs" };
	char arms[2048], one[512], ev[32], lost[48], un[32];
	const char *dir;
	size_t i, j, k, n, off;

	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->run->ncells; i++) {
		const struct cell *c = &r->run->cells[i];
		const struct capture_data *cap = &c->rec.cap;
		bool seen = false, bad = false;

		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(r->run->cells[j].dir, c->dir);
		if (seen)
			continue;
		arms[0] = '\0';
		off = 0;
		/* each configuration once, with its blocks and its knobs */
		for (j = i; j < r->run->ncells; j++) {
			const struct cell *a = &r->run->cells[j];

			if (strcmp(a->dir, c->dir))
				continue;
			bad |= !a->ok;
			for (k = i, seen = false; k < j && !seen; k++)
				seen = !strcmp(r->run->cells[k].dir, c->dir) &&
				       !strcmp(r->run->cells[k].config, a->config) &&
				       r->run->cells[k].control == a->control;
			if (seen || off >= sizeof(arms))
				continue;
			for (k = j, n = 0; k < r->run->ncells; k++)
				n += !strcmp(r->run->cells[k].dir, c->dir) &&
				     !strcmp(r->run->cells[k].config, a->config) &&
				     r->run->cells[k].control == a->control;
			knobs_text(a, one, sizeof(one));
			off += (size_t)snprintf(arms + off, sizeof(arms) - off, "%s%s%s %zu%s%s",
						off ? "; " : "", a->config,
						a->control ? " untraced" : "", n,
						one[0] && !a->control ? ", " : "",
						a->control ? "" : one);
		}
		dir = strrchr(c->dir, '/');
		snprintf(ev, sizeof(ev), "%llu", (unsigned long long)cap->events);
		snprintf(lost, sizeof(lost), "%llu%s", (unsigned long long)cap->lost_events,
			 cap->lossy ? " (LOSSY)" : "");
		snprintf(un, sizeof(un), "%llu", (unsigned long long)cap->unmatched);
		doc_row(&r->doc, (const char *const[]){ dir ? dir + 1 : c->dir,
			bad ? (c->error[0] ? c->error : c->status) : "ok", ev, lost, un, arms },
			ARRAY_SIZE(hdr));
	}
	doc_table_end(&r->doc);
}

void rep_table_cells(struct report_ctx *r)
{
	static const char *const hdr[] = { "cell", "status", "events", "lost events",
		"unmatched", "duration (s)", "knobs" };
	char ev[32], lost[48], un[32], dur[32], knobs[1024];
	bool traced;
	size_t i;

	if (r->alt) {
		for (i = 0; i < r->run->ncells; i++) {
			knobs_text(&r->run->cells[i], knobs, sizeof(knobs));
			cell_csv(&r->tab[TAB_CELLS], &r->run->cells[i], knobs);
		}
		segment_rows(r);
		return;
	}
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->run->ncells; i++) {
		const struct cell *c = &r->run->cells[i];
		const struct capture_data *cap = &c->rec.cap;

		knobs_text(c, knobs, sizeof(knobs));
		cell_csv(&r->tab[TAB_CELLS], c, knobs);
		snprintf(ev, sizeof(ev), "%llu", (unsigned long long)cap->events);
		snprintf(lost, sizeof(lost), "%llu%s", (unsigned long long)cap->lost_events,
			 cap->lossy ? " (LOSSY)" : "");
		snprintf(un, sizeof(un), "%llu", (unsigned long long)cap->unmatched);
		snprintf(dur, sizeof(dur), "%.1f", cap->duration_s);
		traced = c->ok && !c->control;
		doc_row(&r->doc, (const char *const[]){ c->id,
			!c->ok ? (c->error[0] ? c->error : c->status) :
			c->control ? "ok (control: not traced)" : "ok",
			traced ? ev : "-", traced ? lost : "-", traced ? un : "-",
			traced ? dur : "-", knobs }, ARRAY_SIZE(hdr));
	}
	doc_table_end(&r->doc);
}

void rep_counts(const struct figure *f, char *lost, char *un, size_t len)
{
	snprintf(lost, len, "%llu", (unsigned long long)f->lost);
	snprintf(un, len, "%llu", (unsigned long long)f->unmatched);
}

/* units - "blocks" or "repetitions": what the cells of the run are, for a column */
static const char *units(const struct report_ctx *r)
{
	return r->alt ? "blocks" : "repetitions";
}

void rep_table_workload(struct report_ctx *r, const char *wl, char (*metric)[NAME_LEN], size_t nm)
{
	const char *hdr[] = { "metric", "config", units(r), "samples", "p50 (us)",
		"p99 (us)", "p99.9 (us)", "max (us)", "stddev (us)", "p99-p50 (us)",
		"IQR (us)", "lost", "unmatched", "flags" };
	char c[10][48], lost[32], un[32], flags[64];
	struct metric_key k = { .src = MS_WORKLOAD };
	struct figure f;
	size_t i, m;

	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (m = 0; m < nm; m++)
		for (i = 0; i < r->cs.n; i++) {
			const struct cellset *s = &r->cs.s[i];
			bool ok;

			snprintf(k.name, sizeof(k.name), "%s", metric[m]);
			if (strcmp(s->workload, wl) || aggr_figure_get(s, &k, &f))
				continue;
			ok = f.pooled_ok;
			csvw_str(&r->tab[TAB_WORKLOAD], wl);
			csvw_str(&r->tab[TAB_WORKLOAD], s->config);
			csvw_str(&r->tab[TAB_WORKLOAD], metric[m]);
			rep_csv_figure(&r->tab[TAB_WORKLOAD], &f);
			snprintf(c[0], 48, "%zu/%zu", f.with_data, f.reps);
			snprintf(c[1], 48, ok ? "%llu" : "-", (unsigned long long)f.pooled.count);
			aggr_fmt_pooled(&f, MST_P50, c[2], 48);
			aggr_fmt_pooled(&f, MST_P99, c[3], 48);
			fmt_us(ok ? (double)f.pooled.p999 : NAN, c[4], 48);
			fmt_us(f.max.max, c[5], 48);
			fmt_us(ok ? f.pooled.stddev : NAN, c[6], 48);
			fmt_us(ok ? (double)f.pooled.p99 - (double)f.pooled.p50 : NAN, c[7], 48);
			fmt_us(f.p75 - f.p25, c[8], 48);
			rep_counts(&f, lost, un, sizeof(lost));
			doc_row(&r->doc, (const char *const[]){ metric[m], s->config, c[0], c[1],
				c[2], c[3], c[4], c[5], c[6], c[7], c[8], lost, un,
				aggr_fmt_flags(&f, flags, sizeof(flags)) }, ARRAY_SIZE(hdr));
		}
	doc_table_end(&r->doc);
}

void rep_table_driven(struct report_ctx *r, const char *wl, const struct driven *d, size_t nd)
{
	static const char *const hdr[] = { "work", "config", "where it ran", "waits",
		"p50 (us)", "p99 (us)", "p99.9 (us)", "max (us)", "lost", "unmatched", "flags" };
	char c[6][48], where[96], lost[32], un[32], flags[64];
	struct figure f;
	size_t i, w;

	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (w = 0; w < nd; w++)
		for (i = 0; i < r->cs.n; i++) {
			const struct cellset *s = &r->cs.s[i];
			bool ok;

			if (strcmp(s->workload, wl) || aggr_figure_get(s, &d[w].k, &f))
				continue;
			ok = f.pooled_ok;
			rep_driven_where(s, &d[w], where, sizeof(where));
			snprintf(c[0], 48, ok ? "%llu" : "-", (unsigned long long)f.pooled.count);
			aggr_fmt_pooled(&f, MST_P50, c[1], 48);
			aggr_fmt_pooled(&f, MST_P99, c[2], 48);
			fmt_us(ok ? (double)f.pooled.p999 : NAN, c[3], 48);
			fmt_us(f.max.max, c[4], 48);
			rep_counts(&f, lost, un, sizeof(lost));
			doc_row(&r->doc, (const char *const[]){ d[w].name, s->config, where, c[0],
				c[1], c[2], c[3], c[4], lost, un,
				aggr_fmt_flags(&f, flags, sizeof(flags)) }, ARRAY_SIZE(hdr));
		}
	doc_table_end(&r->doc);
}

static void sirq_csv(struct report_ctx *r, const struct cellset *s, struct metric_key *k)
{
	struct csvw *w = &r->tab[TAB_SOFTIRQ];
	uint64_t runs, ksoft, longr;
	struct figure f;
	int m;

	aggr_sirq_totals(s, k->name, &runs, &ksoft, &longr);
	for (m = 0; m < SM_NR; m++) {
		k->sub = m;
		if (aggr_figure_get(s, k, &f))
			continue;
		csvw_str(w, s->workload);
		csvw_str(w, s->config);
		csvw_str(w, k->name);
		csvw_str(w, record_sirq_metric_names[m]);
		csvw_u64(w, runs);
		csvw_u64(w, ksoft);
		csvw_u64(w, longr);
		rep_csv_figure(w, &f);
	}
}

/* The busiest vectors of a configuration in the document; all of them in the CSV. */
#define SIRQ_SHOWN 6

static void sirq_row(struct report_ctx *r, const struct cellset *s, struct metric_key *k,
		     bool show)
{
	char c[12][48], lost[32], un[32], flags[64];
	uint64_t runs, ksoft, longr;
	struct figure d, t;

	sirq_csv(r, s, k);
	if (!show)
		return;
	aggr_sirq_totals(s, k->name, &runs, &ksoft, &longr);
	k->sub = SM_DELAY;
	if (aggr_figure_get(s, k, &d))
		return;
	k->sub = SM_RUNTIME;
	if (aggr_figure_get(s, k, &t))
		return;
	snprintf(c[0], 48, "%llu", (unsigned long long)runs);
	snprintf(c[1], 48, "%.1f%%", runs ? 100.0 * (double)ksoft / (double)runs : 0.0);
	snprintf(c[2], 48, "%llu", (unsigned long long)longr);
	aggr_fmt_pooled(&d, MST_P50, c[3], 48);
	aggr_fmt_pooled(&d, MST_P99, c[4], 48);
	fmt_us(d.max.max, c[5], 48);
	aggr_fmt_pooled(&t, MST_P50, c[6], 48);
	aggr_fmt_pooled(&t, MST_P99, c[7], 48);
	fmt_us(t.max.max, c[8], 48);
	rep_counts(&d, lost, un, sizeof(lost));
	doc_row(&r->doc, (const char *const[]){ s->config, k->name, c[0], c[1], c[2], c[3],
		c[4], c[5], c[6], c[7], c[8], lost, un,
		aggr_fmt_flags(&d, flags, sizeof(flags)) }, 14);
}

void rep_table_softirq(struct report_ctx *r, const char *wl)
{
	static const char *const hdr[] = { "config", "vector", "runs", "in ksoftirqd",
		"runs > 2 ms", "delay p50 (us)", "delay p99 (us)", "delay max (us)",
		"runtime p50 (us)", "runtime p99 (us)", "runtime max (us)", "lost",
		"unmatched", "flags" };
	struct metric_key top[32];
	size_t i, j, n;

	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n; j++)
			sirq_row(r, &r->cs.s[i], &top[j], j < SIRQ_SHOWN);
	}
	doc_table_end(&r->doc);
}

static void wq_csv(struct report_ctx *r, const struct cellset *s, struct metric_key *k)
{
	struct csvw *w = &r->tab[TAB_WQ];
	struct figure f;
	int m;

	for (m = 0; m < WM_NR; m++) {
		k->sub = m;
		if (aggr_figure_get(s, k, &f))
			continue;
		csvw_str(w, s->workload);
		csvw_str(w, s->config);
		csvw_str(w, k->name);
		csvw_str(w, k->func);
		csvw_str(w, k->pool);
		csvw_str(w, record_wq_metric_names[m]);
		rep_csv_figure(w, &f);
	}
}

static void wq_row(struct report_ctx *r, const struct cellset *s, struct metric_key *k,
		   bool show)
{
	char c[8][48], lost[32], un[32], flags[64];
	struct figure d, t;

	wq_csv(r, s, k);
	k->sub = WM_DELAY;
	if (!show || aggr_figure_get(s, k, &d))
		return;
	k->sub = WM_RUNTIME;
	if (aggr_figure_get(s, k, &t))
		return;
	snprintf(c[0], 48, d.pooled_ok ? "%llu" : "-", (unsigned long long)d.pooled.count);
	aggr_fmt_pooled(&d, MST_P50, c[1], 48);
	aggr_fmt_pooled(&d, MST_P99, c[2], 48);
	fmt_us(d.max.max, c[3], 48);
	aggr_fmt_pooled(&t, MST_P99, c[4], 48);
	rep_counts(&d, lost, un, sizeof(lost));
	doc_row(&r->doc, (const char *const[]){ s->config, k->name, k->func, k->pool, c[0],
		c[1], c[2], c[3], c[4], lost, un, aggr_fmt_flags(&d, flags, sizeof(flags)) }, 12);
}

/*
 * held_rows - the groups of the table whose items max_active held back (an activate
 * wait above 0): how many of each group's items and how long; returns how many rows,
 * *known how many groups have activate waits at all (none in a capture older than them)
 */
static size_t held_rows(struct report_ctx *r, const char *wl, bool write, size_t *known)
{
	struct metric_key top[512];
	char c[4][48];
	struct figure f;
	size_t i, j, n, rows = 0;

	*known = 0;

	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_WQ, WM_DELAY, true, top, ARRAY_SIZE(top));
		for (j = 0; j < n && j < r->o->top_wq; j++) {
			top[j].sub = WM_ACTIVATE_WAIT;
			if (aggr_figure_get(&r->cs.s[i], &top[j], &f) || !f.pooled_ok)
				continue;
			(*known)++;
			if (!f.max.max)
				continue;
			rows++;
			if (!write)
				continue;
			snprintf(c[0], 48, "%llu", (unsigned long long)f.pooled.count);
			aggr_fmt_pooled(&f, MST_P50, c[1], 48);
			aggr_fmt_pooled(&f, MST_P99, c[2], 48);
			fmt_us(f.max.max, c[3], 48);
			doc_row(&r->doc, (const char *const[]){ r->cs.s[i].config, top[j].name,
				top[j].func, top[j].pool, c[0], c[1], c[2], c[3] }, 8);
		}
	}
	return rows;
}

void rep_table_workqueue(struct report_ctx *r, const char *wl)
{
	static const char *const hdr[] = { "config", "workqueue", "function", "pool",
		"items", "delay p50 (us)", "delay p99 (us)", "delay max (us)",
		"runtime p99 (us)", "lost", "unmatched", "flags" };
	static const char *const held_hdr[] = { "config", "workqueue", "function", "pool",
		"items", "inactive p50 (us)", "inactive p99 (us)", "inactive max (us)" };
	struct metric_key top[512];
	size_t i, j, n, known;

	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_WQ, WM_DELAY, true, top, ARRAY_SIZE(top));
		for (j = 0; j < n; j++)
			wq_row(r, &r->cs.s[i], &top[j], j < r->o->top_wq);
	}
	doc_table_end(&r->doc);
	/* the part of the delay max_active is to blame for, where it is anything */
	if (!held_rows(r, wl, false, &known)) {
		if (known)
			doc_p(&r->doc, "No item of these groups was held back by its "
			      "workqueue's max_active: each was activated as it was queued, and "
			      "its delay is the wait for a worker (tables/workqueue.csv: "
			      "activate_wait, worker_wait).");
		return;
	}
	doc_p(&r->doc, "Held back by max_active: of these groups, those whose items waited "
	      "inactive, queue_work -> activate_work, before a worker could take them (the "
	      "rest of the delay, activate -> execute_start, is the wait for a worker; both "
	      "in tables/workqueue.csv). Over all the group's items, 0 for those activated "
	      "at once.");
	doc_table(&r->doc, held_hdr, ARRAY_SIZE(held_hdr));
	held_rows(r, wl, true, &known);
	doc_table_end(&r->doc);
}

/* counter_values - a workload counter's numeric value in each finished repetition */
static size_t counter_values(const struct cellset *s, const char *name, double *v)
{
	char msg[ERRBUF_LEN];
	size_t i, j, n = 0;

	for (i = 0; i < s->n; i++) {
		const struct wl_data *wl = &s->cell[i]->rec.wl;

		for (j = 0; s->cell[i]->ok && j < wl->ncounter; j++)
			if (!strcmp(wl->counter[j].key, name) &&
			    !parse_double(wl->counter[j].val, -1e300, 1e300, &v[n], msg))
				n++;
	}
	return n;
}

static void counter_row(struct report_ctx *r, const struct cellset *s, const char *name)
{
	double v[STATS_MAX_N], med, lo, hi;
	struct csvw *w = &r->tab[TAB_COUNTERS];
	char reps[32], val[96];
	size_t i, n;

	n = counter_values(s, name, v);
	if (!n)
		return;
	med = stats_median(v, n);
	lo = hi = v[0];
	for (i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	csvw_header(w, (const char *const[]){ s->workload, s->config, name, NULL });
	csvw_u64(w, n);
	csvw_dbl(w, med);
	csvw_dbl(w, lo);
	csvw_dbl(w, hi);
	csvw_end(w);
	snprintf(reps, sizeof(reps), "%zu/%zu", n, s->n);
	if (lo == hi)
		snprintf(val, sizeof(val), "%.6g", med);
	else
		snprintf(val, sizeof(val), "%.6g [%.6g-%.6g]", med, lo, hi);
	doc_row(&r->doc, (const char *const[]){ s->config, name, reps, val }, 4);
}

void rep_table_counters(struct report_ctx *r, const char *wl)
{
	const char *hdr[] = { "config", "counter", units(r), "value: median [lowest-highest]" };
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	const struct wl_data *names = NULL;
	size_t i, j;

	for (i = 0; ref && i < ref->n && !names; i++)
		if (ref->cell[i]->ok && ref->cell[i]->rec.wl.ncounter)
			names = &ref->cell[i]->rec.wl;
	if (!names)
		return;
	doc_h(&r->doc, 3, "%s: counters", wl);
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (j = 0; j < names->ncounter; j++)
		for (i = 0; i < r->cs.n; i++)
			if (!strcmp(r->cs.s[i].workload, wl))
				counter_row(r, &r->cs.s[i], names->counter[j].key);
	doc_table_end(&r->doc);
}
