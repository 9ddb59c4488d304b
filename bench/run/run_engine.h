/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_engine.h - what runs inside a cell, as the runner sees it: a backend. run_engine.c
 * binds it to capture.h and workload.h, and tests bind a fake, so that the loop, its
 * exit paths and its files are tested without tracing anything.
 */
#ifndef DEFERBENCH_RUN_ENGINE_H
#define DEFERBENCH_RUN_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "scenario.h"

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
	/* pausable - can a load of type pause while it runs (parser; NULL: none) */
	bool (*pausable)(const char *type);
	void (*stop)(struct run_cell *c);			/* capture, then workloads */
	int (*write)(struct run_cell *c, const char *dir, char *errbuf);
	/*
	 * teardown - what setup made goes; -errno when something stays (the capture's
	 * instance, held open by another process: said, journaled for restore)
	 */
	int (*teardown)(struct run_cell *c);
};

/* run_engine - the real backend: capture.h and the workload driver */
const struct run_backend *run_engine(void);
#endif
