/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cumhist.h - the cumulative histograms of a set of units (the blocks of an alternating
 * run, or a side's repetitions), so that the percentile of any weighted merge of them
 * costs a binary search: O(units x log(range)) instead of adding every bucket of every
 * drawn unit, as resampling by merging histograms does. The bootstraps and the
 * randomization test (hboot.h) draw weights, never histograms.
 *
 * A unit is a struct hb_rep: all its intervals merged. The result is exactly the
 * nearest-rank percentile of the merged histogram (hboot.h's convention).
 *
 * Units of a few buckets each (a workload's samples, one interval per sample: tens of
 * thousands of units) make the binary search cost log(range) passes over every drawn
 * unit; there the drawn units' own buckets are added into one histogram instead
 * (O(their buckets + range)), whichever of the two costs less for the draw at hand.
 * Return convention: 0 or -errno (-ENOMEM).
 */
#ifndef DEFERBENCH_CUMHIST_H
#define DEFERBENCH_CUMHIST_H

#include <stdint.h>

#include "hboot.h"

struct cumhist {
	uint32_t lo, w;		/* the domain indices [lo, lo + w) every unit lies in */
	uint32_t n;		/* units */
	uint64_t *c;		/* w x n: c[x * n + u] = samples of unit u at index <= lo + x;
				 * made at the first query that needs it (NULL before) */
	uint64_t *total;	/* samples of each unit */
	/* each unit's buckets: nz_x/nz_c[nz_off[u] .. nz_off[u + 1]) (x relative to lo) */
	uint64_t *nz_off, *nz_c;
	uint32_t *nz_x;
	uint64_t *acc;		/* w counts, all zero between calls: the sparse path's */
};

/*
 * cumhist_build - the units reps[0..n), over the range both [lo, hi) and what they use
 * (pass lo = UINT32_MAX, hi = 0 to take their own). Release with cumhist_free().
 */
int cumhist_build(struct cumhist *ch, const struct hb_rep *reps, uint32_t n, uint32_t lo,
		  uint32_t hi);
void cumhist_free(struct cumhist *ch);
/*
 * cumhist_dense - make c, the running sums (0 or -ENOMEM). The queries make it when it
 * costs less than the units' buckets (falling back on them without memory); the draws
 * of many units of a few buckets each never need it (a workload's 130,000 per-sample
 * units over 256 buckets: 270 MB, built and never read before it was made so).
 */
int cumhist_dense(struct cumhist *ch);

/* cumhist_range - the domain indices [*lo, *hi) reps[0..n) use, widened */
void cumhist_range(const struct hb_rep *reps, uint32_t n, uint32_t *lo, uint32_t *hi);

/*
 * cumhist_below - samples at or below domain index lo + x of the merge with weight
 * wt[u] of unit u, over the units listed in on[0..non)
 */
uint64_t cumhist_below(struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
		       uint32_t non, uint32_t x);
/* cumhist_unit_below - samples of unit u at or below domain index lo + x */
uint64_t cumhist_unit_below(struct cumhist *ch, uint32_t u, uint32_t x);

/*
 * cumhist_quantile - the nearest-rank q-percentile (a domain index, absolute) of the
 * merge in which unit on[i] counts wt[on[i]] times; UINT32_MAX when it holds no sample
 */
uint32_t cumhist_quantile(struct cumhist *ch, const uint32_t *wt, const uint32_t *on,
			  uint32_t non, double q);

#endif
