/* SPDX-License-Identifier: GPL-2.0 */
/*
 * palette.h - one colour per thing across every plot of a report, kept by name: a
 * configuration, a piece of deferred work (a vector, a work function, a thread), a kind
 * of execution context, a cause of softirq delay. A name's colour is chosen once, the
 * first time a plot asks: the slot its name hashes to in a fixed palette, or the next
 * one no other name of its space holds yet; so the same name tends to get the same
 * colour in every report too. Every plot script records the colours it used
 * ("# colour SPACE:NAME #RRGGBB"), which tests/integration/t-report-browser.sh checks.
 */
#ifndef DEFERBENCH_PALETTE_H
#define DEFERBENCH_PALETTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum pal_space { PAL_CONFIG, PAL_WORK, PAL_KIND, PAL_CAUSE, PAL_SIDE, PAL_NR };

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
