/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_int.h - state shared by the parts of the report writer (report.c, rep_tables.c,
 * rep_plots.c, findings.c). Not for use outside report/.
 */
#ifndef DEFERBENCH_REPORT_INT_H
#define DEFERBENCH_REPORT_INT_H

/* private to analysis/report/: its files define DEFERBENCH_ALLOW_REPORT_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_REPORT_INT_H
#error "report_int.h is private to analysis/report/; include its public header"
#endif

#include <limits.h>

#include "palette.h"
#include "advise.h"
#include "aggr.h"
#include "compare.h"
#include "csvw.h"
#include "doc.h"
#include "metric.h"
#include "report.h"
#include "msg.h"

enum { TAB_WORKLOAD, TAB_SOFTIRQ, TAB_WQ, TAB_CELLS, TAB_COUNTERS, TAB_WAKEUP, TAB_CONTEXTS,
       TAB_WAIT, TAB_NR };

#define NR_VECTORS_MAX 16	/* softirq vectors a table lists (the kernel has 10) */

struct wait_bars;

#define REPORT_WL_MAX 64

struct report_ctx {
	const struct run *run;
	const struct report_opts *o;
	struct cellsets cs;
	const char *wl[REPORT_WL_MAX];	/* the workloads' names, in run order (in cs) */
	size_t nwl;
	bool alt;			/* an alternating run: its cells are blocks */
	const char *unit;		/* what one cell is: "block" or "repetition" */
	struct advice adv;		/* judged once from cs: the summary and the findings */
	int adv_ret;			/* 0, or why there is no advice: */
	char adv_err[ERRBUF_LEN];
	char plotdir[PATH_MAX];
	char tabledir[PATH_MAX];
	struct doc doc;
	struct palette pal;		/* one colour per thing in every plot */
	struct csvw tab[TAB_NR];
	size_t nplots;
	struct cmp_result obs;		/* traced against untraced (rep_observer.c) */
	bool has_obs;			/* the run has control cells, judged in obs */
	bool obs_err;			/* it has, and they could not be judged: */
	char obs_why[ERRBUF_LEN];	/* why */
	int err;			/* first fatal error (plots, files) */
	char *errbuf;
	struct wait_bars *wait_bars;	/* rep_table_wait's, for rep_plots_wait */
	/* tables/callsites.csv and tables/slowest.csv, made only when a cell has them */
	struct csvw detail_tab[2];
	bool detail_open[2];
};

/* rep_tables.c */
int rep_tables_open(struct report_ctx *r);
int rep_tables_close(struct report_ctx *r);
void rep_table_cells(struct report_ctx *r);
/* rep_table_workload - wl's own latency, each metric of nm per configuration */
void rep_table_workload(struct report_ctx *r, const char *wl, char (*metric)[NAME_LEN], size_t nm);
struct driven;
/* rep_table_driven - the wait of each work of d per configuration: where, waits, figures */
void rep_table_driven(struct report_ctx *r, const char *wl, const struct driven *d, size_t nd);
void rep_table_counters(struct report_ctx *r, const char *wl);
void rep_table_softirq(struct report_ctx *r, const char *wl);
void rep_table_workqueue(struct report_ctx *r, const char *wl);
/* rep_csv_figure - the figure columns (fig_cols) of a table row, and the row's end */
void rep_csv_figure(struct csvw *w, const struct figure *f);
/* rep_csv_ns - a latency in whole nanoseconds; an empty field when unknown (NaN) */
void rep_csv_ns(struct csvw *w, double v);
/* rep_csv_spread - p50 and p99 over repetitions: median, lowest, highest (6 cells) */
void rep_csv_spread(struct csvw *w, const struct figure *f);
/* rep_csv_health - lost, unmatched, lossy and incomplete repetitions (4 cells) */
void rep_csv_health(struct csvw *w, const struct figure *f);
/* rep_counts - a figure's lost and unmatched events as two cells of text */
void rep_counts(const struct figure *f, char *lost, char *un, size_t len);

/* rep_wakeup.c */
void rep_wakeup_table(struct report_ctx *r, const char *wl);

/*
 * findings.c: finding_advice_verdict - the answer for one workload in a sentence ("use X: ...",
 * "keep X for now, undecided ..."); finding_advice_name - "block under load hog"
 */
struct adv_workload;
void finding_advice_verdict(const struct adv_workload *w, char *buf, size_t len);
const char *finding_advice_name(const struct adv_workload *w, char *buf, size_t len);
/*
 * rep_driven.c: the deferred work a workload drives - its delay metric (stat ignored;
 * MS_WORK for a workload.json work entry), its name and what kind of work it is
 */
struct driven {
	struct metric_key k;
	char name[FUNC_LEN];		/* "flush_to_ldisc", "net_rx", "TIMER" */
	char kind[2 * NAME_LEN];	/* "workqueue", "NET_RX softirq or napi thread" */
};
/* rep_driven_works - what wl drives: its work entries, then uncovered primary groups */
size_t rep_driven_works(const struct report_ctx *r, const char *wl, struct driven *out,
		    size_t max);
/* rep_own_metrics - wl's own latency metrics, the *nprim primary ones first (nprim may be NULL) */
size_t rep_own_metrics(const struct report_ctx *r, const char *wl, char (*names)[NAME_LEN],
		   size_t max, size_t *nprim);
/* The places deferred work waits in, as the report names them (palette.h colours them). */
enum { PLACE_SOFTIRQ, PLACE_KSOFTIRQD, PLACE_NAPI, PLACE_WQ, PLACE_IRQ, PLACE_TASKLET,
       PLACE_NR };
extern const char *const rep_place_names[PLACE_NR];
/*
 * rep_driven_where - where d's waits in s happened: "napi thread" or "napi thread 93%,
 * softirq 7%" (places with 5% or more); returns the place of most of them, -1: none
 */
int rep_driven_where(const struct cellset *s, const struct driven *d, char *buf, size_t len);
/*
 * rep_top_waiters - the softirq vectors and work functions of s with the most total wait
 * (mean x waits, repetitions pooled), most first, as driven entries; returns how many
 */
size_t rep_top_waiters(const struct cellset *s, struct driven *out, size_t max);

/* rep_summary.c: rep_summary_write - the first screen: per workload, the answer */
void rep_summary_write(struct report_ctx *r);

/* rep_contexts.c */
/*
 * A kind of execution context, names merged (name NULL) or one name; where NULL: all.
 * place: where the work ran, as the palette colours it (palette.h)
 */
struct ctx_kind_row {
	const char *context, *name, *where;
	const char *label;
	const char *place;
};
enum {
	CKR_SIRQ_INLINE, CKR_SIRQ_KSOFTIRQD, CKR_NET_RX_INLINE, CKR_NET_RX_KSOFTIRQD,
	CKR_NAPI_THREAD, CKR_POLL_SOFTIRQ, CKR_POLL_KSOFTIRQD, CKR_POLL_THREAD, CKR_POLL_BUSY,
	CKR_TASKLET, CKR_IRQ_THREAD, CKR_WQ, CKR_WQ_BH,
	/* the PREEMPT_RT threads and where softirqs run there (match.h) */
	CKR_SIRQ_KTIMERS, CKR_SIRQ_IRQ_THREAD, CKR_KTIMERS, CKR_RCUC, CKR_IRQ_WORK,
	CKR_BACKLOG_NAPI, CKR_POLL_BACKLOG, CKR_WQ_BH_HI, CKR_NR
};
extern const struct ctx_kind_row rep_ctx_kind_rows[CKR_NR];
/*
 * rep_ctx_kind_pooled - the contexts of kind k in repetition cell (-1: every finished one)
 * merged into h[SM_NR] (delay, runtime), runs summed; false when there are none
 */
bool rep_ctx_kind_pooled(const struct cellset *s, const struct ctx_kind_row *k, int cell,
		     struct hist *h, uint64_t *runs);
void rep_table_contexts_overview(struct report_ctx *r);
void rep_table_contexts(struct report_ctx *r, const char *wl);
/* rep_table_wait - why softirqs waited: the table, and the bars rep_plots_wait draws */
void rep_table_wait(struct report_ctx *r, const char *wl);
void rep_plots_wait(struct report_ctx *r, const char *wl);
/* rep_plots_wait_drop - the bars of a workload whose causes are not drawn */
void rep_plots_wait_drop(struct report_ctx *r);
/*
 * The causes of softirq delay by summary.json's name, with what the report calls them
 * (docs/figures.md): the first WAIT_CAUSES_NOW are what record writes now, the rest the
 * names of results written before the split of 2026-12.
 */
struct wait_cause {
	const char *name;
	const char *label;
};
#define WAIT_CAUSES_NOW 9
extern const struct wait_cause rep_wait_causes[];

/* rep_plots.c: each draws (when plots are on) and references the plot in the doc */
struct box;
/*
 * rep_plot_box - k's box in s: pooled percentiles as verdicts read them, each repetition's
 * p99, the sample count, in the configuration's colour; 0, -ENODATA, -ENOMEM
 */
int rep_plot_box(struct report_ctx *r, const struct cellset *s, const struct metric_key *k,
	     struct box *b);
/* rep_plots_workload - wl's own metric per configuration: pooled and single percentiles */
void rep_plots_workload(struct report_ctx *r, const char *wl, const char *metric);
void rep_plots_deferred(struct report_ctx *r, const char *wl);
/* rep_plots_driven - d's wait across wl's configurations */
void rep_plots_driven(struct report_ctx *r, const char *wl, const struct driven *d);
/* rep_time_plots - the reference configuration's first repetition (block) over time */
void rep_time_plots(struct report_ctx *r, const char *wl);
/* rep_plots_contexts - delay by place; polls: and napi poll runtime (a NET_RX workload) */
void rep_plots_contexts(struct report_ctx *r, const char *wl, bool polls);

/* rep_stacks.c: record --stacks and --slowest; nothing for cells without them */
void rep_table_stacks(struct report_ctx *r, const char *wl);
void rep_table_slowest(struct report_ctx *r, const char *wl);
/* rep_stacks_files - the Files list's lines of the tables above, when they were written */
void rep_stacks_files(struct report_ctx *r);
int rep_stacks_tables_close(struct report_ctx *r);

/* rep_observer.c: the capture's effect, from the run's control cells */
int rep_observer_load(struct report_ctx *r);
void rep_observer_finding(struct report_ctx *r);
void rep_observer_section(struct report_ctx *r);

/* findings.c */
void findings_write(struct report_ctx *r);

#endif
