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

int rep_plot_box(struct report_ctx *r, const struct cellset *s, const struct metric_key *k,
	     struct box *b)
{
	struct metric_key kk = *k;
	uint64_t count;
	struct hist *h;
	size_t i;
	double v;

	memset(b, 0, sizeof(*b));
	h = malloc(sizeof(*h));
	if (!h)
		return -ENOMEM;
	hist_init(h);
	if (cellset_pooled_verdict(s, k, h) || !h->count) {
		free(h);
		return -ENODATA;
	}
	b->p1 = (double)hist_percentile_mid(h, 0.01);
	b->p25 = (double)hist_percentile_mid(h, 0.25);
	b->p50 = (double)hist_percentile_mid(h, 0.50);
	b->p75 = (double)hist_percentile_mid(h, 0.75);
	b->p99 = (double)hist_percentile_mid(h, 0.99);
	b->p999 = (double)hist_percentile_mid(h, 0.999);
	/* every box says how many samples it stands on */
	b->n = h->count;
	snprintf(b->label, sizeof(b->label), "%.40s\nn=%llu", s->config,
		 (unsigned long long)h->count);
	free(h);
	palette_pick(&r->pal, PAL_CONFIG, s->config, &b->color, b->key, sizeof(b->key));
	snprintf(b->legend, sizeof(b->legend), "%s", s->config);
	kk.stat = MST_P99;
	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && !metric_value(&s->cell[i]->rec, &kk, &v, &count) && count)
			b->rep_p99[b->nrep++] = v;
	return 0;
}

/* ladder - k (a metric of wl) across wl's configurations, one box each */
static void ladder(struct report_ctx *r, const char *wl, const struct metric_key *k,
		   const char *what, const char *title)
{
	const struct ladder_axes ax = { "configuration", "latency (us, log scale)",
					r->unit };
	const struct cellset *cfg[MAX_CFG];
	struct box *b;
	size_t i, n, nb = 0;
	char stem[PLOT_STEM_LEN];
	int ret = -ENODATA, e;

	n = configs_of(r, wl, cfg);
	b = calloc(n ? n : 1, sizeof(*b));
	if (!b) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	for (i = 0; i < n; i++) {
		e = rep_plot_box(r, cfg[i], k, &b[nb]);
		if (e == -ENOMEM)
			r->err = r->err ?: e;
		nb += !e;
	}
	stem_of(stem, "ladder", wl, what);
	if (nb)
		ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, title }, &ax, b, nb,
				  r->errbuf);
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
		/* short, so that two columns fit below a plot of 640 pixels: the blocks or
		 * repetitions pooled only when some did not finish */
		if (cellset_ok(cfg[i]) == cfg[i]->n)
			snprintf(s[ns].title, sizeof(s[ns].title), "%s (n=%llu)", cfg[i]->config,
				 (unsigned long long)h[ns].count);
		else
			snprintf(s[ns].title, sizeof(s[ns].title), "%s (n=%llu, %zu/%zu %ss)",
				 cfg[i]->config, (unsigned long long)h[ns].count,
				 cellset_ok(cfg[i]), cfg[i]->n, r->unit);
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

/* Single repetitions drawn thin up to this many per configuration (not 20 blocks). */
#define THIN_MAX 5

void rep_plots_workload(struct report_ctx *r, const char *wl, const char *metric)
{
	const size_t max = MAX_CFG * (THIN_MAX + 1);
	const struct cellset *cfg[MAX_CFG];
	struct metric_key k = { .src = MS_WORKLOAD };
	char stem[PLOT_STEM_LEN], title[256];
	struct series *s;
	struct hist *h;
	size_t n, ns, i;
	bool thin = true;

	if (!r->o->plots)
		return;
	snprintf(k.name, sizeof(k.name), "%s", metric);
	n = configs_of(r, wl, cfg);
	for (i = 0; i < n; i++)
		thin &= cfg[i]->n <= THIN_MAX;
	s = calloc(max, sizeof(*s));
	h = malloc(max * sizeof(*h));
	if (!s || !h) {
		r->err = r->err ?: -ENOMEM;
		goto out;
	}
	ns = dist_series(r, cfg, n, &k, thin, s, h, max);
	stem_of(stem, "pctl", wl, metric);
	snprintf(title, sizeof(title), "%s: %s by configuration%s%s%s", wl, metric,
		 thin ? " (thin: each " : "", thin ? r->unit : "", thin ? ")" : "");
	show(r, plot_percentiles(&(struct plot_text){ r->plotdir, stem, title }, s, ns,
				 r->errbuf), stem, title);
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

	n = aggr_top_groups(c, MS_CONTEXT, SM_DELAY, false, top, ARRAY_SIZE(top));
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
		if (!aggr_cellset_pooled_all(c, src, sirq ? SM_DELAY : WM_DELAY, &h[ns])) {
			s[ns] = (struct series){ .h = &h[ns], .dash = sirq ? 1 : 2 };
			paint(r, PAL_WORK, sirq ? "all softirqs" : "all work items", &s[ns]);
			snprintf(s[ns].title, sizeof(s[ns].title), "%s",
				 sirq ? "softirq, all vectors" : "workqueue, all items");
			ns++;
		}
		n = aggr_top_groups(c, src, sirq ? SM_DELAY : WM_DELAY, false, top, 2);
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

static void deferred_overlay(struct report_ctx *r, const struct cellset *c)
{
	char stem[PLOT_STEM_LEN], title[256];
	struct series s[6];
	struct hist *h;
	size_t ns;

	h = malloc(ARRAY_SIZE(s) * sizeof(*h));
	if (!h) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	ns = deferred_series(r, c, s, h);
	stem_of(stem, "deferred", c->workload, c->config);
	snprintf(title, sizeof(title), "%s / %s: the busiest deferred work's wait",
		 c->workload, c->config);
	show(r, plot_percentiles(&(struct plot_text){ r->plotdir, stem, title }, s, ns,
				 r->errbuf), stem, title);
	free(h);
}

/* kind_box - pooled percentiles and each repetition's p99 of a kind of context */
static int kind_box(struct report_ctx *r, const struct cellset *s, const struct ctx_kind_row *k,
		    int sub, struct box *b)
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
	if (!rep_ctx_kind_pooled(s, k, -1, h, &runs) || h[sub].count < 50)
		goto out;
	b->p1 = (double)hist_percentile_mid(&h[sub], 0.01);
	b->p25 = (double)hist_percentile_mid(&h[sub], 0.25);
	b->p50 = (double)hist_percentile_mid(&h[sub], 0.50);
	b->p75 = (double)hist_percentile_mid(&h[sub], 0.75);
	b->p99 = (double)hist_percentile_mid(&h[sub], 0.99);
	b->p999 = (double)hist_percentile_mid(&h[sub], 0.999);
	b->n = h[sub].count;
	for (i = 0; i < s->n; i++) {
		hist_init(&h[0]);
		hist_init(&h[1]);
		if (rep_ctx_kind_pooled(s, k, (int)i, h, &runs) && h[sub].count)
			b->rep_p99[b->nrep++] = (double)hist_percentile_mid(&h[sub], 0.99);
	}
	snprintf(b->label, sizeof(b->label), "%.40s\nn=%llu", s->config,
		 (unsigned long long)b->n);
	/* coloured by where it ran; the boxes of one kind stand together */
	palette_pick(&r->pal, PAL_PLACE, k->place, &b->color, b->key, sizeof(b->key));
	snprintf(b->legend, sizeof(b->legend), "%s", k->place);
	snprintf(b->group, sizeof(b->group), "%s", k->label);
	ret = 0;
out:
	free(h);
	return ret;
}

/*
 * ctx_ladder - the kinds of context given, each across the configurations: where work
 * moved (softirq under one configuration, napi threads under another), its boxes stand
 * side by side, each place in its colour
 */
static void ctx_ladder(struct report_ctx *r, const char *wl, int sub, const int *kinds,
		       size_t nkinds, const char *what, const char *title)
{
	const struct ladder_axes ax = { "configuration, under the kind of context it ran in",
					"latency (us, log scale)", r->unit };
	const struct cellset *cfg[MAX_CFG];
	char stem[PLOT_STEM_LEN];
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
			e = kind_box(r, cfg[i], &rep_ctx_kind_rows[kinds[j]], sub, &b[nb]);
			if (e == -ENOMEM)
				r->err = r->err ?: e;
			nb += !e;
		}
	stem_of(stem, "ladder", wl, what);
	if (nb)
		ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, title }, &ax, b, nb,
				  r->errbuf);
	/* napi polls run only where a workload receives packets: no note elsewhere */
	if (ret != -ENODATA || sub == SM_DELAY)
		show(r, ret, stem, title);
	free(b);
}

/*
 * rep_plots_contexts - the places this workload's deferred work ran in, delay and (napi
 * polls) runtime: one kind of context per place, so a colour is one place
 */
void rep_plots_contexts(struct report_ctx *r, const char *wl, bool polls)
{
	static const int delay[] = { CKR_SIRQ_INLINE, CKR_SIRQ_KSOFTIRQD, CKR_NAPI_THREAD,
		CKR_IRQ_THREAD, CKR_TASKLET, CKR_WQ };
	static const int runtime[] = { CKR_POLL_SOFTIRQ, CKR_POLL_KSOFTIRQD, CKR_POLL_THREAD,
		CKR_POLL_BUSY };
	char title[256];

	if (!r->o->plots)
		return;
	snprintf(title, sizeof(title), "%s: deferred work's delay by where it ran", wl);
	ctx_ladder(r, wl, SM_DELAY, delay, ARRAY_SIZE(delay), "contexts-delay", title);
	snprintf(title, sizeof(title), "%s: napi poll runtime by where it ran", wl);
	/* the machine's own napi polls (its network card) are no workload's: shown where
	 * the workload drives the NET_RX work */
	if (polls)
		ctx_ladder(r, wl, SM_RUNTIME, runtime, ARRAY_SIZE(runtime), "contexts-runtime",
			   title);
}

void rep_plots_driven(struct report_ctx *r, const char *wl, const struct driven *d)
{
	char what[FUNC_LEN + 16], title[512];

	if (!r->o->plots)
		return;
	snprintf(what, sizeof(what), "work-%s", d->name);
	snprintf(title, sizeof(title), "%s: wait of %s, the work it drives", wl, d->name);
	ladder(r, wl, &d->k, what, title);
}

/*
 * rep_plots_deferred - the busiest execution contexts of a workload's only configuration,
 * side by side: what else waited under the same load
 */
void rep_plots_deferred(struct report_ctx *r, const char *wl)
{
	const struct cellset *cfg[MAX_CFG];

	/* with several configurations the contexts ladder compares them already */
	if (r->o->plots && configs_of(r, wl, cfg) == 1)
		deferred_overlay(r, cfg[0]);
}
