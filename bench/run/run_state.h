/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_state.h - a run as the runner holds it while it goes: what it was given (struct
 * run_opts), its plan, its directory, its journal; shared by the runner's parts
 * (runner.c, run_cell.c, run_alt.c, run_print.c, run_write.c) and shown to the
 * adaptive loop (struct run_more).
 */
#ifndef DEFERBENCH_RUN_STATE_H
#define DEFERBENCH_RUN_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "journal.h"
#include "opts.h"
#include "outw.h"
#include "run_engine.h"
#include "run_meta.h"
#include "scenario.h"
#include "msg.h"

struct run_state;

/*
 * An adaptive run (run --until-decided): once every planned cell has run, more() is
 * asked for further cells, given the run as written so far (run.json up to date). It
 * returns (workload, configuration) pairs in run order, malloc'ed in *add (*n = 0: the
 * run is done); the runner numbers their repetitions on from the last one. 0 or -errno.
 */
struct run_more {
	int (*more)(void *ctx, const struct run_state *r, int (**add)[2], int *n);
	void *ctx;
	unsigned int looks;		/* the looks the loop plans, recorded in run.json */
};

/*
 * What a run left, for the caller to act on (the command line adds it to a results
 * store: analysis is a layer above the runner). dir is "" when no directory was made.
 */
struct run_outcome {
	char dir[PATH_MAX];
	bool complete;
	char store[PATH_MAX];		/* the scenario's store (run --store over it), or "" */
};

struct run_opts {
	const char *scenario;		/* file */
	const char *outdir;		/* NULL: results/<host>/<kernel>/<time>-<scenario> */
	bool dry_run;
	const char *command;
	/*
	 * settings over the file's [global] (run --blocks 20, --quick): applied when the
	 * scenario is parsed, so that the run reads one value of each, the scenario's
	 */
	struct opts_layer set;
	const struct run_more *adaptive;	/* NULL: the planned cells only */
	struct run_outcome *outcome;	/* filled when not NULL (run_scenario) */
	/*
	 * check_store - the store the run will be added to (the scenario's store, run
	 * --store over it) can take it, making nothing: called with --dry-run and before
	 * the first cell, so that a store refused at the end costs no run. NULL: no check.
	 */
	int (*check_store)(const char *path, char *errbuf);
};

/* The state of one run: the runner's, and what it shows the adaptive loop. */
struct run_state {
	const struct run_opts *o;
	const struct run_backend *be;
	struct scenario *s;
	struct scn_cell *cells;		/* the plan, in run order */
	int ncells;
	int *done;			/* indices of finished cells, in order */
	int ndone;
	struct run_meta meta;
	char dir[PATH_MAX];		/* the run's result directory */
	struct outw out;		/* ... written in place, its manifest kept (outw.h) */
	struct journal j;
	bool journaled;			/* j exists on disk: restore and remove it */
	struct knob_result res[SCN_MAX_KNOBS];	/* the current cell's knobs, read back */
	/* a segment's: each arm's knobs as read back when it first ran (NULL otherwise) */
	struct knob_result (*arm_res)[SCN_MAX_KNOBS];
	bool adaptive;			/* the scenario's until_decided, and a loop to ask */
	const char *status;		/* running, complete, interrupted, failed */
	char error[ERRBUF_LEN];
	uint64_t t0;			/* CLOCK_MONOTONIC at the first cell */
	unsigned int looks;		/* looks the adaptive loop has taken */
};

#endif
