/* SPDX-License-Identifier: GPL-2.0 */
/*
 * top_view.h - how deferbench top shows one interval (top_snap.h): a plain-text screen
 * (ANSI clear only when asked) or one JSON object on one line. Pure formatting: unit
 * tests call these with synthetic snapshots.
 */
#ifndef DEFERBENCH_TOP_VIEW_H
#define DEFERBENCH_TOP_VIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "top_snap.h"

enum top_sort { TS_ITEMS, TS_DELAY, TS_MAX, TS_CPU, TS_INFLIGHT, TS_NAME, TS_NR };
extern const char *const top_sort_names[TS_NR];	/* "items", "p99", ... */

struct top_view {
	enum top_group group;
	enum top_sort sort;
	unsigned int rows;		/* workqueue rows shown (0: all) */
	bool clear;			/* ANSI: clear the screen first (a terminal) */
	bool keys;			/* the key help line (keys are read) */
	struct table_opts table;	/* units; min_count: the rows top_snap_take folded */
	/* the capture, for the header */
	int ncpus;
	uint64_t thresh_us;		/* cpu_intensive_thresh_us */
	uint64_t lost_total;		/* events lost since the start */
	uint64_t lost_interval;		/* ... in this interval */
};

/* top_sort_rows - order the workqueue rows by v->sort (contexts keep their order) */
void top_sort_rows(struct top_snap *s, enum top_sort sort);
/* top_print_text - the screen of one interval */
void top_print_text(FILE *f, const struct top_snap *s, const struct top_view *v);
/* top_print_json - one JSON object, on one line, per interval; 0 or -ENOMEM */
int top_print_json(FILE *f, const struct top_snap *s, const struct top_view *v);

#endif
