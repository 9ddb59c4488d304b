// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the report's "Findings": statements computed from the data, each with the
 * numbers and the rule behind it. Nothing here is written by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "cmp_out.h"
#include "compare.h"
#include "placement.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"

#define MAX_CFG 16

/* A configuration ranked by a median over its repetitions (thread wakeup). */
struct ranked_cfg {
	const struct cellset *s;
	double v[STATS_MAX_N];
	size_t n;
	double med;
};

static int by_med(const void *a, const void *b)
{
	const struct ranked_cfg *x = a, *y = b;

	if (isnan(x->med) || isnan(y->med))
		return isnan(x->med) - isnan(y->med);
	return (x->med > y->med) - (x->med < y->med);
}

/*
 * fmt_judgement - "delivery p99 x0.71 [0.60, 0.83]: better (detects 24%)": the change
 * it would have decided at this length of run, after every judged verdict; "x1.37 (no
 * interval): cannot tell" where too few blocks gave none
 */
static const char *fmt_judgement(const char *id, const struct judgement *j, char *buf,
				 size_t len)
{
	char ra[32], ci[48], dt[48] = "", pc[32];

	if (!isnan(j->mdc))
		snprintf(dt, sizeof(dt), " (detects %s%%)", aggr_fmt_pct(j->mdc, pc, sizeof(pc)));
	/* a metric too short to judge has a ratio but no interval: say so, not "-" */
	if (isnan(j->ratio)) {
		snprintf(buf, len, "%s (no data): %s", id, judge_verdict_names[j->v]);
		return buf;
	}
	if (isnan(j->lo))
		snprintf(ci, sizeof(ci), "(no interval)");
	else
		cmp_interval(j, ci, sizeof(ci));
	snprintf(buf, len, "%s x%s %s: %s%s", id, fmt_ratio(j->ratio, ra, sizeof(ra)), ci,
		 judge_verdict_names[j->v], dt);
	return buf;
}

const char *finding_advice_name(const struct adv_workload *w, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", w->workload, w->loads[0] ? " under load " : "", w->loads);
	return buf;
}

/* best_gain - the decided-better primary metric of c with the lowest ratio, or -1 */
static int best_gain(const struct adv_workload *w, const struct adv_cfg *c)
{
	size_t k;
	int best = -1;

	for (k = 0; k < w->nprim; k++)
		if (c->j[k].v == V_BETTER && (best < 0 || c->j[k].ratio < c->j[best].ratio))
			best = (int)k;
	return best;
}

void finding_advice_verdict(const struct adv_workload *w, char *buf, size_t len)
{
	char one[256], bound[256];
	size_t i, off = 0, undecided = 0;
	int k;

	buf[0] = '\0';
	if (!w->nprim) {
		snprintf(buf, len, "nothing to advise: no primary metric with data in %s",
			 w->ref ? w->ref->config : "the reference");
		return;
	}
	if (!w->ncfg) {
		snprintf(buf, len, "nothing to compare: %s", w->why_none ? w->why_none :
			 "a single configuration");
		return;
	}
	if (w->best) {
		k = best_gain(w, w->best);
		snprintf(buf, len, "use %s: better than %s on %zu primary metric(s)%s, worse on "
			 "none%s", w->best->s->config, w->ref->config, w->best->better,
			 k < 0 ? "" : (snprintf(one, sizeof(one), " (the most: %s x%.2f [%.3g, %.3g])",
						w->prim_id[k], w->best->j[k].ratio,
						w->best->j[k].lo, w->best->j[k].hi), one),
			 w->best_decided ? "" : "; some still undecided");
		return;
	}
	for (i = 0; i < w->ncfg; i++)
		undecided += !w->cfg[i].worse && (w->cfg[i].undecided || !w->cfg[i].same);
	switch (w->answer) {
	case ADV_EXPLORATORY:
		snprintf(buf, len, "exploratory, nothing decidable: %s", w->cfg[0].j[0].why);
		return;
	case ADV_WAIT_ONLY:
		advise_wait_only(w, buf, len);
		return;
	case ADV_LOAD_EFFECT:
		advise_load_effect(w, buf, len);
		return;
	case ADV_KEEP:
		off = (size_t)snprintf(buf, len, "keep %s:", w->ref->config);
		for (i = 0; i < w->ncfg && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s %s %s", i ? ";" : "",
						w->cfg[i].s->config, w->cfg[i].worse ? "worse" :
						"equivalent within the margin");
		return;
	default:
		advise_bound(w, bound, sizeof(bound));
		snprintf(buf, len, "keep %s for now, undecided (%zu of %zu configurations still "
			 "open): %s", w->ref->config, undecided, w->ncfg, bound);
	}
}

/* verdict_list - every verdict of w's configurations, then the arms still moving */
static void verdict_list(FILE *f, const struct adv_workload *w)
{
	char one[256];
	size_t k, i, n;

	for (i = 0; i < w->ncfg; i++) {
		fprintf(f, "%s%s against %s:", i ? "; " : "", w->cfg[i].s->config,
			w->ref->config);
		for (k = 0; k < w->nprim; k++)
			fprintf(f, "%s %s", k ? "," : "", fmt_judgement(w->prim_id[k],
				&w->cfg[i].j[k], one, sizeof(one)));
	}
	for (i = 0, n = 0; w->moving && i <= w->ncfg; i++) {
		const struct adv_cfg *c = adv_arm(w, i);

		for (k = 0; k < w->nprim; k++) {
			const struct judgement *j = &c->steady[k];

			if (j->v != V_WORSE && j->v != V_BETTER)
				continue;
			fprintf(f, "%s %s %s", n++ ? "," : ". Still moving inside its phases "
				"(last third / first third):", c->s->config,
				fmt_judgement(w->prim_id[k], j, one, sizeof(one)));
		}
	}
}

/* advice_finding - one workload's answer, as a bullet */
static void advice_finding(struct report_ctx *r, const struct adv_workload *w)
{
	char name[2 * NAME_LEN + 16], verdict[512];

	finding_advice_verdict(w, verdict, sizeof(verdict));
	doc_li(&r->doc, "%s: %s.", finding_advice_name(w, name, sizeof(name)), verdict);
}

/* verdicts_finding - every verdict of one workload, as a bullet */
static void verdicts_finding(struct report_ctx *r, const struct adv_workload *w)
{
	char name[2 * NAME_LEN + 16], *line = NULL;
	size_t len = 0;
	FILE *f;

	if (!w->ncfg)
		return;
	/* in a memory stream, whole: a fixed buffer once cut long lists mid-word */
	f = open_memstream(&line, &len);
	if (f) {
		verdict_list(f, w);
		if (fclose(f)) {
			free(line);
			line = NULL;
		}
	}
	doc_li(&r->doc, "%s: %s", finding_advice_name(w, name, sizeof(name)),
	       line ? line : "(out of memory for the verdicts)");
	free(line);
}

/*
 * advice_findings - each workload's answer; every verdict behind them folded below,
 * metric by metric
 */
static void advice_findings(struct report_ctx *r)
{
	size_t i, judged = 0;

	if (r->adv_ret) {
		doc_li(&r->doc, "no advice: %s", r->adv_err);
		return;
	}
	for (i = 0; i < r->adv.n; i++) {
		advice_finding(r, &r->adv.wl[i]);
		judged += r->adv.wl[i].ncfg > 0;
	}
	if (!judged)
		return;
	doc_details(&r->doc, 3, "verdicts", false, "Every verdict, metric by metric");
	for (i = 0; i < r->adv.n; i++)
		verdicts_finding(r, &r->adv.wl[i]);
	doc_details_end(&r->doc);
}

/*
 * placement_findings - each setting that moved the work it targets, or had no effect on
 * it (placement.h; too few items and places not kept are left to advise)
 */
static void placement_findings(struct report_ctx *r)
{
	struct placement p[8];
	char line[1024];
	size_t i, c, k, n;

	for (i = 0; !r->adv_ret && i < r->adv.n; i++)
		for (c = 0; c < r->adv.wl[i].ncfg; c++) {
			const struct adv_workload *w = &r->adv.wl[i];

			n = placement_sets(w->ref, w->cfg[c].s, p, ARRAY_SIZE(p));
			for (k = 0; k < n; k++)
				if (p[k].v == PLV_MOVED || p[k].v == PLV_SAME || p[k].v == PLV_NO_WORK)
					doc_li(&r->doc, "%s, %s: %s", w->workload, w->cfg[c].s->config,
					       placement_describe(&p[k], line, sizeof(line)));
		}
}

/* A configuration ranked by its worst worker pool's wakeup p99. */
struct wake_cfg {
	struct ranked_cfg rc;		/* first: sorted with by_med */
	const char *pool;		/* the pool that was worst in most repetitions */
	bool data;			/* some repetition has thread_wakeup */
};

/* by_med_desc - highest median first, configurations without one last */
static int by_med_desc(const void *a, const void *b)
{
	const struct ranked_cfg *x = a, *y = b;

	if (isnan(x->med) || isnan(y->med))
		return by_med(a, b);
	return by_med(b, a);
}

/* mode_of - the most frequent of n names (the first one on a tie) */
static const char *mode_of(const char *const *names, size_t n)
{
	size_t i, j, c, best = 0;
	const char *m = "";

	for (i = 0; i < n; i++) {
		for (c = 0, j = 0; j < n; j++)
			c += !strcmp(names[i], names[j]);
		if (c > best) {
			best = c;
			m = names[i];
		}
	}
	return m;
}

/*
 * worst_pool - per repetition, the highest wakeup p99 among the worker pools with
 * enough wakeups for a p99 (the same rule as compare): one value per repetition, so
 * configurations can be judged against each other as everywhere else
 */
static void worst_pool(const struct cellset *s, const struct judge_opts *jo,
		       struct wake_cfg *wc)
{
	const char *pools[STATS_MAX_N];
	size_t i, p;

	memset(wc, 0, sizeof(*wc));
	wc->rc.s = s;
	for (i = 0; i < s->n; i++) {
		const struct record *rec = &s->cell[i]->rec;
		const struct wake_data *worst = NULL;

		if (!s->cell[i]->ok)
			continue;
		wc->data |= rec->has_wakeup;
		for (p = 0; p < rec->nwake[WK_WORKER]; p++) {
			const struct wake_data *w = &rec->wake[WK_WORKER][p];

			if (metric_usable(MST_P99, w->st.count, jo->min_tail) &&
			    (!worst || w->st.p99 > worst->st.p99))
				worst = w;
		}
		if (worst) {
			pools[wc->rc.n] = worst->name;
			wc->rc.v[wc->rc.n++] = (double)worst->st.p99;
		}
	}
	wc->rc.med = wc->rc.n ? stats_median(wc->rc.v, wc->rc.n) : NAN;
	wc->pool = mode_of(pools, wc->rc.n);
}

/* wakeup_finding - the configuration whose worker pools waited longest to run */
static void wakeup_finding(struct report_ctx *r, const char *wl)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	struct wake_cfg *wc, *top, *rw = NULL;
	struct judge_opts jo;
	char us[32], vref[512], how[160];
	size_t i, n = 0, data = 0;
	double need;

	judge_opts_default(&jo);
	wc = calloc(MAX_CFG, sizeof(*wc));
	if (!wc)
		return;
	for (i = 0; i < r->cs.n && n < MAX_CFG; i++)
		if (!strcmp(r->cs.s[i].workload, wl)) {
			worst_pool(&r->cs.s[i], &jo, &wc[n]);
			data += wc[n++].data;
		}
	if (!data)
		goto out;	/* summary.json files from before thread_wakeup */
	qsort(wc, n, sizeof(*wc), by_med_desc);
	top = &wc[0];
	for (i = 0; i < n; i++)
		if (wc[i].rc.s == ref)
			rw = &wc[i];
	need = ceil(jo.min_tail / (1 - metric_stat_q[MST_P99]));
	if (isnan(top->rc.med)) {
		doc_li(&r->doc, "%s, thread wakeup: no worker pool had the %.0f wakeups in a "
		       "repetition that a p99 needs", wl, need);
		goto out;
	}
	vref[0] = '\0';
	if (rw && rw != top && !isnan(rw->rc.med))
		snprintf(vref, sizeof(vref), "%s (reference) %s us, ratio %.3g (information: "
			 "thread wakeup keeps no histograms to judge by)", ref->config,
			 fmt_us(rw->rc.med, us, sizeof(us)), top->rc.med / rw->rc.med);
	else if (rw && rw != top)
		snprintf(vref, sizeof(vref), "%s (reference) has no worker pool with enough "
			 "wakeups for a p99", ref->config);
	if (top->rc.n == 1)
		snprintf(how, sizeof(how), "pool %s, 1 repetition", top->pool);
	else
		snprintf(how, sizeof(how), "median over %zu repetitions of each one's worst pool, "
			 "most often %s", top->rc.n, top->pool);
	doc_li(&r->doc, "%s, thread wakeup: highest worker-pool p99 (pools with %.0f wakeups or "
	       "more) with %s%s, %s us (%s)%s%s", wl, need, top->rc.s->config,
	       rw == top && n > 1 ? ", the reference configuration" : "",
	       fmt_us(top->rc.med, us, sizeof(us)), how, vref[0] ? "; against " : "", vref);
out:
	free(wc);
}

/* adaptive_finding - what an adaptive run added, where, and what it cost */
static void adaptive_finding(struct report_ctx *r)
{
	const struct run *run = r->run;
	double added_s = 0, all_s = 0;
	char list[1024] = "";
	size_t i, j, n = 0, off = 0, nlist;
	unsigned int last = 0;

	if (!run->looks)
		return;
	for (i = 0; i < run->ncells; i++) {
		const struct cell *c = &run->cells[i];
		double d = c->ok ? c->rec.cap.duration_s : 0;

		all_s += d;
		if (!c->look)
			continue;
		n++;
		added_s += d;
		last = c->look > last ? c->look : last;
		/* once per workload x configuration, with its count */
		for (j = 0; j < i; j++)
			if (run->cells[j].look && !strcmp(run->cells[j].workload, c->workload) &&
			    !strcmp(run->cells[j].config, c->config))
				break;
		if (j < i || off >= sizeof(list))
			continue;
		for (nlist = 0, j = i; j < run->ncells; j++)
			nlist += run->cells[j].look && !strcmp(run->cells[j].workload, c->workload) &&
				 !strcmp(run->cells[j].config, c->config);
		off += snprintf(list + off, sizeof(list) - off, "%s%s/%s %zu", off ? ", " : "",
				c->workload, c->config, nlist);
	}
	if (!n)
		doc_li(&r->doc, "until-decided (%u looks planned): no cell was added: every "
		       "primary verdict was decided, or no budget was left, after the planned "
		       "repetitions", run->looks);
	else
		doc_li(&r->doc, "until-decided (%u looks planned): %zu of %zu cells were added "
		       "after looks 1 to %u (%s), %.0f s of the run's %.0f s of capture",
		       run->looks, n, run->ncells, last, list, added_s, all_s);
}

static void data_quality(struct report_ctx *r)
{
	size_t i, lossy = 0, bad = 0;

	for (i = 0; i < r->run->ncells; i++) {
		const struct cell *c = &r->run->cells[i];

		if (!c->ok) {
			doc_li(&r->doc, "cell %s did not finish (%s): not used", c->id,
			       c->error[0] ? c->error : c->status);
			bad++;
		} else if (c->rec.cap.lossy) {
			doc_li(&r->doc, "cell %s is LOSSY: %llu trace events lost; its softirq and "
			       "workqueue figures are incomplete", c->id,
			       (unsigned long long)c->rec.cap.lost_events);
			lossy++;
		}
	}
	if (!lossy && !bad)
		doc_li(&r->doc, "every cell finished and no cell lost trace events");
	if (!r->run->complete)
		doc_li(&r->doc, "the run is INCOMPLETE (run.json: complete = false)");
	if (r->run->npartial)
		doc_li(&r->doc, "%zu interrupted cell directories (.partial-*) were ignored",
		       r->run->npartial);
}

/* long_runs_of - "NET_RX 3, TIMER 1" for one set; returns the total */
static uint64_t long_runs_of(const struct cellset *s, char *buf, size_t len)
{
	uint64_t runs, ks, lr, total = 0;
	struct metric_key top[32];
	size_t j, n, off = 0;

	buf[0] = '\0';
	n = aggr_top_groups(s, MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
	for (j = 0; j < n; j++) {
		aggr_sirq_totals(s, top[j].name, &runs, &ks, &lr);
		if (lr && off < len)
			off += snprintf(buf + off, len - off, "%s%s %llu", off ? ", " : "",
					top[j].name, (unsigned long long)lr);
		total += lr;
	}
	return total;
}

/* ksoftirqd_top - the vector with the largest share of runs in ksoftirqd (>= 100 runs) */
static void ksoftirqd_top(struct report_ctx *r)
{
	uint64_t runs, ks, lr, best_ks = 0, best_runs = 0;
	const struct cellset *best = NULL;
	struct metric_key top[32];
	const char *bestv = "";
	size_t i, j, n;

	for (i = 0; i < r->cs.n; i++) {
		n = aggr_top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n; j++) {
			aggr_sirq_totals(&r->cs.s[i], top[j].name, &runs, &ks, &lr);
			if (runs >= 100 && ks * best_runs >= best_ks * runs) {
				best = &r->cs.s[i];
				best_ks = ks;
				best_runs = runs;
				bestv = top[j].name;
			}
		}
	}
	if (best)
		doc_li(&r->doc, "largest share of softirq runs in ksoftirqd: %s in %s/%s, %.1f%% "
		       "of %llu runs", bestv, best->workload, best->config,
		       100.0 * (double)best_ks / (double)best_runs,
		       (unsigned long long)best_runs);
}

static void long_runs(struct report_ctx *r)
{
	char list[512];
	size_t i, found = 0;

	for (i = 0; i < r->cs.n; i++)
		if (long_runs_of(&r->cs.s[i], list, sizeof(list))) {
			doc_li(&r->doc, "%s/%s: softirq runs longer than 2 ms (MAX_SOFTIRQ_TIME) "
			       "over %zu repetitions: %s", r->cs.s[i].workload, r->cs.s[i].config,
			       r->cs.s[i].n, list);
			found++;
		}
	if (!found)
		doc_li(&r->doc, "no softirq ran longer than 2 ms");
	ksoftirqd_top(r);
}

void findings_write(struct report_ctx *r)
{
	size_t w;

	doc_h_id(&r->doc, 2, "findings", "Findings");
	doc_p(&r->doc, "Computed from the data. First each workload's configurations judged "
	      "against its reference on every primary metric: the ratio of the pooled "
	      "figures (the tables' numbers), its interval, the verdict ('deferbench "
	      "advise' says how many more blocks or repetitions would decide what is "
	      "open).");
	advice_findings(r);
	placement_findings(r);
	for (w = 0; w < r->nwl; w++)
		wakeup_finding(r, r->wl[w]);
	adaptive_finding(r);
	rep_observer_finding(r);
	data_quality(r);
	long_runs(r);
	rep_table_contexts_overview(r);
}
