// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - deferbench report: one pass over a run that writes report.md and
 * report.html together (doc.h), the CSV tables and the plots.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outw.h"
#include "plot.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"
#include "file.h"

size_t report_workloads(const struct report_ctx *r, const char **out, size_t max)
{
	size_t i, j, n = 0;

	for (i = 0; i < r->cs.n; i++) {
		for (j = 0; j < n && strcmp(out[j], r->cs.s[i].workload); j++)
			;
		if (j == n && n < max)
			out[n++] = r->cs.s[i].workload;
	}
	return n;
}

/* metadata - the run's directory, scenario and machine: last, for whoever needs them */
static void metadata(struct report_ctx *r)
{
	const struct run *run = r->run;
	size_t f, bad = 0, i;

	for (i = 0; i < run->ncells; i++)
		bad += !run->cells[i].ok;
	doc_h_id(&r->doc, 2, "run", "Run");
	doc_li(&r->doc, "%s: %s", run->is_record ? "record directory" : "run directory",
	       run->dir);
	if (run->planned)
		doc_li(&r->doc, "scenario %s, %zu of %zu planned cells (%zu of them not "
		       "finished), run %s", run->scenario, run->ncells, run->planned, bad,
		       run->complete ? "complete" : "INCOMPLETE");
	else
		doc_li(&r->doc, "scenario %s, %zu cells (%zu not finished), run %s",
		       run->scenario, run->ncells, bad, run->complete ? "complete" : "INCOMPLETE");
	for (f = 0; f < RM_NR; f++)
		if (run->meta[f][0])
			doc_li(&r->doc, "%s: %s", run_meta_names[f], run->meta[f]);
	}

/* workload_metrics - the workload's own metric names, from its reference set */
static size_t workload_metrics(const struct report_ctx *r, const char *wl,
			       struct keylist *kl, const char **names, size_t max)
{
	const struct cellset *ref = cellsets_reference(&r->cs, wl);
	size_t i, n = 0;

	if (!ref || keylist_collect(ref, false, kl))
		return 0;
	for (i = 0; i < kl->n && n < max; i++)
		if (kl->k[i].src == MS_WORKLOAD && kl->k[i].stat == MST_P50)
			names[n++] = kl->k[i].name;
	return n;
}

/* wl_id - the anchor of a workload's section */
static void wl_id(char *id, size_t len, const char *wl)
{
	snprintf(id, len, "wl-%.60s", wl);
	plot_sanitize(id);
}

/* reading_note - how to read the figures, before the first table of them */
static void reading_note(struct report_ctx *r)
{
	doc_p(&r->doc, "Latencies are in microseconds. \"p99 [a-b]\" is the p99 of all "
	      "repetitions' histograms pooled - the figure every verdict judges, the same "
	      "number advise, compare and export show - with the lowest and highest "
	      "repetition's own p99 in brackets; p99.9, stddev, p99-p50 and IQR are pooled "
	      "too. Repetitions that lost trace events are left out of softirq and workqueue "
	      "figures, as verdicts leave them out. lost and unmatched are the capture's lost "
	      "trace events and unpaired events, summed over the repetitions behind the "
	      "figure; LOSSY marks "
	      "figures from captures that lost events. This machine may be noisy: compare "
	      "configurations with each other, within one run.");
}

/* toc - the table of contents, after the summary */
static void toc(struct report_ctx *r, const char *const *wl, size_t n)
{
	char id[80], href[84];
	size_t i;

	doc_div(&r->doc, "toc");
	doc_h(&r->doc, 2, "Contents");
	doc_li_link(&r->doc, "#summary", "Summary");
	doc_li_link(&r->doc, "#findings", "Findings");
	if (r->has_obs)
		doc_li_link(&r->doc, "#capture-effect", "Capture effect");
	for (i = 0; i < n; i++) {
		wl_id(id, sizeof(id), wl[i]);
		snprintf(href, sizeof(href), "#%s", id);
		doc_li_link(&r->doc, href, "Workload %s", wl[i]);
	}
	doc_li_link(&r->doc, "#cells", "Cells");
	doc_li_link(&r->doc, "#files", "Files");
	doc_li_link(&r->doc, "#run", "Run: directory, scenario, machine");
	doc_div_end(&r->doc);
}

static void workload_section(struct report_ctx *r, const char *wl)
{
	struct keylist kl = { 0 };
	const char *m[16];
	char id[80];
	size_t i, nm;

	wl_id(id, sizeof(id), wl);
	doc_details(&r->doc, 2, id, false, "Workload %s", wl);
	nm = workload_metrics(r, wl, &kl, m, ARRAY_SIZE(m));
	if (!nm)
		doc_p(&r->doc, "No workload metrics (no workload.json).");
	for (i = 0; i < nm && !r->err; i++) {
		doc_h(&r->doc, 3, "%s: own latency, %s", wl, m[i]);
		table_workload(r, wl, m[i]);
		plots_workload(r, wl, m[i]);
	}
	table_counters(r, wl);
	doc_h(&r->doc, 3, "%s: softirqs (all CPUs), busiest vectors first", wl);
	table_softirq(r, wl);
	doc_h(&r->doc, 3, "%s: workqueues, the %u busiest groups per configuration "
	      "(all groups in tables/workqueue.csv)", wl, r->o->top_wq);
	table_workqueue(r, wl);
	if (!r->err)
		plots_deferred(r, wl);
	doc_h(&r->doc, 3, "%s: thread wakeup (sched_wakeup -> running)", wl);
	doc_p(&r->doc, "From the wakeup of a ksoftirqd or kworker thread to the context switch "
	      "that runs it: the part of softirq and workqueue delay the scheduler adds. "
	      "Statistics only (no histograms), so p50 and p99 are per-repetition spreads; "
	      "wakeups are summed over repetitions.");
	table_wakeup(r, wl);
	doc_h(&r->doc, 3, "%s: execution contexts", wl);
	doc_p(&r->doc, "Where this workload's deferred work ran, per configuration: softirq "
	      "vectors inline or in ksoftirqd, tasklets, napi polls and threads, irq threads, "
	      "hard interrupt handlers (runtime only), worker pool kinds. Delays and runtimes "
	      "as in the overview; p50 and p99 are the spread over repetitions.");
	table_contexts(r, wl);
	if (!r->err)
		plots_contexts(r, wl);
	table_wait(r, wl);
	table_stacks(r, wl);
	table_slowest(r, wl);
	if (r->o->plots && !r->err) {
		doc_h(&r->doc, 3, "%s: latency over time", wl);
		plots_time(r, wl);
	}
	doc_details_end(&r->doc);
	keylist_free(&kl);
}

/*
 * prepare_dirs - tables/ and plots/ in the output directory, which is new (the output
 * writer's staging directory, outw.h): no earlier plot or table can survive in them
 */
static int prepare_dirs(struct report_ctx *r)
{
	int ret;

	ret = path_join(r->plotdir, sizeof(r->plotdir), r->o->outdir, "plots");
	ret = ret ?: path_join(r->tabledir, sizeof(r->tabledir), r->o->outdir, "tables");
	if (ret)
		return set_errno(r->errbuf, ret, "%s: path too long", r->o->outdir);
	ret = out_mkdir_p(r->tabledir);
	if (!ret && r->o->plots)
		ret = out_mkdir_p(r->plotdir);
	if (ret)
		return set_errno(r->errbuf, ret, "%s: cannot create the output directories: %s",
				r->o->outdir, strerror(-ret));
	return 0;
}

static int open_doc(struct report_ctx *r)
{
	char md[PATH_MAX], html[PATH_MAX], title[1024];
	int ret;

	ret = path_join(md, sizeof(md), r->o->outdir, "report.md");
	ret = ret ?: path_join(html, sizeof(html), r->o->outdir, "report.html");
	snprintf(title, sizeof(title), "deferbench report: %s on %.200s (%.200s)", r->run->scenario,
		 r->run->meta[RM_HOSTNAME], r->run->meta[RM_KERNEL]);
	ret = ret ?: doc_open(&r->doc, md, html, title, r->o->outdir);
	if (ret)
		return set_errno(r->errbuf, ret, "%s: cannot write report.md/report.html: %s",
				r->o->outdir, strerror(-ret));
	return 0;
}

static void body(struct report_ctx *r)
{
	const char *wl[64];
	size_t i, n;

	/* the answer first, then what it rests on; the run's metadata last */
	n = report_workloads(r, wl, ARRAY_SIZE(wl));
	summary_write(r);
	toc(r, wl, n);
	reading_note(r);
	findings_write(r);
	observer_section(r);
	for (i = 0; i < n && !r->err; i++)
		workload_section(r, wl[i]);
	doc_details(&r->doc, 2, "cells", false, "Cells");
	table_cells(r);
	doc_details_end(&r->doc);
	doc_h_id(&r->doc, 2, "files", "Files");
	doc_li(&r->doc, "tables/workload.csv, tables/softirq.csv, tables/workqueue.csv: every "
	       "group and statistic (ns); tables/wakeup.csv: thread wakeup per ksoftirqd and "
	       "worker pool; tables/counters.csv: workload counters; tables/cells.csv: "
	       "every cell; tables/contexts.csv: every execution context; "
	       "tables/softirq_wait.csv: the causes of softirq delay");
	if (r->has_obs)
		doc_li(&r->doc, "tables/observer.csv: each workload metric traced against "
		       "untraced (ns)");
	stacks_files(r);
	if (r->o->plots)
		doc_li(&r->doc, "plots/: %zu plots as PNG and SVG, with the gnuplot scripts and "
		       "data that drew them", r->nplots);
	metadata(r);
}

int report_write(const struct run *run, const struct report_opts *o, char *errbuf)
{
	struct report_ctx r = { .run = run, .o = o, .errbuf = errbuf };
	struct judge_opts jo;
	int ret, e;

	ret = cellsets_build(run, &r.cs);
	if (ret)
		return set_errno(errbuf, ret, "%s: cannot group cells", run->dir);
	judge_opts_default(&jo);
	r.adv_ret = advise_sets(run, &r.cs, &jo, &r.adv, r.adv_err);
	ret = observer_load(&r);
	if (ret) {
		set_errno(errbuf, ret, "%s: out of memory", run->dir);
		goto out_free_sets;
	}
	ret = prepare_dirs(&r);
	ret = ret ?: open_doc(&r);
	if (ret)
		goto out_free_sets;
	ret = tables_open(&r);
	if (!ret)
		body(&r);
	ret = ret ?: r.err;
	e = tables_close(&r);
	ret = ret ?: e;
	e = stacks_tables_close(&r);
	ret = ret ?: e;
	e = doc_close(&r.doc);
	if (!ret && e)
		ret = set_errno(errbuf, e, "%s: cannot write the report: %s", o->outdir,
			       strerror(-e));
out_free_sets:
	if (!r.adv_ret)
		advise_free(&r.adv);
	cmp_result_free(&r.obs);
	palette_free(&r.pal);
	cellsets_free(&r.cs);
	return ret;
}
