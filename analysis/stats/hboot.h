/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hboot.h - a two-level (hierarchical) bootstrap of a latency percentile and of the
 * ratio of two of them, after Kalibera and Jones, "Rigorous Benchmarking in Reasonable
 * Time" (ISMM 2013).
 *
 * The data of one side (a workload x configuration of a run) has two levels:
 * repetitions (cells, each its own boot-to-boot state, page layout, neighbours) and,
 * inside each, intervals (by default 1 s) with one histogram each. A statistic (p50,
 * p99, p99.9) is read from the histogram of all of a side's intervals merged. One
 * bootstrap replicate resamples the repetitions with replacement, then, inside each
 * chosen repetition, its intervals with replacement in circular blocks (neighbouring
 * intervals are correlated: a block of about cbrt(n) intervals keeps that), merges the
 * chosen intervals' histograms and reads the statistic. The replicates of the ratio
 * new/base are the basis of every verdict (verdict.h).
 *
 * Histograms are sparse over a domain: the sorted list of every bucket either side
 * uses, each standing for its value (the bucket's midpoint, in ns). Percentiles are
 * nearest-rank, as everywhere in deferbench.
 *
 * Deterministic: the same input and seed give the same replicates.
 * Return convention: 0 or -errno (-EINVAL: no data on a side; -ENOMEM).
 */
#ifndef DEFERBENCH_HBOOT_H
#define DEFERBENCH_HBOOT_H

#include <stddef.h>
#include <stdint.h>

/* One interval's histogram: n non-empty buckets, domain indices strictly ascending. */
struct hb_ival {
	uint32_t n;
	uint32_t *idx;
	uint64_t *cnt;
	uint64_t total;
};

struct hb_rep {
	struct hb_ival *iv;	/* in time order */
	uint32_t n;
	/*
	 * paired blocks: the segment the block ran in (0 for the first). A continuation
	 * segment (run --until-decided) restarts the workload, so its blocks are not drawn
	 * from the same distribution as the first's: the paired bootstrap resamples blocks
	 * within their segment (strata), never across
	 */
	uint32_t stratum;
};

struct hb_side {
	struct hb_rep *rep;
	uint32_t n;
};

/* The values (ns) the buckets stand for, ascending; shared by both sides. */
struct hb_domain {
	const double *val;
	uint32_t n;
};

/*
 * Variance components of a side's statistic, on the log scale (Kalibera and Jones):
 * between = the variance of a repetition's true level around the configuration's,
 * within = the variance one repetition's estimate has from its own intervals alone.
 * A side of n repetitions estimates the statistic with variance (between + within) / n;
 * more intervals per repetition shrink only `within`, more repetitions shrink both.
 */
struct hb_var {
	double between;
	double within;
	uint32_t reps;
	double ivals;		/* mean intervals per repetition */
};

struct hb_opts {
	double q;		/* the percentile, 0 < q < 1 */
	unsigned int iters;	/* replicates */
	uint64_t seed;
};

struct hb_ratio {
	double base, new;	/* the statistic of each side's pooled data (ns) */
	double *d;		/* iters replicates of log(new / base), ascending; caller frees */
	unsigned int iters;
	struct hb_var vbase, vnew;
};

/* hb_stat - the q-percentile of a side's intervals merged: NaN when the side is empty */
double hb_stat(const struct hb_domain *dom, const struct hb_side *s, double q);
/* hb_count - the samples of a side */
uint64_t hb_count(const struct hb_side *s);

/*
 * hb_ratio - replicates of log(statistic(new) / statistic(base)), each side resampled
 * on its own, and both sides' variance components. -EINVAL when a side has no
 * repetition with data or a statistic is 0. Release with hb_ratio_free().
 */
int hb_ratio(const struct hb_domain *dom, const struct hb_side *base,
	     const struct hb_side *new, const struct hb_opts *o, struct hb_ratio *r);
void hb_ratio_free(struct hb_ratio *r);

/*
 * hb_ratio_paired - the same for paired sides: repetition i of base and of new are the
 * same block of an alternating run (the same minutes of the machine, each arm once), so
 * a replicate draws n blocks with replacement and takes both sides of each drawn block
 * whole (Efron and Tibshirani 1993, 6.9: the bootstrap of paired data resamples pairs).
 * The machine's drift between blocks falls on both sides alike and cancels in the
 * ratio. base->n must equal new->n; a block empty on one side counts for that side
 * only. Variance components are not computed (r->vbase, r->vnew zero). -EINVAL as
 * hb_ratio, or when the sides differ in length.
 */
int hb_ratio_paired(const struct hb_domain *dom, const struct hb_side *base,
		    const struct hb_side *new, const struct hb_opts *o, struct hb_ratio *r);

/*
 * hb_side_ends - the start and the end of each repetition of s, as two sides paired
 * repetition by repetition: early->rep[i] is the first third of repetition i's
 * intervals (at least one), late->rep[i] the last as many; a repetition of fewer than
 * two intervals is empty on both. early->rep and late->rep are the caller's, s->n
 * entries each; the intervals stay s's. hb_ratio_paired(dom, early, late) then says
 * whether the statistic moved inside the repetitions (an arm inside its phases).
 */
void hb_side_ends(const struct hb_side *s, struct hb_side *early, struct hb_side *late);

/* hb_variance - a side's variance components (within from a bootstrap of each repetition) */
int hb_variance(const struct hb_domain *dom, const struct hb_side *s, const struct hb_opts *o,
		struct hb_var *v);

/*
 * hb_level_shift - a change in level inside one repetition (warm-up, drift): the largest
 * difference of mean log interval statistic before and after any split point, and its
 * permutation p-value (iters shuffles of the intervals). *at is the first interval after
 * the split. p is 1 with fewer than 4 intervals.
 */
double hb_level_shift(const struct hb_domain *dom, const struct hb_rep *r, double q,
		      unsigned int iters, uint64_t seed, uint32_t *at, double *shift);

#endif
