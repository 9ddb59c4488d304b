/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - from bootstrap replicates of a log ratio to one of three outcomes against
 * a margin, with many metrics judged at once. docs/report.md states these rules for
 * users; this header states them for the code.
 *
 * For a metric with replicates d* of log(new / base) and margin m = log(1 + delta):
 *   worse      the ratio is above 1 + delta:       p_worse  = P*(d* <= m)
 *   better     the ratio is below 1 / (1 + delta): p_better = P*(d* >= -m)
 *   no change  the ratio is inside both (an equivalence test, two one-sided tests):
 *              p_same = max(P*(d* >= m), P*(d* <= -m))
 * (P* counts replicates, (k + 1) / (B + 1); when no replicate is on the wrong side the
 * tail beyond the last is read from a normal fitted to the replicates, so that the small
 * levels of a large family can be reached). A claim made at level a is the percentile
 * interval at confidence 1 - 2a lying wholly beyond, or wholly inside, the margin; for
 * any true ratio the chance of a wrong claim is at most a.
 *
 * Each metric puts forward its strongest claim (the smallest p); Holm's step-down
 * procedure over a family of metrics then decides which claims stand at family-wise
 * level alpha: any metric whose claim does not stand is "cannot tell".
 */
#ifndef DEFERBENCH_VERDICT_H
#define DEFERBENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "hboot.h"

enum claim { CLAIM_WORSE, CLAIM_BETTER, CLAIM_SAME, CLAIM_NR };
extern const char *const claim_names[CLAIM_NR];	/* "worse", "better", "no change" */

struct claims {
	double p[CLAIM_NR];
	enum claim best;	/* the claim with the smallest p */
};

/* claims_eval - the three p-values from sorted replicates d[0..n) and margin m (log) */
void claims_eval(const double *d, unsigned int n, double m, struct claims *c);

/* ratio_interval - the percentile interval of exp(d*) at confidence 1 - 2a */
void ratio_interval(const double *d, unsigned int n, double a, double *lo, double *hi);

/*
 * holm - Holm's step-down at family-wise level alpha: reject[i] for the hypotheses
 * that stand, given their p-values p[0..n). *level[i] (may be NULL) receives the level
 * each p was compared with (alpha / (n - rank)), or the last level tried for those
 * that were not reached. Returns how many were rejected, or -ENOMEM.
 */
int holm(const double *p, size_t n, double alpha, bool *reject, double *level);

/*
 * reps_needed - about how many more repetitions (per side, or of the new side alone
 * when base_fixed: a stored baseline) would let a claim about this metric stand at
 * level a, if the difference and the spread stay as estimated: the interval must fit
 * inside +-m (when |d0| < m) or clear it (|d0| > m). The variance components say how
 * the spread falls with repetitions; vboot (the replicates' variance, or NaN) scales
 * them to the spread the verdict actually saw. 0 when none are needed, -1 when no
 * number would do (the estimate sits on the margin).
 */
long reps_needed(const struct hb_var *b, const struct hb_var *n, double vboot, double d0,
		 double m, double a, bool base_fixed);

/* z_upper - the standard normal quantile at 1 - a */
double z_upper(double a);

#endif
