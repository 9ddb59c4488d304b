/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ivfile.h - the per-interval histogram files: intervals.csv (a capture's softirq and
 * workqueue groups) and workload-intervals.csv (a workload's own metrics) share one
 * format, owned here (columns in docs/results-format.md):
 *
 *   interval,t_s,kind,name,function,pool,metric,count,min_ns,mean_ns,p50_ns,p99_ns,
 *   max_ns,buckets
 *
 * one row per interval, group and metric with samples; kind is softirq, workqueue,
 * context (an execution context: function holds the context, pool where) or workload; buckets is the interval's histogram as "lo_ns:count" pairs, so that
 * intervals merge exactly. The writers are the capture's interval callback and the
 * workload driver; the readers give plot rows (ivfile_load) or the histograms
 * themselves (ivfile_load_series, for the statistics of compare).
 */
#ifndef DEFERBENCH_IVFILE_H
#define DEFERBENCH_IVFILE_H

#include <stddef.h>
#include <stdint.h>

#include "csvw.h"
#include "hist.h"
#include "rundata.h"

struct ivfile {
	struct csvw w;
};

/* ivfile_open - create path and write the header row; 0 or -errno */
int ivfile_open(struct ivfile *f, const char *path);
/* ivfile_row - one row for h (nothing when h is NULL or empty); errors are sticky */
void ivfile_row(struct ivfile *f, uint64_t interval, double t_s, const char *kind,
		const char *name, const char *fn, const char *pool, const char *metric,
		const struct hist *h);
/* ivfile_close - 0, or the first write error */
int ivfile_close(struct ivfile *f);

/* ivfile_load - rows of the given metric ("delay", ...); caller frees *rows */
int ivfile_load(const char *path, const char *metric, struct ival_row **rows,
		   size_t *n, char *errbuf);
/*
 * ivfile_load_series - every row's histogram into rec's interval series (rundata.h),
 * one series per kind, group and metric; -ENOENT when path does not exist.
 */
int ivfile_load_series(const char *path, struct record *rec, char *errbuf);

#endif
