/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - `deferbench run`: every cell of a scenario, each under its configuration's
 * knobs, with the capture running beside the workload.
 *
 * The runner owns the order, the knobs (through the journal) and the result layout
 * (results/README.md). What runs inside a cell - workloads and the capture - is a
 * backend (run_engine.h).
 *
 * Per cell (safe on every exit path, Ctrl-C included):
 *   apply early knobs -> setup -> apply late knobs (threads the workloads made) ->
 *   start loads and workload -> warm-up -> start capture (and the workloads'
 *   measurement windows) -> duration -> stop -> restore knobs ->
 *   write cells/.partial-ID -> teardown -> rename to cells/ID
 */
#ifndef DEFERBENCH_RUNNER_H
#define DEFERBENCH_RUNNER_H

#include "run_engine.h"
#include "run_meta.h"
#include "run_state.h"

/* run_scenario - the whole run; returns the exit code (0 complete, 1 otherwise) */
int run_scenario(const struct run_opts *o, const struct run_backend *be);

#endif
