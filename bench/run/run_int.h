/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_int.h - what the parts of the runner share: runner.c (the run, and the lifecycle
 * of its cells and segments), run_alt.c (what a segment of the alternating design does
 * in it), run_print.c (progress).
 */
#ifndef DEFERBENCH_RUN_INT_H
#define DEFERBENCH_RUN_INT_H

/* private to bench/run/: its files define DEFERBENCH_ALLOW_RUN_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_RUN_INT_H
#error "run_int.h is private to bench/run/; include its public header"
#endif

#include "run_state.h"
#include "run_write.h"

/* run_cell_knobs - the config's knobs of one phase (early, late), unbound mask first */
int run_cell_knobs(struct run_state *r, const struct scn_config *cf, enum knob_phase ph,
		   char *err);
/*
 * run_cell_up - a cell (or segment) up to its measurement: the configuration's early
 * knobs, setup, late knobs, loads and workload, warm-up, then the capture and the
 * workloads' windows; -EINTR on a stop
 */
int run_cell_up(struct run_state *r, struct run_cell *c, char *err);
/* run_cell_wait - until deadline, polling the backend; -EINTR on a stop request */
int run_cell_wait(struct run_state *r, struct run_cell *c, uint64_t deadline, char *err);
/*
 * run_kind - what a cell and a segment of the alternating design do differently. Their
 * lifecycle is one, runner.c's run_cell(), as rtla's run_tool() is one for every tool:
 * its directory -> begin -> measure -> stop -> every knob restored -> the backend's files
 * -> write -> cell.json -> teardown -> end -> renamed into place and listed in run.json.
 */
struct run_kind {
	const char *what;	/* "cell", "segment": in messages */
	/* begin - its state in *priv (NULL: none); 0 or -errno, before anything is done */
	int (*begin)(struct run_state *r, struct run_cell *c, void **priv);
	/* measure - up to the end of its measurement; -EINTR on a stop */
	int (*measure)(struct run_state *r, struct run_cell *c, void *priv, char *err);
	/* write - its own files in dir, beside the backend's; NULL: none */
	int (*write)(struct run_state *r, const struct run_cell *c, void *priv, const char *dir,
		     char *err);
	/* end - its state freed; NULL: none */
	void (*end)(struct run_state *r, void *priv);
};

/* run_cell_kind - a cell (run_cell.c): up, the duration, down */
extern const struct run_kind run_cell_kind;
/* run_segment_kind - a segment (run_alt.c): the workload once, the arms in phases */
extern const struct run_kind run_segment_kind;

#endif
