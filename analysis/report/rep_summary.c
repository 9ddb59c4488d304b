// SPDX-License-Identifier: GPL-2.0
/*
 * rep_summary.c - the report's first screen: per workload, where its deferred work ran
 * and how long it waited there (softirq inline, in ksoftirqd, napi threads, workqueue
 * pools), the workqueue-to-softirq ratio, and the advice; then the table of contents.
 * The detail, the cells and the run's metadata come below it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "plot.h"
#include "plot_kinds.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"

#define MAX_BOXES 16

/* The places the summary names, in its column order. */
static const int places[] = { CKR_SIRQ_INLINE, CKR_SIRQ_KSOFTIRQD, CKR_NAPI_THREAD, CKR_WQ };
#define NPLACES ARRAY_SIZE(places)

/* place_cell - "p50 / p99 (n)" of the delay in one place, "-" when nothing ran there */
static double place_cell(const struct cellset *s, int kind, char *buf, size_t len)
{
	struct hist *h = malloc(SM_NR * sizeof(*h));
	char a[32], b[32];
	uint64_t runs;
	double p99 = NAN;

	snprintf(buf, len, "-");
	if (!h)
		return NAN;
	hist_init(&h[0]);
	hist_init(&h[1]);
	if (ctx_kind_pooled(s, &ctx_kind_rows[kind], -1, h, &runs) && h[SM_DELAY].count) {
		p99 = (double)hist_percentile(&h[SM_DELAY], 0.99);
		snprintf(buf, len, "%s / %s (%llu)",
			 fmt_us((double)hist_percentile(&h[SM_DELAY], 0.5), a, sizeof(a)),
			 fmt_us(p99, b, sizeof(b)), (unsigned long long)h[SM_DELAY].count);
	}
	free(h);
	return p99;
}

/* pooled_cell - the same from the softirq or workqueue groups (results without contexts) */
static double pooled_cell(const struct cellset *s, enum msrc src, char *buf, size_t len)
{
	struct hist *h = malloc(sizeof(*h));
	char a[32], b[32];
	double p99 = NAN;

	snprintf(buf, len, "-");
	if (!h)
		return NAN;
	hist_init(h);
	if (!cellset_pooled_all(s, src, src == MS_SOFTIRQ ? SM_DELAY : WM_DELAY, h) && h->count) {
		p99 = (double)hist_percentile(h, 0.99);
		snprintf(buf, len, "%s / %s (%llu)", fmt_us((double)hist_percentile(h, 0.5), a,
							    sizeof(a)),
			 fmt_us(p99, b, sizeof(b)), (unsigned long long)h->count);
	}
	free(h);
	return p99;
}

static bool has_contexts(const struct cellset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && s->cell[i]->rec.has_contexts)
			return true;
	return false;
}

/*
 * drives - the deferred work wl is run for, from its primary metrics ("softirq NET_RX,
 * wq flush_to_ldisc"); *wq: one of them is a workqueue's
 */
/* work_on_wq - does the work metric name of wl have a workqueue among its members */
static bool work_on_wq(const struct report_ctx *r, const char *wl, const char *name)
{
	size_t i, j, k, m;

	for (i = 0; i < r->cs.n; i++)
		for (j = 0; !strcmp(r->cs.s[i].workload, wl) && j < r->cs.s[i].n; j++) {
			const struct wl_data *d = &r->cs.s[i].cell[j]->rec.wl;

			for (k = 0; k < d->nwork; k++)
				for (m = 0; !strcmp(d->work[k].name, name) && m < d->work[k].nmember;
				     m++)
					if (!strncmp(d->work[k].member[m], "wq:", 3))
						return true;
		}
	return false;
}

static void drives(const struct report_ctx *r, const struct advice *a, const char *wl,
		   char *buf, size_t len, bool *wq)
{
	const struct adv_workload *w = NULL;
	size_t i, off = 0;

	buf[0] = '\0';
	*wq = false;
	for (i = 0; a && i < a->n && !w; i++)
		if (!strcmp(a->wl[i].workload, wl))
			w = &a->wl[i];
	for (i = 0; w && i < w->nprim && off < len; i++) {
		const struct metric_key *k = &w->prim[i];
		const char *name = k->src == MS_SOFTIRQ ? k->name : k->src == MS_WQ ? k->func :
				   k->src == MS_WORK ? k->name : NULL;
		char one[FUNC_LEN + 16];

		if (!name)
			continue;
		snprintf(one, sizeof(one), "%s %s", k->src == MS_SOFTIRQ ? "softirq" :
			 k->src == MS_WQ ? "wq" : "work", name);
		if (strstr(buf, one))
			continue;
		*wq |= k->src == MS_WQ || (k->src == MS_WORK && work_on_wq(r, wl, name));
		off += snprintf(buf + off, len - off, "%s%s", off ? ", " : "", one);
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* fmt_times - a ratio as "4.61", "62.1", "2920": three digits, no exponent */
static const char *fmt_times(double x, char *buf, size_t len)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, x < 100 ? "%.3g" : "%.0f", x);
	return buf;
}

/* The waits of one configuration as the summary shows them, by place. */
struct place_figs {
	char cell[NPLACES][96];		/* "p50 / p99 (n)" */
	double p99[NPLACES];
	double sirq;			/* the softirq p99: inline, else in ksoftirqd */
	double ratio;			/* workqueue p99 / sirq; NaN without either */
};

/* place_figs - s's waits in each place; wq: the workload drives workqueue work */
static void place_figs(const struct cellset *s, bool wq, struct place_figs *f)
{
	size_t k;

	for (k = 0; k < NPLACES; k++)
		f->p99[k] = place_cell(s, places[k], f->cell[k], sizeof(f->cell[k]));
	/* results without contexts, and the arms of an alternating run (whose cells have
	 * workqueue groups but no workqueue context): the groups */
	if (!has_contexts(s) || (isnan(f->p99[0]) && isnan(f->p99[1])))
		f->p99[0] = pooled_cell(s, MS_SOFTIRQ, f->cell[0], sizeof(f->cell[0]));
	if (isnan(f->p99[3]))
		f->p99[3] = pooled_cell(s, MS_WQ, f->cell[3], sizeof(f->cell[3]));
	/* workqueue items the workload does not drive: the machine's own, marked */
	if (!wq && !isnan(f->p99[3]))
		strncat(f->cell[3], " (bg)", sizeof(f->cell[3]) - strlen(f->cell[3]) - 1);
	/* softirq: where most of it ran; the workqueue's wait as a multiple of it */
	f->sirq = !isnan(f->p99[0]) ? f->p99[0] : f->p99[1];
	f->ratio = isnan(f->sirq) || isnan(f->p99[3]) || f->sirq <= 0 ? NAN :
		   f->p99[3] / f->sirq;
}

/* summary_rows - one row per configuration of wl */
static void summary_rows(struct report_ctx *r, const char *wl, const struct advice *a)
{
	char ratio[32], drv[256];
	struct place_figs f;
	bool wq;
	size_t i;

	drives(r, a, wl, drv, sizeof(drv), &wq);
	for (i = 0; i < r->cs.n; i++) {
		const struct cellset *s = &r->cs.s[i];

		if (strcmp(s->workload, wl))
			continue;
		place_figs(s, wq, &f);
		fmt_times(f.ratio, ratio, sizeof(ratio));
		doc_row(&r->doc, (const char *const[]){ wl, s->config, drv, f.cell[0], f.cell[1],
			f.cell[2], f.cell[3], ratio }, 8);
	}
}

/*
 * answer - one workload's answer as the first screen says it: the waits of its
 * reference configuration in each place, then the advice
 */
static void answer(struct report_ctx *r, const struct advice *a, const struct adv_workload *w)
{
	char name[2 * NAME_LEN + 16], drv[256], verdict[512], figs[512], b[3][32], d[280];
	struct place_figs f;
	size_t off;
	bool wq;

	drives(r, a, w->workload, drv, sizeof(drv), &wq);
	place_figs(w->ref, wq, &f);
	off = (size_t)snprintf(figs, sizeof(figs), "softirq %s us", isnan(f.sirq) ? "-" :
			       fmt_us(f.sirq, b[0], sizeof(b[0])));
	if (!isnan(f.p99[2]))
		off += (size_t)snprintf(figs + off, sizeof(figs) - off, ", napi thread %s us",
					fmt_us(f.p99[2], b[1], sizeof(b[1])));
	if (!isnan(f.p99[3]) && off < sizeof(figs))
		snprintf(figs + off, sizeof(figs) - off, ", workqueue %s us%s%s%s%s",
			 fmt_us(f.p99[3], b[1], sizeof(b[1])), wq ? "" : " (background)",
			 !wq || isnan(f.ratio) ? "" : " (x",
			 !wq || isnan(f.ratio) ? "" : fmt_times(f.ratio, b[2], sizeof(b[2])),
			 !wq || isnan(f.ratio) ? "" : ")");
	advice_verdict(w, verdict, sizeof(verdict));
	/*
	 * a workload judged on its own figures only drives no deferred work of its own;
	 * the machine's background workqueue items are no measure of the workload's
	 */
	snprintf(d, sizeof(d), " (drives %s)", drv);
	doc_li(&r->doc, "%s%s: wait p99 in %s: %s. Advice: %s.",
	       advice_name(w, name, sizeof(name)), strcmp(drv, "-") ? d : "", w->ref->config,
	       figs, verdict);
}

/* add_box - a box of the summary plot from a pooled delay histogram (50 waits at least) */
static void add_box(struct box *b, size_t *nb, const struct hist *h, const char *wl,
		    const char *what)
{
	struct box *x = &b[*nb];

	if (*nb == MAX_BOXES || h->count < 50)
		return;
	memset(x, 0, sizeof(*x));
	x->p1 = (double)hist_percentile(h, 0.01);
	x->p25 = (double)hist_percentile(h, 0.25);
	x->p50 = (double)hist_percentile(h, 0.50);
	x->p75 = (double)hist_percentile(h, 0.75);
	x->p99 = (double)hist_percentile(h, 0.99);
	x->p999 = (double)hist_percentile(h, 0.999);
	snprintf(x->label, sizeof(x->label), "%.20s %.24s (n=%llu)", wl, what,
		 (unsigned long long)h->count);
	(*nb)++;
}

/*
 * summary_plot - softirq against workqueue waits of each workload's reference
 * configuration, side by side, and the napi threads wherever they ran
 */
static void summary_plot(struct report_ctx *r, const char *const *wl, size_t n)
{
	static const char stem[] = "summary-waits";
	static const char title[] = "deferred work's wait per workload: softirq (all vectors) "
				    "next to workqueue (all items), reference configuration";
	struct hist *h = malloc(SM_NR * sizeof(*h));
	struct box *b = calloc(MAX_BOXES, sizeof(*b));
	char png[64], svg[64], what[64];
	size_t w, i, nb = 0;
	uint64_t runs;
	int ret;

	if (!h || !b) {
		r->err = r->err ?: -ENOMEM;
		goto out;
	}
	for (w = 0; w < n; w++) {
		const struct cellset *ref = cellsets_reference(&r->cs, wl[w]);

		if (!ref)
			continue;
		hist_init(&h[0]);
		if (!cellset_pooled_all(ref, MS_SOFTIRQ, SM_DELAY, &h[0]))
			add_box(b, &nb, &h[0], wl[w], "softirq");
		hist_init(&h[0]);
		if (!cellset_pooled_all(ref, MS_WQ, WM_DELAY, &h[0]))
			add_box(b, &nb, &h[0], wl[w], "workqueue");
		for (i = 0; i < r->cs.n; i++) {
			if (strcmp(r->cs.s[i].workload, wl[w]))
				continue;
			hist_init(&h[0]);
			hist_init(&h[1]);
			snprintf(what, sizeof(what), "napi thread, %.16s", r->cs.s[i].config);
			if (ctx_kind_pooled(&r->cs.s[i], &ctx_kind_rows[CKR_NAPI_THREAD], -1, h,
					    &runs))
				add_box(b, &nb, &h[SM_DELAY], wl[w], what);
		}
	}
	if (!nb)
		goto out;
	ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, title },
			  "wait: raise or queue -> start (us, log scale)", b, nb, r->errbuf);
	if (ret) {
		r->err = r->err ?: ret;
		goto out;
	}
	snprintf(png, sizeof(png), "plots/%s.png", stem);
	snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
	doc_img(&r->doc, png, svg, title);
	r->nplots++;
out:
	free(h);
	free(b);
}

void summary_write(struct report_ctx *r)
{
	static const char *const hdr[] = { "workload", "config", "drives",
		"softirq, inline: wait p50 / p99 (n)", "softirq, in ksoftirqd",
		"napi thread", "workqueue, all pools", "workqueue / softirq p99" };
	const struct advice *a = r->adv_ret ? NULL : &r->adv;
	const char *wl[64];
	size_t w, n, i;

	doc_h_id(&r->doc, 2, "summary", "Summary: softirq versus workqueue, per workload");
	n = report_workloads(r, wl, ARRAY_SIZE(wl));
	/* the answers, with the plot beside them (HTML) or after them; then the table */
	doc_div(&r->doc, "answer");
	doc_div(&r->doc, "text");
	if (!a)
		doc_li(&r->doc, "no advice: %s", r->adv_err);
	for (w = 0; a && w < n; w++)
		for (i = 0; i < a->n; i++)
			if (!strcmp(a->wl[i].workload, wl[w]))
				answer(r, a, &a->wl[i]);
	doc_div_end(&r->doc);
	if (r->o->plots && !r->err)
		summary_plot(r, wl, n);
	doc_div_end(&r->doc);
	doc_p(&r->doc, "Per workload: the deferred work among its primary metrics (drives), "
	      "the p99 of its waits (raise or queue -> start) in its reference configuration, "
	      "the workqueue's as a multiple of the softirq's, and the advice: every "
	      "configuration judged against the reference on the workload's primary metrics "
	      "(each judgement under Findings; docs/report.md). The table has every "
	      "configuration: p50 / p99 in us of all repetitions pooled, with the number of "
	      "waits; (bg): workqueue items of a workload that drives none, the machine's own.");
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (w = 0; w < n && !r->err; w++)
		summary_rows(r, wl[w], a);
	doc_table_end(&r->doc);
}
