// SPDX-License-Identifier: GPL-2.0
/*
 * rep_plots.c - which plots the report draws, from which data, and where the document
 * shows them. A plot is referenced only once gnuplot has written it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_kinds.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "common.h"

#define MAX_CFG 16

/* show - reference a plot that was drawn; an empty plot is a note, a failure an error */
static void show(struct report_ctx *r, int ret, const char *stem, const char *alt)
{
	char png[PLOT_STEM_LEN + 16], svg[PLOT_STEM_LEN + 16];

	if (ret == -ENODATA) {
		doc_p(&r->doc, "(%s: no histogram data, plot omitted)", alt);
		return;
	}
	if (ret) {
		r->err = r->err ?: ret;
		return;
	}
	snprintf(png, sizeof(png), "plots/%s.png", stem);
	snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
	doc_img(&r->doc, png, svg, alt);
	r->nplots++;
}

/* stem_of - the plot file stem for kind/workload/what */
static void stem_of(char *stem, const char *kind, const char *wl, const char *what)
{
	snprintf(stem, PLOT_STEM_LEN, "%s-%.40s-%.80s", kind, wl, what);
	plot_sanitize(stem);
}

static size_t configs_of(const struct report_ctx *r, const char *wl,
			 const struct cellset **out)
{
	size_t i, n = 0;

	for (i = 0; i < r->cs.n && n < MAX_CFG; i++)
		if (!strcmp(r->cs.s[i].workload, wl))
			out[n++] = &r->cs.s[i];
	return n;
}

/* box_of - pooled percentiles and each usable repetition's p99 of k in a set */
static int box_of(const struct cellset *s, const struct metric_key *k, struct box *b)
{
	struct metric_key kk = *k;
	uint64_t count;
	struct hist *h;
	size_t i;
	double v;

	memset(b, 0, sizeof(*b));
	snprintf(b->label, sizeof(b->label), "%s", s->config);
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	hist_init(h);
	if (cellset_pooled(s, k, h) || !h->count) {
		free(h);
		return -ENODATA;
	}
	b->p1 = (double)hist_percentile(h, 0.01);
	b->p25 = (double)hist_percentile(h, 0.25);
	b->p50 = (double)hist_percentile(h, 0.50);
	b->p75 = (double)hist_percentile(h, 0.75);
	b->p99 = (double)hist_percentile(h, 0.99);
	b->p999 = (double)hist_percentile(h, 0.999);
	/* every box says how many samples it stands on */
	snprintf(b->label, sizeof(b->label), "%.40s (n=%llu)", s->config,
		 (unsigned long long)h->count);
	free(h);
	kk.stat = MST_P99;
	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && !metric_value(&s->cell[i]->rec, &kk, &v, &count) && count)
			b->rep_p99[b->nrep++] = v;
	return 0;
}

static void ladder(struct report_ctx *r, const char *wl, const struct metric_key *k,
		   const char *what, const char *title)
{
	const struct cellset *cfg[MAX_CFG];
	struct box *b;
	size_t i, n, nb = 0;
	char stem[PLOT_STEM_LEN];
	int ret = -ENODATA;

	n = configs_of(r, wl, cfg);
	b = calloc(n ? n : 1, sizeof(*b));
	if (!b) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	for (i = 0; i < n; i++)
		nb += !box_of(cfg[i], k, &b[nb]);
	stem_of(stem, "ladder", wl, what);
	if (nb)
		ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, title },
				  "latency (us, log scale)", b, nb, r->errbuf);
	show(r, ret, stem, title);
	free(b);
}

/* paint - a series' colour and key: the thing's, the same in every plot of the report */
static void paint(struct report_ctx *r, enum pal_space sp, const char *name, struct series *s)
{
	palette_pick(&r->pal, sp, name, &s->color, s->key, sizeof(s->key));
}

/* dist_series - pooled (titled) and per-repetition (thin) histograms per configuration */
static size_t dist_series(struct report_ctx *r, const struct cellset **cfg, size_t n,
			  const struct metric_key *k, bool reps, struct series *s, struct hist *h,
			  size_t max)
{
	size_t i, j, ns = 0;

	for (i = 0; i < n && ns < max; i++) {
		hist_init(&h[ns]);
		if (cellset_pooled(cfg[i], k, &h[ns]))
			continue;
		s[ns] = (struct series){ .h = &h[ns], .dash = 1 };
		paint(r, PAL_CONFIG, cfg[i]->config, &s[ns]);
		snprintf(s[ns].title, sizeof(s[ns].title), "%s (%zu of %zu reps pooled, n=%llu)",
			 cfg[i]->config, cellset_ok(cfg[i]), cfg[i]->n,
			 (unsigned long long)h[ns].count);
		ns++;
		for (j = 0; reps && j < cfg[i]->n && ns < max; j++) {
			hist_init(&h[ns]);
			if (!cfg[i]->cell[j]->ok || metric_hist(&cfg[i]->cell[j]->rec, k, &h[ns]))
				continue;
			s[ns] = (struct series){ .h = &h[ns], .color = s[ns - 1].color,
						 .dash = 1 };
			ns++;
		}
	}
	return ns;
}

void plots_workload(struct report_ctx *r, const char *wl, const char *metric)
{
	const size_t max = MAX_CFG * 9;
	const struct cellset *cfg[MAX_CFG];
	struct metric_key k = { .src = MS_WORKLOAD };
	char stem[PLOT_STEM_LEN], title[256];
	struct series *s;
	struct hist *h;
	size_t n, ns;

	if (!r->o->plots)
		return;
	snprintf(k.name, sizeof(k.name), "%s", metric);
	n = configs_of(r, wl, cfg);
	s = calloc(max, sizeof(*s));
	h = malloc(max * sizeof(*h));
	if (!s || !h) {
		r->err = r->err ?: -ENOMEM;
		goto out;
	}
	ns = dist_series(r, cfg, n, &k, true, s, h, max);
	stem_of(stem, "pctl", wl, metric);
	snprintf(title, sizeof(title), "%s: %s latency by configuration (thin: single "
		 "repetitions)", wl, metric);
	show(r, plot_percentiles(&(struct plot_text){ r->plotdir, stem, title }, s, ns,
				 r->errbuf), stem, title);
	ns = dist_series(r, cfg, n, &k, false, s, h, max);
	stem_of(stem, "hist", wl, metric);
	snprintf(title, sizeof(title), "%s: %s latency histogram by configuration", wl, metric);
	show(r, plot_histogram(&(struct plot_text){ r->plotdir, stem, title }, s, ns,
			       r->errbuf), stem, title);
	snprintf(title, sizeof(title), "%s: %s latency across configurations", wl, metric);
	ladder(r, wl, &k, metric, title);
out:
	free(s);
	free(h);
}

/*
 * context_series - the delay of the set's five busiest execution contexts: coloured by
 * the work (vector, function, thread), dashed for a workqueue
 */
static size_t context_series(struct report_ctx *r, const struct cellset *c, struct series *s,
			     struct hist *h)
{
	struct metric_key top[5];
	size_t ns = 0, i, n;

	n = top_groups(c, MS_CONTEXT, SM_DELAY, false, top, ARRAY_SIZE(top));
	for (i = 0; i < n; i++) {
		hist_init(&h[ns]);
		if (cellset_pooled(c, &top[i], &h[ns]))
			continue;
		s[ns] = (struct series){ .h = &h[ns],
					 .dash = strcmp(top[i].name, "workqueue") ? 1 : 2 };
		paint(r, PAL_WORK, top[i].func, &s[ns]);
		snprintf(s[ns].title, sizeof(s[ns].title), "%s %s%s%s (n=%llu)", top[i].name,
			 top[i].func, top[i].pool[0] ? " " : "", top[i].pool,
			 (unsigned long long)h[ns].count);
		ns++;
	}
	return ns;
}

/* deferred_series - softirq (solid) and workqueue (dashed) delay of one set: everything
 * merged, then the two busiest vectors and work functions; by execution context when the
 * set's records have them */
static size_t deferred_series(struct report_ctx *r, const struct cellset *c, struct series *s,
			      struct hist *h)
{
	struct metric_key top[2];
	size_t ns = 0, i, n;
	int src;

	for (i = 0; i < c->n; i++)
		if (c->cell[i]->ok && c->cell[i]->rec.has_contexts)
			return context_series(r, c, s, h);

	for (src = MS_SOFTIRQ; src <= MS_WQ; src++) {
		bool sirq = src == MS_SOFTIRQ;

		hist_init(&h[ns]);
		if (!cellset_pooled_all(c, src, sirq ? SM_DELAY : WM_DELAY, &h[ns])) {
			s[ns] = (struct series){ .h = &h[ns], .dash = sirq ? 1 : 2 };
			paint(r, PAL_WORK, sirq ? "all softirqs" : "all work items", &s[ns]);
			snprintf(s[ns].title, sizeof(s[ns].title), "%s",
				 sirq ? "softirq, all vectors" : "workqueue, all items");
			ns++;
		}
		n = top_groups(c, src, sirq ? SM_DELAY : WM_DELAY, false, top, 2);
		for (i = 0; i < n; i++) {
			hist_init(&h[ns]);
			if (cellset_pooled(c, &top[i], &h[ns]))
				continue;
			s[ns] = (struct series){ .h = &h[ns], .dash = sirq ? 1 : 2 };
			paint(r, PAL_WORK, sirq ? top[i].name : top[i].func, &s[ns]);
			snprintf(s[ns].title, sizeof(s[ns].title), sirq ? "softirq %s" :
				 "wq %s: %s", top[i].name, top[i].func);
			ns++;
		}
	}
	return ns;
}

static void deferred_overlays(struct report_ctx *r, const char *wl)
{
	const struct cellset *cfg[MAX_CFG];
	char stem[PLOT_STEM_LEN], title[256];
	struct series s[6];
	struct hist *h;
	size_t i, n;

	h = malloc(ARRAY_SIZE(s) * sizeof(*h));
	if (!h) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	n = configs_of(r, wl, cfg);
	for (i = 0; i < n; i++) {
		size_t ns = deferred_series(r, cfg[i], s, h);

		stem_of(stem, "deferred", wl, cfg[i]->config);
		snprintf(title, sizeof(title), "%s / %s: deferred work's delay under the same "
			 "load (%zu of %zu reps pooled)", wl, cfg[i]->config,
			 cellset_ok(cfg[i]), cfg[i]->n);
		show(r, plot_percentiles(&(struct plot_text){ r->plotdir, stem, title }, s, ns,
					 r->errbuf), stem, title);
	}
	free(h);
}

/* kind_box - pooled percentiles and each repetition's p99 of a kind of context */
static int kind_box(const struct cellset *s, const struct ctx_kind_row *k, int sub,
		    struct box *b)
{
	struct hist *h = malloc(SM_NR * sizeof(*h));
	uint64_t runs;
	size_t i;
	int ret = -ENODATA;

	memset(b, 0, sizeof(*b));
	if (!h)
		return -ENOMEM;
	hist_init(&h[0]);
	hist_init(&h[1]);
	/* a box of fewer than 50 samples says little: left out */
	if (!ctx_kind_pooled(s, k, -1, h, &runs) || h[sub].count < 50)
		goto out;
	b->p1 = (double)hist_percentile(&h[sub], 0.01);
	b->p25 = (double)hist_percentile(&h[sub], 0.25);
	b->p50 = (double)hist_percentile(&h[sub], 0.50);
	b->p75 = (double)hist_percentile(&h[sub], 0.75);
	b->p99 = (double)hist_percentile(&h[sub], 0.99);
	b->p999 = (double)hist_percentile(&h[sub], 0.999);
	for (i = 0; i < s->n; i++) {
		hist_init(&h[0]);
		hist_init(&h[1]);
		if (ctx_kind_pooled(s, k, (int)i, h, &runs) && h[sub].count)
			b->rep_p99[b->nrep++] = (double)hist_percentile(&h[sub], 0.99);
	}
	snprintf(b->label, sizeof(b->label), "%.20s: %.40s (n=%llu)", s->config, k->label,
		 (unsigned long long)h[sub].count);
	ret = 0;
out:
	free(h);
	return ret;
}

/*
 * ctx_ladder - the kinds of context given, each across the configurations: where work
 * moved (NET_RX softirq under one configuration, napi threads under another), its boxes
 * stand side by side
 */
static void ctx_ladder(struct report_ctx *r, const char *wl, int sub, const int *kinds,
		       size_t nkinds, const char *what, const char *title)
{
	const struct cellset *cfg[MAX_CFG];
	char stem[PLOT_STEM_LEN], full[320];
	bool netrx = false, napi = false;
	size_t n, i, j, nb = 0;
	struct box *b;
	int ret = -ENODATA, e;

	n = configs_of(r, wl, cfg);
	b = calloc(16, sizeof(*b));
	if (!b) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	for (j = 0; j < nkinds; j++)
		for (i = 0; i < n && nb < 16; i++) {
			e = kind_box(cfg[i], &ctx_kind_rows[kinds[j]], sub, &b[nb]);
			if (e == -ENOMEM)
				r->err = r->err ?: e;
			if (!e && (kinds[j] == CKR_NET_RX_INLINE || kinds[j] == CKR_NET_RX_KSOFTIRQD))
				netrx = true;
			if (!e && kinds[j] == CKR_NAPI_THREAD)
				napi = true;
			nb += !e;
		}
	/* say NET_RX moved only where the plot shows it in both places */
	snprintf(full, sizeof(full), "%s%s", title,
		 netrx && napi ? " (NET_RX softirq next to napi threads)" : "");
	stem_of(stem, "ladder", wl, what);
	if (nb)
		ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, full },
				  "latency (us, log scale)", b, nb, r->errbuf);
	show(r, ret, stem, full);
	free(b);
}

void plots_contexts(struct report_ctx *r, const char *wl)
{
	static const int delay[] = { CKR_NET_RX_INLINE, CKR_NET_RX_KSOFTIRQD, CKR_NAPI_THREAD,
		CKR_IRQ_THREAD, CKR_TASKLET, CKR_SIRQ_INLINE, CKR_SIRQ_KSOFTIRQD, CKR_WQ };
	static const int runtime[] = { CKR_POLL_SOFTIRQ, CKR_POLL_KSOFTIRQD, CKR_POLL_THREAD,
		CKR_POLL_BUSY, CKR_NET_RX_INLINE, CKR_NAPI_THREAD };
	char title[256];

	if (!r->o->plots)
		return;
	snprintf(title, sizeof(title), "%s: delay per execution context and configuration", wl);
	ctx_ladder(r, wl, SM_DELAY, delay, ARRAY_SIZE(delay), "contexts-delay", title);
	snprintf(title, sizeof(title), "%s: runtime per execution context and configuration "
		 "(napi polls: per poll; threads: per time on the CPU)", wl);
	ctx_ladder(r, wl, SM_RUNTIME, runtime, ARRAY_SIZE(runtime), "contexts-runtime", title);
}

void plots_deferred(struct report_ctx *r, const char *wl)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	struct metric_key top;
	char what[NAME_LEN + FUNC_LEN + 16], title[256];

	if (!r->o->plots || !ref)
		return;
	deferred_overlays(r, wl);
	if (top_groups(ref, MS_SOFTIRQ, SM_DELAY, false, &top, 1)) {
		snprintf(what, sizeof(what), "softirq-%s-delay", top.name);
		snprintf(title, sizeof(title), "%s: %s softirq delay across configurations",
			 wl, top.name);
		ladder(r, wl, &top, what, title);
	}
	if (top_groups(ref, MS_WQ, WM_DELAY, false, &top, 1)) {
		snprintf(what, sizeof(what), "wq-%s-delay", top.func);
		snprintf(title, sizeof(title), "%s: workqueue %s (%s) delay across "
			 "configurations", wl, top.func, top.name);
		ladder(r, wl, &top, what, title);
	}
}
