// SPDX-License-Identifier: GPL-2.0
/*
 * rep_summary.c - the report's first screen: per workload, the deferred work it drives
 * (rep_driven.c) and how long that waited in each configuration, the workload's own
 * latency beside it, and the answer with its verdicts; then the driven work as boxes,
 * and below them every place's deferred work merged (all vectors, all pools), where the
 * workqueue figures of a workload that drives none are the machine's own.
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

#define MAX_DRIVEN 6
#define MAX_BOXES 40
/* A p99 of fewer waits than this is close to their largest: marked with FEW_MARK. */
#define FEW_SAMPLES 100
#define FEW_MARK "*"

/* The places of the table of all deferred work, in its column order. */
static const int places[] = { CKR_SIRQ_INLINE, CKR_SIRQ_KSOFTIRQD, CKR_NAPI_THREAD, CKR_WQ };
#define NPLACES ARRAY_SIZE(places)

/* p99_text - a p99 (ns) in us, marked when it stands on fewer than FEW_SAMPLES */
static const char *p99_text(double p99, uint64_t n, char *buf, size_t len)
{
	char a[32];

	snprintf(buf, len, "%s%s", fmt_us(p99, a, sizeof(a)), n < FEW_SAMPLES ? FEW_MARK : "");
	return buf;
}

/* hist_cell - "p50 / p99 (n)" of a pooled histogram, read as verdicts read it */
static void hist_cell(const struct hist *h, char *buf, size_t len)
{
	char a[32], b[48];

	snprintf(buf, len, "%s / %s (%llu)",
		 fmt_us((double)hist_percentile_mid(h, 0.5), a, sizeof(a)),
		 p99_text((double)hist_percentile_mid(h, 0.99), h->count, b, sizeof(b)),
		 (unsigned long long)h->count);
}

/* place_cell - one place's delay in s, or "-" when nothing ran there; returns the p99 */
static double place_cell(const struct cellset *s, int kind, char *buf, size_t len)
{
	struct hist *h = malloc(SM_NR * sizeof(*h));
	double p99 = NAN;
	uint64_t runs;

	snprintf(buf, len, "-");
	if (!h)
		return NAN;
	hist_init(&h[0]);
	hist_init(&h[1]);
	if (rep_ctx_kind_pooled(s, &rep_ctx_kind_rows[kind], -1, h, &runs) && h[SM_DELAY].count) {
		p99 = (double)hist_percentile_mid(&h[SM_DELAY], 0.99);
		hist_cell(&h[SM_DELAY], buf, len);
	}
	free(h);
	return p99;
}

/* pooled_cell - the same from the softirq or workqueue groups (results without contexts) */
static double pooled_cell(const struct cellset *s, enum msrc src, char *buf, size_t len)
{
	struct hist *h = malloc(sizeof(*h));
	double p99 = NAN;

	snprintf(buf, len, "-");
	if (!h)
		return NAN;
	hist_init(h);
	if (!aggr_cellset_pooled_all(s, src, src == MS_SOFTIRQ ? SM_DELAY : WM_DELAY, h) &&
	    h->count) {
		p99 = (double)hist_percentile_mid(h, 0.99);
		hist_cell(h, buf, len);
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

/* drives_wq - does wl drive workqueue work (its other workqueue items are the machine's) */
static bool drives_wq(const struct driven *d, size_t nd)
{
	size_t i;

	for (i = 0; i < nd; i++)
		if (strstr(d[i].kind, "workqueue"))
			return true;
	return false;
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

/*
 * aggregate_row - one configuration's deferred work, every vector and pool merged, by
 * place; bg: the workload drives no workqueue work, so its workqueue column is the
 * machine's own (marked, and no ratio: it is not the workload's)
 */
static void aggregate_row(struct report_ctx *r, const struct cellset *s, bool bg)
{
	char cell[NPLACES][112], ratio[32];
	double p99[NPLACES], sirq;
	size_t k;

	for (k = 0; k < NPLACES; k++)
		p99[k] = place_cell(s, places[k], cell[k], sizeof(cell[k]));
	/* results without contexts, and the arms of an alternating run (whose cells have
	 * workqueue groups but no workqueue context): the groups */
	if (!has_contexts(s) || (isnan(p99[0]) && isnan(p99[1])))
		p99[0] = pooled_cell(s, MS_SOFTIRQ, cell[0], sizeof(cell[0]));
	if (isnan(p99[3]))
		p99[3] = pooled_cell(s, MS_WQ, cell[3], sizeof(cell[3]));
	if (bg && !isnan(p99[3]))
		strncat(cell[3], " (bg)", sizeof(cell[3]) - strlen(cell[3]) - 1);
	sirq = !isnan(p99[0]) ? p99[0] : p99[1];
	fmt_times(bg || isnan(sirq) || sirq <= 0 ? NAN : p99[3] / sirq, ratio, sizeof(ratio));
	doc_row(&r->doc, (const char *const[]){ s->workload, s->config, cell[0], cell[1], cell[2],
		cell[3], ratio }, 7);
}

/* short_id - a primary metric as the first screen names it: "delivery p99" */
static void short_id(const struct metric_key *k, const char *id, char *buf, size_t len)
{
	const char *st = metric_stat_names[k->stat];

	switch (k->src) {
	case MS_WORKLOAD:
	case MS_SOFTIRQ:
		snprintf(buf, len, "%s %s", k->name, st);
		break;
	case MS_WORK:
		snprintf(buf, len, "%s%s %s", k->name, k->sub == SM_DELAY ? "" : " runtime", st);
		break;
	case MS_WQ:
	case MS_CONTEXT:
		snprintf(buf, len, "%s %s", k->func, st);
		break;
	default:
		snprintf(buf, len, "%s", id);
	}
}

/*
 * verdicts - every decided verdict of w's configurations against its reference, with
 * the direction and the ratio ("unbound-cpu0: worse flush_to_ldisc p90 x3.13; no change
 * delivery p50 x1.01; 4 cannot tell"), the metrics it could not decide counted
 */
static void verdicts(FILE *f, const struct adv_workload *w)
{
	static const enum verdict order[] = { V_BETTER, V_LOWER, V_WORSE, V_HIGHER,
					      V_NO_CHANGE };
	char one[FUNC_LEN + 32], ra[32];
	size_t i, k, o, open, other, shown;

	fprintf(f, " Against %s:", w->ref->config);
	for (i = 0; i < w->ncfg; i++) {
		const struct adv_cfg *c = &w->cfg[i];

		fprintf(f, "%s %s:", i ? ";" : "", c->s->config);
		for (o = 0, shown = 0; o < ARRAY_SIZE(order); o++) {
			size_t in_group = 0;

			for (k = 0; k < w->nprim; k++) {
				if (c->j[k].v != order[o])
					continue;
				if (!in_group)
					fprintf(f, "%s%s", shown ? "; " : " ",
						judge_verdict_names[order[o]]);
				short_id(&w->prim[k], w->prim_id[k], one, sizeof(one));
				fprintf(f, "%s %s x%s", in_group ? "," : "", one,
					fmt_ratio(c->j[k].ratio, ra, sizeof(ra)));
				in_group++;
				shown++;
			}
		}
		for (k = 0, open = 0, other = 0; k < w->nprim; k++) {
			for (o = 0; o < ARRAY_SIZE(order) && c->j[k].v != order[o]; o++)
				;
			open += o == ARRAY_SIZE(order) && c->j[k].v == V_CANNOT_TELL;
			other += o == ARRAY_SIZE(order) && c->j[k].v != V_CANNOT_TELL;
		}
		if (open)
			fprintf(f, "%s%zu cannot tell", shown ? "; " : " ", open);
		if (other)
			fprintf(f, "%s%zu not judged (lossy or incomplete)", shown || open ? "; " :
				" ", other);
	}
	fputc('.', f);
}

/* figure_pair - "4.77 / 19.3" (us) of k in s, pooled as verdicts read it; 0: no data */
static uint64_t figure_pair(const struct cellset *s, const struct metric_key *k, char *buf,
			    size_t len)
{
	char a[32], b[48];
	struct figure fg;

	snprintf(buf, len, "-");
	if (aggr_figure_get(s, k, &fg))
		return 0;
	/* verdicts leave out the blocks that lost events: so does the figure */
	if (!fg.pooled_ok || !fg.pooled.count) {
		if (fg.lossy_reps)
			snprintf(buf, len, "- (LOSSY %u/%zu)", fg.lossy_reps, fg.reps);
		return 0;
	}
	snprintf(buf, len, "%s / %s", fmt_us((double)fg.pooled.p50, a, sizeof(a)),
		 p99_text((double)fg.pooled.p99, fg.pooled.count, b, sizeof(b)));
	return fg.pooled.count;
}

/* The configurations of one answer: its reference first, then the ones judged. */
struct answer_sets {
	const struct cellset *s[MAX_BOXES];
	size_t n;
};

static void answer_sets(const struct report_ctx *r, const char *wl,
			const struct adv_workload *w, struct answer_sets *as)
{
	size_t i;

	as->n = 0;
	if (w) {
		as->s[as->n++] = w->ref;
		for (i = 0; i < w->ncfg && as->n < MAX_BOXES; i++)
			as->s[as->n++] = w->cfg[i].s;
		return;
	}
	for (i = 0; i < r->cs.n && as->n < MAX_BOXES; i++)
		if (!strcmp(r->cs.s[i].workload, wl))
			as->s[as->n++] = &r->cs.s[i];
}

/*
 * work_figures - "flush_to_ldisc (workqueue), wait p50 / p99: baseline 4.77 / 19.3 us,
 * ..."; waits: with the number of waits (the top waiters of a record)
 */
static void work_figures(FILE *f, const struct driven *d, const struct answer_sets *as,
			 bool waits)
{
	char fig[96], where[96];
	size_t i;

	fprintf(f, " %s (%s), wait p50 / p99:", d->name, d->kind);
	for (i = 0; i < as->n; i++) {
		uint64_t n = figure_pair(as->s[i], &d->k, fig, sizeof(fig));

		/* where work that can move ran in each configuration */
		where[0] = '\0';
		if (strstr(d->kind, " or ") && n)
			rep_driven_where(as->s[i], d, where, sizeof(where));
		fprintf(f, "%s%s%s %s%s", i ? "," : "", as->n > 1 || !waits ? " " : "",
			as->n > 1 || !waits ? as->s[i]->config : "", fig, n ? " us" : "");
		if (where[0])
			fprintf(f, " (%s)", where);
		if (waits)
			fprintf(f, " (%llu waits)", (unsigned long long)n);
	}
}

/* own_figures - the workload's own latency: its first primary metric, each configuration */
static void own_figures(FILE *f, const struct report_ctx *r, const char *wl,
			const struct answer_sets *as)
{
	struct metric_key k = { .src = MS_WORKLOAD };
	char names[1][NAME_LEN], fig[96];
	uint64_t n;
	size_t i;

	if (!rep_own_metrics(r, wl, names, 1, NULL))
		return;
	snprintf(k.name, sizeof(k.name), "%s", names[0]);
	fprintf(f, " Own latency, %s p50 / p99:", names[0]);
	for (i = 0; i < as->n; i++) {
		n = figure_pair(as->s[i], &k, fig, sizeof(fig));
		fprintf(f, "%s %s %s%s", i ? "," : "", as->s[i]->config, fig, n ? " us" : "");
	}
	fputc('.', f);
}

/*
 * answer - one workload's line: what it drives and how long that waited in each
 * configuration, its own latency, the answer and the verdicts; a workload that drives
 * nothing deferbench knows of (a record of the whole system) gets its top waiters
 */
static void answer(struct report_ctx *r, const char *wl, const struct adv_workload *w)
{
	char name[2 * NAME_LEN + 16], verdict[768], *line = NULL;
	struct driven d[MAX_DRIVEN];
	struct answer_sets as;
	size_t i, nd, len = 0;
	bool top = false;
	FILE *f;

	answer_sets(r, wl, w, &as);
	nd = rep_driven_works(r, wl, d, ARRAY_SIZE(d));
	if (!nd && as.n && r->run->is_record) {
		nd = rep_top_waiters(as.s[0], d, 3);
		top = true;
	}
	f = open_memstream(&line, &len);
	if (!f) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	if (top)
		fputs(": a record of the whole machine with no workload.json, so which work "
		      "the recorded command drove is not known. Its top waiters (most total "
		      "wait):", f);
	else if (!nd)
		fputs(" drives no deferred work of its own.", f);
	else
		fputs(" drives", f);
	for (i = 0; i < nd; i++) {
		fputs(i ? ";" : "", f);
		work_figures(f, &d[i], &as, top);
	}
	fputs(nd ? "." : "", f);
	own_figures(f, r, wl, &as);
	if (w) {
		finding_advice_verdict(w, verdict, sizeof(verdict));
		fprintf(f, " Answer: %s.", verdict);
		if (w->ncfg && w->answer != ADV_EXPLORATORY)
			verdicts(f, w);
	} else {
		fprintf(f, " No advice: %s.", r->adv_ret ? r->adv_err : "no primary metric");
	}
	if (fclose(f)) {
		free(line);
		r->err = r->err ?: -ENOMEM;
		return;
	}
	doc_li_lead(&r->doc, w ? finding_advice_name(w, name, sizeof(name)) : wl, "%s", line);
	free(line);
}

/* summary_box - a box of the summary plot, when s has 50 waits of d at least */
static void summary_box(struct report_ctx *r, const struct cellset *s, const struct driven *d,
			const char *group, bool by_place, struct box *b, size_t *nb)
{
	char where[96];
	int place;

	if (*nb == MAX_BOXES || rep_plot_box(r, s, &d->k, &b[*nb]))
		return;
	place = rep_driven_where(s, d, where, sizeof(where));
	if (by_place) {
		/* the top waiters of a record: each its place's colour, named */
		snprintf(b[*nb].label, sizeof(b[*nb].label), "%.40s\nn=%llu", d->name,
			 (unsigned long long)b[*nb].n);
		palette_pick(&r->pal, PAL_PLACE, place >= 0 ? rep_place_names[place] : "softirq",
			     &b[*nb].color, b[*nb].key, sizeof(b[*nb].key));
		snprintf(b[*nb].legend, sizeof(b[*nb].legend), "%s",
			 place >= 0 ? rep_place_names[place] : "softirq");
	} else if (strstr(d->kind, " or ") && place >= 0) {
		/* work that moves: where it ran in this configuration */
		snprintf(b[*nb].label, sizeof(b[*nb].label), "%.30s\n%s\nn=%llu", s->config,
			 rep_place_names[place], (unsigned long long)b[*nb].n);
	}
	if (b[*nb].n < 50)
		return;
	snprintf(b[*nb].group, sizeof(b[*nb].group), "%s", group);
	(*nb)++;
}

/*
 * summary_plot - the driven work's wait as boxes: every workload, each configuration in
 * its colour (a record: its top waiters, each in its place's colour)
 */
static void summary_plot(struct report_ctx *r, const char *const *wl, size_t n)
{
	static const char stem[] = "summary-waits";
	struct ladder_axes ax = { "configuration, by workload and the work it drives (above)",
				  "wait: raise or queue -> start (us, log scale)", r->unit };
	struct box *b = calloc(MAX_BOXES, sizeof(*b));
	char png[64], svg[64], group[96], title[160];
	struct driven d[MAX_DRIVEN];
	size_t w, i, j, nd, nb = 0;
	bool by_place = false;
	int ret;

	if (!b) {
		r->err = r->err ?: -ENOMEM;
		return;
	}
	for (w = 0; w < n; w++) {
		nd = rep_driven_works(r, wl[w], d, ARRAY_SIZE(d));
		if (!nd && r->run->is_record && cellsets_reference(&r->cs, wl[w])) {
			nd = rep_top_waiters(cellsets_reference(&r->cs, wl[w]), d, 6);
			by_place = true;
		}
		for (j = 0; j < nd; j++) {
			if (by_place)
				snprintf(group, sizeof(group), "%.40s: top waiters", wl[w]);
			else
				snprintf(group, sizeof(group), "%.40s: %.50s", wl[w], d[j].name);
			for (i = 0; i < r->cs.n; i++)
				if (!strcmp(r->cs.s[i].workload, wl[w]) && (!by_place || !j ||
				    cellsets_reference(&r->cs, wl[w]) == &r->cs.s[i]))
					summary_box(r, &r->cs.s[i], &d[j], group, by_place, b, &nb);
		}
	}
	if (!nb)
		goto out;
	if (by_place)
		ax.xlabel = "the top waiters (most total wait), coloured by where they ran";
	snprintf(title, sizeof(title), by_place ? "the deferred work that waited most" :
		 "the wait of the work each workload drives, per configuration");
	ret = plot_ladder(&(struct plot_text){ r->plotdir, stem, title, PLOT_WIDE, 460 }, &ax, b,
			  nb, r->errbuf);
	if (ret) {
		r->err = r->err ?: ret;
		goto out;
	}
	snprintf(png, sizeof(png), "plots/%s.png", stem);
	snprintf(svg, sizeof(svg), "plots/%s.svg", stem);
	doc_img(&r->doc, png, svg, title);
	r->nplots++;
out:
	free(b);
}

void rep_summary_write(struct report_ctx *r)
{
	static const char *const hdr[] = { "workload", "config",
		"softirq, inline: wait p50 / p99 (n)", "softirq, in ksoftirqd", "napi thread",
		"workqueue, all pools", "workqueue / softirq p99" };
	const struct advice *a = r->adv_ret ? NULL : &r->adv;
	struct driven d[MAX_DRIVEN];
	const char *const *wl = r->wl;
	size_t w, n = r->nwl, i, found;
	bool bg;

	doc_h_id(&r->doc, 2, "summary", "Summary: the work each workload drives, per "
		 "configuration");
	doc_div(&r->doc, "answer");
	for (w = 0; w < n && !r->err; w++) {
		for (i = 0, found = 0; a && i < a->n; i++)
			if (!strcmp(a->wl[i].workload, wl[w])) {
				answer(r, wl[w], &a->wl[i]);
				found++;
			}
		if (!found)
			answer(r, wl[w], NULL);
	}
	doc_p(&r->doc, "Waits in us, raise or queue -> start, all %ss pooled: the figures the "
	      "verdicts judge. " FEW_MARK ": a p99 of fewer than %d waits, close to their "
	      "largest. The answer judges every configuration against the reference on the "
	      "workload's primary metrics (one family for the run; each verdict with its "
	      "interval under Findings, docs/report.md).", r->unit, FEW_SAMPLES);
	doc_div_end(&r->doc);
	if (r->o->plots && !r->err)
		summary_plot(r, wl, n);
	doc_p(&r->doc, "All deferred work, whatever drove it: every softirq vector and every "
	      "workqueue pool merged, by place, p50 / p99 in us (waits). (bg): the "
	      "workqueue items of a workload that drives none, the machine's own: no ratio.");
	doc_table(&r->doc, hdr, ARRAY_SIZE(hdr));
	for (w = 0; w < n && !r->err; w++) {
		/* a record does not know what its command drove: nothing is background */
		bg = !r->run->is_record && !drives_wq(d, rep_driven_works(r, wl[w], d,
								       ARRAY_SIZE(d)));
		for (i = 0; i < r->cs.n; i++)
			if (!strcmp(r->cs.s[i].workload, wl[w]))
				aggregate_row(r, &r->cs.s[i], bg);
	}
	doc_table_end(&r->doc);
}
