/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hswap.h - the label-swap (randomization) test of a percentile ratio on the paired
 * blocks of an alternating run.
 *
 * A high percentile (p99 and beyond) is set by the few samples above it, and when the
 * machine stalls now and then those samples come from the few phases it stalled in: a
 * bootstrap of blocks then reads the luck of which arm the stalls fell on as a
 * difference (simulated, 20 blocks, A/A: a side claim in 9.4% of runs). The order of
 * the arms inside a block is randomized by the runner, so under the sharp null - the
 * arms of each block are exchangeable - swapping the labels inside any set of blocks
 * gives data as likely as those observed, and the share of swaps whose statistic is at
 * least the observed one is an exact p-value (Fisher's randomization test; Good,
 * "Permutation, Parametric and Bootstrap Tests of Hypotheses", 2005, 3.6). A claim
 * against a margin tests the null shifted to it: new / (1 + delta) exchangeable with
 * base (a change of scale, which is what the margin says). Where the tail comes from a
 * few blocks, few swaps change it and the p-value cannot be small: about 2^-k for a
 * tail from k blocks, so the test itself says how many blocks a tail claim needs.
 *
 * The statistic is log(percentile(new) / percentile(base)), each side's blocks merged,
 * nearest rank (hboot.h). With n <= HSWAP_EXACT blocks every one of the 2^n swaps is
 * counted; above that, iters random ones, p = (1 + k) / (1 + iters).
 * Return convention: 0 or -errno (-EINVAL: sides of different lengths or no data,
 * -ENOMEM).
 */
#ifndef DEFERBENCH_HSWAP_H
#define DEFERBENCH_HSWAP_H

#include <stdint.h>

#include "hboot.h"
#include "verdict.h"

#define HSWAP_EXACT 12

struct hswap {
	double p[CLAIM_NR];	/* one-sided p-value of each claim (verdict.h) */
	uint32_t tail_blocks[2];	/* base, new: blocks with samples at or above the
					 * side's percentile */
	uint32_t swaps;		/* swaps counted */
};

/*
 * hswap_test - the test of every claim of a percentile q on paired sides base and new
 * (base->n == new->n blocks), margin m (log), seed for the random swaps
 */
int hswap_test(const struct hb_domain *dom, const struct hb_side *base,
	       const struct hb_side *new, double q, double m, unsigned int iters,
	       uint64_t seed, struct hswap *out);

#endif
