/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aggr.h - one figure of the report: a histogram of one workload x configuration over
 * its repetitions. Both views are kept: the pooled distribution (all repetitions'
 * buckets merged: the figure every verdict judges, read the same way) and the range of
 * each repetition's own percentiles, because a pooled p99 hides whether one repetition
 * or all of them were slow.
 */
#ifndef DEFERBENCH_AGGR_H
#define DEFERBENCH_AGGR_H

#include <stdbool.h>

#include "metric.h"

struct spread {
	double med, min, max;	/* over repetitions with data; NaN when none */
};

struct figure {
	size_t reps;		/* repetitions in the set */
	size_t with_data;	/* repetitions where the group ran */
	struct spread p50, p99, max;
	bool pooled_ok;		/* buckets were available for every repetition */
	struct hist_stats pooled;
	double p25, p75;	/* pooled; NaN without buckets */
	uint64_t lost, unmatched;	/* capture counters summed over repetitions */
	unsigned int lossy_reps, incomplete_reps;
};

/* aggr_figure_get - k's stat is ignored; 0, -ENOENT when no repetition has the group */
int aggr_figure_get(const struct cellset *s, const struct metric_key *k, struct figure *f);
/* aggr_fmt_spread - "41.2 [39.8-43.0]" in microseconds, or just "41.2" for one repetition */
const char *aggr_fmt_spread(const struct spread *s, char *buf, size_t len);
/*
 * aggr_fmt_pooled - a figure's pooled p50 or p99 (st), the number the verdicts judge, with
 * the lowest and highest repetition's own in brackets: "41.2 [39.8-43.0]"; without
 * buckets (older results), the repetitions' median as aggr_fmt_spread gives it
 */
const char *aggr_fmt_pooled(const struct figure *f, enum mstat st, char *buf, size_t len);
/* aggr_fmt_pct - a fraction as a percentage without an exponent: "24.1", "1590" */
const char *aggr_fmt_pct(double frac, char *buf, size_t len);
/* aggr_fmt_flags - "LOSSY 1/3", "2 incomplete" or "" */
const char *aggr_fmt_flags(const struct figure *f, char *buf, size_t len);

/* aggr_sirq_totals - softirq runs, runs in ksoftirqd and runs over 2 ms, over the set */
void aggr_sirq_totals(const struct cellset *s, const char *vector, uint64_t *runs,
		 uint64_t *ksoftirqd, uint64_t *long_runs);

/*
 * aggr_cellset_pooled_all - every softirq vector (src MS_SOFTIRQ, all-CPU entries) or every
 * workqueue group (MS_WQ) merged, metric sub, over the set's repetitions
 */
int aggr_cellset_pooled_all(const struct cellset *s, enum msrc src, int sub, struct hist *h);
/*
 * aggr_top_groups - up to max groups of src (metric sub) with the most samples over the set,
 * most first; workqueue groups keep their pool when per_pool. Returns how many.
 */
size_t aggr_top_groups(const struct cellset *s, enum msrc src, int sub, bool per_pool,
		  struct metric_key *out, size_t max);

#endif
