/* SPDX-License-Identifier: GPL-2.0 */
/*
 * palette.h - one colour per thing across every plot of a report: a configuration, a
 * place deferred work runs in (softirq, ksoftirqd, napi thread, workqueue, ...), a
 * piece of deferred work (a vector, a work function, a thread), a cause of softirq
 * delay. Each kind of thing (a space) draws from its own colours, which no other space
 * uses, so that a colour means one thing in the whole report:
 *
 *   - places have fixed colours (a softirq is always the same blue);
 *   - configurations and causes take the first colour their space has free, in the
 *     order they are first asked for (the report asks for every configuration in run
 *     order before it draws: the first configuration gets the first colour), so two
 *     never share one while there are colours left;
 *   - work takes the slot its name hashes to, or the next one free: so the same
 *     function or vector tends to keep its colour from report to report.
 *
 * Black and dark grey are none of them: the parts of a ladder's boxes (median, p99.9,
 * each block's p99) are drawn in them. Every plot script records the colours it used
 * ("# colour SPACE:NAME #RRGGBB"), which tests/integration/t-report-synthetic.sh checks;
 * docs/report.md has the table.
 */
#ifndef DEFERBENCH_PALETTE_H
#define DEFERBENCH_PALETTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum pal_space { PAL_CONFIG, PAL_PLACE, PAL_WORK, PAL_CAUSE, PAL_NR };

/* The neutral marks of a ladder: not a thing, so no space's colour. */
#define PAL_MARK_MEDIAN "#000000"
#define PAL_MARK_TAIL "#000000"
#define PAL_MARK_REP "#666666"

struct pal_entry {
	char name[160];
	int slot;
};

struct palette {
	struct pal_entry *e[PAL_NR];
	size_t n[PAL_NR], cap[PAL_NR];
};

/* palette_color - "#RRGGBB" of name in space sp (stable for the palette's life) */
const char *palette_color(struct palette *p, enum pal_space sp, const char *name);
/*
 * palette_pick - name's colour into *color and its key "SPACE:NAME" into key (len bytes),
 * which the plot script records as "# colour KEY #RRGGBB"
 */
void palette_pick(struct palette *p, enum pal_space sp, const char *name, const char **color,
		  char *key, size_t len);
void palette_free(struct palette *p);

#endif
