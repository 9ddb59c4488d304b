/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evidence.h - one metric of two sets of repetitions, as the two-level bootstrap
 * (hboot.h) sees it: for each finished repetition, the histogram of each of its
 * intervals (intervals.csv, workload-intervals.csv), over a bucket domain both sides
 * share. A repetition that kept no per-interval histograms for the metric (an older
 * result, or a metric without them) counts as one interval: its pooled histogram.
 */
#ifndef DEFERBENCH_EVIDENCE_H
#define DEFERBENCH_EVIDENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "hboot.h"
#include "metric.h"

enum { EV_BASE, EV_NEW };

struct evidence {
	struct hb_domain dom;
	struct hb_side side[2];
	/*
	 * paired: both sides are arms of one segment of an alternating run, and repetition
	 * i of each is the same block (the blocks both have, ascending): hb_ratio_paired
	 */
	bool paired;
	uint32_t pooled_only[2];	/* repetitions without intervals (one interval each) */
	uint64_t count[2];		/* samples */
	/* storage */
	double *val;
	struct hb_rep *reps;
	struct hb_ival *ivals;
	uint32_t *idx;
	uint64_t *cnt;
};

/*
 * evidence_build - k's histograms in the finished repetitions of base and new (either
 * may be NULL: that side stays empty). k->stat is ignored. 0, or -ENOMEM; a metric
 * without buckets (thread wakeup) gives empty sides.
 */
int evidence_build(const struct cellset *base, const struct cellset *new,
		   const struct metric_key *k, struct evidence *e);
void evidence_free(struct evidence *e);

#endif
