// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - deferbench report: one pass over a run that writes report.md and
 * report.html together (doc.h), the CSV tables and the plots.
 */
#include "report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outw.h"
#include "plot.h"
#define DEFERBENCH_ALLOW_REPORT_INT_H
#include "report_int.h"
#include "msg.h"
#include "file.h"

/* workloads - the names of the workloads, in run order, and what one cell is */
static void workloads(struct report_ctx *r)
{
	size_t i, j;

	for (i = 0; i < r->cs.n; i++) {
		for (j = 0; j < r->nwl && strcmp(r->wl[j], r->cs.s[i].workload); j++)
			;
		if (j == r->nwl && r->nwl < REPORT_WL_MAX)
			r->wl[r->nwl++] = r->cs.s[i].workload;
	}
	for (i = 0; i < r->run->ncells && !r->alt; i++)
		r->alt = r->run->cells[i].alt;
	r->unit = r->alt ? "block" : "repetition";
}

/* segments - the segments of an alternating run's cells (0: not alternating) */
static size_t segments(const struct run *run)
{
	size_t i, j, n = 0;

	for (i = 0; i < run->ncells; i++) {
		if (!run->cells[i].alt)
			continue;
		for (j = 0; j < i && strcmp(run->cells[j].segment, run->cells[i].segment); j++)
			;
		n += j == i;
	}
	return n;
}

/*
 * metadata - the run's directory, scenario and machine: last, for whoever needs them.
 * An alternating run plans segments (run.json cells_planned), each of which holds
 * blocks of every arm: the report's cells are those blocks.
 */
static void metadata(struct report_ctx *r)
{
	const struct run *run = r->run;
	size_t f, bad = 0, i, nseg = segments(run);
	char planned[64] = "";

	for (i = 0; i < run->ncells; i++)
		bad += !run->cells[i].ok;
	doc_h_id(&r->doc, 2, "run", "Run");
	doc_li(&r->doc, "%s: %s", run->is_record ? "record directory" : "run directory",
	       run->dir);
	if (run->planned)
		snprintf(planned, sizeof(planned), " of %zu planned", run->planned);
	if (nseg)
		doc_li(&r->doc, "scenario %s, alternating: %zu%s segments (one per workload "
		       "and group of configurations, in cells/), %zu blocks of their "
		       "configurations (%zu of them not finished), run %s", run->scenario, nseg,
		       planned, run->ncells, bad, run->complete ? "complete" : "INCOMPLETE");
	else
		doc_li(&r->doc, "scenario %s, %zu%s cells (%zu of them not finished), run %s",
		       run->scenario, run->ncells, planned, bad,
		       run->complete ? "complete" : "INCOMPLETE");
	for (f = 0; f < RM_NR; f++)
		if (run->meta[f][0])
			doc_li(&r->doc, "%s: %s", run_meta_names[f], run->meta[f]);
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

/* workload_plots - the workload's plots, side by side: the driven work's first */
static void workload_plots(struct report_ctx *r, const char *wl, const struct driven *d,
			   size_t nd, char (*m)[NAME_LEN], size_t nm)
{
	bool polls, sirq = r->run->is_record;
	size_t i;

	if (!r->o->plots || r->err)
		return;
	for (i = 0; i < nd; i++)
		sirq |= strstr(d[i].kind, "softirq") != NULL;
	doc_h(&r->doc, 3, "%s: plots", wl);
	for (i = 0; i < nd && !r->err; i++)
		rep_plots_driven(r, wl, &d[i]);
	for (i = 0; i < nm && !r->err; i++)
		rep_plots_workload(r, wl, m[i]);
	for (i = 0, polls = false; i < nd; i++)
		polls |= strstr(d[i].kind, "NET_RX") || strstr(d[i].kind, "napi");
	if (!r->err)
		rep_plots_contexts(r, wl, polls);
	/* why softirqs waited, as bars, where softirq work is what the workload drives */
	if (sirq)
		rep_plots_wait(r, wl);
	else
		rep_plots_wait_drop(r);
	if (!r->err)
		rep_plots_deferred(r, wl);
	if (!r->err)
		rep_time_plots(r, wl);
}

/*
 * workload_section - one workload, folded: the work it drives first (what the summary
 * answered for), then its own latency, then everything else that ran; the plots last,
 * side by side
 */
static void workload_section(struct report_ctx *r, const char *wl)
{
	char m[16][NAME_LEN], id[80];
	struct driven d[4];
	size_t i, nm, nd, nprim;

	wl_id(id, sizeof(id), wl);
	doc_details(&r->doc, 2, id, false, "Workload %s", wl);
	nd = rep_driven_works(r, wl, d, ARRAY_SIZE(d));
	if (nd) {
		doc_h(&r->doc, 3, "%s: the work it drives, wait per configuration", wl);
		for (i = 0; i < nd; i++)
			doc_li(&r->doc, "%s: %s", d[i].name, d[i].kind);
		rep_table_driven(r, wl, d, nd);
	} else if (r->run->is_record) {
		/* what the recorded command drove is below, among the rest: not background */
		doc_p(&r->doc, "A record without workload.json: which work the recorded command "
		      "drove is not known. The summary names the top waiters; everything that "
		      "ran is below.");
	} else {
		doc_p(&r->doc, "%s drives no deferred work of its own that deferbench knows of "
		      "(no work entry in workload.json, no softirq or workqueue among its "
		      "primary metrics): what ran below is the machine's.", wl);
	}
	nm = rep_own_metrics(r, wl, m, ARRAY_SIZE(m), &nprim);
	doc_h(&r->doc, 3, "%s: own latency", wl);
	if (nm)
		rep_table_workload(r, wl, m, nm);
	else
		doc_p(&r->doc, "No workload metrics (no workload.json).");
	rep_table_counters(r, wl);
	doc_h(&r->doc, 3, "%s: softirqs (all CPUs), the 6 busiest vectors per configuration "
	      "(all in tables/softirq.csv)", wl);
	rep_table_softirq(r, wl);
	doc_h(&r->doc, 3, "%s: workqueues, the %u busiest groups per configuration "
	      "(all groups in tables/workqueue.csv)", wl, r->o->top_wq);
	rep_table_workqueue(r, wl);
	doc_h(&r->doc, 3, "%s: thread wakeup (sched_wakeup -> running)", wl);
	rep_wakeup_table(r, wl);
	doc_h(&r->doc, 3, "%s: execution contexts", wl);
	doc_p(&r->doc, "Where this workload's deferred work ran, per configuration: softirq "
	      "vectors inline or in ksoftirqd, tasklets, napi polls and threads, irq threads, "
	      "hard interrupt handlers (runtime only), worker pool kinds. Delays and runtimes "
	      "as in the overview; p50 and p99 are the spread over %ss.", r->unit);
	rep_table_contexts(r, wl);
	rep_table_wait(r, wl);
	rep_table_stacks(r, wl);
	rep_table_slowest(r, wl);
	/* the plots of the metrics it is judged by (of all when none is primary) */
	workload_plots(r, wl, d, nd, m, nprim ? nprim : nm);
	doc_details_end(&r->doc);
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
		return errno_msg(r->errbuf, ret, "%s: path too long", r->o->outdir);
	ret = out_mkdir_p(r->tabledir);
	if (!ret && r->o->plots)
		ret = out_mkdir_p(r->plotdir);
	if (ret)
		return errno_msg(r->errbuf, ret, "%s: cannot create the output directories: %s",
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
		return errno_msg(r->errbuf, ret, "%s: cannot write report.md/report.html: %s",
				r->o->outdir, strerror(-ret));
	return 0;
}

static void body(struct report_ctx *r)
{
	size_t i;

	/* the answer first, then what it rests on; the run's metadata last */
	rep_summary_write(r);
	toc(r, r->wl, r->nwl);
	reading_note(r);
	findings_write(r);
	rep_observer_section(r);
	for (i = 0; i < r->nwl && !r->err; i++)
		workload_section(r, r->wl[i]);
	doc_details(&r->doc, 2, "cells", false, "Cells");
	rep_table_cells(r);
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
	rep_stacks_files(r);
	if (r->o->plots)
		doc_li(&r->doc, "plots/: %zu plots as PNG and SVG, with the gnuplot scripts and "
		       "data that drew them", r->nplots);
	metadata(r);
}

int report_write(const struct run *run, const struct report_opts *o, char *errbuf)
{
	struct report_ctx r = { .run = run, .o = o, .errbuf = errbuf };
	struct judge_opts jo;
	size_t i;
	int ret, e;

	ret = cellsets_build(run, &r.cs);
	if (ret)
		return errno_msg(errbuf, ret, "%s: cannot group cells", run->dir);
	workloads(&r);
	/* each configuration's colour, in run order: the first gets the first */
	for (i = 0; i < r.cs.n; i++)
		palette_color(&r.pal, PAL_CONFIG, r.cs.s[i].config);
	judge_opts_default(&jo);
	r.adv_ret = advise_sets(run, &r.cs, &jo, &r.adv, r.adv_err);
	ret = rep_observer_load(&r);
	if (ret) {
		errno_msg(errbuf, ret, "%s: out of memory", run->dir);
		goto out_free_sets;
	}
	ret = prepare_dirs(&r);
	ret = ret ?: open_doc(&r);
	if (ret)
		goto out_free_sets;
	ret = rep_tables_open(&r);
	if (!ret)
		body(&r);
	ret = ret ?: r.err;
	e = rep_tables_close(&r);
	ret = ret ?: e;
	e = rep_stacks_tables_close(&r);
	ret = ret ?: e;
	e = doc_close(&r.doc);
	if (!ret && e)
		ret = errno_msg(errbuf, e, "%s: cannot write the report: %s", o->outdir,
			       strerror(-e));
out_free_sets:
	if (!r.adv_ret)
		advise_free(&r.adv);
	cmp_result_free(&r.obs);
	free(r.wait_bars);
	palette_free(&r.pal);
	cellsets_free(&r.cs);
	return ret;
}
