/* SPDX-License-Identifier: GPL-2.0 */
/*
 * outdir.h - the names of deferbench's results (summary.json, the CSVs,
 * stacks.folded, raw/ with its files, worst/VECTOR/raw/, report.md, report.html, plots/, tables/), for the one place that still goes by
 * name: the staging directory "DIR.partial-PID" that a deferbench older than the output
 * writer (outw.h) left after a SIGKILL, which has no log of what it made. Everything
 * else knows deferbench's files by the manifest beside them (manifest.h).
 */
#ifndef DEFERBENCH_OUTDIR_H
#define DEFERBENCH_OUTDIR_H

#include <stdbool.h>

/*
 * outdir_results_remove - remove deferbench's own files from dir, and dir itself when that
 * empties it. 0, -ENOTEMPTY when other files remain (untouched), or -errno. Symbolic
 * links are never followed nor removed.
 */
int outdir_results_remove(const char *dir);
/* outdir_report_file - a name the report writes into plots/ and tables/ (no dot file) */
bool outdir_report_file(const char *name);

#endif
