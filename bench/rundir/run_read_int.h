/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_read_int.h - what the readers of a run directory share: run_read.c (run.json,
 * cells) and segment_load.c (a segment of the alternating design, split by phase).
 */
#ifndef DEFERBENCH_RUN_READ_INT_H
#define DEFERBENCH_RUN_READ_INT_H

/* private to bench/rundir/: its files define DEFERBENCH_ALLOW_RUN_READ_INT_H before including it */
#ifndef DEFERBENCH_ALLOW_RUN_READ_INT_H
#error "run_read_int.h is private to bench/rundir/; include its public header"
#endif

#include <stddef.h>

#include "rundata.h"

/*
 * segment_load - the segment in segdir of the run in rundir (run.json names it id) as
 * one cell per phase: an arm's block (see segment_load.c). A segment that did not finish
 * gives one incomplete cell per arm. *out malloc'ed, cells released with run_cell_free.
 * 0 or -errno.
 */
int segment_load(const char *segdir, const char *rundir, const char *id, struct cell **out,
		 size_t *n, char *errbuf);

#endif
