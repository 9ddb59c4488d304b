/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rundir.h - a run directory on disk (layout: results/README.md): run.json and
 * cells/<id>/cell.json, written as the run goes (run_write.h) and read back into
 * rundata.h's struct run (run_read.c), the one reader of both formats. A record
 * directory (summary.json, from `deferbench record -o`) reads as a run of one cell.
 */
#ifndef DEFERBENCH_RUNDIR_H
#define DEFERBENCH_RUNDIR_H

#include "rundata.h"

#define RUN_SCHEMA "deferbench-run/1"
#define CELL_SCHEMA "deferbench-cell/1"
/*
 * A run of the alternating design lists segments among its cells; readers that know
 * only /1 would take a segment for a cell of its reference configuration, so such a
 * run and its segments have schemas of their own.
 */
#define RUN_SCHEMA_ALT "deferbench-run/2"
#define SEGMENT_SCHEMA "deferbench-segment/1"

/* run_load - a run directory (run.json) or a record directory (summary.json) */
int run_load(const char *dir, struct run *run, char *errbuf);
/* record_load - summary.json, then histograms.csv and workload files when present */
int record_load(const char *dir, struct record *rec, char *errbuf);
/* record_load_workload - workload.json, its histograms and intervals, when present */
int record_load_workload(const char *dir, struct record *rec, char *errbuf);

#endif
