/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_int.h - what the parts of the runner share: runner.c (the run and its cells),
 * run_alt.c (a segment of the alternating design), run_print.c (progress).
 */
#ifndef DEFERBENCH_RUN_INT_H
#define DEFERBENCH_RUN_INT_H

#include "runner.h"
#include "rundir.h"

/* run_apply_knobs - the config's knobs of one phase (early, late), unbound mask first */
int run_apply_knobs(struct run_state *r, const struct scn_config *cf, enum knob_phase ph,
		    char *err);
/*
 * run_bring_up - a cell (or segment) up to its measurement: the configuration's early
 * knobs, setup, late knobs, loads and workload, warm-up, then the capture and the
 * workloads' windows; -EINTR on a stop
 */
int run_bring_up(struct run_state *r, struct run_cell *c, char *err);
/* run_wait_cell - until deadline, polling the backend; -EINTR on a stop request */
int run_wait_cell(struct run_state *r, struct run_cell *c, uint64_t deadline, char *err);
/*
 * run_cell_end - the end of cell k that ran into partial with result ret: renamed into
 * place and listed in run.json, or its error reported (err); returns the result
 */
int run_cell_end(struct run_state *r, int k, const struct run_cell *c, const char *partial,
		 int ret, const char *err);
/* run_segment - segment k (alt): every knob restored before it returns, on every path */
int run_segment(struct run_state *r, int k);
/* run_plan_ns - the time the cells from k on will take, roughly */
uint64_t run_plan_ns(const struct run_state *r, int k);
/* run_cells_ns - the same for cells [from, to) */
uint64_t run_cells_ns(const struct run_state *r, int from, int to);

#endif
