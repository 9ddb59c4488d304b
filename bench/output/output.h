/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output.h - helpers shared by the table (output.c) and the result files
 * (result_files.h): groups in the order every output lists them, function names
 * (result_groups.c), the columns of the tables (table.c).
 */
#ifndef DEFERBENCH_OUTPUT_H
#define DEFERBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fmt.h"
#include "result.h"

/* result_sirq_all - vector vec merged over every CPU; false if it never ran */
bool result_sirq_all(const struct result *r, int vec, struct sirq_group *out);
/*
 * result_sirq_each - fn for every vector that ran: its all-CPU merge (cpu -1), then each CPU
 * it ran on, in the order every output lists them. Returns 0 or -ENOMEM.
 */
typedef void (*sirq_visit)(void *ctx, const struct result *r, const struct sirq_group *g,
			   int vec, int cpu);
int result_sirq_each(const struct result *r, sirq_visit fn, void *ctx);
/*
 * One row of the contexts table, as every output lists it: the context groups of the
 * matcher, and the workqueue groups merged by pool kind (context "workqueue").
 */
struct ctx_row {
	enum ctx_kind kind;
	const char *name;		/* vector, function, device, thread, irq, pool kind */
	const char *where;		/* "inline", "thread", ... or "" */
	uint64_t count;			/* runs, polls, wakeups, items */
	uint64_t long_runs;		/* runtime > 2 ms */
	uint64_t work, budget_full;	/* napi_poll */
	uint32_t budget;
	const struct hist *delay;	/* empty for napi_poll and hardirq */
	const struct hist *runtime;
};
/* output_ctx_each - fn for every context row (kind order, then where, then busiest); 0/-ENOMEM */
typedef void (*ctx_visit)(void *ctx, const struct result *r, const struct ctx_row *row);
int output_ctx_each(const struct result *r, ctx_visit fn, void *ctx);
/* output_ctx_row_of - the row of one context group (name in buf for tasklets) */
void output_ctx_row_of(const struct result *r, const struct ctx_group *g, struct ctx_row *row,
		char *buf, size_t len);
/* output_wait_tasks_order - a vector's BH-disabling tasks, most delay caused first; caller frees */
uint32_t *output_wait_tasks_order(const struct sirq_wait *w);
/* output_contexts, output_wait - the record table's contexts and softirq wait sections */
void output_contexts(const struct result *r, FILE *f, const struct table_opts *o);
void output_wait(const struct result *r, FILE *f, const struct table_opts *o);
/* output_bh_print, output_queued_print - BH work items and items queued to another CPU */
void output_bh_print(const struct result *r, FILE *f, const struct table_opts *o);
void output_queued_print(const struct result *r, FILE *f);

/* The table's times: one unit per column (o->ns: whole ns; else us, one decimal). */
/* table_w - the width of a time column; table_unit - "us" or "ns", for the titles */
int table_w(const struct table_opts *o);
const char *table_unit(const struct table_opts *o);
const char *table_lat(uint64_t ns, const struct table_opts *o, char *buf, size_t len);
/* table_stats - " p50 p90 p99 p99.9 max" of a histogram, or dashes; _head their titles */
void table_stats(FILE *f, const struct hist *h, const struct table_opts *o);
void table_stats_head(FILE *f, const struct table_opts *o);
/* table_runtime - " | run p50 run p99" of a histogram, or dashes; _head their titles */
void table_runtime(FILE *f, const struct hist *h, const struct table_opts *o);
void table_runtime_head(FILE *f, const struct table_opts *o);

/* result_wq_order - group indices sorted by p99 delay, largest first; caller frees */
uint32_t *result_wq_order(const struct result *r);
/* result_wq_func - the work function's symbol */
const char *result_wq_func(const struct result *r, const struct wq_group *g, char *buf,
			 size_t len);

#endif
