// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the report's "Findings": statements computed from the data, each with the
 * numbers and the rule behind it. Nothing here is written by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_int.h"

#define MAX_CFG 16

struct ranked_cfg {
	const struct cellset *s;
	double v[STATS_MAX_N];		/* usable per-repetition p99 */
	size_t n;
	double med;
};

static void rep_p99(const struct cellset *s, const struct metric_key *k,
		    const struct judge_opts *jo, struct ranked_cfg *rc)
{
	uint64_t count;
	size_t i;
	double v;

	rc->s = s;
	rc->n = 0;
	for (i = 0; i < s->n; i++)
		if (s->cell[i]->ok && !metric_value(&s->cell[i]->rec, k, &v, &count) &&
		    metric_usable(MST_P99, count, jo->min_tail))
			rc->v[rc->n++] = v;
	rc->med = rc->n ? median(rc->v, rc->n) : NAN;
}

static int by_med(const void *a, const void *b)
{
	const struct ranked_cfg *x = a, *y = b;

	if (isnan(x->med) || isnan(y->med))
		return isnan(x->med) - isnan(y->med);
	return (x->med > y->med) - (x->med < y->med);
}

/* versus - "ratio 0.75, 95% interval [0.70, 0.80]: better" for best against other */
static void versus(const struct ranked_cfg *best, const struct ranked_cfg *other,
		   const struct cellset *ref, const struct judge_opts *jo, char *buf, size_t len)
{
	const char *r = other->s == ref ? " (reference)" : "";
	struct judgement j;
	char us[32];

	judge(other->v, other->n, best->v, best->n, jo, &j);
	if (isnan(j.lo))
		snprintf(buf, len, "%s%s %s us, ratio %.3g (cannot tell: %s)", other->s->config,
			 r, fmt_us(other->med, us, sizeof(us)), j.ratio, j.why);
	else
		snprintf(buf, len, "%s%s %s us, ratio %.3g, %.0f%% interval [%.3g, %.3g]: %s",
			 other->s->config, r, fmt_us(other->med, us, sizeof(us)), j.ratio,
			 jo->confidence * 100, j.lo, j.hi, verdict_names[j.v]);
}

static void best_config(struct report_ctx *r, const char *wl, const char *metric)
{
	struct metric_key k = { .src = MS_WORKLOAD, .stat = MST_P99 };
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	struct ranked_cfg *rc;
	struct judge_opts jo;
	char us[32], next[512], vref[512];
	size_t i, n = 0, iref = 0;

	judge_opts_default(&jo);
	snprintf(k.name, sizeof(k.name), "%s", metric);
	rc = calloc(MAX_CFG, sizeof(*rc));
	if (!rc)
		return;
	for (i = 0; i < r->cs.n && n < MAX_CFG; i++)
		if (!strcmp(r->cs.s[i].workload, wl))
			rep_p99(&r->cs.s[i], &k, &jo, &rc[n++]);
	qsort(rc, n, sizeof(*rc), by_med);
	for (i = 0; i < n; i++)
		if (rc[i].s == ref)
			iref = i;
	if (!n || isnan(rc[0].med)) {
		doc_li(&r->doc, "%s, %s: no configuration has enough samples for a p99", wl,
		       metric);
	} else if (n == 1 || isnan(rc[1].med)) {
		doc_li(&r->doc, "%s, %s: p99 %s us with %s, the only configuration with data",
		       wl, metric, fmt_us(rc[0].med, us, sizeof(us)), rc[0].s->config);
	} else {
		versus(&rc[0], &rc[1], ref, &jo, next, sizeof(next));
		if (iref > 1)
			versus(&rc[0], &rc[iref], ref, &jo, vref, sizeof(vref));
		doc_li(&r->doc, "%s, %s: lowest p99 with %s, %s us (median of %zu repetition%s); "
		       "next: %s%s%s%s", wl, metric, rc[0].s->config,
		       fmt_us(rc[0].med, us, sizeof(us)), rc[0].n, rc[0].n == 1 ? "" : "s", next,
		       iref > 1 ? "; against " : "", iref > 1 ? vref : "",
		       iref == 0 ? " (the best is the reference configuration)" : "");
	}
	free(rc);
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
	wc->rc.med = wc->rc.n ? median(wc->rc.v, wc->rc.n) : NAN;
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
	need = ceil(jo.min_tail / (1 - mstat_q[MST_P99]));
	if (isnan(top->rc.med)) {
		doc_li(&r->doc, "%s, thread wakeup: no worker pool had the %.0f wakeups in a "
		       "repetition that a p99 needs", wl, need);
		goto out;
	}
	vref[0] = '\0';
	if (rw && rw != top && !isnan(rw->rc.med))
		versus(&top->rc, &rw->rc, ref, &jo, vref, sizeof(vref));
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
	n = top_groups(s, MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
	for (j = 0; j < n; j++) {
		sirq_totals(s, top[j].name, &runs, &ks, &lr);
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
		n = top_groups(&r->cs.s[i], MS_SOFTIRQ, SM_DELAY, false, top, ARRAY_SIZE(top));
		for (j = 0; j < n; j++) {
			sirq_totals(&r->cs.s[i], top[j].name, &runs, &ks, &lr);
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
	const char *wl[64];
	struct keylist kl = { 0 };
	size_t w, n, i;

	doc_h(&r->doc, 2, "Findings");
	doc_p(&r->doc, "Computed from the data: a configuration's p99 is the median over its "
	      "repetitions of each repetition's own p99, and the verdicts follow the rules "
	      "of 'deferbench compare' (docs/report.md), applied between configurations.");
	n = report_workloads(r, wl, ARRAY_SIZE(wl));
	for (w = 0; w < n; w++) {
		const struct cellset *ref = cellsets_reference(&r->cs, wl[w]);

		keylist_free(&kl);
		if (ref && keylist_collect(ref, false, &kl))
			keylist_free(&kl);
		for (i = 0; i < kl.n; i++)
			if (kl.k[i].src == MS_WORKLOAD && kl.k[i].stat == MST_P99)
				best_config(r, wl[w], kl.k[i].name);
		wakeup_finding(r, wl[w]);
	}
	keylist_free(&kl);
	data_quality(r);
	long_runs(r);
	table_contexts_overview(r);
}
