/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_print.h - what `deferbench run` prints: the --dry-run plan, the progress line
 * (on a terminal only), and the closing summary.
 */
#ifndef DEFERBENCH_RUN_PRINT_H
#define DEFERBENCH_RUN_PRINT_H

#include <stdio.h>

#include "run_state.h"

/* run_plan_ns - the time the cells from k on will take, roughly */
uint64_t run_plan_ns(const struct run_state *r, int k);
/* run_print_plan - cells in run order and every knob change, without changing any */
int run_print_plan(const struct run_state *r, FILE *f);
/*
 * run_progress - "[k/N] ID  elapsed  left" as cell k starts: on a terminal one line
 * rewritten in place, otherwise (a CI log) one line each time
 */
void run_progress(const struct run_state *r, int k);
/*
 * run_progress_phase - segment c at block b, position pos: the terminal line follows
 * every phase; a log gets a line at most every PROGRESS_LOG_NS
 */
void run_progress_phase(const struct run_state *r, const struct run_cell *c, unsigned int b,
			int pos);
/*
 * run_print_added - what the adaptive loop's look added to the plan, cells [from, ncells):
 * blocks in continuation segments, cells, and their time; or that the budget had no
 * room for the cells or blocks asked for
 */
void run_print_added(const struct run_state *r, int from, bool cell_asked, bool block_asked,
		     FILE *f);
/* run_progress_clear - end the progress line before other output */
void run_progress_clear(void);
void run_summary(const struct run_state *r, FILE *f);

#endif
