/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runner.h - `deferbench run`: every cell of a scenario, each under its configuration's
 * knobs, with the capture running beside the workload.
 *
 * The runner owns the order, the knobs (through the journal) and the result layout
 * (results/README.md). What runs inside a cell - workloads and the capture - is a
 * backend: run_engine.c binds it to capture.h and workload.h, and tests bind a fake,
 * so the loop, its exit paths and its files are tested without tracing anything.
 *
 * Per cell (safe on every exit path, Ctrl-C included):
 *   apply early knobs -> setup -> apply late knobs (threads the workloads made) ->
 *   start loads and workload -> warm-up -> start capture (and the workloads'
 *   measurement windows) -> duration -> stop -> restore knobs ->
 *   write cells/.partial-ID -> teardown -> rename to cells/ID
 */
#ifndef DEFERBENCH_RUNNER_H
#define DEFERBENCH_RUNNER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "journal.h"
#include "outw.h"
#include "scenario.h"
#include "msg.h"

/* One cell while it runs, as the backend sees it. */
struct run_cell {
	const struct scenario *s;
	const struct scn_cell *cell;
	const char *command;		/* the deferbench command line, for result files */
	const char *dir;		/* where the cell's files go (cells/.partial-ID) */
	void *priv;			/* the backend's state */
	/*
	 * alt: start_capture opens the workloads' windows on a multiple of the scenario's
	 * interval of CLOCK_MONOTONIC, where the capture's aligned intervals also begin, and
	 * sets window_ns to it: phases start there, on the same grid
	 */
	uint64_t window_ns;
};

/*
 * What runs inside a cell. Every function returns 0 or -errno and fills errbuf;
 * stop and teardown must be safe at any stage and twice.
 */
struct run_backend {
	const char *const *types;	/* workload types, NULL-terminated */
	/* check - the options of workload wl under config cfg are valid (touches nothing) */
	int (*check)(const struct scenario *s, int wl, int cfg, char *errbuf);
	int (*setup)(struct run_cell *c, char *errbuf);		/* workloads set up, capture made */
	int (*start_load)(struct run_cell *c, char *errbuf);	/* loads, then the workload */
	/* start_capture - the capture, then the workloads' metrics: warm-up left out of both */
	int (*start_capture)(struct run_cell *c, char *errbuf);
	/* poll - while the cell runs (a few times a second): -errno ends it as failed */
	int (*poll)(struct run_cell *c, char *errbuf);
	/*
	 * switch_arm - alt: the running workload and its loads follow the live options of
	 * configuration cfg, and the capture is on (traced) or paused
	 */
	int (*switch_arm)(struct run_cell *c, int cfg, bool traced, char *errbuf);
	/* live_option - can a workload of type switch option key while it runs (parser) */
	bool (*live_option)(const char *type, const char *key);
	void (*stop)(struct run_cell *c);			/* capture, then workloads */
	int (*write)(struct run_cell *c, const char *dir, char *errbuf);
	void (*teardown)(struct run_cell *c);
};

/* run_engine - the real backend: capture.h and the workload driver */
const struct run_backend *run_engine(void);

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
	char store[PATH_MAX];		/* --store, else the scenario's store key, or "" */
};

struct run_opts {
	const char *scenario;		/* file */
	const char *outdir;		/* NULL: results/<host>/<kernel>/<time>-<scenario> */
	bool quick;
	bool dry_run;
	const char *command;
	uint64_t until_decided_ns;	/* run --until-decided=BUDGET (0: the scenario's) */
	const struct run_more *adaptive;	/* NULL: the planned cells only */
	const char *store;		/* --store: add the run to this results store */
	/*
	 * check_store - the store the run will be added to (--store, or the scenario's
	 * store key) can take it, making nothing: called with --dry-run and before the
	 * first cell, so that a store refused at the end costs no run. NULL: no check.
	 */
	int (*check_store)(const char *path, char *errbuf);
	struct run_outcome *outcome;	/* filled when not NULL (run_scenario) */
	const char *design;		/* --design: "alternate" or "cells" over [global] */
	unsigned int blocks;		/* --blocks: over [global] blocks (0: the file's) */
};

/* run_adaptive - the run adds repetitions until its verdicts are decided */
bool run_adaptive(const struct run_state *r);

/* run_scenario - the whole run; returns the exit code (0 complete, 1 otherwise) */
int run_scenario(const struct run_opts *o, const struct run_backend *be);

/* Machine and kernel facts for run.json (run_meta.c). */
struct run_meta {
	char kernel[128];
	char hostname[128];
	int cpus;
	char cpu_model[128];
	char preempt[32];		/* none, voluntary, full, lazy, rt, or "unknown" */
	char preempt_source[16];	/* debugfs, cmdline, config, uname */
	bool preempt_dynamic;
	int hz;				/* CONFIG_HZ; 0 = unknown */
	char nohz[16];			/* idle, full, periodic, or "" when unknown */
	char cmdline[1024];
	char governor[32];		/* cpu0's scaling governor, "" without cpufreq */
	char started[32];
};

/* run_meta_collect - read everything from this machine */
void run_meta_collect(struct run_meta *m);
/*
 * run_meta_kernel - the pure part: preemption model, HZ and NO_HZ from the kernel
 * config text (may be NULL), `uname -v`, debugfs' sched/preempt (may be NULL) and the
 * command line.
 */
void run_meta_kernel(struct run_meta *m, const char *config, const char *uname_v,
		     const char *dbg_preempt, const char *cmdline);

/* run_dir_default - "results/<host>/<kernel>/<YYYYmmddTHHMMSSZ>-<scenario>" */
int run_dir_default(char *buf, size_t len, const char *host, const char *kernel, time_t t,
		    const char *scenario);

/* The state of one run, shared by runner.c, run_print.c and run_json.c. */
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
	const char *status;		/* running, complete, interrupted, failed */
	char error[ERRBUF_LEN];
	uint64_t t0;			/* CLOCK_MONOTONIC at the first cell */
	unsigned int looks;		/* looks the adaptive loop has taken */
};

#endif
