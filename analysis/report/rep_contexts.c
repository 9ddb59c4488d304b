// SPDX-License-Identifier: GPL-2.0
/*
 * rep_contexts.c - the report's execution contexts (summary.json contexts) and the
 * causes of softirq delay (softirq_wait):
 *   - the overview after the findings: per workload and configuration, the deferred work
 *     of each kind of context side by side (delay p50, p99, p99.9 pooled over the
 *     repetitions), so that NET_RX in softirq under one configuration stands next to the
 *     napi threads under another; records written before contexts existed show their
 *     softirqs and workqueue items merged instead;
 *   - per workload, every context with its spread over repetitions, and the table of why
 *     softirqs waited. Both also go to tables/contexts.csv and tables/softirq_wait.csv.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_kinds.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "common.h"

/*
 * The overview's rows: a context kind, where it ran, names merged; NET_RX also on its
 * own, because the configurations the suite sweeps (napi=threaded) move exactly it.
 */
const struct ctx_kind_row rep_ctx_kind_rows[CKR_NR] = {
	[CKR_SIRQ_INLINE] = { "softirq", NULL, "inline", "softirq, inline", "softirq" },
	[CKR_SIRQ_KSOFTIRQD] = { "softirq", NULL, "ksoftirqd", "softirq, in ksoftirqd",
				 "ksoftirqd" },
	[CKR_NET_RX_INLINE] = { "softirq", "NET_RX", "inline", "NET_RX softirq, inline",
				"softirq" },
	[CKR_NET_RX_KSOFTIRQD] = { "softirq", "NET_RX", "ksoftirqd",
				   "NET_RX softirq, in ksoftirqd", "ksoftirqd" },
	[CKR_NAPI_THREAD] = { "napi_thread", NULL, NULL, "napi thread", "napi thread" },
	[CKR_POLL_SOFTIRQ] = { "napi_poll", NULL, "softirq", "napi poll in softirq", "softirq" },
	[CKR_POLL_KSOFTIRQD] = { "napi_poll", NULL, "ksoftirqd", "napi poll in ksoftirqd",
				 "ksoftirqd" },
	[CKR_POLL_THREAD] = { "napi_poll", NULL, "thread", "napi poll in thread",
			      "napi thread" },
	[CKR_POLL_BUSY] = { "napi_poll", NULL, "busy_poll", "napi busy poll", "busy poll" },
	[CKR_TASKLET] = { "tasklet", NULL, NULL, "tasklet", "tasklet" },
	[CKR_IRQ_THREAD] = { "irq_thread", NULL, NULL, "irq thread", "irq thread" },
	[CKR_WQ] = { "workqueue", NULL, NULL, "workqueue, all pools", "workqueue" },
	[CKR_WQ_BH] = { "workqueue", "bh", NULL, "workqueue, BH", "workqueue" },
	[CKR_SIRQ_KTIMERS] = { "softirq", NULL, "ktimers", "softirq, in ktimers", "ktimers" },
	[CKR_SIRQ_IRQ_THREAD] = { "softirq", NULL, "irq_thread", "softirq, in an irq thread",
				  "irq thread" },
	[CKR_KTIMERS] = { "ktimers", NULL, NULL, "ktimers thread", "ktimers" },
	[CKR_RCUC] = { "rcuc", NULL, NULL, "rcuc thread", "rcuc" },
	[CKR_IRQ_WORK] = { "irq_work", NULL, NULL, "irq_work thread", "irq_work" },
	[CKR_BACKLOG_NAPI] = { "backlog_napi", NULL, NULL, "backlog NAPI thread", "napi thread" },
	[CKR_POLL_BACKLOG] = { "napi_poll", NULL, "backlog_napi", "napi poll in backlog thread",
			       "napi thread" },
	[CKR_WQ_BH_HI] = { "workqueue", "bh_hi", NULL, "workqueue, BH highpri", "workqueue" },
};

bool rep_ctx_kind_pooled(const struct cellset *s, const struct ctx_kind_row *k, int cell,
		     struct hist *h, uint64_t *runs)
{
	bool any = false;
	size_t i, g;

	*runs = 0;
	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;

		if (!s->cell[i]->ok || !rec->has_hist || (cell >= 0 && (size_t)cell != i))
			continue;
		for (g = 0; g < rec->nctx; g++) {
			const struct ctx_data *c = &rec->ctx[g];

			if (strcmp(c->context, k->context) || (k->name && strcmp(c->name, k->name)) ||
			    (k->where && strcmp(c->where, k->where)))
				continue;
			any = true;
			*runs += c->count;
			buckets_to_hist(&c->h[SM_DELAY], NULL, &h[SM_DELAY]);
			buckets_to_hist(&c->h[SM_RUNTIME], NULL, &h[SM_RUNTIME]);
		}
	}
	return any;
}

static void overview_row(struct report_ctx *r, const struct cellset *s, const char *label,
			 const struct hist *h, uint64_t runs)
{
	char c[5][32], n[32], lost[32], un[32];
	uint64_t l = 0, u = 0;
	size_t i;
	bool d = h[SM_DELAY].count > 0, rt;

	for (i = 0; i < s->n; i++) {
		l += s->cell[i]->rec.cap.lost_events;
		u += s->cell[i]->rec.cap.unmatched;
	}
	snprintf(n, sizeof(n), "%llu", (unsigned long long)runs);
	snprintf(lost, sizeof(lost), "%llu", (unsigned long long)l);
	snprintf(un, sizeof(un), "%llu", (unsigned long long)u);
	rt = h[SM_RUNTIME].count > 0;
	fmt_us(d ? (double)hist_percentile_mid(&h[SM_DELAY], 0.5) : NAN, c[0], 32);
	fmt_us(d ? (double)hist_percentile_mid(&h[SM_DELAY], 0.99) : NAN, c[1], 32);
	fmt_us(d ? (double)hist_percentile_mid(&h[SM_DELAY], 0.999) : NAN, c[2], 32);
	fmt_us(rt ? (double)hist_percentile_mid(&h[SM_RUNTIME], 0.5) : NAN, c[3], 32);
	fmt_us(rt ? (double)hist_percentile_mid(&h[SM_RUNTIME], 0.99) : NAN, c[4], 32);
	doc_row(&r->doc, (const char *const[]){ s->workload, s->config, label, n, c[0], c[1], c[2],
		c[3], c[4], lost, un }, 11);
}

/* overview_old - a record from before contexts: all softirqs and all work items merged */
static void overview_old(struct report_ctx *r, const struct cellset *s, struct hist *h)
{
	static const char *const label[2] = { "softirq (all; no contexts recorded)",
					      "workqueue (all; no contexts recorded)" };
	int src, m;

	for (src = 0; src < 2; src++) {
		hist_init(&h[SM_DELAY]);
		hist_init(&h[SM_RUNTIME]);
		for (m = 0; m < SM_NR; m++)
			aggr_cellset_pooled_all(s, src ? MS_WQ : MS_SOFTIRQ,
					   src ? (m == SM_DELAY ? WM_DELAY : WM_RUNTIME) : m, &h[m]);
		if (h[SM_DELAY].count)
			overview_row(r, s, label[src], h, h[SM_DELAY].count);
	}
}

static bool set_has_contexts(const struct cellset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && s->cell[i]->rec.has_contexts)
			return true;
	return false;
}

void rep_table_contexts_overview(struct report_ctx *r)
{
	static const char *const hdr[] = { "workload", "config", "context", "runs",
		"delay p50 (us)", "delay p99 (us)", "delay p99.9 (us)", "runtime p50 (us)",
		"runtime p99 (us)", "lost", "unmatched" };
	struct hist *h = malloc(SM_NR * sizeof(*h));
	uint64_t runs;
	size_t i, k;

	if (!h) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	doc_details(&r->doc, 3, "contexts", false, "Deferred work by execution context, every "
		    "workload and configuration");
	doc_p(&r->doc, "Deferred work by execution context under the same load: every place the "
	      "kernel ran it (names merged, %ss pooled). Delay: softirq raise -> "
	      "entry, tasklet raise -> tasklet_entry, napi/irq thread sched_wakeup -> running, "
	      "workqueue queue_work -> execute_start; napi polls have a runtime only. A "
	      "configuration that moves work (napi=threaded) shows it leaving one row and "
	      "arriving in another; the per-workload tables name each context.", r->unit);
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n; i++) {
		const struct cellset *s = &r->cs.s[i];

		if (!set_has_contexts(s)) {
			overview_old(r, s, h);
			continue;
		}
		for (k = 0; k < CKR_NR; k++) {
			hist_init(&h[SM_DELAY]);
			hist_init(&h[SM_RUNTIME]);
			if (rep_ctx_kind_pooled(s, &rep_ctx_kind_rows[k], -1, h, &runs) && runs)
				overview_row(r, s, rep_ctx_kind_rows[k].label, h, runs);
		}
	}
	doc_table_end(&r->doc);
	doc_details_end(&r->doc);
	free(h);
}

/* ctx_keys - the set's contexts (stat p50, delay), busiest first, at most max */
static size_t ctx_keys(const struct cellset *s, struct metric_key *out, size_t max)
{
	size_t n = aggr_top_groups(s, MS_CONTEXT, SM_DELAY, false, out, max);
	struct metric_key more[64];
	size_t i, j, m;

	/* contexts without delays (napi polls, hard irqs) rank by their runtimes */
	m = aggr_top_groups(s, MS_CONTEXT, SM_RUNTIME, false, more, ARRAY_SIZE(more));
	for (i = 0; i < m && n < max; i++) {
		for (j = 0; j < n && !(!strcmp(out[j].name, more[i].name) &&
				      !strcmp(out[j].func, more[i].func) &&
				      !strcmp(out[j].pool, more[i].pool)); j++)
			;
		if (j == n) {
			out[n] = more[i];
			out[n++].sub = SM_DELAY;
		}
	}
	return n;
}

/* ctx_totals - a context's runs and, for napi polls, packets and full budgets */
static void ctx_totals(const struct cellset *s, const struct metric_key *k, uint64_t *runs,
		       uint64_t *work, uint64_t *full)
{
	size_t i;

	*runs = *work = *full = 0;
	for (i = 0; i < s->n; i++) {
		const struct ctx_data *c;

		if (!s->cell[i]->ok)
			continue;
		c = record_ctx(&s->cell[i]->rec, k->name, k->func, k->pool);
		if (!c)
			continue;
		*runs += c->count;
		*work += c->work;
		*full += c->budget_full;
	}
}

static void ctx_csv(struct report_ctx *r, const struct cellset *s, const struct metric_key *k,
		    const struct figure *f, int m, uint64_t runs)
{
	struct csvw *w = &r->tab[TAB_CONTEXTS];

	csvw_str(w, s->workload);
	csvw_str(w, s->config);
	csvw_str(w, k->name);
	csvw_str(w, k->func);
	csvw_str(w, k->pool);
	csvw_str(w, record_sirq_metric_names[m]);
	csvw_u64(w, runs);
	rep_csv_figure(w, f);
}

/* ctx_row - one context's figures into contexts.csv (csv), or into the document */
static void ctx_row(struct report_ctx *r, const struct cellset *s, struct metric_key *k,
		    bool csv)
{
	char c[7][48], note[96] = "", lost[32], un[32], flags[64];
	struct figure f[SM_NR];
	bool have[SM_NR];
	uint64_t runs, work, full;
	int m;

	ctx_totals(s, k, &runs, &work, &full);
	for (m = 0; m < SM_NR; m++) {
		k->sub = m;
		have[m] = !aggr_figure_get(s, k, &f[m]);
		if (have[m] && csv)
			ctx_csv(r, s, k, &f[m], m, runs);
	}
	if (csv || (!have[SM_DELAY] && !have[SM_RUNTIME]))
		return;
	snprintf(c[0], 48, "%llu", (unsigned long long)runs);
	strcpy(c[1], "-");
	strcpy(c[2], "-");
	strcpy(c[3], "-");
	if (have[SM_DELAY]) {
		aggr_fmt_pooled(&f[SM_DELAY], MST_P50, c[1], 48);
		aggr_fmt_pooled(&f[SM_DELAY], MST_P99, c[2], 48);
		fmt_us(f[SM_DELAY].pooled_ok ? (double)f[SM_DELAY].pooled.p999 : NAN, c[3], 48);
	}
	strcpy(c[4], "-");
	if (have[SM_RUNTIME])
		aggr_fmt_pooled(&f[SM_RUNTIME], MST_P99, c[4], 48);
	if (!strcmp(k->name, "napi_poll") && runs)
		snprintf(note, sizeof(note), "%.1f packets/poll, %.0f%% at full budget",
			 (double)work / (double)runs, 100.0 * (double)full / (double)runs);
	rep_counts(&f[have[SM_DELAY] ? SM_DELAY : SM_RUNTIME], lost, un, sizeof(lost));
	doc_row(&r->doc, (const char *const[]){ s->config, k->name, k->func, k->pool, c[0], c[1],
		c[2], c[3], c[4], note, lost, un,
		aggr_fmt_flags(&f[have[SM_DELAY] ? SM_DELAY : SM_RUNTIME], flags,
			       sizeof(flags)) }, 13);
}

/* Contexts per configuration in the document: the rest are in the CSV. */
#define CTX_SHOWN 8

/* A context ranked by its runs for the document's rows. */
struct ctx_rank {
	uint64_t runs;
	size_t i;
};

/* by_runs - most runs first, ties in their first order (qsort is not stable) */
static int by_runs(const void *a, const void *b)
{
	const struct ctx_rank *x = a, *y = b;

	if (x->runs != y->runs)
		return (x->runs < y->runs) - (x->runs > y->runs);
	return (x->i > y->i) - (x->i < y->i);
}

void rep_table_contexts(struct report_ctx *r, const char *wl)
{
	static const char *const hdr[] = { "config", "context", "name", "where", "runs",
		"delay p50 (us)", "delay p99 (us)", "delay p99.9 (us)", "runtime p99 (us)",
		"notes", "lost", "unmatched", "flags" };
	struct ctx_rank rk[24];
	struct metric_key k[24];
	uint64_t work, full;
	bool any = false;
	size_t i, j, n;

	for (i = 0; i < r->cs.n; i++)
		any |= !strcmp(r->cs.s[i].workload, wl) && set_has_contexts(&r->cs.s[i]);
	if (!any) {
		doc_p(&r->doc, "No execution contexts: these summary.json files were written before "
		      "deferbench recorded them.");
		return;
	}
	doc_p(&r->doc, "The %d busiest contexts of each configuration (all of them in "
	      "tables/contexts.csv).", CTX_SHOWN);
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = ctx_keys(&r->cs.s[i], k, ARRAY_SIZE(k));
		for (j = 0; j < n; j++)
			ctx_row(r, &r->cs.s[i], &k[j], true);
		/* the document: the ones that ran most, delays or not (napi polls) */
		for (j = 0; j < n; j++)
			ctx_totals(&r->cs.s[i], &k[j], &rk[j].runs, &work, &full);
		for (j = 0; j < n; j++)
			rk[j].i = j;
		qsort(rk, n, sizeof(*rk), by_runs);
		for (j = 0; j < n && j < CTX_SHOWN; j++)
			ctx_row(r, &r->cs.s[i], &k[rk[j].i], false);
	}
	doc_table_end(&r->doc);
}

/*
 * The causes of softirq delay as the report shows them: summary.json's names, in the
 * writer's order, with what each means (docs/figures.md); then the names of results
 * written before the split of 2026-12, shown as what they measured then.
 */
const struct wait_cause rep_wait_causes[] = {
	{ "hardirq", "hard interrupts" },
	{ "raised_in", "behind the handler it was raised in" },
	{ "softirq_higher", "a higher vector run first" },
	{ "softirq_lower", "a lower vector run first" },
	{ "bh_disabled", "rest of the BH-disabled section" },
	{ "bh_preempted", "BH-disabled section, its holder preempted" },
	{ "ksoftirqd_wait", "waiting for ksoftirqd to run" },
	{ "ksoftirqd_run", "ksoftirqd running other handlers" },
	{ "deferbench", "deferbench's own threads" },
	{ "other", "other" },
	/* older results */
	{ "softirq_same", "behind its own run (older capture)" },
	{ "ksoftirqd", "ksoftirqd (older capture: waiting for it and running in it)" },
};
#define NCAUSE ARRAY_SIZE(rep_wait_causes)

struct wait_sum {
	uint64_t delays, delay_ns;
	uint64_t total[NCAUSE];
	double p99[NCAUSE][STATS_MAX_N];	/* each repetition's */
	size_t np99[NCAUSE];
	struct wait_task_data task[WAIT_TASKS_KEPT];		/* summed by name */
	size_t ntask;
};

static void wait_add(struct wait_sum *w, const struct wait_data *d)
{
	size_t c, i, t;

	w->delays += d->delays;
	w->delay_ns += d->delay_ns;
	for (c = 0; c < NCAUSE; c++)
		for (i = 0; i < d->ncause; i++) {
			if (strcmp(d->cause[i].name, rep_wait_causes[c].name))
				continue;
			w->total[c] += d->cause[i].total_ns;
			if (d->cause[i].delays && w->np99[c] < STATS_MAX_N)
				w->p99[c][w->np99[c]++] = (double)d->cause[i].st.p99;
		}
	for (i = 0; i < d->ntask; i++) {
		for (t = 0; t < w->ntask && strcmp(w->task[t].task, d->task[i].task); t++)
			;
		if (t == w->ntask) {
			if (w->ntask == WAIT_TASKS_KEPT)
				continue;
			w->task[w->ntask++] = d->task[i];
			continue;
		}
		w->task[t].delays += d->task[i].delays;
		w->task[t].total_ns += d->task[i].total_ns;
	}
}

static int task_cmp(const void *a, const void *b)
{
	const struct wait_task_data *x = a, *y = b;

	return (x->total_ns < y->total_ns) - (x->total_ns > y->total_ns);
}

static void wait_csv(struct report_ctx *r, const struct cellset *s, const char *vec,
		     const struct wait_sum *w)
{
	struct csvw *f = &r->tab[TAB_WAIT];
	size_t c;

	for (c = 0; c < NCAUSE; c++) {
		if (!w->total[c] && c >= WAIT_CAUSES_NOW)
			continue;	/* an older name these results do not have */
		csvw_str(f, s->workload);
		csvw_str(f, s->config);
		csvw_str(f, vec);
		csvw_str(f, rep_wait_causes[c].name);
		csvw_u64(f, w->delays);
		csvw_u64(f, w->delay_ns);
		csvw_u64(f, w->total[c]);
		csvw_dbl(f, w->delay_ns ? (double)w->total[c] / (double)w->delay_ns : 0);
		rep_csv_ns(f, w->np99[c] ? stats_median(w->p99[c], w->np99[c]) : NAN);
		csvw_end(f);
	}
}

#define WAIT_BARS 24
/* Vectors per configuration in the document, the busiest: all of them in the CSV. */
#define VECTORS_SHOWN 5

/* The bars of the causes plot: per configuration and vector, the mean wait per cause. */
struct wait_bars {
	char label[WAIT_BARS][96];
	double v[WAIT_BARS * NCAUSE];
	size_t n;
};

/*
 * wait_row - one vector's causes into softirq_wait.csv, and when show into the table
 * and the plot; shown[c]: the columns of the table
 */
static void wait_row(struct report_ctx *r, const struct cellset *s, const char *vec,
		     const bool *shown, bool show, struct wait_bars *bars)
{
	char cell[NCAUSE][48], n[32], tasks[256], us[32];
	const char *cells[NCAUSE + 4];
	struct wait_sum *w = calloc(1, sizeof(*w));
	size_t i, c, k = 0, off = 0;

	if (!w) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;
		size_t v;

		for (v = 0; s->cell[i]->ok && v < rec->nwait; v++)
			if (!strcmp(rec->wait[v].vector, vec))
				wait_add(w, &rec->wait[v]);
	}
	if (!w->delays)
		goto out;
	wait_csv(r, s, vec, w);
	if (!show)
		goto out;
	if (bars->n < WAIT_BARS) {
		snprintf(bars->label[bars->n], sizeof(bars->label[0]), "%.40s %.40s", s->config,
			 vec);
		for (c = 0; c < NCAUSE; c++)
			bars->v[bars->n * NCAUSE + c] = (double)w->total[c] / (double)w->delays;
		bars->n++;
	}
	snprintf(n, sizeof(n), "%llu", (unsigned long long)w->delays);
	cells[k++] = s->config;
	cells[k++] = vec;
	cells[k++] = n;
	for (c = 0; c < NCAUSE; c++) {
		if (!shown[c])
			continue;
		if (!w->total[c])
			snprintf(cell[c], sizeof(cell[c]), "-");
		else
			snprintf(cell[c], sizeof(cell[c]), "%.1f%% (%s)",
				 100.0 * (double)w->total[c] / (double)w->delay_ns,
				 fmt_us(stats_median(w->p99[c], w->np99[c]), us, sizeof(us)));
		cells[k++] = cell[c];
	}
	qsort(w->task, w->ntask, sizeof(*w->task), task_cmp);
	tasks[0] = '\0';
	for (i = 0; i < w->ntask && i < 3 && off < sizeof(tasks); i++)
		off += snprintf(tasks + off, sizeof(tasks) - off, "%s%s %.1f%%", i ? ", " : "",
				w->task[i].task,
				100.0 * (double)w->task[i].total_ns / (double)w->delay_ns);
	cells[k++] = tasks;
	doc_row(&r->doc, cells, k);
out:
	free(w);
}

/* causes_shown - the causes of now, and an older one where a cell of wl has it */
static bool causes_shown(const struct report_ctx *r, const char *wl, bool *shown)
{
	bool any = false;
	size_t i, j, v, k, c;

	for (c = 0; c < NCAUSE; c++)
		shown[c] = c < WAIT_CAUSES_NOW;
	for (i = 0; i < r->cs.n; i++)
		for (j = 0; !strcmp(r->cs.s[i].workload, wl) && j < r->cs.s[i].n; j++) {
			const struct record *rec = &r->cs.s[i].cell[j]->rec;

			if (!r->cs.s[i].cell[j]->ok)
				continue;
			any |= rec->nwait > 0;
			for (v = 0; v < rec->nwait; v++)
				for (k = 0; k < rec->wait[v].ncause; k++)
					for (c = WAIT_CAUSES_NOW; c < NCAUSE; c++)
						if (!strcmp(rec->wait[v].cause[k].name,
							    rep_wait_causes[c].name))
							shown[c] = true;
		}
	return any;
}

/*
 * wait_plot - the causes as stacked bars, one per configuration and vector: the mean
 * wait per delay, split; each cause in its colour in every report
 */
static void wait_plot(struct report_ctx *r, const char *wl, const struct wait_bars *bars)
{
	struct stack_part parts[NCAUSE];
	char stem[PLOT_STEM_LEN], title[256], png[PLOT_STEM_LEN + 16], svg[PLOT_STEM_LEN + 16];
	size_t c;
	int ret;

	if (!r->o->plots || !bars->n)
		return;
	for (c = 0; c < NCAUSE; c++) {
		parts[c].title = rep_wait_causes[c].label;
		palette_pick(&r->pal, PAL_CAUSE, rep_wait_causes[c].name, &parts[c].color,
			     parts[c].key, sizeof(parts[c].key));
	}
	snprintf(stem, sizeof(stem), "causes-%.80s", wl);
	plot_sanitize(stem);
	snprintf(title, sizeof(title), "%s: why softirqs waited (mean wait per delay)", wl);
	ret = plot_stacked(&(struct plot_text){ r->plotdir, stem, title },
			   "mean wait per delay (us)", bars->label, bars->v, bars->n, parts, NCAUSE,
			   r->errbuf);
	if (ret == -ENODATA)
		return;
	if (ret) {
		r->err = r->err ?: ret;
		return;
	}
	snprintf(png, sizeof(png), "plots/%s.png", stem);
	snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
	doc_img(&r->doc, png, svg, title);
	r->nplots++;
}

/* Where a softirq was raised (summary.json's raised_in), as the report names each place. */
static const struct {
	const char *name, *label;
} raised_in[] = {
	{ "hardirq", "in a hard interrupt" },
	{ "softirq", "in a softirq handler" },
	{ "task_bh_disabled", "by a task, BH disabled" },
	{ "task", "by a task" },
};
#define NRAISED ARRAY_SIZE(raised_in)

/* share - part of all as a whole percentage; never 0% or 100% for what is not */
static const char *share(uint64_t part, uint64_t all, char *buf, size_t len)
{
	double pct = 100.0 * (double)part / (double)all;

	if (!part)
		snprintf(buf, len, "-");
	else if (pct < 1)
		snprintf(buf, len, "<1%%");
	else if (part < all && pct > 99)
		snprintf(buf, len, ">99%%");
	else
		snprintf(buf, len, "%.0f%%", pct);
	return buf;
}

/*
 * raised_row - where the delays of vector vec in s were raised, a row of the table when
 * write; false when its cells do not say (captured before the origins were kept)
 */
static bool raised_row(struct report_ctx *r, const struct cellset *s, const char *vec,
		       bool write)
{
	uint64_t n[NRAISED] = { 0 }, delays = 0, known = 0;
	char cell[NRAISED][16], nd[32];
	const char *cells[NRAISED + 3];
	size_t i, v, o, k;

	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;

		for (v = 0; s->cell[i]->ok && v < rec->nwait; v++) {
			if (strcmp(rec->wait[v].vector, vec) || !rec->wait[v].norigin)
				continue;	/* a capture older than the origins: not counted */
			delays += rec->wait[v].delays;
			for (o = 0; o < rec->wait[v].norigin; o++)
				for (k = 0; k < NRAISED; k++)
					if (!strcmp(rec->wait[v].origin[o].name, raised_in[k].name)) {
						n[k] += rec->wait[v].origin[o].delays;
						known += rec->wait[v].origin[o].delays;
					}
		}
	}
	if (!known || !write)
		return known > 0;
	snprintf(nd, sizeof(nd), "%llu", (unsigned long long)delays);
	cells[0] = s->config;
	cells[1] = vec;
	cells[2] = nd;
	for (k = 0; k < NRAISED; k++)
		cells[k + 3] = share(n[k], delays, cell[k], sizeof(cell[k]));
	doc_row(&r->doc, cells, NRAISED + 3);
	return true;
}

/* raised_table - where the delays of the vectors of the wait table were raised */
static void raised_table(struct report_ctx *r, const char *wl)
{
	struct metric_key top[NR_VECTORS_MAX];
	const char *hdr[NRAISED + 3] = { "config", "vector", "delays" };
	size_t i, j, n, k, rows;

	for (rows = 0, i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n && j < VECTORS_SHOWN; j++)
			rows += raised_row(r, &r->cs.s[i], top[j].name, false);
	}
	if (!rows)
		return;
	for (k = 0; k < NRAISED; k++)
		hdr[k + 3] = raised_in[k].label;
	doc_p(&r->doc, "Where those delays began: the share of each vector's delays raised in a "
	      "hard interrupt (irq exit usually runs it), in a softirq handler (its own "
	      "restart loop or ksoftirqd), by a task with bottom halves disabled "
	      "(local_bh_enable() runs it), or by a task (ksoftirqd or the next interrupt "
	      "runs it).");
	doc_table(&r->doc, hdr, NRAISED + 3);
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n && j < VECTORS_SHOWN; j++)
			raised_row(r, &r->cs.s[i], top[j].name, true);
	}
	doc_table_end(&r->doc);
}

void rep_table_wait(struct report_ctx *r, const char *wl)
{
	const char *hdr[NCAUSE + 4];
	struct metric_key top[NR_VECTORS_MAX];
	struct wait_bars *bars;
	bool shown[NCAUSE];
	size_t i, j, n, k = 0;

	if (!causes_shown(r, wl, shown))
		return;
	bars = calloc(1, sizeof(*bars));
	if (!bars) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	hdr[k++] = "config";
	hdr[k++] = "vector";
	hdr[k++] = "delays";
	for (i = 0; i < NCAUSE; i++)
		if (shown[i])
			hdr[k++] = rep_wait_causes[i].label;
	hdr[k++] = "BH disabled by (share of the delay)";
	doc_h(&r->doc, 3, "%s: why softirqs waited", wl);
	doc_p(&r->doc, "Each softirq delay (raise -> entry on one CPU) split into causes that add "
	      "up to it: the share of the vector's total delay, and in brackets the median over "
	      "%ss of the p99 of that part, in us, over the delays where it was present. "
	      "Behind the handler it was raised in: the rest of a handler that was running at "
	      "the raise (no vector interrupts another, so this is not an inversion). Rest of "
	      "the BH-disabled section: from the raise to local_bh_enable() of the task named at "
	      "the end. docs/figures.md defines each. Summed over the %ss; the %d busiest "
	      "vectors of each configuration (all in tables/softirq_wait.csv).", r->unit,
	      r->unit, VECTORS_SHOWN);
	doc_table(&r->doc, hdr, k);
	for (i = 0; i < r->cs.n; i++) {
		if (strcmp(r->cs.s[i].workload, wl))
			continue;
		n = aggr_top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n && !r->err; j++)
			wait_row(r, &r->cs.s[i], top[j].name, shown, j < VECTORS_SHOWN, bars);
	}
	doc_table_end(&r->doc);
	raised_table(r, wl);
	/* drawn with the workload's other plots (rep_plots_wait) */
	free(r->wait_bars);
	r->wait_bars = bars;
}

void rep_plots_wait_drop(struct report_ctx *r)
{
	free(r->wait_bars);
	r->wait_bars = NULL;
}

void rep_plots_wait(struct report_ctx *r, const char *wl)
{
	if (r->wait_bars && !r->err)
		wait_plot(r, wl, r->wait_bars);
	free(r->wait_bars);
	r->wait_bars = NULL;
}
