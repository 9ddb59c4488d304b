/* SPDX-License-Identifier: GPL-2.0 */
/*
 * detail_out.h - the output layer's view of detail.h (record --slowest, --stacks): the
 * stacks named, each classed by how the softirq came to run, and summed per call
 * site; shared by the table (output_detail.c), summary.json (summary_detail.c) and the
 * CSV files (detail_csv.c).
 *
 * How a softirq came to run, read from its stack at entry (innermost first, tracing
 * frames left out): through local_bh_enable() (__local_bh_enable_ip: the end of a
 * BH-disabled section, or of a spin_unlock_bh()), at irq exit (__irq_exit_rcu), in
 * ksoftirqd (run_ksoftirqd), or otherwise (do_softirq from elsewhere). The call site is
 * the first frame past that machinery: the code that ended the BH-disabled section
 * (the caller of spin_unlock_bh() rather than the lock function), the interrupt whose
 * exit ran it, "ksoftirqd".
 */
#ifndef DEFERBENCH_DETAIL_OUT_H
#define DEFERBENCH_DETAIL_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "detail.h"
#include "result.h"

enum stack_how { HOW_BH_ENABLE, HOW_IRQ_EXIT, HOW_KSOFTIRQD, HOW_OTHER, HOW_NR };
extern const char *const stack_how_names[HOW_NR];	/* "bh_enable", "irq_exit", ... */

#define SITE_LEN 128
#define SITE_PATH_LEN 256

struct stack_view {
	char *folded;			/* "outermost;...;handle_softirqs", function names */
	enum stack_how how;
	char site[SITE_LEN];
	char path[SITE_PATH_LEN];	/* "site <- caller <- caller" */
};

/* The entries of one vector whose stacks share a way in and a call site. */
struct site_row {
	unsigned int vec;
	enum stack_how how;
	char site[SITE_LEN];
	char path[SITE_PATH_LEN];	/* of its stack with the most delay */
	uint64_t path_wait;
	uint64_t count, ksoftirqd;
	uint64_t waits, wait_ns, part_ns[WAIT_NR];	/* split delays, as stack_agg */
	uint64_t runs, run_ns, long_runs, long_run_ns;
};

struct stack_report {
	struct stack_view *view;	/* [detail.nst] */
	uint32_t nview;
	struct site_row *site;		/* by vector, then most delay first */
	uint32_t nsite;
};

/* stack_report_build - name r's stacks and sum them per call site; 0 or -ENOMEM */
int stack_report_build(const struct result *r, struct stack_report *sr);
void stack_report_free(struct stack_report *sr);
/* stack_site_text - "at irq exit: X", "ksoftirqd", or the site itself, into buf */
const char *stack_site_text(enum stack_how how, const char *site, char *buf, size_t len);

/* slow_each - fn for every group with slowest events, in the order every output lists */
struct slow_group {
	enum slow_kind kind;
	int metric;			/* enum slow_metric */
	const char *name;		/* vector, workqueue, context name */
	const char *func;		/* work function ("" otherwise) */
	const char *context;		/* context kind ("" otherwise) */
	const char *where;		/* pool, or where the context ran ("" otherwise) */
	const struct slow_heap *heap;
};
typedef int (*slow_visit)(void *ctx, const struct result *r, const struct slow_group *g,
			  const struct slow_ev *ev, uint32_t n);
int slow_each(const struct result *r, slow_visit fn, void *ctx);
extern const char *const slow_metric_names[SLOW_METRIC_NR];	/* "delay", "runtime" */
extern const char *const slow_kind_names[SLOW_KIND_NR];	/* "softirq", "workqueue", ... */
/* slow_t_s - seconds since the capture's interval origin (intervals.csv's t_s) */
double slow_t_s(const struct result *r, const struct slow_ev *ev);
/* slow_interval - the row of intervals.csv the event is in */
uint64_t slow_interval(const struct result *r, const struct slow_ev *ev);
/* slow_causes_text - "hardirq 80%, other 20%" of a split delay into buf */
const char *slow_causes_text(const struct slow_ev *ev, char *buf, size_t len);

/* the record table's sections (output_detail.c) */
void output_stacks(const struct result *r, FILE *f, const struct table_opts *o);
void output_slowest(const struct result *r, FILE *f, const struct table_opts *o);
/* slowest.csv, stacks.csv, stacks.folded (detail_csv.c); nothing without detail */
int detail_write_csv(const struct result *r, const char *dir);

#endif
