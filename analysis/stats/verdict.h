/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - from bootstrap replicates of a log ratio to the claims a verdict can make
 * against a margin, with many metrics judged at once. docs/verdicts.md states these
 * rules for users; this header states them for the code.
 *
 * For a metric with replicates d* of log(new / base) and margin m = log(1 + delta):
 *   worse      the ratio is above 1 + delta:       p_worse  = P*(d* <= m)
 *   better     the ratio is below 1 / (1 + delta): p_better = P*(d* >= -m)
 *   no change  the ratio is inside both (an equivalence test, two one-sided tests):
 *              p_same = max(P*(d* >= m), P*(d* <= -m))
 *   higher     the ratio is above 1 (a direction, by how much not known to clear the
 *              margin):                            p_higher = P*(d* <= 0)
 *   lower      below 1:                            p_lower  = P*(d* >= 0)
 * (P* counts replicates, (k + 1) / (B + 1); when no replicate is on the wrong side the
 * tail beyond the last is read from a normal fitted to the replicates, so that the small
 * levels of a large family can be reached.)
 *
 * Small samples: a percentile bootstrap of n units (blocks, repetitions) is too narrow
 * by about sqrt((n - 1) / n) and reads normal quantiles where Student's t with n - 1
 * degrees of freedom belongs. Every p-value and interval is therefore read "expanded"
 * (Hesterberg, "What Teachers Should Know About the Bootstrap", The American
 * Statistician 69(4), 2015, section 6.3): the interval at level a takes the replicates'
 * quantiles at Phi(-sqrt(n / (n - 1)) t_{n-1, 1-a}) and one minus that, and a share p of
 * replicates on the wrong side becomes 1 - T_{n-1}(Phi^-1(1 - p) sqrt((n - 1) / n)). For
 * large n both are the plain percentile method. (BCa, tried in the simulations of
 * tests/sim, raised the false claims at a ratio on the margin to 6-11%: its bias
 * correction, estimated from bucketed percentiles, is too noisy to help.)
 *
 * A family of metrics is judged by closed testing with Holm's procedure (judge.h): every
 * metric judged is one hypothesis, whatever its data say.
 */
#ifndef DEFERBENCH_VERDICT_H
#define DEFERBENCH_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "hboot.h"

enum claim { CLAIM_WORSE, CLAIM_BETTER, CLAIM_SAME, CLAIM_HIGHER, CLAIM_LOWER, CLAIM_NR };

struct claims {
	double p[CLAIM_NR];	/* one-sided, expanded for the units */
	enum claim best;	/* the smallest p of worse, better and no change */
};

/*
 * How a bootstrap's replicates are read: n units (blocks; for two independent sides,
 * the smaller side's repetitions) make the variance factor n / (n - 1), df the degrees
 * of freedom of Student's t (n - 1 for blocks; Welch's for two sides). n < 2 or a NULL
 * expansion: the plain percentile method.
 */
struct expansion {
	double n, df;
};

/* expansion_blocks - the expansion of n blocks of one stratum */
static inline struct expansion expansion_blocks(unsigned int n)
{
	return (struct expansion){ n, n > 1 ? n - 1.0 : 0 };
}

/* verdict_claims - the p-values from sorted replicates d[0..n) and margin m (log) */
void verdict_claims(const double *d, unsigned int n, double m, const struct expansion *x,
		    struct claims *c);

/* verdict_interval - the interval of exp(d*) at confidence 1 - 2a, read through x */
void verdict_interval(const double *d, unsigned int n, double a, const struct expansion *x,
		      double *lo, double *hi);

/*
 * verdict_expand_p - a bootstrap share p of replicates beyond a bound, as the p-value
 * read by x
 */
double verdict_expand_p(double p, const struct expansion *x);
/* verdict_expand_level - the quantile of the replicates that an interval at level a reads */
double verdict_expand_level(double a, const struct expansion *x);

/*
 * verdict_holm - Holm's step-down at family-wise level alpha: reject[i] for the hypotheses
 * that stand, given their p-values p[0..n). *level[i] (may be NULL) receives the level
 * each p was compared with (alpha / (n - rank)), or the last level tried for those
 * that were not reached. Returns how many were rejected, or -ENOMEM.
 */
int verdict_holm(const double *p, size_t n, double alpha, bool *reject, double *level);

/*
 * verdict_holm_with - whether Holm's step-down at alpha over p[0..n), with p[i] replaced by pi,
 * reaches and rejects hypothesis i; *level (may be NULL) the level it was held to. The
 * closed test of a hypothesis nested in hypothesis i (a direction inside "beyond the
 * margin"): judge.c. -ENOMEM, else 1 (rejected) or 0.
 */
int verdict_holm_with(const double *p, size_t n, double alpha, size_t i, double pi,
		      double *level);

/*
 * verdict_reps_needed - about how many more repetitions (per side, or of the new side alone
 * when base_fixed: a stored baseline) would let a claim about this metric stand at
 * level a, if the difference and the spread stay as estimated: the interval must fit
 * inside +-m (when |d0| < m) or clear it (|d0| > m). The variance components say how
 * the spread falls with repetitions; vboot (the replicates' variance, or NaN) scales
 * them to the spread the verdict actually saw. 0 when none are needed, -1 when no
 * number would do (the estimate sits on the margin).
 */
long verdict_reps_needed(const struct hb_var *b, const struct hb_var *n, double vboot,
			 double d0, double m, double a, bool base_fixed);

/* verdict_z_upper - the standard normal quantile at 1 - a */
double verdict_z_upper(double a);

#endif
