/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpd.h - change-point detection on a short series of measurements (one value per run,
 * in kernel order) with E-divisive means: Matteson and James, "A Nonparametric Approach
 * for Multiple Change Point Analysis of Multivariate Data", JASA 2014; the method
 * MongoDB ("Change Point Detection in Software Performance Testing", ICPE 2020) and
 * Apache Otava (Hunter) run on performance histories.
 *
 * Why this method: it assumes no distribution (latency percentiles are skewed and
 * lumpy), finds several changes by bisection, and its significance comes from a
 * permutation test, so the false-alarm rate is the nominal one on any stationary noise.
 *
 * The statistic of a split of the segment [s, e) into X = [s, t) and Y = [t, k),
 * k <= e, with d(a, b) = |a - b|^alpha:
 *   E = 2/(m n) sum d(X, Y) - 1/C(m,2) sum_{i<j} d(X_i, X_j) - 1/C(n,2) sum d(Y_i, Y_j)
 *   Q = m n / (m + n) * E,      m = |X| >= min_size, n = |Y| >= min_size
 * The best (t, k) over all current segments is tested by permuting the values within
 * each segment (perms times; p = (1 + #{Q_perm >= Q}) / (perms + 1)); when p <= sig,
 * t becomes a change point and the search goes on, otherwise it stops. What is permuted
 * must be exchangeable when nothing changed: runs, never a run's repetitions, which
 * share the run's own level (simulated: 10 runs x 3 repetitions, run-to-run sd 0.2,
 * permuting repetitions found a change in 31% of stationary series at sig 0.05).
 *
 * One outlier does not make a change point: with min_size >= 2 any segment holding it
 * holds a normal value (or group) too, and the within-segment term cancels much of its
 * distance to the others. (A change in the newest group alone is therefore not seen
 * until a second one confirms it.)
 *
 * Pure: no I/O, no global state; deterministic for a given seed.
 * Return convention: 0 or -errno (-EINVAL bad options or a non-finite value, -ENOMEM).
 */
#ifndef DEFERBENCH_CPD_H
#define DEFERBENCH_CPD_H

#include <stddef.h>
#include <stdint.h>

struct cpd_opts {
	double alpha;		/* distance exponent, (0, 2); 1 as Matteson and James */
	size_t min_size;	/* smallest segment, >= 2 */
	double sig;		/* significance level of each permutation test, (0, 1) */
	unsigned int perms;	/* permutations per test, >= 19 */
	uint64_t seed;
	size_t max_cp;		/* stop after this many change points */
};

/* cpd_opts_default - alpha 1, min_size 2, sig 0.05, 999 permutations */
void cpd_opts_default(struct cpd_opts *o);

struct cpd_point {
	size_t index;		/* first value after the change */
	double q;		/* the E-divisive statistic when it was found */
	double p;		/* permutation p-value; confidence = 1 - p */
};

/*
 * cpd_edivisive - the change points of x[n], sorted by index, into cp (room for
 * o->max_cp entries); *ncp is how many.
 * groups: NULL, or ngroups + 1 offsets (groups[0] = 0, groups[ngroups] = n) that cut x
 * into groups, the repetitions of one run each. Change points then fall only between
 * groups, index and min_size count groups, and a permutation moves whole groups: a run
 * is the unit that is exchangeable when nothing changed (its repetitions share the
 * run's own level), while the statistic still sees every repetition. With NULL every
 * value is its own group. Fewer than 2 * min_size groups have no change point.
 */
int cpd_edivisive(const double *x, size_t n, const size_t *groups, size_t ngroups,
		  const struct cpd_opts *o, struct cpd_point *cp, size_t *ncp);

/*
 * cpd_min_values - the fewest groups (runs) whose permutation test can reach level sig
 * at all: the most extreme arrangement of n groups, a step in the middle, is matched by
 * about 2 of the C(n, n/2) orders, so p >= 2 / C(n, n/2); below this many, no series
 * can show a change point at that level, whatever its values
 */
size_t cpd_min_values(double sig);

/*
 * cpd_prune_small - drop change points whose step is smaller than min_rel: the
 * relative difference of the medians of the two segments around it (after / before
 * - 1, in either direction). The weakest goes first and the steps are recomputed
 * after each removal: merging two segments changes the medians its neighbours are
 * measured against. Returns the new count.
 */
size_t cpd_prune_small(const double *x, size_t n, struct cpd_point *cp, size_t ncp,
		       double min_rel);

/* cpd_segment_median - median of x[a, b) (not modified); NaN when empty */
double cpd_segment_median(const double *x, size_t a, size_t b);

#endif
