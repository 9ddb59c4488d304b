/* SPDX-License-Identifier: GPL-2.0 */
/*
 * steady.h - does an arm of an alternating run hold still inside its phases?
 *
 * The runner leaves out the settle time after each switch and takes the rest of the
 * phase for the arm's steady state. That holds when the switch's effect has arrived
 * by the end of the settle and then stays; it does not when the effect keeps growing
 * or fading through the phase (a writeback nice switch builds writeback a new pool
 * each time, whose new workers wait longer as they age). For one arm and one metric,
 * steady_judge sets the last third of each phase's measured intervals against the
 * first third of the same phase, block by block: ratio = late / early, the paired
 * bootstrap and the three outcomes of compare, against the same margin. "worse" or
 * "better" means the arm was still moving when its phases ended - its figures are of
 * the first seconds after a switch, and a longer phase (or the configuration's own
 * `settle`) measures it nearer its steady state; "no change", that it held still
 * within the margin.
 */
#ifndef DEFERBENCH_STEADY_H
#define DEFERBENCH_STEADY_H

#include "compare.h"

/*
 * steady_judge - the first step (judge_eval) for metric k of arm, late against early;
 * judge_family then decides a family of them. An arm that is not a segment's blocks
 * (cells, not an alternating run) gets p = NaN and the reason. 0 or -ENOMEM.
 */
int steady_judge(const struct cellset *arm, const struct metric_key *k, double margin,
		 const struct judge_opts *o, struct judgement *j, double **d);

#endif
